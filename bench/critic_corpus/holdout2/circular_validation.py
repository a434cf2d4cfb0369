"""Circular validation, holdout2 idioms: the random seed of a forest picked by its test AUC
("seed shopping"), and an exponential-smoothing span chosen by its error on the final
forecast window, which is then reported as the forecast error."""

from textwrap import dedent

from bench.critic_corpus import Case

_FRAUD = """\
import numpy as np
import pandas as pd
from sklearn.datasets import make_classification
from sklearn.ensemble import ExtraTreesClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

X, y = make_classification(n_samples=600, n_features=20, n_informative=4, flip_y=0.15,
                           weights=[0.85], random_state=77)
X_fit, X_holdout, y_fit, y_holdout = train_test_split(X, y, test_size=0.3, stratify=y,
                                                      random_state=13)
"""

_DEMAND = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(1733)
days = pd.date_range("2023-01-01", periods=420, freq="D")
level = 200 + np.cumsum(rng.normal(0, 4, len(days)))
units = pd.Series(level + rng.normal(0, 15, len(days)), index=days, name="units")
spans = [2, 3, 5, 7, 10, 14, 21, 28, 42, 56]


def one_step_errors(series, span):
    forecast = series.ewm(span=span, adjust=False).mean().shift(1)
    return (series - forecast).abs()
"""

CASES: list[Case] = [
    Case(
        id="circular-seed-shopping-extratrees",
        family="circular_validation",
        twin="circular-seed-shopping-extratrees-sound",
        split="holdout2",
        note="Twenty random_state values tried; the forest with the best hold-out AUC is kept "
        "and that maximum is reported as its AUC.",
        code=_FRAUD + dedent("""\

            results = {}
            for seed in range(20):
                forest = ExtraTreesClassifier(n_estimators=40, max_features=3,
                                              random_state=seed).fit(X_fit, y_fit)
                results[seed] = roc_auc_score(y_holdout, forest.predict_proba(X_holdout)[:, 1])
            best_seed = max(results, key=results.get)
            print(f"shipping ExtraTrees(random_state={best_seed}): "
                  f"hold-out AUC = {results[best_seed]:.4f}")
        """),
    ),
    Case(
        id="circular-seed-shopping-extratrees-sound",
        family=None,
        twin="circular-seed-shopping-extratrees",
        split="holdout2",
        note="The same twenty seeds are all reported (mean and spread of hold-out AUC); no "
        "seed is selected on the hold-out set.",
        code=_FRAUD + dedent("""\

            results = {}
            for seed in range(20):
                forest = ExtraTreesClassifier(n_estimators=40, max_features=3,
                                              random_state=seed).fit(X_fit, y_fit)
                results[seed] = roc_auc_score(y_holdout, forest.predict_proba(X_holdout)[:, 1])
            aucs = pd.Series(results)
            print(f"hold-out AUC over 20 seeds: mean {aucs.mean():.4f}, "
                  f"SD {aucs.std():.4f}, range {aucs.min():.4f}-{aucs.max():.4f}")
        """),
    ),
    Case(
        id="circular-ewm-span-last-window",
        family="circular_validation",
        twin="circular-ewm-span-last-window-sound",
        split="holdout2",
        note="EWM span picked by the lowest MAE on the last 60 days, and that same MAE is "
        "quoted as the expected forecast error.",
        code=_DEMAND + dedent("""\

            test_days = units.index[-60:]
            mae = {s: one_step_errors(units, s).loc[test_days].mean() for s in spans}
            span = min(mae, key=mae.get)
            print(pd.Series(mae, name="MAE on last 60 days").round(2).to_string())
            print(f"chosen span {span}: expected one-day-ahead error {mae[span]:.1f} units")
        """),
    ),
    Case(
        id="circular-ewm-span-last-window-sound",
        family=None,
        twin="circular-ewm-span-last-window",
        split="holdout2",
        note="Span chosen on a validation window before the final 60 days; the final window "
        "is scored once with the chosen span.",
        code=_DEMAND + dedent("""\

            valid_days, test_days = units.index[-120:-60], units.index[-60:]
            mae = {s: one_step_errors(units, s).loc[valid_days].mean() for s in spans}
            span = min(mae, key=mae.get)
            print(pd.Series(mae, name="MAE on validation window").round(2).to_string())
            test_mae = one_step_errors(units, span).loc[test_days].mean()
            print(f"chosen span {span}: one-day-ahead MAE on the final 60 days "
                  f"{test_mae:.1f} units")
        """),
    ),
]
