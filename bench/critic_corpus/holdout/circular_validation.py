"""Circular validation, held-out idioms: early stopping on the test set via staged_predict, and
an exhaustive feature-subset search scored on the test set with statsmodels."""

from textwrap import dedent

from bench.critic_corpus import Case

_ENERGY = """\
import numpy as np
import pandas as pd
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.metrics import mean_squared_error
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(404)
n = 900
bldg = pd.DataFrame({
    "outdoor_temp": rng.normal(12, 8, n),
    "occupancy": rng.integers(0, 250, n),
    "floor_area_k": rng.uniform(2, 40, n),
    "hour": rng.integers(0, 24, n),
    "weekday": rng.integers(0, 7, n),
})
bldg["kwh"] = (
    40 + 2.2 * np.abs(bldg.outdoor_temp - 18) + 0.35 * bldg.occupancy
    + 3.0 * bldg.floor_area_k + 25 * np.sin(np.pi * bldg.hour / 24)
    + rng.normal(0, 18, n)
)
X_train, X_test, y_train, y_test = train_test_split(
    bldg.drop(columns="kwh"), bldg.kwh, test_size=0.25, random_state=8
)
"""

_BIKES = """\
from itertools import combinations

import numpy as np
import pandas as pd
import statsmodels.api as sm

rng = np.random.default_rng(1212)
n = 420
hour = rng.integers(0, 24, n)
bikes = pd.DataFrame({
    "temp": rng.normal(18, 7, n),
    "humidity": rng.uniform(20, 95, n),
    "wind": rng.gamma(2, 4, n),
    "hour_sin": np.sin(2 * np.pi * hour / 24),
    "hour_cos": np.cos(2 * np.pi * hour / 24),
    "is_weekend": rng.integers(0, 2, n),
    "holiday": (rng.random(n) < 0.04).astype(int),
})
bikes["rentals"] = (
    180 + 6 * bikes.temp - 0.8 * bikes.humidity - 40 * bikes.hour_cos
    + 15 * bikes.is_weekend + rng.normal(0, 45, n)
)
train, test = bikes.iloc[:300], bikes.iloc[300:]
candidates = ["temp", "humidity", "wind", "hour_sin", "hour_cos", "is_weekend", "holiday"]
"""

CASES: list[Case] = [
    Case(
        id="circular-staged-predict-early-stop-energy",
        family="circular_validation",
        twin="circular-staged-predict-early-stop-energy-sound",
        split="holdout",
        note="Number of boosting stages chosen as the argmin of test-set error over "
        "staged_predict; that minimum is reported as the test RMSE.",
        code=_ENERGY + dedent("""\

            gbr = GradientBoostingRegressor(n_estimators=400, learning_rate=0.05, max_depth=3,
                                            random_state=0).fit(X_train, y_train)
            test_mse = [mean_squared_error(y_test, pred) for pred in gbr.staged_predict(X_test)]
            best_iter = int(np.argmin(test_mse)) + 1
            print(f"early-stopped at {best_iter} trees; "
                  f"test RMSE {np.sqrt(test_mse[best_iter - 1]):.2f} kWh")
        """),
    ),
    Case(
        id="circular-staged-predict-early-stop-energy-sound",
        family=None,
        twin="circular-staged-predict-early-stop-energy",
        split="holdout",
        note="Early stopping on an internal validation fraction of the training data "
        "(n_iter_no_change, seeded); the test set is scored once.",
        code=_ENERGY + dedent("""\

            gbr = GradientBoostingRegressor(n_estimators=400, learning_rate=0.05, max_depth=3,
                                            validation_fraction=0.2, n_iter_no_change=20,
                                            random_state=0).fit(X_train, y_train)
            rmse = np.sqrt(mean_squared_error(y_test, gbr.predict(X_test)))
            print(f"early-stopped at {gbr.n_estimators_} trees (validation split of train); "
                  f"test RMSE {rmse:.2f} kWh")
        """),
    ),
    Case(
        id="circular-best-subset-ols-bikes",
        family="circular_validation",
        twin="circular-best-subset-ols-bikes-sound",
        split="holdout",
        note="All 127 feature subsets ranked by RMSE on the test rows; the winner's test RMSE "
        "is reported.",
        code=_BIKES + dedent("""\

            rows = []
            for k in range(1, len(candidates) + 1):
                for subset in combinations(candidates, k):
                    cols = list(subset)
                    fit = sm.OLS(train.rentals, sm.add_constant(train[cols])).fit()
                    pred = fit.predict(sm.add_constant(test[cols], has_constant="add"))
                    rows.append({"features": cols, "k": k,
                                 "test_rmse": np.sqrt(np.mean((test.rentals - pred) ** 2))})
            ranking = pd.DataFrame(rows).sort_values("test_rmse")
            print(ranking.head(5).to_string(index=False))
            best = ranking.iloc[0]
            print(f"final model uses {best.features}: test RMSE = {best.test_rmse:.1f} rentals/h")
        """),
    ),
    Case(
        id="circular-best-subset-ols-bikes-sound",
        family=None,
        twin="circular-best-subset-ols-bikes",
        split="holdout",
        note="Subsets ranked by AIC on the training rows only; the chosen model is scored on "
        "the test rows once.",
        code=_BIKES + dedent("""\

            rows = []
            for k in range(1, len(candidates) + 1):
                for subset in combinations(candidates, k):
                    cols = list(subset)
                    fit = sm.OLS(train.rentals, sm.add_constant(train[cols])).fit()
                    rows.append({"features": cols, "k": k, "aic": fit.aic})
            ranking = pd.DataFrame(rows).sort_values("aic")
            print(ranking.head(5).to_string(index=False))
            cols = ranking.iloc[0].features
            final = sm.OLS(train.rentals, sm.add_constant(train[cols])).fit()
            pred = final.predict(sm.add_constant(test[cols], has_constant="add"))
            rmse = np.sqrt(np.mean((test.rentals - pred) ** 2))
            print(f"final model uses {cols}: test RMSE = {rmse:.1f} rentals/h")
        """),
    ),
]
