from bench.critic_corpus import Case

SPLIT = "holdout28"

_SURVEY_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1212)
n = 1500
# tariff_code and region_code are lookup keys from the CRM extract
TARIFFS = {1: "standard_var", 2: "fixed_12m", 3: "ev_night", 4: "prepayment", 5: "economy7"}
REGIONS = {10: "London", 11: "South East", 12: "Midlands", 13: "North West", 14: "Scotland"}
svy = pd.DataFrame({
    "tariff_code": rng.choice(list(TARIFFS), n, p=[0.35, 0.25, 0.1, 0.15, 0.15]),
    "region_code": rng.choice(list(REGIONS), n),
    "occupants": rng.choice([1, 2, 3, 4, 5], n, p=[0.25, 0.35, 0.18, 0.15, 0.07]),
    "satisfaction_1to5": rng.choice([1, 2, 3, 4, 5], n, p=[0.08, 0.12, 0.3, 0.35, 0.15]),
})
tariff_kwh = {1: 3100, 2: 3000, 3: 5200, 4: 2300, 5: 4100}
svy["annual_kwh"] = (svy["tariff_code"].map(tariff_kwh) * (0.7 + 0.15 * svy["occupants"])
                     * rng.lognormal(0, 0.25, n)).round()
svy.head()
'''

_SURVEY_FLAWED = '''
corr = svy.corr(numeric_only=True)["annual_kwh"].drop("annual_kwh").sort_values()
print("drivers of annual consumption (Pearson r):")
print(corr.round(3).to_string())

top = corr.abs().idxmax()
print(f"\\nstrongest driver: {top} (r = {corr[top]:.2f}, r^2 = {corr[top] ** 2:.1%} of variance)")
'''

_SURVEY_SOUND = '''
from scipy import stats

# tariff and region are nominal codes -> compare groups, don't correlate the code numbers
by_tariff = (svy.assign(tariff=svy["tariff_code"].map(TARIFFS))
             .groupby("tariff")["annual_kwh"].agg(["size", "median", "mean"]).round(0))
print(by_tariff.sort_values("median").to_string())

groups = [g["annual_kwh"].values for _, g in svy.groupby("tariff_code")]
h, p = stats.kruskal(*groups)
grand = svy["annual_kwh"].mean()
ss_between = sum(len(g) * (g.mean() - grand) ** 2 for g in groups)
eta2 = ss_between / ((svy["annual_kwh"] - grand) ** 2).sum()
print(f"\\ntariff: Kruskal-Wallis H = {h:.1f}, p = {p:.1e}, eta^2 = {eta2:.2f}")

rho, p_occ = stats.spearmanr(svy["occupants"], svy["annual_kwh"])
print(f"occupants (ordinal count): Spearman rho = {rho:.2f}, p = {p_occ:.1e}")
'''

_METER_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(61)
n = 60
ref_kwh = rng.uniform(40, 2400, n).round(2)      # reference standard over the soak test
bias = 1.025                                     # batch reads ~2.5% high
meter_kwh = (ref_kwh * bias * (1 + rng.normal(0, 0.004, n))).round(2)
soak = pd.DataFrame({"serial": [f"SM2-{x:07d}" for x in rng.choice(10**7, n, replace=False)],
                     "ref_kwh": ref_kwh, "meter_kwh": meter_kwh,
                     "load_profile": rng.choice(["resistive", "inductive", "mixed"], n)})
soak.head()
'''

_METER_FLAWED = '''
from scipy.stats import pearsonr

r, p = pearsonr(soak["ref_kwh"], soak["meter_kwh"])
print(f"batch SM2 vs reference: r = {r:.5f} (p = {p:.1e}, n = {len(soak)})")
for prof, g in soak.groupby("load_profile"):
    print(f"  {prof:<10} r = {pearsonr(g.ref_kwh, g.meter_kwh)[0]:.5f}")
print("meters agree with the reference standard -> batch passes accuracy acceptance")
'''

_METER_SOUND = '''
from scipy import stats

err_pct = 100 * (soak["meter_kwh"] - soak["ref_kwh"]) / soak["ref_kwh"]
bias = err_pct.mean()
ci = stats.t.interval(0.95, len(err_pct) - 1, loc=bias, scale=stats.sem(err_pct))
loa = (bias - 1.96 * err_pct.std(), bias + 1.96 * err_pct.std())
print(f"batch SM2 vs reference: mean error {bias:+.2f}% (95% CI {ci[0]:+.2f} to {ci[1]:+.2f})")
print(f"limits of agreement: {loa[0]:+.2f}% to {loa[1]:+.2f}%")
print(err_pct.groupby(soak["load_profile"]).agg(["mean", "min", "max"]).round(2))
outside = (err_pct.abs() > 1.0).sum()
print(f"{outside}/{len(err_pct)} meters outside the +/-1% class-1 limit -> "
      f"{'FAIL' if outside else 'PASS'} accuracy acceptance")
'''

CASES: list[Case] = [
    Case(
        id="h28-corr-tariff-code-pearson",
        family="correlation_misuse",
        setup=_SURVEY_SETUP,
        code=_SURVEY_FLAWED,
        twin="h28-corr-tariff-code-pearson-sound",
        note="Pearson r of consumption with tariff_code and region_code, arbitrary lookup keys, "
             "ranked as consumption drivers",
        split=SPLIT,
    ),
    Case(
        id="h28-corr-tariff-code-pearson-sound",
        family=None,
        setup=_SURVEY_SETUP,
        code=_SURVEY_SOUND,
        twin="h28-corr-tariff-code-pearson",
        note="tariff compared as groups (medians, Kruskal-Wallis, eta^2); Spearman only for "
             "the ordinal occupant count",
        split=SPLIT,
    ),
    Case(
        id="h28-corr-meter-soak-test-agreement",
        family="correlation_misuse",
        setup=_METER_SETUP,
        code=_METER_FLAWED,
        twin="h28-corr-meter-soak-test-agreement-sound",
        note="r = 0.999 over a wide load range is taken as agreement with the reference while "
             "every meter reads ~2.5% high, outside class-1 accuracy",
        split=SPLIT,
    ),
    Case(
        id="h28-corr-meter-soak-test-agreement-sound",
        family=None,
        setup=_METER_SETUP,
        code=_METER_SOUND,
        twin="h28-corr-meter-soak-test-agreement",
        note="agreement judged from percentage errors: bias with CI, limits of agreement and "
             "meters outside the accuracy class",
        split=SPLIT,
    ),
]
