from bench.critic_corpus import Case

SPLIT = "holdout30"

_RT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3141)
# visual detection (IBL-style wheel task), 4 mice pooled; rt_s = stim onset -> wheel threshold
contrasts = np.array([0.0625, 0.125, 0.25, 0.5, 1.0])
p_miss = {0.0625: 0.38, 0.125: 0.22, 0.25: 0.09, 0.5: 0.04, 1.0: 0.02}
rows = []
for mouse in ["CSHL_045", "CSHL_047", "NYU_011", "UCLA_033"]:
    c = rng.choice(contrasts, 600)
    rt = np.exp(rng.normal(-0.95 - 0.35 * np.log2(c / contrasts[0]) / 4, 0.35))
    miss = rng.random(600) < np.vectorize(p_miss.get)(c)
    rt = np.where(miss, -1.0, rt)            # rig writes -1 when no response in 60 s window
    rows.append(pd.DataFrame({"mouse": mouse, "contrast": c, "rt_s": rt.round(3)}))
det = pd.concat(rows, ignore_index=True)
det.sample(6, random_state=1)
'''

_RT_FLAWED = '''
summary = (det.groupby("contrast")["rt_s"]
           .agg(mean_rt="mean", sem=lambda x: x.std() / np.sqrt(len(x)), n="size")
           .round(3))
print(summary)
slope = np.polyfit(np.log2(summary.index), summary["mean_rt"], 1)[0]
print(f"\\nchronometric slope: {1000 * slope:+.0f} ms per contrast doubling")
'''

_RT_SOUND = '''
det["responded"] = det["rt_s"] >= 0          # -1 = no response within the window
print(f"no-response trials: {(~det.responded).sum()} of {len(det)} "
      f"({(~det.responded).mean():.1%}), excluded from RT statistics")
resp = det[det.responded]
summary = (resp.groupby("contrast")["rt_s"]
           .agg(mean_rt="mean", sem=lambda x: x.std() / np.sqrt(len(x)), n="size")
           .round(3))
summary["miss_rate"] = (1 - det.groupby("contrast")["responded"].mean()).round(3)
print(summary)
slope = np.polyfit(np.log2(summary.index), summary["mean_rt"], 1)[0]
print(f"\\nchronometric slope: {1000 * slope:+.0f} ms per contrast doubling")
'''

_ENC_SETUP = '''
import numpy as np

rng = np.random.default_rng(777)
# encoding of running speed (and its derivative) by neurons in several areas, 2-photon + treadmill
n_frames = 600
speed = np.clip(np.convolve(rng.normal(0, 1, n_frames), np.ones(25) / 5, "same") * 6 + 8,
                0, None)                                    # cm/s
accel = np.gradient(speed)
Xspeed = np.column_stack([speed, accel, speed ** 2 / 10])
areas = {"V1": 0.9, "RSP": 0.7, "PPC": 0.35, "CA1": 0.0, "ACC": 0.0}
dff = {}
for area, w in areas.items():
    n_cells = 20
    wts = rng.normal(0, 1, (3, n_cells)) * w * 0.05
    dff[area] = Xspeed @ wts + rng.normal(0, 0.4, (n_frames, n_cells)) \\
        + np.convolve(rng.normal(0, 0.12, n_frames), np.ones(40) / 8, "same")[:, None]
print({a: v.shape for a, v in dff.items()})
'''

_ENC_FLAWED = '''
from sklearn.linear_model import LinearRegression
from sklearn.metrics import r2_score
from sklearn.model_selection import KFold

def cv_r2_per_cell(X, Y, n_splits=5):
    """5-fold CV (contiguous blocks of frames), R^2 per cell averaged over folds"""
    out = []
    for tr, te in KFold(n_splits=n_splits).split(X):
        fit = LinearRegression().fit(X[tr], Y[tr])
        out.append(r2_score(Y[te], fit.predict(X[te]), multioutput="raw_values"))
    return np.mean(out, axis=0)

area_r2 = {area: cv_r2_per_cell(Xspeed, Y).mean() for area, Y in dff.items()}

print("variance in dF/F explained by running (5-fold CV), mean over cells:")
for area, r2 in sorted(area_r2.items(), key=lambda kv: -kv[1]):
    print(f"  {area:4s} {100 * r2:6.1f} %")
print(f"\\nacross all areas: {100 * np.mean(list(area_r2.values())):.1f} % of variance "
      f"explained by locomotion")
'''

_ENC_SOUND = '''
from sklearn.linear_model import LinearRegression
from sklearn.metrics import r2_score
from sklearn.model_selection import KFold

def cv_r2_per_cell(X, Y, n_splits=5):
    """5-fold CV (contiguous blocks of frames), R^2 per cell averaged over folds"""
    out = []
    for tr, te in KFold(n_splits=n_splits).split(X):
        fit = LinearRegression().fit(X[tr], Y[tr])
        out.append(r2_score(Y[te], fit.predict(X[te]), multioutput="raw_values"))
    return np.mean(out, axis=0)

area_r2, area_frac = {}, {}
for area, Y in dff.items():
    r2_cells = cv_r2_per_cell(Xspeed, Y)
    area_r2[area] = np.median(r2_cells)
    area_frac[area] = np.mean(r2_cells > 0)

print("cross-validated R^2 of the running model (median over cells); R^2 <= 0 means the")
print("model predicts held-out dF/F no better than the held-out mean, i.e. no encoding")
for area, r2 in sorted(area_r2.items(), key=lambda kv: -kv[1]):
    verdict = "encodes running" if r2 > 0 else "no predictive encoding"
    print(f"  {area:4s} median cvR2 = {r2:+.3f}  cells with cvR2 > 0: {area_frac[area]:.0%}  "
          f"-> {verdict}")
'''

CASES: list[Case] = [
    Case(
        id="h30-susp-rt-miss-code-averaged",
        family="suspicious_values",
        setup=_RT_SETUP,
        code=_RT_FLAWED,
        twin="h30-susp-rt-miss-code-averaged-ok",
        note="No-response trials carry rt_s = -1 and are averaged into mean RT; the low-contrast "
             "means are dragged toward or below zero and the chronometric slope flips.",
        split=SPLIT,
    ),
    Case(
        id="h30-susp-rt-miss-code-averaged-ok",
        family=None,
        setup=_RT_SETUP,
        code=_RT_SOUND,
        twin="h30-susp-rt-miss-code-averaged",
        note="The -1 no-response code is excluded (and counted) before RT is averaged; miss "
             "rate is reported separately.",
        split=SPLIT,
    ),
    Case(
        id="h30-susp-negative-cv-r2-as-variance",
        family="suspicious_values",
        setup=_ENC_SETUP,
        code=_ENC_FLAWED,
        twin="h30-susp-negative-cv-r2-as-variance-ok",
        note="Negative cross-validated R^2 values are printed as '% of variance explained' and "
             "averaged into an across-area figure without comment.",
        split=SPLIT,
    ),
    Case(
        id="h30-susp-negative-cv-r2-as-variance-ok",
        family=None,
        setup=_ENC_SETUP,
        code=_ENC_SOUND,
        twin="h30-susp-negative-cv-r2-as-variance",
        note="cvR^2 per area is reported with the reading that values <= 0 mean no predictive "
             "encoding; no pooled 'variance explained'.",
        split=SPLIT,
    ),
]
