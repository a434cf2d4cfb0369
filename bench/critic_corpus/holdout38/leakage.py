from bench.critic_corpus import Case

_PAGES_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3801)
n_windows = 300
metric_names = [f"{svc}.{m}" for svc in ("api", "auth", "cart", "search", "db")
                for m in [f"m{i:02d}" for i in range(80)]]
X_raw = rng.lognormal(mean=0.0, sigma=0.6, size=(n_windows, len(metric_names)))
signal = 0.35 * np.log(X_raw[:, 3]) + 0.25 * np.log(X_raw[:, 171])
paged = (signal + rng.normal(0, 0.5, n_windows) > 0.45).astype(int)
metrics = pd.DataFrame(np.log1p(X_raw), columns=metric_names)
metrics["paged_next_hour"] = paged
'''

_FLAKY_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3802)
n_tests = 250
tests = pd.DataFrame({
    "test_id": [f"tests/integration/test_{i:04d}" for i in range(n_tests)],
    "loc": rng.integers(10, 400, n_tests),
    "n_asserts": rng.integers(1, 40, n_tests),
    "fixture_count": rng.integers(0, 12, n_tests),
    "uses_network": (rng.random(n_tests) < 0.3).astype(int),
    "sleep_calls": rng.poisson(0.5, n_tests),
})
logit = -1.6 + 0.9 * tests["uses_network"] + 0.5 * tests["sleep_calls"]
tests["flaky"] = (rng.random(n_tests) < 1 / (1 + np.exp(-logit))).astype(int)
runs_per_test = rng.integers(8, 30, n_tests)
base_dur = rng.lognormal(0.5, 0.8, n_tests)
runs = tests.loc[tests.index.repeat(runs_per_test)].reset_index(drop=True)
runs["duration_s"] = (np.repeat(base_dur, runs_per_test)
                      * rng.lognormal(0, 0.15, len(runs))).round(3)
runs["worker_cpu_util"] = rng.uniform(0.2, 0.95, len(runs)).round(2)
'''

CASES: list[Case] = [
    Case(
        id="h38-leak-selectk-pages",
        family="leakage",
        split="holdout38",
        twin="h38-leak-selectk-pages-ok",
        setup=_PAGES_SETUP,
        code='''
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.preprocessing import StandardScaler

X = metrics.drop(columns="paged_next_hour").values
y = metrics["paged_next_hour"].values
print(f"{X.shape[0]} hourly windows, {X.shape[1]} metrics, page rate {y.mean():.1%}")

X_std = StandardScaler().fit_transform(X)
selector = SelectKBest(f_classif, k=20).fit(X_std, y)
X_sel = selector.transform(X_std)
top = np.array(metric_names)[selector.get_support()]
print("metrics kept:", ", ".join(top[:8]), "...")

cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
auc = cross_val_score(LogisticRegression(max_iter=1000), X_sel, y, cv=cv, scoring="roc_auc")
print(f"page-ahead predictor, 5-fold CV AUC: {auc.mean():.3f} +/- {auc.std():.3f}")
''',
        note="SelectKBest picks 20 of 400 metrics using the labels of all windows before the CV "
             "folds, so the CV AUC is inflated by selection on the test folds.",
    ),
    Case(
        id="h38-leak-selectk-pages-ok",
        family=None,
        split="holdout38",
        twin="h38-leak-selectk-pages",
        setup=_PAGES_SETUP,
        code='''
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

X = metrics.drop(columns="paged_next_hour").values
y = metrics["paged_next_hour"].values
print(f"{X.shape[0]} hourly windows, {X.shape[1]} metrics, page rate {y.mean():.1%}")

# scaling and metric selection are refit inside every training fold
pipe = make_pipeline(StandardScaler(), SelectKBest(f_classif, k=20),
                     LogisticRegression(max_iter=1000))
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
auc = cross_val_score(pipe, X, y, cv=cv, scoring="roc_auc")
print(f"page-ahead predictor, 5-fold CV AUC: {auc.mean():.3f} +/- {auc.std():.3f}")
''',
        note="Scaler and SelectKBest sit inside the pipeline, so selection is refit on each "
             "training fold and the CV AUC is honest.",
    ),
    Case(
        id="h38-leak-flaky-runs",
        family="leakage",
        split="holdout38",
        twin="h38-leak-flaky-runs-ok",
        setup=_FLAKY_SETUP,
        code='''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import classification_report, roc_auc_score
from sklearn.model_selection import train_test_split

feats = ["loc", "n_asserts", "fixture_count", "uses_network", "sleep_calls",
         "duration_s", "worker_cpu_util"]
print(f"{len(runs):,} CI runs of {runs.test_id.nunique()} tests")
X_tr, X_te, y_tr, y_te = train_test_split(runs[feats], runs["flaky"], test_size=0.25,
                                          stratify=runs["flaky"], random_state=7)
clf = RandomForestClassifier(n_estimators=120, min_samples_leaf=2, random_state=7, n_jobs=1)
clf.fit(X_tr, y_tr)
proba = clf.predict_proba(X_te)[:, 1]
print(f"flaky-test detector AUC on held-out runs: {roc_auc_score(y_te, proba):.3f}")
print(classification_report(y_te, (proba > 0.5).astype(int), digits=3))
''',
        note="Runs are split at random, so every test's runs land in both train and test and the "
             "forest memorises per-test fingerprints; AUC is not for unseen tests.",
    ),
    Case(
        id="h38-leak-flaky-runs-ok",
        family=None,
        split="holdout38",
        twin="h38-leak-flaky-runs",
        setup=_FLAKY_SETUP,
        code='''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import classification_report, roc_auc_score
from sklearn.model_selection import GroupShuffleSplit

feats = ["loc", "n_asserts", "fixture_count", "uses_network", "sleep_calls",
         "duration_s", "worker_cpu_util"]
print(f"{len(runs):,} CI runs of {runs.test_id.nunique()} tests")
# split by test, not by run: the detector has to work on tests it has never seen
gss = GroupShuffleSplit(n_splits=1, test_size=0.25, random_state=7)
tr_idx, te_idx = next(gss.split(runs, runs["flaky"], groups=runs["test_id"]))
tr, te = runs.iloc[tr_idx], runs.iloc[te_idx]
assert set(tr.test_id).isdisjoint(te.test_id)
clf = RandomForestClassifier(n_estimators=120, min_samples_leaf=2, random_state=7, n_jobs=1)
clf.fit(tr[feats], tr["flaky"])
proba = clf.predict_proba(te[feats])[:, 1]
print(f"flaky-test detector AUC on held-out tests: {roc_auc_score(te['flaky'], proba):.3f}")
print(classification_report(te["flaky"], (proba > 0.5).astype(int), digits=3))
''',
        note="GroupShuffleSplit by test_id keeps each test's runs on one side, so the AUC "
             "measures generalisation to unseen tests.",
    ),
]
