from bench.critic_corpus import Case

_SEARCH_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(5150)
n = 2400
serp = pd.DataFrame({
    "query_id": rng.integers(0, 600, size=n),
    "position": rng.integers(1, 11, size=n),
    "bm25": np.round(rng.gamma(3.0, 2.0, size=n), 2),
    "doc_age_days": rng.integers(0, 720, size=n),
    "prior_ctr": np.round(rng.beta(2, 18, size=n), 4),
    "title_match": rng.integers(0, 2, size=n),
    "has_thumbnail": rng.integers(0, 2, size=n),
})
lin = (-0.2 - 0.3 * serp["position"] + 0.1 * serp["bm25"] + 8.0 * serp["prior_ctr"]
       + 0.6 * serp["title_match"] - 0.001 * serp["doc_age_days"])
serp["clicked"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
features = ["position", "bm25", "doc_age_days", "prior_ctr", "title_match", "has_thumbnail"]
'''

_WIDGET_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(808)
n = 1300
views = pd.DataFrame({
    "user_id": rng.integers(1, 9000, size=n),
    "slot": rng.choice(["home_top", "home_mid", "pdp_bottom", "cart"], size=n),
    "items_viewed_7d": rng.poisson(6, size=n),
    "days_since_last_purchase": rng.integers(0, 120, size=n),
    "rec_score": np.round(rng.beta(2, 5, size=n), 3),
    "is_app": rng.integers(0, 2, size=n),
})
lin = (-2.4 + 2.5 * views["rec_score"] + 0.05 * views["items_viewed_7d"]
       - 0.006 * views["days_since_last_purchase"] + 0.4 * (views["slot"] == "cart"))
views["widget_click"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
X = pd.get_dummies(views.drop(columns=["user_id", "widget_click"]), columns=["slot"], dtype=float)
y = views["widget_click"]
'''

CASES: list[Case] = [
    Case(
        id="h18-circular_validation-search-tree-grid",
        family="circular_validation",
        setup=_SEARCH_SETUP,
        code='''from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier

X_tr, X_te, y_tr, y_te = train_test_split(serp[features], serp["clicked"],
                                          test_size=0.25, random_state=3)
results = []
for depth in [2, 3, 4, 6, 8, None]:
    for leaf in [5, 20, 50]:
        tree = DecisionTreeClassifier(max_depth=depth, min_samples_leaf=leaf, random_state=0)
        tree.fit(X_tr, y_tr)
        results.append({"max_depth": str(depth), "min_leaf": leaf,
                        "auc": roc_auc_score(y_te, tree.predict_proba(X_te)[:, 1])})

grid = pd.DataFrame(results).sort_values("auc", ascending=False)
best = grid.iloc[0]
print(grid.head(5).round(4).to_string(index=False))
print(f"\\nnew click model (depth={best.max_depth}, leaf={best.min_leaf}): "
      f"expected offline AUC {best.auc:.3f}")
''',
        twin="h18-circular_validation-search-tree-grid-ok",
        note="Tree depth and leaf size are chosen by test-set AUC and that same best test AUC "
             "is reported as the model's expected offline performance.",
        split="holdout18",
    ),
    Case(
        id="h18-circular_validation-search-tree-grid-ok",
        family=None,
        setup=_SEARCH_SETUP,
        code='''from sklearn.metrics import roc_auc_score
from sklearn.model_selection import GridSearchCV, StratifiedKFold, train_test_split
from sklearn.tree import DecisionTreeClassifier

X_tr, X_te, y_tr, y_te = train_test_split(serp[features], serp["clicked"],
                                          test_size=0.25, random_state=3)
param_grid = {"max_depth": [2, 3, 4, 6, 8, None], "min_samples_leaf": [5, 20, 50]}
search = GridSearchCV(DecisionTreeClassifier(random_state=0), param_grid,
                      scoring="roc_auc", cv=StratifiedKFold(5, shuffle=True, random_state=0))
search.fit(X_tr, y_tr)

grid = pd.DataFrame(search.cv_results_)[["param_max_depth", "param_min_samples_leaf",
                                         "mean_test_score"]]
print(grid.sort_values("mean_test_score", ascending=False).head(5).round(4)
      .to_string(index=False))
test_auc = roc_auc_score(y_te, search.predict_proba(X_te)[:, 1])
print(f"\\nnew click model {search.best_params_}: CV AUC {search.best_score_:.3f}, "
      f"untouched test AUC {test_auc:.3f}")
''',
        twin="h18-circular_validation-search-tree-grid",
        note="Hyperparameters are chosen by 5-fold cross-validation on the training rows; the "
             "test rows are scored once, after selection, for the reported AUC.",
        split="holdout18",
    ),
    Case(
        id="h18-circular_validation-widget-threshold",
        family="circular_validation",
        setup=_WIDGET_SETUP,
        code='''from sklearn.linear_model import LogisticRegression
from sklearn.metrics import precision_recall_curve
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.model_selection import train_test_split

X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y, random_state=21)
clf = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_tr, y_tr)
scores = clf.predict_proba(X_te)[:, 1]

prec, rec, thr = precision_recall_curve(y_te, scores)
f1 = 2 * prec[:-1] * rec[:-1] / np.clip(prec[:-1] + rec[:-1], 1e-12, None)
i = int(np.argmax(f1))
print(f"show-widget cut-off: {thr[i]:.3f}")
print(f"precision {prec[i]:.1%} | recall {rec[i]:.1%} | F1 {f1[i]:.3f}  (test n={len(y_te)})")
''',
        twin="h18-circular_validation-widget-threshold-ok",
        note="The decision threshold is picked to maximise F1 on the test set and the "
             "precision/recall/F1 at that threshold on the same test set are reported.",
        split="holdout18",
    ),
    Case(
        id="h18-circular_validation-widget-threshold-ok",
        family=None,
        setup=_WIDGET_SETUP,
        code='''from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score, precision_recall_curve, precision_score, recall_score
from sklearn.model_selection import StratifiedKFold, cross_val_predict, train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y, random_state=21)
clf = make_pipeline(StandardScaler(), LogisticRegression())
oof = cross_val_predict(clf, X_tr, y_tr, method="predict_proba",
                        cv=StratifiedKFold(5, shuffle=True, random_state=0))[:, 1]
prec, rec, thr = precision_recall_curve(y_tr, oof)
f1 = 2 * prec[:-1] * rec[:-1] / np.clip(prec[:-1] + rec[:-1], 1e-12, None)
cut = thr[int(np.argmax(f1))]

clf.fit(X_tr, y_tr)
pred = (clf.predict_proba(X_te)[:, 1] >= cut).astype(int)
print(f"show-widget cut-off (chosen on training folds): {cut:.3f}")
print(f"precision {precision_score(y_te, pred):.1%} | recall {recall_score(y_te, pred):.1%} "
      f"| F1 {f1_score(y_te, pred):.3f}  (test n={len(y_te)})")
''',
        twin="h18-circular_validation-widget-threshold",
        note="The threshold is tuned on out-of-fold predictions within the training split and "
             "then applied once to the untouched test set.",
        split="holdout18",
    ),
]
