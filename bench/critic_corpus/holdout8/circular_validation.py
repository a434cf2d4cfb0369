"""Circular validation, holdout8 idiom: a corncrake occupancy model whose regularisation and
feature count are picked by looping over settings and keeping the best score on the test split,
which is then reported as the model's accuracy."""

from textwrap import dedent

from bench.critic_corpus import Case

_POINTS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(8105)
n_points, n_cov = 300, 40
cov_names = [f"hab_{i:02d}" for i in range(n_cov)]
# habitat covariates (field margins, sward height, wetness indices, ...) at survey points
habitat = pd.DataFrame(rng.normal(0, 1, (n_points, n_cov)), columns=cov_names)
lin = -0.3 + 0.5 * habitat.hab_00 + 0.35 * habitat.hab_01 - 0.35 * habitat.hab_02
calling = (rng.random(n_points) < 1 / (1 + np.exp(-lin))).astype(int)
"""

CASES: list[Case] = [
    Case(
        id="circular-validation-h8-corncrake-settings-picked-on-test",
        family="circular_validation",
        twin="circular-validation-h8-corncrake-settings-picked-on-test-sound",
        split="holdout8",
        setup=_POINTS,
        note="Thirty-six (C, k) settings are each scored on the test points and the best test AUC "
        "is reported, so the test split chose the model and its score is optimistic.",
        code=dedent("""\
            from sklearn.feature_selection import SelectKBest, f_classif
            from sklearn.linear_model import LogisticRegression
            from sklearn.metrics import roc_auc_score
            from sklearn.model_selection import train_test_split
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            X_tr, X_te, y_tr, y_te = train_test_split(
                habitat, calling, test_size=0.3, stratify=calling, random_state=3)
            scores = {}
            for C in np.logspace(-2, 2, 6):
                for k in (2, 3, 5, 10, 20, 40):
                    m = make_pipeline(StandardScaler(), SelectKBest(f_classif, k=k),
                                      LogisticRegression(C=C, max_iter=1000)).fit(X_tr, y_tr)
                    scores[(C, k)] = roc_auc_score(y_te, m.predict_proba(X_te)[:, 1])
            best_C, best_k = max(scores, key=scores.get)
            print(f"chosen C={best_C:.3g}, k={best_k}")
            print(f"corncrake occupancy model, test AUC: {scores[(best_C, best_k)]:.3f}")
        """),
    ),
    Case(
        id="circular-validation-h8-corncrake-settings-picked-on-test-sound",
        family=None,
        twin="circular-validation-h8-corncrake-settings-picked-on-test",
        split="holdout8",
        setup=_POINTS,
        note="The settings are tuned by cross-validation within the training points and the "
        "chosen model is scored once on the untouched test points.",
        code=dedent("""\
            from sklearn.feature_selection import SelectKBest, f_classif
            from sklearn.linear_model import LogisticRegression
            from sklearn.metrics import roc_auc_score
            from sklearn.model_selection import GridSearchCV, StratifiedKFold, train_test_split
            from sklearn.pipeline import Pipeline
            from sklearn.preprocessing import StandardScaler

            X_tr, X_te, y_tr, y_te = train_test_split(
                habitat, calling, test_size=0.3, stratify=calling, random_state=3)
            pipe = Pipeline([("scale", StandardScaler()), ("pick", SelectKBest(f_classif)),
                             ("logit", LogisticRegression(max_iter=1000))])
            grid = {"logit__C": np.logspace(-2, 2, 6), "pick__k": [2, 3, 5, 10, 20, 40]}
            inner = StratifiedKFold(n_splits=5, shuffle=True, random_state=3)
            search = GridSearchCV(pipe, grid, cv=inner, scoring="roc_auc").fit(X_tr, y_tr)
            best = search.best_params_
            print(f"chosen C={best['logit__C']:.3g}, k={best['pick__k']}")
            test_auc = roc_auc_score(y_te, search.predict_proba(X_te)[:, 1])
            print(f"corncrake occupancy model, test AUC: {test_auc:.3f}")
        """),
    ),
]
