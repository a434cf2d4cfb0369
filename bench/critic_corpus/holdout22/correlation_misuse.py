from bench.critic_corpus import Case

_GAUGE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(250)
n = 60
true_d = 25.000 + rng.normal(0, 0.018, n)           # bore diameter, mm
df_g = pd.DataFrame({
    "part_sn": [f"HB-{5200 + i}" for i in range(n)],
    "cmm_ref_mm": (true_d + rng.normal(0, 0.0015, n)).round(4),
    # new in-line air gauge: offset + gain error from the master ring setting
    "air_gauge_mm": (25.000 + 0.011 + 1.12 * (true_d - 25.000)
                     + rng.normal(0, 0.0025, n)).round(4),
})
TOL_MM = 0.050   # drawing tolerance +/- 0.050 mm
'''

_GAUGE_FLAWED = '''
from scipy.stats import pearsonr

r, p = pearsonr(df_g.cmm_ref_mm, df_g.air_gauge_mm)
print(f"parts measured on both: {len(df_g)}")
print(f"CMM vs air gauge: r = {r:.4f} (r^2 = {r*r:.4f}), p = {p:.1e}")
if r > 0.95:
    print("air gauge agrees with the CMM -> use it for 100% in-line bore inspection")
'''

_GAUGE_SOUND = '''
from scipy import stats

d = df_g.air_gauge_mm - df_g.cmm_ref_mm
avg = (df_g.air_gauge_mm + df_g.cmm_ref_mm) / 2
bias, sd_d = d.mean(), d.std(ddof=1)
loa = (bias - 1.96 * sd_d, bias + 1.96 * sd_d)
t, p_bias = stats.ttest_1samp(d, 0.0)
slope = stats.linregress(avg, d)          # proportional bias (Bland-Altman)
print(f"parts measured on both: {len(df_g)}")
print(f"bias (air - CMM) = {1000 * bias:+.1f} um, p = {p_bias:.1e}")
print(f"95% limits of agreement: {1000 * loa[0]:+.1f} .. {1000 * loa[1]:+.1f} um "
      f"(tolerance +/- {1000 * TOL_MM:.0f} um)")
print(f"proportional bias: slope of diff on mean = {slope.slope:.3f}, p = {slope.pvalue:.1e}")
if abs(bias) > 0.1 * TOL_MM or slope.pvalue < 0.05:
    print("air gauge does not agree with CMM -> remaster / correct gain before release")
'''

_N2_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(88)
days = pd.date_range("2022-07-01", "2024-06-30", freq="D")
n = len(days)
t = np.arange(n)
df_d = pd.DataFrame({
    # N2 O2-impurity reading: slow analyser drift + daily noise
    "n2_o2_ppm": 1.8 + 0.0016 * t + np.cumsum(rng.normal(0, 0.02, n)) + rng.normal(0, 0.08, n),
    # reflow line scrap: improving with continuous-improvement projects
    "scrap_pct": 3.4 - 0.0021 * t + np.cumsum(rng.normal(0, 0.015, n)) + rng.normal(0, 0.25, n),
    "boards_built": rng.poisson(5200, n),
}, index=days)
df_d = df_d.round(3)
'''

_N2_FLAWED = '''
from scipy.stats import pearsonr

wk = df_d.resample("W").agg({"n2_o2_ppm": "mean", "scrap_pct": "mean", "boards_built": "sum"})
r, p = pearsonr(wk.n2_o2_ppm, wk.scrap_pct)
print(f"weeks: {len(wk)}   r(N2 O2 ppm, scrap %) = {r:.2f}, p = {p:.1e}")
print("strong link between N2 purity and reflow scrap -> include N2 ppm in scrap model")
wk[["n2_o2_ppm", "scrap_pct"]].corr().round(3)
'''

_N2_SOUND = '''
from scipy.stats import pearsonr

wk = df_d.resample("W").agg({"n2_o2_ppm": "mean", "scrap_pct": "mean", "boards_built": "sum"})
# both series trend over the two years -> compare week-to-week changes, not levels
dwk = wk[["n2_o2_ppm", "scrap_pct"]].diff().dropna()
print(f"weekly rows: {len(wk)}, differenced rows: {len(dwk)} (first week has no diff)")
r, p = pearsonr(dwk.n2_o2_ppm, dwk.scrap_pct)
print(f"r(d N2 O2 ppm, d scrap %) = {r:.2f}, p = {p:.2f}")
print("no week-to-week link between N2 purity and reflow scrap")
dwk.corr().round(3)
'''

CASES: list[Case] = [
    Case(
        id="h22-corr-air-gauge-vs-cmm-agreement",
        family="correlation_misuse",
        code=_GAUGE_FLAWED,
        setup=_GAUGE_SETUP,
        twin="h22-corr-air-gauge-vs-cmm-agreement-sound",
        note="Pearson r between air gauge and CMM used to claim the gauges agree; r ignores the "
             "11 um offset and 12% gain error that the data contain",
        split="holdout22",
    ),
    Case(
        id="h22-corr-air-gauge-vs-cmm-agreement-sound",
        family=None,
        code=_GAUGE_SOUND,
        setup=_GAUGE_SETUP,
        twin="h22-corr-air-gauge-vs-cmm-agreement",
        note="Bland-Altman bias, limits of agreement and proportional bias against tolerance",
        split="holdout22",
    ),
    Case(
        id="h22-corr-n2-purity-scrap-trending",
        family="correlation_misuse",
        code=_N2_FLAWED,
        setup=_N2_SETUP,
        twin="h22-corr-n2-purity-scrap-trending-sound",
        note="Pearson r on two years of weekly levels of two independently trending series; "
             "the strong r is a shared time trend, not a link",
        split="holdout22",
    ),
    Case(
        id="h22-corr-n2-purity-scrap-trending-sound",
        family=None,
        code=_N2_SOUND,
        setup=_N2_SETUP,
        twin="h22-corr-n2-purity-scrap-trending",
        note="correlates week-over-week differences of the trending series",
        split="holdout22",
    ),
]
