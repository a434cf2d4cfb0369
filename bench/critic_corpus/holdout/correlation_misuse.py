"""Correlation misuse, held-out idioms: pd.factorize codes of a nominal column fed to
np.corrcoef, and a DataFrame.corr() matrix that includes an ordinal abundance scale."""

from textwrap import dedent

from bench.critic_corpus import Case

_STORES = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(321)
region_lift = {"Midwest": 0.0, "Northeast": 6.0, "South": -3.0, "West": 9.0,
               "Mountain": -1.0, "Pacific NW": 4.0}
stores = pd.DataFrame({"region": rng.choice(list(region_lift), 360)})
stores["weekly_sales_k"] = (
    80 + stores.region.map(region_lift) + rng.normal(0, 10, len(stores))
).round(1)
"""

_DAFOR = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(77)
n = 150
quadrats = pd.DataFrame({
    "soil_ph": rng.normal(6.2, 0.7, n).round(2),
    "moisture_pct": rng.normal(32, 8, n).round(1),
})
# DAFOR scale for Sphagnum cover: 1 rare, 2 occasional, 3 frequent, 4 abundant, 5 dominant
score = -1.1 * (quadrats.soil_ph - 6.2) + 0.06 * (quadrats.moisture_pct - 32)
quadrats["sphagnum_dafor"] = np.digitize(score + rng.normal(0, 0.6, n), [-0.9, -0.3, 0.3, 0.9]) + 1
"""

CASES: list[Case] = [
    Case(
        id="corr-factorize-region-sales",
        family="correlation_misuse",
        twin="corr-factorize-region-sales-sound",
        split="holdout",
        note="pd.factorize gives the regions arbitrary integer codes (order of first "
        "appearance), which are then Pearson-correlated with sales.",
        code=_STORES + dedent("""\

            region_code, region_names = pd.factorize(stores.region)
            r = np.corrcoef(region_code, stores.weekly_sales_k)[0, 1]
            print(dict(enumerate(region_names)))
            print(f"region vs weekly sales: r = {r:+.3f}, r^2 = {r * r:.1%}")
        """),
    ),
    Case(
        id="corr-factorize-region-sales-sound",
        family=None,
        twin="corr-factorize-region-sales",
        split="holdout",
        note="Region treated as a factor: eta-squared (between-group share of variance) and "
        "a Kruskal-Wallis test across regions.",
        code=_STORES + dedent("""\
            from scipy import stats

            grand = stores.weekly_sales_k.mean()
            by_region = stores.groupby("region")["weekly_sales_k"]
            ss_between = (by_region.count() * (by_region.mean() - grand) ** 2).sum()
            ss_total = ((stores.weekly_sales_k - grand) ** 2).sum()
            h, p = stats.kruskal(*[g.to_numpy() for _, g in by_region])
            print(by_region.agg(["count", "mean"]).round(1))
            print(f"eta^2 = {ss_between / ss_total:.1%}; Kruskal-Wallis H = {h:.1f}, p = {p:.1e}")
        """),
    ),
    Case(
        id="corr-dafor-matrix-pearson",
        family="correlation_misuse",
        twin="corr-dafor-matrix-pearson-sound",
        split="holdout",
        note="DataFrame.corr() (Pearson by default) over a matrix that includes the ordinal "
        "1-5 DAFOR abundance scale.",
        code=_DAFOR + dedent("""\

            cm = quadrats[["sphagnum_dafor", "soil_ph", "moisture_pct"]].corr()
            print(cm.round(2))
            print(f"Sphagnum abundance vs pH: r = {cm.loc['sphagnum_dafor', 'soil_ph']:.2f}")
        """),
    ),
    Case(
        id="corr-dafor-matrix-pearson-sound",
        family=None,
        twin="corr-dafor-matrix-pearson",
        split="holdout",
        note="Same matrix with method='spearman', appropriate for the ordinal DAFOR scores.",
        code=_DAFOR + dedent("""\

            cm = quadrats[["sphagnum_dafor", "soil_ph", "moisture_pct"]].corr(method="spearman")
            print(cm.round(2))
            print(f"Sphagnum abundance vs pH: Spearman rho = "
                  f"{cm.loc['sphagnum_dafor', 'soil_ph']:.2f}")
        """),
    ),
]
