from bench.critic_corpus import Case

_SPINDLE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3044)
idx = pd.date_range("2024-03-04", periods=6 * 24 * 28, freq="10min")   # 4 weeks, 10-min
n = len(idx)
t = np.arange(n)
df_s = pd.DataFrame({
    "spindle_temp_c": 48 + 3 * np.sin(2 * np.pi * t / 144) + rng.normal(0, 0.8, n),
    "vib_g": rng.gamma(5, 0.02, n),
    "coolant_lpm": rng.normal(22, 0.6, n),
    "load_pct": rng.uniform(40, 90, n),
}, index=idx)
# fault windows from the maintenance log (4 per week)
fault = np.zeros(n, bool)
for wk in range(4):
    for s in rng.choice(np.arange(wk * 1008 + 20, (wk + 1) * 1008 - 20), 4, replace=False):
        fault[s:s + rng.integers(3, 10)] = True
k = int(fault.sum())
df_s.loc[fault, "vib_g"] += rng.gamma(3, 0.04, k)
df_s.loc[fault, "spindle_temp_c"] += rng.normal(2.0, 1.0, k)
df_s.loc[fault, "coolant_lpm"] -= rng.gamma(1.5, 0.4, k)
df_s = df_s.round(3)
df_s["fault"] = fault.astype(int)
'''

_SPINDLE_FLAWED = '''
from sklearn.ensemble import IsolationForest
from sklearn.metrics import f1_score

sig = ["spindle_temp_c", "vib_g", "coolant_lpm", "load_pct"]
train = df_s.loc[:"2024-03-17"]           # weeks 1-2: fit
test = df_s.loc["2024-03-18":]            # weeks 3-4: evaluate
iso = IsolationForest(n_estimators=200, random_state=0).fit(train[sig])
score = -iso.score_samples(test[sig])     # higher = more anomalous

# pick the alarm threshold that gives the best F1
res = {}
for q in np.arange(0.90, 0.999, 0.001):
    thr = np.quantile(score, q)
    res[round(q, 4)] = f1_score(test.fault, score > thr)
q_best = max(res, key=res.get)
print(f"alarm threshold at score quantile {q_best:.4f}")
print(f"expected fault-detection F1 on new data: {res[q_best]:.3f}")
'''

_SPINDLE_SOUND = '''
from sklearn.ensemble import IsolationForest
from sklearn.metrics import f1_score

sig = ["spindle_temp_c", "vib_g", "coolant_lpm", "load_pct"]
train = df_s.loc[:"2024-03-17"]           # weeks 1-2: fit
val = df_s.loc["2024-03-18":"2024-03-24"]  # week 3: tune threshold
test = df_s.loc["2024-03-25":]            # week 4: evaluate once
iso = IsolationForest(n_estimators=200, random_state=0).fit(train[sig])
s_val = -iso.score_samples(val[sig])      # higher = more anomalous
s_te = -iso.score_samples(test[sig])

# pick the alarm threshold on the validation week only
res = {}
for q in np.arange(0.90, 0.999, 0.001):
    thr = np.quantile(s_val, q)
    res[round(q, 4)] = (thr, f1_score(val.fault, s_val > thr))
q_best = max(res, key=lambda q: res[q][1])
thr, f1_val = res[q_best]
print(f"alarm threshold at val-week score quantile {q_best:.4f} (val F1 {f1_val:.3f})")
print(f"fault-detection F1 on untouched week 4: {f1_score(test.fault, s_te > thr):.3f}")
'''

_ENERGY_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(99)
n = 600   # machine-shift records
df_e = pd.DataFrame({
    "machine": rng.choice([f"CNC-{i:02d}" for i in range(1, 13)], n),
    "shift": rng.choice(["A", "B", "C"], n),
    "parts_made": rng.poisson(140, n),
    "spindle_h": rng.normal(6.5, 0.8, n).clip(2, 8).round(2),
    "ambient_c": rng.normal(24, 3, n).round(1),
    "material": rng.choice(["Al6061", "SS304", "Ti6Al4V"], n, p=[0.5, 0.35, 0.15]),
})
mat = df_e.material.map({"Al6061": 0.0, "SS304": 9.0, "Ti6Al4V": 16.0})
df_e["kwh"] = (8 + 3.1 * df_e.spindle_h + 0.05 * df_e.parts_made + mat
               + 0.2 * (df_e.ambient_c - 24) + rng.normal(0, 4.5, n)).round(2)
'''

_ENERGY_FLAWED = '''
from sklearn.ensemble import RandomForestRegressor
from sklearn.metrics import mean_absolute_percentage_error, r2_score

X = pd.get_dummies(df_e.drop(columns=["kwh"]), columns=["machine", "shift", "material"])
y = df_e.kwh
rf = RandomForestRegressor(n_estimators=150, random_state=0).fit(X, y)
y_hat = rf.predict(X)

acc = {"R2": r2_score(y, y_hat), "MAPE_%": 100 * mean_absolute_percentage_error(y, y_hat),
       "MAE_kWh": np.abs(y - y_hat).mean()}
print("energy model accuracy (kWh per machine-shift):")
for k, v in acc.items():
    print(f"  {k:8s} {v:7.3f}")
print("-> good enough for shift-level energy budgeting")
'''

_ENERGY_SOUND = '''
from sklearn.ensemble import RandomForestRegressor
from sklearn.metrics import mean_absolute_percentage_error, r2_score
from sklearn.model_selection import KFold, cross_val_predict

X = pd.get_dummies(df_e.drop(columns=["kwh"]), columns=["machine", "shift", "material"])
y = df_e.kwh
rf = RandomForestRegressor(n_estimators=150, random_state=0)
y_hat = cross_val_predict(rf, X, y, cv=KFold(5, shuffle=True, random_state=0))

acc = {"R2": r2_score(y, y_hat), "MAPE_%": 100 * mean_absolute_percentage_error(y, y_hat),
       "MAE_kWh": np.abs(y - y_hat).mean()}
print("energy model accuracy, 5-fold out-of-fold (kWh per machine-shift):")
for k, v in acc.items():
    print(f"  {k:8s} {v:7.3f}")
'''

CASES: list[Case] = [
    Case(
        id="h22-circular-spindle-isoforest-threshold",
        family="circular_validation",
        code=_SPINDLE_FLAWED,
        setup=_SPINDLE_SETUP,
        twin="h22-circular-spindle-isoforest-threshold-sound",
        note="alarm threshold is chosen to maximise F1 on the labelled test weeks and that "
             "best F1 is reported as the expected performance on new data",
        split="holdout22",
    ),
    Case(
        id="h22-circular-spindle-isoforest-threshold-sound",
        family=None,
        code=_SPINDLE_SOUND,
        setup=_SPINDLE_SETUP,
        twin="h22-circular-spindle-isoforest-threshold",
        note="threshold tuned on a validation week, F1 reported once on a later untouched week",
        split="holdout22",
    ),
    Case(
        id="h22-circular-cnc-energy-insample-r2",
        family="circular_validation",
        code=_ENERGY_FLAWED,
        setup=_ENERGY_SETUP,
        twin="h22-circular-cnc-energy-insample-r2-sound",
        note="random forest scored on the same machine-shift rows it was fit on; in-sample R2 "
             "and MAPE are reported as the model's accuracy",
        split="holdout22",
    ),
    Case(
        id="h22-circular-cnc-energy-insample-r2-sound",
        family=None,
        code=_ENERGY_SOUND,
        setup=_ENERGY_SETUP,
        twin="h22-circular-cnc-energy-insample-r2",
        note="accuracy from 5-fold out-of-fold predictions",
        split="holdout22",
    ),
]
