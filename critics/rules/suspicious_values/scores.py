"""Suspicious model scores: a perfect score (training data or a leak), a negative R²,
a percentage error that blew up on near-zero targets."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from ...ast_cache import walk
from ...code_model import called_name
from ...evidence import Evidence
from ...findings import Finding
from ...rule import rule
from ._code import cell_index
from ._scan import _confidence, _finding, _Obs, _scaled, _scan
from ._vocabulary import PERFECT_QUANTITIES, _name_quantity


@rule("suspicious_values.perfect_score",
      title="Perfect score (1.0): evaluation on training data or a leak")
def perfect_score(ev: Evidence) -> Iterator[Finding]:
    """Accuracy, R², AUC or F1 of exactly 1.0 almost never happens on held-out real data:
    the model was evaluated on the data it was fit on, or the target leaked into the
    features. Critical when the code visibly scores the fitting data and reports it as the
    model's performance."""
    scan = _scan(ev)
    hits: list[tuple[_Obs, list[float]]] = []
    for o in scan.obs:
        if o.quantity not in PERFECT_QUANTITIES or not o.reported or o.intermediate:
            continue
        vals = [v for v in o.values if v == v]
        if not vals:
            continue
        scale = [(_scaled(o, v, True) or 0.0) if o.quantity != "r2" else
                 (v / 100 if o.percent else v) for v in vals]
        perfect = [v for v, s in zip(vals, scale, strict=True) if abs(s - 1.0) < 1e-12]
        if not perfect:
            continue
        if o.multi and not o.is_dict and o.source == "facts" and len(perfect) < len(vals):
            continue  # one fold at 1.0 among others: not a perfect result
        if o.multi and o.source == "text" and o.quantity == "f1" and len(perfect) < len(vals):
            continue
        hits.append((o, perfect))
    if not hits:
        return
    train = [(o, v) for o, v in hits if o.context == "train" or o.train_visible]
    other = [(o, v) for o, v in hits if (o, v) not in train]
    if train and not scan.heldout_reported:
        visible = [(o, v) for o, v in train if o.train_visible and not o.label_train]
        if visible:
            conf = max(0.85 if o.source == "facts" else 0.8 for o, _ in visible)
            yield _finding(visible, "A perfect score computed on the data the model was fit "
                           "on is reported as its performance", "critical", conf,
                           "Evaluate on held-out data: `train_test_split` before fitting and "
                           "report `model.score(X_test, y_test)`, or use `cross_val_score` with "
                           "the preprocessing inside a Pipeline.")
            return
        conf = max(0.7 if o.source == "facts" else 0.65 for o, _ in train)
        yield _finding(train, "A perfect training score is the only performance the cell "
                       "reports; it says nothing about how the model generalises",
                       "high", conf,
                       "Report a held-out score (test split or cross-validation) next to it.")
        return
    if not other:
        return  # perfect training score next to a held-out score: an overfitting diagnostic
    small = _small_test_set(ev, other)
    if small is not None:
        yield _finding(other, "A perfect score", "medium", 0.5,
                       "Check for leakage (target-derived features, duplicates across the "
                       "split) and report a confidence interval or cross-validated score.",
                       f" The test set has only {small} rows, where a perfect score can "
                       "happen by chance, but check the features for a leak.")
        return
    conf = max(0.7 if o.source == "facts" else 0.6 for o, _ in other)
    yield _finding(other, "A perfect score on real data usually means the evaluation saw "
                   "the training data or a feature leaks the target", "high", conf,
                   "Check that the score is computed on held-out rows, that no feature is "
                   "derived from the target (an ID, a post-outcome measurement) and that "
                   "train and test share no duplicates.")


def _small_test_set(ev: Evidence, hits: list[tuple[_Obs, list[float]]]) -> int | None:
    """Rows of the evaluated data when every perfect score was computed on fewer than 50
    rows (a perfect accuracy on 30 iris flowers is unremarkable)."""
    sizes: list[int] = []
    for o, _ in hits:
        rows = [f.rows for n in o.data_names if (f := ev.objects.get(n)) and f.rows
                and f.kind in ("dataframe", "series", "ndarray", "sequence")]
        if not rows:
            return None
        sizes.append(min(rows))
    return max(sizes) if sizes and max(sizes) < 50 else None


@rule("suspicious_values.negative_r2",
      title="Negative R²: the model is worse than predicting the mean")
def negative_r2(ev: Evidence) -> Iterator[Finding]:
    """A negative R² means the predictions are worse than the constant mean.

    On the data a least-squares model with an intercept was fitted on, R² cannot be negative
    (the mean is one of the fits it chose between): a negative in-sample R² is a computation
    error (misaligned rows, a wrong target, a hand-written formula) - high. On held-out data
    (a test split, cross-validation) a negative R² is a legitimate, honest result for a model
    with no signal: predictions uncorrelated with the target and no more spread than it give
    R² between -1 and 0, so that range is medium (the model must not be presented as a fit).
    Below -1 the predictions are worse than shuffled ones - wrong scale, sign or alignment
    (a log-scale prediction scored against raw values) - high, unless it is one of several
    models compared side by side (medium). Without any train/test context: high."""
    scan = _scan(ev)
    bad: list[tuple[_Obs, list[float]]] = []
    for o in scan.obs:
        if not o.reported or o.intermediate:
            continue
        q = o.quantity
        if q == "score" and o.estimator == "regressor":
            q = "r2"
        if q != "r2":
            continue
        vals = [v for v in o.values if v < -1e-9]
        if o.multi and not o.is_dict and o.source == "facts":
            mean = sum(o.values) / len(o.values)
            vals = [mean] if mean < 0 else []
        if vals:
            bad.append((o, vals))
    if not bad:
        return
    # the same number seen in the facts (context unknown) and printed under a test label
    held = [v for o in scan.obs if o.context in ("test", "cv") and o.quantity in ("r2", "score")
            for v in o.values[:20]]
    context = {id(o): "test" if o.context is None and held and all(
        any(abs(v - h) <= 0.006 * max(1.0, abs(h)) for h in held) for v in vals)
        else o.context for o, vals in bad}
    insample = [(o, v) for o, v in bad if context[id(o)] in ("train", "insample")
                or o.train_visible]
    if insample:
        yield _finding(insample, "Negative R² on the data the model was fitted on: a "
                       "least-squares fit with an intercept cannot do worse than the mean "
                       "on its own training data, so this number is computed wrongly", "high",
                       max(_confidence(o, 0.85, 0.75) for o, _ in insample),
                       "Check that predictions and targets are the same rows in the same "
                       "order and on the same scale (or use `r2_score(y, model.predict(X))` / "
                       "the model's `.rsquared`), and that the model has an intercept.")
        return
    worst = min(v for _, vals in bad for v in vals)
    if worst >= -1.0 and _negative_r2_handled(ev, bad):
        return  # the cell reads a negative R² as 'no better than the mean' (or floors it)
    heldout = all(context[id(o)] in ("test", "cv") for o, _ in bad)
    among_others = scan.metric_count >= 2 or any(o.multi for o, _ in bad)
    if heldout and (worst >= -1.0 or among_others):
        severe = worst < -1.0
        yield _finding(bad, "Negative R² on held-out data: the model predicts worse than the "
                       "mean of the target" + (
                           "" if severe else " (an honest result for a model without "
                           "predictive signal; it must not be presented as a useful fit)"),
                       "medium", max(_confidence(o, 0.55, 0.5) for o, _ in bad),
                       "Report it as 'no better than the mean', compare against a "
                       "`DummyRegressor` baseline, and do not interpret the model's "
                       "coefficients as explaining the outcome.")
        return
    what = ("Negative R² below -1 on held-out data: the predictions are worse than "
            "predicting the mean, and worse than random guesses of the right scale, which "
            "usually means a broken pipeline (predictions on another scale, e.g. log, a "
            "sign error, or rows out of order)" if heldout else
            "Negative R²: the predictions are worse than predicting the mean")
    yield _finding(bad, what, "high", max(_confidence(o, 0.85, 0.75) for o, _ in bad),
                   "Check that predictions and targets are aligned (same rows, same order, "
                   "same scale), compare against a `DummyRegressor` baseline, and do not "
                   "report the model as explaining the outcome.")


# printed readings of a non-positive R²: 'no better than the mean', 'no predictive power'
_NO_SKILL_TEXT = re.compile(
    r"no (?:better|more) than (?:the |a )?(?:held[- ]out |training |test |sample )?"
    r"(?:mean|average|baseline|constant|intercept|null)|worse than (?:the |a )?(?:held[- ]out "
    r"|training |test )?(?:mean|average|baseline|constant|intercept|null)|no (?:predictive|"
    r"explanatory|forecast|out[- ]of[- ]sample) (?:power|skill|value|signal|encoding|ability)"
    r"|no (?:skill|predictive)\b|(?:r\^?2|r²|r-squared|rsq)\s*(?:<=|<|≤)\s*0\b", re.I)
_FLOOR_CALLS = {"clip", "maximum", "fmax", "max", "clamp"}


def _negative_r2_handled(ev: Evidence, bad: list[tuple[_Obs, list[float]]]) -> bool:
    """The cell deals with a non-positive R² itself: it compares an R² name with zero
    (`r2 > 0`, `(scores <= 0).mean()`), floors it (`max(r2, 0)`, `np.clip(r2, 0, None)`,
    `.clip(lower=0)`), or its output reads a value <= 0 as 'no better than the mean' /
    'no predictive power'."""
    if _NO_SKILL_TEXT.search(ev.text or ""):
        return True
    if ev.tree is None:
        return False
    named = {w.strip("`").split(".")[0] for o, _ in bad if o.source == "facts"
             for w in [o.where]}

    def r2_name(node: ast.AST) -> bool:
        for sub in walk(node):
            key = sub.id if isinstance(sub, ast.Name) else sub.attr if isinstance(
                sub, ast.Attribute) else sub.slice.value if isinstance(
                sub, ast.Subscript) and isinstance(sub.slice, ast.Constant) and isinstance(
                sub.slice.value, str) else None
            if key and (key in named or (_name_quantity(key) or ("",))[0] == "r2"):
                return True
        return False

    def zero(node: ast.AST) -> bool:
        return isinstance(node, ast.Constant) and not isinstance(node.value, bool) and \
            isinstance(node.value, int | float) and node.value == 0

    idx = cell_index(ev.tree)
    for node in idx.of(ast.Compare):
        sides = [node.left, *node.comparators]
        if any(zero(x) for x in sides) and any(r2_name(x) for x in sides if not zero(x)):
            return True
    for node in idx.of(ast.Call):
        if called_name(node) not in _FLOOR_CALLS:
            continue
        args = [*node.args, *(k.value for k in node.keywords if k.arg in ("lower", "a_min"))]
        recv = [node.func.value] if isinstance(node.func, ast.Attribute) else []
        if any(zero(a) for a in args) and any(r2_name(x) for x in [*node.args, *recv]
                                              if not zero(x)):
            return True
    return False


@rule("suspicious_values.percentage_error_blowup",
      title="Percentage error (MAPE) blown up by zero or near-zero actuals")
def percentage_error_blowup(ev: Evidence) -> Iterator[Finding]:
    """MAPE divides each error by its actual value. With zero actuals (intermittent demand,
    counts, sales of slow items) that is a division by zero: infinity or NaN by hand, ~10^15 %
    from scikit-learn (which divides by machine epsilon), and near-zero actuals give
    thousands of percent. Such a number measures the zeros, not the forecast. High when the
    reported value is infinite, NaN or above 10,000%."""
    scan = _scan(ev)
    bad: list[tuple[_Obs, list[float]]] = []
    for o in scan.obs:
        if o.quantity != "pct_error":
            continue
        vals = [v for v in o.values if _absurd_pct(o, v)]
        if vals:
            bad.append((o, vals))
    if not bad:
        return
    divide = any("divide by zero" in w.message or "invalid value" in w.message
                 for w in ev.warnings)
    extra = (" numpy also warned about a division by zero." if divide else "")
    conf = max(_confidence(o, 0.85, 0.8) for o, _ in bad)
    yield _finding(bad, "This percentage error is infinite, undefined or astronomically "
                   "large, which happens when some actual values are zero (or nearly): "
                   "the error is divided by them", "high", min(0.9, conf + (0.05 if divide
                                                                            else 0.0)),
                   "Report an error that is defined with zero actuals: MAE / RMSE in units, "
                   "WAPE (`np.abs(y - p).sum() / y.sum()`), or MASE; if a percentage is "
                   "needed, compute it on the non-zero actuals only and say how many rows "
                   "were excluded.", extra)


def _absurd_pct(o: _Obs, v: float) -> bool:
    """Infinite / NaN, or at least 10^4 on whatever scale it is in: 10,000% printed with a
    '%' sign, or a bare number that is 10,000% (a percentage) or 1,000,000% (a fraction)."""
    if v != v or v in (float("inf"), float("-inf")):
        return True
    return v >= 1e4
