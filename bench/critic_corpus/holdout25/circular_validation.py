from bench.critic_corpus import Case

SPLIT = "holdout25"

_SENDTIME_SETUP = '''
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(314)
n = 1400
sends = pd.DataFrame({
    "send_hour": rng.integers(6, 23, n),
    "weekday": rng.integers(0, 7, n),
    "opens_30d": rng.poisson(3, n),
    "clicks_30d": rng.poisson(0.8, n),
    "tenure_m": rng.integers(1, 60, n),
    "subject_len": rng.integers(20, 90, n),
    "has_emoji": rng.integers(0, 2, n),
})
for i in range(8):
    sends[f"crm_score_{i}"] = rng.normal(size=n)
lin = (-1.4 + 0.25 * sends.opens_30d + 0.4 * sends.clicks_30d
       - 0.04 * np.abs(sends.send_hour - 19) - 0.01 * sends.subject_len)
sends["opened"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
X = sends.drop(columns="opened")
y = sends["opened"]
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, random_state=8,
                                                    stratify=y)
'''

_MMM_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(99)
weeks = pd.date_range("2022-01-03", periods=130, freq="W-MON")
tv = rng.gamma(2.0, 40.0, len(weeks)) * (rng.random(len(weeks)) < 0.6)
search = rng.gamma(4.0, 12.0, len(weeks))

def adstock(x, decay):
    out = np.zeros_like(x, dtype=float)
    for t in range(len(x)):
        out[t] = x[t] + (decay * out[t - 1] if t else 0.0)
    return out

season = 30 * np.sin(2 * np.pi * np.arange(len(weeks)) / 52)
sales = (400 + season + 0.9 * adstock(tv, 0.5) + 1.6 * search
         + rng.normal(0, 45, len(weeks)))
mmm = pd.DataFrame({"week": weeks, "tv_spend_k": tv.round(1), "search_spend_k": search.round(1),
                    "sales_k": sales.round(1)})
mmm["sin52"] = np.sin(2 * np.pi * np.arange(len(weeks)) / 52)
mmm["cos52"] = np.cos(2 * np.pi * np.arange(len(weeks)) / 52)
'''

CASES = [
    Case(
        id="h25-circ-sendtime-grid-on-test",
        family="circular_validation",
        setup=_SENDTIME_SETUP,
        code='''
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

def make_model(C, penalty, cw):
    lr = LogisticRegression(C=C, penalty=penalty, class_weight=cw, solver="liblinear")
    return make_pipeline(StandardScaler(), lr)

grid = [(C, pen, cw) for C in (0.001, 0.01, 0.1, 1, 10) for pen in ("l1", "l2")
        for cw in (None, "balanced")]
results = {}
for C, pen, cw in grid:
    m = make_model(C, pen, cw).fit(X_train, y_train)
    results[(C, pen, cw)] = roc_auc_score(y_test, m.predict_proba(X_test)[:, 1])

best = max(results, key=results.get)
vals = list(results.values())
print(f"configs tried     : {len(results)}")
print(f"worst / median    : {min(vals):.3f} / {np.median(vals):.3f}")
print(f"best config       : C={best[0]}, penalty={best[1]}, class_weight={best[2]}")
print(f"expected open AUC : {results[best]:.3f}  <- number for the CRM roadmap deck")
''',
        twin="h25-circ-sendtime-grid-on-test-ok",
        note="20 regularisation configs are ranked by AUC on the test set and the best test AUC "
             "is reported as the expected performance, so it is optimistically selected",
        split=SPLIT,
    ),
    Case(
        id="h25-circ-sendtime-grid-on-test-ok",
        family=None,
        setup=_SENDTIME_SETUP,
        code='''
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

def make_model(C, penalty, cw):
    lr = LogisticRegression(C=C, penalty=penalty, class_weight=cw, solver="liblinear")
    return make_pipeline(StandardScaler(), lr)

grid = [(C, pen, cw) for C in (0.001, 0.01, 0.1, 1, 10) for pen in ("l1", "l2")
        for cw in (None, "balanced")]
results = {}
for C, pen, cw in grid:
    results[(C, pen, cw)] = cross_val_score(make_model(C, pen, cw), X_train, y_train, cv=5,
                                            scoring="roc_auc").mean()

best = max(results, key=results.get)
final = make_model(*best).fit(X_train, y_train)
test_auc = roc_auc_score(y_test, final.predict_proba(X_test)[:, 1])
print(f"configs tried     : {len(results)}")
print(f"best config       : C={best[0]}, penalty={best[1]}, class_weight={best[2]}")
print(f"train-CV AUC      : {results[best]:.3f}")
print(f"expected open AUC : {test_auc:.3f}  (untouched test set, scored once)")
''',
        twin="h25-circ-sendtime-grid-on-test",
        note="regularisation settings are chosen by 5-fold CV on the training split and the "
             "test set is scored once with the chosen model",
        split=SPLIT,
    ),
    Case(
        id="h25-circ-mmm-adstock-decay-holdout",
        family="circular_validation",
        setup=_MMM_SETUP,
        code='''
import statsmodels.formula.api as smf

train, hold = mmm.iloc[:104].copy(), mmm.iloc[104:].copy()

def holdout_mape(decay):
    d = mmm.assign(tv_ad=adstock(mmm.tv_spend_k.to_numpy(), decay))
    fit = smf.ols("sales_k ~ tv_ad + search_spend_k + sin52 + cos52", data=d.iloc[:104]).fit()
    pred = fit.predict(d.iloc[104:])
    return np.mean(np.abs(pred - d.sales_k.iloc[104:]) / d.sales_k.iloc[104:]), fit

scan = {round(dk, 2): holdout_mape(dk)[0] for dk in np.arange(0.0, 0.95, 0.05)}
best_decay = min(scan, key=scan.get)
mape, fit = holdout_mape(best_decay)

print(f"decays scanned      : {len(scan)}")
print(f"chosen TV decay     : {best_decay}")
print(f"TV ROI (per $1k)    : {fit.params['tv_ad']:.2f}")
print(f"search ROI          : {fit.params['search_spend_k']:.2f}")
print(f"holdout MAPE (26 wk): {mape:.2%}  -> model validated for 2025 budget planning")
''',
        twin="h25-circ-mmm-adstock-decay-holdout-ok",
        note="the adstock decay is tuned to minimise MAPE on the 26 holdout weeks and that same "
             "minimum MAPE is reported as out-of-sample validation",
        split=SPLIT,
    ),
    Case(
        id="h25-circ-mmm-adstock-decay-holdout-ok",
        family=None,
        setup=_MMM_SETUP,
        code='''
import statsmodels.formula.api as smf

def fit_eval(decay, n_fit, n_end):
    d = mmm.assign(tv_ad=adstock(mmm.tv_spend_k.to_numpy(), decay))
    fit = smf.ols("sales_k ~ tv_ad + search_spend_k + sin52 + cos52", data=d.iloc[:n_fit]).fit()
    pred = fit.predict(d.iloc[n_fit:n_end])
    actual = d.sales_k.iloc[n_fit:n_end]
    return np.mean(np.abs(pred - actual) / actual), fit

# tune the decay on a validation window inside the first 104 weeks (fit 0-77, validate 78-103)
scan = {round(dk, 2): fit_eval(dk, 78, 104)[0] for dk in np.arange(0.0, 0.95, 0.05)}
best_decay = min(scan, key=scan.get)
# refit on all 104 training weeks, then score the untouched last 26 weeks once
mape, fit = fit_eval(best_decay, 104, 130)

print(f"decays scanned      : {len(scan)}")
print(f"chosen TV decay     : {best_decay}")
print(f"validation MAPE     : {scan[best_decay]:.2%}")
print(f"TV ROI (per $1k)    : {fit.params['tv_ad']:.2f}")
print(f"search ROI          : {fit.params['search_spend_k']:.2f}")
print(f"holdout MAPE (26 wk): {mape:.2%}")
''',
        twin="h25-circ-mmm-adstock-decay-holdout",
        note="the adstock decay is tuned on a validation window inside the training weeks and "
             "the last 26 weeks are scored once, so the holdout MAPE is honest",
        split=SPLIT,
    ),
]
