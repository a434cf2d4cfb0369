from bench.critic_corpus import Case

SPLIT = "holdout28"

_PV_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(31415)
idx = pd.date_range("2023-01-01", "2023-12-31 23:00", freq="h", tz="Europe/London")
doy = idx.dayofyear.values
hr = idx.hour.values + idx.minute.values / 60
elev = np.clip(np.sin(np.pi * (hr - 5) / 14) * (0.55 + 0.45 * np.sin(2 * np.pi * (doy - 80)
                                                                     / 365)), 0, None)
cloud = np.clip(rng.beta(2, 2, len(idx)) + 0.15 * np.cos(2 * np.pi * doy / 365), 0, 1)
ghi_fc = 950 * elev * (1 - 0.7 * cloud) + rng.normal(0, 25, len(idx))
temp_fc = 10 + 8 * np.sin(2 * np.pi * (doy - 110) / 365) + 4 * elev + rng.normal(0, 2, len(idx))
pv = pd.DataFrame({"ghi_fc_wm2": ghi_fc.clip(0), "cloud_fc": cloud.round(2),
                   "temp_fc_c": temp_fc.round(1), "hour": hr, "doy": doy}, index=idx)
true_ghi = ghi_fc + rng.normal(0, 90, len(idx)) * elev
pv["output_mw"] = (0.048 * true_ghi * (1 - 0.004 * (temp_fc - 25))).clip(0, 49.9).round(2)
pv = pv[elev > 0.02]           # daylight hours only
print(pv.shape)
pv.describe().round(2)
'''

_PV_FLAWED = '''
from sklearn.linear_model import Ridge
from sklearn.metrics import mean_absolute_error
from sklearn.neighbors import KNeighborsRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeRegressor

X_cols = ["ghi_fc_wm2", "cloud_fc", "temp_fc_c", "hour", "doy"]
train, test = pv[:"2023-10-31"], pv["2023-11-01":]

candidates = {}
for k in [3, 5, 10, 20, 40, 80]:
    candidates[f"knn_k{k}"] = make_pipeline(StandardScaler(), KNeighborsRegressor(k))
for a in [0.01, 0.1, 1, 10, 100]:
    candidates[f"ridge_a{a}"] = make_pipeline(StandardScaler(), Ridge(alpha=a))
for d in [3, 4, 6, 8, 10, 12, 16]:
    candidates[f"tree_d{d}"] = DecisionTreeRegressor(max_depth=d, random_state=0)

scores = {}
for name, mdl in candidates.items():
    mdl.fit(train[X_cols], train["output_mw"])
    scores[name] = mean_absolute_error(test["output_mw"], mdl.predict(test[X_cols]))

board = pd.Series(scores).sort_values()
print(board.head(6).round(3).to_string())
print(f"\\nselected {board.index[0]} -> expected day-ahead MAE {board.iloc[0]:.2f} MW "
      f"({board.iloc[0] / 50:.1%} of 50 MW capacity)")
'''

_PV_SOUND = '''
from sklearn.base import clone
from sklearn.linear_model import Ridge
from sklearn.metrics import mean_absolute_error
from sklearn.neighbors import KNeighborsRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeRegressor

X_cols = ["ghi_fc_wm2", "cloud_fc", "temp_fc_c", "hour", "doy"]
# fit on Jan-Aug, choose on Sep-Oct, touch Nov-Dec once at the very end
fit_part, val = pv[:"2023-08-31"], pv["2023-09-01":"2023-10-31"]
train, test = pv[:"2023-10-31"], pv["2023-11-01":]

candidates = {}
for k in [3, 5, 10, 20, 40, 80]:
    candidates[f"knn_k{k}"] = make_pipeline(StandardScaler(), KNeighborsRegressor(k))
for a in [0.01, 0.1, 1, 10, 100]:
    candidates[f"ridge_a{a}"] = make_pipeline(StandardScaler(), Ridge(alpha=a))
for d in [3, 4, 6, 8, 10, 12, 16]:
    candidates[f"tree_d{d}"] = DecisionTreeRegressor(max_depth=d, random_state=0)

scores = {}
for name, mdl in candidates.items():
    mdl.fit(fit_part[X_cols], fit_part["output_mw"])
    scores[name] = mean_absolute_error(val["output_mw"], mdl.predict(val[X_cols]))

board = pd.Series(scores).sort_values()
print("validation (Sep-Oct) MAE:")
print(board.head(6).round(3).to_string())

best = clone(candidates[board.index[0]]).fit(train[X_cols], train["output_mw"])
mae = mean_absolute_error(test["output_mw"], best.predict(test[X_cols]))
print(f"\\nselected {board.index[0]}, refit to Oct -> Nov-Dec test MAE {mae:.2f} MW "
      f"({mae / 50:.1%} of 50 MW capacity)")
'''

_NTL_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(4242)
n = 2400
meters = pd.DataFrame({
    "mpan": [f"19{x:011d}" for x in rng.choice(10**11, n, replace=False)],
    "kwh_drop_pct": rng.normal(0, 15, n).round(1),     # yoy change in consumption
    "zero_read_days": rng.poisson(1.5, n),
    "tamper_alarms": rng.poisson(0.2, n),
    "night_day_ratio": rng.lognormal(-0.6, 0.3, n).round(3),
    "prev_ntl_case": rng.binomial(1, 0.04, n),
})
lin = (-3.2 - 0.05 * meters["kwh_drop_pct"] + 0.25 * meters["zero_read_days"]
       + 0.9 * meters["tamper_alarms"] + 1.2 * meters["prev_ntl_case"])
meters["theft_confirmed"] = rng.binomial(1, 1 / (1 + np.exp(-lin)))
# inspections already done: 1600 for training, 800 later visits held out
meters["batch"] = np.where(np.arange(n) < 1600, "train", "test")
meters.groupby("batch")["theft_confirmed"].agg(["size", "mean"])
'''

_NTL_FLAWED = '''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import f1_score, precision_score, recall_score

feats = ["kwh_drop_pct", "zero_read_days", "tamper_alarms", "night_day_ratio", "prev_ntl_case"]
tr, te = meters[meters.batch == "train"], meters[meters.batch == "test"]
rf = RandomForestClassifier(n_estimators=40, min_samples_leaf=10, random_state=1)
rf.fit(tr[feats], tr["theft_confirmed"])
score = rf.predict_proba(te[feats])[:, 1]

thresholds = np.round(np.arange(0.05, 0.80, 0.01), 2)
f1s = np.array([f1_score(te["theft_confirmed"], score >= t) for t in thresholds])
t_best = thresholds[f1s.argmax()]
send = score >= t_best

print(f"inspection threshold: {t_best}")
print(f"expected campaign performance: F1 {f1s.max():.3f}, "
      f"hit rate {precision_score(te['theft_confirmed'], send):.1%}, "
      f"recall {recall_score(te['theft_confirmed'], send):.1%}")
'''

_NTL_SOUND = '''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import f1_score, precision_score, recall_score
from sklearn.model_selection import StratifiedKFold, cross_val_predict

feats = ["kwh_drop_pct", "zero_read_days", "tamper_alarms", "night_day_ratio", "prev_ntl_case"]
tr, te = meters[meters.batch == "train"], meters[meters.batch == "test"]
rf = RandomForestClassifier(n_estimators=40, min_samples_leaf=10, random_state=1)

# pick the threshold on out-of-fold scores for the training inspections only
cv = StratifiedKFold(5, shuffle=True, random_state=1)
oof = cross_val_predict(rf, tr[feats], tr["theft_confirmed"], cv=cv,
                        method="predict_proba")[:, 1]
thresholds = np.round(np.arange(0.05, 0.80, 0.01), 2)
f1s = np.array([f1_score(tr["theft_confirmed"], oof >= t) for t in thresholds])
t_best = thresholds[f1s.argmax()]

rf.fit(tr[feats], tr["theft_confirmed"])
send = rf.predict_proba(te[feats])[:, 1] >= t_best
print(f"inspection threshold (from training OOF): {t_best}")
print(f"held-out campaign performance: F1 {f1_score(te['theft_confirmed'], send):.3f}, "
      f"hit rate {precision_score(te['theft_confirmed'], send):.1%}, "
      f"recall {recall_score(te['theft_confirmed'], send):.1%}")
'''

CASES: list[Case] = [
    Case(
        id="h28-circ-pv-forecast-model-picked-on-test",
        family="circular_validation",
        setup=_PV_SETUP,
        code=_PV_FLAWED,
        twin="h28-circ-pv-forecast-model-picked-on-test-sound",
        note="18 PV forecast models are ranked on the Nov-Dec test MAE and the winner's test "
             "MAE is reported as the expected day-ahead error",
        split=SPLIT,
    ),
    Case(
        id="h28-circ-pv-forecast-model-picked-on-test-sound",
        family=None,
        setup=_PV_SETUP,
        code=_PV_SOUND,
        twin="h28-circ-pv-forecast-model-picked-on-test",
        note="model chosen on a Sep-Oct validation window, refit, and scored once on Nov-Dec",
        split=SPLIT,
    ),
    Case(
        id="h28-circ-ntl-threshold-tuned-on-test",
        family="circular_validation",
        setup=_NTL_SETUP,
        code=_NTL_FLAWED,
        twin="h28-circ-ntl-threshold-tuned-on-test-sound",
        note="the theft-inspection threshold is tuned to maximise F1 on the held-out visits and "
             "that same maximised F1 / hit rate is reported as expected performance",
        split=SPLIT,
    ),
    Case(
        id="h28-circ-ntl-threshold-tuned-on-test-sound",
        family=None,
        setup=_NTL_SETUP,
        code=_NTL_SOUND,
        twin="h28-circ-ntl-threshold-tuned-on-test",
        note="threshold tuned on out-of-fold training scores, then applied once to held-out "
             "visits",
        split=SPLIT,
    ),
]
