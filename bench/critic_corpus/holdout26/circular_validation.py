from bench.critic_corpus import Case

_SETUP_SCOUT = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(55)
n = 500
scout = pd.DataFrame({
    "player_id": np.arange(n),
    "age": rng.integers(17, 33, n),
    "minutes": rng.integers(450, 3400, n),
    "xg_p90": rng.gamma(2, 0.12, n).round(3),
    "xa_p90": rng.gamma(2, 0.08, n).round(3),
    "prog_passes_p90": rng.gamma(4, 1.2, n).round(2),
    "press_succ_pct": rng.normal(30, 6, n).round(1),
    "dribbles_p90": rng.gamma(2, 0.7, n).round(2),
    "aerial_win_pct": rng.normal(48, 10, n).round(1),
})
z = (6 * scout["xg_p90"] + 5 * scout["xa_p90"] + 0.1 * scout["prog_passes_p90"]
     - 0.05 * (scout["age"] - 24) + rng.normal(0, 0.6, n))
scout["rating_next"] = (6.6 + 0.3 * z).round(2)
'''

_SETUP_HRV = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(303)
n = 160
well = pd.DataFrame({
    "sleep_quality": rng.integers(1, 8, n),
    "fatigue": rng.integers(1, 8, n),
    "soreness": rng.integers(1, 8, n),
    "stress": rng.integers(1, 8, n),
    "mood": rng.integers(1, 8, n),
    "sleep_h": rng.normal(7.3, 0.9, n).round(1),
    "rpe_prev": rng.integers(2, 11, n),
    "caffeine_mg": rng.gamma(2, 80, n).round(0),
})
well["ln_rmssd"] = (4.1 + 0.07 * well["sleep_quality"] - 0.06 * well["fatigue"]
                    + rng.normal(0, 0.2, n)).round(3)
'''

CASES = [
    Case(
        id="h26-circular-validation-model-pick-test",
        family="circular_validation",
        setup=_SETUP_SCOUT,
        code='''from sklearn.ensemble import GradientBoostingRegressor, RandomForestRegressor
from sklearn.linear_model import Ridge
from sklearn.metrics import mean_absolute_error
from sklearn.model_selection import train_test_split
from sklearn.neighbors import KNeighborsRegressor

feats = ["age", "minutes", "xg_p90", "xa_p90", "prog_passes_p90", "press_succ_pct",
         "dribbles_p90", "aerial_win_pct"]
X_tr, X_te, y_tr, y_te = train_test_split(scout[feats], scout["rating_next"],
                                          test_size=0.2, random_state=1)
candidates = {
    "ridge": Ridge(alpha=1.0),
    "knn_5": KNeighborsRegressor(5),
    "knn_15": KNeighborsRegressor(15),
    "rf_depth4": RandomForestRegressor(50, max_depth=4, random_state=0),
    "rf_full": RandomForestRegressor(50, random_state=0),
    "gbm": GradientBoostingRegressor(random_state=0),
}
results = {}
for name, model in candidates.items():
    model.fit(X_tr, y_tr)
    results[name] = mean_absolute_error(y_te, model.predict(X_te))
results = pd.Series(results).sort_values()
print(results.round(3).to_string())
best = results.index[0]
print(f"\\nSelected {best}: expected error on new signings = {results.iloc[0]:.3f} rating pts")
''',
        twin="h26-circular-validation-model-pick-test-ok",
        note="Six models compared on the test set and the winner's test MAE reported as expected.",
        split="holdout26",
    ),
    Case(
        id="h26-circular-validation-model-pick-test-ok",
        family=None,
        setup=_SETUP_SCOUT,
        code='''from sklearn.ensemble import GradientBoostingRegressor, RandomForestRegressor
from sklearn.linear_model import Ridge
from sklearn.metrics import mean_absolute_error
from sklearn.model_selection import KFold, cross_val_score, train_test_split
from sklearn.neighbors import KNeighborsRegressor

feats = ["age", "minutes", "xg_p90", "xa_p90", "prog_passes_p90", "press_succ_pct",
         "dribbles_p90", "aerial_win_pct"]
X_tr, X_te, y_tr, y_te = train_test_split(scout[feats], scout["rating_next"],
                                          test_size=0.2, random_state=1)
candidates = {
    "ridge": Ridge(alpha=1.0),
    "knn_5": KNeighborsRegressor(5),
    "knn_15": KNeighborsRegressor(15),
    "rf_depth4": RandomForestRegressor(50, max_depth=4, random_state=0),
    "rf_full": RandomForestRegressor(50, random_state=0),
    "gbm": GradientBoostingRegressor(random_state=0),
}
cv = KFold(5, shuffle=True, random_state=2)
results = {}
for name, model in candidates.items():
    s = cross_val_score(model, X_tr, y_tr, cv=cv, scoring="neg_mean_absolute_error")
    results[name] = -s.mean()
results = pd.Series(results).sort_values()
print("CV MAE on the training players:")
print(results.round(3).to_string())
best = results.index[0]
final = candidates[best].fit(X_tr, y_tr)
test_mae = mean_absolute_error(y_te, final.predict(X_te))
print(f"\\nSelected {best}: held-out error on new signings = {test_mae:.3f} rating pts")
''',
        twin="h26-circular-validation-model-pick-test",
        note="Model chosen by CV on the training players; untouched test set scored once.",
        split="holdout26",
    ),
    Case(
        id="h26-circular-validation-wellness-subset",
        family="circular_validation",
        setup=_SETUP_HRV,
        code='''from itertools import combinations

import numpy as np

items = ["sleep_quality", "fatigue", "soreness", "stress", "mood", "sleep_h",
         "rpe_prev", "caffeine_mg"]
train, test = well.iloc[:110], well.iloc[110:]

def r2_on(cols, fit_df, eval_df):
    A = np.column_stack([np.ones(len(fit_df))] + [fit_df[c] for c in cols])
    beta, *_ = np.linalg.lstsq(A, fit_df["ln_rmssd"], rcond=None)
    B = np.column_stack([np.ones(len(eval_df))] + [eval_df[c] for c in cols])
    resid = eval_df["ln_rmssd"] - B @ beta
    return 1 - (resid ** 2).sum() / ((eval_df["ln_rmssd"] - eval_df["ln_rmssd"].mean()) ** 2).sum()

scores = []
for k in range(1, 5):
    for cols in combinations(items, k):
        scores.append((r2_on(cols, train, test), cols))
best_r2, best_cols = max(scores)
print(f"Checked {len(scores)} questionnaire subsets")
print(f"Best short questionnaire: {', '.join(best_cols)}")
print(f"It explains {best_r2:.1%} of morning HRV (ln RMSSD) in unseen days")
''',
        twin="h26-circular-validation-wellness-subset-ok",
        note="162 item subsets scored on the test days; best test R2 reported as unseen-day skill.",
        split="holdout26",
    ),
    Case(
        id="h26-circular-validation-wellness-subset-ok",
        family=None,
        setup=_SETUP_HRV,
        code='''from itertools import combinations

import numpy as np

items = ["sleep_quality", "fatigue", "soreness", "stress", "mood", "sleep_h",
         "rpe_prev", "caffeine_mg"]
train, test = well.iloc[:110], well.iloc[110:]
fit_part, val_part = train.iloc[:75], train.iloc[75:]

def r2_on(cols, fit_df, eval_df):
    A = np.column_stack([np.ones(len(fit_df))] + [fit_df[c] for c in cols])
    beta, *_ = np.linalg.lstsq(A, fit_df["ln_rmssd"], rcond=None)
    B = np.column_stack([np.ones(len(eval_df))] + [eval_df[c] for c in cols])
    resid = eval_df["ln_rmssd"] - B @ beta
    return 1 - (resid ** 2).sum() / ((eval_df["ln_rmssd"] - eval_df["ln_rmssd"].mean()) ** 2).sum()

scores = []
for k in range(1, 5):
    for cols in combinations(items, k):
        scores.append((r2_on(cols, fit_part, val_part), cols))
val_r2, best_cols = max(scores)
test_r2 = r2_on(best_cols, train, test)
print(f"Checked {len(scores)} questionnaire subsets on a validation block of training days")
print(f"Best short questionnaire: {', '.join(best_cols)} (validation R2 {val_r2:.1%})")
print(f"Refit on all training days, it explains {test_r2:.1%} of ln RMSSD on unseen test days")
''',
        twin="h26-circular-validation-wellness-subset",
        note="Subset picked on a validation block inside training; the test days are used once.",
        split="holdout26",
    ),
]
