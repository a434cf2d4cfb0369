from bench.critic_corpus import Case

_BIKE = '''
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.metrics import r2_score, mean_absolute_error

rng = np.random.default_rng(11)
n = 2400
st = rng.integers(0, 520, n)
hour = rng.integers(0, 24, n)
temp = np.round(rng.normal(17, 7, n), 1)
hum = np.clip(rng.normal(62, 15, n), 15, 100).round()
wd = rng.integers(0, 2, n)
peak = np.where(wd == 1, np.exp(-((hour - 8) ** 2) / 4) + np.exp(-((hour - 17.5) ** 2) / 5),
                0.8 * np.exp(-((hour - 14) ** 2) / 12))
st_eff = rng.normal(0, 0.25, 520)[st]
lam = np.exp(1.6 + 1.3 * peak + 0.025 * temp - 0.006 * hum + st_eff)
trips = pd.DataFrame({
    "station_id": [f"ST{s:03d}" for s in st], "hour": hour, "workingday": wd,
    "temp_c": temp, "humidity": hum, "rentals": rng.poisson(lam * rng.gamma(3, 1 / 3, n)),
})
'''

_HEART = '''
import numpy as np
import pandas as pd
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

rng = np.random.default_rng(4)
n = 170
age = rng.integers(34, 78, n)
chol = rng.normal(245, 48, n).round()
thalach = (205 - 0.8 * age + rng.normal(0, 18, n)).round()
oldpeak = np.round(rng.gamma(1.2, 0.9, n), 1)
logit = -0.4 + 0.03 * (age - 55) + 0.005 * (chol - 245) - 0.015 * (thalach - 150) + 0.3 * oldpeak
target = rng.binomial(1, 1 / (1 + np.exp(-logit)))
ecg = pd.DataFrame(rng.normal(size=(n, 380)), columns=[f"ecg_f{i:03d}" for i in range(380)])
hd = pd.concat([pd.DataFrame({"age": age, "chol": chol, "thalach": thalach,
                              "oldpeak": oldpeak}), ecg], axis=1).assign(target=target)
'''

CASES: list[Case] = [
    Case(
        id="h15-leakage-bike-station-target-encoding",
        family="leakage",
        setup=_BIKE,
        code='''df = trips.copy()
df["station_te"] = df.groupby("station_id")["rentals"].transform("mean")
feats = ["hour", "workingday", "temp_c", "humidity", "station_te"]

X_tr, X_te, y_tr, y_te = train_test_split(df[feats], df["rentals"],
                                          test_size=0.25, random_state=0)
gbr = GradientBoostingRegressor(n_estimators=200, max_depth=3, random_state=0)
gbr.fit(X_tr, y_tr)
pred = gbr.predict(X_te)

res = {"r2": round(r2_score(y_te, pred), 3), "mae": round(mean_absolute_error(y_te, pred), 2),
       "n_stations": df["station_id"].nunique()}
print(res)
pd.Series(gbr.feature_importances_, index=feats).sort_values(ascending=False).round(3)
''',
        twin="h15-leakage-bike-station-target-encoding-ok",
        note="Station mean-rentals encoding computed on all rows (incl. each test row's own "
             "target) before the split, so test R2 is inflated.",
        split="holdout15",
    ),
    Case(
        id="h15-leakage-bike-station-target-encoding-ok",
        family=None,
        setup=_BIKE,
        code='''df = trips.copy()
feats = ["hour", "workingday", "temp_c", "humidity", "station_te"]

tr, te = train_test_split(df, test_size=0.25, random_state=0)
glob = tr["rentals"].mean()
st_mean = tr.groupby("station_id")["rentals"].agg(["sum", "count"])
te_map = (st_mean["sum"] + 5 * glob) / (st_mean["count"] + 5)
tr = tr.assign(station_te=tr["station_id"].map(te_map))
te = te.assign(station_te=te["station_id"].map(te_map).fillna(glob))

gbr = GradientBoostingRegressor(n_estimators=200, max_depth=3, random_state=0)
gbr.fit(tr[feats], tr["rentals"])
pred = gbr.predict(te[feats])

res = {"r2": round(r2_score(te["rentals"], pred), 3),
       "mae": round(mean_absolute_error(te["rentals"], pred), 2),
       "n_stations": df["station_id"].nunique()}
print(res)
pd.Series(gbr.feature_importances_, index=feats).sort_values(ascending=False).round(3)
''',
        twin="h15-leakage-bike-station-target-encoding",
        note="Smoothed station encoding is learned on the training rows only and mapped onto "
             "the test rows (unseen stations get the global mean); honest test metrics.",
        split="holdout15",
    ),
    Case(
        id="h15-leakage-heart-selectkbest-before-cv",
        family="leakage",
        setup=_HEART,
        code='''X, y = hd.drop(columns="target"), hd["target"]
print(X.shape, y.value_counts().to_dict())

sel = SelectKBest(f_classif, k=15).fit(X, y)
X_k = X.loc[:, sel.get_support()]
print(X_k.columns.tolist())

pipe = make_pipeline(StandardScaler(), LogisticRegression(C=1.0, max_iter=2000))
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=1)
auc = cross_val_score(pipe, X_k, y, cv=cv, scoring="roc_auc")
print(f"CV ROC AUC: {auc.mean():.3f} +/- {auc.std():.3f}")
auc.round(3)
''',
        twin="h15-leakage-heart-selectkbest-before-cv-ok",
        note="SelectKBest picks 15 of 384 features using all rows' labels before "
             "cross-validation, so the CV AUC is optimistically biased.",
        split="holdout15",
    ),
    Case(
        id="h15-leakage-heart-selectkbest-before-cv-ok",
        family=None,
        setup=_HEART,
        code='''X, y = hd.drop(columns="target"), hd["target"]
print(X.shape, y.value_counts().to_dict())

pipe = make_pipeline(SelectKBest(f_classif, k=15), StandardScaler(),
                     LogisticRegression(C=1.0, max_iter=2000))
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=1)
auc = cross_val_score(pipe, X, y, cv=cv, scoring="roc_auc")
print(f"CV ROC AUC: {auc.mean():.3f} +/- {auc.std():.3f}")
auc.round(3)
''',
        twin="h15-leakage-heart-selectkbest-before-cv",
        note="Feature selection sits inside the pipeline, so it is refit on each training "
             "fold and the CV AUC is honest.",
        split="holdout15",
    ),
]
