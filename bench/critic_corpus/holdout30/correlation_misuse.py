from bench.critic_corpus import Case

SPLIT = "holdout30"

_AREA_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(515)
# visual response latency (ms) of units across visual areas, drifting-grating onset
# (one mouse, 6 Neuropixels probes, single session)
true_lat = {"VISp": 42, "VISl": 48, "VISrl": 47, "VISal": 50, "VISpm": 55, "VISam": 58,
            "LGd": 32, "LP": 52}
rows = []
for area, mu in true_lat.items():
    n = int(rng.integers(40, 110))
    lat = mu + rng.gamma(3, 5, n) - 15
    rows.append(pd.DataFrame({"area": area, "latency_ms": lat.round(1)}))
lat_df = pd.concat(rows, ignore_index=True).sample(frac=1, random_state=0)
lat_df["area"] = lat_df["area"].astype("category")
lat_df.groupby("area", observed=True).latency_ms.describe().round(1)
'''

_AREA_FLAWED = '''
from scipy import stats

lat_df["area_code"] = lat_df["area"].cat.codes
print(dict(enumerate(lat_df["area"].cat.categories)))
r, p = stats.pearsonr(lat_df["area_code"], lat_df["latency_ms"])
print(f"latency vs area: Pearson r = {r:.3f}, p = {p:.2g}, n = {len(lat_df)} units")
print(f"=> response latency {'increases' if r > 0 else 'decreases'} systematically across "
      f"areas (r^2 = {r ** 2:.1%} of latency variance)")
'''

_AREA_SOUND = '''
from scipy import stats

groups = {a: g.to_numpy() for a, g in lat_df.groupby("area", observed=True).latency_ms}
H, p = stats.kruskal(*groups.values())
med = pd.Series({a: np.median(v) for a, v in groups.items()}).sort_values()
print("median latency (ms) by area:")
print(med.round(1).to_string())
eps2 = (H - len(groups) + 1) / (len(lat_df) - len(groups))
print(f"\\nKruskal-Wallis across {len(groups)} areas: H = {H:.1f}, p = {p:.2g}, "
      f"epsilon^2 = {eps2:.2f}")
'''

_DRIFT_SETUP = '''
import numpy as np

rng = np.random.default_rng(2718)
n_trials = 900
t = np.arange(n_trials)
# session-long drifts: the mouse gets sated / sleepy, and the probe drifts slowly
arousal_slow = 1.2 * np.exp(-t / 350) + 0.15 * np.sin(t / 90)
pupil_fast = rng.normal(0, 0.06, n_trials)
pupil_mm = 1.1 + 0.35 * arousal_slow + pupil_fast
probe_drift = -0.004 * t
pop_rate = (14 + 3.0 * np.exp(-t / 420) + probe_drift + 5.0 * pupil_fast
            + rng.normal(0, 0.9, n_trials))
print(f"{n_trials} trials; pupil {pupil_mm.mean():.2f} mm, pop rate {pop_rate.mean():.1f} Hz")
'''

_DRIFT_FLAWED = '''
from scipy import stats

r, p = stats.pearsonr(pupil_mm, pop_rate)
print(f"trial-by-trial pupil vs V1 population rate: r = {r:.2f} (p = {p:.1e}, n = {n_trials})")
print(f"pupil-linked arousal accounts for {r ** 2:.0%} of trial-to-trial variability "
      f"in population activity")
'''

_DRIFT_SOUND = '''
from scipy import stats

def highpass(x, win=51):
    """subtract a centred running mean to remove slow session drift"""
    k = np.ones(win) / win
    xp = np.pad(x, win // 2, mode="reflect")
    return x - np.convolve(xp, k, mode="valid")

pupil_hp, rate_hp = highpass(pupil_mm), highpass(pop_rate)
r_raw = np.corrcoef(pupil_mm, pop_rate)[0, 1]
r = np.corrcoef(pupil_hp, rate_hp)[0, 1]

# null from circular shifts of one series (keeps each series' autocorrelation)
rng_null = np.random.default_rng(0)
shifts = rng_null.integers(100, n_trials - 100, 2000)
null = np.array([np.corrcoef(np.roll(pupil_hp, s), rate_hp)[0, 1] for s in shifts])
p = (np.sum(np.abs(null) >= abs(r)) + 1) / (len(null) + 1)
print(f"raw r = {r_raw:.2f} (dominated by slow drift in both signals, not interpreted)")
print(f"detrended trial-by-trial pupil vs V1 population rate: r = {r:.2f}, "
      f"circular-shift p = {p:.4f}")
'''

CASES: list[Case] = [
    Case(
        id="h30-corr-latency-vs-area-code",
        family="correlation_misuse",
        setup=_AREA_SETUP,
        code=_AREA_FLAWED,
        twin="h30-corr-latency-vs-area-code-ok",
        note="Pearson r between latency and the integer category codes of brain areas "
             "(alphabetical order); the codes are nominal, so r and 'increases' mean nothing.",
        split=SPLIT,
    ),
    Case(
        id="h30-corr-latency-vs-area-code-ok",
        family=None,
        setup=_AREA_SETUP,
        code=_AREA_SOUND,
        twin="h30-corr-latency-vs-area-code",
        note="Latency is compared across areas as a nominal factor with Kruskal-Wallis and "
             "per-area medians.",
        split=SPLIT,
    ),
    Case(
        id="h30-corr-pupil-rate-session-drift",
        family="correlation_misuse",
        setup=_DRIFT_SETUP,
        code=_DRIFT_FLAWED,
        twin="h30-corr-pupil-rate-session-drift-ok",
        note="Pearson r between two series that both drift over the session; the correlation "
             "reflects shared slow trends, not trial-by-trial coupling.",
        split=SPLIT,
    ),
    Case(
        id="h30-corr-pupil-rate-session-drift-ok",
        family=None,
        setup=_DRIFT_SETUP,
        code=_DRIFT_SOUND,
        twin="h30-corr-pupil-rate-session-drift",
        note="Both series are high-pass filtered before correlating and significance comes "
             "from a circular-shift null that keeps autocorrelation.",
        split=SPLIT,
    ),
]
