from bench.critic_corpus import Case

_GLUCOSE_SETUP = '''
import numpy as np
import pandas as pd

pd.set_option("display.width", 160)
pd.set_option("display.max_columns", 30)
rng = np.random.default_rng(1507)
n = 126
lab = np.exp(rng.normal(np.log(150), 0.45, n)).clip(42, 480)
glu = pd.DataFrame({
    "sample_id": [f"GLU{rng.integers(100000, 999999)}" for _ in range(n)],
    "ward": rng.choice(["AMU", "Cardiology", "Endocrine", "ICU", "Surgical"], n),
    "hct_pct": rng.normal(36, 6, n).round(),
    "lab_glucose_mg_dl": lab.round(),
})
glu["poc_glucose_mg_dl"] = (8 + 1.09 * lab + rng.normal(0, 0.06, n) * lab).round()
'''

_STROKE_SETUP = '''
import numpy as np
import pandas as pd

pd.set_option("display.width", 160)
pd.set_option("display.max_columns", 30)
rng = np.random.default_rng(4421)
n = 640
# registry coding: TOAST 1=large-artery 2=cardioembolic 3=small-vessel 4=other 5=undetermined
# arrival_mode 1=EMS 2=private transport 3=inter-hospital transfer; sex 1=male 2=female
toast = rng.choice([1, 2, 3, 4, 5], n, p=[0.22, 0.27, 0.2, 0.05, 0.26])
arrival = rng.choice([1, 2, 3], n, p=[0.62, 0.23, 0.15])
stroke = pd.DataFrame({
    "registry_no": [f"SR-{2019 + i % 5}-{i:04d}" for i in range(n)],
    "age": rng.normal(72, 12, n).round().clip(25, 99),
    "sex": rng.choice([1, 2], n),
    "toast": toast,
    "arrival_mode": arrival,
    "nihss_admission": np.clip(rng.negative_binomial(2, 0.2, n)
                               + 6 * (toast == 2) - 3 * (toast == 3), 0, 42),
    "onset_to_needle_min": (rng.gamma(5, 30, n) + 40 * (arrival == 3)).round(),
})
sub_eff = pd.Series({1: 0.6, 2: 0.9, 3: -1.2, 4: 0.2, 5: 0.5})
latent = (0.11 * stroke.nihss_admission + 0.03 * (stroke.age - 72) + sub_eff[toast].values
          + 0.004 * stroke.onset_to_needle_min + rng.logistic(0, 1, n))
stroke["mrs_90d"] = np.digitize(latent, [-0.5, 0.6, 1.5, 2.4, 3.4, 4.6])
'''

CASES: list[Case] = [
    Case(
        id="h23-corr-poc-glucose-agreement",
        family="correlation_misuse",
        split="holdout23",
        twin="h23-corr-poc-glucose-agreement-ok",
        setup=_GLUCOSE_SETUP,
        note="Pearson r between point-of-care and laboratory glucose is used to claim the meter "
             "agrees with the lab; r ignores the ~10% proportional bias visible in the data.",
        code='''
from scipy import stats

r, p = stats.pearsonr(glu.poc_glucose_mg_dl, glu.lab_glucose_mg_dl)
z = np.arctanh(r)
half = 1.96 / np.sqrt(len(glu) - 3)
lo, hi = np.tanh(z - half), np.tanh(z + half)
print(f"POC vs laboratory glucose, n = {len(glu)} paired samples")
print(f"Pearson r = {r:.3f} (95% CI {lo:.3f}-{hi:.3f}), p = {p:.2g}")
print("Excellent agreement: the ward meter can be used interchangeably with the lab assay.")
glu[["lab_glucose_mg_dl", "poc_glucose_mg_dl"]].describe().round(1)
''',
    ),
    Case(
        id="h23-corr-poc-glucose-agreement-ok",
        family=None,
        split="holdout23",
        twin="h23-corr-poc-glucose-agreement",
        setup=_GLUCOSE_SETUP,
        note="Agreement assessed by Bland-Altman bias and limits of agreement (on the percent "
             "scale) plus the ISO 15197 accuracy criterion, not by correlation.",
        code='''
from scipy import stats

lab, poc = glu.lab_glucose_mg_dl, glu.poc_glucose_mg_dl
pct_diff = 100 * (poc - lab) / ((poc + lab) / 2)
bias, sd = pct_diff.mean(), pct_diff.std()
t_crit = stats.t.ppf(0.975, len(glu) - 1)
bias_lo, bias_hi = bias + np.array([-1, 1]) * t_crit * sd / np.sqrt(len(glu))
loa_lo, loa_hi = bias - 1.96 * sd, bias + 1.96 * sd

# ISO 15197:2013: within +/-15 mg/dL below 100 mg/dL, within +/-15% at or above 100 mg/dL
within = np.where(lab < 100, (poc - lab).abs() <= 15, (poc - lab).abs() <= 0.15 * lab)
print(f"POC vs laboratory glucose, n = {len(glu)} paired samples")
print(f"Mean bias {bias:+.1f}% (95% CI {bias_lo:+.1f}% to {bias_hi:+.1f}%), "
      f"95% limits of agreement {loa_lo:+.1f}% to {loa_hi:+.1f}%")
print(f"Within ISO 15197 limits: {within.sum()}/{len(glu)} ({within.mean():.0%}; "
      "criterion >= 95%)")
glu[["lab_glucose_mg_dl", "poc_glucose_mg_dl"]].describe().round(1)
''',
    ),
    Case(
        id="h23-corr-stroke-registry-codes",
        family="correlation_misuse",
        split="holdout23",
        twin="h23-corr-stroke-registry-codes-ok",
        setup=_STROKE_SETUP,
        note="Pearson correlations with 90-day mRS include nominal registry codes (TOAST subtype, "
             "arrival mode, sex) as if they were numeric quantities.",
        code='''
cols = ["age", "sex", "toast", "arrival_mode", "nihss_admission", "onset_to_needle_min",
        "mrs_90d"]
corr = stroke[cols].corr()["mrs_90d"].drop("mrs_90d").sort_values(key=abs, ascending=False)
print(f"Correlates of 90-day mRS, {len(stroke)} thrombolysed patients")
for var, r in corr.items():
    print(f"  {var:22s} r = {r:+.2f}")
print(f"NIHSS dominates; stroke subtype (TOAST) is essentially unrelated to outcome "
      f"(r = {corr['toast']:+.2f}) and is not carried forward to the model.")
''',
    ),
    Case(
        id="h23-corr-stroke-registry-codes-ok",
        family=None,
        split="holdout23",
        twin="h23-corr-stroke-registry-codes",
        setup=_STROKE_SETUP,
        note="Spearman correlations only for numeric/ordinal variables; nominal codes are "
             "relabelled and compared with median mRS and Kruskal-Wallis instead.",
        code='''
from scipy import stats

ordinal = ["age", "nihss_admission", "onset_to_needle_min"]
rho = {v: stats.spearmanr(stroke[v], stroke.mrs_90d)[0] for v in ordinal}
print(f"Correlates of 90-day mRS, {len(stroke)} thrombolysed patients (Spearman)")
for var, r in rho.items():
    print(f"  {var:22s} rho = {r:+.2f}")

labels = {
    "toast": {1: "large-artery", 2: "cardioembolic", 3: "small-vessel", 4: "other",
              5: "undetermined"},
    "arrival_mode": {1: "EMS", 2: "private", 3: "transfer"},
    "sex": {1: "male", 2: "female"},
}
for var, lab in labels.items():
    groups = stroke.groupby(stroke[var].map(lab))["mrs_90d"]
    h, p = stats.kruskal(*[g.values for _, g in groups])
    med = groups.median().astype(int).to_dict()
    print(f"{var}: median mRS {med}; Kruskal-Wallis H = {h:.1f}, p = {p:.2g}")
''',
    ),
]
