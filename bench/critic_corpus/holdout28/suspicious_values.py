from bench.critic_corpus import Case

SPLIT = "holdout28"

_SM_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(999)
n_hh = 600
acorn = rng.choice(["Affluent", "Comfortable", "Adversity"], n_hh, p=[0.35, 0.4, 0.25])
level = {"Affluent": 11.5, "Comfortable": 9.0, "Adversity": 7.2}
days = pd.date_range("2023-10-01", "2023-12-31", freq="D")
rows = []
for i in range(n_hh):
    base = level[acorn[i]] * rng.lognormal(0, 0.3)
    kwh = base * (1 + 0.004 * np.arange(len(days))) * rng.lognormal(0, 0.15, len(days))
    # DCC comms failures come through as -999 in the daily register extract
    fail_p = 0.012 if acorn[i] == "Adversity" else 0.003
    kwh[rng.random(len(days)) < fail_p] = -999.0
    rows.append(pd.DataFrame({"lclid": f"MAC{i:06d}", "acorn_grouped": acorn[i],
                              "day": days, "kwh_day": kwh.round(3)}))
daily = pd.concat(rows, ignore_index=True)
daily.sample(5, random_state=0)
'''

_SM_FLAWED = '''
summary = (daily.groupby("acorn_grouped")["kwh_day"]
           .agg(households="size", mean_kwh="mean", median_kwh="median",
                p95=lambda s: s.quantile(.95))
           .round(2))
summary["households"] = daily.groupby("acorn_grouped")["lclid"].nunique()
summary["annualised_kwh"] = (summary["mean_kwh"] * 365).round(0)
print("Q4 2023 daily consumption by ACORN group")
summary.sort_values("mean_kwh", ascending=False)
'''

_SM_SOUND = '''
bad = daily["kwh_day"] < 0             # -999 = DCC comms failure, not a reading
print("comms-failure sentinels by ACORN group:")
print(bad.groupby(daily["acorn_grouped"]).agg(["sum", "mean"]).round(4).to_string())
clean = daily.loc[~bad]

summary = (clean.groupby("acorn_grouped")["kwh_day"]
           .agg(reads="size", mean_kwh="mean", median_kwh="median",
                p95=lambda s: s.quantile(.95))
           .round(2))
summary["households"] = clean.groupby("acorn_grouped")["lclid"].nunique()
summary["annualised_kwh"] = (summary["mean_kwh"] * 365).round(0)
print("\\nQ4 2023 daily consumption by ACORN group (valid reads only)")
summary.sort_values("mean_kwh", ascending=False)
'''

_CF_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(7)
# asset register as exported from the GIS (capacity at commissioning)
register = pd.DataFrame({
    "farm": ["Braes", "Carn Dearg", "Fallago", "Kilbraur", "Toddleburn"],
    "capacity_mw": [62.0, 25.2, 144.0, 47.5, 27.6],
    "capacity_mw_current": [62.0, 69.0, 144.0, 67.5, 27.6],   # after repowering
})
idx = pd.date_range("2024-01-01", "2024-03-31 23:50", freq="10min")
ws = pd.Series(rng.weibull(2.0, len(idx)) * 9.5, index=idx).rolling(12, min_periods=1).mean()
scada = {}
for _, r in register.iterrows():
    local = ws * rng.uniform(0.9, 1.1) + rng.normal(0, 0.8, len(idx))
    pc = np.clip((local - 3.5) / (12.5 - 3.5), 0, 1) ** 1.8
    pc[local > 25] = 0
    scada[r.farm] = (pc * r.capacity_mw_current * rng.uniform(0.93, 0.99)).round(3)
power_mw = pd.DataFrame(scada, index=idx)
power_mw.describe().round(1)
'''

_CF_FLAWED = '''
energy_mwh = power_mw.resample("MS").sum() / 6           # 10-min MW -> MWh
hours = pd.Series(energy_mwh.index.days_in_month * 24, index=energy_mwh.index)
cap = register.set_index("farm")["capacity_mw"]

cf = energy_mwh.div(cap, axis=1).div(hours, axis=0)
cf.index = cf.index.strftime("%b")
print("Q1 2024 monthly capacity factor")
print(cf.round(3).to_string())
q1 = energy_mwh.sum() / (cap * hours.sum())
print(f"\\nbest performer: {q1.idxmax()} at {q1.max():.1%} Q1 capacity factor "
      f"(fleet median {q1.median():.1%})")
'''

_CF_SOUND = '''
energy_mwh = power_mw.resample("MS").sum() / 6           # 10-min MW -> MWh
hours = pd.Series(energy_mwh.index.days_in_month * 24, index=energy_mwh.index)
reg = register.set_index("farm")
# sanity check: metered output can't exceed installed capacity
over = power_mw.max() > reg["capacity_mw"]
print("farms exceeding their commissioning capacity:", list(over[over].index),
      "-> using post-repowering capacity")
cap = reg["capacity_mw_current"]
assert (power_mw.max() <= cap).all()

cf = energy_mwh.div(cap, axis=1).div(hours, axis=0)
assert cf.stack().between(0, 1).all()
cf.index = cf.index.strftime("%b")
print("Q1 2024 monthly capacity factor")
print(cf.round(3).to_string())
q1 = energy_mwh.sum() / (cap * hours.sum())
print(f"\\nbest performer: {q1.idxmax()} at {q1.max():.1%} Q1 capacity factor "
      f"(fleet median {q1.median():.1%})")
'''

CASES: list[Case] = [
    Case(
        id="h28-susp-smart-meter-minus999-means",
        family="suspicious_values",
        setup=_SM_SETUP,
        code=_SM_FLAWED,
        twin="h28-susp-smart-meter-minus999-means-sound",
        note="-999 comms-failure sentinels are averaged into the daily kWh means (most for the "
             "Adversity group), giving impossible negative consumption and a biased ranking",
        split=SPLIT,
    ),
    Case(
        id="h28-susp-smart-meter-minus999-means-sound",
        family=None,
        setup=_SM_SETUP,
        code=_SM_SOUND,
        twin="h28-susp-smart-meter-minus999-means",
        note="sentinels counted per group and excluded before the consumption summary",
        split=SPLIT,
    ),
    Case(
        id="h28-susp-wind-capacity-factor-over-100pct",
        family="suspicious_values",
        setup=_CF_SETUP,
        code=_CF_FLAWED,
        twin="h28-susp-wind-capacity-factor-over-100pct-sound",
        note="capacity factors above 100% (repowered farms divided by their old capacity) are "
             "reported and one is crowned best performer without noticing it is impossible",
        split=SPLIT,
    ),
    Case(
        id="h28-susp-wind-capacity-factor-over-100pct-sound",
        family=None,
        setup=_CF_SETUP,
        code=_CF_SOUND,
        twin="h28-susp-wind-capacity-factor-over-100pct",
        note="output checked against capacity, current capacity used, CFs asserted in [0, 1]",
        split=SPLIT,
    ),
]
