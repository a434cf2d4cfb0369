"""Data loss, holdout4 idioms: drop_duplicates() on the measured columns of a forest inventory
(no tree tag), which deletes real trees that share plot, species and rounded diameter, and a
boolean filter `discount < 0.3` that silently discards every full-price item whose discount is
NaN before computing the average margin."""

from textwrap import dedent

from bench.critic_corpus import Case

_INVENTORY = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(2525)
n_trees = 1400
inventory = pd.DataFrame({
    "tree_tag": np.arange(10_000, 10_000 + n_trees),
    "plot": rng.integers(1, 21, n_trees),
    "species": rng.choice(["spruce", "pine", "birch", "aspen"], n_trees, p=[.45, .3, .15, .1]),
    "dbh_cm": rng.gamma(6, 4.5, n_trees).round(),      # diameters are recorded to the cm
})
# the field app double-submitted 60 records: exact copies, tag included
inventory = pd.concat([inventory, inventory.sample(60, random_state=1)], ignore_index=True)
plot_area_ha = 0.05
"""

_SHELF = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(7070)
n = 1800
items = pd.DataFrame({
    "sku": [f"SKU{i:05d}" for i in range(n)],
    "category": rng.choice(["grocery", "household", "personal care", "pet"], n),
    "list_price": rng.gamma(3, 4, n).round(2),
})
items["unit_cost"] = (items.list_price * rng.uniform(0.55, 0.8, n)).round(2)
on_promo = rng.random(n) < 0.45
# the promo table only fills discount for promoted items; full-price items are NaN
items["discount"] = np.where(on_promo, rng.choice([0.1, 0.2, 0.25, 0.4, 0.5], n), np.nan)
"""

CASES: list[Case] = [
    Case(
        id="dataloss-drop-duplicates-measured-columns",
        family="data_loss",
        twin="dataloss-drop-duplicates-measured-columns-sound",
        split="holdout4",
        setup=_INVENTORY,
        note="drop_duplicates() on plot/species/dbh (tag dropped first) removes hundreds of real "
        "trees that share a plot, species and 1-cm diameter, not just the 60 double entries.",
        code=dedent("""\
            trees = inventory[["plot", "species", "dbh_cm"]].drop_duplicates()
            trees = trees.assign(basal_m2=np.pi * (trees.dbh_cm / 200) ** 2)
            per_ha = (trees.groupby("species").agg(stems=("dbh_cm", "size"),
                                                   basal_m2=("basal_m2", "sum"))
                      / (20 * plot_area_ha))
            print(f"{len(trees)} trees after removing duplicate records")
            per_ha.round(1)
        """),
    ),
    Case(
        id="dataloss-drop-duplicates-measured-columns-sound",
        family=None,
        twin="dataloss-drop-duplicates-measured-columns",
        split="holdout4",
        setup=_INVENTORY,
        note="Duplicates are removed on the tree tag (the record key), and the number of "
        "removed records is reported.",
        code=dedent("""\
            trees = inventory.drop_duplicates(subset="tree_tag")
            print(f"{len(inventory) - len(trees)} double-submitted records removed; "
                  f"{len(trees)} trees remain")
            trees = trees.assign(basal_m2=np.pi * (trees.dbh_cm / 200) ** 2)
            per_ha = (trees.groupby("species").agg(stems=("dbh_cm", "size"),
                                                   basal_m2=("basal_m2", "sum"))
                      / (20 * plot_area_ha))
            per_ha.round(1)
        """),
    ),
    Case(
        id="dataloss-nan-comparison-drops-full-price",
        family="data_loss",
        twin="dataloss-nan-comparison-drops-full-price-sound",
        split="holdout4",
        setup=_SHELF,
        note="`discount < 0.3` is False for NaN, so every full-price item (~55%) silently drops "
        "out of the 'items not deeply discounted' margin; only light promos remain.",
        code=dedent("""\
            shallow = items[items.discount < 0.3]
            sell_price = shallow.list_price * (1 - shallow.discount)
            margin = (sell_price - shallow.unit_cost) / sell_price
            print("gross margin on items not deeply discounted (< 30% off):")
            margin.groupby(shallow.category).mean().mul(100).round(1)
        """),
    ),
    Case(
        id="dataloss-nan-comparison-drops-full-price-sound",
        family=None,
        twin="dataloss-nan-comparison-drops-full-price",
        split="holdout4",
        setup=_SHELF,
        note="A missing discount means no discount (fillna(0)) before filtering, so full-price "
        "items stay in; the count kept per category is shown.",
        code=dedent("""\
            priced = items.assign(discount=items.discount.fillna(0.0))
            shallow = priced[priced.discount < 0.3]
            sell_price = shallow.list_price * (1 - shallow.discount)
            margin = (sell_price - shallow.unit_cost) / sell_price
            print(f"gross margin on items not deeply discounted (< 30% off), "
                  f"{len(shallow)} of {len(items)} items:")
            margin.groupby(shallow.category).agg(["size", "mean"]).round(3)
        """),
    ),
]
