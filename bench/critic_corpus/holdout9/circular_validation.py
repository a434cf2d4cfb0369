"""Circular validation, holdout9 idioms: a podcast premium-conversion model whose decision
threshold is read off a precision/recall/F1 table computed on the held-out listeners (the best
row is then quoted), and the neighbour count of a k-NN bike-counter model taken as the
min(errs, key=errs.get) of test-year errors."""

from textwrap import dedent

from bench.critic_corpus import Case

_LISTENERS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(9301)
n = 1400
listeners = pd.DataFrame({
    "listener_id": np.arange(n),
    "episodes_30d": rng.poisson(6, n),
    "completion": rng.beta(3, 2, n).round(3),
    "days_since_signup": rng.integers(5, 900, n),
    "shows_followed": rng.poisson(3, n),
    "shares_30d": rng.poisson(0.3, n),
    "device": rng.choice(["ios", "android", "web"], n, p=[0.5, 0.4, 0.1]),
})
z = (-3.6 + 0.09 * listeners.episodes_30d + 1.4 * listeners.completion
     + 0.35 * listeners.shares_30d + 0.08 * listeners.shows_followed
     + 0.3 * listeners.device.eq("ios"))
listeners["converted"] = (rng.random(n) < 1 / (1 + np.exp(-z))).astype(int)
"""

_COUNTER = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(9302)
days = pd.date_range("2019-01-01", "2023-12-31", freq="D")
doy = days.dayofyear.to_numpy()
temp = 11 + 8 * np.sin(2 * np.pi * (doy - 110) / 365) + rng.normal(0, 3, len(days))
rain = np.where(rng.random(len(days)) < 0.45, rng.gamma(1.2, 4, len(days)), 0).round(1)
wind = rng.gamma(4, 1.2, len(days)).round(1)
weekday = days.dayofweek.to_numpy()
level = 2600 * np.where(weekday < 5, 1.0, 0.55) * (1 + 0.05 * (days.year - 2019))
bikes = level * np.exp(0.035 * (temp - 11) - 0.05 * rain - 0.03 * wind
                       + rng.normal(0, 0.12, len(days)))
counter = pd.DataFrame({"date": days, "temp_c": temp.round(1), "rain_mm": rain,
                        "wind_ms": wind, "weekday": weekday, "bikes": bikes.round()})
"""

CASES: list[Case] = [
    Case(
        id="circular_validation-h9-podcast-threshold-table-on-test",
        family="circular_validation",
        twin="circular_validation-h9-podcast-threshold-table-on-test-sound",
        split="holdout9",
        setup=_LISTENERS,
        note="The threshold is the row of the test-set table with the highest F1, and that same "
        "test F1 (with its precision and recall) is reported as the expected performance.",
        code=dedent("""\
            from sklearn.linear_model import LogisticRegression
            from sklearn.metrics import f1_score, precision_score, recall_score
            from sklearn.model_selection import train_test_split
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            X = pd.get_dummies(listeners.drop(columns=["listener_id", "converted"]),
                               columns=["device"], drop_first=True, dtype=float)
            y = listeners["converted"]
            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y,
                                                      random_state=8)
            model = make_pipeline(StandardScaler(), LogisticRegression(solver="liblinear"))
            model.fit(X_tr, y_tr)
            p_te = model.predict_proba(X_te)[:, 1]

            def at_threshold(y_true, p, t):
                pred = p >= t
                return {"threshold": t,
                        "precision": precision_score(y_true, pred, zero_division=0),
                        "recall": recall_score(y_true, pred),
                        "f1": f1_score(y_true, pred)}

            grid = np.arange(0.05, 0.61, 0.01).round(2)
            table = pd.DataFrame([at_threshold(y_te, p_te, t) for t in grid])
            best = table.loc[table["f1"].idxmax()]
            print(f"conversion rate {y.mean():.1%}; operating threshold {best['threshold']:.2f}")
            print(f"held-out listeners: precision {best['precision']:.3f}, "
                  f"recall {best['recall']:.3f}, F1 {best['f1']:.3f}")
        """),
    ),
    Case(
        id="circular_validation-h9-podcast-threshold-table-on-test-sound",
        family=None,
        twin="circular_validation-h9-podcast-threshold-table-on-test",
        split="holdout9",
        setup=_LISTENERS,
        note="The threshold is chosen on out-of-fold predictions for the training listeners; "
        "the held-out listeners are scored once at that fixed threshold.",
        code=dedent("""\
            from sklearn.linear_model import LogisticRegression
            from sklearn.metrics import f1_score, precision_score, recall_score
            from sklearn.model_selection import cross_val_predict, train_test_split
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            X = pd.get_dummies(listeners.drop(columns=["listener_id", "converted"]),
                               columns=["device"], drop_first=True, dtype=float)
            y = listeners["converted"]
            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y,
                                                      random_state=8)
            model = make_pipeline(StandardScaler(), LogisticRegression(solver="liblinear"))
            p_oof = cross_val_predict(model, X_tr, y_tr, cv=5, method="predict_proba")[:, 1]
            model.fit(X_tr, y_tr)
            p_te = model.predict_proba(X_te)[:, 1]

            def at_threshold(y_true, p, t):
                pred = p >= t
                return {"threshold": t,
                        "precision": precision_score(y_true, pred, zero_division=0),
                        "recall": recall_score(y_true, pred),
                        "f1": f1_score(y_true, pred)}

            grid = np.arange(0.05, 0.61, 0.01).round(2)
            table = pd.DataFrame([at_threshold(y_tr, p_oof, t) for t in grid])
            chosen = table.loc[table["f1"].idxmax(), "threshold"]
            best = at_threshold(y_te, p_te, chosen)
            print(f"conversion rate {y.mean():.1%}; operating threshold {chosen:.2f}")
            print(f"held-out listeners: precision {best['precision']:.3f}, "
                  f"recall {best['recall']:.3f}, F1 {best['f1']:.3f}")
        """),
    ),
    Case(
        id="circular_validation-h9-bike-counter-knn-k-from-test-year",
        family="circular_validation",
        twin="circular_validation-h9-bike-counter-knn-k-from-test-year-sound",
        split="holdout9",
        setup=_COUNTER,
        note="k and the weighting are chosen as the minimum of the 2023 (test) errors, and that "
        "minimum is reported as the out-of-sample error of the forecast model.",
        code=dedent("""\
            from sklearn.metrics import mean_absolute_error
            from sklearn.neighbors import KNeighborsRegressor
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            feats = ["temp_c", "rain_mm", "wind_ms", "weekday"]
            past = counter[counter.date.dt.year < 2023]
            year23 = counter[counter.date.dt.year == 2023]

            errs = {}
            for k in range(2, 41, 2):
                for weights in ("uniform", "distance"):
                    knn = make_pipeline(StandardScaler(),
                                        KNeighborsRegressor(n_neighbors=k, weights=weights))
                    knn.fit(past[feats], past["bikes"])
                    errs[k, weights] = mean_absolute_error(year23["bikes"],
                                                           knn.predict(year23[feats]))
            k_best, w_best = min(errs, key=errs.get)
            print(f"k-NN with k={k_best} ({w_best} weights)")
            print(f"2023 MAE: {errs[k_best, w_best]:.0f} bikes/day "
                  f"(mean daily count {year23['bikes'].mean():.0f})")
        """),
    ),
    Case(
        id="circular_validation-h9-bike-counter-knn-k-from-test-year-sound",
        family=None,
        twin="circular_validation-h9-bike-counter-knn-k-from-test-year",
        split="holdout9",
        setup=_COUNTER,
        note="k and the weighting are tuned by time-series cross-validation within 2019-2022; "
        "2023 is predicted once with the chosen model and its MAE reported.",
        code=dedent("""\
            from sklearn.metrics import mean_absolute_error
            from sklearn.model_selection import GridSearchCV, TimeSeriesSplit
            from sklearn.neighbors import KNeighborsRegressor
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            feats = ["temp_c", "rain_mm", "wind_ms", "weekday"]
            past = counter[counter.date.dt.year < 2023]
            year23 = counter[counter.date.dt.year == 2023]

            knn = make_pipeline(StandardScaler(), KNeighborsRegressor())
            search = GridSearchCV(
                knn,
                {"kneighborsregressor__n_neighbors": list(range(2, 41, 2)),
                 "kneighborsregressor__weights": ["uniform", "distance"]},
                cv=TimeSeriesSplit(n_splits=4), scoring="neg_mean_absolute_error",
            )
            search.fit(past[feats], past["bikes"])
            k_best = search.best_params_["kneighborsregressor__n_neighbors"]
            w_best = search.best_params_["kneighborsregressor__weights"]
            mae = mean_absolute_error(year23["bikes"], search.predict(year23[feats]))
            print(f"k-NN with k={k_best} ({w_best} weights)")
            print(f"2023 MAE: {mae:.0f} bikes/day (mean daily count {year23['bikes'].mean():.0f})")
        """),
    ),
]
