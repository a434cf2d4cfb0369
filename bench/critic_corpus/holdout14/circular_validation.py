from bench.critic_corpus import Case

_OCT_SETUP = '''
import numpy as np

rng = np.random.default_rng(5150)
clock_hours = [f"RNFL_{h:02d}h" for h in range(1, 13)]
gcl = [f"GCIPL_{s}" for s in ("sup", "suptemp", "inftemp", "inf", "infnas", "supnas")]
etdrs = [f"MT_{r}" for r in ("C", "S3", "T3", "I3", "N3", "S6", "T6", "I6", "N6")]
params = clock_hours + gcl + etdrs + ["RNFL_avg", "rim_area", "cup_disc_vert", "cup_vol"]
n_glc, n_ctl = 34, 38
glaucoma = np.r_[np.ones(n_glc, int), np.zeros(n_ctl, int)]
means = rng.uniform(60, 140, len(params))
sds = means * rng.uniform(0.08, 0.14, len(params))
loss = np.zeros(len(params))
loss[[5, 6, 11, 12, 15, 21]] = rng.uniform(0.7, 1.0, 6)
oct_um = rng.normal(means, sds, (n_glc + n_ctl, len(params)))
oct_um[:n_glc] -= loss * sds
print(oct_um.shape, "eyes x OCT parameters;", n_glc, "POAG,", n_ctl, "controls")
'''

_OCT_FLAWED = '''
def sens_spec(values, y, cut):
    pos = values <= cut
    return pos[y == 1].mean(), (~pos[y == 0]).mean()

best = {"J": -1}
for j, name in enumerate(params):
    v = oct_um[:, j]
    for cut in np.unique(v):
        se, sp = sens_spec(v, glaucoma, cut)
        if se + sp - 1 > best["J"]:
            best = {"param": name, "cut": cut, "se": se, "sp": sp, "J": se + sp - 1}

print(f"best discriminating parameter: {best['param']} <= {best['cut']:.1f} um")
print(f"sensitivity {best['se']:.2f}, specificity {best['sp']:.2f}, "
      f"Youden J {best['J']:.2f} (n = {len(glaucoma)} eyes)")
'''

_OCT_SOUND = '''
def sens_spec(values, y, cut):
    pos = values <= cut
    return pos[y == 1].mean(), (~pos[y == 0]).mean()

split_rng = np.random.default_rng(3)
idx_g = split_rng.permutation(np.flatnonzero(glaucoma == 1))
idx_c = split_rng.permutation(np.flatnonzero(glaucoma == 0))
dev = np.r_[idx_g[: len(idx_g) // 2], idx_c[: len(idx_c) // 2]]
val = np.r_[idx_g[len(idx_g) // 2:], idx_c[len(idx_c) // 2:]]

best = {"J": -1}
for j, name in enumerate(params):
    v = oct_um[dev, j]
    for cut in np.unique(v):
        se, sp = sens_spec(v, glaucoma[dev], cut)
        if se + sp - 1 > best["J"]:
            best = {"param": name, "j": j, "cut": cut, "J": se + sp - 1}

se, sp = sens_spec(oct_um[val, best["j"]], glaucoma[val], best["cut"])
print(f"parameter and cut-off chosen on development half: {best['param']} <= {best['cut']:.1f} um"
      f" (dev J {best['J']:.2f})")
print(f"validation half: sensitivity {se:.2f}, specificity {sp:.2f}, "
      f"Youden J {se + sp - 1:.2f} (n = {len(val)} eyes)")
'''

_SLEEP_SETUP = '''
import numpy as np

rng = np.random.default_rng(314)
stages = np.array(["W", "N1", "N2", "N3", "REM"])
centre = np.array([
    # delta theta alpha sigma beta emg_rms eog_var hr
    [0.2, 0.3, 1.2, 0.1, 1.0, 1.2, 0.8, 0.6],
    [0.5, 0.9, 0.4, 0.2, 0.4, 0.4, 0.5, 0.1],
    [0.9, 0.6, 0.2, 1.0, 0.2, 0.1, 0.1, -0.2],
    [1.6, 0.4, 0.1, 0.4, 0.0, 0.0, 0.0, -0.4],
    [0.5, 1.0, 0.3, 0.1, 0.5, -0.6, 1.0, 0.3],
])
subj, feats, labels = [], [], []
for s in range(10):
    offset = rng.normal(0, 0.35, 8)
    y = rng.choice(5, 260, p=[0.15, 0.08, 0.45, 0.14, 0.18])
    feats.append(centre[y] + offset + rng.normal(0, 0.55, (260, 8)))
    labels.append(y)
    subj.append(np.full(260, s))
X, y, subject = np.vstack(feats), np.concatenate(labels), np.concatenate(subj)
train = subject < 8
X_train, y_train, X_test, y_test = X[train], y[train], X[~train], y[~train]
print(f"epochs: train {train.sum()} (8 participants), test {(~train).sum()} (2 participants)")
'''

_SLEEP_FLAWED = '''
from sklearn.metrics import accuracy_score, cohen_kappa_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

candidates = {f"kNN k={k}": KNeighborsClassifier(k) for k in (3, 7, 15, 31, 61)}
candidates.update({f"SVC-RBF C={c}": SVC(C=c, gamma="scale") for c in (0.1, 0.3, 1, 3, 10)})

results = {}
for label, clf in candidates.items():
    pipe = make_pipeline(StandardScaler(), clf).fit(X_train, y_train)
    pred = pipe.predict(X_test)
    results[label] = (accuracy_score(y_test, pred), cohen_kappa_score(y_test, pred))

for label, (acc, kap) in results.items():
    print(f"{label:14s} acc={acc:.3f} kappa={kap:.3f}")
winner = max(results, key=lambda k: results[k][1])
print(f"\\nselected: {winner}; held-out performance acc={results[winner][0]:.3f}, "
      f"kappa={results[winner][1]:.3f}")
'''

_SLEEP_SOUND = '''
from sklearn.metrics import accuracy_score, cohen_kappa_score, make_scorer
from sklearn.model_selection import GridSearchCV, GroupKFold
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

pipe = Pipeline([("scale", StandardScaler()), ("clf", KNeighborsClassifier())])
grid = [
    {"clf": [KNeighborsClassifier()], "clf__n_neighbors": [3, 7, 15, 31, 61]},
    {"clf": [SVC(gamma="scale")], "clf__C": [0.1, 0.3, 1, 3, 10]},
]
search = GridSearchCV(pipe, grid, scoring=make_scorer(cohen_kappa_score),
                      cv=GroupKFold(n_splits=4))
search.fit(X_train, y_train, groups=subject[train])
print(f"selected by participant-wise CV on training nights: {search.best_params_['clf']} "
      f"(CV kappa {search.best_score_:.3f})")
pred = search.predict(X_test)
print(f"held-out participants: acc={accuracy_score(y_test, pred):.3f}, "
      f"kappa={cohen_kappa_score(y_test, pred):.3f}")
'''

CASES: list[Case] = [
    Case(
        id="h14-circular-oct-best-parameter-cutoff",
        family="circular_validation",
        setup=_OCT_SETUP,
        code=_OCT_FLAWED,
        twin="h14-circular-oct-cutoff-dev-validation",
        note="Parameter and cut-off are both chosen to maximise Youden J over 31 OCT measures on "
             "72 eyes, and the same eyes' sensitivity/specificity are reported as accuracy.",
        split="holdout14",
    ),
    Case(
        id="h14-circular-oct-cutoff-dev-validation",
        family=None,
        setup=_OCT_SETUP,
        code=_OCT_SOUND,
        twin="h14-circular-oct-best-parameter-cutoff",
        note="Parameter and cut-off are chosen on a development half and the diagnostic "
             "accuracy is reported on the untouched validation half.",
        split="holdout14",
    ),
    Case(
        id="h14-circular-sleep-staging-model-picked-on-test",
        family="circular_validation",
        setup=_SLEEP_SETUP,
        code=_SLEEP_FLAWED,
        twin="h14-circular-sleep-staging-grouped-gridsearch",
        note="Ten classifiers are scored on the held-out participants, the best is picked by "
             "that score and the same score is reported as held-out performance.",
        split="holdout14",
    ),
    Case(
        id="h14-circular-sleep-staging-grouped-gridsearch",
        family=None,
        setup=_SLEEP_SETUP,
        code=_SLEEP_SOUND,
        twin="h14-circular-sleep-staging-model-picked-on-test",
        note="Model chosen by participant-grouped CV on training nights; the test participants "
             "are scored once with the chosen model.",
        split="holdout14",
    ),
]
