"""Suspicious values, holdout2 idioms: sklearn's MAPE on a demand series with zero days
(an error of ~10^14 %), and exponentiated decision_function log-odds reported as default
probabilities above 1."""

from textwrap import dedent

from bench.critic_corpus import Case

_SPARES = """\
import numpy as np
import pandas as pd
from sklearn.linear_model import PoissonRegressor
from sklearn.metrics import mean_absolute_error, mean_absolute_percentage_error

rng = np.random.default_rng(4242)
n = 730
spares = pd.DataFrame({
    "fleet_hours": rng.gamma(5, 40, n),
    "is_winter": (np.arange(n) % 365 > 300).astype(int),
})
spares["units"] = rng.poisson(0.004 * spares.fleet_hours * (1 + 0.5 * spares.is_winter))
train, test = spares.iloc[:550], spares.iloc[550:]
feats = ["fleet_hours", "is_winter"]
model = PoissonRegressor(alpha=1e-4).fit(train[feats], train.units)
pred = model.predict(test[feats])
"""

_LOANS = """\
import numpy as np
import pandas as pd
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

X, y = make_classification(n_samples=1500, n_features=8, n_informative=5, weights=[0.8],
                           class_sep=1.5, random_state=31)
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y, random_state=2)
scorecard = LogisticRegression(max_iter=1000).fit(X_tr, y_tr)
"""

CASES: list[Case] = [
    Case(
        id="suspicious-mape-zero-demand",
        family="suspicious_values",
        twin="suspicious-mape-zero-demand-sound",
        split="holdout2",
        note="mean_absolute_percentage_error on intermittent demand with many zero days: "
        "dividing by ~eps prints a MAPE of about 10^14 %.",
        code=_SPARES + dedent("""\

            mape = mean_absolute_percentage_error(test.units, pred)
            print(f"spare-part forecast: MAE {mean_absolute_error(test.units, pred):.2f} units, "
                  f"MAPE {mape:.1%}")
        """),
    ),
    Case(
        id="suspicious-mape-zero-demand-sound",
        family=None,
        twin="suspicious-mape-zero-demand",
        split="holdout2",
        note="WAPE (total absolute error over total demand), which is defined with zero "
        "days, reported next to the MAE and the share of zero days.",
        code=_SPARES + dedent("""\

            wape = np.abs(test.units - pred).sum() / test.units.sum()
            print(f"{(test.units == 0).mean():.0%} of test days have zero demand")
            print(f"spare-part forecast: MAE {mean_absolute_error(test.units, pred):.2f} units, "
                  f"WAPE {wape:.1%}")
        """),
    ),
    Case(
        id="suspicious-odds-as-probability",
        family="suspicious_values",
        twin="suspicious-odds-as-probability-sound",
        split="holdout2",
        note="np.exp(decision_function) gives odds, not probabilities: the printed "
        "'probability of default' reaches values far above 1.",
        code=_LOANS + dedent("""\

            p_default = pd.Series(np.exp(scorecard.decision_function(X_te)), name="p_default")
            print(p_default.describe(percentiles=[0.5, 0.9, 0.99]).round(3).to_string())
            print(f"expected defaults in the test book: {p_default.sum():.0f} "
                  f"(observed {y_te.sum()})")
        """),
    ),
    Case(
        id="suspicious-odds-as-probability-sound",
        family=None,
        twin="suspicious-odds-as-probability",
        split="holdout2",
        note="Probabilities from predict_proba (the logistic of the log-odds), so they lie in "
        "[0, 1] and sum to a plausible expected default count.",
        code=_LOANS + dedent("""\

            p_default = pd.Series(scorecard.predict_proba(X_te)[:, 1], name="p_default")
            print(p_default.describe(percentiles=[0.5, 0.9, 0.99]).round(3).to_string())
            print(f"expected defaults in the test book: {p_default.sum():.0f} "
                  f"(observed {y_te.sum()})")
        """),
    ),
]
