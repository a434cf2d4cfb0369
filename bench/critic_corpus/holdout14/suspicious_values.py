from bench.critic_corpus import Case

_RAIN_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1953)
days = pd.date_range("2021-01-01", "2023-12-31", freq="D")
season = 1 + 0.6 * np.cos(2 * np.pi * (days.dayofyear - 15) / 365.25)
wet = rng.random(len(days)) < 0.42 * season
gauges = {}
for g in ["RG-112 Alder Beck", "RG-118 Moor End", "RG-131 Low Fold"]:
    depth = np.where(wet, rng.gamma(0.8, 6.5 * season), 0.0).round(1)
    outage = rng.random(len(days)) < 0.002
    outage |= (days >= "2022-11-14") & (days <= "2022-11-29") & g.startswith("RG-118")
    depth[outage] = -999.0
    gauges[g] = depth
daily = pd.DataFrame(gauges, index=days)
daily.index.name = "date"
daily.describe().round(1)
'''

_RAIN_FLAWED = '''
monthly = daily.resample("MS").sum()
annual = daily.resample("YS").sum()
clim = monthly.groupby(monthly.index.month).mean().round(1)
clim.index.name = "month"
print("mean annual rainfall (mm):")
print(annual.mean().round(0).to_string())
print("\\nwettest months on record:")
print(monthly.stack().nlargest(3).round(1).to_string())
clim
'''

_RAIN_SOUND = '''
clean = daily.mask(daily == -999.0)
n_missing = clean.isna().resample("MS").sum()
monthly = clean.resample("MS").sum(min_count=1)
monthly = monthly.mask(n_missing > 3)
print("missing gauge-days (code -999):", clean.isna().sum().to_dict())
print("gauge-months excluded (>3 missing days):", int((n_missing > 3).sum().sum()))
annual = monthly.resample("YS").sum(min_count=12)
clim = monthly.groupby(monthly.index.month).mean().round(1)
clim.index.name = "month"
print("mean annual rainfall (mm), complete years only:")
print(annual.mean().round(0).to_string())
print("\\nwettest months on record:")
print(monthly.stack().nlargest(3).round(1).to_string())
clim
'''

_CRACK_SETUP = '''
import numpy as np

rng = np.random.default_rng(3030)
# Ti-6Al-4V coupons, 10^6-cycle run-out tests: 1 = crack initiated before run-out
stress_mpa = np.repeat(np.arange(300, 660, 40), 8)
true_logit = -11.0 + 0.024 * stress_mpa
cracked = rng.binomial(1, 1 / (1 + np.exp(-true_logit)))
print(f"{len(stress_mpa)} coupons, {cracked.sum()} cracked; stress range "
      f"{stress_mpa.min()}-{stress_mpa.max()} MPa")
'''

_CRACK_FLAWED = '''
import statsmodels.api as sm

X = sm.add_constant(stress_mpa.astype(float))
fit = sm.OLS(cracked, X).fit()
grid = np.arange(250, 751, 50)
p_hat = fit.predict(sm.add_constant(grid.astype(float)))
print(f"P(crack) = {fit.params[0]:.3f} + {fit.params[1]:.5f} * stress   "
      f"(R2 = {fit.rsquared:.2f}, slope p = {fit.pvalues[1]:.1e})")
print(f"{'stress_MPa':>10} {'P_crack':>8}")
for s, p in zip(grid, p_hat):
    print(f"{s:>10} {p:8.3f}")
s50 = (0.5 - fit.params[0]) / fit.params[1]
print(f"stress for 50% crack probability: {s50:.0f} MPa")
'''

_CRACK_SOUND = '''
import statsmodels.api as sm

X = sm.add_constant(stress_mpa.astype(float))
fit = sm.GLM(cracked, X, family=sm.families.Binomial()).fit()
grid = np.arange(250, 751, 50)
p_hat = fit.predict(sm.add_constant(grid.astype(float)))
print(f"logit P(crack) = {fit.params[0]:.3f} + {fit.params[1]:.5f} * stress   "
      f"(slope p = {fit.pvalues[1]:.1e})")
print(f"{'stress_MPa':>10} {'P_crack':>8}")
for s, p in zip(grid, p_hat):
    note = "  (extrapolated)" if s < stress_mpa.min() or s > stress_mpa.max() else ""
    print(f"{s:>10} {p:8.3f}{note}")
s50 = -fit.params[0] / fit.params[1]
print(f"stress for 50% crack probability: {s50:.0f} MPa")
'''

CASES: list[Case] = [
    Case(
        id="h14-suspicious-raingauge-999-in-totals",
        family="suspicious_values",
        setup=_RAIN_SETUP,
        code=_RAIN_FLAWED,
        twin="h14-suspicious-raingauge-999-masked",
        note="The -999 outage code is summed into monthly and annual rainfall, giving negative "
             "monthly totals and deflated annual means that are reported as climatology.",
        split="holdout14",
    ),
    Case(
        id="h14-suspicious-raingauge-999-masked",
        family=None,
        setup=_RAIN_SETUP,
        code=_RAIN_SOUND,
        twin="h14-suspicious-raingauge-999-in-totals",
        note="-999 is masked as missing, counted, and gauge-months with many missing days are "
             "excluded before totals are formed.",
        split="holdout14",
    ),
    Case(
        id="h14-suspicious-fatigue-linear-probability",
        family="suspicious_values",
        setup=_CRACK_SETUP,
        code=_CRACK_FLAWED,
        twin="h14-suspicious-fatigue-logistic-glm",
        note="A linear probability model prints crack probabilities below 0 and above 1 across "
             "the stress grid, and the table is reported without comment.",
        split="holdout14",
    ),
    Case(
        id="h14-suspicious-fatigue-logistic-glm",
        family=None,
        setup=_CRACK_SETUP,
        code=_CRACK_SOUND,
        twin="h14-suspicious-fatigue-linear-probability",
        note="Binomial GLM with logit link keeps probabilities in [0, 1] and flags extrapolated "
             "stresses.",
        split="holdout14",
    ),
]
