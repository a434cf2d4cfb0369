from bench.critic_corpus import Case

SPLIT = "holdout28"

_THERMO_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2028)
n_homes = 40
homes = pd.DataFrame({"home_id": [f"GH{i:03d}" for i in range(n_homes)],
                      "group": np.repeat(["smart_stat", "control"], n_homes // 2),
                      "floor_m2": rng.normal(95, 25, n_homes).clip(45).round()})
home_level = rng.lognormal(0, 0.3, n_homes) * homes["floor_m2"].values / 95
idx = pd.date_range("2024-01-08", periods=28 * 24, freq="h")
outdoor = (4 + 3 * np.sin(2 * np.pi * (idx.hour.values - 9) / 24)
           + rng.normal(0, 2, len(idx)).cumsum() / 8)
frames = []
for i, row in homes.iterrows():
    ar = np.zeros(len(idx))
    eps = rng.normal(0, 0.25, len(idx))
    for t in range(1, len(idx)):
        ar[t] = 0.8 * ar[t - 1] + eps[t]
    kwh = home_level[i] * (1.6 + 0.08 * (15 - outdoor)) * (0.97 if row.group == "smart_stat"
                                                         else 1.0) + ar
    frames.append(pd.DataFrame({"home_id": row.home_id, "group": row.group, "ts": idx,
                                "gas_kwh": kwh.clip(0).round(3)}))
gas = pd.concat(frames, ignore_index=True)
gas.groupby("group")["gas_kwh"].describe().round(3)
'''

_THERMO_FLAWED = '''
from scipy import stats

trt = gas.loc[gas.group == "smart_stat", "gas_kwh"]
ctl = gas.loc[gas.group == "control", "gas_kwh"]

t, p = stats.ttest_ind(trt, ctl)
saving = 1 - trt.mean() / ctl.mean()
print(f"hourly gas: smart thermostat {trt.mean():.3f} vs control {ctl.mean():.3f} kWh/h "
      f"(n = {len(trt):,} vs {len(ctl):,} readings)")
print(f"saving {saving:.1%}, t = {t:.2f}, p = {p:.2e}")
'''

_THERMO_SOUND = '''
from scipy import stats

# one number per home: the unit of randomisation is the household, not the hour
per_home = gas.groupby(["home_id", "group"], as_index=False)["gas_kwh"].mean()
trt = per_home.loc[per_home.group == "smart_stat", "gas_kwh"]
ctl = per_home.loc[per_home.group == "control", "gas_kwh"]

t, p = stats.ttest_ind(trt, ctl, equal_var=False)
saving = 1 - trt.mean() / ctl.mean()
print(f"mean hourly gas per home: smart thermostat {trt.mean():.3f} vs control "
      f"{ctl.mean():.3f} kWh/h (n = {len(trt)} vs {len(ctl)} homes)")
print(f"saving {saving:.1%}, Welch t = {t:.2f}, p = {p:.3f}")
'''

_VG_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3002)
turbines = pd.DataFrame({"wtg": [f"WTG{i:02d}" for i in range(1, 13)],
                         "vortex_gen": [1, 0] * 6})
turbine_offset = rng.normal(0, 2.0, 12)          # site/wake position, % of power curve
idx = pd.date_range("2023-06-01", periods=60 * 24, freq="h")
ws = rng.weibull(2.1, (12, len(idx))) * 8.5
rows = []
for i, tb in turbines.iterrows():
    dev = turbine_offset[i] + 0.6 * tb.vortex_gen + rng.normal(0, 4.0, len(idx))
    rows.append(pd.DataFrame({"wtg": tb.wtg, "vortex_gen": tb.vortex_gen, "ts": idx,
                              "wind_ms": ws[i].round(2), "pc_dev_pct": dev.round(2)}))
scada = pd.concat(rows, ignore_index=True)
scada = scada[(scada.wind_ms > 4) & (scada.wind_ms < 11)]        # region II only
scada["ws_bin"] = (scada.wind_ms * 2).round() / 2
scada.head()
'''

_VG_FLAWED = '''
import statsmodels.formula.api as smf

fit = smf.ols("pc_dev_pct ~ vortex_gen + C(ws_bin)", data=scada).fit()
est = fit.params["vortex_gen"]
lo, hi = fit.conf_int().loc["vortex_gen"]
print(f"hourly SCADA rows used: {int(fit.nobs):,}")
print(f"vortex generator uplift: {est:+.2f}% of power-curve yield "
      f"(95% CI {lo:+.2f} to {hi:+.2f}, p = {fit.pvalues['vortex_gen']:.1e})")
'''

_VG_SOUND = '''
import statsmodels.formula.api as smf

# remove the wind-speed-bin effect, then summarise each turbine: 12 turbines, 12 data points
bin_fit = smf.ols("pc_dev_pct ~ C(ws_bin)", data=scada).fit()
scada["resid"] = bin_fit.resid
per_wtg = scada.groupby(["wtg", "vortex_gen"], as_index=False)["resid"].mean()

fit = smf.ols("resid ~ vortex_gen", data=per_wtg).fit()
est = fit.params["vortex_gen"]
lo, hi = fit.conf_int().loc["vortex_gen"]
print(f"turbines: {len(per_wtg)} ({per_wtg.vortex_gen.sum()} retrofitted)")
print(f"vortex generator uplift: {est:+.2f}% of power-curve yield "
      f"(95% CI {lo:+.2f} to {hi:+.2f}, p = {fit.pvalues['vortex_gen']:.2f})")
'''

CASES: list[Case] = [
    Case(
        id="h28-pseudo-thermostat-hourly-readings",
        family="pseudoreplication",
        setup=_THERMO_SETUP,
        code=_THERMO_FLAWED,
        twin="h28-pseudo-thermostat-hourly-readings-sound",
        note="t-test on ~13k autocorrelated hourly readings per arm when only 20 homes per arm "
             "were randomised; the p-value reflects readings, not households",
        split=SPLIT,
    ),
    Case(
        id="h28-pseudo-thermostat-hourly-readings-sound",
        family=None,
        setup=_THERMO_SETUP,
        code=_THERMO_SOUND,
        twin="h28-pseudo-thermostat-hourly-readings",
        note="readings collapsed to one mean per home before a Welch test on 20 vs 20 homes",
        split=SPLIT,
    ),
    Case(
        id="h28-pseudo-turbine-retrofit-scada-ols",
        family="pseudoreplication",
        setup=_VG_SETUP,
        code=_VG_FLAWED,
        twin="h28-pseudo-turbine-retrofit-scada-ols-sound",
        note="OLS on thousands of hourly SCADA rows treats them as independent although the "
             "retrofit varies only between 12 turbines with their own offsets",
        split=SPLIT,
    ),
    Case(
        id="h28-pseudo-turbine-retrofit-scada-ols-sound",
        family=None,
        setup=_VG_SETUP,
        code=_VG_SOUND,
        twin="h28-pseudo-turbine-retrofit-scada-ols",
        note="wind-bin-adjusted residuals averaged per turbine, retrofit effect tested on the "
             "12 turbines",
        split=SPLIT,
    ),
]
