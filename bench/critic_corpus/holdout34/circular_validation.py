from bench.critic_corpus import Case

_DS_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3421)
dates = pd.date_range("1981-06-01", "2020-08-31", freq="D")
dates = dates[dates.month.isin([6, 7, 8])]
n = len(dates)
# 3x3 reanalysis neighbourhood around the station, flattened: t850 / z500 per box
t850_c = rng.normal(12, 3.5, n)
pts = {}
for i in range(9):
    pts[f"t850_{i}"] = t850_c + rng.normal(0, 1.2, n)
    pts[f"z500_{i}"] = 5780 + 8 * t850_c + rng.normal(0, 45, n)
era = pd.DataFrame(pts, index=pd.DatetimeIndex(dates, name="date")).round(2)
tmax = 14 + 1.1 * t850_c + 0.25 * np.tanh((t850_c - 12) / 3) * 4 + rng.normal(0, 1.9, n)
era["tmax_obs"] = tmax.round(1)
'''

_DS_FLAWED = '''
from sklearn.linear_model import Lasso, Ridge
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.metrics import mean_squared_error

preds = [c for c in era.columns if c != "tmax_obs"]
cal, ind = era.loc[:"2010"], era.loc["2011":]     # calibration 1981-2010, independent 2011-20

candidates = {f"ridge a={a}": Ridge(alpha=a) for a in [1, 30, 1000]}
candidates |= {f"lasso a={a}": Lasso(alpha=a) for a in [0.01, 0.05, 0.3]}

rmse = {}
for name, est in candidates.items():
    m = make_pipeline(StandardScaler(), est).fit(cal[preds], cal.tmax_obs)
    rmse[name] = mean_squared_error(ind.tmax_obs, m.predict(ind[preds])) ** 0.5

rmse = pd.Series(rmse).sort_values()
print(rmse.round(3).to_string())
print(f"\\nselected: {rmse.index[0]}  ->  JJA Tmax RMSE 2011-2020 = {rmse.iloc[0]:.3f} degC")
'''

_DS_SOUND = '''
from sklearn.linear_model import Lasso, Ridge
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.metrics import mean_squared_error
from sklearn.model_selection import GroupKFold, cross_val_score

preds = [c for c in era.columns if c != "tmax_obs"]
cal, ind = era.loc[:"2010"], era.loc["2011":]     # calibration 1981-2010, independent 2011-20

candidates = {f"ridge a={a}": Ridge(alpha=a) for a in [1, 30, 1000]}
candidates |= {f"lasso a={a}": Lasso(alpha=a) for a in [0.01, 0.05, 0.3]}

# choose inside the calibration period (5 blocks of 6 summers), keep 2011-2020 untouched
cv = GroupKFold(n_splits=5)
blocks = (cal.index.year - 1981) // 6
rmse_cv = {}
for name, est in candidates.items():
    m = make_pipeline(StandardScaler(), est)
    rmse_cv[name] = -cross_val_score(m, cal[preds], cal.tmax_obs, cv=cv, groups=blocks,
                                     scoring="neg_root_mean_squared_error").mean()

rmse_cv = pd.Series(rmse_cv).sort_values()
print(rmse_cv.round(3).to_string())
best = rmse_cv.index[0]
final = make_pipeline(StandardScaler(), candidates[best]).fit(cal[preds], cal.tmax_obs)
rmse_ind = mean_squared_error(ind.tmax_obs, final.predict(ind[preds])) ** 0.5
print(f"\\nselected (CV): {best}  ->  JJA Tmax RMSE 2011-2020 = {rmse_ind:.3f} degC")
'''

_ENS_SETUP = '''
import numpy as np

rng = np.random.default_rng(3422)
years = np.arange(1950, 2021)
nyr, nmem = len(years), 30
forced = 0.012 * (years - 1950) + 0.5 * np.clip(years - 1975, 0, None) / 45
forced -= np.where((years >= 1963) & (years <= 1965), 0.25, 0)       # Agung
forced -= np.where((years >= 1991) & (years <= 1993), 0.3, 0)        # Pinatubo

def ar1(n, phi, sd):
    x = np.zeros(n)
    for t in range(1, n):
        x[t] = phi * x[t - 1] + rng.normal(0, sd)
    return x

# regional annual-mean T anomaly (K) for 30 members of one large ensemble + observations
tas_ens = np.array([forced + ar1(nyr, 0.45, 0.22) for _ in range(nmem)])   # (member, year)
tas_obs = forced + ar1(nyr, 0.45, 0.22)
member_ids = [f"r{i + 1}i1p1f1" for i in range(nmem)]
'''

_ENS_FLAWED = '''
# keep the members that best reproduce the observed record (1950-2020)
r_mem = np.array([np.corrcoef(m, tas_obs)[0, 1] for m in tas_ens])
best5 = np.argsort(r_mem)[::-1][:5]
print("best members:", [member_ids[i] for i in best5], np.round(r_mem[best5], 2))

def skill(sim, obs):
    return np.corrcoef(sim, obs)[0, 1], np.sqrt(np.mean((sim - obs) ** 2))

r_all, e_all = skill(tas_ens.mean(axis=0), tas_obs)
r_sel, e_sel = skill(tas_ens[best5].mean(axis=0), tas_obs)
print(f"full 30-member mean : r = {r_all:.3f}  RMSE = {e_all:.3f} K")
print(f"selected 5-member   : r = {r_sel:.3f}  RMSE = {e_sel:.3f} K")
print("-> constrained subset reproduces observed variability better; use it for projections")
'''

_ENS_SOUND = '''
# keep the members that best reproduce the observed record -- select on 1950-1985,
# then check whether the subset is any better over the independent 1986-2020 period
sel_p, ver_p = years <= 1985, years > 1985
r_mem = np.array([np.corrcoef(m[sel_p], tas_obs[sel_p])[0, 1] for m in tas_ens])
best5 = np.argsort(r_mem)[::-1][:5]
print("best members (1950-85):", [member_ids[i] for i in best5], np.round(r_mem[best5], 2))

def skill(sim, obs):
    return np.corrcoef(sim, obs)[0, 1], np.sqrt(np.mean((sim - obs) ** 2))

r_all, e_all = skill(tas_ens.mean(axis=0)[ver_p], tas_obs[ver_p])
r_sel, e_sel = skill(tas_ens[best5].mean(axis=0)[ver_p], tas_obs[ver_p])
print(f"1986-2020  full 30-member mean : r = {r_all:.3f}  RMSE = {e_all:.3f} K")
print(f"1986-2020  selected 5-member   : r = {r_sel:.3f}  RMSE = {e_sel:.3f} K")
'''

CASES: list[Case] = [
    Case(
        id="h34-circ-downscaling-pick-on-independent-decade",
        family="circular_validation",
        setup=_DS_SETUP,
        code=_DS_FLAWED,
        twin="h34-circ-downscaling-pick-by-block-cv",
        note="six ridge/lasso settings are ranked on the 2011-2020 period and the "
             "winner's 2011-2020 RMSE is reported as its independent skill",
        split="holdout34",
    ),
    Case(
        id="h34-circ-downscaling-pick-by-block-cv",
        family=None,
        setup=_DS_SETUP,
        code=_DS_SOUND,
        twin="h34-circ-downscaling-pick-on-independent-decade",
        note="candidate chosen by blocked CV inside 1981-2010; 2011-2020 used once for the "
             "final RMSE",
        split="holdout34",
    ),
    Case(
        id="h34-circ-ensemble-members-selected-on-same-record",
        family="circular_validation",
        setup=_ENS_SETUP,
        code=_ENS_FLAWED,
        twin="h34-circ-ensemble-members-selected-out-of-period",
        note="members are chosen for their correlation with observations over 1950-2020 and the "
             "subset is then scored over the same years, so its better fit is selection noise",
        split="holdout34",
    ),
    Case(
        id="h34-circ-ensemble-members-selected-out-of-period",
        family=None,
        setup=_ENS_SETUP,
        code=_ENS_SOUND,
        twin="h34-circ-ensemble-members-selected-on-same-record",
        note="members chosen on 1950-1985 and the subset is verified on the separate 1986-2020 "
             "period",
        split="holdout34",
    ),
]
