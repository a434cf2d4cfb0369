"""Circular validation: a model's performance measured on rows that were not held out from it.

Reads the analysis trace recorded in the kernel (`ev.trace`, services/analysis_trace.py): which
rows each model was fit on, predicted and scored, and which rows each metric compared. Two rules:
a model scored on rows it was fit on, with no held-out evaluation of it anywhere
(`scored_on_training_rows`); and several candidates (models, settings, thresholds, epochs) scored
on one set of held-out rows with no other held-out rows scored after them, so the kept
candidate's score was chosen for being high on those very rows (`chosen_on_heldout_rows`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..evidence import Evidence
from ..findings import Finding
from ..rule import rule
from ..thresholds import has_word, section

_FIX = ("Select on data the test set never touches: cross-validation on the training set "
        "(cross_val_score / GridSearchCV(...).fit(X_train, y_train)) or a separate validation "
        "split, then evaluate the chosen model once on the test set and report that score.")


# --- from the analysis trace: the rows a model was scored on ---------------------------------
@rule("circular_validation.scored_on_training_rows",
      title="A flexible model's performance was measured on the rows it was fit on")
def scored_on_training_rows(ev: Evidence) -> Iterator[Finding]:
    """Reads the trace: a score or metric computed on rows the model was fit on (or its
    predictions for them, whatever computes the error from them), with no held-out
    evaluation of that model anywhere, is its in-sample fit reported as skill."""
    cfg, t = section("circular_validation"), ev.trace
    for e in t.of("score", "metric", "predict"):
        model = e if e["op"] in ("score", "predict") else _predictor_of(ev, e)
        if model is None or str(model.get("module", "")).startswith(
                tuple(cfg["in_sample_exempt_modules"])):
            continue
        fit = t.fit_of(model.get("est_id"), before=model)
        seen = t.share(e.get("X"), fit.get("X")) if fit else None
        if seen is None or seen < cfg["in_sample_share"] or _held_out(ev, model.get("est_id")):
            continue
        yield Finding(
            explanation=(f"{model.get('est')} is scored on line {e.get('line')} on rows it was "
                         f"fit on ({seen:.0%} of them), and the cell has no held-out evaluation "
                         "of it: a flexible model's in-sample score measures memory, not skill."),
            severity="high", confidence=0.8,
            evidence={"lines": [x for x in (fit.get("line") if fit else None, e.get("line"))
                                if isinstance(x, int)], "values": {"in_sample_share": seen}},
            suggestion="Score on rows the model never saw: a held-out split, "
                       "`cross_val_score`, or the out-of-bag estimate (`oob_score=True`).")
        return


def _predictor_of(ev: Evidence, metric: dict[str, object]) -> dict[str, object] | None:
    """The predict event whose output a metric scored."""
    producer = ev.trace.producer(str(metric.get("X") or ""))
    return producer if producer and producer.get("op") == "predict" else None


def _held_out(ev: Evidence, est_id: object) -> bool:
    t = ev.trace
    return any(e.get("est_id") == est_id for e, _ in t.evaluations()) or bool(
        t.of("cross_validate"))


# --- from the analysis trace: candidates compared on the rows that are then reported -----------
@rule("circular_validation.chosen_on_heldout_rows",
      title="Candidates were compared on the held-out rows whose score is reported")
def chosen_on_heldout_rows(ev: Evidence) -> Iterator[Finding]:
    """Reads the trace: several candidates (models, settings, thresholds, seeds, epochs) fit on
    the same rows were scored on one set of held-out rows, those rows were scored last, and the
    cell picks one: the kept score is the best of many on these rows, not an estimate."""
    cfg, t = section("circular_validation"), ev.trace
    if not _picks(ev.code, cfg) or len(t.of("cross_validate")) >= cfg["min_candidates"]:
        return  # nothing picked, or each candidate was judged by cross-validation
    groups = _heldout_groups(ev) or _predicted_groups(ev)
    many = [g for g in groups if _candidates(g) >= cfg["min_candidates"]]
    if len(many) != 1 or groups[-1] is not many[0] or not _same_training(t, many[0]):
        return  # tested once after a choice elsewhere, a fold loop, or a learning curve
    scored = max(_by_metric(many[0]).values(), key=len)
    values = [float(e["result"]) for e in scored if isinstance(e.get("result"), int | float)]
    yield Finding(
        explanation=(f"{_what(scored, values)}, and no other held-out rows were scored after "
                     "them: the score of the candidate kept is optimistic, because it was "
                     "chosen for being high on these very rows."),
        severity="critical", confidence=0.8,
        evidence={"lines": sorted({e["line"] for e in scored if isinstance(e.get("line"), int)}),
                  "values": {"candidates": len(scored)} | (
                      {"best": max(values), "worst": min(values)} if values else {})},
        suggestion=_FIX)


def _picks(code: str, cfg: dict[str, Any]) -> bool:
    """The cell keeps one candidate: an arg-max, a sort, "best"; a bare max() or min() alone
    (both together report a range, not a choice)."""
    if has_word(code, cfg["selection_words"]):
        return True
    return bool(has_word(code, ["max("])) != bool(has_word(code, ["min("]))


def _what(scored: list[dict[str, Any]], values: list[float]) -> str:
    line = scored[0].get("line")
    if values:
        return (f"{len(scored)} candidates were scored on the same held-out rows (line {line}; "
                f"scores {min(values):.3g} to {max(values):.3g})")
    if scored[0].get("op") == "predict":
        return f"{len(scored)} fitted models predicted the same held-out rows (line {line})"
    return f"A {scored[0].get('func')} swept every threshold on the held-out rows (line {line})"


def _heldout_groups(ev: Evidence) -> list[list[dict[str, Any]]]:
    """Scores on held-out (not validation) rows, grouped by the rows scored (their true
    labels), in order of each group's last score."""
    t = ev.trace
    curves = set(section("circular_validation")["curve_metrics"])
    return _grouped(t, [e for e in t.of("score", "metric") if e.get("y") and (
        isinstance(e.get("result"), int | float) or e.get("func") in curves)], "y")


def _predicted_groups(ev: Evidence) -> list[list[dict[str, Any]]]:
    """Predictions of fitted models on held-out rows (their errors computed by hand)."""
    return _grouped(ev.trace, [e for e in ev.trace.of("predict") if e.get("X")], "X")


def _grouped(t: Any, events: list[dict[str, Any]], key: str) -> list[list[dict[str, Any]]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for e in events:
        if _in_sample(t, e) or _validation(t, e):
            continue
        rows = str(e[key])
        at = next((k for k in groups if _same_rows(t, k, rows)), rows)
        groups.setdefault(at, []).append(e)
        groups[at] = groups.pop(at)  # most recently scored last
    return list(groups.values())


def _model_of(t: Any, e: dict[str, Any]) -> dict[str, Any] | None:
    model = e if e["op"] in ("score", "predict") else t.producer(str(e.get("X") or ""))
    return model if model is not None and model.get("op") in ("score", "predict") else None


def _validation(t: Any, e: dict[str, Any]) -> bool:
    """Rows taken from the training part of an earlier split: a validation set."""
    model = _model_of(t, e)
    rows = model.get("X") if model else None
    return rows is not None and any(
        (t.share(rows, train) or 0.0) >= 0.9
        for split in t.all_of("split") for train in split.get("outputs", [])[:1])


def _same_training(t: Any, group: list[dict[str, Any]]) -> bool:
    """The candidates were fit on the same rows (more rows each time is a learning curve)."""
    fits = [f.get("X") for m in map(lambda e: _model_of(t, e), group) if m
            for f in [t.fit_of(m.get("est_id"), before=m)] if f and f.get("X")]
    return all(_same_rows(t, str(fits[0]), str(x)) for x in fits[1:])


def _in_sample(t: Any, e: dict[str, Any]) -> bool:
    """Scored on rows its model was fit on (judged by the features, whose rows tell units
    apart; labels repeat)."""
    model = _model_of(t, e)
    if model is not None:
        fit = t.fit_of(model.get("est_id"), before=model)
        return bool(fit) and (t.share(model.get("X"), fit.get("X")) or 0.0) >= 0.5
    return any((t.share(e.get("y"), f.get("y")) or 0.0) >= 0.5
               for f in t.all_of("fit", "fit_predict") if f.get("y"))


def _by_metric(group: list[dict[str, object]]) -> dict[str, list[dict[str, object]]]:
    """Candidates are compared on one metric: accuracy beside recall is no comparison."""
    out: dict[str, list[dict[str, object]]] = {}
    for e in group:
        out.setdefault(str(e.get("func") or e.get("op")), []).append(e)
    return out


def _candidates(group: list[dict[str, object]]) -> int:
    """Distinct results of one metric; a curve (ROC, precision-recall) is a whole sweep of
    thresholds in one call."""
    curves = set(section("circular_validation")["curve_metrics"])
    if any(e.get("func") in curves for e in group):
        return int(section("circular_validation")["min_candidates"])
    if group[0].get("op") == "predict":
        return len({e.get("est_id") for e in group})
    return max(len({round(float(e["result"]), 12) for e in scores})  # type: ignore[arg-type]
               for scores in _by_metric(group).values())


def _same_rows(t: object, a: str, b: str) -> bool:
    share = t.share  # type: ignore[attr-defined]
    return a == b or ((share(a, b) or 0.0) >= 0.9 and (share(b, a) or 0.0) >= 0.9)


@rule("circular_validation.fit_on_test_rows",
      title="A model or a search was fit on the test part of a split")
def fit_on_test_rows(ev: Evidence) -> Iterator[Finding]:
    """Reads the trace: a fit with labels whose rows are the test part of an earlier split
    (the same rows, not a superset): what it learned, or chose, came from the test rows."""
    t = ev.trace
    tests = [(split, rows) for split in t.all_of("split")
             for rows in split.get("outputs", [])[1::2]]
    for fit in t.of("fit", "fit_predict"):
        if not fit.get("y") or fit.get("kind") not in ("model", "search"):
            continue
        split = next((sp for sp, rows in tests if _is_rows(t, str(fit.get("X")), rows)), None)
        if split is None:
            continue
        yield Finding(
            explanation=(f"{fit.get('est')} is fit on line {fit.get('line')} on the test part "
                         f"of the split on line {split.get('line')}: "
                         + ("the settings it chooses" if fit.get("kind") == "search" else
                            "what it learns") + " come from the rows meant to judge it, so any "
                         "score on them says nothing about new data."),
            severity="critical", confidence=0.8,
            evidence={"lines": sorted({x for x in (split.get("line"), fit.get("line"))
                                       if isinstance(x, int)}), "values": {"est": fit.get("est")}},
            suggestion=_FIX)
        return


def _is_rows(t: Any, fitted: str, test: str) -> bool:
    """`fitted` holds the test rows and about as many rows (not all rows, of which the test
    rows are a part)."""
    if fitted == test:
        return True
    a, b = t.data.get(fitted, {}), t.data.get(test, {})
    return (t.share(test, fitted) or 0.0) >= 0.9 and 0 < (a.get("n") or 0) <= 1.1 * (
        b.get("n") or 0)


RULES = [scored_on_training_rows, chosen_on_heldout_rows, fit_on_test_rows]
