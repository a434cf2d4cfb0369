from bench.critic_corpus import Case

CASES: list[Case] = [
    Case(
        id="h33-sound-hplc-calibration-lod-loq-back-calc",
        family=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3321)
std_conc = np.repeat([0.5, 1.0, 2.5, 5.0, 10.0, 20.0], 2)      # ug/mL caffeine
area = 41250 * std_conc + 380 + rng.normal(0, 900, std_conc.size)
cal = pd.DataFrame({"level": np.repeat(["S1", "S2", "S3", "S4", "S5", "S6"], 2),
                    "conc_ug_mL": std_conc, "area_mAUs": area.round(0)})
unknowns = pd.DataFrame({"sample": ["EnergyDrink-A", "EnergyDrink-B", "ColdBrew-1"],
                         "dilution": [20, 20, 10],
                         "area_mAUs": [498310.0, 612045.0, 287760.0]})
''',
        code='''
from scipy import stats

fit = stats.linregress(cal["conc_ug_mL"], cal["area_mAUs"])
resid = cal["area_mAUs"] - (fit.intercept + fit.slope * cal["conc_ug_mL"])
s_yx = np.sqrt((resid ** 2).sum() / (len(cal) - 2))
print(f"area = {fit.slope:.1f} * c + {fit.intercept:.0f}   r2 = {fit.rvalue ** 2:.5f}")
print(f"residual SD s_y/x = {s_yx:.0f} mAU*s; max |resid| "
      f"{100 * (resid.abs() / cal['area_mAUs']).max():.1f} % of response")

# ICH Q2: LOD = 3.3 s/S, LOQ = 10 s/S (s = residual SD of the regression)
print(f"LOD = {3.3 * s_yx / fit.slope:.3f} ug/mL, LOQ = {10 * s_yx / fit.slope:.3f} ug/mL")

unknowns["conc_in_vial"] = (unknowns["area_mAUs"] - fit.intercept) / fit.slope
unknowns["in_range"] = unknowns["conc_in_vial"].between(0.5, 20.0)
unknowns["caffeine_mg_L"] = unknowns["conc_in_vial"] * unknowns["dilution"]
unknowns.round(2)
''',
        note="Ordinary calibration curve with residual check, ICH LOD/LOQ from the regression "
             "residual SD, and back-calculated unknowns checked against the calibrated range.",
        split="holdout33",
    ),
    Case(
        id="h33-sound-two-analysts-paired-differences",
        family=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3322)
true_fe = rng.uniform(20, 80, 14)                   # mg/kg Fe in breakfast cereal
analyst_a = true_fe * (1 + rng.normal(0, 0.02, 14))
analyst_b = true_fe * (1 + rng.normal(0, 0.02, 14)) + 0.9
fe = pd.DataFrame({"sample": [f"CER-{i:02d}" for i in range(1, 15)],
                   "analyst_A": analyst_a.round(2), "analyst_B": analyst_b.round(2)})
''',
        code='''
from scipy import stats

# same 14 digests measured by both analysts -> paired comparison on the differences
d = fe["analyst_B"] - fe["analyst_A"]
print(f"mean difference B - A = {d.mean():+.2f} mg/kg (SD {d.std(ddof=1):.2f}, n = {len(d)})")
print(f"Shapiro-Wilk on differences: p = {stats.shapiro(d).pvalue:.2f}")
res = stats.ttest_rel(fe["analyst_B"], fe["analyst_A"])
ci = res.confidence_interval(0.95)
print(f"paired t = {res.statistic:.2f}, df = {res.df}, p = {res.pvalue:.4f}, "
      f"95% CI of bias {ci.low:+.2f} to {ci.high:+.2f} mg/kg")
''',
        note="Two analysts on the same 14 samples compared with a paired t-test on differences, "
             "whose normality is checked; the bias is reported with its CI.",
        split="holdout33",
    ),
    Case(
        id="h33-sound-shewhart-check-standard-recoveries",
        family=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3323)
rec = rng.normal(100.2, 1.6, 40)
rec[33] = 93.1                 # autosampler needle partially blocked
rec[36:40] += 3.8              # new lot of internal standard
qc = pd.DataFrame({"run_date": pd.date_range("2024-02-01", periods=40, freq="B"),
                   "ccv_recovery_pct": rec.round(1)})
''',
        code='''
# Phase I: limits from the first 20 validated runs; Phase II: monitor the rest
ref = qc["ccv_recovery_pct"].iloc[:20]
mr = ref.diff().abs().dropna()
centre = ref.mean()
sigma = mr.mean() / 1.128                     # moving-range estimate of short-term SD
ucl, lcl = centre + 3 * sigma, centre - 3 * sigma
print(f"CL = {centre:.2f} %, sigma(MR) = {sigma:.2f}, UCL = {ucl:.2f} %, LCL = {lcl:.2f} %")

mon = qc.iloc[20:].copy()
mon["beyond_3s"] = ~mon["ccv_recovery_pct"].between(lcl, ucl)
above = (mon["ccv_recovery_pct"] > centre).astype(int)
mon["run_of_above"] = above.groupby((above != above.shift()).cumsum()).cumsum() * above
print(f"{mon['beyond_3s'].sum()} of {len(mon)} monitored runs outside 3 sigma")
mon[mon["beyond_3s"] | (mon["run_of_above"] >= 4)]
''',
        note="Individuals control chart with limits from an in-control reference period, applied "
             "to later runs; out-of-limit and run-rule signals are listed.",
        split="holdout33",
    ),
    Case(
        id="h33-sound-xrd-peaks-d-spacing",
        family=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3324)
two_theta = np.arange(20, 80, 0.02)
# Cu K-alpha, NaCl (halite) reflections
peaks = {27.37: 120, 31.70: 1000, 45.45: 580, 53.87: 20, 56.48: 160, 66.23: 60, 75.30: 110}
y = 40 + 0.4 * (80 - two_theta)
for pos, h in peaks.items():
    y = y + h / (1 + ((two_theta - pos) / 0.09) ** 2)
counts = rng.poisson(y).astype(float)
xrd = pd.DataFrame({"two_theta_deg": two_theta.round(2), "counts": counts})
''',
        code='''
from scipy.signal import find_peaks, savgol_filter

sm = savgol_filter(xrd["counts"], window_length=11, polyorder=3)
bkg = np.percentile(sm, 20)
idx, props = find_peaks(sm, prominence=60, distance=25)
lam = 1.5406                                  # Cu K-alpha1, Angstrom
pk = xrd.iloc[idx].copy()
pk["I_net"] = sm[idx] - bkg
pk["I_rel_pct"] = 100 * pk["I_net"] / pk["I_net"].max()
pk["d_A"] = lam / (2 * np.sin(np.radians(pk["two_theta_deg"] / 2)))
print(f"{len(pk)} reflections found (prominence > 60 counts)")
pk[["two_theta_deg", "d_A", "I_rel_pct"]].round(3)
''',
        note="Peak search on a smoothed diffractogram with Bragg d-spacings and relative "
             "intensities; descriptive, no inference.",
        split="holdout33",
    ),
    Case(
        id="h33-sound-arrhenius-shelf-life",
        family=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3325)
Ea, A = 92e3, 3.2e12          # J/mol, 1/day
R = 8.314
temps_C = [40, 50, 60, 70]
k_true = {T: A * np.exp(-Ea / (R * (T + 273.15))) for T in temps_C}
# first-order loss of ascorbic acid; 3 independent vials per temperature
stab = pd.DataFrame([
    {"T_C": T, "vial": v, "k_per_day": k_true[T] * np.exp(rng.normal(0, 0.08))}
    for T in temps_C for v in range(1, 4)
])
''',
        code='''
import statsmodels.formula.api as smf

stab["invT"] = 1 / (stab["T_C"] + 273.15)
stab["ln_k"] = np.log(stab["k_per_day"])
arr = smf.ols("ln_k ~ invT", data=stab).fit()
Ea_kJ = -arr.params["invT"] * 8.314 / 1000
ci = -arr.conf_int().loc["invT"] * 8.314 / 1000
print(f"Ea = {Ea_kJ:.1f} kJ/mol (95% CI {ci.iloc[1]:.1f} to {ci.iloc[0]:.1f}), "
      f"R2 = {arr.rsquared:.3f}, n = {int(arr.nobs)} vials")

# extrapolate k at 25 C; t90 = ln(100/90) / k
new = pd.DataFrame({"invT": [1 / 298.15]})
pr = arr.get_prediction(new).summary_frame(alpha=0.05)
k25 = np.exp(pr[["mean", "mean_ci_lower", "mean_ci_upper"]].iloc[0])
t90 = np.log(100 / 90) / k25
print(f"k(25 C) = {k25['mean']:.2e} /day; t90 = {t90['mean']:.0f} days "
      f"(95% CI {t90['mean_ci_upper']:.0f} to {t90['mean_ci_lower']:.0f})")
''',
        note="Arrhenius regression of ln k on 1/T over independent vials, activation energy and "
             "extrapolated 25 C shelf life reported with confidence intervals.",
        split="holdout33",
    ),
]
