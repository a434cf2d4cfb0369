"""Suspicious values, holdout10: bought-in wine lots recorded with a hammer price of 0 averaged
as sales (wine auctions, groupby/agg), and hand-rolled Bonferroni p-values above 1 printed as
results (public-transit punctuality, per-line Mann-Whitney loop)."""

from textwrap import dedent

from bench.critic_corpus import Case

_WINE = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(10_071)
n = 640
regions = rng.choice(["Bordeaux", "Burgundy", "Champagne", "Rhone", "Piedmont", "Napa"], n,
                     p=[0.32, 0.22, 0.12, 0.12, 0.12, 0.10])
low_est = np.round(rng.lognormal(7.0, 0.8, n), -1)
ratio = rng.lognormal(0.12, 0.25, n)
sold = rng.random(n) > np.where(regions == "Burgundy", 0.12, 0.22)
lots = pd.DataFrame({
    "lot": np.arange(1, n + 1),
    "region": regions,
    "vintage": rng.integers(1982, 2019, n),
    "low_est_gbp": low_est,
    "high_est_gbp": low_est * 1.5,
    "hammer_gbp": np.where(sold, np.round(low_est * ratio, -1), 0.0),
})
"""

_TRANSIT = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(10_072)
lines = ["1", "2", "4", "7", "9", "12", "15", "21", "N3", "T1", "T2", "X40"]
rows = []
for ln in lines:
    gain = 0.8 if ln in ("T1", "T2") else 0.0
    for period in ("before", "after"):
        k = int(rng.integers(150, 260))
        d = rng.gamma(1.6, 1.9, k) - (gain if period == "after" else 0) + rng.normal(0, .5, k)
        rows.append(pd.DataFrame({"line": ln, "period": period, "delay_min": d.round(1)}))
trips = pd.concat(rows, ignore_index=True)
"""

CASES: list[Case] = [
    Case(
        id="suspicious_values-h10-wine-bought-in-zero-hammer",
        family="suspicious_values",
        twin="suspicious_values-h10-wine-bought-in-zero-hammer-sound",
        split="holdout10",
        setup=_WINE,
        note="Unsold (bought-in) lots carry hammer_gbp = 0, a placeholder, yet they are averaged "
        "into the mean price and price/estimate ratio as if they had sold for nothing.",
        code=dedent("""\
            lots["vs_low_est"] = lots["hammer_gbp"] / lots["low_est_gbp"]
            by_region = (lots.groupby("region")
                         .agg(lots=("lot", "size"),
                              mean_hammer=("hammer_gbp", "mean"),
                              median_hammer=("hammer_gbp", "median"),
                              mean_vs_low=("vs_low_est", "mean"))
                         .sort_values("mean_vs_low", ascending=False))
            print(f"sale total: GBP {lots['hammer_gbp'].sum():,.0f}")
            print(f"average lot sold at {lots['vs_low_est'].mean():.2f}x its low estimate")
            by_region.round(2)
        """),
    ),
    Case(
        id="suspicious_values-h10-wine-bought-in-zero-hammer-sound",
        family=None,
        twin="suspicious_values-h10-wine-bought-in-zero-hammer",
        split="holdout10",
        setup=_WINE,
        note="Lots with hammer_gbp = 0 are recognised as bought in: they enter a sell-through "
        "rate, and price statistics are computed over sold lots only, with counts shown.",
        code=dedent("""\
            lots["sold"] = lots["hammer_gbp"] > 0
            sold = lots[lots["sold"]].assign(
                vs_low_est=lambda d: d["hammer_gbp"] / d["low_est_gbp"])
            by_region = (lots.groupby("region")
                         .agg(lots=("lot", "size"), sell_through=("sold", "mean"))
                         .join(sold.groupby("region")
                               .agg(n_sold=("lot", "size"),
                                    mean_hammer=("hammer_gbp", "mean"),
                                    median_hammer=("hammer_gbp", "median"),
                                    mean_vs_low=("vs_low_est", "mean")))
                         .sort_values("mean_vs_low", ascending=False))
            print(f"sale total: GBP {sold['hammer_gbp'].sum():,.0f} "
                  f"({len(sold)} of {len(lots)} lots sold, {(~lots['sold']).sum()} bought in)")
            print(f"average sold lot went at {sold['vs_low_est'].mean():.2f}x its low estimate")
            by_region.round(2)
        """),
    ),
    Case(
        id="suspicious_values-h10-transit-bonferroni-above-one",
        family="suspicious_values",
        twin="suspicious_values-h10-transit-bonferroni-above-one-sound",
        split="holdout10",
        setup=_TRANSIT,
        note="Bonferroni adjustment is done as p * m without capping at 1, so most lines report "
        "'adjusted p-values' such as 4.7 or 9.8, which are impossible.",
        code=dedent("""\
            from scipy.stats import mannwhitneyu

            m = trips["line"].nunique()
            out = []
            for ln, g in trips.groupby("line", sort=False):
                before = g.loc[g["period"] == "before", "delay_min"]
                after = g.loc[g["period"] == "after", "delay_min"]
                u, p = mannwhitneyu(before, after, alternative="two-sided")
                out.append((ln, before.median(), after.median(), p, p * m))
            table = pd.DataFrame(out, columns=["line", "med_before", "med_after", "p", "p_bonf"])
            print("lines with a significant change in delay:",
                  table.loc[table["p_bonf"] < 0.05, "line"].tolist())
            table.round(4)
        """),
    ),
    Case(
        id="suspicious_values-h10-transit-bonferroni-above-one-sound",
        family=None,
        twin="suspicious_values-h10-transit-bonferroni-above-one",
        split="holdout10",
        setup=_TRANSIT,
        note="Bonferroni-adjusted p-values are capped at 1 (min(p * m, 1)), so every reported "
        "value is a valid probability.",
        code=dedent("""\
            from scipy.stats import mannwhitneyu

            m = trips["line"].nunique()
            out = []
            for ln, g in trips.groupby("line", sort=False):
                before = g.loc[g["period"] == "before", "delay_min"]
                after = g.loc[g["period"] == "after", "delay_min"]
                u, p = mannwhitneyu(before, after, alternative="two-sided")
                out.append((ln, before.median(), after.median(), p, min(p * m, 1.0)))
            table = pd.DataFrame(out, columns=["line", "med_before", "med_after", "p", "p_bonf"])
            print("lines with a significant change in delay:",
                  table.loc[table["p_bonf"] < 0.05, "line"].tolist())
            table.round(4)
        """),
    ),
]
