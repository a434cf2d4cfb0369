from bench.critic_corpus import Case

SPLIT = "holdout30"

_REACH_SETUP = '''
import numpy as np

rng = np.random.default_rng(9120)
n_units, n_trials = 64, 240
directions = np.arange(0, 360, 45)
reach_dir = rng.choice(directions, size=n_trials)
pd_deg = rng.uniform(0, 360, n_units)                       # preferred directions
depth = rng.uniform(0.0, 0.35, n_units)
b0 = rng.gamma(3, 4, n_units)                               # baseline Hz
theta = np.deg2rad(reach_dir[:, None] - pd_deg[None, :])
rate = b0 * (1 + depth * np.cos(theta))
counts = rng.poisson(rate * 0.25)                           # 250 ms movement window
print(counts.shape, "trials x units (Utah array, session M20230614)")
'''

_REACH_FLAWED = '''
from sklearn.decomposition import PCA
from sklearn.linear_model import RidgeClassifier
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

X = np.sqrt(counts)
Xtr, Xte, ytr, yte = train_test_split(X, reach_dir, test_size=0.25, stratify=reach_dir,
                                      random_state=11)

results = []
for n_pc in [5, 10, 20]:
    for alpha in [1.0, 10.0, 100.0]:
        dec = make_pipeline(StandardScaler(),
                            PCA(n_components=n_pc, svd_solver="randomized", random_state=0),
                            RidgeClassifier(alpha=alpha))
        dec.fit(Xtr, ytr)
        results.append((n_pc, alpha, dec.score(Xte, yte)))

results.sort(key=lambda r: -r[2])
for n_pc, alpha, acc in results[:5]:
    print(f"PCs={n_pc:2d}  alpha={alpha:<7}  test acc={acc:.3f}")
best = results[0]
print(f"\\nbest decoder: {best[0]} PCs, alpha={best[1]} -> held-out accuracy {best[2]:.1%} "
      f"(chance {1 / len(directions):.1%})")
'''

_REACH_SOUND = '''
from sklearn.decomposition import PCA
from sklearn.linear_model import RidgeClassifier
from sklearn.model_selection import GridSearchCV, StratifiedKFold, train_test_split
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

X = np.sqrt(counts)
Xtr, Xte, ytr, yte = train_test_split(X, reach_dir, test_size=0.25, stratify=reach_dir,
                                      random_state=11)

dec = Pipeline([("z", StandardScaler()),
                ("pca", PCA(svd_solver="randomized", random_state=0)),
                ("ridge", RidgeClassifier())])
grid = {"pca__n_components": [5, 10, 20], "ridge__alpha": [1.0, 10.0, 100.0]}
# hyperparameters chosen by CV inside the training trials; test trials are touched once
search = GridSearchCV(dec, grid, cv=StratifiedKFold(3, shuffle=True, random_state=0))
search.fit(Xtr, ytr)
print("chosen:", search.best_params_, f"(inner CV acc {search.best_score_:.3f})")
acc = search.score(Xte, yte)
print(f"\\nheld-out accuracy of the tuned decoder: {acc:.1%} "
      f"(chance {1 / len(directions):.1%})")
'''

_ODOR_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3303)
odors = ["ethyl butyrate", "isoamyl acetate", "limonene", "2-heptanone"]
n_units, n_rep = 70, 45
rows, X = [], []
gain = rng.normal(0, 0.18, (len(odors), n_units))
base = rng.gamma(2.5, 2.0, n_units)
for o, odor in enumerate(odors):
    lam = base * np.exp(gain[o])
    for r in range(n_rep):
        X.append(rng.poisson(lam * 0.4 * rng.gamma(20, 1 / 20)))
        rows.append({"odor": odor, "rep": r})
piriform = np.array(X)
trials = pd.DataFrame(rows)
print(piriform.shape, trials.odor.value_counts().to_dict())
'''

_ODOR_FLAWED = '''
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.metrics import confusion_matrix

y = trials["odor"].to_numpy()
Z = np.log1p(piriform)

lda = LinearDiscriminantAnalysis(solver="lsqr", shrinkage="auto")
lda.fit(Z, y)
yhat = lda.predict(Z)
acc = (yhat == y).mean()
cm = confusion_matrix(y, yhat, labels=odors, normalize="true")
print(pd.DataFrame(cm, index=odors, columns=odors).round(2))
print(f"\\nodor identity is decodable from aPCx ensembles: {acc:.1%} correct (chance 25%)")
'''

_ODOR_SOUND = '''
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.metrics import confusion_matrix
from sklearn.model_selection import StratifiedKFold, cross_val_predict

y = trials["odor"].to_numpy()
Z = np.log1p(piriform)

lda = LinearDiscriminantAnalysis(solver="lsqr", shrinkage="auto")
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=2)
yhat = cross_val_predict(lda, Z, y, cv=cv)      # every trial predicted by a model that never saw it
acc = (yhat == y).mean()
cm = confusion_matrix(y, yhat, labels=odors, normalize="true")
print(pd.DataFrame(cm, index=odors, columns=odors).round(2))
print(f"\\nodor identity is decodable from aPCx ensembles: {acc:.1%} correct, 5-fold CV "
      f"(chance 25%)")
'''

CASES: list[Case] = [
    Case(
        id="h30-circ-odor-lda-training-accuracy",
        family="circular_validation",
        setup=_ODOR_SETUP,
        code=_ODOR_FLAWED,
        twin="h30-circ-odor-lda-training-accuracy-ok",
        note="LDA is fit on all trials and its accuracy on those same trials is reported as "
             "how decodable odor identity is.",
        split=SPLIT,
    ),
    Case(
        id="h30-circ-odor-lda-training-accuracy-ok",
        family=None,
        setup=_ODOR_SETUP,
        code=_ODOR_SOUND,
        twin="h30-circ-odor-lda-training-accuracy",
        note="Accuracy and confusion matrix come from cross-validated predictions.",
        split=SPLIT,
    ),
    Case(
        id="h30-circ-reach-decoder-tuned-on-test",
        family="circular_validation",
        setup=_REACH_SETUP,
        code=_REACH_FLAWED,
        twin="h30-circ-reach-decoder-tuned-on-test-ok",
        note="9 PCA/alpha settings are scored on the test trials and the best test score is "
             "reported as the held-out accuracy.",
        split=SPLIT,
    ),
    Case(
        id="h30-circ-reach-decoder-tuned-on-test-ok",
        family=None,
        setup=_REACH_SETUP,
        code=_REACH_SOUND,
        twin="h30-circ-reach-decoder-tuned-on-test",
        note="Hyperparameters are chosen by GridSearchCV on training trials; the test set is "
             "scored once.",
        split=SPLIT,
    ),
]
