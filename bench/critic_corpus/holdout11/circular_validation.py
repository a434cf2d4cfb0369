"""Circular validation, holdout11: 3D-print failure depth sweep and vaccine cold-chain alarm
threshold."""

from textwrap import dedent

from bench.critic_corpus import Case

_PRINTS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(11_021)
n = 700
jobs = pd.DataFrame({
    "nozzle_temp": rng.normal(212, 8, n),
    "bed_temp": rng.normal(60, 5, n),
    "layer_um": rng.choice([100, 150, 200, 300], n),
    "speed_mm_s": rng.normal(55, 15, n),
    "overhang_deg": rng.uniform(0, 70, n),
    "humidity": rng.uniform(20, 75, n),
    "infill_pct": rng.choice([10, 15, 20, 40, 100], n),
    "print_hours": rng.gamma(2, 3, n),
})
risk = (0.04 * (jobs["overhang_deg"] - 35) + 0.03 * (jobs["speed_mm_s"] - 55)
        + 0.05 * (jobs["humidity"] - 45) + 0.06 * abs(jobs["nozzle_temp"] - 212)
        + 0.1 * jobs["print_hours"] - 1.0)
jobs["failed"] = (rng.random(n) < 1 / (1 + np.exp(-risk))).astype(int)
"""

_COLDCHAIN = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(11_022)
n = 2400
ship = pd.DataFrame({
    "transit_h": rng.gamma(3, 12, n),
    "ambient_c": rng.normal(24, 7, n),
    "n_handoffs": rng.poisson(3, n),
    "box_age_mo": rng.integers(0, 36, n),
    "dry_ice_kg": rng.normal(6, 1.5, n),
    "customs_hold": rng.random(n) < 0.12,
})
lin = (-3.2 + 0.025 * ship["transit_h"] + 0.06 * (ship["ambient_c"] - 24)
       + 0.2 * ship["n_handoffs"] + 0.02 * ship["box_age_mo"] - 0.25 * (ship["dry_ice_kg"] - 6)
       + 0.8 * ship["customs_hold"])
ship["excursion"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
"""

CASES: list[Case] = [
    Case(
        id="circular_validation-h11-printfail-depth-on-test",
        family="circular_validation",
        twin="circular_validation-h11-printfail-depth-gridsearch",
        split="holdout11",
        setup=_PRINTS,
        note="max_depth is chosen as the depth with the best test accuracy and that same test "
        "accuracy is reported as the model's performance.",
        code=dedent("""\
            from sklearn.model_selection import train_test_split
            from sklearn.tree import DecisionTreeClassifier

            X, y = jobs.drop(columns="failed"), jobs["failed"]
            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, random_state=21)

            scores = {}
            for depth in range(1, 16):
                tree = DecisionTreeClassifier(max_depth=depth, min_samples_leaf=5, random_state=0)
                scores[depth] = tree.fit(X_tr, y_tr).score(X_te, y_te)

            best_depth = max(scores, key=scores.get)
            print(pd.Series(scores, name="accuracy").round(3).to_string())
            print(f"chosen depth {best_depth}: failure-prediction accuracy "
                  f"{scores[best_depth]:.3f}")
        """),
    ),
    Case(
        id="circular_validation-h11-printfail-depth-gridsearch",
        family=None,
        twin="circular_validation-h11-printfail-depth-on-test",
        split="holdout11",
        setup=_PRINTS,
        note="Depth is chosen by 5-fold CV inside the training jobs; the test set is scored once "
        "with the chosen tree.",
        code=dedent("""\
            from sklearn.model_selection import GridSearchCV, train_test_split
            from sklearn.tree import DecisionTreeClassifier

            X, y = jobs.drop(columns="failed"), jobs["failed"]
            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, random_state=21)

            search = GridSearchCV(DecisionTreeClassifier(min_samples_leaf=5, random_state=0),
                                  {"max_depth": list(range(1, 16))}, cv=5, scoring="accuracy")
            search.fit(X_tr, y_tr)
            cv_acc = pd.Series(search.cv_results_["mean_test_score"], index=range(1, 16),
                               name="accuracy")
            best_depth = search.best_params_["max_depth"]
            print(cv_acc.round(3).to_string())
            print(f"chosen depth {best_depth}: failure-prediction accuracy "
                  f"{search.score(X_te, y_te):.3f}")
        """),
    ),
    Case(
        id="circular_validation-h11-coldchain-threshold-on-test",
        family="circular_validation",
        twin="circular_validation-h11-coldchain-threshold-on-val",
        split="holdout11",
        setup=_COLDCHAIN,
        note="The alarm threshold is the one maximising F1 on the test shipments, and that "
        "maximised test F1 is reported as the alarm's expected F1.",
        code=dedent("""\
            from sklearn.linear_model import LogisticRegression
            from sklearn.metrics import f1_score, precision_score, recall_score
            from sklearn.model_selection import train_test_split

            X = ship.drop(columns="excursion").astype(float)
            y = ship["excursion"]
            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y,
                                                      random_state=5)
            clf = LogisticRegression(max_iter=1000).fit(X_tr, y_tr)
            p_te = clf.predict_proba(X_te)[:, 1]

            grid = np.round(np.arange(0.05, 0.80, 0.01), 2)
            f1s = [f1_score(y_te, p_te >= t) for t in grid]
            cut = grid[int(np.argmax(f1s))]
            alarm = p_te >= cut
            print(f"excursion rate {y.mean():.3f}; alarm threshold {cut:.2f}")
            print(f"precision {precision_score(y_te, alarm):.3f}  "
                  f"recall {recall_score(y_te, alarm):.3f}  F1 {f1_score(y_te, alarm):.3f}")
        """),
    ),
    Case(
        id="circular_validation-h11-coldchain-threshold-on-val",
        family=None,
        twin="circular_validation-h11-coldchain-threshold-on-test",
        split="holdout11",
        setup=_COLDCHAIN,
        note="The threshold is tuned on a validation slice carved from the training shipments; "
        "the test shipments are only used to report the chosen alarm's metrics.",
        code=dedent("""\
            from sklearn.linear_model import LogisticRegression
            from sklearn.metrics import f1_score, precision_score, recall_score
            from sklearn.model_selection import train_test_split

            X = ship.drop(columns="excursion").astype(float)
            y = ship["excursion"]
            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y,
                                                      random_state=5)
            X_fit, X_val, y_fit, y_val = train_test_split(X_tr, y_tr, test_size=0.25,
                                                          stratify=y_tr, random_state=6)
            clf = LogisticRegression(max_iter=1000).fit(X_fit, y_fit)
            p_val = clf.predict_proba(X_val)[:, 1]

            grid = np.round(np.arange(0.05, 0.80, 0.01), 2)
            f1s = [f1_score(y_val, p_val >= t) for t in grid]
            cut = grid[int(np.argmax(f1s))]
            alarm = clf.predict_proba(X_te)[:, 1] >= cut
            print(f"excursion rate {y.mean():.3f}; alarm threshold {cut:.2f}")
            print(f"precision {precision_score(y_te, alarm):.3f}  "
                  f"recall {recall_score(y_te, alarm):.3f}  F1 {f1_score(y_te, alarm):.3f}")
        """),
    ),
]
