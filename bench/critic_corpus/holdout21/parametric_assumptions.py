from bench.critic_corpus import Case

_INSIGHT_SETUP = """\
import numpy as np
import pandas as pd

# direct replication, lab sample: time (s) to solve the candle problem after a break
rng = np.random.default_rng(709)
incubation = np.round(rng.lognormal(np.log(35), 1.0, 9), 1)
no_break = np.round(rng.lognormal(np.log(80), 1.0, 10), 1)
insight = pd.DataFrame({
    "participant": [f"R{i:02d}" for i in range(1, 20)],
    "condition": ["incubation"] * 9 + ["no_break"] * 10,
    "solve_time_s": np.r_[incubation, no_break],
})
insight.sort_values("solve_time_s").tail(4)
"""

_PLATFORM_SETUP = """\
import numpy as np
import pandas as pd

# pilot: 32 Y10 pupils individually randomised to one of four feedback styles
rng = np.random.default_rng(1187)
styles = ["none", "grade_only", "comment_only", "comment_grade"]
usage = pd.DataFrame({
    "pupil": [f"P{400 + i}" for i in range(32)],
    "feedback": np.repeat(styles, 8),
    "platform_min_wk": np.concatenate([np.round(rng.lognormal(np.log(40), 1.2, 8))
                                       for _ in styles]),
})
usage.head()
"""

CASES: list[Case] = [
    Case(
        id="h21-parametric-assumptions-insight-times-ttest",
        family="parametric_assumptions",
        setup=_INSIGHT_SETUP,
        code="""\
from scipy import stats

desc = insight.groupby("condition")["solve_time_s"].agg(["count", "mean", "std"])
inc = insight.loc[insight.condition == "incubation", "solve_time_s"]
nob = insight.loc[insight.condition == "no_break", "solve_time_s"]

t, p = stats.ttest_ind(inc, nob)
df = len(inc) + len(nob) - 2
sd_pooled = np.sqrt(((len(inc) - 1) * inc.var() + (len(nob) - 1) * nob.var()) / df)
d = (inc.mean() - nob.mean()) / sd_pooled

print(f"Incubation: M = {inc.mean():.1f} s (SD = {inc.std():.1f}); "
      f"no break: M = {nob.mean():.1f} s (SD = {nob.std():.1f})")
print(f"t({df}) = {t:.2f}, p = {p:.3f}, d = {d:.2f}")
print("The incubation effect did not replicate." if p >= .05 else "Effect replicated.")
desc.round(1)
""",
        twin="h21-parametric-assumptions-insight-times-mannwhitney",
        note="Student t-test on 9 vs 10 heavily right-skewed solution times (one 386 s outlier, "
             "SD far above the mean); the 'did not replicate' conclusion rests on the t-test.",
        split="holdout21",
    ),
    Case(
        id="h21-parametric-assumptions-insight-times-mannwhitney",
        family=None,
        setup=_INSIGHT_SETUP,
        code="""\
from scipy import stats

desc = insight.groupby("condition")["solve_time_s"].describe()[["count", "25%", "50%", "75%"]]
inc = insight.loc[insight.condition == "incubation", "solve_time_s"]
nob = insight.loc[insight.condition == "no_break", "solve_time_s"]

# solution times are right-skewed with n < 10 per cell: rank-based test
u, p = stats.mannwhitneyu(inc, nob, alternative="two-sided")
r_rb = 2 * u / (len(inc) * len(nob)) - 1       # rank-biserial (negative = incubation faster)

print(f"Incubation: Mdn = {inc.median():.1f} s; no break: Mdn = {nob.median():.1f} s")
print(f"Mann-Whitney U = {u:.0f}, p = {p:.3f}, rank-biserial r = {r_rb:.2f}")
desc.round(1)
""",
        twin="h21-parametric-assumptions-insight-times-ttest",
        note="Same small, skewed solution times analysed with a Mann-Whitney U test, medians "
             "and a rank-biserial effect size, which do not assume normality.",
        split="holdout21",
    ),
    Case(
        id="h21-parametric-assumptions-platform-anova",
        family="parametric_assumptions",
        setup=_PLATFORM_SETUP,
        code="""\
import statsmodels.api as sm
import statsmodels.formula.api as smf

fit = smf.ols("platform_min_wk ~ C(feedback)", data=usage).fit()
aov = sm.stats.anova_lm(fit, typ=2)
eta_sq = aov.loc["C(feedback)", "sum_sq"] / aov["sum_sq"].sum()
F, p = aov.loc["C(feedback)", "F"], aov.loc["C(feedback)", "PR(>F)"]

print(f"F({aov.loc['C(feedback)', 'df']:.0f}, {aov.loc['Residual', 'df']:.0f}) = {F:.2f}, "
      f"p = {p:.3f}, eta^2 = {eta_sq:.2f}")
print("Feedback style affects weekly platform use.")
usage.groupby("feedback")["platform_min_wk"].agg(M="mean", SD="std", n="size").round(1)
""",
        twin="h21-parametric-assumptions-platform-kruskal",
        note="One-way ANOVA on 8 pupils per group of very skewed minutes (one group's mean is "
             "driven by two heavy users); the significant F does not survive a rank test.",
        split="holdout21",
    ),
    Case(
        id="h21-parametric-assumptions-platform-kruskal",
        family=None,
        setup=_PLATFORM_SETUP,
        code="""\
from scipy import stats

groups = [g["platform_min_wk"].to_numpy() for _, g in usage.groupby("feedback")]
# minutes per week are strongly right-skewed and n = 8 per group: Kruskal-Wallis
H, p = stats.kruskal(*groups)
n, k = len(usage), len(groups)
eps_sq = (H - k + 1) / (n - k)                  # epsilon-squared effect size

print(f"Kruskal-Wallis H({k - 1}) = {H:.2f}, p = {p:.3f}, epsilon^2 = {eps_sq:.2f}")
usage.groupby("feedback")["platform_min_wk"].agg(
    Mdn="median", Q1=lambda s: s.quantile(.25), Q3=lambda s: s.quantile(.75), n="size")
""",
        twin="h21-parametric-assumptions-platform-anova",
        note="Same pilot data compared with a Kruskal-Wallis test and medians/IQRs, suitable "
             "for small, heavily skewed usage times.",
        split="holdout21",
    ),
]
