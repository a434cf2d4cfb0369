"""Circular validation, holdout10: number of survey features chosen by scanning k on the test set
(tourism spend, ski resort), and a damage-alert probability threshold tuned for F1 on the test
set (bird strikes at airports)."""

from textwrap import dedent

from bench.critic_corpus import Case

_SKI = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(10_021)
n, p = 260, 45
survey_cols = [f"q{i:02d}" for i in range(1, p + 1)]
visitors = pd.DataFrame(rng.normal(size=(n, p)), columns=survey_cols)
visitors["nights"] = rng.integers(1, 9, n)
visitors["party_size"] = rng.integers(1, 7, n)
visitors["daily_spend_eur"] = (95 + 14 * visitors["party_size"] + 6 * visitors["nights"]
                               + 9 * visitors["q03"] + 6 * visitors["q17"]
                               + rng.normal(0, 38, n)).round(2)
features = ["nights", "party_size"] + survey_cols
"""

_STRIKES = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(10_022)
n = 1800
strikes = pd.DataFrame({
    "bird_mass_g": rng.lognormal(5.0, 1.1, n).round(),
    "altitude_ft": np.abs(rng.normal(0, 1500, n)).round(),
    "ias_kt": rng.normal(160, 35, n).round(),
    "phase": rng.choice(["takeoff", "climb", "approach", "landing"], n),
    "flock": rng.random(n) < 0.25,
    "engine_ingest": rng.random(n) < 0.12,
})
lin = (-4.0 + 0.55 * np.log(strikes["bird_mass_g"]) + 0.008 * (strikes["ias_kt"] - 160)
       + 0.8 * strikes["flock"] + 1.2 * strikes["engine_ingest"] - 1.8)
strikes["damage"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
"""

CASES: list[Case] = [
    Case(
        id="circular_validation-h10-ski-spend-k-scan-on-test",
        family="circular_validation",
        twin="circular_validation-h10-ski-spend-k-scan-on-test-sound",
        split="holdout10",
        setup=_SKI,
        note="k for SelectKBest is the value that maximises R^2 on the test set, and that same "
        "test R^2 is reported as the model's performance.",
        code=dedent("""\
            from sklearn.feature_selection import SelectKBest, f_regression
            from sklearn.linear_model import LinearRegression
            from sklearn.model_selection import train_test_split
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler
            from sklearn.pipeline import Pipeline

            X_tr, X_te, y_tr, y_te = train_test_split(
                visitors[features], visitors["daily_spend_eur"], test_size=0.3, random_state=21
            )

            results = {}
            for k in range(1, len(features) + 1):
                model = Pipeline([("select", SelectKBest(f_regression, k=k)),
                                  ("ols", LinearRegression())])
                model.fit(X_tr, y_tr)
                results[k] = model.score(X_te, y_te)

            best_k = max(results, key=results.get)
            print(f"features kept: {best_k} of {len(features)}")
            print(f"R^2 on held-out visitors: {results[best_k]:.3f}")
        """),
    ),
    Case(
        id="circular_validation-h10-ski-spend-k-scan-on-test-sound",
        family=None,
        twin="circular_validation-h10-ski-spend-k-scan-on-test",
        split="holdout10",
        setup=_SKI,
        note="k is chosen by 5-fold cross-validation inside the training set; the test set is "
        "scored once with the refitted pipeline.",
        code=dedent("""\
            from sklearn.feature_selection import SelectKBest, f_regression
            from sklearn.linear_model import LinearRegression
            from sklearn.model_selection import GridSearchCV, KFold, train_test_split
            from sklearn.pipeline import Pipeline

            X_tr, X_te, y_tr, y_te = train_test_split(
                visitors[features], visitors["daily_spend_eur"], test_size=0.3, random_state=21
            )

            model = Pipeline([("select", SelectKBest(f_regression)),
                              ("ols", LinearRegression())])
            search = GridSearchCV(model, {"select__k": list(range(1, len(features) + 1))},
                                  cv=KFold(5, shuffle=True, random_state=21), scoring="r2")
            search.fit(X_tr, y_tr)

            best_k = search.best_params_["select__k"]
            print(f"features kept: {best_k} of {len(features)}")
            print(f"R^2 on held-out visitors: {search.score(X_te, y_te):.3f}")
        """),
    ),
    Case(
        id="circular_validation-h10-birdstrike-threshold-on-test",
        family="circular_validation",
        twin="circular_validation-h10-birdstrike-threshold-on-test-sound",
        split="holdout10",
        setup=_STRIKES,
        note="The alert threshold is picked by maximising F1 over the test-set predictions and "
        "the maximised F1 is reported as the expected performance.",
        code=dedent("""\
            from sklearn.linear_model import LogisticRegression
            from sklearn.metrics import f1_score, precision_score, recall_score
            from sklearn.model_selection import train_test_split
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            X = pd.get_dummies(strikes.drop(columns="damage"), columns=["phase"], dtype=float)
            X["bird_mass_g"] = np.log(X["bird_mass_g"])
            y = strikes["damage"]
            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y,
                                                      random_state=5)
            clf = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_tr, y_tr)
            p_te = clf.predict_proba(X_te)[:, 1]

            grid = np.round(np.arange(0.05, 0.80, 0.01), 2)
            f1s = [f1_score(y_te, p_te >= t) for t in grid]
            thr = grid[int(np.argmax(f1s))]
            alert = p_te >= thr
            print(f"damaging strikes: {y.mean():.1%} of {len(y)} reports")
            print(f"alert threshold {thr:.2f}: precision {precision_score(y_te, alert):.2f}, "
                  f"recall {recall_score(y_te, alert):.2f}, F1 {f1_score(y_te, alert):.3f}")
        """),
    ),
    Case(
        id="circular_validation-h10-birdstrike-threshold-on-test-sound",
        family=None,
        twin="circular_validation-h10-birdstrike-threshold-on-test",
        split="holdout10",
        setup=_STRIKES,
        note="The threshold is tuned on out-of-fold predictions within the training set; the "
        "test set is only used once to report F1 at that fixed threshold.",
        code=dedent("""\
            from sklearn.linear_model import LogisticRegression
            from sklearn.metrics import f1_score, precision_score, recall_score
            from sklearn.model_selection import cross_val_predict, train_test_split
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            X = pd.get_dummies(strikes.drop(columns="damage"), columns=["phase"], dtype=float)
            X["bird_mass_g"] = np.log(X["bird_mass_g"])
            y = strikes["damage"]
            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y,
                                                      random_state=5)
            clf = make_pipeline(StandardScaler(), LogisticRegression())
            p_oof = cross_val_predict(clf, X_tr, y_tr, cv=5, method="predict_proba")[:, 1]

            grid = np.round(np.arange(0.05, 0.80, 0.01), 2)
            f1s = [f1_score(y_tr, p_oof >= t) for t in grid]
            thr = grid[int(np.argmax(f1s))]
            alert = clf.fit(X_tr, y_tr).predict_proba(X_te)[:, 1] >= thr
            print(f"damaging strikes: {y.mean():.1%} of {len(y)} reports")
            print(f"alert threshold {thr:.2f}: precision {precision_score(y_te, alert):.2f}, "
                  f"recall {recall_score(y_te, alert):.2f}, F1 {f1_score(y_te, alert):.3f}")
        """),
    ),
]
