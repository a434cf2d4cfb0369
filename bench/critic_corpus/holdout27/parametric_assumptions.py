from bench.critic_corpus import Case

_WIREWORM_SETUP = """
import numpy as np
import pandas as pd

rng = np.random.default_rng(39)
# wireworm-damaged tubers per 100-tuber sample, one sample per plot (plots fully randomised)
def nb(mean, k, size):
    return rng.negative_binomial(k, k / (k + mean), size)

ww = pd.DataFrame({
    "plot": [f"P{i:02d}" for i in range(1, 15)],
    "treatment": ["untreated"] * 7 + ["fluopyram_st"] * 7,
    "damaged_tubers": np.r_[nb(9.0, 0.5, 7), nb(1.2, 0.5, 7)],
})
ww.pivot(columns="treatment", values="damaged_tubers").apply(
    lambda s: sorted(s.dropna().astype(int)))
"""

_DON_SETUP = """
import numpy as np
import pandas as pd

rng = np.random.default_rng(34)
programmes = {"untreated": 2.4, "T3_tebuconazole": 1.1, "T3_prothio+tebu": 0.55,
              "T2+T3_prothio": 0.45}
recs = []
for prog, gm in programmes.items():
    for rep in range(1, 6):
        recs.append({"programme": prog, "rep": rep,
                     "don_ppm": round(float(np.exp(np.log(gm) + rng.normal(0, 1.15))), 2)})
don = pd.DataFrame(recs)
don.groupby("programme")["don_ppm"].agg(["count", "mean", "std", "median", "max"]).round(2)
"""

CASES: list[Case] = [
    Case(
        id="h27-parametric-assumptions-wireworm-counts-ttest",
        family="parametric_assumptions",
        setup=_WIREWORM_SETUP,
        code="""
from scipy import stats

a = ww.loc[ww["treatment"] == "untreated", "damaged_tubers"]
b = ww.loc[ww["treatment"] == "fluopyram_st", "damaged_tubers"]
print(ww.groupby("treatment")["damaged_tubers"].describe()[["count", "mean", "std", "max"]])

t, p = stats.ttest_ind(a, b, equal_var=False)
print(f"Welch t = {t:.2f}, p = {p:.3f}")
if p < 0.05:
    print("Seed treatment significantly reduced wireworm damage.")
else:
    print("No significant effect of fluopyram seed treatment on wireworm damage.")
""",
        twin="h27-parametric-assumptions-wireworm-counts-mannwhitney",
        note="A t-test on 7 vs 7 overdispersed counts (mostly zeros, one or two huge values) "
             "drives the conclusion; the normality the test needs clearly fails at this n.",
        split="holdout27",
    ),
    Case(
        id="h27-parametric-assumptions-wireworm-counts-mannwhitney",
        family=None,
        setup=_WIREWORM_SETUP,
        code="""
from scipy import stats

a = ww.loc[ww["treatment"] == "untreated", "damaged_tubers"]
b = ww.loc[ww["treatment"] == "fluopyram_st", "damaged_tubers"]
print(ww.groupby("treatment")["damaged_tubers"].describe()[["count", "50%", "max"]])

# counts are overdispersed with many zeros and n = 7 per arm -> rank-based test, not a t-test
u, p = stats.mannwhitneyu(a, b, alternative="two-sided", method="exact")
print(f"Mann-Whitney U = {u:.1f}, p = {p:.3f} (medians {a.median():.0f} vs {b.median():.0f})")
if p < 0.05:
    print("Seed treatment significantly reduced wireworm damage.")
else:
    print("No significant effect of fluopyram seed treatment on wireworm damage.")
""",
        twin="h27-parametric-assumptions-wireworm-counts-ttest",
        note="Overdispersed plot counts with n=7 per arm are compared with an exact "
             "Mann-Whitney test, which does not rely on normality.",
        split="holdout27",
    ),
    Case(
        id="h27-parametric-assumptions-don-anova-raw-ppm",
        family="parametric_assumptions",
        setup=_DON_SETUP,
        code="""
import statsmodels.formula.api as smf
from statsmodels.stats.anova import anova_lm

m = smf.ols("don_ppm ~ C(programme)", data=don).fit()
print(anova_lm(m, typ=2).round(4))
print(don.groupby("programme")["don_ppm"].agg(["mean", "std"]).round(2))
pval = anova_lm(m, typ=2).loc["C(programme)", "PR(>F)"]
print(f"Fungicide programme effect on DON: F-test p = {pval:.3f}")
""",
        twin="h27-parametric-assumptions-don-anova-log-ppm",
        note="One-way ANOVA on raw DON concentrations: log-normal, strongly right-skewed data "
             "with 5 plots per programme and variance rising with the mean; the F-test's "
             "assumptions fail.",
        split="holdout27",
    ),
    Case(
        id="h27-parametric-assumptions-don-anova-log-ppm",
        family=None,
        setup=_DON_SETUP,
        code="""
import statsmodels.formula.api as smf
from statsmodels.stats.anova import anova_lm
from scipy import stats

# mycotoxin data are log-normal: analyse log DON, report geometric means
don["log_don"] = np.log(don["don_ppm"])
m = smf.ols("log_don ~ C(programme)", data=don).fit()
print(anova_lm(m, typ=2).round(4))
lev = stats.levene(*[g for _, g in don.groupby("programme")["log_don"]])
print(f"Shapiro-Wilk on residuals: p = {stats.shapiro(m.resid).pvalue:.3f}; "
      f"Levene: p = {lev.pvalue:.3f}")
gmeans = np.exp(don.groupby("programme")["log_don"].mean()).rename("geo_mean_ppm")
print(gmeans.round(2))
pval = anova_lm(m, typ=2).loc["C(programme)", "PR(>F)"]
print(f"Fungicide programme effect on log DON: F-test p = {pval:.3f}")
""",
        twin="h27-parametric-assumptions-don-anova-raw-ppm",
        note="The ANOVA is run on log DON, where the log-normal data become symmetric with "
             "equal variances (checked), and geometric means are reported.",
        split="holdout27",
    ),
]
