"""Suspicious values, holdout5 idioms: a degree-7 np.polyfit through the eight mean yields of a
seeding-rate trial, reported with an R^2 of exactly 1, and r2_score called with its arguments
swapped (predictions first) in a model-comparison loop, printing R^2 values far below zero."""

from textwrap import dedent

from bench.critic_corpus import Case

_SEEDING = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(9191)
rates = np.array([150, 200, 250, 300, 350, 400, 450, 500])     # seeds per m^2
plots = pd.DataFrame({
    "rate": np.repeat(rates, 4),
    "rep": np.tile([1, 2, 3, 4], len(rates)),
})
# a plateauing response: yield rises with density and then levels off, plus plot noise
plots["yield_t_ha"] = (4.2 + 3.1 * (1 - np.exp(-(plots.rate - 100) / 140))
                       + rng.normal(0, 0.45, len(plots))).round(2)
"""

_LGD = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(6464)
n = 1800
loans = pd.DataFrame({
    "ltv": rng.uniform(0.3, 1.1, n),
    "seniority": rng.integers(0, 2, n),          # 1 = senior secured
    "months_in_default": rng.integers(1, 36, n),
    "sector_cyclical": rng.integers(0, 2, n),
    "collateral_liquidity": rng.beta(3, 2, n),
})
signal = (0.35 * loans.ltv - 0.18 * loans.seniority + 0.08 * loans.sector_cyclical
          - 0.15 * loans.collateral_liquidity)
# most of the loss given default is workout-specific noise
loans["lgd"] = (0.35 + signal + rng.normal(0, 0.22, n)).clip(0, 1).round(3)
"""

CASES: list[Case] = [
    Case(
        id="suspicious-polyfit-degree-seven-r2-one",
        family="suspicious_values",
        twin="suspicious-polyfit-degree-seven-r2-one-sound",
        split="holdout5",
        setup=_SEEDING,
        note="A degree-7 polynomial through 8 mean yields interpolates them exactly: the "
        "reported R^2 = 1.000 and the 'optimum' come from a curve that fits the plot noise.",
        code=dedent("""\
            means = plots.groupby("rate")["yield_t_ha"].mean()
            coefs = np.polyfit(means.index, means.values, deg=7)
            fitted = np.polyval(coefs, means.index)
            r2 = 1 - np.sum((means.values - fitted) ** 2) / np.sum((means.values
                                                                    - means.mean()) ** 2)
            grid = np.linspace(150, 500, 351)
            best = grid[np.argmax(np.polyval(coefs, grid))]
            print(f"seeding-rate response curve: R^2 = {r2:.3f}")
            print(f"optimum seeding rate: {best:.0f} seeds/m^2, "
                  f"predicted yield {np.polyval(coefs, best):.2f} t/ha")
        """),
    ),
    Case(
        id="suspicious-polyfit-degree-seven-r2-one-sound",
        family=None,
        twin="suspicious-polyfit-degree-seven-r2-one",
        split="holdout5",
        setup=_SEEDING,
        note="A quadratic response (the agronomic convention) fitted to all 32 plots, with its "
        "plot-level R^2 and leave-one-rate-out prediction error, then the optimum.",
        code=dedent("""\
            coefs = np.polyfit(plots.rate, plots.yield_t_ha, deg=2)
            fitted = np.polyval(coefs, plots.rate)
            r2 = 1 - np.sum((plots.yield_t_ha - fitted) ** 2) / np.sum(
                (plots.yield_t_ha - plots.yield_t_ha.mean()) ** 2)
            loro = []
            for r in plots.rate.unique():
                held = plots.rate == r
                c = np.polyfit(plots.rate[~held], plots.yield_t_ha[~held], deg=2)
                loro.append(plots.yield_t_ha[held] - np.polyval(c, r))
            rmse = float(np.sqrt(np.mean(np.concatenate(loro) ** 2)))
            grid = np.linspace(150, 500, 351)
            best = grid[np.argmax(np.polyval(coefs, grid))]
            print(f"quadratic response: plot-level R^2 = {r2:.3f}, "
                  f"leave-one-rate-out RMSE = {rmse:.2f} t/ha")
            print(f"optimum seeding rate: {best:.0f} seeds/m^2, "
                  f"predicted yield {np.polyval(coefs, best):.2f} t/ha")
        """),
    ),
    Case(
        id="suspicious-swapped-r2-args-lgd",
        family="suspicious_values",
        twin="suspicious-swapped-r2-args-lgd-sound",
        split="holdout5",
        setup=_LGD,
        note="r2_score(pred, y_test) has its arguments swapped: every model prints an R^2 near "
        "-1.6 (true values 0.22-0.28) and the ranking puts gbm above ridge, the wrong way round.",
        code=dedent("""\
            from sklearn.ensemble import GradientBoostingRegressor
            from sklearn.linear_model import Ridge
            from sklearn.metrics import mean_absolute_error, r2_score
            from sklearn.model_selection import train_test_split
            from sklearn.tree import DecisionTreeRegressor

            X, y = loans.drop(columns="lgd"), loans["lgd"]
            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, random_state=21)
            candidates = {
                "ridge": Ridge(alpha=1.0),
                "tree": DecisionTreeRegressor(max_depth=4, random_state=0),
                "gbm": GradientBoostingRegressor(n_estimators=150, max_depth=2, random_state=0),
            }
            for name, model in candidates.items():
                pred = model.fit(X_tr, y_tr).predict(X_te)
                print(f"{name:6s} test R^2 = {r2_score(pred, y_te):7.3f}   "
                      f"MAE = {mean_absolute_error(y_te, pred):.3f}")
        """),
    ),
    Case(
        id="suspicious-swapped-r2-args-lgd-sound",
        family=None,
        twin="suspicious-swapped-r2-args-lgd",
        split="holdout5",
        setup=_LGD,
        note="r2_score(y_test, pred) in the documented order: modest positive test R^2 values, "
        "as expected for loss given default.",
        code=dedent("""\
            from sklearn.ensemble import GradientBoostingRegressor
            from sklearn.linear_model import Ridge
            from sklearn.metrics import mean_absolute_error, r2_score
            from sklearn.model_selection import train_test_split
            from sklearn.tree import DecisionTreeRegressor

            X, y = loans.drop(columns="lgd"), loans["lgd"]
            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, random_state=21)
            candidates = {
                "ridge": Ridge(alpha=1.0),
                "tree": DecisionTreeRegressor(max_depth=4, random_state=0),
                "gbm": GradientBoostingRegressor(n_estimators=150, max_depth=2, random_state=0),
            }
            for name, model in candidates.items():
                pred = model.fit(X_tr, y_tr).predict(X_te)
                print(f"{name:6s} test R^2 = {r2_score(y_te, pred):7.3f}   "
                      f"MAE = {mean_absolute_error(y_te, pred):.3f}")
        """),
    ),
]
