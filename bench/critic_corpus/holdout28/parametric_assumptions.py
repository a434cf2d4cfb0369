from bench.critic_corpus import Case

SPLIT = "holdout28"

_REPAIR_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(15)
a = rng.lognormal(np.log(14000), 0.8, 8)
b = rng.lognormal(np.log(38000), 0.8, 11)
a[rng.integers(8)] = rng.uniform(280000, 340000)   # one winding failure -> full rewind
repairs = pd.DataFrame({
    "work_order": [f"WO-{x}" for x in rng.choice(90000, 19, replace=False) + 10000],
    "oem": ["Maker A"] * 8 + ["Maker B"] * 11,
    "rating_mva": rng.choice([33, 45, 60], 19),
    "repair_cost_gbp": np.concatenate([a, b]).round(-1),
})
repairs.sort_values(["oem", "repair_cost_gbp"])
'''

_REPAIR_FLAWED = '''
from scipy import stats

cost_a = repairs.loc[repairs.oem == "Maker A", "repair_cost_gbp"]
cost_b = repairs.loc[repairs.oem == "Maker B", "repair_cost_gbp"]

t, p = stats.ttest_ind(cost_a, cost_b, equal_var=False)
print(f"Maker A: n={len(cost_a)}, mean £{cost_a.mean():,.0f}")
print(f"Maker B: n={len(cost_b)}, mean £{cost_b.mean():,.0f}")
print(f"Welch t = {t:.2f}, p = {p:.3f}")
if p > 0.05:
    print("-> no evidence that repair costs differ by OEM; leave it out of the tender scoring")
'''

_REPAIR_SOUND = '''
from scipy import stats

cost_a = repairs.loc[repairs.oem == "Maker A", "repair_cost_gbp"]
cost_b = repairs.loc[repairs.oem == "Maker B", "repair_cost_gbp"]

# 8 and 11 costs, right-skewed with a £300k rewind in A -> rank test, compare medians
u, p = stats.mannwhitneyu(cost_a, cost_b, alternative="two-sided", method="exact")
print(f"Maker A: n={len(cost_a)}, median £{cost_a.median():,.0f} (mean £{cost_a.mean():,.0f})")
print(f"Maker B: n={len(cost_b)}, median £{cost_b.median():,.0f} (mean £{cost_b.mean():,.0f})")
print(f"Mann-Whitney U = {u:.0f}, exact p = {p:.3f}")
if p > 0.05:
    print("-> no evidence that repair costs differ by OEM; leave it out of the tender scoring")
else:
    print("-> typical repair costs differ by OEM; worth a line in the tender scoring")
'''

_CURT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(8080)
days = pd.date_range("2023-01-01", "2023-12-31", freq="D")
season = 0.5 + 0.5 * np.sin(2 * np.pi * (days.dayofyear - 80) / 365)
curtailed = rng.random(len(days)) < 0.08 + 0.3 * season ** 2       # constraint days
mwh = np.where(curtailed, rng.lognormal(2.3, 1.0, len(days)), 0.0)
curtail = pd.DataFrame({"curtailed_mwh": mwh.round(2), "export_limit_mw": 40.0}, index=days)
curtail["curtailed_mwh"].describe().round(2)
'''

_CURT_FLAWED = '''
daily = curtail["curtailed_mwh"]
mu, sd = daily.mean(), daily.std(ddof=1)
lo, hi = mu - 1.96 * sd, mu + 1.96 * sd

price = 62.0   # £/MWh lost (PPA price + REGOs)
print(f"daily curtailment: mean {mu:.2f} MWh, sd {sd:.2f} MWh")
print(f"95% of days expected within [{lo:.1f}, {hi:.1f}] MWh")
print(f"planning case for a bad day (upper 95% bound): {hi:.1f} MWh "
      f"= £{hi * price:,.0f} lost revenue")
'''

_CURT_SOUND = '''
daily = curtail["curtailed_mwh"]
mu = daily.mean()
lo, hi = daily.quantile([0.025, 0.975])

price = 62.0   # £/MWh lost (PPA price + REGOs)
print(f"daily curtailment: mean {mu:.2f} MWh, median {daily.median():.2f} MWh, "
      f"{(daily == 0).mean():.0%} of days with none")
print(f"95% of days (empirical 2.5-97.5th pct) within [{lo:.1f}, {hi:.1f}] MWh")
print(f"planning case for a bad day (97.5th pct): {hi:.1f} MWh "
      f"= £{hi * price:,.0f} lost revenue")
'''

CASES: list[Case] = [
    Case(
        id="h28-param-transformer-repair-cost-ttest",
        family="parametric_assumptions",
        setup=_REPAIR_SETUP,
        code=_REPAIR_FLAWED,
        twin="h28-param-transformer-repair-cost-ttest-sound",
        note="Welch t-test on 8 vs 11 heavily skewed repair costs with one £300k rewind; the "
             "outlier swamps the mean and the 'no difference' conclusion rests on it",
        split=SPLIT,
    ),
    Case(
        id="h28-param-transformer-repair-cost-ttest-sound",
        family=None,
        setup=_REPAIR_SETUP,
        code=_REPAIR_SOUND,
        twin="h28-param-transformer-repair-cost-ttest",
        note="exact Mann-Whitney test and medians for the small skewed cost samples",
        split=SPLIT,
    ),
    Case(
        id="h28-param-pv-curtailment-normal-band",
        family="parametric_assumptions",
        setup=_CURT_SETUP,
        code=_CURT_FLAWED,
        twin="h28-param-pv-curtailment-normal-band-sound",
        note="mean +/- 1.96 sd range for zero-inflated, right-skewed daily curtailment: the "
             "lower bound is negative and the upper bound misstates the bad-day case",
        split=SPLIT,
    ),
    Case(
        id="h28-param-pv-curtailment-normal-band-sound",
        family=None,
        setup=_CURT_SETUP,
        code=_CURT_SOUND,
        twin="h28-param-pv-curtailment-normal-band",
        note="empirical 2.5th/97.5th percentiles of daily curtailment instead of a normal band",
        split=SPLIT,
    ),
]
