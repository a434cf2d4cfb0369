from bench.critic_corpus import Case

_ICE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3461)
yrs = np.arange(1979, 2024)
# NSIDC-style September Arctic sea-ice extent (10^6 km2) and the Valentia-like station
# October-March precipitation total (mm); both drift over the period, independently
sie = 7.4 - 0.078 * (yrs - 1979) + rng.normal(0, 0.42, len(yrs))
sie[yrs == 2012] -= 0.9
pr_ondjfm = 820 + 4.1 * (yrs - 1979) + rng.normal(0, 95, len(yrs))
annual = pd.DataFrame({"sie_sep_mkm2": sie.round(2), "pr_ondjfm_mm": pr_ondjfm.round(0)},
                      index=pd.Index(yrs, name="year"))
'''

_ICE_FLAWED = '''
from scipy.stats import pearsonr

r, p = pearsonr(annual.sie_sep_mkm2, annual.pr_ondjfm_mm)
print(f"Sep SIE vs following Oct-Mar precip, 1979-2023: r = {r:.2f}, p = {p:.1e}, "
      f"n = {len(annual)}")
print("-> lower Arctic ice extent is followed by wetter winters at the station")
'''

_ICE_SOUND = '''
from scipy.signal import detrend
from scipy.stats import pearsonr

# both series carry a 1979-2023 trend; correlate the interannual anomalies instead
sie_d = detrend(annual.sie_sep_mkm2.to_numpy())
pr_d = detrend(annual.pr_ondjfm_mm.to_numpy())
r_raw = annual.sie_sep_mkm2.corr(annual.pr_ondjfm_mm)
r, p = pearsonr(sie_d, pr_d)
lag1 = lambda x: np.corrcoef(x[:-1], x[1:])[0, 1]
print(f"raw r = {r_raw:.2f} (shared trend)")
print(f"detrended: r = {r:.2f}, p = {p:.2f}, n = {len(annual)}  "
      f"(lag-1 autocorr {lag1(sie_d):.2f} / {lag1(pr_d):.2f})")
'''

_QPE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3462)
gauges = [f"G{i:03d}" for i in range(1, 41)]
days = pd.date_range("2023-10-01", "2024-03-31", freq="D")
rows = []
for g in gauges:
    wet = rng.random(len(days)) < 0.42
    gauge = np.where(wet, rng.gamma(0.9, 7.5, len(days)), 0.0)
    radar = 0.72 * gauge * np.exp(rng.normal(0, 0.22, len(days))) + 0.3 * wet
    rows.append(pd.DataFrame({"date": days, "gauge_id": g, "gauge_mm": gauge.round(1),
                              "radar_mm": radar.round(1)}))
qpe = pd.concat(rows, ignore_index=True)
qpe = qpe[qpe.gauge_mm + qpe.radar_mm > 0]          # dry-dry days dropped at export
'''

_QPE_FLAWED = '''
import matplotlib.pyplot as plt

r = qpe[["gauge_mm", "radar_mm"]].corr().iloc[0, 1]
fig, ax = plt.subplots(figsize=(4, 4))
ax.scatter(qpe.gauge_mm, qpe.radar_mm, s=3, alpha=0.3)
ax.plot([0, 60], [0, 60], "k--", lw=0.8)
ax.set(xlabel="gauge (mm/day)", ylabel="radar QPE (mm/day)", title=f"r = {r:.3f}")
print(f"{qpe.gauge_id.nunique()} gauges, {len(qpe)} gauge-days: r = {r:.3f}, R2 = {r**2:.3f}")
print("radar QPE agrees closely with the gauges -> usable in place of gauges for the basin")
'''

_QPE_SOUND = '''
import matplotlib.pyplot as plt

# agreement, not just association: bias and limits of agreement of radar vs gauge
r = qpe[["gauge_mm", "radar_mm"]].corr().iloc[0, 1]
diff = qpe.radar_mm - qpe.gauge_mm
bias_ratio = qpe.radar_mm.sum() / qpe.gauge_mm.sum()
loa = diff.mean() + np.array([-1.96, 1.96]) * diff.std()
fig, ax = plt.subplots(figsize=(5, 3.5))
ax.scatter((qpe.gauge_mm + qpe.radar_mm) / 2, diff, s=3, alpha=0.3)
ax.axhline(diff.mean(), color="k")
for v in loa:
    ax.axhline(v, color="k", ls="--", lw=0.8)
ax.set(xlabel="mean of radar and gauge (mm/day)", ylabel="radar - gauge (mm/day)")
print(f"{qpe.gauge_id.nunique()} gauges, {len(qpe)} gauge-days: r = {r:.3f}")
print(f"radar/gauge total ratio = {bias_ratio:.2f};  mean diff = {diff.mean():+.2f} mm/day, "
      f"95% LoA [{loa[0]:+.2f}, {loa[1]:+.2f}]")
'''

CASES: list[Case] = [
    Case(
        id="h34-corr-seaice-winter-precip-trends",
        family="correlation_misuse",
        setup=_ICE_SETUP,
        code=_ICE_FLAWED,
        twin="h34-corr-seaice-winter-precip-detrended",
        note="Pearson r between two independently trending annual series is read as a physical "
             "link; the correlation comes from the shared 1979-2023 trends",
        split="holdout34",
    ),
    Case(
        id="h34-corr-seaice-winter-precip-detrended",
        family=None,
        setup=_ICE_SETUP,
        code=_ICE_SOUND,
        twin="h34-corr-seaice-winter-precip-trends",
        note="both series detrended before correlating; raw r shown only as the trend artefact",
        split="holdout34",
    ),
    Case(
        id="h34-corr-radar-gauge-r-as-agreement",
        family="correlation_misuse",
        setup=_QPE_SETUP,
        code=_QPE_FLAWED,
        twin="h34-corr-radar-gauge-bias-loa",
        note="a high Pearson r is taken as agreement although radar underestimates gauges by "
             "about 20% (visible against the 1:1 line)",
        split="holdout34",
    ),
    Case(
        id="h34-corr-radar-gauge-bias-loa",
        family=None,
        setup=_QPE_SETUP,
        code=_QPE_SOUND,
        twin="h34-corr-radar-gauge-r-as-agreement",
        note="agreement judged with bias ratio and Bland-Altman limits, r reported only as "
             "association",
        split="holdout34",
    ),
]
