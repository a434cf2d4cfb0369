from bench.critic_corpus import Case

SPLIT = "holdout30"

_DET_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(731)
rows = []
for m, mouse in enumerate(["VG112", "VG113", "VG115", "VG118", "VG121", "VG124"]):
    n = int(rng.integers(320, 460))
    contrast = rng.choice([0.0, 0.02, 0.05, 0.1, 0.25, 1.0], size=n)
    pupil = rng.normal(0, 1, n).cumsum() * 0.05 + rng.normal(0, 0.4, n)   # z-scored
    run = np.clip(rng.gamma(1.2, 4.0, n) - 2, 0, None)                     # cm/s pre-stim
    logit = -1.2 + 3.5 * np.sqrt(contrast) + 0.35 * pupil - 0.04 * run + rng.normal(0, .3)
    hit = rng.random(n) < 1 / (1 + np.exp(-logit))
    rows.append(pd.DataFrame({
        "mouse": mouse,
        "trial": np.arange(n),
        "contrast": contrast,
        "pupil_prestim_z": pupil.round(3),
        "run_speed_prestim": run.round(2),
        "prev_hit": np.r_[0, hit[:-1]].astype(int),
        "reward_ul": np.where(hit, rng.choice([2.0, 2.5], n), 0.0),
        "hit": hit.astype(int),
    }))
trials = pd.concat(rows, ignore_index=True)
trials.head()
'''

_DET_FLAWED = '''
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

feats = ["contrast", "pupil_prestim_z", "run_speed_prestim", "prev_hit", "trial", "reward_ul"]
X = trials[feats].to_numpy()
y = trials["hit"].to_numpy()
groups = trials["mouse"].to_numpy()

clf = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
auc = cross_val_score(clf, X, y, groups=groups, cv=GroupKFold(n_splits=6), scoring="roc_auc")
print("leave-one-mouse-out AUC per mouse:", np.round(auc, 3))
print(f"mean AUC = {auc.mean():.3f}")

clf.fit(X, y)
coefs = pd.Series(clf[-1].coef_[0], index=feats)
print("standardised log-odds coefficients:")
print(coefs.reindex(coefs.abs().sort_values(ascending=False).index).round(3).to_string())
'''

_DET_SOUND = '''
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

# only what is known before the stimulus comes on (reward_ul is set by the outcome)
feats = ["contrast", "pupil_prestim_z", "run_speed_prestim", "prev_hit", "trial"]
X = trials[feats].to_numpy()
y = trials["hit"].to_numpy()
groups = trials["mouse"].to_numpy()

clf = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
auc = cross_val_score(clf, X, y, groups=groups, cv=GroupKFold(n_splits=6), scoring="roc_auc")
print("leave-one-mouse-out AUC per mouse:", np.round(auc, 3))
print(f"mean AUC = {auc.mean():.3f}")

clf.fit(X, y)
coefs = pd.Series(clf[-1].coef_[0], index=feats)
print("standardised log-odds coefficients:")
print(coefs.reindex(coefs.abs().sort_values(ascending=False).index).round(3).to_string())
'''

_M1_SETUP = '''
import numpy as np

rng = np.random.default_rng(58)
n_trials, n_units = 310, 48
# monkey M1 array, delayed lever-release task. rate in the last 300 ms of the delay (Hz)
latent = rng.normal(0, 1, n_trials)                 # "preparedness"
load = rng.normal(0, 1, n_units) * 0.6
fr_delay = np.clip(12 + 4 * rng.normal(0, 1, (n_trials, n_units))
                   + np.outer(latent, load) * 3, 0, None)
rt_ms = 320 - 28 * latent + rng.gamma(4, 12, n_trials)          # go cue -> lever release
emg_onset_ms = rt_ms - rng.normal(62, 6, n_trials)               # EDC EMG burst onset
print(fr_delay.shape, f"RT {rt_ms.mean():.0f} +/- {rt_ms.std():.0f} ms")
'''

_M1_FLAWED = '''
from sklearn.linear_model import RidgeCV
from sklearn.model_selection import KFold, cross_val_predict

# predictors: delay-period rates of every unit + EMG onset + trial number
X = np.column_stack([fr_delay, emg_onset_ms, np.arange(n_trials)])
names = [f"u{i:02d}" for i in range(n_units)] + ["emg_onset_ms", "trial_idx"]
X = (X - X.mean(0)) / X.std(0)

model = RidgeCV(alphas=np.logspace(-2, 3, 20))
pred = cross_val_predict(model, X, rt_ms, cv=KFold(5, shuffle=True, random_state=3))
r2 = 1 - np.sum((rt_ms - pred) ** 2) / np.sum((rt_ms - rt_ms.mean()) ** 2)
print(f"5-fold CV R^2 for RT from preparatory activity: {r2:.3f}")

model.fit(X, rt_ms)
top = np.argsort(-np.abs(model.coef_))[:5]
for i in top:
    print(f"  {names[i]:>13s}  beta = {model.coef_[i]:7.2f} ms/SD")
'''

_M1_SOUND = '''
from sklearn.linear_model import RidgeCV
from sklearn.model_selection import KFold, cross_val_predict

# predictors: delay-period rates of every unit + trial number (nothing measured after the go cue)
X = np.column_stack([fr_delay, np.arange(n_trials)])
names = [f"u{i:02d}" for i in range(n_units)] + ["trial_idx"]

model = RidgeCV(alphas=np.logspace(-2, 3, 20))
cv = KFold(5, shuffle=True, random_state=3)
pred = np.empty(n_trials)
for tr, te in cv.split(X):
    mu, sd = X[tr].mean(0), X[tr].std(0)
    model.fit((X[tr] - mu) / sd, rt_ms[tr])
    pred[te] = model.predict((X[te] - mu) / sd)
r2 = 1 - np.sum((rt_ms - pred) ** 2) / np.sum((rt_ms - rt_ms.mean()) ** 2)
print(f"5-fold CV R^2 for RT from preparatory activity: {r2:.3f}")

model.fit((X - X.mean(0)) / X.std(0), rt_ms)
top = np.argsort(-np.abs(model.coef_))[:5]
for i in top:
    print(f"  {names[i]:>13s}  beta = {model.coef_[i]:7.2f} ms/SD")
'''

CASES: list[Case] = [
    Case(
        id="h30-tleak-reward-volume-predicts-hit",
        family="target_leakage",
        setup=_DET_SETUP,
        code=_DET_FLAWED,
        twin="h30-tleak-reward-volume-predicts-hit-ok",
        note="reward_ul (water delivered) is only nonzero on hit trials, so the 'pre-stimulus' "
             "hit predictor is fed the outcome itself.",
        split=SPLIT,
    ),
    Case(
        id="h30-tleak-reward-volume-predicts-hit-ok",
        family=None,
        setup=_DET_SETUP,
        code=_DET_SOUND,
        twin="h30-tleak-reward-volume-predicts-hit",
        note="Only pre-stimulus variables are used, with leave-one-mouse-out cross-validation.",
        split=SPLIT,
    ),
    Case(
        id="h30-tleak-emg-onset-predicts-rt",
        family="target_leakage",
        setup=_M1_SETUP,
        code=_M1_FLAWED,
        twin="h30-tleak-emg-onset-predicts-rt-ok",
        note="EMG onset is measured after the go cue and is RT minus a ~60 ms delay, so "
             "including it makes 'preparatory activity' look like it predicts RT almost fully.",
        split=SPLIT,
    ),
    Case(
        id="h30-tleak-emg-onset-predicts-rt-ok",
        family=None,
        setup=_M1_SETUP,
        code=_M1_SOUND,
        twin="h30-tleak-emg-onset-predicts-rt",
        note="Only delay-period rates and trial index predict RT, standardised within folds.",
        split=SPLIT,
    ),
]
