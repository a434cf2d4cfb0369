from bench.critic_corpus import Case

_RAD_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3141)
n = 64
true_vol = rng.lognormal(np.log(14), 0.8, n)
seg = pd.DataFrame({
    "lesion_id": [f"HCC-{i:03d}" for i in range(n)],
    "phase": rng.choice(["arterial", "portal_venous"], n, p=[0.4, 0.6]),
    "reader1_vol_ml": (true_vol * rng.lognormal(0, 0.06, n)).round(2),
    "reader2_vol_ml": (1.22 * true_vol + 1.5) * rng.lognormal(0, 0.06, n),
})
seg["reader2_vol_ml"] = seg["reader2_vol_ml"].round(2)
'''

_RAD_FLAWED = '''
from scipy import stats

r, p = stats.pearsonr(seg.reader1_vol_ml, seg.reader2_vol_ml)
rho, _ = stats.spearmanr(seg.reader1_vol_ml, seg.reader2_vol_ml)
print(f"n = {len(seg)} lesions segmented by both readers")
print(f"Pearson r = {r:.3f} (p = {p:.1e}), Spearman rho = {rho:.3f}")
print("inter-reader agreement for tumour volume: excellent" if r > 0.9 else
      "inter-reader agreement for tumour volume: moderate")
seg[["reader1_vol_ml", "reader2_vol_ml"]].describe().round(2)
'''

_RAD_SOUND = '''
from scipy import stats

v = seg[["reader1_vol_ml", "reader2_vol_ml"]].to_numpy()
n, k = v.shape
grand = v.mean()
ms_rows = k * ((v.mean(axis=1) - grand) ** 2).sum() / (n - 1)
ms_cols = n * ((v.mean(axis=0) - grand) ** 2).sum() / (k - 1)
sse = ((v - v.mean(axis=1, keepdims=True) - v.mean(axis=0) + grand) ** 2).sum()
ms_err = sse / ((n - 1) * (k - 1))
icc_a1 = (ms_rows - ms_err) / (ms_rows + (k - 1) * ms_err + k * (ms_cols - ms_err) / n)

log_ratio = np.log(v[:, 1] / v[:, 0])
bias, sd = log_ratio.mean(), log_ratio.std(ddof=1)
t_p = stats.ttest_1samp(log_ratio, 0).pvalue
print(f"n = {n} lesions segmented by both readers")
print(f"ICC(2,1), absolute agreement = {icc_a1:.3f}")
print(f"Bland-Altman on log scale: reader2/reader1 = {np.exp(bias):.2f}x "
      f"(95% LoA {np.exp(bias - 1.96 * sd):.2f}-{np.exp(bias + 1.96 * sd):.2f}x), "
      f"systematic bias p = {t_p:.1e}")
seg[["reader1_vol_ml", "reader2_vol_ml"]].describe().round(2)
'''

_GWAS_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(7412)
n = 1500
centre_names = ["Leeds", "Bristol", "Glasgow", "Cardiff", "Oxford", "Newcastle", "Sheffield"]
centre_offset = np.array([0.45, -0.4, 0.3, -0.5, 0.3, -0.4, 0.45])
centre = rng.integers(0, 7, n)
age = rng.uniform(40, 70, n).round(1)
sex = rng.integers(0, 2, n)
bmi = rng.normal(27.5, 4.5, n).round(1)
dosage = rng.binomial(2, 0.08, n)
statin = (rng.random(n) < 0.15 + 0.004 * (age - 40)).astype(int)
ldl = (2.4 + 0.025 * (age - 55) + 0.03 * (bmi - 27) - 0.45 * dosage - 0.9 * statin
       + centre_offset[centre] + rng.normal(0, 0.75, n))
pheno = pd.DataFrame({
    "IID": [f"UKB{rng.integers(1000000, 9999999)}" for _ in range(n)],
    "ldl_mmol_l": ldl.round(2),
    "age": age, "sex": sex, "bmi": bmi,
    "rs7412_T": dosage,
    "statin_use": statin,
    "assessment_centre": centre + 1,
    "genotype_batch": rng.integers(1, 6, n),
})
'''

_GWAS_FLAWED = '''
covars = ["age", "sex", "bmi", "statin_use", "assessment_centre", "genotype_batch", "rs7412_T"]
corr = pheno[["ldl_mmol_l"] + covars].corr()["ldl_mmol_l"].drop("ldl_mmol_l")
table = pd.DataFrame({"r": corr, "r2": corr ** 2}).sort_values("r2", ascending=False)
keep = table.index[table.r.abs() > 0.1].tolist()
print(f"covariates associated with LDL (|r| > 0.1): {keep}")
print(f"dropped from the association model: {[c for c in covars if c not in keep]}")
table.round(4)
'''

_GWAS_SOUND = '''
import statsmodels.formula.api as smf

covars = ["age", "sex", "bmi", "statin_use", "assessment_centre", "genotype_batch", "rs7412_T"]
categorical = {"assessment_centre", "genotype_batch"}
rows = {}
for c in covars:
    term = f"C({c})" if c in categorical else c
    fit = smf.ols(f"ldl_mmol_l ~ {term}", data=pheno).fit()
    rows[c] = {"type": "categorical" if c in categorical else "numeric",
               "df": int(fit.df_model), "R2_or_eta2": fit.rsquared, "p": fit.f_pvalue}
table = pd.DataFrame.from_dict(rows, orient="index").sort_values("R2_or_eta2",
                                                                 ascending=False)
keep = table.index[table.p < 0.01].tolist()
print(f"covariates associated with LDL (F-test p < 0.01): {keep}")
print(f"dropped from the association model: {[c for c in covars if c not in keep]}")
table
'''

CASES: list[Case] = [
    Case(
        id="h17-corr-radiomics-reader-volume-pearson-agreement",
        family="correlation_misuse",
        setup=_RAD_SETUP,
        code=_RAD_FLAWED,
        twin="h17-corr-radiomics-reader-volume-icc-bland-altman",
        note="Pearson r between two readers' volumes is read as 'excellent agreement', though "
             "reader 2 is systematically ~25% larger (visible in describe()); r ignores bias.",
        split="holdout17",
    ),
    Case(
        id="h17-corr-radiomics-reader-volume-icc-bland-altman",
        family=None,
        setup=_RAD_SETUP,
        code=_RAD_SOUND,
        twin="h17-corr-radiomics-reader-volume-pearson-agreement",
        note="Agreement assessed with absolute-agreement ICC(2,1) and log-scale Bland-Altman "
             "limits, which expose the systematic reader bias.",
        split="holdout17",
    ),
    Case(
        id="h17-corr-gwas-covariates-pearson-on-centre-codes",
        family="correlation_misuse",
        setup=_GWAS_SETUP,
        code=_GWAS_FLAWED,
        twin="h17-corr-gwas-covariates-anova-for-categorical",
        note="Pearson r on nominal assessment-centre and batch codes (1-7, 1-5) is used to "
             "screen covariates; centre has a strong non-monotone effect but r is near 0.",
        split="holdout17",
    ),
    Case(
        id="h17-corr-gwas-covariates-anova-for-categorical",
        family=None,
        setup=_GWAS_SETUP,
        code=_GWAS_SOUND,
        twin="h17-corr-gwas-covariates-pearson-on-centre-codes",
        note="Categorical covariates are tested as factors (one-way ANOVA, eta squared), "
             "numeric ones by simple regression; the centre effect is found.",
        split="holdout17",
    ),
]
