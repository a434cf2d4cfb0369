from bench.critic_corpus import Case

_AQ_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2024)
n = 500
aq = pd.DataFrame({
    "wind_ms": rng.gamma(2, 1.5, n).round(1),
    "temp_c": rng.normal(12, 7, n).round(1),
    "rh_pct": rng.uniform(30, 98, n).round(0),
    "blh_m": rng.lognormal(6.5, 0.5, n).round(0),
    "traffic_idx": rng.uniform(0, 1, n).round(2),
})
aq["pm25_ugm3"] = (
    8 + 14 * aq["traffic_idx"] - 1.2 * aq["wind_ms"] + 0.06 * aq["rh_pct"]
    - 0.004 * (aq["blh_m"] - 700) + rng.normal(0, 4, n)
).clip(1).round(1)
for k in range(6):
    aq[f"noise_{k}"] = rng.normal(size=n)
'''

_AQ_FLAWED = '''
from itertools import product

from sklearn.ensemble import RandomForestRegressor
from sklearn.metrics import mean_absolute_error
from sklearn.model_selection import train_test_split

X = aq.drop(columns="pm25_ugm3")
y = aq["pm25_ugm3"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, random_state=21)

grid = []
for depth, leaf, mf in product([3, 6, None], [1, 5, 20], [0.3, 0.6, 1.0]):
    rf = RandomForestRegressor(n_estimators=15, max_depth=depth, min_samples_leaf=leaf,
                               max_features=mf, random_state=0, n_jobs=1).fit(X_tr, y_tr)
    grid.append({"max_depth": depth, "min_leaf": leaf, "max_feat": mf,
                 "mae_test": mean_absolute_error(y_te, rf.predict(X_te))})
grid = pd.DataFrame(grid).sort_values("mae_test")
best = grid.iloc[0]
print(f"tuned RF: expected MAE on new days = {best['mae_test']:.2f} ug/m3")
grid.head(5).round(3)
'''

_AQ_SOUND = '''
from sklearn.ensemble import RandomForestRegressor
from sklearn.metrics import mean_absolute_error
from sklearn.model_selection import GridSearchCV, train_test_split

X = aq.drop(columns="pm25_ugm3")
y = aq["pm25_ugm3"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, random_state=21)

params = {"max_depth": [3, 6, None], "min_samples_leaf": [1, 5, 20],
          "max_features": [0.3, 0.6, 1.0]}
gs = GridSearchCV(RandomForestRegressor(n_estimators=15, random_state=0, n_jobs=1), params,
                  cv=3, scoring="neg_mean_absolute_error").fit(X_tr, y_tr)
mae = mean_absolute_error(y_te, gs.best_estimator_.predict(X_te))
print(f"tuned RF: expected MAE on new days = {mae:.2f} ug/m3")
res = pd.DataFrame(gs.cv_results_)[["params", "mean_test_score"]]
res.assign(cv_mae=-res["mean_test_score"]).sort_values("cv_mae").head(5).round(3)
'''

_PHEN_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1984)
years = np.arange(1975, 2024)
days = pd.date_range("1975-01-01", "2023-12-31", freq="D")
clim = pd.DataFrame({"date": days})
clim["year"] = clim["date"].dt.year
clim["doy"] = clim["date"].dt.dayofyear
yr_anom = dict(zip(years, rng.normal(0, 1.2, len(years))))
clim["tmean_c"] = (6 - 10 * np.cos(2 * np.pi * (clim["doy"] - 15) / 365)
                   + clim["year"].map(yr_anom) + rng.normal(0, 3, len(clim)))
# week-level means, weeks 1..20
clim["week"] = ((clim["doy"] - 1) // 7 + 1)
wk = clim[clim["week"] <= 20].groupby(["year", "week"])["tmean_c"].mean().unstack()
wk.columns = [f"w{c:02d}" for c in wk.columns]
spring = wk[[f"w{c:02d}" for c in range(9, 15)]].mean(axis=1)
lilac = pd.DataFrame({"year": years, "first_bloom_doy": (
    128 - 3.5 * (spring.values - spring.mean()) + rng.normal(0, 4.5, len(years))).round(0)})
lilac = lilac.merge(wk.reset_index(), on="year")
'''

_PHEN_FLAWED = '''
import statsmodels.formula.api as smf

fit_yrs = lilac[lilac["year"] < 2008]
hold_yrs = lilac[lilac["year"] >= 2008]

out = []
for start in range(1, 17):
    for length in (2, 3, 4, 6):
        end = start + length - 1
        if end > 20:
            continue
        cols = [f"w{w:02d}" for w in range(start, end + 1)]
        tr = fit_yrs.assign(tw=fit_yrs[cols].mean(axis=1))
        ho = hold_yrs.assign(tw=hold_yrs[cols].mean(axis=1))
        m = smf.ols("first_bloom_doy ~ tw", data=tr).fit()
        rmse = np.sqrt(((ho["first_bloom_doy"] - m.predict(ho)) ** 2).mean())
        out.append((f"w{start:02d}-w{end:02d}", round(m.params["tw"], 2), round(rmse, 2)))
windows = pd.DataFrame(out, columns=["window", "slope_d_per_C", "rmse_2008_2023"])
windows = windows.sort_values("rmse_2008_2023")
print("best window:", windows.iloc[0]["window"],
      "| forecast error for future years (days):", windows.iloc[0]["rmse_2008_2023"])
windows.head(6)
'''

_PHEN_SOUND = '''
import statsmodels.formula.api as smf

fit_yrs = lilac[lilac["year"] < 1998]
val_yrs = lilac[(lilac["year"] >= 1998) & (lilac["year"] < 2008)]
hold_yrs = lilac[lilac["year"] >= 2008]

out = []
for start in range(1, 17):
    for length in (2, 3, 4, 6):
        end = start + length - 1
        if end > 20:
            continue
        cols = [f"w{w:02d}" for w in range(start, end + 1)]
        tr = fit_yrs.assign(tw=fit_yrs[cols].mean(axis=1))
        va = val_yrs.assign(tw=val_yrs[cols].mean(axis=1))
        m = smf.ols("first_bloom_doy ~ tw", data=tr).fit()
        rmse = np.sqrt(((va["first_bloom_doy"] - m.predict(va)) ** 2).mean())
        out.append((f"w{start:02d}-w{end:02d}", start, end, round(rmse, 2)))
windows = pd.DataFrame(out, columns=["window", "w_start", "w_end", "rmse_1998_2007"])
windows = windows.sort_values("rmse_1998_2007")
best = windows.iloc[0]
cols = [f"w{w:02d}" for w in range(best["w_start"], best["w_end"] + 1)]
refit = lilac[lilac["year"] < 2008]
m = smf.ols("first_bloom_doy ~ tw", data=refit.assign(tw=refit[cols].mean(axis=1))).fit()
ho = hold_yrs.assign(tw=hold_yrs[cols].mean(axis=1))
rmse_hold = np.sqrt(((ho["first_bloom_doy"] - m.predict(ho)) ** 2).mean())
print("best window:", best["window"],
      f"| forecast error on untouched 2008-2023 (days): {rmse_hold:.2f}")
windows.head(6)
'''

CASES: list[Case] = [
    Case(
        id="h19-circ-pm25-grid-flawed", family="circular_validation", code=_AQ_FLAWED,
        setup=_AQ_SETUP, twin="h19-circ-pm25-grid-sound", split="holdout19",
        note="27 RF settings ranked by test MAE and the best test MAE reported as expected error",
    ),
    Case(
        id="h19-circ-pm25-grid-sound", family=None, code=_AQ_SOUND,
        setup=_AQ_SETUP, twin="h19-circ-pm25-grid-flawed", split="holdout19",
        note="hyperparameters chosen by CV on the training part; test MAE computed once",
    ),
    Case(
        id="h19-circ-lilac-window-flawed", family="circular_validation", code=_PHEN_FLAWED,
        setup=_PHEN_SETUP, twin="h19-circ-lilac-window-sound", split="holdout19",
        note="temperature window picked by its RMSE on 2008-2023, that same RMSE sold as forecast",
    ),
    Case(
        id="h19-circ-lilac-window-sound", family=None, code=_PHEN_SOUND,
        setup=_PHEN_SETUP, twin="h19-circ-lilac-window-flawed", split="holdout19",
        note="window picked on 1998-2007 validation years, error reported on untouched 2008-2023",
    ),
]
