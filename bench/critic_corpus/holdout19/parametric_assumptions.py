from bench.critic_corpus import Case

_QUAD_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(61)
quad = pd.DataFrame({
    "quadrat": [f"Q{i}" for i in range(1, 15)],
    "grazing": ["grazed"] * 7 + ["exclosure"] * 7,
})
cover = np.concatenate([
    [0, 0, 0.5, 0, 1, 2, 68],
    [6, 9, 12, 7, 15, 8, 10],
])
quad["cirsium_cover_pct"] = cover
'''

_QUAD_FLAWED = '''
from scipy import stats

summ = quad.groupby("grazing")["cirsium_cover_pct"].agg(["count", "mean", "median", "std"])
print(summ.round(2))
g = quad.loc[quad["grazing"] == "grazed", "cirsium_cover_pct"]
e = quad.loc[quad["grazing"] == "exclosure", "cirsium_cover_pct"]
t, p = stats.ttest_ind(g, e)
print(f"t = {t:.2f}, df = {len(g) + len(e) - 2}, p = {p:.3f}")
print("thistle cover does not differ between grazed and exclosure quadrats" if p >= 0.05
      else "thistle cover differs with grazing")
'''

_QUAD_SOUND = '''
from scipy import stats

summ = quad.groupby("grazing")["cirsium_cover_pct"].agg(["count", "mean", "median", "std"])
print(summ.round(2))
g = quad.loc[quad["grazing"] == "grazed", "cirsium_cover_pct"]
e = quad.loc[quad["grazing"] == "exclosure", "cirsium_cover_pct"]
u, p = stats.mannwhitneyu(g, e, alternative="two-sided", method="exact")
print(f"Mann-Whitney U = {u:.1f}, n = {len(g)} + {len(e)}, p = {p:.3f}")
print("no clear shift in thistle cover with grazing" if p >= 0.05
      else "thistle cover shifts with grazing")
'''

_BAT_SETUP = '''
import numpy as np
import pandas as pd

bats = pd.DataFrame({
    "detector": [f"AR{i:02d}" for i in range(1, 19)],
    "habitat": np.repeat(["riparian", "forest_edge", "clearcut"], 6),
    "passes_per_night": [21, 26, 31, 18, 27, 23,
                         2, 1, 0, 97, 3, 1,
                         0, 1, 2, 0, 1, 4],
})
'''

_BAT_FLAWED = '''
import statsmodels.formula.api as smf
from statsmodels.stats.anova import anova_lm

print(bats.groupby("habitat")["passes_per_night"].agg(["count", "mean", "std", "max"]).round(1))
fit = smf.ols("passes_per_night ~ C(habitat)", data=bats).fit()
tab = anova_lm(fit, typ=2)
print(tab.round(3))
pval = tab.loc["C(habitat)", "PR(>F)"]
print(f"habitat effect on bat activity: F = {tab.iloc[0]['F']:.2f}, p = {pval:.3f}")
print("no evidence that habitat affects bat activity" if pval >= 0.05
      else "bat activity differs among habitats")
'''

_BAT_SOUND = '''
from scipy import stats

print(bats.groupby("habitat")["passes_per_night"].agg(["count", "mean", "std", "max"]).round(1))
groups = [g["passes_per_night"].to_numpy() for _, g in bats.groupby("habitat")]
h, pval = stats.kruskal(*groups)
print(bats.groupby("habitat")["passes_per_night"].median().rename("median"))
print(f"habitat effect on bat activity: Kruskal-Wallis H = {h:.2f}, p = {pval:.3f}")
print("no evidence that habitat affects bat activity" if pval >= 0.05
      else "bat activity differs among habitats")
'''

CASES: list[Case] = [
    Case(
        id="h19-pa-thistle-ttest-flawed", family="parametric_assumptions", code=_QUAD_FLAWED,
        setup=_QUAD_SETUP, twin="h19-pa-thistle-ttest-sound", split="holdout19",
        note="t-test on 7 vs 7 zero-heavy cover values plus one 68% outlier: 'no difference'",
    ),
    Case(
        id="h19-pa-thistle-ttest-sound", family=None, code=_QUAD_SOUND,
        setup=_QUAD_SETUP, twin="h19-pa-thistle-ttest-flawed", split="holdout19",
        note="exact Mann-Whitney test suits tiny, skewed, zero-heavy cover data",
    ),
    Case(
        id="h19-pa-bat-anova-flawed", family="parametric_assumptions", code=_BAT_FLAWED,
        setup=_BAT_SETUP, twin="h19-pa-bat-anova-sound", split="holdout19",
        note="ANOVA on 6 skewed nightly counts per habitat; one 97-pass night drives 'no effect'",
    ),
    Case(
        id="h19-pa-bat-anova-sound", family=None, code=_BAT_SOUND,
        setup=_BAT_SETUP, twin="h19-pa-bat-anova-flawed", split="holdout19",
        note="rank-based Kruskal-Wallis for small skewed count samples",
    ),
]
