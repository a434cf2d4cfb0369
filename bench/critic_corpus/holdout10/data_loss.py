"""Data loss, holdout10: an inner merge of loan records onto a catalogue that no longer holds
withdrawn items (library circulation), and lab moisture strings coerced to NaN and silently
skipped by groupby means (coffee roasting QC)."""

from textwrap import dedent

from bench.critic_corpus import Case

_LIBRARY = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(10_081)
n_items = 1500
genres = ["fiction", "crime", "children", "non-fiction", "graphic", "large print"]
catalogue = pd.DataFrame({
    "barcode": [f"3{i:07d}" for i in range(n_items)],
    "genre": rng.choice(genres, n_items, p=[0.3, 0.15, 0.2, 0.2, 0.08, 0.07]),
    "branch": rng.choice(["Central", "Riverside", "Hillcrest", "Mobile"], n_items,
                         p=[0.45, 0.25, 0.2, 0.1]),
})
pop = rng.gamma(1.2, 1.0, n_items) * catalogue["genre"].map(
    {"fiction": 1.0, "crime": 1.3, "children": 1.6, "non-fiction": 0.6, "graphic": 1.4,
     "large print": 0.9}).to_numpy()
loans = pd.DataFrame({
    "barcode": rng.choice(catalogue["barcode"], 12_000, p=pop / pop.sum()),
    "loan_date": pd.Timestamp("2023-01-01")
    + pd.to_timedelta(rng.integers(0, 365, 12_000), unit="D"),
})
# heavily used items wear out and are weeded from the catalogue
worn = catalogue["barcode"][(pop > np.quantile(pop, 0.75)) & (rng.random(n_items) < 0.45)]
catalogue = catalogue[~catalogue["barcode"].isin(worn)].reset_index(drop=True)
"""

_ROAST = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(10_082)
n = 360
origin = rng.choice(["Ethiopia", "Colombia", "Brazil", "Sumatra", "Guatemala"], n)
moist = rng.normal(10.6, 0.9, n) + np.where(origin == "Sumatra", 1.4, 0.0)
vals = [f"{m:.1f}" for m in moist]
for i in range(n):
    r = rng.random()
    if origin[i] == "Sumatra" and r < 0.28:
        vals[i] = rng.choice(["OVER", ">13.0", "recheck"])
    elif r < 0.05:
        vals[i] = rng.choice(["n/a", ""])
greens = pd.DataFrame({"lot": [f"GC-{i:04d}" for i in range(n)], "origin": origin,
                       "moisture_pct": vals, "density_g_l": rng.normal(700, 25, n).round()})
"""

CASES: list[Case] = [
    Case(
        id="data_loss-h10-library-inner-merge-weeded",
        family="data_loss",
        twin="data_loss-h10-library-inner-merge-weeded-sound",
        split="holdout10",
        setup=_LIBRARY,
        note="The default inner merge drops every loan of an item since weeded from the "
        "catalogue (the most-borrowed ones), shrinking totals and shifting genre shares, "
        "with no count of lost loans.",
        code=dedent("""\
            circ = loans.merge(catalogue, on="barcode")
            by_genre = (circ.groupby("genre")
                        .agg(loans=("barcode", "size"), items=("barcode", "nunique"))
                        .assign(loans_per_item=lambda d: d["loans"] / d["items"],
                                share=lambda d: d["loans"] / d["loans"].sum())
                        .sort_values("loans", ascending=False))
            print(f"2023 loans: {len(circ):,}")
            print(circ.groupby("branch").size().rename("loans").to_string())
            by_genre.round(3)
        """),
    ),
    Case(
        id="data_loss-h10-library-inner-merge-weeded-sound",
        family=None,
        twin="data_loss-h10-library-inner-merge-weeded",
        split="holdout10",
        setup=_LIBRARY,
        note="A left merge with an indicator keeps loans of weeded items, reports how many "
        "had no catalogue record, and labels them 'withdrawn' instead of dropping them.",
        code=dedent("""\
            circ = loans.merge(catalogue, on="barcode", how="left", indicator=True)
            missing = circ["_merge"].eq("left_only")
            print(f"2023 loans: {len(circ):,}; {missing.sum():,} ({missing.mean():.1%}) are "
                  f"of {circ.loc[missing, 'barcode'].nunique()} items no longer catalogued")
            circ[["genre", "branch"]] = circ[["genre", "branch"]].fillna("withdrawn")
            by_genre = (circ.groupby("genre")
                        .agg(loans=("barcode", "size"), items=("barcode", "nunique"))
                        .assign(loans_per_item=lambda d: d["loans"] / d["items"],
                                share=lambda d: d["loans"] / d["loans"].sum())
                        .sort_values("loans", ascending=False))
            print(circ.groupby("branch").size().rename("loans").to_string())
            by_genre.round(3)
        """),
    ),
    Case(
        id="data_loss-h10-coffee-moisture-coerce",
        family="data_loss",
        twin="data_loss-h10-coffee-moisture-coerce-sound",
        split="holdout10",
        setup=_ROAST,
        note="pd.to_numeric(errors='coerce') turns 'OVER', '>13.0' and 'recheck' readings (mostly "
        "wet Sumatra lots) into NaN, which the groupby mean and share above 12% silently skip.",
        code=dedent("""\
            greens["moisture"] = pd.to_numeric(greens["moisture_pct"], errors="coerce")
            qc = greens.groupby("origin")["moisture"].agg(
                mean="mean", sd="std", above_12=lambda s: (s > 12).mean())
            print(f"overall green moisture: {greens['moisture'].mean():.2f}% "
                  f"(spec 9-12%), lots above spec: {(greens['moisture'] > 12).mean():.1%}")
            qc.round(3)
        """),
    ),
    Case(
        id="data_loss-h10-coffee-moisture-coerce-sound",
        family=None,
        twin="data_loss-h10-coffee-moisture-coerce",
        split="holdout10",
        setup=_ROAST,
        note="Unparseable moisture readings are counted per origin and reported; over-range "
        "flags ('OVER', '>13.0') are counted as above spec rather than dropped.",
        code=dedent("""\
            raw = greens["moisture_pct"].str.strip()
            greens["moisture"] = pd.to_numeric(raw, errors="coerce")
            greens["over_range"] = raw.isin(["OVER", ">13.0"])
            greens["unread"] = greens["moisture"].isna() & ~greens["over_range"]
            qc = greens.groupby("origin").agg(
                lots=("lot", "size"), measured=("moisture", "count"),
                over_range=("over_range", "sum"), unread=("unread", "sum"),
                mean=("moisture", "mean"), sd=("moisture", "std"))
            known = greens[~greens["unread"]]
            above = (known["moisture"] > 12) | known["over_range"]
            qc["above_12"] = above.groupby(known["origin"]).mean()
            print(f"{greens['unread'].sum()} of {len(greens)} lots have no usable reading; "
                  f"{greens['over_range'].sum()} read above the meter range")
            print(f"mean of numeric readings: {greens['moisture'].mean():.2f}% "
                  f"(spec 9-12%), lots above spec: {above.mean():.1%} of {len(known)}")
            qc.round(3)
        """),
    ),
]
