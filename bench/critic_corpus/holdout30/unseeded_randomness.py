from bench.critic_corpus import Case

SPLIT = "holdout30"

_SPLITTER_SETUP = '''
import numpy as np

rng = np.random.default_rng(1618)
# CA1 tetrodes, continuous T-maze alternation; firing rate (Hz) on the central stem,
# trials labelled by the upcoming turn ("splitter cell" analysis)
n_trials, n_cells = 64, 35
turn = np.tile([0, 1], n_trials // 2)                  # 0 = left, 1 = right
field_rate = rng.gamma(2, 2.5, n_cells)
split_idx = rng.normal(0, 0.07, n_cells)
stem_fr = rng.gamma(4, (field_rate * np.exp(np.outer(turn - 0.5, split_idx))) / 4)
print(stem_fr.shape, "trials x cells; left/right:", np.bincount(turn))
'''

_SPLITTER_FLAWED = '''
def _rowcorr(A, B):
    A = A - A.mean(1, keepdims=True)
    B = B - B.mean(1, keepdims=True)
    return (A * B).sum(1) / np.sqrt((A ** 2).sum(1) * (B ** 2).sum(1))

def loo_centroid_acc(X, y):
    """leave-one-out nearest-centroid decoder (correlation distance), vectorised"""
    Z = (X - X.mean(0)) / X.std(0)
    n = np.bincount(y, minlength=2)
    S = np.stack([Z[y == 0].sum(0), Z[y == 1].sum(0)])
    # centroid of each class with the held-out trial removed from its own class
    C0 = np.where((y == 0)[:, None], (S[0] - Z) / (n[0] - 1), S[0] / n[0])
    C1 = np.where((y == 1)[:, None], (S[1] - Z) / (n[1] - 1), S[1] / n[1])
    pred = (_rowcorr(Z, C1) > _rowcorr(Z, C0)).astype(int)
    return np.mean(pred == y)

acc = loo_centroid_acc(stem_fr, turn)
n_perm = 500
null = np.array([loo_centroid_acc(stem_fr, np.random.permutation(turn)) for _ in range(n_perm)])
p = (np.sum(null >= acc) + 1) / (n_perm + 1)
print(f"upcoming-turn decoding on the stem: {acc:.3f} (null {null.mean():.3f} "
      f"+/- {null.std():.3f})")
print(f"permutation p = {p:.4f} -> {'splitter coding' if p < 0.05 else 'n.s.'}")
'''

_SPLITTER_SOUND = '''
def _rowcorr(A, B):
    A = A - A.mean(1, keepdims=True)
    B = B - B.mean(1, keepdims=True)
    return (A * B).sum(1) / np.sqrt((A ** 2).sum(1) * (B ** 2).sum(1))

def loo_centroid_acc(X, y):
    """leave-one-out nearest-centroid decoder (correlation distance), vectorised"""
    Z = (X - X.mean(0)) / X.std(0)
    n = np.bincount(y, minlength=2)
    S = np.stack([Z[y == 0].sum(0), Z[y == 1].sum(0)])
    # centroid of each class with the held-out trial removed from its own class
    C0 = np.where((y == 0)[:, None], (S[0] - Z) / (n[0] - 1), S[0] / n[0])
    C1 = np.where((y == 1)[:, None], (S[1] - Z) / (n[1] - 1), S[1] / n[1])
    pred = (_rowcorr(Z, C1) > _rowcorr(Z, C0)).astype(int)
    return np.mean(pred == y)

acc = loo_centroid_acc(stem_fr, turn)
n_perm = 500
perm_rng = np.random.default_rng(20240311)
null = np.array([loo_centroid_acc(stem_fr, perm_rng.permutation(turn)) for _ in range(n_perm)])
p = (np.sum(null >= acc) + 1) / (n_perm + 1)
print(f"upcoming-turn decoding on the stem: {acc:.3f} (null {null.mean():.3f} "
      f"+/- {null.std():.3f})")
print(f"permutation p = {p:.4f} -> {'splitter coding' if p < 0.05 else 'n.s.'}")
'''

_AREAS_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(4711)
# choice decoding (left/right wheel turn) per area, pre-movement window, one recording day
n_trials = 220
choice = rng.integers(0, 2, n_trials)
area_n = {"MOs": 96, "ACA": 41, "VISp": 130, "CP": 58}
area_w = {"MOs": 0.32, "ACA": 0.18, "VISp": 0.05, "CP": 0.22}
unit_rows, cols = [], []
for area, n_u in area_n.items():
    w = rng.normal(0, area_w[area], n_u) * rng.binomial(1, 0.4, n_u)
    lam = rng.gamma(2, 3, n_u) * np.exp(np.outer(choice - 0.5, w))
    cols.append(rng.poisson(lam * 0.3))
    unit_rows.append(pd.DataFrame({"area": area, "unit": [f"{area}_{i}" for i in range(n_u)]}))
spk = np.hstack(cols)                       # trials x units, all areas
unit_info = pd.concat(unit_rows, ignore_index=True)
unit_info["col"] = np.arange(len(unit_info))
unit_info.groupby("area").size()
'''

_AREAS_FLAWED = '''
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.model_selection import StratifiedKFold, cross_val_score

n_sub = unit_info.groupby("area").size().min()        # match population size across areas
picked = unit_info.groupby("area").sample(n=n_sub)
cv = StratifiedKFold(n_splits=5)
res = {}
for area, g in picked.groupby("area"):
    X = np.sqrt(spk[:, g["col"].to_numpy()])
    lda = LinearDiscriminantAnalysis(solver="lsqr", shrinkage="auto")
    res[area] = cross_val_score(lda, X, choice, cv=cv).mean()

print(f"choice decoding with {n_sub} units per area:")
for area, acc in sorted(res.items(), key=lambda kv: -kv[1]):
    print(f"  {area:5s} {acc:.3f}")
'''

_AREAS_SOUND = '''
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.model_selection import StratifiedKFold, cross_val_score

n_sub = unit_info.groupby("area").size().min()        # match population size across areas
cv = StratifiedKFold(n_splits=5)
n_draws = 10
res = {a: [] for a in unit_info.area.unique()}
for d in range(n_draws):
    # repeat the subsampling with fixed seeds and average over draws
    picked = unit_info.groupby("area").sample(n=n_sub, random_state=d)
    for area, g in picked.groupby("area"):
        X = np.sqrt(spk[:, g["col"].to_numpy()])
        lda = LinearDiscriminantAnalysis(solver="lsqr", shrinkage="auto")
        res[area].append(cross_val_score(lda, X, choice, cv=cv).mean())

print(f"choice decoding with {n_sub} units per area ({n_draws} seeded subsamples):")
for area, accs in sorted(res.items(), key=lambda kv: -np.mean(kv[1])):
    print(f"  {area:5s} {np.mean(accs):.3f} +/- {np.std(accs):.3f} (SD over draws)")
'''

CASES: list[Case] = [
    Case(
        id="h30-unseed-splitter-permutation-test",
        family="unseeded_randomness",
        setup=_SPLITTER_SETUP,
        code=_SPLITTER_FLAWED,
        twin="h30-unseed-splitter-permutation-test-ok",
        note="The permutation null uses np.random.permutation with no seed, so the reported "
             "p-value (near 0.05) changes from run to run.",
        split=SPLIT,
    ),
    Case(
        id="h30-unseed-splitter-permutation-test-ok",
        family=None,
        setup=_SPLITTER_SETUP,
        code=_SPLITTER_SOUND,
        twin="h30-unseed-splitter-permutation-test",
        note="Same permutation test with a seeded Generator, so the p-value is reproducible.",
        split=SPLIT,
    ),
    Case(
        id="h30-unseed-area-unit-subsample",
        family="unseeded_randomness",
        setup=_AREAS_SETUP,
        code=_AREAS_FLAWED,
        twin="h30-unseed-area-unit-subsample-ok",
        note="Units are subsampled per area with groupby().sample() and no random_state; the "
             "per-area accuracies and their ranking depend on one unrepeatable draw.",
        split=SPLIT,
    ),
    Case(
        id="h30-unseed-area-unit-subsample-ok",
        family=None,
        setup=_AREAS_SETUP,
        code=_AREAS_SOUND,
        twin="h30-unseed-area-unit-subsample",
        note="Subsampling is repeated 10 times with fixed seeds and the mean and spread over "
             "draws are reported.",
        split=SPLIT,
    ),
]
