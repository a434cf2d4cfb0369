from bench.critic_corpus import Case

_ANOM_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(34001)
idx = pd.date_range("1961-01", "2023-12", freq="MS")
m = idx.month.to_numpy()
t = (idx.year.to_numpy() - 1961) + (m - 1) / 12
tas = 9.8 - 7.2 * np.cos(2 * np.pi * (m - 1.5) / 12) + 0.024 * t + rng.normal(0, 1.1, len(idx))
mon = pd.DataFrame({"tas_c": tas.round(2)}, index=pd.DatetimeIndex(idx, name="month_start"))
mon.iloc[rng.choice(len(mon), 14, replace=False), 0] = np.nan   # incomplete months
'''

_ANOM_CODE = '''
# anomalies relative to the WMO 1991-2020 monthly normals
base = mon.loc["1991":"2020"]
normals = base.groupby(base.index.month).tas_c.agg(["mean", "count"])
print("normals built from", normals["count"].min(), "-", normals["count"].max(),
      "years per calendar month")
mon["anom"] = mon.tas_c - normals["mean"].reindex(mon.index.month).to_numpy()

# annual mean anomaly only where all 12 months are present
yr = mon.groupby(mon.index.year).anom.agg(["mean", "count"])
yr.loc[yr["count"] < 12, "mean"] = np.nan
print(f"{(yr['count'] < 12).sum()} years left blank (missing months)")
yr.loc[2014:].rename(columns={"mean": "anom_k", "count": "n_months"}).round(2)
'''

_RX_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(34002)
yrs = np.arange(1951, 2023)
loc = 38 + 0.06 * (yrs - 1951)
rx1 = loc + 9 * rng.gumbel(0, 1, len(yrs))
rx = pd.Series(rx1.round(1), index=pd.Index(yrs, name="year"), name="rx1day_mm")
'''

_RX_CODE = '''
from scipy import stats

# annual maximum 1-day precipitation: Theil-Sen slope + Mann-Kendall (Kendall tau vs year)
res = stats.theilslopes(rx.values, rx.index.values, alpha=0.95)
tau, p = stats.kendalltau(rx.index.values, rx.values)
r1 = rx.autocorr(lag=1)
print(f"Rx1day {rx.index.min()}-{rx.index.max()} (n = {len(rx)}), lag-1 autocorr = {r1:.2f}")
print(f"Sen slope {res.slope * 10:+.2f} mm/decade  "
      f"(95% CI {res.low_slope * 10:+.2f} to {res.high_slope * 10:+.2f})")
print(f"Mann-Kendall tau = {tau:.3f}, p = {p:.4f}")
'''

_HARM_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(34003)
d = pd.date_range("2010-01-01", "2019-12-31", freq="D")
doy = d.dayofyear.to_numpy()
e = np.zeros(len(d))
for i in range(1, len(d)):
    e[i] = 0.7 * e[i - 1] + rng.normal(0, 1.6)
sm = 24 + 3.5 * np.cos(2 * np.pi * (doy - 200) / 365.25) + 0.8 * np.cos(4 * np.pi * doy / 365.25)
soil = pd.DataFrame({"date": d, "soil_t_10cm": (sm + e).round(2)})
'''

_HARM_CODE = '''
import statsmodels.formula.api as smf

# two-harmonic climatological cycle of 10 cm soil temperature; errors are autocorrelated
# day to day, so use HAC (Newey-West) standard errors
w = 2 * np.pi * soil.date.dt.dayofyear / 365.25
soil = soil.assign(c1=np.cos(w), s1=np.sin(w), c2=np.cos(2 * w), s2=np.sin(2 * w))
fit = smf.ols("soil_t_10cm ~ c1 + s1 + c2 + s2", data=soil).fit(
    cov_type="HAC", cov_kwds={"maxlags": 10})
a, b = fit.params["c1"], fit.params["s1"]
amp = np.hypot(a, b)
peak_doy = (np.degrees(np.arctan2(b, a)) % 360) / 360 * 365.25
print(fit.summary().tables[1])
print(f"\\nannual amplitude {amp:.2f} K, peak around day {peak_doy:.0f}; R2 = {fit.rsquared:.2f}")
'''

_GEV_SETUP = '''
import numpy as np
import pandas as pd
from scipy import stats

rng = np.random.default_rng(34004)
yrs = np.arange(1974, 2024)
amax = stats.genextreme.rvs(-0.08, loc=27.5, scale=3.6, size=len(yrs), random_state=rng)
gust = pd.DataFrame({"year": yrs, "max_gust_ms": amax.round(1)})
'''

_GEV_CODE = '''
from scipy import stats

x = gust.max_gust_ms.to_numpy()
c, loc, scale = stats.genextreme.fit(x)
print(f"GEV fit to {len(x)} annual maxima: shape c = {c:.3f}, loc = {loc:.2f}, "
      f"scale = {scale:.2f}")
T = np.array([10, 20, 50, 100])
rl = stats.genextreme.isf(1 / T, c, loc, scale)
emp = np.sort(x)[::-1]
print(f"largest observed {emp[0]:.1f} m/s (empirical return period ~{len(x) + 1} yr)")
pd.DataFrame({"return_period_yr": T, "return_level_ms": rl.round(1)}).set_index(
    "return_period_yr")
'''

_CMIP_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(34005)
models = {"ACCESS-CM2": 3, "CanESM5": 10, "CNRM-CM6-1": 6, "EC-Earth3": 8, "GFDL-ESM4": 1,
          "IPSL-CM6A-LR": 6, "MIROC6": 10, "MPI-ESM1-2-LR": 10, "MRI-ESM2-0": 5,
          "NorESM2-LM": 3, "UKESM1-0-LL": 5, "INM-CM5-0": 1}
ecs = {m: rng.uniform(1.8, 5.6) for m in models}
rows = []
for ssp, f in [("ssp126", 0.45), ("ssp245", 0.75), ("ssp585", 1.35)]:
    for mdl, nmem in models.items():
        for k in range(nmem):
            rows.append({"model": mdl, "member": f"r{k + 1}i1p1f1", "scenario": ssp,
                         "dtas_2081_2100_k": round(f * ecs[mdl] + rng.normal(0, 0.12), 3)})
cmip = pd.DataFrame(rows)      # regional warming 2081-2100 vs 1995-2014, one row per member
'''

_CMIP_CODE = '''
# one value per model (average its members first) so large ensembles don't dominate
per_model = cmip.groupby(["scenario", "model"]).dtas_2081_2100_k.mean()
summary = per_model.groupby("scenario").agg(
    n_models="count",
    median="median",
    p05=lambda s: s.quantile(0.05),
    p95=lambda s: s.quantile(0.95),
)
print(f"{cmip.model.nunique()} models, {len(cmip)} member-scenario runs; "
      "model-democracy weighting")
summary.round(2)
'''

CASES: list[Case] = [
    Case(
        id="h34-sound-monthly-anomalies-1991-2020",
        family=None,
        setup=_ANOM_SETUP,
        code=_ANOM_CODE,
        note="monthly anomalies against 1991-2020 normals, annual means only from complete "
             "years, gaps counted",
        split="holdout34",
    ),
    Case(
        id="h34-sound-rx1day-sen-slope",
        family=None,
        setup=_RX_SETUP,
        code=_RX_CODE,
        note="single-station Sen slope with CI and Mann-Kendall test, lag-1 autocorrelation "
             "checked",
        split="holdout34",
    ),
    Case(
        id="h34-sound-soil-temp-harmonics-hac",
        family=None,
        setup=_HARM_SETUP,
        code=_HARM_CODE,
        note="harmonic regression of the seasonal cycle with HAC standard errors for "
             "autocorrelated daily residuals",
        split="holdout34",
    ),
    Case(
        id="h34-sound-gust-gev-return-levels",
        family=None,
        setup=_GEV_SETUP,
        code=_GEV_CODE,
        note="GEV fitted to 50 annual maximum gusts and return levels read off the fitted "
             "distribution; purely descriptive",
        split="holdout34",
    ),
    Case(
        id="h34-sound-cmip-model-democracy",
        family=None,
        setup=_CMIP_SETUP,
        code=_CMIP_CODE,
        note="members averaged within each model before the multi-model median and 5-95% "
             "range, so no model counts more than once",
        split="holdout34",
    ),
]
