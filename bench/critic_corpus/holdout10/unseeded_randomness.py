"""Unseeded randomness, holdout10: a bootstrap CI for a median difference in agility course
times drawn with the global numpy generator (dog sports), and train_test_split plus a random
forest without random_state behind a reported MAE (e-scooter trip durations)."""

from textwrap import dedent

from bench.critic_corpus import Case

_AGILITY = """\
import numpy as np
import pandas as pd

gen = np.random.default_rng(10_091)
breeds = gen.choice(["Border Collie", "Sheltie", "Kelpie", "Jack Russell", "Poodle"], 140,
                    p=[0.35, 0.2, 0.15, 0.15, 0.15])
runs = pd.DataFrame({
    "dog": [f"D{i:03d}" for i in range(140)],
    "breed": breeds,
    "course_s": np.round(38 + np.where(breeds == "Border Collie", -2.0, 0.0)
                         + gen.gamma(2.0, 2.2, 140), 2),
    "faults": gen.poisson(0.8, 140),
})
"""

_SCOOTER = """\
import numpy as np
import pandas as pd

gen = np.random.default_rng(10_092)
n = 1400
trips = pd.DataFrame({
    "distance_km": gen.gamma(2.0, 0.9, n).round(2),
    "hour": gen.integers(0, 24, n),
    "weekend": gen.random(n) < 2 / 7,
    "battery_pct": gen.integers(15, 101, n),
    "uphill_m": gen.gamma(1.5, 8, n).round(),
    "rain": gen.random(n) < 0.15,
})
trips["duration_min"] = (2 + 4.1 * trips["distance_km"] + 0.05 * trips["uphill_m"]
                         + 1.5 * trips["weekend"] - 0.8 * trips["rain"]
                         + gen.gamma(2.0, 1.2, n)).round(1)
"""

CASES: list[Case] = [
    Case(
        id="unseeded_randomness-h10-agility-bootstrap-median",
        family="unseeded_randomness",
        twin="unseeded_randomness-h10-agility-bootstrap-median-sound",
        split="holdout10",
        setup=_AGILITY,
        note="The bootstrap resamples with np.random.choice from the unseeded global generator, "
        "so the reported 95% interval changes on every run.",
        code=dedent("""\
            collie = runs.loc[runs["breed"] == "Border Collie", "course_s"].to_numpy()
            other = runs.loc[runs["breed"] != "Border Collie", "course_s"].to_numpy()

            def boot_median_diff(a, b, reps=4000):
                diffs = np.empty(reps)
                for i in range(reps):
                    diffs[i] = (np.median(np.random.choice(a, a.size))
                                - np.median(np.random.choice(b, b.size)))
                return diffs

            d = boot_median_diff(collie, other)
            lo, hi = np.percentile(d, [2.5, 97.5])
            print(f"Border Collies n={collie.size}, others n={other.size}")
            print(f"median course time difference: {np.median(collie) - np.median(other):.2f} s "
                  f"(95% bootstrap CI {lo:.2f} to {hi:.2f})")
        """),
    ),
    Case(
        id="unseeded_randomness-h10-agility-bootstrap-median-sound",
        family=None,
        twin="unseeded_randomness-h10-agility-bootstrap-median",
        split="holdout10",
        setup=_AGILITY,
        note="The bootstrap draws from a Generator created with a fixed seed, so the interval is "
        "reproducible.",
        code=dedent("""\
            collie = runs.loc[runs["breed"] == "Border Collie", "course_s"].to_numpy()
            other = runs.loc[runs["breed"] != "Border Collie", "course_s"].to_numpy()
            rng = np.random.default_rng(20240611)

            def boot_median_diff(a, b, reps=4000):
                diffs = np.empty(reps)
                for i in range(reps):
                    diffs[i] = (np.median(rng.choice(a, a.size))
                                - np.median(rng.choice(b, b.size)))
                return diffs

            d = boot_median_diff(collie, other)
            lo, hi = np.percentile(d, [2.5, 97.5])
            print(f"Border Collies n={collie.size}, others n={other.size}")
            print(f"median course time difference: {np.median(collie) - np.median(other):.2f} s "
                  f"(95% bootstrap CI {lo:.2f} to {hi:.2f})")
        """),
    ),
    Case(
        id="unseeded_randomness-h10-scooter-rf-split",
        family="unseeded_randomness",
        twin="unseeded_randomness-h10-scooter-rf-split-sound",
        split="holdout10",
        setup=_SCOOTER,
        note="Neither train_test_split nor the random forest gets a random_state, so the split, "
        "the trees and the reported MAE differ from run to run.",
        code=dedent("""\
            from sklearn.ensemble import RandomForestRegressor
            from sklearn.metrics import mean_absolute_error
            from sklearn.model_selection import train_test_split

            X = trips.drop(columns="duration_min")
            y = trips["duration_min"]
            X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2)
            forest = RandomForestRegressor(n_estimators=150, min_samples_leaf=3, n_jobs=1)
            forest.fit(X_train, y_train)
            mae = mean_absolute_error(y_test, forest.predict(X_test))
            print(f"trip duration MAE: {mae:.2f} min (median trip {y.median():.1f} min)")
            pd.Series(forest.feature_importances_, index=X.columns).sort_values().round(3)
        """),
    ),
    Case(
        id="unseeded_randomness-h10-scooter-rf-split-sound",
        family=None,
        twin="unseeded_randomness-h10-scooter-rf-split",
        split="holdout10",
        setup=_SCOOTER,
        note="Both the split and the forest are given a fixed random_state, so the MAE is "
        "reproducible.",
        code=dedent("""\
            from sklearn.ensemble import RandomForestRegressor
            from sklearn.metrics import mean_absolute_error
            from sklearn.model_selection import train_test_split

            X = trips.drop(columns="duration_min")
            y = trips["duration_min"]
            X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2,
                                                                random_state=8)
            forest = RandomForestRegressor(n_estimators=150, min_samples_leaf=3, n_jobs=1,
                                           random_state=8)
            forest.fit(X_train, y_train)
            mae = mean_absolute_error(y_test, forest.predict(X_test))
            print(f"trip duration MAE: {mae:.2f} min (median trip {y.median():.1f} min)")
            pd.Series(forest.feature_importances_, index=X.columns).sort_values().round(3)
        """),
    ),
]
