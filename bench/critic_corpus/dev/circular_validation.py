"""Model, hyperparameter or threshold chosen by its score on the test set, and that same score
reported as the expected performance."""

from textwrap import dedent

from bench.critic_corpus import Case

_CREDIT = """\
import pandas as pd
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

X, y = make_classification(n_samples=700, n_features=15, n_informative=5, flip_y=0.12,
                           weights=[0.7], random_state=19)
cols = [f"bureau_{i}" for i in range(10)] + ["income", "dti", "utilisation", "age", "tenure"]
loans = pd.DataFrame(X, columns=cols).assign(default=y)
X_tr, X_te, y_tr, y_te = train_test_split(
    loans[cols], loans.default, test_size=0.25, stratify=loans.default, random_state=3
)
candidates = {
    "logreg": make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)),
    "knn": make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=15)),
    "tree": DecisionTreeClassifier(max_depth=5, random_state=0),
    "forest": RandomForestClassifier(n_estimators=150, random_state=0),
    "svm_rbf": make_pipeline(StandardScaler(), SVC(C=3.0)),
}
"""

_CHURN = """\
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(77)
n = 5000
members = pd.DataFrame({
    "visits_last_30d": rng.poisson(6, n),
    "months_member": rng.integers(1, 48, n),
    "classes_booked": rng.poisson(3, n),
    "price_increase": rng.integers(0, 2, n),
})
lp = (0.4 - 0.25 * members.visits_last_30d - 0.02 * members.months_member
      + 0.9 * members.price_increase)
members["cancelled"] = (rng.random(n) < 1 / (1 + np.exp(-lp))).astype(int)

features = ["visits_last_30d", "months_member", "classes_booked", "price_increase"]
X_train, X_test, y_train, y_test = train_test_split(
    members[features], members.cancelled, test_size=0.3, random_state=5,
    stratify=members.cancelled,
)
"""

CASES: list[Case] = [
    Case(
        id="circular-alpha-loop-diabetes",
        family="circular_validation",
        twin="circular-alpha-loop-diabetes-sound",
        note="Lasso alpha chosen as the one with the best test R^2, and that best test R^2 is "
        "reported.",
        code=dedent("""\
            import numpy as np
            from sklearn.datasets import load_diabetes
            from sklearn.linear_model import Lasso
            from sklearn.model_selection import train_test_split

            X, y = load_diabetes(return_X_y=True)
            X_train, X_test, y_train, y_test = train_test_split(
                X, y, test_size=0.2, random_state=0
            )

            best_alpha, best_r2 = None, -np.inf
            for alpha in np.logspace(-4, 1, 30):
                r2 = Lasso(alpha=alpha, max_iter=10000).fit(X_train, y_train).score(X_test, y_test)
                if r2 > best_r2:
                    best_alpha, best_r2 = alpha, r2
            print(f"best alpha = {best_alpha:.4g}; test R^2 = {best_r2:.3f}")
        """),
    ),
    Case(
        id="circular-alpha-loop-diabetes-sound",
        family=None,
        twin="circular-alpha-loop-diabetes",
        note="LassoCV picks alpha by 5-fold CV on the training set; the test set is scored once.",
        code=dedent("""\
            import numpy as np
            from sklearn.datasets import load_diabetes
            from sklearn.linear_model import LassoCV
            from sklearn.model_selection import train_test_split

            X, y = load_diabetes(return_X_y=True)
            X_train, X_test, y_train, y_test = train_test_split(
                X, y, test_size=0.2, random_state=0
            )

            lasso = LassoCV(alphas=np.logspace(-4, 1, 30), cv=5, max_iter=10000)
            lasso.fit(X_train, y_train)
            print(f"alpha chosen by CV = {lasso.alpha_:.4g}; "
                  f"test R^2 = {lasso.score(X_test, y_test):.3f}")
        """),
    ),
    Case(
        id="circular-gridsearch-fit-on-test",
        family="circular_validation",
        twin="circular-gridsearch-fit-on-test-sound",
        note="GridSearchCV is fitted on the test split; its best CV score on the test data is "
        "reported as the tuned model's test accuracy.",
        code=dedent("""\
            from sklearn.datasets import load_breast_cancer
            from sklearn.model_selection import GridSearchCV, train_test_split
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler
            from sklearn.svm import SVC

            X, y = load_breast_cancer(return_X_y=True)
            X_train, X_test, y_train, y_test = train_test_split(
                X, y, test_size=0.3, stratify=y, random_state=0
            )
            pipe = make_pipeline(StandardScaler(), SVC())
            pipe.fit(X_train, y_train)
            print(f"baseline SVC, test accuracy: {pipe.score(X_test, y_test):.3f}")

            param_grid = {"svc__C": [0.1, 1, 10, 100], "svc__gamma": ["scale", 0.01, 0.001]}
            grid = GridSearchCV(pipe, param_grid, cv=5).fit(X_test, y_test)
            print(f"tuned SVC {grid.best_params_}: accuracy on the test data "
                  f"{grid.best_score_:.3f}")
        """),
    ),
    Case(
        id="circular-gridsearch-fit-on-test-sound",
        family=None,
        twin="circular-gridsearch-fit-on-test",
        note="GridSearchCV is fitted on the training split; the refitted best model is scored "
        "once on the test split.",
        code=dedent("""\
            from sklearn.datasets import load_breast_cancer
            from sklearn.model_selection import GridSearchCV, train_test_split
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler
            from sklearn.svm import SVC

            X, y = load_breast_cancer(return_X_y=True)
            X_train, X_test, y_train, y_test = train_test_split(
                X, y, test_size=0.3, stratify=y, random_state=0
            )
            pipe = make_pipeline(StandardScaler(), SVC())

            param_grid = {"svc__C": [0.1, 1, 10, 100], "svc__gamma": ["scale", 0.01, 0.001]}
            grid = GridSearchCV(pipe, param_grid, cv=5).fit(X_train, y_train)
            print(f"best params (5-fold CV on train): {grid.best_params_}, "
                  f"CV accuracy {grid.best_score_:.3f}")
            print(f"tuned SVC: test accuracy {grid.score(X_test, y_test):.3f}")
        """),
    ),
    Case(
        id="circular-model-pick-by-test-credit",
        family="circular_validation",
        twin="circular-model-pick-by-test-credit-sound",
        note="Five models compared on the test set; the winner's test accuracy is reported as "
        "the expected accuracy on new applicants.",
        code=_CREDIT + dedent("""\

            test_acc = {name: m.fit(X_tr, y_tr).score(X_te, y_te) for name, m in candidates.items()}
            best = max(test_acc, key=test_acc.get)
            print(pd.Series(test_acc, name="test_accuracy").sort_values(ascending=False).round(3))
            print(f"Selected model: {best}; expected accuracy on new applicants: "
                  f"{test_acc[best]:.3f}")
        """),
    ),
    Case(
        id="circular-model-pick-by-test-credit-sound",
        family=None,
        twin="circular-model-pick-by-test-credit",
        note="Models compared by 5-fold CV on the training set; only the chosen one touches the "
        "test set, once.",
        code=_CREDIT + dedent("""\
            from sklearn.model_selection import cross_val_score

            cv_acc = {name: cross_val_score(m, X_tr, y_tr, cv=5).mean()
                      for name, m in candidates.items()}
            best = max(cv_acc, key=cv_acc.get)
            print(pd.Series(cv_acc, name="cv_accuracy").sort_values(ascending=False).round(3))
            final = candidates[best].fit(X_tr, y_tr)
            print(f"Selected model: {best}; accuracy on the untouched test set: "
                  f"{final.score(X_te, y_te):.3f}")
        """),
    ),
    Case(
        id="circular-threshold-on-test-gym",
        family="circular_validation",
        twin="circular-threshold-on-test-gym-sound",
        note="Decision threshold tuned to maximise F1 on the test set; that maximum is "
        "reported as the test F1.",
        code=_CHURN + dedent("""\

            clf = LogisticRegression().fit(X_train, y_train)
            probs = clf.predict_proba(X_test)[:, 1]
            thresholds = np.linspace(0.05, 0.95, 91)
            f1s = [f1_score(y_test, probs >= t) for t in thresholds]
            best_t = thresholds[int(np.argmax(f1s))]
            print(f"operating threshold {best_t:.2f} -> test F1 = {max(f1s):.3f}")
        """),
    ),
    Case(
        id="circular-threshold-on-test-gym-sound",
        family=None,
        twin="circular-threshold-on-test-gym",
        note="Threshold tuned on out-of-fold training predictions (cross_val_predict); the test "
        "F1 is computed once at that threshold.",
        code=_CHURN + dedent("""\
            from sklearn.model_selection import cross_val_predict

            clf = LogisticRegression()
            oof = cross_val_predict(clf, X_train, y_train, cv=5, method="predict_proba")[:, 1]
            thresholds = np.linspace(0.05, 0.95, 91)
            f1s = [f1_score(y_train, oof >= t) for t in thresholds]
            best_t = thresholds[int(np.argmax(f1s))]
            clf.fit(X_train, y_train)
            test_f1 = f1_score(y_test, clf.predict_proba(X_test)[:, 1] >= best_t)
            print(f"operating threshold {best_t:.2f} (chosen on train) -> test F1 = {test_f1:.3f}")
        """),
    ),
]
