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
    """Reads the trace: a score or metric computed on rows the model was fit on, with no
    held-out evaluation of that model anywhere, is its in-sample fit reported as skill."""
    cfg, t = section("circular_validation"), ev.trace
    for e in t.of("score", "metric"):
        model = e if e["op"] == "score" else _predictor_of(ev, e)
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
    """Reads the trace: several candidates (models, settings, thresholds, seeds, epochs) were
    scored on one set of held-out rows, and no other held-out rows were scored after them, so
    the score of the one kept is the maximum of many and no longer an unbiased estimate."""
    cfg = section("circular_validation")
    groups = _heldout_groups(ev)
    many = [g for g in groups if _candidates(g) >= cfg["min_candidates"]]
    if not groups and has_word(ev.code, cfg["selection_words"]):
        groups = many = _predicted_groups(ev, cfg["min_candidates"])  # scored by hand
    if len(many) != 1 or groups[-1] is not many[0]:
        return  # selected on validation rows and then tested once, or a fold loop
    scored = max(_by_metric(many[0]).values(), key=len)
    picked = has_word(ev.code, cfg["selection_words"])
    values = [float(e["result"]) for e in scored if isinstance(e.get("result"), int | float)]
    what = (f"{len(scored)} candidates were scored on the same held-out rows (line "
            f"{scored[0].get('line')}; scores {min(values):.3g} to {max(values):.3g})"
            if values else f"A {scored[0].get('func')} swept every threshold on the held-out "
            f"rows (line {scored[0].get('line')})")
    yield Finding(
        explanation=(f"{what}, and no other held-out rows were scored after them: the score "
                     "of the candidate kept is optimistic, because it was chosen for being "
                     "high on these very rows."),
        severity="critical" if picked else "medium", confidence=0.8,
        evidence={"lines": sorted({e["line"] for e in scored if isinstance(e.get("line"), int)}),
                  "values": {"candidates": len(scored)} | (
                      {"best": max(values), "worst": min(values)} if values else {})},
        suggestion=_FIX)


def _heldout_groups(ev: Evidence) -> list[list[dict[str, object]]]:
    """Scores on held-out rows, grouped by the rows scored (their true labels), in order of
    each group's last score."""
    t = ev.trace
    curves = set(section("circular_validation")["curve_metrics"])
    groups: dict[str, list[dict[str, object]]] = {}
    for e in t.of("score", "metric"):
        rows = e.get("y")
        if not rows or not (isinstance(e.get("result"), int | float) or e.get("func") in curves):
            continue
        if _in_sample(t, e):
            continue  # rows the model was fit on: another rule's matter
        key = next((k for k in groups if _same_rows(t, k, str(rows))), str(rows))
        groups.setdefault(key, []).append(e)
        groups[key] = groups.pop(key)  # most recently scored last
    return list(groups.values())


def _predicted_groups(ev: Evidence, least: int) -> list[list[dict[str, object]]]:
    """Predictions of several fitted models on the same held-out rows (their errors computed
    by hand), grouped by the rows; only groups of at least `least` models."""
    t = ev.trace
    groups: dict[str, list[dict[str, object]]] = {}
    for e in t.of("predict"):
        if e.get("X") and not _in_sample(t, e):
            key = next((k for k in groups if _same_rows(t, k, str(e["X"]))), str(e["X"]))
            groups.setdefault(key, []).append(e)
            groups[key] = groups.pop(key)
    return [g for g in groups.values() if len({e.get("est_id") for e in g}) >= least]


def _in_sample(t: Any, e: dict[str, Any]) -> bool:
    """Scored on rows its model was fit on (judged by the features, whose rows tell units
    apart; labels repeat)."""
    model = e if e["op"] in ("score", "predict") else t.producer(str(e.get("X") or ""))
    if model is not None and model.get("op") in ("score", "predict"):
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
    return max(len({round(float(e["result"]), 12) for e in scores})  # type: ignore[arg-type]
               for scores in _by_metric(group).values())


def _same_rows(t: object, a: str, b: str) -> bool:
    share = t.share  # type: ignore[attr-defined]
    return a == b or ((share(a, b) or 0.0) >= 0.9 and (share(b, a) or 0.0) >= 0.9)


RULES = [scored_on_training_rows, chosen_on_heldout_rows]
