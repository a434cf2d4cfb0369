"""Correlation misuse, holdout6 idioms: a corrwith method chain that Pearson-correlates a
compass bearing in degrees (a circular variable: 359 and 1 are neighbours) with flat prices,
and a pooled log-log price/units correlation across a delicatessen's categories, where the
between-category pattern reverses the within-product one (Simpson's paradox)."""

from textwrap import dedent

from bench.critic_corpus import Case

_FLATS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(6701)
n = 700
flats = pd.DataFrame({
    "orientation_deg": rng.integers(0, 360, n),     # bearing the main windows face
    "floor": rng.integers(0, 12, n),
    "age_years": rng.integers(0, 80, n),
    "balcony_m2": rng.choice([0, 0, 4, 6, 9], n),
})
south = -np.cos(np.deg2rad(flats.orientation_deg))   # +1 facing south, -1 facing north
flats["price_per_m2"] = (4200 + 260 * south + 35 * flats.floor - 6 * flats.age_years
                         + 20 * flats.balcony_m2 + rng.normal(0, 380, n)).round(0)
"""

_DELI = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(6702)
cats = ["bread", "dairy", "produce", "coffee", "olive_oil", "charcuterie", "cheese", "wine",
        "spirits", "hampers"]
cat_price = np.array([2.5, 3, 3.5, 8, 12, 15, 18, 22, 35, 60])
cat_base = 25 * (cat_price / 2.5) ** 0.8      # this shop's premium lines are its big sellers
rows = []
for c, p0, b0 in zip(cats, cat_price, cat_base):
    for s in range(12):
        ref = p0 * rng.lognormal(0, 0.2)
        base = b0 * rng.lognormal(0, 0.3)
        price = ref * np.exp(rng.normal(0, 0.12, 26))     # weekly promotions and rises
        units = np.round(base * (price / ref) ** -1.6 * rng.lognormal(0, 0.15, 26))
        rows.append(pd.DataFrame({"category": c, "sku": f"{c}_{s:02d}", "week": np.arange(26),
                                  "price": price.round(2), "units": units.astype(int)}))
sales = pd.concat(rows, ignore_index=True)
"""

CASES: list[Case] = [
    Case(
        id="corr-compass-degrees-corrwith-flat-prices",
        family="correlation_misuse",
        twin="corr-compass-degrees-corrwith-flat-prices-sound",
        split="holdout6",
        setup=_FLATS,
        note="Orientation in degrees is circular (north is both 0 and 359), so its Pearson r "
        "with price is ~0 and it is dropped, although south-facing flats carry a clear premium.",
        code=dedent("""\
            from scipy.stats import pearsonr

            drivers = ["orientation_deg", "floor", "age_years", "balcony_m2"]
            r = flats[drivers].corrwith(flats.price_per_m2).sort_values(key=abs, ascending=False)
            print(r.round(3).to_string())
            res = pearsonr(flats.orientation_deg, flats.price_per_m2)
            print(f"orientation: r = {res.statistic:.3f}, p = {res.pvalue:.2f} "
                  "-> no effect on price, left out of the valuation model")
        """),
    ),
    Case(
        id="corr-compass-degrees-corrwith-flat-prices-sound",
        family=None,
        twin="corr-compass-degrees-corrwith-flat-prices",
        split="holdout6",
        setup=_FLATS,
        note="The bearing is turned into southness (-cos) and eastness (sin) components, which "
        "are linear quantities, before correlating them with price.",
        code=dedent("""\
            from scipy.stats import pearsonr

            rad = np.deg2rad(flats.orientation_deg)
            feats = flats.assign(southness=-np.cos(rad), eastness=np.sin(rad))
            drivers = ["southness", "eastness", "floor", "age_years", "balcony_m2"]
            r = feats[drivers].corrwith(feats.price_per_m2).sort_values(key=abs, ascending=False)
            print(r.round(3).to_string())
            res = pearsonr(feats.southness, feats.price_per_m2)
            print(f"southness: r = {res.statistic:.3f}, p = {res.pvalue:.2g} "
                  "-> south-facing flats sell for more per m2")
        """),
    ),
    Case(
        id="corr-pooled-categories-simpson-deli-elasticity",
        family="correlation_misuse",
        twin="corr-pooled-categories-simpson-deli-elasticity-sound",
        split="holdout6",
        setup=_DELI,
        note="Pooling SKUs from categories priced 2.50 to 60 correlates category price level "
        "with category volume: r = +0.86 and a positive 'elasticity', while each product's own "
        "demand falls steeply with its price.",
        code=dedent("""\
            from scipy.stats import pearsonr

            res, (slope, _) = (sales
                               .assign(log_price=np.log(sales.price),
                                       log_units=np.log(sales.units))
                               .pipe(lambda d: (pearsonr(d.log_price, d.log_units),
                                                np.polyfit(d.log_price, d.log_units, 1))))
            print(f"{sales.sku.nunique()} SKUs x {sales.week.nunique()} weeks")
            p_txt = "< 1e-4" if res.pvalue < 1e-4 else f"= {res.pvalue:.2g}"
            print(f"log price vs log units: r = {res.statistic:+.2f}, p {p_txt}")
            print(f"price elasticity of demand = {slope:+.2f}: demand rises with price, "
                  "so prices can go up across the range")
        """),
    ),
    Case(
        id="corr-pooled-categories-simpson-deli-elasticity-sound",
        family=None,
        twin="corr-pooled-categories-simpson-deli-elasticity",
        split="holdout6",
        setup=_DELI,
        note="Log price and log units are demeaned within each SKU first, so the correlation "
        "and elasticity describe how a product's sales respond to its own price changes.",
        code=dedent("""\
            from scipy.stats import pearsonr

            logs = sales.assign(log_price=np.log(sales.price), log_units=np.log(sales.units))
            within = (logs[["log_price", "log_units"]]
                      - logs.groupby("sku")[["log_price", "log_units"]].transform("mean"))
            res = pearsonr(within.log_price, within.log_units)
            slope, _ = np.polyfit(within.log_price, within.log_units, 1)
            print(f"{sales.sku.nunique()} SKUs x {sales.week.nunique()} weeks")
            p_txt = "< 1e-4" if res.pvalue < 1e-4 else f"= {res.pvalue:.2g}"
            print(f"within-SKU log price vs log units: r = {res.statistic:+.2f}, p {p_txt}")
            print(f"own-price elasticity of demand = {slope:+.2f}: a 10% price rise loses "
                  f"about {1 - 1.1 ** slope:.0%} of units")
        """),
    ),
]
