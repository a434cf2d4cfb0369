from bench.critic_corpus import Case

_SPIKES_SETUP = '''
import numpy as np

rng = np.random.default_rng(4172)
n_trials, n_units = 96, 480
stim = np.repeat([0, 1], n_trials // 2)          # 0 = horizontal grating, 1 = vertical
rng.shuffle(stim)
base_rate = rng.gamma(2.0, 3.0, size=n_units)     # spikes per 500 ms window
tuning = np.zeros(n_units)
tuning[rng.choice(n_units, 6, replace=False)] = rng.normal(0, 0.08, 6)
rates = base_rate * np.exp(tuning * (stim[:, None] - 0.5))
counts = rng.poisson(rates)
session_id = "M07_V1_2024-03-18"
print(session_id, counts.shape, "trials x units")
'''

_SPIKES_FLAWED = '''
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.preprocessing import StandardScaler

X = StandardScaler().fit_transform(np.sqrt(counts))
X = SelectKBest(f_classif, k=25).fit_transform(X, stim)

decoder = LogisticRegression(C=0.5, max_iter=2000)
cv = StratifiedKFold(n_splits=8, shuffle=True, random_state=11)
acc = cross_val_score(decoder, X, stim, cv=cv)
print(f"{session_id}: orientation decoding {acc.mean():.3f} +/- {acc.std():.3f} "
      f"(chance 0.5, {cv.get_n_splits()} folds, 25 units)")
'''

_SPIKES_SOUND = '''
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer, StandardScaler

decoder = make_pipeline(
    FunctionTransformer(np.sqrt),
    StandardScaler(),
    SelectKBest(f_classif, k=25),
    LogisticRegression(C=0.5, max_iter=2000),
)
cv = StratifiedKFold(n_splits=8, shuffle=True, random_state=11)
acc = cross_val_score(decoder, counts, stim, cv=cv)
print(f"{session_id}: orientation decoding {acc.mean():.3f} +/- {acc.std():.3f} "
      f"(chance 0.5, {cv.get_n_splits()} folds, 25 units selected within each fold)")
'''

_ALLOY_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(903)
n = 260
heat_ids = [f"H{k:03d}" for k in range(110)]
heat = rng.choice(heat_ids, size=n)
heat_offset = dict(zip(heat_ids, rng.normal(0, 6, len(heat_ids))))
coupons = pd.DataFrame({
    "heat": heat,
    "C_wt": rng.normal(0.42, 0.04, n).round(3),
    "Mn_wt": rng.normal(0.80, 0.10, n).round(2),
    "Cr_wt": rng.normal(1.00, 0.12, n).round(2),
    "temper_C": rng.choice([200, 300, 400, 500, 600], n),
    "quench_rate": rng.lognormal(3.0, 0.3, n).round(1),
})
coupons["hardness_HV"] = (
    300 + 450 * (coupons.C_wt - 0.42) + 25 * (coupons.Cr_wt - 1.0)
    - 0.12 * (coupons.temper_C - 400) + 0.4 * (coupons.quench_rate - 20)
    + coupons.heat.map(heat_offset) + rng.normal(0, 14, n)
).round(1)
coupons.head()
'''

_ALLOY_FLAWED = '''
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.metrics import mean_absolute_error, r2_score
from sklearn.model_selection import train_test_split

coupons["heat_mean_HV"] = coupons.groupby("heat")["hardness_HV"].transform("mean")
features = ["C_wt", "Mn_wt", "Cr_wt", "temper_C", "quench_rate", "heat_mean_HV"]

X_tr, X_te, y_tr, y_te = train_test_split(
    coupons[features], coupons["hardness_HV"], test_size=0.25, random_state=5)
gbr = GradientBoostingRegressor(n_estimators=300, max_depth=3, learning_rate=0.05,
                                random_state=5).fit(X_tr, y_tr)
pred = gbr.predict(X_te)
print(f"held-out coupons: n={len(y_te)}, R2={r2_score(y_te, pred):.3f}, "
      f"MAE={mean_absolute_error(y_te, pred):.1f} HV")
pd.Series(gbr.feature_importances_, index=features).sort_values(ascending=False).round(3)
'''

_ALLOY_SOUND = '''
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.metrics import mean_absolute_error, r2_score
from sklearn.model_selection import train_test_split

train, test = train_test_split(coupons, test_size=0.25, random_state=5)
train, test = train.copy(), test.copy()
grand = train["hardness_HV"].mean()
stats = train.groupby("heat")["hardness_HV"].agg(["sum", "count"])
shrunk = (stats["sum"] + 5 * grand) / (stats["count"] + 5)
loo = (train.heat.map(stats["sum"]) - train.hardness_HV + 5 * grand) / (
    train.heat.map(stats["count"]) - 1 + 5)
train["heat_mean_HV"] = loo
test["heat_mean_HV"] = test.heat.map(shrunk).fillna(grand)
features = ["C_wt", "Mn_wt", "Cr_wt", "temper_C", "quench_rate", "heat_mean_HV"]

gbr = GradientBoostingRegressor(n_estimators=300, max_depth=3, learning_rate=0.05,
                                random_state=5).fit(train[features], train["hardness_HV"])
pred = gbr.predict(test[features])
y_te = test["hardness_HV"]
print(f"held-out coupons: n={len(y_te)}, R2={r2_score(y_te, pred):.3f}, "
      f"MAE={mean_absolute_error(y_te, pred):.1f} HV")
pd.Series(gbr.feature_importances_, index=features).sort_values(ascending=False).round(3)
'''

CASES: list[Case] = [
    Case(
        id="h14-leakage-v1-unit-selection-before-cv",
        family="leakage",
        setup=_SPIKES_SETUP,
        code=_SPIKES_FLAWED,
        twin="h14-leakage-v1-unit-selection-in-pipeline",
        note="Scaler and SelectKBest(f_classif) fit on all trials with the labels before "
             "cross-validation, so the 25 units are picked using the test folds.",
        split="holdout14",
    ),
    Case(
        id="h14-leakage-v1-unit-selection-in-pipeline",
        family=None,
        setup=_SPIKES_SETUP,
        code=_SPIKES_SOUND,
        twin="h14-leakage-v1-unit-selection-before-cv",
        note="Transform, scaling and unit selection sit inside the pipeline, refit in each "
             "training fold.",
        split="holdout14",
    ),
    Case(
        id="h14-leakage-steel-heat-target-encoding",
        family="leakage",
        setup=_ALLOY_SETUP,
        code=_ALLOY_FLAWED,
        twin="h14-leakage-steel-heat-encoding-train-only",
        note="Heat-level mean hardness is computed on all coupons (including each test coupon's "
             "own hardness) before the split, leaking the target into the test features.",
        split="holdout14",
    ),
    Case(
        id="h14-leakage-steel-heat-encoding-train-only",
        family=None,
        setup=_ALLOY_SETUP,
        code=_ALLOY_SOUND,
        twin="h14-leakage-steel-heat-target-encoding",
        note="Heat encoding is learnt on the training coupons only (leave-one-out, shrunk), and "
             "mapped to test coupons with the training grand mean for unseen heats.",
        split="holdout14",
    ),
]
