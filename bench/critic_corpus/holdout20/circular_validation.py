from bench.critic_corpus import Case

_SETUP_BT = '''
import numpy as np
import pandas as pd
rng = np.random.default_rng(77)
dates = pd.bdate_range("2015-01-02", periods=2200)
rets = rng.standard_t(4, size=2200) * 0.011 / np.sqrt(2) + 0.0002
px = pd.DataFrame({"close": 100 * np.exp(np.cumsum(rets))}, index=dates)
px["ret"] = px["close"].pct_change()
'''

_FLAW_BT = '''
def sharpe(r):
    r = r.dropna()
    return np.sqrt(252) * r.mean() / r.std()

results = {}
for lb in range(10, 260, 10):
    pos = np.sign(px["close"] / px["close"].shift(lb) - 1).shift(1)
    strat = pos * px["ret"]
    results[lb] = {"sharpe": sharpe(strat), "hit_rate": (strat.dropna() > 0).mean()}
table = pd.DataFrame(results).T
best = table["sharpe"].idxmax()
print(f"selected lookback: {best} days")
print(f"expected Sharpe of TSMOM({best}): {table.loc[best, 'sharpe']:.2f}, "
      f"hit rate {table.loc[best, 'hit_rate']:.1%}")
table.sort_values("sharpe", ascending=False).head(5).round(3)
'''

_SOUND_BT = '''
def sharpe(r):
    r = r.dropna()
    return np.sqrt(252) * r.mean() / r.std()

split_dt = px.index[1400]
results = {}
for lb in range(10, 260, 10):
    pos = np.sign(px["close"] / px["close"].shift(lb) - 1).shift(1)
    strat = pos * px["ret"]
    results[lb] = {"is_sharpe": sharpe(strat[:split_dt]),
                   "oos_sharpe": sharpe(strat[split_dt:].iloc[1:]),
                   "oos_hit_rate": (strat[split_dt:].iloc[1:] > 0).mean()}
table = pd.DataFrame(results).T
best = table["is_sharpe"].idxmax()
print(f"lookback chosen in-sample (to {split_dt.date()}): {best} days")
print(f"out-of-sample Sharpe of TSMOM({best}): {table.loc[best, 'oos_sharpe']:.2f}, "
      f"hit rate {table.loc[best, 'oos_hit_rate']:.1%}")
table.sort_values("is_sharpe", ascending=False).head(5).round(3)
'''

_SETUP_GB = '''
import numpy as np
import pandas as pd
rng = np.random.default_rng(2024)
n = 1200
sme = pd.DataFrame({
    "turnover_k": rng.lognormal(6, 1, n),
    "current_ratio": rng.gamma(3, 0.5, n),
    "interest_cover": rng.normal(4, 3, n),
    "years_trading": rng.integers(1, 40, n),
    "director_ccj": rng.binomial(1, 0.07, n),
    "overdraft_util": rng.beta(2, 3, n),
})
for i in range(8):
    sme[f"ind_{i}"] = rng.normal(size=n)
lin = (-1.5 - 0.45 * sme["current_ratio"] - 0.15 * sme["interest_cover"]
       + 1.4 * sme["director_ccj"] + 2.4 * sme["overdraft_util"] - 0.02 * sme["years_trading"])
sme["default_flag"] = rng.binomial(1, 1 / (1 + np.exp(-lin)))
'''

_FLAW_GB = '''
from itertools import product
from sklearn.model_selection import train_test_split
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.metrics import roc_auc_score

X, y = sme.drop(columns="default_flag"), sme["default_flag"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y, random_state=1)

grid = list(product([2, 3], [30, 90], [0.05, 0.2]))
scores = []
for depth, n_est, lr in grid:
    m = GradientBoostingClassifier(max_depth=depth, n_estimators=n_est, learning_rate=lr,
                                   subsample=0.8, random_state=0).fit(X_tr, y_tr)
    scores.append(roc_auc_score(y_te, m.predict_proba(X_te)[:, 1]))
best_auc = max(scores)
depth, n_est, lr = grid[int(np.argmax(scores))]
print(f"best params: depth={depth}, n_estimators={n_est}, lr={lr}")
print(f"SME PD model - test AUC {best_auc:.3f}, Gini {2 * best_auc - 1:.3f}")
'''

_SOUND_GB = '''
from itertools import product
from sklearn.model_selection import train_test_split
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.metrics import roc_auc_score

X, y = sme.drop(columns="default_flag"), sme["default_flag"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y, random_state=1)
X_fit, X_val, y_fit, y_val = train_test_split(X_tr, y_tr, test_size=0.3, stratify=y_tr,
                                              random_state=2)

grid = list(product([2, 3], [30, 90], [0.05, 0.2]))
scores = []
for depth, n_est, lr in grid:
    m = GradientBoostingClassifier(max_depth=depth, n_estimators=n_est, learning_rate=lr,
                                   subsample=0.8, random_state=0).fit(X_fit, y_fit)
    scores.append(roc_auc_score(y_val, m.predict_proba(X_val)[:, 1]))
depth, n_est, lr = grid[int(np.argmax(scores))]
final = GradientBoostingClassifier(max_depth=depth, n_estimators=n_est, learning_rate=lr,
                                   subsample=0.8, random_state=0).fit(X_tr, y_tr)
test_auc = roc_auc_score(y_te, final.predict_proba(X_te)[:, 1])
print(f"best params (validation AUC {max(scores):.3f}): depth={depth}, "
      f"n_estimators={n_est}, lr={lr}")
print(f"SME PD model - test AUC {test_auc:.3f}, Gini {2 * test_auc - 1:.3f}")
'''

CASES: list[Case] = [
    Case(id="h20-circular-tsmom-lookback-full-sample", family="circular_validation",
         code=_FLAW_BT, setup=_SETUP_BT, twin="h20-circular-tsmom-lookback-walk-forward",
         note="momentum lookback picked as the best of 25 on the full sample and that same "
              "in-sample Sharpe reported as the expected Sharpe",
         split="holdout20"),
    Case(id="h20-circular-tsmom-lookback-walk-forward", family=None, code=_SOUND_BT,
         setup=_SETUP_BT, twin="h20-circular-tsmom-lookback-full-sample",
         note="lookback chosen on the in-sample period only; Sharpe and hit rate reported on "
              "the later untouched period",
         split="holdout20"),
    Case(id="h20-circular-sme-gbm-grid-on-test", family="circular_validation",
         code=_FLAW_GB, setup=_SETUP_GB, twin="h20-circular-sme-gbm-grid-on-validation",
         note="8 GBM settings scored on the test set and the maximum test AUC reported as "
              "the model's performance",
         split="holdout20"),
    Case(id="h20-circular-sme-gbm-grid-on-validation", family=None, code=_SOUND_GB,
         setup=_SETUP_GB, twin="h20-circular-sme-gbm-grid-on-test",
         note="hyperparameters chosen on a validation split carved from training; test set "
              "used once for the final refit model",
         split="holdout20"),
]
