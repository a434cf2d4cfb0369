"""Circular validation, holdout3 idioms: GridSearchCV.best_score_ quoted as the expected
accuracy (selection and estimate on the same folds), an isotonic calibrator fitted on the test
predictions and its calibration error read off the same test set, and a statsmodels formula
chosen among 30 specifications by test RMSE."""

from textwrap import dedent

from bench.critic_corpus import Case

_WAFERS = """\
import numpy as np
import pandas as pd
from sklearn.datasets import make_classification
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

X, y = make_classification(n_samples=160, n_features=30, n_informative=3, n_redundant=2,
                           flip_y=0.3, class_sep=0.5, random_state=12)
# in-line metrology of 160 wafer lots; y = 1 if the lot failed final electrical test
lots = pd.DataFrame(X, columns=[f"etch_{i:02d}" for i in range(30)]).assign(failed=y)
grid = {"svc__C": np.logspace(-1, 2, 4), "svc__gamma": np.logspace(-3, 0, 4)}
"""

_HOTEL = """\
import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(1906)
n = 2000
bookings = pd.DataFrame({
    "lead_time_d": rng.gamma(1.5, 60, n).round(),
    "adr_eur": rng.normal(110, 35, n).clip(30).round(2),
    "special_requests": rng.poisson(0.6, n),
    "prev_cancellations": rng.poisson(0.15, n),
    "non_refundable": rng.random(n) < 0.15,
})
logit = (-1.3 + 0.008 * bookings.lead_time_d - 0.5 * bookings.special_requests
         + 1.2 * bookings.prev_cancellations - 1.0 * bookings.non_refundable)
bookings["canceled"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
X_tr, X_te, y_tr, y_te = train_test_split(bookings.drop(columns="canceled"), bookings.canceled,
                                          test_size=0.25, stratify=bookings.canceled,
                                          random_state=8)


def ece(y_true, prob, bins=10):
    \"\"\"Expected calibration error over equal-width probability bins.\"\"\"
    idx = np.minimum((prob * bins).astype(int), bins - 1)
    frame = pd.DataFrame({"y": np.asarray(y_true), "p": prob, "bin": idx})
    g = frame.groupby("bin").agg(n=("y", "size"), obs=("y", "mean"), pred=("p", "mean"))
    return float((g.n * (g.obs - g.pred).abs()).sum() / g.n.sum())
"""

_NITROGEN = """\
import numpy as np
import pandas as pd
import statsmodels.formula.api as smf

rng = np.random.default_rng(4040)
n = 160
trials = pd.DataFrame({
    "N": rng.choice(np.arange(0, 280, 40), n),
    "rain_mm": rng.normal(520, 90, n).round(),
    "soil_om": rng.uniform(1.0, 4.5, n).round(2),
    "variety": rng.choice(["Apex", "Bolt", "Crest"], n),
})
# quadratic-plateau response to nitrogen plus a rainfall effect
n_eff = np.minimum(trials.N, 190)
trials["yield_t"] = (4.2 + 0.028 * n_eff - 0.00006 * n_eff ** 2 + 0.002 * (trials.rain_mm - 520)
                     + rng.normal(0, 0.75, n)).round(2)
train, test = trials.iloc[:120], trials.iloc[120:]
n_terms = ["N", "N + I(N**2)", "np.log1p(N)", "np.sqrt(N)", "N + I(N**2) + I(N**3)"]
extras = ["", " + rain_mm", " + rain_mm + soil_om", " + C(variety)",
          " + rain_mm + soil_om + C(variety)", " + rain_mm * soil_om + C(variety)"]
candidates = [f"yield_t ~ {a}{b}" for a in n_terms for b in extras]
"""

CASES: list[Case] = [
    Case(
        id="circular-best-score-wafer-svc",
        family="circular_validation",
        twin="circular-best-score-wafer-svc-sound",
        split="holdout3",
        setup=_WAFERS,
        note="GridSearchCV.best_score_ (the maximum over 16 C/gamma settings of the same CV "
        "folds used to pick it) is reported as the expected accuracy on new lots.",
        code=dedent("""\
            cv = StratifiedKFold(n_splits=3, shuffle=True, random_state=0)
            search = GridSearchCV(make_pipeline(StandardScaler(), SVC()), grid, cv=cv,
                                  scoring="balanced_accuracy")
            search.fit(lots.drop(columns="failed"), lots.failed)
            best = {k.split("__")[1]: float(f"{v:.3g}") for k, v in search.best_params_.items()}
            print(f"best setting: {best}")
            print(f"expected balanced accuracy on new lots: {search.best_score_:.3f}")
        """),
    ),
    Case(
        id="circular-best-score-wafer-svc-sound",
        family=None,
        twin="circular-best-score-wafer-svc",
        split="holdout3",
        setup=_WAFERS,
        note="Nested CV: the whole grid search is repeated inside each outer fold, and the "
        "outer-fold scores (never used for selection) estimate performance on new lots.",
        code=dedent("""\
            from sklearn.model_selection import cross_validate

            inner = StratifiedKFold(n_splits=3, shuffle=True, random_state=0)
            outer = StratifiedKFold(n_splits=4, shuffle=True, random_state=1)
            search = GridSearchCV(make_pipeline(StandardScaler(), SVC()), grid, cv=inner,
                                  scoring="balanced_accuracy")
            nested = cross_validate(search, lots.drop(columns="failed"), lots.failed, cv=outer,
                                    scoring="balanced_accuracy", return_estimator=True)
            chosen = [{k.split("__")[1]: float(f"{v:.3g}") for k, v in est.best_params_.items()}
                      for est in nested["estimator"]]
            print(f"settings chosen in the outer folds: {chosen}")
            print(f"expected balanced accuracy on new lots (nested CV): "
                  f"{nested['test_score'].mean():.3f} +/- {nested['test_score'].std():.3f}")
        """),
    ),
    Case(
        id="circular-isotonic-on-test-hotel",
        family="circular_validation",
        twin="circular-isotonic-on-test-hotel-sound",
        split="holdout3",
        setup=_HOTEL,
        note="The isotonic calibrator is fitted on the test-set predictions and its Brier score "
        "and calibration error are then measured on that same test set.",
        code=dedent("""\
            from sklearn.isotonic import IsotonicRegression
            from sklearn.metrics import brier_score_loss

            forest = RandomForestClassifier(n_estimators=100, min_samples_leaf=2,
                                            random_state=0).fit(X_tr, y_tr)
            raw = forest.predict_proba(X_te)[:, 1]
            iso = IsotonicRegression(out_of_bounds="clip").fit(raw, y_te)
            calibrated = iso.predict(raw)
            pd.DataFrame(
                {"brier": [brier_score_loss(y_te, p) for p in (raw, calibrated)],
                 "ece": [ece(y_te, p) for p in (raw, calibrated)]},
                index=["forest", "forest + isotonic"],
            ).round(4)
        """),
    ),
    Case(
        id="circular-isotonic-on-test-hotel-sound",
        family=None,
        twin="circular-isotonic-on-test-hotel",
        split="holdout3",
        setup=_HOTEL,
        note="Isotonic calibration is learned by CalibratedClassifierCV inside the training "
        "set (5 folds); the test set only scores the raw and calibrated models once.",
        code=dedent("""\
            from sklearn.calibration import CalibratedClassifierCV
            from sklearn.metrics import brier_score_loss

            forest = RandomForestClassifier(n_estimators=100, min_samples_leaf=2, random_state=0)
            raw = forest.fit(X_tr, y_tr).predict_proba(X_te)[:, 1]
            calibrated_model = CalibratedClassifierCV(forest, method="isotonic", cv=5)
            calibrated = calibrated_model.fit(X_tr, y_tr).predict_proba(X_te)[:, 1]
            pd.DataFrame(
                {"brier": [brier_score_loss(y_te, p) for p in (raw, calibrated)],
                 "ece": [ece(y_te, p) for p in (raw, calibrated)]},
                index=["forest", "forest + isotonic"],
            ).round(4)
        """),
    ),
    Case(
        id="circular-formula-search-nitrogen",
        family="circular_validation",
        twin="circular-formula-search-nitrogen-sound",
        split="holdout3",
        setup=_NITROGEN,
        note="Thirty OLS specifications are ranked by RMSE on the 40 test plots and the "
        "winner's test RMSE is quoted as its accuracy.",
        code=dedent("""\
            def test_rmse(formula):
                fit = smf.ols(formula, data=train).fit()
                return float(np.sqrt(np.mean((test.yield_t - fit.predict(test)) ** 2)))


            scores = pd.Series({f: test_rmse(f) for f in candidates}).sort_values()
            print(f"{len(scores)} specifications compared; chosen: {scores.index[0]}")
            print(f"test RMSE of the chosen model: {scores.iloc[0]:.3f} t/ha "
                  f"(median over specifications {scores.median():.3f})")
        """),
    ),
    Case(
        id="circular-formula-search-nitrogen-sound",
        family=None,
        twin="circular-formula-search-nitrogen",
        split="holdout3",
        setup=_NITROGEN,
        note="Specifications are ranked by 5-fold CV RMSE within the 120 training plots; the "
        "chosen formula is refitted on them and scored on the 40 test plots once.",
        code=dedent("""\
            from sklearn.model_selection import KFold


            def rmse(formula, fit_rows, eval_rows):
                fit = smf.ols(formula, data=fit_rows).fit()
                return float(np.sqrt(np.mean((eval_rows.yield_t - fit.predict(eval_rows)) ** 2)))


            folds = list(KFold(n_splits=5, shuffle=True, random_state=0).split(train))
            cv_scores = pd.Series({
                f: np.mean([rmse(f, train.iloc[a], train.iloc[b]) for a, b in folds])
                for f in candidates
            }).sort_values()
            chosen = cv_scores.index[0]
            print(f"{len(cv_scores)} specifications compared by CV; chosen: {chosen}")
            print(f"test RMSE of the chosen model: {rmse(chosen, train, test):.3f} t/ha "
                  f"(its CV RMSE {cv_scores.iloc[0]:.3f})")
        """),
    ),
]
