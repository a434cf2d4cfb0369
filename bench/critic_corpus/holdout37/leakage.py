from bench.critic_corpus import Case

_MIR_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3701)
n_cows = 160
wavenumbers = np.arange(930, 3030, 6)[:350]
band_cols = [f"wn_{w}" for w in wavenumbers]

# mid-infrared absorbance of the milk sample at the recording closest to the SCC test;
# bands are smooth around a cow-specific baseline, only a handful carry real signal
base = rng.normal(0.0, 1.0, (n_cows, 1))
spectra = base + rng.normal(0.0, 1.0, (n_cows, len(band_cols)))
log_scc = rng.normal(4.9, 0.9, n_cows)
spectra[:, 40:48] += 0.6 * (log_scc[:, None] - 4.9)
mir = pd.DataFrame(spectra, columns=band_cols)
mir.insert(0, "cow_id", [f"NL{580000 + i}" for i in range(n_cows)])
mir["parity"] = rng.integers(1, 7, n_cows)
p = 1 / (1 + np.exp(-(-1.0 + 2.2 * (log_scc - 4.9))))
mir["subclin_mastitis"] = rng.binomial(1, p)
'''

_HORSE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3702)
n = 420
colic = pd.DataFrame({
    "case_no": np.arange(17001, 17001 + n),
    "heart_rate": rng.normal(56, 14, n).round(),
    "resp_rate": rng.normal(22, 8, n).clip(8, None).round(),
    "rectal_temp": rng.normal(37.9, 0.5, n).round(1),
    "pcv": rng.normal(40, 6, n).round(),
    "total_protein": rng.normal(68, 8, n).round(),
    "lactate": rng.lognormal(0.6, 0.6, n).round(1),
    "pain_score": rng.integers(0, 5, n),
    "age_years": rng.integers(2, 26, n),
})
lin = (-2.6 + 0.06 * (colic.heart_rate - 56) + 0.9 * np.log(colic.lactate)
       + 0.5 * (colic.pain_score - 2) - 0.06 * (colic.total_protein - 68))
colic["surgical_lesion"] = rng.binomial(1, 1 / (1 + np.exp(-lin)))
'''

CASES = [
    Case(
        id="h37-leak-mir-mastitis-selectkbest",
        family="leakage",
        twin="h37-leak-mir-mastitis-pipeline",
        setup=_MIR_SETUP,
        code='''from sklearn.preprocessing import StandardScaler
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.model_selection import train_test_split
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

X = mir[band_cols].to_numpy()
y = mir["subclin_mastitis"].to_numpy()
print(f"{len(y)} cows, {y.sum()} with SCC-defined subclinical mastitis, {X.shape[1]} MIR bands")

X_std = StandardScaler().fit_transform(X)
selector = SelectKBest(f_classif, k=15).fit(X_std, y)
X_sel = selector.transform(X_std)
picked = [band_cols[i] for i in selector.get_support(indices=True)]
print("informative bands:", ", ".join(picked[:8]), "...")

X_tr, X_te, y_tr, y_te = train_test_split(X_sel, y, test_size=0.3, stratify=y,
                                          random_state=11)
clf = LogisticRegression(C=1.0, max_iter=2000).fit(X_tr, y_tr)
auc = roc_auc_score(y_te, clf.predict_proba(X_te)[:, 1])
print(f"MIR screening model on held-out cows: AUC = {auc:.3f} (n = {len(y_te)})")
''',
        note="Scaler and SelectKBest are fit on all cows before the split, so the 15 bands are "
             "chosen using the test cows' mastitis labels and the held-out AUC is inflated.",
        split="holdout37",
    ),
    Case(
        id="h37-leak-mir-mastitis-pipeline",
        family=None,
        twin="h37-leak-mir-mastitis-selectkbest",
        setup=_MIR_SETUP,
        code='''from sklearn.preprocessing import StandardScaler
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.model_selection import train_test_split
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.metrics import roc_auc_score

X = mir[band_cols].to_numpy()
y = mir["subclin_mastitis"].to_numpy()
print(f"{len(y)} cows, {y.sum()} with SCC-defined subclinical mastitis, {X.shape[1]} MIR bands")

# split the cows first; scaling and band selection are learned on the training cows only
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y, random_state=11)
model = make_pipeline(StandardScaler(), SelectKBest(f_classif, k=15),
                      LogisticRegression(C=1.0, max_iter=2000))
model.fit(X_tr, y_tr)
picked = [band_cols[i] for i in model[1].get_support(indices=True)]
print("bands picked on training cows:", ", ".join(picked[:8]), "...")

auc = roc_auc_score(y_te, model.predict_proba(X_te)[:, 1])
print(f"MIR screening model on held-out cows: AUC = {auc:.3f} (n = {len(y_te)})")
''',
        note="Scaling and univariate band selection sit inside a pipeline fit on the training "
             "cows only; the test cows are touched once for the AUC.",
        split="holdout37",
    ),
    Case(
        id="h37-leak-colic-upsample-before-cv",
        family="leakage",
        twin="h37-leak-colic-upsample-in-fold",
        setup=_HORSE_SETUP,
        code='''from sklearn.utils import resample
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import StratifiedKFold, cross_validate

features = ["heart_rate", "resp_rate", "rectal_temp", "pcv", "total_protein",
            "lactate", "pain_score", "age_years"]
print(colic["surgical_lesion"].value_counts().rename({0: "medical", 1: "surgical"}))

surg = colic[colic.surgical_lesion == 1]
med = colic[colic.surgical_lesion == 0]
surg_up = resample(surg, replace=True, n_samples=len(med), random_state=4)
balanced = pd.concat([med, surg_up]).reset_index(drop=True)

rf = RandomForestClassifier(n_estimators=150, min_samples_leaf=1, random_state=4)
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=4)
scores = cross_validate(rf, balanced[features], balanced["surgical_lesion"], cv=cv,
                        scoring=["recall", "precision", "roc_auc"])
print(pd.Series({k.replace("test_", ""): v.mean() for k, v in scores.items()
                 if k.startswith("test_")}).round(3))
''',
        note="Surgical colic cases are upsampled with replacement before cross-validation, so "
             "copies of the same horse sit in training and test folds and recall/AUC are inflated.",
        split="holdout37",
    ),
    Case(
        id="h37-leak-colic-upsample-in-fold",
        family=None,
        twin="h37-leak-colic-upsample-before-cv",
        setup=_HORSE_SETUP,
        code='''from sklearn.utils import resample
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import StratifiedKFold
from sklearn.metrics import recall_score, precision_score, roc_auc_score

features = ["heart_rate", "resp_rate", "rectal_temp", "pcv", "total_protein",
            "lactate", "pain_score", "age_years"]
print(colic["surgical_lesion"].value_counts().rename({0: "medical", 1: "surgical"}))

X, y = colic[features], colic["surgical_lesion"]
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=4)
rows = []
for fold, (tr, te) in enumerate(cv.split(X, y)):
    train = colic.iloc[tr]
    # upsample the surgical cases inside the training fold only; the test fold is untouched
    surg, med = train[train.surgical_lesion == 1], train[train.surgical_lesion == 0]
    train_bal = pd.concat([med, resample(surg, replace=True, n_samples=len(med),
                                         random_state=fold)])
    rf = RandomForestClassifier(n_estimators=150, random_state=4)
    rf.fit(train_bal[features], train_bal["surgical_lesion"])
    prob = rf.predict_proba(X.iloc[te])[:, 1]
    pred = (prob >= 0.5).astype(int)
    rows.append({"recall": recall_score(y.iloc[te], pred),
                 "precision": precision_score(y.iloc[te], pred, zero_division=0),
                 "roc_auc": roc_auc_score(y.iloc[te], prob)})
print(pd.DataFrame(rows).mean().round(3))
''',
        note="Oversampling of surgical cases is done within each training fold; each held-out "
             "fold contains only original, unseen horses.",
        split="holdout37",
    ),
]
