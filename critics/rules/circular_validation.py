"""Circular validation: a model, hyperparameter, threshold or stopping epoch chosen by its score
on the test set, and that test score reported as the expected performance.

Reads the shared data flow of `leakage.flow_of`: scores computed on a held-out test set (the
second output of train_test_split, a manual split's test part, or a `*test*`/`*_te` name) are
tagged; a max/min/argmax/sort/`if score > best` over several such scores (from a loop, a
comprehension, a curve, or two models) is a selection on the test set. Validation splits (a
second split of the training part, or `*val*` names) are the sound way to select and are not
flagged unless the selected validation score is the only result reported.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..evidence import Evidence
from ..findings import Finding
from ..rule import rule
from .leakage import Flow, Selection, flow_of, relevant

_FIX = ("Select on data the test set never touches: cross-validation on the training set "
        "(cross_val_score / GridSearchCV(...).fit(X_train, y_train)) or a separate validation "
        "split, then evaluate the chosen model once on the test set and report that score.")


_RANKINGS = {"sorted()", "sort_values()", "sort()", "argsort()", "nlargest()", "nsmallest()"}


def _reported_after(flow: Flow, sel: Selection) -> bool:
    ids = {("score", s.id) for s in sel.scores}
    return bool(ids & flow.reported)


def _kind(sel: Selection) -> str:
    calls = {s.call for s in sel.scores}
    if any(c in ("precision_recall_curve", "roc_curve", "det_curve") for c in calls):
        return "a decision threshold"
    if any("history" in c for c in calls):
        return "the training epoch"
    if sel.op.startswith(("optimize", "fmin", "gp_minimize", "minimize", "maximize",
                          "forest_minimize", "gbrt_minimize", "BayesianOptimization")):
        return "hyperparameters (the optimiser's objective scores the test set)"
    if "comparison" in sel.op:
        return "the best setting (kept with `if score > best`)"
    return "the best model/setting"


@rule("circular_validation.selection_on_test",
      title="Model or hyperparameter selected by its test-set score")
def selection_on_test(ev: Evidence) -> Iterator[Finding]:
    """Several candidates (a loop over alphas/depths/k/C, a dict of models, thresholds, epochs,
    an optimiser's objective) are scored on the test set and the best is picked with
    max/argmax/sort/`if score > best`. Critical (0.9) when the picked test score is also
    reported; 0.85 otherwise."""
    if not relevant(ev):
        return
    flow = flow_of(ev)
    picks = [s for s in flow.selections if s.in_cell and s.on == "test"]
    if not picks:
        return
    # one finding per cell: the explicit pick (max/argmax/`if > best`) if there is one, else
    # a ranking (sort), which alone is a comparison rather than a choice
    explicit = [s for s in picks if s.op not in _RANKINGS]
    for sel in (explicit or picks)[:1]:
        reported = _reported_after(flow, sel)
        score_lines = sorted({s.line for s in sel.scores if s.in_cell})
        calls = sorted({s.call for s in sel.scores})
        what = _kind(sel)
        text = (f"{what[0].upper()}{what[1:]} is chosen by comparing test-set scores "
                f"(`{'`, `'.join(calls)}`"
                + (f" at line {', '.join(map(str, score_lines))}" if score_lines else "")
                + f"; selected with `{sel.src or sel.op}` at line {sel.line}). ")
        text += ("The score of the winner is then reported: it is the maximum of several noisy "
                 "test estimates, so it is optimistically biased and no longer an unbiased "
                 "estimate of performance on new data." if reported else
                 "Once the test set has chosen the model, its score on that test set is biased "
                 "upwards; nothing unseen is left to estimate performance.")
        if explicit:
            sev, conf = "critical", 0.9 if reported else 0.85
        else:
            sev, conf = "high", 0.6
            text += (" (The scores are ranked rather than picked explicitly; if the top one is "
                     "presented as the model's performance, this is the same bias.)")
        yield Finding(explanation=text, severity=sev, confidence=conf,
                      evidence={"lines": sorted({*score_lines, sel.line}),
                                "values": {"scores_on": "test", "selection": sel.op,
                                           "reported": reported}},
                      suggestion=_FIX)


@rule("circular_validation.search_fit_on_test",
      title="Hyperparameter search fitted on the test set")
def search_fit_on_test(ev: Evidence) -> Iterator[Finding]:
    """GridSearchCV/RandomizedSearchCV/… `.fit(X_test, y_test)`: the test set tunes the model,
    and its best_score_ (or any later test score) is no longer a held-out estimate."""
    if not relevant(ev):
        return
    flow = flow_of(ev)
    seen: set[int] = set()
    for s in flow.searches_on_test:
        if not s.in_cell or s.line in seen:
            continue
        seen.add(s.line)
        yield Finding(
            explanation=f"`{s.call}` is fitted on the test data (`{s.data_src}`, line "
                        f"{s.line}): the hyperparameters are tuned on the rows meant to "
                        "estimate performance, so best_score_ and any test score of the tuned "
                        "model are optimistic.",
            severity="critical", confidence=0.9,
            evidence={"lines": [s.line], "values": {"fitted_on": s.data_src}},
            suggestion="Fit the search on X_train, y_train and score the refitted best "
                       "estimator once on X_test.")


@rule("circular_validation.early_stopping_on_test",
      title="Early stopping / best iteration chosen on the test set")
def early_stopping_on_test(ev: Evidence) -> Iterator[Finding]:
    """eval_set / validation_data / valid_sets on the test split together with early stopping
    (early_stopping_rounds, EarlyStopping or lgb.early_stopping callbacks, ModelCheckpoint
    save_best_only, CatBoost use_best_model): the number of trees/epochs is tuned on the
    test set."""
    if not relevant(ev):
        return
    flow = flow_of(ev)
    seen: set[int] = set()
    for e in flow.early_stops:
        if not e.in_cell or e.line in seen:
            continue
        seen.add(e.line)
        yield Finding(
            explanation=f"`{e.call}` monitors the test set (`{e.kw}={e.data_src}`, line "
                        f"{e.line}) with {e.signal}: training stops (or the best iteration is "
                        "kept) where the test score peaks, so the reported test score is "
                        "tuned on the test set.",
            severity="critical", confidence=0.85,
            evidence={"lines": [e.line], "values": {e.kw: e.data_src, "stopping": e.signal}},
            suggestion="Carve a validation split out of the training data for eval_set / "
                       "validation_data (or use validation_split), and evaluate the final "
                       "model once on the test set.")


@rule("circular_validation.selection_on_validation_reported",
      title="Best validation score reported as the final result")
def selection_on_validation_reported(ev: Evidence) -> Iterator[Finding]:
    """Selection on a validation split is sound, but when no test evaluation follows and the
    selected validation score itself is reported, that number is optimistic (medium)."""
    if not relevant(ev):
        return
    flow = flow_of(ev)
    if any(s.on == "test" for s in flow.scores):
        return
    for sel in flow.selections:
        if not sel.in_cell or sel.on != "val" or not _reported_after(flow, sel):
            continue
        if any(s.on == "valn" for s in sel.scores):
            continue  # carved out of a training part: a test set exists
        yield Finding(
            explanation=f"The best setting is chosen on a validation set (line {sel.line}) "
                        "and that best validation score is reported, with no evaluation on "
                        "data untouched by the selection: the number is optimistic.",
            severity="medium", confidence=0.45,
            evidence={"lines": [sel.line], "values": {"selection": sel.op}},
            suggestion="Report the chosen model's score on a separate test set (or use nested "
                       "cross-validation).")
        return


RULES = [selection_on_test, search_fit_on_test, early_stopping_on_test,
         selection_on_validation_reported]
