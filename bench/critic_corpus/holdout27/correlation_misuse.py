from bench.critic_corpus import Case

_SURVEY_SETUP = """
import numpy as np
import pandas as pd

rng = np.random.default_rng(2718)
n = 150
# farm survey export: categorical fields arrive as lookup codes
texture_lookup = {1: "sand", 2: "loamy sand", 3: "sandy loam", 4: "loam", 5: "silt loam",
                  6: "silty clay loam", 7: "clay loam", 8: "sandy clay loam", 9: "clay"}
tex_yield = {1: -1.6, 2: -1.1, 3: -0.3, 4: 0.4, 5: 0.6, 6: 0.3, 7: 0.2, 8: -0.4, 9: -0.9}
prev_lookup = {1: "wheat", 2: "oilseed rape", 3: "field beans", 4: "grass ley"}
prev_yield = {1: -0.6, 2: 0.2, 3: 0.5, 4: 0.3}
survey = pd.DataFrame({
    "field_id": [f"SF{i:03d}" for i in range(1, n + 1)],
    "texture_code": rng.choice(list(texture_lookup), n,
                               p=[.05, .08, .15, .2, .17, .1, .12, .06, .07]),
    "prev_crop_code": rng.choice(list(prev_lookup), n, p=[.45, .25, .15, .15]),
    "soil_ph": rng.normal(6.7, 0.5, n).round(1),
    "olsen_p_mg_l": rng.gamma(5, 4.5, n).round(0),
    "n_applied_kg_ha": rng.normal(195, 30, n).round(-1),
    "drilling_doy": rng.integers(265, 320, n),
})
survey["yield_t_ha"] = (
    8.4 + survey["texture_code"].map(tex_yield) + survey["prev_crop_code"].map(prev_yield)
    + 0.006 * (survey["n_applied_kg_ha"] - 195) - 0.02 * (survey["drilling_doy"] - 290)
    - 0.4 * (survey["soil_ph"] - 6.7) ** 2 + rng.normal(0, 0.7, n)
).round(2)
survey.head()
"""

_NITRATE_SETUP = """
import numpy as np
import pandas as pd

rng = np.random.default_rng(64)
n = 48
lab = rng.gamma(3.0, 7.0, n)                         # KCl-extractable NO3-N, mg/kg
strip = 1.22 * lab + 4.0 + rng.normal(0, 2.2, n)     # reflectometer quick test
quick = pd.DataFrame({
    "core_id": [f"C{i:02d}" for i in range(1, n + 1)],
    "lab_no3n_mg_kg": lab.round(1),
    "quicktest_no3n_mg_kg": np.clip(strip, 0, None).round(1),
})
quick.describe().round(1)
"""

CASES: list[Case] = [
    Case(
        id="h27-correlation-misuse-survey-coded-categoricals",
        family="correlation_misuse",
        setup=_SURVEY_SETUP,
        code="""
num = survey.select_dtypes("number")
r = num.corr(method="pearson")["yield_t_ha"].drop("yield_t_ha")
print("Pearson r with yield (n = %d fields):" % len(num))
print(r.reindex(r.abs().sort_values(ascending=False).index).round(3).to_string())

top = r.abs().idxmax()
print(f"\\nStrongest yield driver: {top} (r = {r[top]:.2f}); "
      f"texture r = {r['texture_code']:.2f}, previous crop r = {r['prev_crop_code']:.2f}")
""",
        twin="h27-correlation-misuse-survey-categoricals-anova",
        note="Texture class and previous crop are nominal lookup codes, yet Pearson r is "
             "computed on them and ranked as yield drivers; the code order is arbitrary and "
             "the texture effect is non-monotonic.",
        split="holdout27",
    ),
    Case(
        id="h27-correlation-misuse-survey-categoricals-anova",
        family=None,
        setup=_SURVEY_SETUP,
        code="""
import statsmodels.formula.api as smf
from statsmodels.stats.anova import anova_lm

continuous = ["soil_ph", "olsen_p_mg_l", "n_applied_kg_ha", "drilling_doy"]
r = survey[continuous + ["yield_t_ha"]].corr(method="spearman")["yield_t_ha"].drop("yield_t_ha")
print("Spearman rho with yield, continuous covariates (n = %d fields):" % len(survey))
print(r.round(3).to_string())

# texture class and previous crop are nominal codes -> compare groups, effect size = eta^2
for col in ["texture_code", "prev_crop_code"]:
    aov = anova_lm(smf.ols(f"yield_t_ha ~ C({col})", data=survey).fit())
    eta2 = aov.loc[f"C({col})", "sum_sq"] / aov["sum_sq"].sum()
    print(f"{col}: F = {aov.iloc[0]['F']:.2f}, p = {aov.iloc[0]['PR(>F)']:.2g}, "
          f"eta2 = {eta2:.2f}")
survey.groupby("texture_code")["yield_t_ha"].agg(["count", "mean"]).round(2)
""",
        twin="h27-correlation-misuse-survey-coded-categoricals",
        note="Rank correlations only for continuous covariates; the nominal texture and "
             "previous-crop codes are treated as groups (ANOVA F and eta squared).",
        split="holdout27",
    ),
    Case(
        id="h27-correlation-misuse-nitrate-quicktest-agreement",
        family="correlation_misuse",
        setup=_NITRATE_SETUP,
        code="""
from scipy import stats

r, p = stats.pearsonr(quick["lab_no3n_mg_kg"], quick["quicktest_no3n_mg_kg"])
fit = stats.linregress(quick["lab_no3n_mg_kg"], quick["quicktest_no3n_mg_kg"])
print(f"n = {len(quick)} cores")
print(f"Pearson r = {r:.3f} (r2 = {r**2:.3f}), p = {p:.1e}")
print(f"quick = {fit.slope:.2f} * lab + {fit.intercept:.2f}")
print("Excellent agreement: quick test can replace lab NO3-N for the N-rate calculator.")
""",
        twin="h27-correlation-misuse-nitrate-quicktest-bland-altman",
        note="A high Pearson r is taken as agreement between the quick test and the lab, but "
             "the quick test reads ~20% + 4 mg/kg high; correlation does not measure agreement.",
        split="holdout27",
    ),
    Case(
        id="h27-correlation-misuse-nitrate-quicktest-bland-altman",
        family=None,
        setup=_NITRATE_SETUP,
        code="""
from scipy import stats

lab = quick["lab_no3n_mg_kg"]
qt = quick["quicktest_no3n_mg_kg"]
diff = qt - lab
avg = (qt + lab) / 2
bias = diff.mean()
loa = (bias - 1.96 * diff.std(ddof=1), bias + 1.96 * diff.std(ddof=1))
# Lin's concordance correlation coefficient
ccc = 2 * np.cov(lab, qt)[0, 1] / (lab.var() + qt.var() + (lab.mean() - qt.mean()) ** 2)
prop = stats.linregress(avg, diff)

print(f"n = {len(quick)} cores")
print(f"Bland-Altman bias = {bias:.1f} mg/kg, 95% limits of agreement {loa[0]:.1f} to {loa[1]:.1f}")
print(f"proportional bias: slope of diff on mean = {prop.slope:.2f} (p = {prop.pvalue:.1e})")
print(f"Lin's CCC = {ccc:.3f}")
print("Quick test over-reads and the error grows with NO3-N: not interchangeable with the lab "
      "without a calibration.")
""",
        twin="h27-correlation-misuse-nitrate-quicktest-agreement",
        note="Agreement is assessed with Bland-Altman bias and limits of agreement plus Lin's "
             "CCC, which reveal the systematic over-reading that r hides.",
        split="holdout27",
    ),
]
