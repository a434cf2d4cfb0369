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

import ast
from collections.abc import Iterator

from ..code_model import CallSite, called_name, names_in
from ..evidence import Evidence
from ..findings import Finding
from ..rule import rule
from .leakage import Flow, LoopInfo, Selection, _has_split, _operand_root, flow_of, relevant

_FIX = ("Select on data the test set never touches: cross-validation on the training set "
        "(cross_val_score / GridSearchCV(...).fit(X_train, y_train)) or a separate validation "
        "split, then evaluate the chosen model once on the test set and report that score.")


_RANKINGS = {"sorted()", "sort_values()", "sort()", "argsort()", "nlargest()", "nsmallest()"}
_OPPOSITE = {"max": "min", "min": "max", "amax": "amin", "amin": "amax", "nanmax": "nanmin",
             "nanmin": "nanmax"}
_SPREAD = {"describe", "quantile", "percentile", "nanpercentile", "nanquantile", "ptp"}
_LOCATORS = {"index", "get", "where", "argwhere", "nonzero", "flatnonzero", "isin"}


def _collection_root(call: CallSite, imported: set[str]) -> str | None:
    """The collection a summary call reads: `aucs` in aucs.min(), np.max(aucs),
    max(results.values()), pd.Series(results).quantile(.9)."""
    if call.receiver is not None and call.receiver_root not in imported:
        return _operand_root(call.receiver)
    return _operand_root(call.node.args[0]) if call.node.args else None


_MODEL_METHODS = {"fit", "partial_fit", "fit_transform", "predict", "predict_proba",
                  "decision_function", "score", "transform", "evaluate", "forecast",
                  "set_params", "fit_predict", "get_prediction", "simulate"}
_RECORDERS = {"append", "extend", "insert", "add", "update", "setdefault", "print", "format",
              "str", "repr", "round", "float", "int", "len", "list", "dict", "tuple", "set",
              "get_group", "isin", "query", "xs", "display"}


def _subgroup_breakdown(flow: Flow, sel: Selection) -> bool:
    """The compared scores are one model's score on different subsets of the test rows
    (`err[g] = np.mean(pred[group == g] != y_test[group == g])`, a groupby loop), so the
    max/min names the weakest subgroup rather than choosing a model or setting."""
    if not sel.loops or -1 in sel.loops or len({s.id for s in sel.scores}) > 1 or \
            any(s.multi for s in sel.scores):
        return False
    loops = [flow.loop_nodes.get(n) for n in sel.loops]
    return all(info is not None and not _candidate_loop(info) for info in loops)


def _candidate_loop(info: LoopInfo) -> bool:
    """Whether the loop's variable changes the model or setting being scored: it is passed to
    a call (`Ridge(alpha=a)`, `s.rolling(w)`, `evaluate(model)`, `proba >= t` in a metric), or
    it reaches the receiver of fit/predict/score (`models[name].fit`, `m = models[k]`). Used
    only to pick rows - inside a boolean mask (`pred[group == g]`, `df[df.region == r]`,
    a per-group model fitted on `X[grp == g]`), or iterating a groupby - it changes which
    test rows are scored, not the model. A loop whose variable is not visibly used (epochs
    of a training loop that mutates the model) counts as a candidate loop."""
    it = info.iter
    if isinstance(it, ast.Call) and (called_name(it) == "groupby" or (
            called_name(it) in ("items", "iteritems") and isinstance(it.func, ast.Attribute)
            and isinstance(it.func.value, ast.Call)
            and called_name(it.func.value) == "groupby")):
        return False
    free = set(names_in(info.target))  # names carrying the candidate
    held = set(free)  # names derived from the loop variable at all (incl. row subsets)
    masks: set[str] = set()  # boolean row masks built from it: `m = df.region == r`
    stmts = [n for b in info.body for n in ast.walk(b)]
    for node in stmts:  # names assigned inside the body, in order
        if isinstance(node, ast.Assign):
            targets = {n for t in node.targets for n in names_in(t)
                       if isinstance(t, ast.Name | ast.Tuple | ast.List)}
            uses = names_in(node.value) & held
            if uses and _is_mask(node.value, masks, top=True):
                masks |= targets
            elif _free_use(node.value, free, masks):
                free |= targets
            if uses:
                held |= targets
    for node in stmts:
        if not isinstance(node, ast.Call):
            continue
        name = called_name(node)
        if isinstance(node.func, ast.Attribute) and name in _MODEL_METHODS and \
                _free_use(node.func.value, free, masks):
            return True
        if name in _RECORDERS:
            continue
        if any(_free_use(a, free, masks) for a in [*node.args,
                                                     *(k.value for k in node.keywords)]):
            return True
    # not a candidate only with positive evidence that the variable selects rows
    return not any(isinstance(n, ast.Subscript) and _is_mask(n.slice, masks)
                   and names_in(n.slice) & held for n in stmts)


def _free_use(node: ast.AST, names: set[str], masks: set[str]) -> bool:
    """A name of `names` used in `node` other than inside a boolean row mask (a comparison
    within a subscript: `x[g == k]`, `df.loc[df.g == k, "y"]`, `resid[m]` for a mask m)."""
    if isinstance(node, ast.Name):
        return node.id in names
    if isinstance(node, ast.Subscript):
        return _free_use(node.value, names, masks) or (
            not _is_mask(node.slice, masks) and _free_use(node.slice, names, masks))
    return any(_free_use(c, names, masks) for c in ast.iter_child_nodes(node))


def _is_mask(node: ast.AST, masks: set[str], top: bool = False) -> bool:
    """A boolean row mask: a comparison, `isin`/`between`, a mask name, or `&`/`|` of them
    (`top`: the expression itself is one, not merely contains one)."""
    if top:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd | ast.BitOr):
            return _is_mask(node.left, masks, True) and _is_mask(node.right, masks, True)
        return isinstance(node, ast.Compare | ast.BoolOp) or (
            isinstance(node, ast.Name) and node.id in masks) or (
            isinstance(node, ast.Call) and called_name(node) in ("isin", "between"))
    return any(isinstance(x, ast.Compare | ast.BoolOp) or (
        isinstance(x, ast.Name) and x.id in masks) or (
        isinstance(x, ast.Call) and called_name(x) in ("isin", "between"))
        for x in ast.walk(node))


def _descriptive(ev: Evidence, sel: Selection) -> bool:
    """`aucs.max()` reported next to `aucs.min()` (a range) or quantiles of the same scores:
    the spread of all candidates is described and none of them is chosen. A bare maximum
    reported alone, or one used to look a candidate up (`seeds[aucs.index(best)]`), is a
    selection."""
    if sel.value_of is None or sel.node is None:
        return False
    m = ev.model
    ext = sel.op.removesuffix("()")
    wanted = {ext, _OPPOSITE.get(ext, "")} | _SPREAD
    imported = m._imported_names | {"np", "pd", "numpy", "pandas", "statistics"}
    root = sel.value_of

    def related(name: str | None) -> bool:
        return bool(name) and (name == root or m.depends_on(name, root)  # type: ignore[arg-type]
                               or m.depends_on(root, name))  # type: ignore[arg-type]

    seen: set[str] = set()
    targets: list[str] = []
    for c in m.calls:
        if c.last not in wanted or not related(_collection_root(c, imported)):
            continue
        seen.add(c.last if c.last not in _OPPOSITE else
                 ("max" if "max" in c.last else "min"))
        if c.node is sel.node:
            targets = c.targets
    if not ({"max", "min"} <= seen or seen & _SPREAD):
        return False
    # the extreme's value must not be used to find the candidate that reached it
    for node in ast.walk(m.tree):
        if isinstance(node, ast.Subscript) and names_in(node.slice) & set(targets):
            return False
        if isinstance(node, ast.Compare) and names_in(node) & set(targets):
            return False
        if isinstance(node, ast.Call) and called_name(node) in _LOCATORS and any(
                names_in(a) & set(targets) for a in node.args):
            return False
    return True


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
    picks = [s for s in flow.selections if s.in_cell and s.on == "test"
             and not _descriptive(ev, s) and not _subgroup_breakdown(flow, s)]
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
        if not sel.in_cell or sel.on != "val" or not _reported_after(flow, sel) or \
                _descriptive(ev, sel) or _subgroup_breakdown(flow, sel):
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


_BEST_ATTRS = {"best_score_", "best_value"}  # sklearn searches; optuna study.best_value
_NESTING = {"cross_val_score", "cross_validate", "cross_val_predict", "permutation_test_score",
            "learning_curve", "validation_curve"}
_EVAL_METHODS = {"score", "predict", "predict_proba", "decision_function", "predict_log_proba"}
_CLAIMS = ("expected", "new ", "unseen", "generali", "future", "production", "deploy",
           "out-of-sample", "out of sample", "held-out", "holdout", "hold-out", "real-world",
           "test ", "test:", "test=", "on test", "final")
_CV_WORDS = ("cv", "cross-val", "cross val", "inner", "tuning", "validation", "fold")


def _best_nodes(m) -> list[tuple[ast.expr, str]]:  # type: ignore[no-untyped-def]
    """(node, search variable) for every `search.best_score_` / `study.best_value` and every
    `max` of `search.cv_results_[...]` in the cell."""
    out: list[tuple[ast.expr, str]] = []
    for node in ast.walk(m.tree):
        if isinstance(node, ast.Attribute) and node.attr in _BEST_ATTRS:
            root = _operand_root(node.value)
            if root:
                out.append((node, root))
        elif isinstance(node, ast.Call) and called_name(node) in ("max", "nanmax", "amax"):
            for sub in ast.walk(node):
                if isinstance(sub, ast.Attribute) and sub.attr == "cv_results_":
                    root = _operand_root(sub.value)
                    if root:
                        out.append((node, root))
                    break
    return out


def _stmt_of(tree: ast.Module, node: ast.AST) -> ast.stmt | None:
    for st in tree.body:
        if any(n is node for n in ast.walk(st)):
            return st
    return None


def _label_text(st: ast.stmt) -> str:
    """The string constants of a statement (print labels, f-string text, dict keys), minus
    those used as subscripts (`cv_results_["mean_test_score"]`)."""
    subs = {id(n.slice) for n in ast.walk(st) if isinstance(n, ast.Subscript)}
    return " ".join(n.value for n in ast.walk(st) if isinstance(n, ast.Constant)
                    and isinstance(n.value, str) and id(n) not in subs).lower()


@rule("circular_validation.search_best_score_reported",
      title="A search's best CV score reported as the model's expected performance")
def search_best_score_reported(ev: Evidence) -> Iterator[Finding]:
    """`GridSearchCV(...).best_score_` (or optuna's `study.best_value`, or the max of
    `cv_results_`) is the highest of many cross-validated scores, and the folds that produced
    it also chose the winning setting: as an estimate of performance on new data it is biased
    upwards. Flagged only when it is reported and nothing held out evaluates the chosen model
    in the cell (no test-set score, no `search.score`/`predict`, no nested cross-validation
    of the search). High (0.7) when the report presents it as expected / new-data / test
    performance; medium (0.5) otherwise (a tuning diagnostic labelled as CV)."""
    m = ev.model
    if m.tree is None or ev.tree is None:
        return
    found = _best_nodes(m)
    if not found:
        return
    reported_ids = {id(n) for e in m.reported_exprs for n in ast.walk(e)}
    roots = {r for _, r in found}
    # held-out evaluation of the chosen model, or the search nested in an outer CV
    for c in m.calls:
        if c.last in _EVAL_METHODS and c.receiver is not None and \
                _operand_root(c.receiver) in roots:
            return
        if c.last in _NESTING and any(names_in(a) & roots for a in c.node.args):
            return
    if relevant(ev):
        flow = flow_of(ev)
        if any(s.in_cell and s.on == "test" for s in flow.scores) or \
                any(s.in_cell for s in flow.searches_on_test):
            return
    for node, root in found:
        st = _stmt_of(m.tree, node)
        if st is None:
            continue
        shown = id(node) in reported_ids
        text = _label_text(st)
        if not shown and isinstance(st, ast.Assign):
            bound = {n for t in st.targets for n in names_in(t)}
            shown = any(m.is_reported(t) for t in bound)
            text += " " + " ".join(_label_text(o) for o in m.tree.body
                                   if o is not st and names_in(o) & bound)
        if not shown:
            continue
        claim = any(w in text for w in _CLAIMS)
        if any(w in text for w in _CV_WORDS) and not any(
                w in text for w in _CLAIMS if w not in ("test ", "test:", "test=", "final")):
            claim = False
        what = m.src(node)
        yield Finding(
            explanation=f"`{what}` (line {node.lineno}) is reported"
                        + (" as the expected performance" if claim else "")
                        + f", but it is the best of the candidate scores `{root}` compared: "
                        "the same cross-validation folds chose the setting and scored it, so "
                        "the number is biased upwards (the winner's luck on those folds is "
                        "counted as skill), and nothing held out evaluates the chosen model.",
            severity="high" if claim else "medium", confidence=0.7 if claim else 0.5,
            evidence={"lines": [node.lineno], "values": {"reported": what}},
            suggestion="Estimate performance with nested cross-validation "
                       "(cross_validate(search, X, y, cv=outer)) or fit the search on a "
                       "training split and score the refitted best estimator once on a "
                       "held-out test set; report best_score_ only as a tuning diagnostic.")
        return


@rule("circular_validation.fitted_on_test_set",
      title="A model or calibrator fitted on the test set and scored on it")
def fitted_on_test_set(ev: Evidence) -> Iterator[Finding]:
    """A model, calibrator (IsotonicRegression, Platt scaling), stacker or threshold learner
    fitted on the test split alone (its features or the predictions on it, with the test
    labels) and then evaluated on that same test split: the test set has been used to fit
    what it then scores, so the reported improvement is circular."""
    if not relevant(ev):
        return
    flow = flow_of(ev)
    seen: set[str] = set()
    for t in flow.test_rows:
        if not t.in_cell or t.how != "contains_test" or t.model in seen:
            continue
        fit = flow.model_fits.get(t.model)
        if fit is None or _has_split(fit[0], t.split.id, "train"):
            continue  # train + test rows together: leakage.test_rows_in_training
        seen.add(t.model)
        where = f"line {t.fit_line}" if t.fit_in_cell else "an earlier cell"
        lines = sorted({x for x in (t.fit_line if t.fit_in_cell else None, t.line) if x})
        yield Finding(
            explanation=f"`{t.model}` is fitted on the test split (`{t.fit_src}`, {where}) and "
                        f"then evaluated on that same split with `{t.call}` (line {t.line}): "
                        "the test labels shaped what is being scored, so the reported score "
                        "(or the improvement over the uncalibrated / first-stage model) is "
                        "measured on the data it was fitted to.",
            severity="critical", confidence=0.85,
            evidence={"lines": lines, "values": {"fitted_on": t.fit_src}},
            suggestion="Fit the second stage on data the test set never touches: a "
                       "validation split or out-of-fold predictions of the training set "
                       "(CalibratedClassifierCV(model, cv=5).fit(X_train, y_train)), then "
                       "score it once on the test split.")


RULES = [selection_on_test, search_fit_on_test, early_stopping_on_test,
         selection_on_validation_reported, search_best_score_reported, fitted_on_test_set]
