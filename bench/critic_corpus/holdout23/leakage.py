from bench.critic_corpus import Case

_SSI_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2)
n = 260
ssi = pd.DataFrame({
    "mrn": [f"MRN{4410000 + i * 7}" for i in range(n)],
    "surgery_date": pd.Timestamp("2019-01-07")
    + pd.to_timedelta(rng.integers(0, 1400, n), unit="D"),
    "age": rng.normal(64, 12, n).round().clip(22, 95),
    "bmi": rng.lognormal(np.log(28), 0.18, n).round(1),
    "diabetes": rng.binomial(1, 0.24, n),
    "smoker": rng.binomial(1, 0.18, n),
    "op_minutes": rng.gamma(6, 32, n).round(),
    "albumin_preop": rng.normal(3.8, 0.5, n).round(1),
})
labs = ["alt", "ast", "alp", "bili_total", "ggt", "ldh", "ck", "crp", "esr", "ferritin",
        "tsat", "b12", "folate", "tsh", "ft4", "vit_d", "mg", "phos", "ca", "urate", "trig",
        "hdl", "ldl", "chol", "inr", "aptt", "fibrinogen", "plt", "wbc", "neut", "lymph",
        "mono", "eos", "baso", "mcv", "rdw", "na", "k", "cl", "hco3", "urea", "glucose"]
meds = ["acei", "arb", "beta_blocker", "ccb", "loop_diuretic", "thiazide", "statin",
        "aspirin", "clopidogrel", "doac", "warfarin", "ppi", "h2ra", "ssri", "snri", "tca",
        "benzo", "z_drug", "opioid", "nsaid", "gabapentinoid", "metformin", "sulfonylurea",
        "insulin", "sglt2i", "glp1ra", "levothyroxine", "oral_steroid", "ics", "saba",
        "antipsychotic", "antiepileptic", "bisphosphonate", "allopurinol", "methotrexate",
        "tamsulosin", "finasteride", "iron_oral", "colecalciferol", "mirtazapine"]
comorb = ["chf", "arrhythmia", "valvular", "pulm_circ", "pvd", "htn", "paralysis",
          "neuro_other", "copd", "hypothyroid", "renal", "liver", "pud", "lymphoma",
          "metastatic", "solid_tumour", "ra_cvd", "coagulopathy", "obesity", "wt_loss",
          "fluid_lytes", "anaemia_def", "alcohol", "drugs", "psychoses", "depression"]
for lab in labs:
    ssi[f"lab_{lab}"] = rng.lognormal(rng.normal(2, 1), 0.35, n).round(2)
for m in meds:
    ssi[f"rx_{m}"] = rng.binomial(1, rng.uniform(0.05, 0.4), n)
for c in comorb:
    ssi[f"cx_{c}"] = rng.binomial(1, rng.uniform(0.04, 0.3), n)
lp = (-1.5 + 0.08 * (ssi.bmi - 28) + 0.7 * ssi.diabetes + 0.004 * (ssi.op_minutes - 190)
      - 0.6 * (ssi.albumin_preop - 3.8))
ssi["ssi_30d"] = rng.binomial(1, 1 / (1 + np.exp(-lp)))
'''

_ICU_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(881)
n = 1600
common = ["A41.9", "J18.9", "I21.4", "J96.0", "K92.2", "I63.9", "N17.9", "J44.1",
          "I50.9", "E11.1", "K85.9", "S06.5"]
letters = list("ACDEGIJKMNRST")
rare = sorted({f"{rng.choice(letters)}{rng.integers(0, 100):02d}.{rng.integers(0, 10)}"
               for _ in range(260)})
codes = common + rare
w = np.r_[np.full(len(common), 60.0), rng.pareto(1.3, len(rare)) + 0.4]
icu = pd.DataFrame({
    "stay_id": np.arange(300001, 300001 + n),
    "age": rng.normal(63, 16, n).round().clip(18, 100),
    "sofa_day1": rng.poisson(5.5, n),
    "mech_vent": rng.binomial(1, 0.42, n),
    "lactate_max_day1": rng.lognormal(0.7, 0.55, n).round(1),
    "primary_dx_icd10": rng.choice(codes, n, p=w / w.sum()),
})
sepsis = icu.primary_dx_icd10.str.startswith("A41").astype(int)
lp = (-3.6 + 0.025 * (icu.age - 63) + 0.22 * icu.sofa_day1 + 0.5 * icu.mech_vent
      + 0.25 * icu.lactate_max_day1 + 0.4 * sepsis)
icu["died_hosp"] = rng.binomial(1, 1 / (1 + np.exp(-lp)))
'''

CASES: list[Case] = [
    Case(
        id="h23-leak-univariable-screen-ssi",
        family="leakage",
        split="holdout23",
        twin="h23-leak-univariable-screen-ssi-ok",
        setup=_SSI_SETUP,
        note="Univariable p<0.05 screening of ~115 candidate predictors uses the whole cohort "
             "before the train/test split, so the held-out AUC is optimistic.",
        code='''
from scipy.stats import chi2_contingency, mannwhitneyu
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

outcome = "ssi_30d"
candidates = [c for c in ssi.columns if c not in ("mrn", "surgery_date", outcome)]


def univariable_p(df, var):
    if df[var].nunique() == 2:
        return chi2_contingency(pd.crosstab(df[var], df[outcome]))[1]
    return mannwhitneyu(df.loc[df[outcome] == 1, var], df.loc[df[outcome] == 0, var]).pvalue


screen = pd.Series({v: univariable_p(ssi, v) for v in candidates}).sort_values()
selected = screen[screen < 0.05].index.tolist()
print(f"SSI events: {ssi[outcome].sum()} / {len(ssi)}")
print(f"{len(selected)} of {len(candidates)} candidates retained (univariable p < 0.05):")
print(", ".join(selected))

X_train, X_test, y_train, y_test = train_test_split(
    ssi[selected], ssi[outcome], test_size=0.3, stratify=ssi[outcome], random_state=11)
model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))
model.fit(X_train, y_train)
auc = roc_auc_score(y_test, model.predict_proba(X_test)[:, 1])
print(f"Multivariable model, held-out AUC = {auc:.3f} (n = {len(y_test)})")
''',
    ),
    Case(
        id="h23-leak-univariable-screen-ssi-ok",
        family=None,
        split="holdout23",
        twin="h23-leak-univariable-screen-ssi",
        setup=_SSI_SETUP,
        note="Same univariable screening, but done on the training patients only, so the "
             "held-out AUC is an honest estimate.",
        code='''
from scipy.stats import chi2_contingency, mannwhitneyu
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

outcome = "ssi_30d"
candidates = [c for c in ssi.columns if c not in ("mrn", "surgery_date", outcome)]
train, test = train_test_split(ssi, test_size=0.3, stratify=ssi[outcome], random_state=11)


def univariable_p(df, var):
    if df[var].nunique() == 2:
        return chi2_contingency(pd.crosstab(df[var], df[outcome]))[1]
    return mannwhitneyu(df.loc[df[outcome] == 1, var], df.loc[df[outcome] == 0, var]).pvalue


# screening uses the development (training) patients only
screen = pd.Series({v: univariable_p(train, v) for v in candidates}).sort_values()
selected = screen[screen < 0.05].index.tolist()
print(f"SSI events: {ssi[outcome].sum()} / {len(ssi)}")
print(f"{len(selected)} of {len(candidates)} candidates retained in the training set:")
print(", ".join(selected))

model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))
model.fit(train[selected], train[outcome])
auc = roc_auc_score(test[outcome], model.predict_proba(test[selected])[:, 1])
print(f"Multivariable model, held-out AUC = {auc:.3f} (n = {len(test)})")
''',
    ),
    Case(
        id="h23-leak-icd-target-encoding-icu",
        family="leakage",
        split="holdout23",
        twin="h23-leak-icd-target-encoding-icu-ok",
        setup=_ICU_SETUP,
        note="Diagnosis-group mortality rate (target encoding) is computed on the full registry "
             "before cross-validation; rare ICD codes carry each patient's own outcome.",
        code='''
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score

icu["dx3"] = icu["primary_dx_icd10"].str[:3]
icu["dx3_mortality"] = icu.groupby("dx3")["died_hosp"].transform("mean")

base = ["age", "sofa_day1", "mech_vent", "lactate_max_day1"]
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=42)
clf = LogisticRegression(max_iter=2000)
y = icu["died_hosp"]

res = {}
for label, cols in {"physiology only": base, "+ diagnosis group": base + ["dx3_mortality"]}.items():
    s = cross_val_score(clf, icu[cols], y, cv=cv, scoring="roc_auc")
    res[label] = f"{s.mean():.3f} ({s.min():.3f}-{s.max():.3f})"

print(f"{icu.dx3.nunique()} diagnosis groups, {len(icu)} ICU stays, "
      f"{y.mean():.1%} hospital mortality")
pd.Series(res, name="5-fold CV AUC (range)")
''',
    ),
    Case(
        id="h23-leak-icd-target-encoding-icu-ok",
        family=None,
        split="holdout23",
        twin="h23-leak-icd-target-encoding-icu",
        setup=_ICU_SETUP,
        note="Diagnosis-group mortality encoding is re-estimated (with shrinkage) inside each "
             "training fold and applied to the held-out fold, so CV AUC is not leaked.",
        code='''
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import StratifiedKFold

icu["dx3"] = icu["primary_dx_icd10"].str[:3]
base = ["age", "sofa_day1", "mech_vent", "lactate_max_day1"]
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=42)
y = icu["died_hosp"]


def dx_encoding(train, k=20):
    """Shrunken mortality rate per diagnosis group, estimated on training stays only."""
    prior = train["died_hosp"].mean()
    g = train.groupby("dx3")["died_hosp"].agg(["sum", "count"])
    return (g["sum"] + k * prior) / (g["count"] + k), prior


scores = {"physiology only": [], "+ diagnosis group": []}
for tr_idx, te_idx in cv.split(icu, y):
    tr, te = icu.iloc[tr_idx].copy(), icu.iloc[te_idx].copy()
    rates, prior = dx_encoding(tr)
    tr["dx3_mortality"] = tr["dx3"].map(rates)
    te["dx3_mortality"] = te["dx3"].map(rates).fillna(prior)
    for label, cols in {"physiology only": base,
                        "+ diagnosis group": base + ["dx3_mortality"]}.items():
        clf = LogisticRegression(max_iter=2000).fit(tr[cols], tr["died_hosp"])
        scores[label].append(roc_auc_score(te["died_hosp"], clf.predict_proba(te[cols])[:, 1]))

res = {k: f"{np.mean(v):.3f} ({min(v):.3f}-{max(v):.3f})" for k, v in scores.items()}
print(f"{icu.dx3.nunique()} diagnosis groups, {len(icu)} ICU stays, "
      f"{y.mean():.1%} hospital mortality")
pd.Series(res, name="5-fold CV AUC (range)")
''',
    ),
]
