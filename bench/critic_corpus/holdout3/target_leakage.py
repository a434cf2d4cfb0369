"""Target leakage, holdout3 idioms: a watch-recorded race pace (finish time / distance) in a
numpy least-squares model of marathon finish time, post-flight timings in a
ColumnTransformer + logistic arrival-delay classifier, and whole-course activity aggregated with
groupby.agg to predict course completion (activity after dropping out is part of the outcome)."""

from textwrap import dedent

from bench.critic_corpus import Case

_RUNNERS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(42195)
n = 900
age = rng.integers(20, 65, n)
weekly_km = rng.gamma(6, 8, n)
long_runs = rng.poisson(6, n)
finish_min = 330 - 1.1 * weekly_km - 3 * long_runs + 0.9 * (age - 40) + rng.normal(0, 22, n)
runners = pd.DataFrame({
    "age": age,
    "weekly_km": weekly_km.round(1),
    "long_runs": long_runs,
    # average pace over the race, from the runner's GPS watch (min/km)
    "avg_pace": (finish_min / 42.195 + rng.normal(0, 0.05, n)).round(2),
    "finish_min": finish_min.round(1),
})
"""

_FLIGHTS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(7)
n = 3000
flights = pd.DataFrame({
    "carrier": pd.Categorical(rng.choice(["AA", "DL", "UA", "WN", "B6"], n)),
    "sched_dep_hour": rng.integers(5, 23, n),
    "distance_mi": rng.integers(150, 2600, n),
})
flights["sched_elapsed_min"] = (flights.distance_mi / 7.5 + 35).round()
late_dep = rng.random(n) < 0.3 + 0.01 * (flights.sched_dep_hour - 5)
flights["dep_delay_min"] = np.where(late_dep, rng.exponential(30, n), rng.normal(-3, 4, n)).round()
flights["taxi_in_min"] = rng.gamma(2, 4, n).round()
flights["actual_elapsed_min"] = (flights.sched_elapsed_min + rng.normal(-4, 12, n)
                                 + flights.taxi_in_min - 8).round()
arr_delay = flights.dep_delay_min + flights.actual_elapsed_min - flights.sched_elapsed_min
flights["arr_delayed_15"] = (arr_delay > 15).astype(int)
"""

_COURSE = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(1515)
n_students, n_weeks = 700, 12
prior_gpa = rng.normal(3.0, 0.5, n_students).clip(1.0, 4.0)
engagement = rng.normal(0, 1, n_students)
# week in which the student stops engaging (n_weeks + 1 = never drops out)
hazard = 1 / (1 + np.exp(-(-3.3 - 0.8 * engagement - 0.6 * (prior_gpa - 3))))
drop_week = np.where(rng.random((n_students, n_weeks)) < hazard[:, None], 1, 0).argmax(axis=1) + 1
never = rng.random(n_students) > 1 - (1 - hazard) ** n_weeks
drop_week = np.where(never, n_weeks + 1, drop_week)
weeks = np.arange(1, n_weeks + 1)
active = weeks[None, :] < drop_week[:, None]
log = pd.DataFrame({
    "student": np.repeat(np.arange(n_students), n_weeks),
    "week": np.tile(weeks, n_students),
    "video_min": (active * rng.gamma(2 + engagement.clip(-1.5)[:, None] + 1.5, 20,
                                     (n_students, n_weeks))).ravel().round(),
    "quiz_taken": (active & (rng.random((n_students, n_weeks)) < 0.7)).ravel().astype(int),
})
students = pd.DataFrame({"student": np.arange(n_students), "prior_gpa": prior_gpa.round(2),
                         "completed": (drop_week > n_weeks).astype(int)})
"""

CASES: list[Case] = [
    Case(
        id="target-leakage-race-pace-marathon",
        family="target_leakage",
        twin="target-leakage-race-pace-marathon-sound",
        split="holdout3",
        setup=_RUNNERS,
        note="avg_pace is the race's own finish time divided by 42.195 km (recorded during the "
        "race), so the least-squares 'prediction' of finish time just rescales it.",
        code=dedent("""\
            features = [c for c in runners.columns if c != "finish_min"]
            is_test = np.arange(len(runners)) % 5 == 0


            def design(frame):
                return np.column_stack([np.ones(len(frame)), frame[features].to_numpy(float)])


            y = runners.finish_min.to_numpy()
            coef, *_ = np.linalg.lstsq(design(runners[~is_test]), y[~is_test], rcond=None)
            resid = y[is_test] - design(runners[is_test]) @ coef
            r2 = 1 - resid.var() / y[is_test].var()
            print(f"features: {features}")
            print(f"held-out R^2 = {r2:.3f}, RMSE = {np.sqrt(np.mean(resid ** 2)):.1f} min")
        """),
    ),
    Case(
        id="target-leakage-race-pace-marathon-sound",
        family=None,
        twin="target-leakage-race-pace-marathon",
        split="holdout3",
        setup=_RUNNERS,
        note="Only what is known before the start (age, training volume, long runs) predicts "
        "the finish time; the in-race pace is excluded.",
        code=dedent("""\
            # avg_pace is measured during the race itself, so it cannot be a predictor
            features = ["age", "weekly_km", "long_runs"]
            is_test = np.arange(len(runners)) % 5 == 0


            def design(frame):
                return np.column_stack([np.ones(len(frame)), frame[features].to_numpy(float)])


            y = runners.finish_min.to_numpy()
            coef, *_ = np.linalg.lstsq(design(runners[~is_test]), y[~is_test], rcond=None)
            resid = y[is_test] - design(runners[is_test]) @ coef
            r2 = 1 - resid.var() / y[is_test].var()
            print(f"features: {features}")
            print(f"held-out R^2 = {r2:.3f}, RMSE = {np.sqrt(np.mean(resid ** 2)):.1f} min")
        """),
    ),
    Case(
        id="target-leakage-post-flight-timings",
        family="target_leakage",
        twin="target-leakage-post-flight-timings-sound",
        split="holdout3",
        setup=_FLIGHTS,
        note="actual_elapsed_min and taxi_in_min are recorded at arrival; with dep_delay they "
        "reconstruct the arrival delay that defines arr_delayed_15.",
        code=dedent("""\
            from sklearn.compose import make_column_transformer
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import StratifiedKFold, cross_validate
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import OneHotEncoder, StandardScaler

            X = flights.drop(columns="arr_delayed_15")
            y = flights.arr_delayed_15
            numeric = X.columns.drop("carrier")
            clf = make_pipeline(
                make_column_transformer((OneHotEncoder(), ["carrier"]),
                                        (StandardScaler(), numeric)),
                LogisticRegression(max_iter=1000),
            )
            cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=1)
            res = cross_validate(clf, X, y, cv=cv, scoring=["accuracy", "roc_auc"])
            print(f"{X.shape[1]} features: {', '.join(X.columns)}")
            print(f"delay model: accuracy {res['test_accuracy'].mean():.3f}, "
                  f"AUC {res['test_roc_auc'].mean():.3f}")
        """),
    ),
    Case(
        id="target-leakage-post-flight-timings-sound",
        family=None,
        twin="target-leakage-post-flight-timings",
        split="holdout3",
        setup=_FLIGHTS,
        note="The model scores flights at gate departure: schedule, carrier and departure delay "
        "only; flight time and taxi-in (known at arrival) are excluded.",
        code=dedent("""\
            from sklearn.compose import make_column_transformer
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import StratifiedKFold, cross_validate
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import OneHotEncoder, StandardScaler

            # scored at gate departure: dep_delay is known, flight time and taxi-in are not
            at_departure = ["carrier", "sched_dep_hour", "distance_mi", "sched_elapsed_min",
                            "dep_delay_min"]
            X = flights[at_departure]
            y = flights.arr_delayed_15
            numeric = X.columns.drop("carrier")
            clf = make_pipeline(
                make_column_transformer((OneHotEncoder(), ["carrier"]),
                                        (StandardScaler(), numeric)),
                LogisticRegression(max_iter=1000),
            )
            cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=1)
            res = cross_validate(clf, X, y, cv=cv, scoring=["accuracy", "roc_auc"])
            print(f"{X.shape[1]} features: {', '.join(X.columns)}")
            print(f"delay model: accuracy {res['test_accuracy'].mean():.3f}, "
                  f"AUC {res['test_roc_auc'].mean():.3f}")
        """),
    ),
    Case(
        id="target-leakage-whole-course-activity",
        family="target_leakage",
        twin="target-leakage-whole-course-activity-sound",
        split="holdout3",
        setup=_COURSE,
        note="Activity is aggregated over all 12 weeks, so students who dropped out have no "
        "activity after their drop week: the features encode the completion label.",
        code=dedent("""\
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import cross_val_score
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            # early-warning model: which students will not complete the course?
            activity = log.groupby("student").agg(
                video_min=("video_min", "sum"),
                quizzes=("quiz_taken", "sum"),
                active_weeks=("video_min", lambda v: (v > 0).sum()),
            )
            data = students.join(activity, on="student")
            feats = ["prior_gpa", "video_min", "quizzes", "active_weeks"]
            model = make_pipeline(StandardScaler(), LogisticRegression())
            auc = cross_val_score(model, data[feats], data.completed, cv=5, scoring="roc_auc")
            print(f"completion rate {data.completed.mean():.1%}; "
                  f"early-warning AUC = {auc.mean():.3f}")
        """),
    ),
    Case(
        id="target-leakage-whole-course-activity-sound",
        family=None,
        twin="target-leakage-whole-course-activity",
        split="holdout3",
        setup=_COURSE,
        note="Only activity from weeks 1-3 (available when the early warning is issued) is "
        "aggregated, so later dropout is not encoded in the features.",
        code=dedent("""\
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import cross_val_score
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            # early-warning model issued after week 3: only weeks 1-3 of activity are known
            activity = log.query("week <= 3").groupby("student").agg(
                video_min=("video_min", "sum"),
                quizzes=("quiz_taken", "sum"),
                active_weeks=("video_min", lambda v: (v > 0).sum()),
            )
            data = students.join(activity, on="student")
            feats = ["prior_gpa", "video_min", "quizzes", "active_weeks"]
            model = make_pipeline(StandardScaler(), LogisticRegression())
            auc = cross_val_score(model, data[feats], data.completed, cv=5, scoring="roc_auc")
            print(f"completion rate {data.completed.mean():.1%}; "
                  f"early-warning AUC = {auc.mean():.3f}")
        """),
    ),
]
