from bench.critic_corpus import Case

_PCM_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2207)
n_wafers = 96
blocks = {"vt_mv": (420, 12), "idsat_ua": (610, 25), "rs_ohm_sq": (85, 3), "ileak_pa": (40, 9)}
cols = {}
for blk, (mu, sd) in blocks.items():
    for i in range(100):
        cols[f"pcm_{blk}_{i:03d}"] = rng.normal(mu, sd * rng.uniform(0.6, 1.4), n_wafers)
df_pcm = pd.DataFrame(cols).round(2)
df_pcm.insert(0, "wafer_id", [f"W{2300 + i}" for i in range(n_wafers)])
# sort result from final wafer test (1 = wafer below 85 % sort yield)
z = (df_pcm["pcm_ileak_pa_007"] - 40) / 9
df_pcm["sort_fail"] = (rng.random(n_wafers) < 1 / (1 + np.exp(-(-0.7 + 0.5 * z)))).astype(int)
'''

_PCM_FLAWED = '''
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

pcm = df_pcm.filter(like="pcm_")
X, y = pcm.to_numpy(), df_pcm["sort_fail"].to_numpy()
print(f"{X.shape[0]} wafers x {X.shape[1]} PCM params, fail rate {y.mean():.2f}")

# keep the 15 PCM params most related to sort fails
sel = SelectKBest(f_classif, k=15).fit(X, y)
X_k = sel.transform(X)
print("top params:", ", ".join(pcm.columns[sel.get_support()][:6]), "...")

cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
clf = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))
auc = cross_val_score(clf, X_k, y, cv=cv, scoring="roc_auc")
print(f"5-fold CV AUC, 15-param sort-fail model: {auc.mean():.3f} +/- {auc.std():.3f}")
'''

_PCM_SOUND = '''
from collections import Counter

from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

pcm = df_pcm.filter(like="pcm_")
X, y = pcm.to_numpy(), df_pcm["sort_fail"].to_numpy()
print(f"{X.shape[0]} wafers x {X.shape[1]} PCM params, fail rate {y.mean():.2f}")

# param screening is part of the model -> refit inside every fold
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
clf = make_pipeline(SelectKBest(f_classif, k=15), StandardScaler(),
                    LogisticRegression(max_iter=2000))
res = cross_validate(clf, X, y, cv=cv, scoring="roc_auc", return_estimator=True)
auc = res["test_score"]
picked = Counter(c for est in res["estimator"]
                 for c in pcm.columns[est[0].get_support()])
print("params picked in >=3/5 folds:", [c for c, k in picked.items() if k >= 3])
print(f"5-fold CV AUC, 15-param sort-fail model: {auc.mean():.3f} +/- {auc.std():.3f}")
'''

_PUMP_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(41)
n = 1800
df_pm = pd.DataFrame({
    "asset_id": rng.choice([f"P-{i:02d}" for i in range(1, 25)], n),
    "snap_ts": pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 270, n), "D"),
    "vib_rms_mm_s": rng.gamma(4, 0.6, n).round(2),
    "bearing_temp_c": rng.normal(61, 5, n).round(1),
    "motor_current_a": rng.normal(38, 3, n).round(1),
    "discharge_bar": rng.normal(6.2, 0.4, n).round(2),
    "run_hours_since_pm": rng.uniform(0, 4000, n).round(0),
})
lin = (-5.6 + 0.75 * df_pm.vib_rms_mm_s + 0.06 * (df_pm.bearing_temp_c - 61)
       + 0.0004 * df_pm.run_hours_since_pm)
df_pm["fail_7d"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
'''

_PUMP_FLAWED = '''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import precision_score, recall_score
from sklearn.model_selection import train_test_split
from sklearn.utils import resample

feats = ["vib_rms_mm_s", "bearing_temp_c", "motor_current_a", "discharge_bar",
         "run_hours_since_pm"]
print(f"snapshots: {len(df_pm)}, failures within 7 d: {df_pm.fail_7d.sum()}")

# failures are rare -> upsample them so the forest sees a balanced set
fail, ok = df_pm[df_pm.fail_7d == 1], df_pm[df_pm.fail_7d == 0]
fail_up = resample(fail, replace=True, n_samples=len(ok), random_state=1)
df_bal = pd.concat([ok, fail_up])

X_tr, X_te, y_tr, y_te = train_test_split(
    df_bal[feats], df_bal.fail_7d, test_size=0.25, stratify=df_bal.fail_7d, random_state=1)
rf = RandomForestClassifier(n_estimators=150, max_depth=6, random_state=1)
rf.fit(X_tr, y_tr)
y_hat = rf.predict(X_te)
print(f"test recall (fail)   : {recall_score(y_te, y_hat):.3f}")
print(f"test precision (fail): {precision_score(y_te, y_hat):.3f}")
'''

_PUMP_SOUND = '''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import precision_score, recall_score
from sklearn.model_selection import train_test_split
from sklearn.utils import resample

feats = ["vib_rms_mm_s", "bearing_temp_c", "motor_current_a", "discharge_bar",
         "run_hours_since_pm"]
print(f"snapshots: {len(df_pm)}, failures within 7 d: {df_pm.fail_7d.sum()}")

# split first; the test set keeps the real failure rate
tr, te = train_test_split(df_pm, test_size=0.25, stratify=df_pm.fail_7d, random_state=1)

# upsample failures in the training part only
fail, ok = tr[tr.fail_7d == 1], tr[tr.fail_7d == 0]
fail_up = resample(fail, replace=True, n_samples=len(ok), random_state=1)
tr_bal = pd.concat([ok, fail_up])

rf = RandomForestClassifier(n_estimators=150, max_depth=6, random_state=1)
rf.fit(tr_bal[feats], tr_bal.fail_7d)
y_hat = rf.predict(te[feats])
print(f"test recall (fail)   : {recall_score(te.fail_7d, y_hat):.3f}")
print(f"test precision (fail): {precision_score(te.fail_7d, y_hat):.3f}")
'''

CASES: list[Case] = [
    Case(
        id="h22-leakage-pcm-selectkbest-wafer-sort",
        family="leakage",
        code=_PCM_FLAWED,
        setup=_PCM_SETUP,
        twin="h22-leakage-pcm-selectkbest-wafer-sort-sound",
        note="SelectKBest picks 15 of 400 PCM params using all wafers' labels before CV, "
             "so the CV AUC is inflated by selection on the test folds",
        split="holdout22",
    ),
    Case(
        id="h22-leakage-pcm-selectkbest-wafer-sort-sound",
        family=None,
        code=_PCM_SOUND,
        setup=_PCM_SETUP,
        twin="h22-leakage-pcm-selectkbest-wafer-sort",
        note="param screening sits inside the pipeline and is refit within every CV fold",
        split="holdout22",
    ),
    Case(
        id="h22-leakage-pump-upsample-before-split",
        family="leakage",
        code=_PUMP_FLAWED,
        setup=_PUMP_SETUP,
        twin="h22-leakage-pump-upsample-before-split-sound",
        note="failure rows are upsampled with replacement before train_test_split, so copies of "
             "the same failures sit in train and test and recall is inflated",
        split="holdout22",
    ),
    Case(
        id="h22-leakage-pump-upsample-before-split-sound",
        family=None,
        code=_PUMP_SOUND,
        setup=_PUMP_SETUP,
        twin="h22-leakage-pump-upsample-before-split",
        note="split first, upsample only the training part, score on the untouched test set",
        split="holdout22",
    ),
]
