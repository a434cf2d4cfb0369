from bench.critic_corpus import Case

_SPLIT = "holdout16"

_VOUCHER_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(777)
n = 700
students = pd.DataFrame({
    "student_id": np.arange(n),
    "baseline_math": rng.normal(0, 1, n).round(2),
    "baseline_read": rng.normal(0, 1, n).round(2),
    "frl_eligible": rng.binomial(1, 0.7, n),
    "ell": rng.binomial(1, 0.18, n),
    "iep": rng.binomial(1, 0.12, n),
    "grade": rng.integers(3, 9, n),
    "miles_to_school": np.round(rng.gamma(2, 2.5, n), 1),
    "parent_hs_grad": rng.binomial(1, 0.75, n),
    "yrs_in_voucher": rng.integers(0, 5, n),
})
for k in range(1, 21):
    students[f"survey_item_{k:02d}"] = rng.integers(1, 6, n)
students["math_gain"] = (
    0.35 * students["baseline_math"] + 0.15 * students["baseline_read"]
    - 0.1 * students["frl_eligible"] + 0.05 * students["yrs_in_voucher"]
    + rng.normal(0, 0.9, n)
).round(3)
'''

_CRIME_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(311)
beats = [f"B{b:03d}" for b in range(1, 91)]
rows = []
for b in beats:
    base = rng.normal(4.0, 0.5)
    pop = rng.integers(4000, 30000)
    for yr in range(2012, 2020):
        rows.append((b, yr, pop, base))
panel = pd.DataFrame(rows, columns=["beat", "year", "population", "base"])
m = len(panel)
panel["vacancy_rate"] = np.clip(rng.normal(0.11, 0.05, m), 0, None).round(3)
panel["pct_under25"] = rng.normal(0.34, 0.06, m).round(3)
panel["streetlights_per_km"] = rng.gamma(4, 3, m).round(1)
panel["officers_per_10k"] = rng.normal(22, 5, m).round(1)
panel["alcohol_outlets"] = rng.poisson(6, m)
panel["ss_footfall_idx"] = rng.normal(100, 15, m).round(1)
panel["transit_stops"] = rng.poisson(9, m)
panel["log_burglary_lag"] = panel["base"] + rng.normal(0, 0.3, m)
panel["log_burglary"] = (
    0.6 * panel["log_burglary_lag"] + 0.4 * panel["base"] + 2.5 * panel["vacancy_rate"]
    - 0.03 * (panel["year"] - 2012) + rng.normal(0, 0.35, m)
).round(4)
panel = panel.drop(columns="base")
'''

_CANDIDATES = '''
controls = ["vacancy_rate", "pct_under25", "streetlights_per_km", "officers_per_10k",
            "alcohol_outlets", "ss_footfall_idx", "transit_stops"]
specs = {}
for k in range(0, len(controls) + 1, 1):
    rhs = ["log_burglary_lag"] + controls[:k]
    specs[f"lag+{k}"] = "log_burglary ~ " + " + ".join(rhs)
    specs[f"lag+{k}+trend"] = specs[f"lag+{k}"] + " + year"
    specs[f"lag+{k}+sq"] = specs[f"lag+{k}"] + " + I(log_burglary_lag ** 2)"
'''

CASES = [
    Case(
        id="h16-circular-validation-voucher-model-search",
        family="circular_validation",
        split=_SPLIT,
        twin="h16-circular-validation-voucher-model-search-ok",
        setup=_VOUCHER_SETUP,
        note="12 penalised regressions are each scored on the test students and the best "
             "test R2 is reported as the model's out-of-sample accuracy",
        code='''
from sklearn.linear_model import Lasso, Ridge
from sklearn.metrics import r2_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

X = students.drop(columns=["student_id", "math_gain"])
y = students["math_gain"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.15, random_state=21)

candidates = {}
for a in [0.1, 1, 10, 30, 100, 300]:
    candidates[f"ridge a={a}"] = make_pipeline(StandardScaler(), Ridge(alpha=a))
for a in [0.001, 0.01, 0.02, 0.05, 0.1, 0.3]:
    candidates[f"lasso a={a}"] = make_pipeline(StandardScaler(), Lasso(alpha=a))

scores = {}
for name, model in candidates.items():
    model.fit(X_tr, y_tr)
    scores[name] = r2_score(y_te, model.predict(X_te))

board = pd.Series(scores).sort_values(ascending=False)
print(board.head(5).round(4))
print(f"Selected {board.index[0]}: out-of-sample R2 = {board.iloc[0]:.3f}")
''',
    ),
    Case(
        id="h16-circular-validation-voucher-model-search-ok",
        family=None,
        split=_SPLIT,
        twin="h16-circular-validation-voucher-model-search",
        setup=_VOUCHER_SETUP,
        note="candidates are compared by 5-fold CV inside the training set; the chosen model is "
             "scored once on the untouched test students",
        code='''
from sklearn.linear_model import Lasso, Ridge
from sklearn.metrics import r2_score
from sklearn.model_selection import KFold, cross_val_score, train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

X = students.drop(columns=["student_id", "math_gain"])
y = students["math_gain"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.15, random_state=21)

candidates = {}
for a in [0.1, 1, 10, 30, 100, 300]:
    candidates[f"ridge a={a}"] = make_pipeline(StandardScaler(), Ridge(alpha=a))
for a in [0.001, 0.01, 0.02, 0.05, 0.1, 0.3]:
    candidates[f"lasso a={a}"] = make_pipeline(StandardScaler(), Lasso(alpha=a))

cv = KFold(5, shuffle=True, random_state=21)
cv_r2 = {name: cross_val_score(m, X_tr, y_tr, cv=cv, scoring="r2").mean()
         for name, m in candidates.items()}
board = pd.Series(cv_r2).sort_values(ascending=False)
print(board.head(5).round(4))

best = candidates[board.index[0]].fit(X_tr, y_tr)
print(f"Selected {board.index[0]} (CV R2 {board.iloc[0]:.3f}); "
      f"test R2 = {r2_score(y_te, best.predict(X_te)):.3f}")
''',
    ),
    Case(
        id="h16-circular-validation-burglary-spec-search",
        family="circular_validation",
        split=_SPLIT,
        twin="h16-circular-validation-burglary-spec-search-ok",
        setup=_CRIME_SETUP + _CANDIDATES,
        note="24 specifications are ranked by their RMSE on the 2019 holdout and the winner's "
             "2019 RMSE is reported as the forecast error",
        code='''
import statsmodels.formula.api as smf

fit_yrs = panel[panel["year"] <= 2018]
hold = panel[panel["year"] == 2019]

rows = []
for name, f in specs.items():
    res = smf.ols(f, data=fit_yrs).fit()
    err = hold["log_burglary"] - res.predict(hold)
    rows.append({"spec": name, "k": int(res.df_model), "adj_r2": res.rsquared_adj,
                 "rmse_2019": np.sqrt((err ** 2).mean())})

table = pd.DataFrame(rows).sort_values("rmse_2019").reset_index(drop=True)
print(table.head(6).round(4).to_string())
best = table.iloc[0]
print(f"Forecast model: {best['spec']}, expected out-of-sample RMSE {best['rmse_2019']:.4f} "
      f"log points")
''',
    ),
    Case(
        id="h16-circular-validation-burglary-spec-search-ok",
        family=None,
        split=_SPLIT,
        twin="h16-circular-validation-burglary-spec-search",
        setup=_CRIME_SETUP + _CANDIDATES,
        note="specifications are ranked on a 2018 validation year, the winner is refit through "
             "2018 and its 2019 RMSE is computed once",
        code='''
import statsmodels.formula.api as smf

fit_yrs = panel[panel["year"] <= 2017]
val = panel[panel["year"] == 2018]
hold = panel[panel["year"] == 2019]

rows = []
for name, f in specs.items():
    res = smf.ols(f, data=fit_yrs).fit()
    err = val["log_burglary"] - res.predict(val)
    rows.append({"spec": name, "k": int(res.df_model), "adj_r2": res.rsquared_adj,
                 "rmse_2018": np.sqrt((err ** 2).mean())})

table = pd.DataFrame(rows).sort_values("rmse_2018").reset_index(drop=True)
print(table.head(6).round(4).to_string())
best = table.iloc[0]
final = smf.ols(specs[best["spec"]], data=panel[panel["year"] <= 2018]).fit()
rmse_2019 = np.sqrt(((hold["log_burglary"] - final.predict(hold)) ** 2).mean())
print(f"Forecast model: {best['spec']}, 2019 test RMSE {rmse_2019:.4f} log points")
''',
    ),
]
