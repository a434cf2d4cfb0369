from bench.critic_corpus import Case

_DRUG_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(15)
lineage = np.repeat(["melanoma", "colorectal", "NSCLC"], [5, 4, 5])
log_mu = np.repeat([np.log(0.4), np.log(3.0), np.log(2.0)], [5, 4, 5])
ic50 = np.exp(log_mu + rng.normal(0, 1.0, lineage.size))
dose_resp = pd.DataFrame({
    "cell_line": ["A375", "SK-MEL-28", "WM266-4", "COLO829", "MALME-3M",
                  "HT-29", "SW620", "LoVo", "HCT116",
                  "A549", "H1299", "H460", "PC-9", "HCC827"],
    "lineage": lineage,
    "drug": "PLX-4720",
    "ic50_uM": ic50.round(3),
    "hill_slope": rng.normal(1.1, 0.2, lineage.size).round(2),
    "max_inhibition_pct": rng.uniform(70, 99, lineage.size).round(1),
})
'''

_DRUG_FLAWED = '''
import statsmodels.formula.api as smf
from statsmodels.stats.anova import anova_lm

summary = dose_resp.groupby("lineage")["ic50_uM"].agg(["count", "mean", "std", "min", "max"])
print(summary.round(2))
fit = smf.ols("ic50_uM ~ C(lineage)", data=dose_resp).fit()
aov = anova_lm(fit, typ=2)
p = aov.loc["C(lineage)", "PR(>F)"]
print(f"\\nOne-way ANOVA on IC50: F = {aov.loc['C(lineage)', 'F']:.2f}, p = {p:.3f}")
print("IC50 does not depend on lineage" if p >= 0.05 else "IC50 differs by lineage")
aov
'''

_DRUG_SOUND = '''
import statsmodels.formula.api as smf
from scipy import stats
from statsmodels.stats.anova import anova_lm

dose_resp["log10_ic50"] = np.log10(dose_resp["ic50_uM"])
summary = dose_resp.groupby("lineage")["log10_ic50"].agg(["count", "mean", "std"])
summary["geo_mean_uM"] = 10 ** summary["mean"]
print(summary.round(2))
fit = smf.ols("log10_ic50 ~ C(lineage)", data=dose_resp).fit()
by_lineage = [g.to_numpy() for _, g in dose_resp.groupby("lineage")["log10_ic50"]]
print(f"Shapiro-Wilk on residuals: p = {stats.shapiro(fit.resid).pvalue:.2f}; "
      f"Levene: p = {stats.levene(*by_lineage).pvalue:.2f}")
aov = anova_lm(fit, typ=2)
p = aov.loc["C(lineage)", "PR(>F)"]
print(f"\\nOne-way ANOVA on log10 IC50: F = {aov.loc['C(lineage)', 'F']:.2f}, p = {p:.4f}")
print("IC50 does not depend on lineage" if p >= 0.05 else "IC50 differs by lineage")
aov
'''

_PATH_SETUP = '''
import numpy as np
import pandas as pd

slides = pd.DataFrame({
    "slide_id": [f"HE-{i:04d}" for i in [311, 318, 322, 340, 347, 351, 366,
                                           402, 409, 415, 428, 433, 441]],
    "subtype": ["high_grade_serous"] * 7 + ["low_grade_serous"] * 6,
    "mitoses_per_10hpf": [4, 5, 6, 7, 9, 12, 60, 0, 1, 1, 2, 2, 3],
    "tumour_area_mm2": [88.1, 41.3, 102.9, 65.0, 77.4, 54.2, 91.8,
                        48.6, 70.2, 39.9, 83.1, 61.7, 57.0],
    "stroma_fraction": [0.31, 0.44, 0.28, 0.35, 0.40, 0.22, 0.19,
                        0.52, 0.47, 0.58, 0.41, 0.49, 0.55],
})
'''

_PATH_FLAWED = '''
from scipy import stats

hg = slides.loc[slides.subtype == "high_grade_serous", "mitoses_per_10hpf"].to_numpy()
lg = slides.loc[slides.subtype == "low_grade_serous", "mitoses_per_10hpf"].to_numpy()
res = stats.ttest_ind(hg, lg, equal_var=False)
ci = res.confidence_interval(0.95)
print(f"HGSC: mean {hg.mean():.1f} (n={hg.size});  LGSC: mean {lg.mean():.1f} (n={lg.size})")
print(f"Welch t = {res.statistic:.2f}, p = {res.pvalue:.3f}, "
      f"95% CI for difference [{ci.low:.1f}, {ci.high:.1f}] mitoses/10 HPF")
print("mitotic index not significantly different between subtypes"
      if res.pvalue >= 0.05 else "mitotic index differs between subtypes")
'''

_PATH_SOUND = '''
from scipy import stats

hg = slides.loc[slides.subtype == "high_grade_serous", "mitoses_per_10hpf"].to_numpy()
lg = slides.loc[slides.subtype == "low_grade_serous", "mitoses_per_10hpf"].to_numpy()
res = stats.mannwhitneyu(hg, lg, alternative="two-sided", method="exact")
print(f"HGSC: median {np.median(hg):.1f} (n={hg.size});  "
      f"LGSC: median {np.median(lg):.1f} (n={lg.size})")
print(f"Mann-Whitney U = {res.statistic:.0f}, exact p = {res.pvalue:.4f}, "
      f"Hodges-Lehmann shift = {np.median(np.subtract.outer(hg, lg)):.1f} mitoses/10 HPF")
print("mitotic index not significantly different between subtypes"
      if res.pvalue >= 0.05 else "mitotic index differs between subtypes")
'''

CASES: list[Case] = [
    Case(
        id="h17-parametric-drug-ic50-anova-raw-scale",
        family="parametric_assumptions",
        setup=_DRUG_SETUP,
        code=_DRUG_FLAWED,
        twin="h17-parametric-drug-ic50-anova-log-scale",
        note="One-way ANOVA on raw IC50 (log-normal, right-skewed, SDs rising with means, "
             "n=4-5 per lineage); the 'no lineage effect' conclusion reverses on the log scale.",
        split="holdout17",
    ),
    Case(
        id="h17-parametric-drug-ic50-anova-log-scale",
        family=None,
        setup=_DRUG_SETUP,
        code=_DRUG_SOUND,
        twin="h17-parametric-drug-ic50-anova-raw-scale",
        note="ANOVA on log10 IC50, where potency data are approximately normal with equal "
             "variance; residual normality and Levene checks are reported.",
        split="holdout17",
    ),
    Case(
        id="h17-parametric-pathology-mitoses-welch-ttest",
        family="parametric_assumptions",
        setup=_PATH_SETUP,
        code=_PATH_FLAWED,
        twin="h17-parametric-pathology-mitoses-mannwhitney",
        note="Welch t-test and t-based CI on 7 vs 6 skewed mitotic counts with one extreme "
             "slide (60); the outlier inflates the SD and yields a spurious 'no difference'.",
        split="holdout17",
    ),
    Case(
        id="h17-parametric-pathology-mitoses-mannwhitney",
        family=None,
        setup=_PATH_SETUP,
        code=_PATH_SOUND,
        twin="h17-parametric-pathology-mitoses-welch-ttest",
        note="Exact Mann-Whitney test with a Hodges-Lehmann shift, appropriate for tiny "
             "skewed count samples.",
        split="holdout17",
    ),
]
