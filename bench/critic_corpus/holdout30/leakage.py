from bench.critic_corpus import Case

SPLIT = "holdout30"

_PFC_SETUP = '''
import numpy as np

rng = np.random.default_rng(4107)
n_units, n_trials = 85, 260
# mPFC population (Neuropixels, 4 sessions pooled after matching units across days),
# spike counts in the 0-500 ms window after the choice poke
outcome = (rng.random(n_trials) > 0.16).astype(int)      # 1 = rewarded, 0 = error
base_rate = rng.gamma(2.0, 3.0, size=n_units)             # Hz
outcome_gain = rng.normal(0, 0.06, size=n_units)
rates = base_rate[None, :] * np.exp(outcome_gain[None, :] * (outcome[:, None] - 0.5))
spk = rng.poisson(rates * 0.5)
print(spk.shape, "trials x units;", (outcome == 0).sum(), "error trials")
'''

_PFC_FLAWED = '''
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils import resample

X = np.sqrt(spk)  # variance-stabilise the counts
y = outcome
print("trials per class before balancing:", np.bincount(y))

# error trials are rare -> upsample them so the decoder can't just say "rewarded"
err_idx = np.flatnonzero(y == 0)
rew_idx = np.flatnonzero(y == 1)
err_up = resample(err_idx, replace=True, n_samples=len(rew_idx), random_state=0)
bal_idx = np.concatenate([rew_idx, err_up])
X_bal, y_bal = X[bal_idx], y[bal_idx]
print("after balancing:", np.bincount(y_bal))

clf = make_pipeline(StandardScaler(), LogisticRegression(C=1.0, max_iter=2000))
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
acc = cross_val_score(clf, X_bal, y_bal, cv=cv, scoring="balanced_accuracy")
print(f"outcome decoding, mPFC: {acc.mean():.3f} +/- {acc.std():.3f} (chance = 0.5)")
'''

_PFC_SOUND = '''
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import balanced_accuracy_score
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils import resample

X = np.sqrt(spk)  # variance-stabilise the counts
y = outcome
print("trials per class:", np.bincount(y))

cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
acc = []
for k, (tr, te) in enumerate(cv.split(X, y)):
    # upsample the rare error trials inside the training fold only;
    # the test fold keeps its original, unduplicated trials
    err_tr = tr[y[tr] == 0]
    rew_tr = tr[y[tr] == 1]
    err_up = resample(err_tr, replace=True, n_samples=len(rew_tr), random_state=k)
    tr_bal = np.concatenate([rew_tr, err_up])
    clf = make_pipeline(StandardScaler(), LogisticRegression(C=1.0, max_iter=2000))
    clf.fit(X[tr_bal], y[tr_bal])
    acc.append(balanced_accuracy_score(y[te], clf.predict(X[te])))
acc = np.array(acc)
print(f"outcome decoding, mPFC: {acc.mean():.3f} +/- {acc.std():.3f} (chance = 0.5)")
'''

_ROI_SETUP = '''
import numpy as np

rng = np.random.default_rng(2291)
n_rois, n_trials = 1200, 96
trial_type = np.array(["go", "nogo"] * (n_trials // 2))
rng.shuffle(trial_type)
# mean dF/F in the 0-1 s response window, trials x ROIs (suite2p, neuropil-corrected)
dff_resp = rng.normal(0.02, 0.15, size=(n_trials, n_rois))
go_cells = rng.choice(n_rois, 8, replace=False)
dff_resp[np.ix_(trial_type == "go", go_cells)] += 0.10
print(f"FOV: {n_rois} ROIs, {n_trials} trials ({(trial_type == 'go').sum()} go)")
'''

_ROI_FLAWED = '''
from scipy import stats
from sklearn.model_selection import StratifiedKFold
from sklearn.svm import LinearSVC

y = (trial_type == "go").astype(int)

# task-responsive ROIs: go vs no-go t-test on every ROI
t, p = stats.ttest_ind(dff_resp[y == 1], dff_resp[y == 0], axis=0)
top = np.argsort(p)[:40]
print(f"{(p < 0.01).sum()} ROIs with p < 0.01; keeping the top {len(top)} for decoding")

X = dff_resp[:, top]
skf = StratifiedKFold(n_splits=8, shuffle=True, random_state=1)
fold_acc = []
for tr, te in skf.split(X, y):
    svm = LinearSVC(C=0.5, max_iter=5000).fit(X[tr], y[tr])
    fold_acc.append((svm.predict(X[te]) == y[te]).mean())
fold_acc = np.array(fold_acc)
print("fold accuracies:", np.round(fold_acc, 2))
print(f"go/no-go decoding from top-{len(top)} ROIs: {fold_acc.mean():.1%}")
'''

_ROI_SOUND = '''
from scipy import stats
from sklearn.model_selection import StratifiedKFold
from sklearn.svm import LinearSVC

y = (trial_type == "go").astype(int)

skf = StratifiedKFold(n_splits=8, shuffle=True, random_state=1)
fold_acc, n_p01 = [], []
for tr, te in skf.split(dff_resp, y):
    # pick the task-responsive ROIs from the training trials of this fold only
    Xtr = dff_resp[tr]
    t, p = stats.ttest_ind(Xtr[y[tr] == 1], Xtr[y[tr] == 0], axis=0)
    top = np.argsort(p)[:40]
    n_p01.append((p < 0.01).sum())
    svm = LinearSVC(C=0.5, max_iter=5000).fit(Xtr[:, top], y[tr])
    fold_acc.append((svm.predict(dff_resp[te][:, top]) == y[te]).mean())
fold_acc = np.array(fold_acc)
print(f"ROIs with p < 0.01 per training fold: {np.round(np.mean(n_p01), 1)} on average")
print("fold accuracies:", np.round(fold_acc, 2))
print(f"go/no-go decoding from top-40 ROIs (selected within folds): {fold_acc.mean():.1%}")
'''

CASES: list[Case] = [
    Case(
        id="h30-leak-upsampled-error-trials",
        family="leakage",
        setup=_PFC_SETUP,
        code=_PFC_FLAWED,
        twin="h30-leak-upsampled-error-trials-ok",
        note="Error trials are upsampled with replacement before cross-validation, so copies "
             "of the same trial land in train and test folds and inflate decoding accuracy.",
        split=SPLIT,
    ),
    Case(
        id="h30-leak-upsampled-error-trials-ok",
        family=None,
        setup=_PFC_SETUP,
        code=_PFC_SOUND,
        twin="h30-leak-upsampled-error-trials",
        note="Upsampling of error trials is done inside each training fold; test folds hold "
             "original trials only and are scored with balanced accuracy.",
        split=SPLIT,
    ),
    Case(
        id="h30-leak-responsive-roi-selection",
        family="leakage",
        setup=_ROI_SETUP,
        code=_ROI_FLAWED,
        twin="h30-leak-responsive-roi-selection-ok",
        note="Go-selective ROIs are picked by t-tests on all trials, then the decoder is "
             "cross-validated on those ROIs: the test trials chose the features.",
        split=SPLIT,
    ),
    Case(
        id="h30-leak-responsive-roi-selection-ok",
        family=None,
        setup=_ROI_SETUP,
        code=_ROI_SOUND,
        twin="h30-leak-responsive-roi-selection",
        note="ROI selection by t-test is redone inside each fold on training trials only, so "
             "the held-out accuracy is honest.",
        split=SPLIT,
    ),
]
