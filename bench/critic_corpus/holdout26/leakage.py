from bench.critic_corpus import Case

_SETUP_INJ = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2611)
n = 420
players = [f"P{i:02d}" for i in range(1, 29)]
df = pd.DataFrame({
    "player": rng.choice(players, n),
    "week": rng.integers(1, 40, n),
    "total_dist_m": rng.normal(24000, 4000, n).round(0),
    "hsr_m": rng.gamma(4, 300, n).round(0),
    "sprint_m": rng.gamma(3, 90, n).round(0),
    "accels": rng.poisson(55, n),
    "decels": rng.poisson(60, n),
    "player_load_au": rng.normal(2400, 400, n).round(1),
    "acwr": rng.lognormal(0, 0.25, n).round(2),
    "sleep_h": rng.normal(7.4, 0.8, n).round(1),
})
lin = -2.2 + 1.6 * (df["acwr"] - 1) + 0.0008 * (df["hsr_m"] - 1200)
df["injured_next_wk"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
'''

_SETUP_ACAD = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(77)
n = 90
tests = {}
for k in range(1, 121):
    tests[f"test_{k:03d}"] = rng.normal(0, 1, n)
acad = pd.DataFrame(tests)
acad.insert(0, "player_id", [f"U16-{i:03d}" for i in range(n)])
acad["cmj_cm"] = rng.normal(38, 4, n).round(1)
acad["sprint30_s"] = rng.normal(4.45, 0.15, n).round(2)
signal = 0.08 * (acad["cmj_cm"] - 38) - 3 * (acad["sprint30_s"] - 4.45)
acad["pro_contract"] = (rng.random(n) < 1 / (1 + np.exp(-(signal - 0.4)))).astype(int)
'''

CASES = [
    Case(
        id="h26-leakage-scaler-pca-injury",
        family="leakage",
        setup=_SETUP_INJ,
        code='''from sklearn.decomposition import PCA
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

load_cols = ["total_dist_m", "hsr_m", "sprint_m", "accels", "decels",
             "player_load_au", "acwr", "sleep_h"]
X = StandardScaler().fit_transform(df[load_cols])
X = PCA(n_components=4).fit_transform(X)
y = df["injured_next_wk"].values

X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, random_state=3, stratify=y)
clf = LogisticRegression(max_iter=1000).fit(X_tr, y_tr)
auc = roc_auc_score(y_te, clf.predict_proba(X_te)[:, 1])
print(f"Injury-risk model (4 load components): test AUC = {auc:.3f}")
print(f"Injury rate in test weeks: {y_te.mean():.1%}")
''',
        twin="h26-leakage-scaler-pca-injury-ok",
        note="StandardScaler and PCA are fit on every player-week before the train/test split.",
        split="holdout26",
    ),
    Case(
        id="h26-leakage-scaler-pca-injury-ok",
        family=None,
        setup=_SETUP_INJ,
        code='''from sklearn.decomposition import PCA
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

load_cols = ["total_dist_m", "hsr_m", "sprint_m", "accels", "decels",
             "player_load_au", "acwr", "sleep_h"]
X = df[load_cols].values
y = df["injured_next_wk"].values

X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, random_state=3, stratify=y)
clf = make_pipeline(StandardScaler(), PCA(n_components=4), LogisticRegression(max_iter=1000))
clf.fit(X_tr, y_tr)
auc = roc_auc_score(y_te, clf.predict_proba(X_te)[:, 1])
print(f"Injury-risk model (4 load components): test AUC = {auc:.3f}")
print(f"Injury rate in test weeks: {y_te.mean():.1%}")
''',
        twin="h26-leakage-scaler-pca-injury",
        note="Scaler and PCA live inside the pipeline and are fit on the training weeks only.",
        split="holdout26",
    ),
    Case(
        id="h26-leakage-corr-screen-academy",
        family="leakage",
        setup=_SETUP_ACAD,
        code='''from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score

# screen the academy test battery: keep the 10 tests most related to getting a pro contract
metric_cols = [c for c in acad.columns if c not in ("player_id", "pro_contract")]
r = acad[metric_cols].corrwith(acad["pro_contract"]).abs().sort_values(ascending=False)
top10 = r.head(10).index.tolist()
print("Most predictive tests:", ", ".join(top10))

cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=11)
scores = cross_val_score(LogisticRegression(max_iter=2000), acad[top10], acad["pro_contract"],
                         cv=cv, scoring="roc_auc")
print(f"5-fold CV AUC for contract prediction: {scores.mean():.3f} +/- {scores.std():.3f}")
''',
        twin="h26-leakage-corr-screen-academy-ok",
        note="Top-10 tests chosen by correlation with the outcome on all 90 players, then CV'd.",
        split="holdout26",
    ),
    Case(
        id="h26-leakage-corr-screen-academy-ok",
        family=None,
        setup=_SETUP_ACAD,
        code='''from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline

# screen the academy test battery inside each fold: keep the 10 most related tests
metric_cols = [c for c in acad.columns if c not in ("player_id", "pro_contract")]
model = make_pipeline(SelectKBest(f_classif, k=10), LogisticRegression(max_iter=2000))

cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=11)
scores = cross_val_score(model, acad[metric_cols], acad["pro_contract"],
                         cv=cv, scoring="roc_auc")
print(f"5-fold CV AUC for contract prediction: {scores.mean():.3f} +/- {scores.std():.3f}")
''',
        twin="h26-leakage-corr-screen-academy",
        note="Test screening is refit inside every CV fold via the pipeline, so no leakage.",
        split="holdout26",
    ),
]
