from bench.critic_corpus import Case

_ECG_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(9021)
n = 640
age = rng.normal(67, 9, n).round()
female = rng.random(n) < 0.46
htn = rng.random(n) < 0.55
chf = rng.random(n) < 0.12
logit = -4.2 + 0.05 * (age - 67) + 0.6 * htn + 0.9 * chf
pac_burden = rng.lognormal(-0.5, 1.1, n)
logit = logit + 0.45 * np.log(pac_burden) + 2.2
af_dx = rng.random(n) < 1 / (1 + np.exp(-logit))

patch = pd.DataFrame({
    "patient_id": [f"ZP{100000 + i}" for i in range(n)],
    "age": age,
    "female": female.astype(int),
    "hypertension": htn.astype(int),
    "heart_failure": chf.astype(int),
    "wear_hours": rng.uniform(150, 336, n).round(1),
    "mean_hr_bpm": rng.normal(74, 9, n).round(1) + 3 * af_dx,
    "sdnn_ms": rng.lognormal(4.6, 0.3, n).round(1),
    "rmssd_ms": rng.lognormal(3.4, 0.45, n).round(1) * np.where(af_dx, 1.15, 1.0),
    "pac_burden_pct": pac_burden.round(2),
    "pvc_burden_pct": rng.lognormal(-1.2, 1.3, n).round(2),
    "longest_svt_beats": rng.poisson(np.where(af_dx, 9, 5)),
})
patch["cha2ds2_vasc"] = ((patch.age >= 65).astype(int) + (patch.age >= 75) + patch.female
                         + patch.hypertension + patch.heart_failure)
patch["oac_started_fu"] = np.where(af_dx, rng.random(n) < 0.82, rng.random(n) < 0.04).astype(int)
patch["af_dx_12mo"] = af_dx.astype(int)
'''

_ECG_FLAWED = '''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

features = patch.drop(columns=["patient_id", "af_dx_12mo"])
target = patch["af_dx_12mo"]
X_tr, X_te, y_tr, y_te = train_test_split(features, target, test_size=0.3,
                                          stratify=target, random_state=11)
rf = RandomForestClassifier(n_estimators=300, min_samples_leaf=3, random_state=11, n_jobs=1)
rf.fit(X_tr, y_tr)
auc = roc_auc_score(y_te, rf.predict_proba(X_te)[:, 1])
print(f"AF prevalence {target.mean():.1%}, n_test = {len(y_te)}")
print(f"held-out AUC, AF within 12 months from baseline patch: {auc:.3f}")
imp = pd.Series(rf.feature_importances_, index=features.columns).sort_values(ascending=False)
imp.round(3).head(8)
'''

_ECG_SOUND = '''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

features = patch.drop(columns=["patient_id", "af_dx_12mo", "oac_started_fu"])
target = patch["af_dx_12mo"]
X_tr, X_te, y_tr, y_te = train_test_split(features, target, test_size=0.3,
                                          stratify=target, random_state=11)
rf = RandomForestClassifier(n_estimators=300, min_samples_leaf=3, random_state=11, n_jobs=1)
rf.fit(X_tr, y_tr)
auc = roc_auc_score(y_te, rf.predict_proba(X_te)[:, 1])
print(f"AF prevalence {target.mean():.1%}, n_test = {len(y_te)}")
print(f"held-out AUC, AF within 12 months from baseline patch: {auc:.3f}")
imp = pd.Series(rf.feature_importances_, index=features.columns).sort_values(ascending=False)
imp.round(3).head(8)
'''

_DRUG_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(350)
n_lines, n_genes = 180, 120
cell_lines = [f"CL-{i:04d}" for i in range(n_lines)]
genes = [f"G{i:03d}" for i in range(n_genes)]
expr = rng.normal(0, 1, size=(n_lines, n_genes))
braf_v600e = rng.random(n_lines) < 0.2
ln_ic50 = (1.5 - 1.6 * braf_v600e - 0.45 * expr[:, 3] + 0.35 * expr[:, 17]
           + rng.normal(0, 1.1, n_lines))
# GDSC-style curve summaries
auc_curve = 1 / (1 + np.exp(-(ln_ic50 - 1.0) / 1.3)) + rng.normal(0, 0.03, n_lines)

screen = pd.DataFrame(expr, index=cell_lines, columns=genes)
screen.insert(0, "BRAF_V600E", braf_v600e.astype(int))
screen.insert(1, "TISSUE", rng.choice(["skin", "colon", "lung", "thyroid"], n_lines))
screen["AUC"] = auc_curve.clip(0.02, 0.99).round(3)
screen["LN_IC50"] = ln_ic50.round(3)
screen["sensitive"] = (screen["LN_IC50"] < np.log(1.0)).astype(int)
'''

_DRUG_FLAWED = '''
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.metrics import roc_auc_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

X = screen.drop(columns=["TISSUE", "LN_IC50", "sensitive"])
y = screen["sensitive"].to_numpy()
lasso = make_pipeline(StandardScaler(),
                      LogisticRegression(penalty="l1", solver="liblinear", C=0.3,
                                         random_state=0))
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=3)
p_cv = cross_val_predict(lasso, X, y, cv=cv, method="predict_proba")[:, 1]
print(f"{y.sum()} sensitive / {len(y)} lines; CV AUC = {roc_auc_score(y, p_cv):.3f}")

lasso.fit(X, y)
coef = pd.Series(lasso[-1].coef_.ravel(), index=X.columns)
coef[coef != 0].sort_values(key=np.abs, ascending=False).head(6).round(3)
'''

_DRUG_SOUND = '''
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.metrics import roc_auc_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

X = screen.drop(columns=["TISSUE", "AUC", "LN_IC50", "sensitive"])
y = screen["sensitive"].to_numpy()
lasso = make_pipeline(StandardScaler(),
                      LogisticRegression(penalty="l1", solver="liblinear", C=0.3,
                                         random_state=0))
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=3)
p_cv = cross_val_predict(lasso, X, y, cv=cv, method="predict_proba")[:, 1]
print(f"{y.sum()} sensitive / {len(y)} lines; CV AUC = {roc_auc_score(y, p_cv):.3f}")

lasso.fit(X, y)
coef = pd.Series(lasso[-1].coef_.ravel(), index=X.columns)
coef[coef != 0].sort_values(key=np.abs, ascending=False).head(6).round(3)
'''

CASES: list[Case] = [
    Case(
        id="h17-target-leakage-ecg-patch-af-oac-started",
        family="target_leakage",
        setup=_ECG_SETUP,
        code=_ECG_FLAWED,
        twin="h17-target-leakage-ecg-patch-af-baseline-only",
        note="oac_started_fu (anticoagulant started at follow-up, after the AF diagnosis) is "
             "kept as a feature, so the model reads the outcome's consequence; AUC inflated.",
        split="holdout17",
    ),
    Case(
        id="h17-target-leakage-ecg-patch-af-baseline-only",
        family=None,
        setup=_ECG_SETUP,
        code=_ECG_SOUND,
        twin="h17-target-leakage-ecg-patch-af-oac-started",
        note="Post-outcome anticoagulation column dropped; only baseline and patch-derived "
             "features, stratified held-out split, honest AUC.",
        split="holdout17",
    ),
    Case(
        id="h17-target-leakage-drug-screen-curve-auc-feature",
        family="target_leakage",
        setup=_DRUG_SETUP,
        code=_DRUG_FLAWED,
        twin="h17-target-leakage-drug-screen-genomic-features",
        note="The dose-response AUC, fitted from the same viability curve that defines IC50 "
             "and thus sensitivity, is left among the predictors; CV AUC reflects the label.",
        split="holdout17",
    ),
    Case(
        id="h17-target-leakage-drug-screen-genomic-features",
        family=None,
        setup=_DRUG_SETUP,
        code=_DRUG_SOUND,
        twin="h17-target-leakage-drug-screen-curve-auc-feature",
        note="Both curve summaries (AUC, LN_IC50) excluded; sensitivity predicted from "
             "mutation and expression only with the pipeline inside CV.",
        split="holdout17",
    ),
]
