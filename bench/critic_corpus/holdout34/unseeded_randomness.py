from bench.critic_corpus import Case

_TREND_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3491)
yrs = np.arange(1961, 2021)
tas = 0.021 * (yrs - 1961) + rng.normal(0, 0.32, len(yrs))
ann = pd.DataFrame({"year": yrs, "tas_anom": (tas - tas[30:60].mean()).round(2)})
'''

_TREND_FLAWED = '''
# OLS warming trend with a pairs-bootstrap 95% interval
slope = np.polyfit(ann.year, ann.tas_anom, 1)[0] * 10
boot = []
for _ in range(2000):
    i = np.random.choice(len(ann), len(ann), replace=True)
    boot.append(np.polyfit(ann.year.values[i], ann.tas_anom.values[i], 1)[0] * 10)
lo, hi = np.percentile(boot, [2.5, 97.5])
print(f"trend 1961-2020: {slope:.3f} K/decade, 95% bootstrap CI [{lo:.3f}, {hi:.3f}]")
'''

_TREND_SOUND = '''
# OLS warming trend with a pairs-bootstrap 95% interval
slope = np.polyfit(ann.year, ann.tas_anom, 1)[0] * 10
rs = np.random.default_rng(20240611)
boot = []
for _ in range(2000):
    i = rs.choice(len(ann), len(ann), replace=True)
    boot.append(np.polyfit(ann.year.values[i], ann.tas_anom.values[i], 1)[0] * 10)
lo, hi = np.percentile(boot, [2.5, 97.5])
print(f"trend 1961-2020: {slope:.3f} K/decade, 95% bootstrap CI [{lo:.3f}, {hi:.3f}]")
'''

_GUST_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3492)
n = 2400
ws10 = np.abs(rng.normal(7, 3.5, n))
z = pd.DataFrame({
    "ws10_ms": ws10.round(1),
    "ws850_ms": (ws10 * 1.8 + rng.normal(0, 4, n)).round(1),
    "blh_m": np.abs(rng.normal(900, 400, n)).round(0),
    "cape_jkg": np.abs(rng.gamma(0.6, 300, n)).round(0),
    "dtheta_k": rng.normal(2, 2.5, n).round(2),        # low-level stability
    "roughness_m": rng.choice([0.03, 0.1, 0.3, 0.8], n),
})
z["gust_obs_ms"] = (1.45 * ws10 + 0.15 * np.sqrt(z.cape_jkg) + 0.003 * z.blh_m
                    - 0.6 * z.dtheta_k.clip(lower=0) + rng.normal(0, 2.2, n)).round(1)
'''

_GUST_FLAWED = '''
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import KFold, cross_val_score

X = z.drop(columns="gust_obs_ms")
y = z.gust_obs_ms
rf = RandomForestRegressor(n_estimators=60, min_samples_leaf=5, max_features=0.6, n_jobs=1)
cv = KFold(n_splits=5, shuffle=True)
rmse = -cross_val_score(rf, X, y, cv=cv, scoring="neg_root_mean_squared_error")
print("fold RMSE:", np.round(rmse, 3))
print(f"gust model CV RMSE = {rmse.mean():.3f} m/s  (obs std {y.std():.2f} m/s)")
'''

_GUST_SOUND = '''
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import KFold, cross_val_score

X = z.drop(columns="gust_obs_ms")
y = z.gust_obs_ms
rf = RandomForestRegressor(n_estimators=60, min_samples_leaf=5, max_features=0.6, n_jobs=1,
                           random_state=11)
cv = KFold(n_splits=5, shuffle=True, random_state=11)
rmse = -cross_val_score(rf, X, y, cv=cv, scoring="neg_root_mean_squared_error")
print("fold RMSE:", np.round(rmse, 3))
print(f"gust model CV RMSE = {rmse.mean():.3f} m/s  (obs std {y.std():.2f} m/s)")
'''

CASES: list[Case] = [
    Case(
        id="h34-unseed-trend-bootstrap-global-rng",
        family="unseeded_randomness",
        setup=_TREND_SETUP,
        code=_TREND_FLAWED,
        twin="h34-unseed-trend-bootstrap-seeded",
        note="bootstrap CI of the warming trend drawn with the unseeded global np.random, so the "
             "printed interval changes on every run",
        split="holdout34",
    ),
    Case(
        id="h34-unseed-trend-bootstrap-seeded",
        family=None,
        setup=_TREND_SETUP,
        code=_TREND_SOUND,
        twin="h34-unseed-trend-bootstrap-global-rng",
        note="same pairs bootstrap with a seeded Generator, reproducible interval",
        split="holdout34",
    ),
    Case(
        id="h34-unseed-gust-rf-shuffled-kfold",
        family="unseeded_randomness",
        setup=_GUST_SETUP,
        code=_GUST_FLAWED,
        twin="h34-unseed-gust-rf-seeded",
        note="shuffled KFold and random forest both lack random_state, so the reported CV RMSE "
             "and fold scores differ run to run",
        split="holdout34",
    ),
    Case(
        id="h34-unseed-gust-rf-seeded",
        family=None,
        setup=_GUST_SETUP,
        code=_GUST_SOUND,
        twin="h34-unseed-gust-rf-shuffled-kfold",
        note="fold shuffling and forest fixed with random_state; reproducible CV RMSE",
        split="holdout34",
    ),
]
