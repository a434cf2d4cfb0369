"""Leakage: a step before the model learned from the rows the model is then evaluated on.

Reads the analysis trace recorded in the kernel (`ev.trace`, services/analysis_trace.py): every
fit, transform, resample, split and evaluation that ran, with the rows each one saw and the
columns each derived column came from. Three rules: a transformer, selector or resampler fit on
rows that are later evaluated as held out (`fit_saw_heldout_rows`); rows copied by resampling
with replacement before a split, so copies land on both sides (`copies_across_split`); and a
feature computed from the model's own target over the held-out rows too
(`target_aggregate_as_feature`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..evidence import Evidence
from ..findings import Finding
from ..rule import rule


# --- from the analysis trace: what ran, with row lineage ----------------------------------
@rule("leakage.fit_saw_heldout_rows", title="A step before the model was fit on held-out rows")
def fit_saw_heldout_rows(ev: Evidence) -> Iterator[Finding]:
    """Reads the trace: a held-out evaluation (predict/score on rows the model's fit did not
    see, or a cross-validation) whose rows came through a transformer or resampler that was
    itself fit on those same rows. Whatever the code looks like, the kernel saw it."""
    from ..thresholds import section

    t, cfg = ev.trace, section("leakage")
    bar, stateless = float(cfg["seen_share"]), set(cfg["stateless_steps"])
    reported: set[tuple[Any, Any]] = set()
    for evaluation, rows in t.evaluations():
        for step in t.lineage(rows):
            if step.get("est") in stateless:
                continue
            if step.get("op") == "resample":
                fit, share = step, 1.0
            elif step.get("op") in ("transform", "fit_transform"):
                fit = t.fit_of(step.get("est_id"))
                share = t.share(rows, fit.get("X")) if fit else None
            else:
                continue
            key = (step.get("est_id"), evaluation.get("line"))
            if fit is None or share is None or share < bar or key in reported:
                continue
            reported.add(key)
            yield _heldout_finding(evaluation, step, fit, share, _test_kept_apart(t, fit))
        for step in _assigned_before(t, evaluation):
            share = t.share(rows, step["assigned"])
            key = (step.get("est"), evaluation.get("line"))
            if share is not None and share >= bar and key not in reported:
                reported.add(key)
                yield _heldout_finding(evaluation, step, step, share, _test_kept_apart(t, step))
        for step in _supervised_steps_before(t, evaluation, stateless):
            if _unselected(t, rows, step.get("X")):
                continue  # the evaluated data are the selector's own input: it only looked
            share = t.share(rows, step.get("X"))
            key = (step.get("est_id"), evaluation.get("line"))
            if share is not None and share >= bar and key not in reported:
                reported.add(key)
                yield _heldout_finding(evaluation, step, step, share, _test_kept_apart(t, step))


def _assigned_before(t: Any, evaluation: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Statistics applied by hand and written back into a frame, before `evaluation`: the
    evaluated rows came out of that frame if their values are its values now."""
    for e in t.all_of("fit_transform"):
        if e is evaluation:
            return
        if e.get("by_hand") and e.get("assigned"):
            yield e


def _unselected(t: Any, rows: str, fitted: Any) -> bool:
    """The same data, all columns: nothing the selector chose reached the evaluation."""
    if rows == fitted:
        return True
    a, b = t.data.get(rows, {}), t.data.get(str(fitted), {})
    return bool(a.get("cols")) and a.get("cols") == b.get("cols")


def _supervised_steps_before(t: Any, evaluation: dict[str, Any],
                             stateless: set[str]) -> Iterator[dict[str, Any]]:
    """Transformers fit with the labels before `evaluation` (a selector whose choice was
    then applied by hand, `X.loc[:, sel.get_support()]`: not in the evaluated data's
    lineage, but it learned from the labels of the rows it saw)."""
    for e in t.all_of("fit", "fit_transform"):
        if e is evaluation:
            return
        if (e.get("kind") == "transformer" or e.get("selector")) and e.get("y") and \
                e.get("est") not in stateless:
            yield e


@rule("leakage.copies_across_split",
      title="Rows were copied (resampled with replacement) before the data were split")
def copies_across_split(ev: Evidence) -> Iterator[Finding]:
    """Reads the trace: rows drawn with replacement (upsampling, a bootstrap, SMOTE) whose
    output reaches the input of a later split or cross-validation, so copies of a training
    row land among the evaluated rows."""
    from ..thresholds import section

    t, bar = ev.trace, float(section("leakage")["seen_share"])
    order = t.prior + t.events
    for split in t.of("split", "cross_validate"):
        at = next(i for i, e in enumerate(order) if e is split)
        for r in (e for e in order[:at] if e.get("op") == "resample" and e.get("out")):
            share = t.share(r["out"], split.get("X"))
            if share is None or share < bar:
                continue
            yield Finding(
                explanation=(f"Rows drawn with replacement by {r.get('est')} (line "
                             f"{r.get('line')}) are in the data split on line "
                             f"{split.get('line')}: copies of the same row sit on both sides "
                             "of the split, so the evaluation scores rows the model memorised."),
                severity="critical", confidence=0.9,
                evidence={"lines": sorted({x for x in (r.get("line"), split.get("line"))
                                           if isinstance(x, int)}),
                          "values": {"resampler": r.get("est"), "in_split_share": share}},
                suggestion="Split first and resample only the training part (or use "
                           "`imblearn.pipeline.Pipeline` so each training fold is resampled "
                           "inside cross-validation); evaluate on untouched rows.")
            return


def _test_kept_apart(t: Any, fit: dict[str, Any]) -> bool:
    """A split set rows apart that this step's fit never saw (a test set): a
    cross-validation inside the training rows is then biased, the test is not."""
    return any(t.share(rows, fit.get("X")) == 0.0 for split in t.all_of("split")
               for rows in split.get("outputs", [])[1::2])


def _heldout_finding(evaluation: dict[str, Any], step: dict[str, Any], fit: dict[str, Any],
                     share: float, test_apart: bool) -> Finding:
    name, what = step.get("est", "a step"), evaluation.get("op")
    held = "cross-validation folds" if what in ("cross_validate", "fit") else "held-out rows"
    resampled = step.get("op") == "resample"
    how = ("resampled (synthetic or copied rows) before the data were split, so copies of "
           "training rows sit among the evaluated rows" if resampled else
           f"fit on {share:.0%} of the rows that are later evaluated as {held}, so it learned "
           "from them before the evaluation")
    lines = sorted({x for x in (fit.get("line"), step.get("line"), evaluation.get("line"))
                    if isinstance(x, int)})
    return Finding(
        explanation=f"{name} was {how} (line {evaluation.get('line')}). The reported score "
                    "is optimistic: the evaluation is not on unseen data.",
        severity="medium" if test_apart and held != "held-out rows" else "critical",
        confidence=0.9,
        evidence={"lines": lines, "values": {"step": name, "seen_share": round(share, 3),
                                             "evaluation": what}},
        suggestion="Split first, then fit every preprocessing step on the training rows only: "
                   "put it in a `Pipeline` with the model, so cross-validation and the final "
                   "fit refit it on each training fold (`make_pipeline(StandardScaler(), "
                   "model)`; resamplers in `imblearn.pipeline.Pipeline`).")


# --- from the analysis trace: column lineage ------------------------------------------------
@rule("leakage.target_aggregate_as_feature",
      title="A feature was computed from the outcome (an aggregate that includes it)")
def target_aggregate_as_feature(ev: Evidence) -> Iterator[Finding]:
    """Reads the trace's column lineage (group transforms, maps through group aggregates, the
    columns they became): a model's feature derived from its own target over more rows than
    the model is fit on (the held-out rows among them), or over every fold of a
    cross-validation, carries the held-out answers into the features."""
    sources, rows = _column_lineage(ev)
    for fit in ev.trace.of("fit", "cross_validate", "model_fit"):
        target, features, n = ev.trace.fit_columns(fit)
        for feat in features:
            if not target or feat == target or target not in sources.get(feat, ()):
                continue
            if fit["op"] != "cross_validate" and rows.get(feat, 0) <= n:
                continue  # learned on the rows the model is fit on, mapped onto the others
            yield Finding(
                explanation=(f"Feature {feat!r} was computed from the target {target!r} "
                             f"(a group aggregate over {rows.get(feat)} rows) and the model on "
                             f"line {fit.get('line')} uses it: each row's feature carries its "
                             "own outcome, so the fit and any score on these rows are inflated."),
                severity="critical", confidence=0.85,
                evidence={"lines": [x for x in [fit.get("line")] if isinstance(x, int)],
                          "values": {"feature": feat, "target": target}},
                suggestion="Compute target encodings inside the training rows only (out of "
                           "fold: `sklearn.preprocessing.TargetEncoder` in a pipeline, or a "
                           "leave-one-out mean), and never from rows the model is scored on.")
            break


def _column_lineage(ev: Evidence) -> tuple[dict[str, set[str]], dict[str, int]]:
    sources: dict[str, set[str]] = {}
    rows: dict[str, int] = {}
    for e in ev.trace.all_of("derive"):
        col = e.get("column")
        if not col or not e.get("agg", True):
            continue  # row-wise lineage (a lagged copy, a ratio) is target_leakage's to judge
        found = set(e.get("from", []))
        for f in list(found):
            found |= sources.get(f, set())
        sources[col], rows[col] = found, int(e.get("n") or 0)
    return sources, rows


RULES = [fit_saw_heldout_rows, target_aggregate_as_feature, copies_across_split]
