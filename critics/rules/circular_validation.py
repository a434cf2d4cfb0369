"""Circular validation: a model, hyperparameter, threshold or stopping epoch chosen by its score
on the test set, and that test score reported as the expected performance.

Reads the shared data flow of `_split_flow.flow_of`: scores computed on a held-out test set (the
second output of train_test_split, a manual split's test part, or a `*test*`/`*_te` name) are
tagged; a max/min/argmax/sort/`if score > best` over several such scores (from a loop, a
comprehension, a curve, or two models) is a selection on the test set. Validation splits (a
second split of the training part, or `*val*` names) are the sound way to select and are not
flagged unless the selected validation score is the only result reported.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..ast_cache import nodes_of
from ..ast_cache import parents as tree_parents
from ..ast_cache import walk as _walk
from ..code_model import CallSite, called_name, names_in, root_name
from ..evidence import Evidence
from ..findings import Finding
from ..rule import rule
from ..thresholds import has_word, section
from . import _columns
from ._split_flow import (
    METRIC_EXACT,
    Flow,
    LoopInfo,
    Selection,
    _has_split,
    _operand_root,
    _tokens,
    flow_of,
    relevant,
    role_of_name,
)

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
    stmts = [n for b in info.body for n in _walk(b)]
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
        for x in _walk(node))


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
    for node in _walk(m.tree):
        if isinstance(node, ast.Subscript) and names_in(node.slice) & set(targets):
            return False
        if isinstance(node, ast.Compare) and names_in(node) & set(targets):
            return False
        if isinstance(node, ast.Call) and called_name(node) in _LOCATORS and any(
                names_in(a) & set(targets) for a in node.args):
            return False
    return True


def _first_of_ranking(ev: Evidence, sel: Selection) -> bool:
    """`sorted(errs, key=errs.get)[0]`, `s.sort_values().index[0]`, `ranked.iloc[-1]`: the
    top of a ranking taken, which is an explicit pick, not a comparison table."""
    if sel.node is None:
        return False
    parents = _parents(ev.model.tree)
    cur: ast.AST = sel.node
    for _ in range(3):
        parent = parents.get(id(cur))
        if isinstance(parent, ast.Subscript) and parent.value is cur:
            return _number(parent.slice) in (0.0, -1.0)
        if isinstance(parent, ast.Attribute) and parent.attr in ("index", "iloc", "loc"):
            cur = parent
            continue
        return False
    return False


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


_DATA_KINDS = {"dataframe", "series", "ndarray"}


def _line_names(m, line: int) -> set[str]:  # type: ignore[no-untyped-def]
    """Names read on the statement that holds `line` (the whole statement, if multi-line)."""
    stmts = [st for st in _walk(m.tree) if isinstance(st, ast.stmt)
             and not isinstance(st, ast.For | ast.While | ast.If | ast.With | ast.Try
                                | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
             and st.lineno <= line <= (st.end_lineno or st.lineno)]
    return {n.id for st in stmts[-1:] for n in _walk(st)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _final_holdout_after(ev: Evidence, flow: Flow, sel: Selection) -> bool:
    """The selection's "test" rows act as a validation set: after the pick, a model built from
    the winner is scored on other rows - a data object none of the compared scores read,
    directly or through what they were computed from (`val` for 2018 ranks the candidates,
    `final` is refitted through 2018 and scored once on `hold`, 2019). The compared scores
    then choose, and the later score measures; a later score on the same rows (refit, then
    `best.score(X_test, y_test)` again) is still the selection's own test set."""
    m = ev.model
    if sel.node is None and not sel.line:
        return False
    chose = {t for a in m.assignments if a.line >= sel.line for t in a.targets
             if a.line == sel.line or any(m.depends_on(t, c) for c in
                                          {u for b in m.assignments if b.line == sel.line
                                           for u in b.targets})}
    if not chose:
        return False
    compared: set[str] = set()
    for s in sel.scores:
        if not s.in_cell:
            return False
        for n in _line_names(m, s.line):
            compared |= {n} | m.dependencies(n)
    for s in flow.scores:
        if not s.in_cell or s.on != "test" or s.line <= sel.line or \
                s.id in {x.id for x in sel.scores}:
            continue
        direct = _line_names(m, s.line)
        deps = set(direct)
        for n in direct:
            deps |= m.dependencies(n)
        if not deps & chose:
            continue  # not the chosen candidate
        fresh = [n for n in direct - compared
                 if (f := ev.objects.get(n)) is not None and f.kind in _DATA_KINDS
                 and n not in chose and not any(m.depends_on(n, c) for c in chose)]
        if fresh:
            return True
    return False


_SAYS = {"print", "display", "info", "warning", "warn", "debug", "log", "write", "markdown",
         "Markdown", "echo", "pprint"}


def _fixed_bar(ev: Evidence, cmp: ast.AST) -> bool:
    """`auc > 0.57`, `mape <= TARGET` (TARGET bound to a number): one score against a fixed
    number, which compares nothing with anything else scored."""
    if not (isinstance(cmp, ast.Compare) and len(cmp.ops) == 1):
        return False
    sides = [_strip_number(cmp.left), _strip_number(cmp.comparators[0])]

    def bar(x: ast.AST) -> bool:
        if _number(x) is not None:
            return True
        if isinstance(x, ast.Name):
            return _number(_strip_number(_bound_value(ev, x.id) or ast.Constant(None))) \
                is not None
        return False

    def one_value(x: ast.AST) -> bool:
        return isinstance(x, ast.Name | ast.Subscript | ast.Attribute)

    return (bar(sides[0]) and one_value(sides[1])) or (bar(sides[1]) and one_value(sides[0]))


def _verdict_only(ev: Evidence, node: ast.AST) -> bool:
    """The comparison only chooses which sentence is printed (`print("beats the market" if
    brier < brier_mkt else "market better")`, an `if` whose branches only print), and the
    sentence does not carry either compared score: nothing is kept as the winner."""
    parents = _parents(ev.model.tree)
    parent = parents.get(id(node))
    compared = names_in(node)
    if isinstance(parent, ast.IfExp) and parent.test is node:
        branches: list[ast.AST] = [parent.body, parent.orelse]
        cur: ast.AST = parent
        while True:  # up through f-strings and format() to the call that shows it
            up = parents.get(id(cur))
            if isinstance(up, ast.JoinedStr | ast.FormattedValue):
                cur = up
            elif isinstance(up, ast.Call) and cur is not up.func:
                if called_name(up) in _SAYS:
                    if not isinstance(parents.get(id(up)), ast.Expr):
                        return False
                    break
                if called_name(up) not in ("format", "str"):
                    return False
                cur = up
            else:
                return False
    elif isinstance(parent, ast.If) and parent.test is node:
        branches = [*parent.body, *parent.orelse]
        if not all(isinstance(b, ast.Pass) or (
                isinstance(b, ast.Expr) and isinstance(b.value, ast.Call)
                and called_name(b.value) in _SAYS) for b in branches):
            return False
    else:
        return False
    return not any(names_in(b) & compared for b in branches)


def _decision_not_pick(ev: Evidence, sel: Selection) -> bool:
    """A one-off `if`/conditional outside any candidate loop that compares one test score with
    a fixed bar (a launch decision), or two reported scores only to print a verdict (model vs
    a baseline): no candidate is chosen by the test set, so no reported score is the best of
    several noisy estimates."""
    node = sel.node
    if sel.op != "comparison" or sel.loops or node is None:
        return False
    compares = [node] if isinstance(node, ast.Compare) else list(
        node.values) if isinstance(node, ast.BoolOp) else []
    if not compares or not all(isinstance(c, ast.Compare) for c in compares):
        return False
    if all(_fixed_bar(ev, c) for c in compares):
        return True
    return _verdict_only(ev, node)


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
             and not _descriptive(ev, s) and not _subgroup_breakdown(flow, s)
             and not _final_holdout_after(ev, flow, s) and not _decision_not_pick(ev, s)]
    if not picks:
        return
    # one finding per cell: the explicit pick (max/argmax/`if > best`) if there is one, else
    # a ranking (sort), which alone is a comparison rather than a choice
    explicit = [s for s in picks if s.op not in _RANKINGS or _first_of_ranking(ev, s)]
    for sel in (explicit or picks)[:1]:
        reported = _reported_after(flow, sel)
        score_lines = sorted({s.line for s in sel.scores if s.in_cell})
        calls = sorted({s.call for s in sel.scores})
        what = _kind(sel)
        text = (f"{what[0].upper()}{what[1:]} is chosen by comparing test-set scores "
                f"(`{'`, `'.join(calls)}`"
                + (f" at line {', '.join(map(str, score_lines))}" if score_lines else "")
                + f"; selected with `{sel.src or sel.op}` at line {sel.line}). ")
        text += ("The score of the winner is then reported: it is the best of several noisy "
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
    for node in _walk(m.tree):
        if isinstance(node, ast.Attribute) and node.attr in _BEST_ATTRS:
            root = _operand_root(node.value)
            if root:
                out.append((node, root))
        elif isinstance(node, ast.Call) and called_name(node) in ("max", "nanmax", "amax"):
            for sub in _walk(node):
                if isinstance(sub, ast.Attribute) and sub.attr == "cv_results_":
                    root = _operand_root(sub.value)
                    if root:
                        out.append((node, root))
                    break
    return out


def _stmt_of(tree: ast.Module, node: ast.AST) -> ast.stmt | None:
    for st in tree.body:
        if any(n is node for n in _walk(st)):
            return st
    return None


def _label_text(st: ast.stmt) -> str:
    """The string constants of a statement (print labels, f-string text, dict keys), minus
    those used as subscripts (`cv_results_["mean_test_score"]`)."""
    subs = {id(n.slice) for n in _walk(st) if isinstance(n, ast.Subscript)}
    return " ".join(n.value for n in _walk(st) if isinstance(n, ast.Constant)
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
    reported_ids = {id(n) for e in m.reported_exprs for n in _walk(e)}
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




# -- coefficients solved on the test rows, then scored on them -----------------------------------


_SOLVERS = {"lstsq": (0, 1), "polyfit": (0, 1), "nnls": (0, 1), "curve_fit": (1, 2),
            "least_squares": (), "minimize": (), "minimize_scalar": (), "lsq_linear": (0, 1),
            "pinv": (0,), "solve": (0, 1), "OLS": (0, 1), "WLS": (0, 1), "GLM": (0, 1),
            "Logit": (0, 1), "ols": (), "wls": (), "glm": (), "logit": ()}
_SOLVER_PREFIXES = ("numpy", "scipy", "statsmodels")
_ERROR_NAMES = re.compile(r"(?i)(?:^|_)(?:r?mse|mae|mape|smape|wape|error|err|loss|score|r2|"
                          r"rsq|corr|accuracy|acc|auc|deviance)(?:_|$)")


def _held_names(node: ast.AST) -> set[str]:
    return {n for n in names_in(node) if role_of_name(n) in ("train", "val")}


_COMPLEMENTS = {"drop", "difference", "setdiff1d"}


def _test_rows(m, node: ast.AST | None) -> set[str]:  # type: ignore[no-untyped-def]
    """Test-named rows that `node` selects, following the cell's assignments. A test mask
    or index taken in complement selects the *other* rows and does not count: `df[~test_m]`,
    `df[is_test == False]`, `df[df.fold != test_fold]`, `df.drop(test_idx)`,
    `idx.difference(test_idx)`, `np.setdiff1d(rows, test_rows)`, `train = ~holdout`."""
    out: set[str] = set()
    seen: set[tuple[str, bool]] = set()

    def visit(n: ast.AST | None, neg: bool) -> None:
        if n is None:
            return
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Invert | ast.Not):
            visit(n.operand, not neg)
            return
        if isinstance(n, ast.Compare) and len(n.ops) == 1:
            op, right = n.ops[0], n.comparators[0]
            false = isinstance(right, ast.Constant) and right.value is False
            unequal = isinstance(op, ast.NotEq | ast.IsNot | ast.NotIn)
            equal = isinstance(op, ast.Eq | ast.Is)
            # `!= test_fold`, `!= True`, `== False` select the other rows; `!= False` does not
            if (unequal and not false) or (equal and false):
                for c in (n.left, *n.comparators):
                    visit(c, not neg)
                return
        if isinstance(n, ast.Call) and called_name(n) in _COMPLEMENTS:
            kept = list(n.args)
            removed: list[ast.AST] = []
            if called_name(n) == "setdiff1d":
                kept, removed = list(n.args[:1]), list(n.args[1:])
            else:
                removed = kept + [k.value for k in n.keywords if k.arg in ("index", "labels")]
                kept = [k.value for k in n.keywords if k.arg not in ("index", "labels")]
                visit(n.func, neg)
            for k in kept:
                visit(k, neg)
            for r in removed:
                visit(r, not neg)
            return
        if isinstance(n, ast.Name):
            if role_of_name(n.id) == "test":
                if not neg:
                    out.add(n.id)
                return
            if (n.id, neg) in seen:
                return
            seen.add((n.id, neg))
            for a in m.assigned_at(n.id):
                if a.value is not None and not isinstance(a.stmt, ast.For | ast.comprehension):
                    visit(a.value, neg)
                elif not neg:
                    out.update(x for x in a.loaded if role_of_name(x) == "test")
            return
        for child in ast.iter_child_nodes(n):
            visit(child, neg)

    visit(node, False)
    return out


def _solver_data(m, call: CallSite) -> list[ast.AST]:  # type: ignore[no-untyped-def]
    """The data a solver fits: its positional data arguments, `args=(...)` of an optimiser,
    the `data=` of a formula model."""
    slots = _SOLVERS.get(call.last, ())
    out: list[ast.AST] = [a for i in slots if (a := call.arg(i)) is not None]
    for kw in ("args", "data", "xdata", "ydata", "endog", "exog"):
        node = call.kwarg(kw)
        if node is not None:
            out.append(node)
    return out


def _is_error_call(m, c: CallSite) -> bool:  # type: ignore[no-untyped-def]
    if c.last in METRIC_EXACT or c.last in ("corrcoef", "pearsonr", "r2_score"):
        return True
    return c.function is None and isinstance(c.node.func, ast.Name) and bool(
        _ERROR_NAMES.search(c.node.func.id))


@rule("circular_validation.coefficients_fit_on_test",
      title="Weights or coefficients solved on the test rows and scored on them")
def coefficients_fit_on_test(ev: Evidence) -> Iterator[Finding]:
    """Blend weights, calibration coefficients or a curve solved by least squares or an
    optimiser (`np.linalg.lstsq`, `np.polyfit`, `scipy.optimize.curve_fit` / `minimize`,
    `sm.OLS(...).fit()`) on the test rows, and the resulting predictions then scored on those
    same test rows: the test set both fitted the parameters and grades them, so the reported
    error is in-sample. Test rows are recognised by name (`X_test`, `test_weeks`,
    `holdout`); quiet when the fit uses training or validation rows. Critical (0.85) when the
    score is reported, high (0.7) otherwise."""
    if ev.tree is None or not any(w in ev.code for w in ("lstsq", "polyfit", "curve_fit",
                                                         "minimize", "least_squares", "nnls",
                                                         "OLS", "ols(", "pinv", "solve",
                                                         "GLM", "glm(", "Logit", "logit(")):
        return
    m = ev.model
    for call in m.calls:
        if call.last not in _SOLVERS or not (call.name or "").startswith(_SOLVER_PREFIXES):
            continue
        data = _solver_data(m, call)
        if call.last in ("minimize", "least_squares", "minimize_scalar") and call.node.args:
            fn = call.node.args[0]  # the objective reads the data it closes over
            if isinstance(fn, ast.Lambda):
                data.append(fn.body)
        # rows the solver is fed: a test mask taken in complement (`df[~is_test]`) is the
        # training part, not the test rows
        tested = set().union(*(_test_rows(m, d) for d in data)) if data else set()
        held = set().union(*(_held_names(d) for d in data)) if data else set()
        for d in data:
            for n in names_in(d):
                held |= {x for x in m.dependencies(n) if role_of_name(x) in ("train", "val")}
        if not tested or held:
            continue
        params = {t for t in call.targets if not t.startswith("_")}
        if not params:
            for f in m.calls:  # smf.ols(...).fit() assigned: the fit holds the parameters
                if f.method == "fit" and f.receiver is call.node:
                    params |= set(f.targets)
        if not params:
            continue
        for score in m.calls:
            if score.line < call.line or not _is_error_call(m, score):
                continue
            args = [*score.node.args, *(k.value for k in score.node.keywords)]
            uses_params = any(
                names_in(a) & params or any(m.depends_on(n, p) for n in names_in(a)
                                            for p in params) for a in args)
            on_test = any(_test_rows(m, a) for a in args)
            if not (uses_params and on_test):
                continue
            reported = any(m.is_reported(t) for t in score.targets) or any(
                any(sub is score.node for sub in _walk(e)) for e in m.reported_exprs) or (
                isinstance(score.stmt, ast.Assign) and any(
                    m.is_reported(r) for t in score.stmt.targets
                    if (r := root_name(t)) is not None))
            shape = next((ev.objects[p].shape for p in sorted(params)
                          if p in ev.objects and ev.objects[p].shape), None)
            n_params = shape[0] if shape else None
            solver = call.name.rsplit(".", 2)[-2:] if call.name else [call.last]
            text = (f"`{'.'.join(solver)}` (line {call.line}) solves "
                    f"`{', '.join(sorted(params))}` on the test rows "
                    f"(`{', '.join(sorted(tested))}`), and line {score.line} scores the "
                    "predictions built from them on those same test rows: the parameters were "
                    "chosen to fit exactly the data that grades them, so the reported error is "
                    "in-sample and optimistic")
            if n_params:
                text += f" ({n_params} fitted parameters)"
            text += "."
            yield Finding(
                explanation=text,
                severity="critical" if reported else "high",
                confidence=0.85 if reported else 0.7,
                evidence={"lines": sorted({call.line, score.line}),
                          "values": {"fitted_on": sorted(tested), "parameters": sorted(params),
                                     "n_parameters": n_params}},
                suggestion=("Solve the weights/coefficients on training or validation rows "
                            "(or out-of-fold predictions), apply them unchanged to the test "
                            "rows, and report the test error of that fixed combination."))
            return



# -- items selected by their effect, then tested on the same rows (double dipping) --------------

_PICKERS = {"nlargest", "nsmallest", "idxmax", "idxmin", "argmax", "argmin", "nanargmax",
            "nanargmin", "get_support"}
_ORDERERS = {"argsort", "sort_values", "sorted"}
_ASSOC_CALLS = {"corrwith", "corr", "corrcoef", "pearsonr", "spearmanr", "kendalltau", "ttest_ind",
                "mannwhitneyu", "f_classif", "f_regression", "mutual_info_classif",
                "mutual_info_regression", "chi2", "fit", "fit_transform", "linregress",
                "pointbiserialr", "f_oneway", "kruskal"}
_SM_FITS = {"OLS", "Logit", "GLM", "WLS", "Probit", "ols", "logit", "glm", "wls", "probit"}
_ROW_METHODS = {"head", "tail", "sample", "query"}


def _row_mask(node: ast.AST, m) -> bool:  # type: ignore[no-untyped-def]
    """A row mask: a comparison, `&`/`|`/`~` of masks, or a name bound to one."""
    if isinstance(node, ast.Compare | ast.BoolOp):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd | ast.BitOr):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert | ast.Not):
        return True
    if isinstance(node, ast.Call) and called_name(node) in ("isin", "between"):
        return True
    if isinstance(node, ast.Name):
        f = m.evidence.objects.get(node.id)
        if f is not None and f.dtypes.get("") == "bool":
            return True
        return any(isinstance(a.value, ast.Compare | ast.BoolOp | ast.UnaryOp)
                   for a in m.assigned_at(node.id))
    return False


def _mask_of(value: ast.AST, m) -> ast.AST | None:  # type: ignore[no-untyped-def]
    """The row mask or slice when `value` takes a subset of rows (`df[m]`, `x[:30]`,
    `df.loc[m, cols]`, `df.iloc[a:b]`, `df.query(...)`, `df.head(30)`); None otherwise."""
    if isinstance(value, ast.Subscript):
        base, sl = value.value, value.slice
        if isinstance(base, ast.Attribute) and base.attr in ("loc", "iloc"):
            sl = sl.elts[0] if isinstance(sl, ast.Tuple) and sl.elts else sl
            return sl
        if isinstance(sl, ast.Slice) or _row_mask(sl, m):
            return sl
        return None
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and \
            value.func.attr in _ROW_METHODS:
        return value
    return None


class _DoubleDip:
    """Selections, labels and the rows they were computed on, for one cell."""

    def __init__(self, ev: Evidence):
        self.ev = ev
        self.m = ev.model
        self.values: dict[str, list[ast.AST]] = {}
        self.subsets: dict[str, list[ast.AST]] = {}  # name -> masks it was subset by
        for st in _walk(self.m.tree):
            if not isinstance(st, ast.Assign):
                continue
            for t in st.targets:
                pairs = [(t, st.value)]
                if isinstance(t, ast.Tuple | ast.List) and isinstance(st.value, ast.Tuple) \
                        and len(t.elts) == len(st.value.elts):
                    pairs = list(zip(t.elts, st.value.elts, strict=True))
                for tt, vv in pairs:
                    for n in names_in(tt) if isinstance(tt, ast.Name | ast.Tuple) else ():
                        self.values.setdefault(n, []).append(vv)
                        mask = _mask_of(vv, self.m)
                        if mask is not None:
                            self.subsets.setdefault(n, []).append(mask)
                        elif isinstance(vv, ast.Call) and called_name(vv) == "train_test_split":
                            self.subsets.setdefault(n, []).append(vv)

    def selections(self) -> dict[str, ast.AST]:
        out: dict[str, ast.AST] = {}
        for name, values in self.values.items():
            for v in values:
                calls = {called_name(n) for n in _walk(v) if isinstance(n, ast.Call)}
                sliced = any(isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Slice)
                             for n in _walk(v)) or bool(calls & {"head", "tail"})
                filtered = isinstance(v, ast.ListComp | ast.SetComp | ast.GeneratorExp) and \
                    any(g.ifs for g in v.generators)
                masked_index = isinstance(v, ast.Attribute) and v.attr == "index" and \
                    isinstance(v.value, ast.Subscript) and _row_mask(v.value.slice, self.m)
                # `top = list(ranked.index[:6])` with `ranked = r.sort_values(...)`
                ordered = bool(calls & _ORDERERS) or (sliced and any(
                    isinstance(c, ast.Call) and called_name(c) in _ORDERERS
                    for n in names_in(v) for pv in self.values.get(n, [])
                    for c in _walk(pv)))
                if calls & _PICKERS or (ordered and sliced) or filtered or masked_index:
                    out[name] = v
        return out

    def labels(self, node: ast.AST, exclude: set[str], depth: int = 0,
               skip: frozenset[str] = frozenset()) -> set[str]:
        """Columns / names that split rows into groups (masks in subscripts) or serve as the
        outcome of an association (`corrwith(y)`, `pearsonr(X[c], y)`), through the values
        of the names `node` reads (three levels; not through `skip`)."""
        out: set[str] = set()
        for sub in _walk(node):
            masks: list[ast.AST] = []
            if isinstance(sub, ast.Subscript):
                sl = sub.slice
                if isinstance(sub.value, ast.Attribute) and sub.value.attr == "loc" and \
                        isinstance(sl, ast.Tuple) and sl.elts:
                    sl = sl.elts[0]
                if _row_mask(sl, self.m) and not isinstance(sl, ast.Name):
                    masks.append(sl)
            elif isinstance(sub, ast.Call) and called_name(sub) in _ASSOC_CALLS:
                args = list(sub.args)
                outcome = args[:1] if called_name(sub) == "corrwith" else args[1:2]
                masks += outcome
            for mk in masks:
                out |= self._refs(mk, exclude)
        if depth < 3:
            for n in names_in(node) - exclude - skip:
                for v in self.values.get(n, []):
                    if self.subsets.get(n):
                        continue  # a row subset's own mask says which rows, not a label
                    out |= self.labels(v, exclude | {n}, depth + 1, skip)
        return out

    def _refs(self, node: ast.AST, exclude: set[str]) -> set[str]:
        out: set[str] = set()
        for sub in _walk(node):
            if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and \
                    sub.value.id not in exclude and sub.value.id not in self.m.aliases:
                out.add(sub.attr)
            elif isinstance(sub, ast.Subscript) and isinstance(sub.slice, ast.Constant) and \
                    isinstance(sub.slice.value, str):
                out.add(sub.slice.value)
            elif isinstance(sub, ast.Name) and sub.id not in exclude and \
                    sub.id not in self.m.aliases and not self._is_frame(sub.id):
                out.add(sub.id)
        return out

    def _is_frame(self, name: str) -> bool:
        f = self.ev.objects.get(name)
        return f is not None and f.kind == "dataframe"

    def roots(self, names: set[str], stop: set[str], picked: set[str]) -> set[str]:
        """The data a computation reads, followed back through the cell's assignments and
        stopping at row subsets (`d_sens = sensors[discover]`) unless the subset was picked
        by the selection itself (`sub = df[df.segment == best]`)."""
        out: set[str] = set()
        seen: set[str] = set()
        stack = list(names)
        while stack:
            n = stack.pop()
            if n in seen or n in stop or n in self.m.aliases:
                continue
            seen.add(n)
            values = self.values.get(n)
            if not values:
                out.add(n)
                continue
            masks = self.subsets.get(n, [])
            if masks and not any(names_in(mk) & picked or any(
                    self.m.depends_on(x, p) for x in names_in(mk) for p in picked)
                    for mk in masks):
                out.add(n)
                continue
            for v in values:
                stack += list(names_in(v))
        return out


_DISCRIMINATION = {"roc_auc_score", "roc_curve", "average_precision_score",
                   "precision_recall_curve"}
# the fit of a composite to the outcome: `np.corrcoef(sim, obs)`, a metric, or a helper of them
_SKILL_CALLS = {"corrcoef", "pearsonr", "spearmanr", "r2_score", *METRIC_EXACT}


def _skill_helpers(m) -> set[str]:  # type: ignore[no-untyped-def]
    """The cell's functions that compute a correlation or metric (`def skill(sim, obs):
    return np.corrcoef(sim, obs)[0, 1], rmse`) or are named as an error (`def rmse(a, b)`):
    a call of one scores its arguments."""
    named = {f.name for f in nodes_of(m.tree, ast.FunctionDef) if _ERROR_NAMES.search(f.name)}
    return named | {c.function for c in m.calls if c.function and c.last in _SKILL_CALLS}


def _tested(ev: Evidence) -> list[tuple[CallSite, list[ast.AST], str]]:
    """(call, sample/data arguments, kind) of hypothesis tests and inference fits."""
    out: list[tuple[CallSite, list[ast.AST], str]] = []
    from ..stat_tests import sample_args, test_calls

    for call, _full, spec in test_calls(ev.model):
        if spec.kind in ("independent", "anova", "correlation", "regression"):
            args = [a for _, a in sample_args(call, spec)] or list(call.node.args)
            out.append((call, args, spec.kind))
    helpers = _skill_helpers(ev.model)
    for call in ev.model.calls:
        # a discrimination metric of a score against the outcome (the picked items' sum
        # score's AUC) measures the association the selection maximised
        if call.last in _DISCRIMINATION and len(call.node.args) >= 2:
            out.append((call, list(call.node.args[:2]), "correlation"))
            continue
        # the picked members' composite correlated with / scored against the outcome
        if call.function is None and len(call.node.args) >= 2 and (
                call.last == "corrcoef" or (isinstance(call.node.func, ast.Name)
                                            and call.node.func.id in helpers)):
            out.append((call, list(call.node.args[:2]), "correlation"))
            continue
        if call.last in _SM_FITS and (call.name or "").startswith("statsmodels") and \
                any(w in ev.code for w in (".pvalues", "summary", "conf_int", ".tvalues")):
            args = list(call.node.args) + [k.value for k in call.node.keywords
                                           if k.arg in ("data", "endog", "exog")]
            out.append((call, args, "model"))
    return out


def _outcome_refs(dd: _DoubleDip, call: CallSite, args: list[ast.AST], kind: str,
                  picked: set[str]) -> set[str]:
    m = dd.m

    def uses_pick(a: ast.AST) -> bool:
        return any(n in picked or any(m.depends_on(n, p) for p in picked)
                   for n in names_in(a))

    if kind in ("correlation", "regression"):
        return set().union(*(dd._refs(a, picked) for a in args if not uses_pick(a))) \
            if args else set()
    if kind == "model":
        formula = call.arg(0, "formula")
        if isinstance(formula, ast.Constant) and isinstance(formula.value, str):
            return set(re.findall(r"[A-Za-z_]\w*", formula.value.split("~", 1)[0]))
        endog = call.arg(0, "endog")
        return dd._refs(endog, picked) if endog is not None else set()
    return dd.labels(ast.Tuple(elts=list(args), ctx=ast.Load()), picked,
                     skip=frozenset(_ancestors(dd, picked)))


_FRAME_REF = re.compile(r"\b[A-Za-z_]\w*(?=\s*[.\[])")
_IDENT = re.compile(r"[A-Za-z_]\w*")


def _mask_parts(dd: _DoubleDip, node: ast.AST, exclude: set[str], depth: int = 0) -> set[str]:
    """The row masks and cuts (`x[sel_p]`, `df[df.year <= 1985]`, `y[:36]`) under which `node`
    reads data, directly or through the cell's values of the names it reads (two levels),
    as source text of each `&`/`|` term."""
    m = dd.m
    out: set[str] = set()
    for sub in _walk(node):
        if not isinstance(sub, ast.Subscript):
            continue
        sl = sub.slice
        if isinstance(sub.value, ast.Attribute) and sub.value.attr in ("loc", "iloc") and \
                isinstance(sl, ast.Tuple) and sl.elts:
            sl = sl.elts[0]
        if isinstance(sl, ast.Slice) and (sl.lower is not None or sl.upper is not None):
            out.add(m.src(sl))
        elif _row_mask(sl, m):
            stack = [sl]
            while stack:
                x = stack.pop()
                if isinstance(x, ast.BinOp) and isinstance(x.op, ast.BitAnd | ast.BitOr):
                    stack += [x.left, x.right]
                else:
                    out.add(m.src(x))
    if depth < 2:
        for n in names_in(node) - exclude:
            for v in dd.values.get(n, []):
                out |= _mask_parts(dd, v, exclude | {n}, depth + 1)
    return out


def _other_rows(dd: _DoubleDip, picks: dict[str, ast.AST], picked: set[str],
                args: list[ast.AST]) -> bool:
    """The choice and the test each read the data under row masks and share none
    (`r = corr(m[sel_p], obs[sel_p])` to choose, `skill(ens[best][ver_p], obs[ver_p])` to
    test): chosen on one part of the rows, tested on another."""
    stop = set(picked)
    sel: set[str] = set()
    for p in picked:
        for n in names_in(picks[p]) - stop:
            for v in dd.values.get(n, []):
                sel |= _mask_parts(dd, v, stop | {n})
    test = set().union(*(_mask_parts(dd, a, stop | _ancestors(dd, picked)) for a in args)) \
        if args else set()
    if not sel or not test:
        return False
    # a test mask built from the pick (`df[df.segment == best]`) takes the chosen rows
    derived = {n for n in dd.values if any(dd.m.depends_on(n, p) for p in picked)} | picked
    if any(set(_IDENT.findall(t)) & derived for t in test):
        return False

    def key(t: str) -> str:  # `g.treated == 1` and `seg.treated == 1` are one cut
        return _FRAME_REF.sub("_", t)
    return not {key(t) for t in sel} & {key(t) for t in test}


def _ancestors(dd: _DoubleDip, picked: set[str]) -> set[str]:
    """What the selection was computed from in this cell (`gap` for `gap.nlargest(10)`);
    the data it read (`sensors`) is not included: the test may read it too."""
    out: set[str] = set()
    for p in picked:
        out |= {a for a in dd.m.dependencies(p) if a in dd.values}
    return out


@rule("circular_validation.selection_then_test_same_data",
      title="Features or subgroups chosen by their effect, then tested on the same data")
def selection_then_test_same_data(ev: Evidence) -> Iterator[Finding]:
    """Channels, genes, items or a subgroup are picked for the largest difference or
    correlation with an outcome (`nlargest`, `idxmax`, a p-value screen) and the picked ones
    are then tested against that same outcome on the same rows: the selection guarantees a
    large statistic, so the p-value is meaningless ("double dipping", circular analysis).
    Quiet when the choice is made on one part of the rows and tested on another, or when the
    choice does not use the outcome (a variance filter). Critical (0.85) when the kernel
    shows many candidates for few picks and the test's result is reported; high (0.7)
    otherwise."""
    if ev.tree is None or not any(w in ev.code for w in (
            "nlargest", "nsmallest", "idxmax", "idxmin", "argmax", "argmin", "argsort",
            "sort_values", "get_support", " if ", "sorted")):
        return
    dd = _DoubleDip(ev)
    picks = dd.selections()
    if not picks:
        return
    m = dd.m
    helpers = _skill_helpers(m)
    for call, args, kind in _tested(ev):
        read: set[str] = set().union(*(names_in(a) for a in args)) if args else set()
        picked = {p for p in picks if p in read or any(m.depends_on(n, p) for n in read)}
        picked = {p for p in picked if (st := picks[p]) is not None and
                  getattr(st, "lineno", 0) <= call.line}
        if not picked:
            continue
        ancestors = _ancestors(dd, picked)
        sel_labels: set[str] = set()
        sel_roots: set[str] = set()
        by_outcome: list[str] = []
        for p in sorted(picked):
            got = dd.labels(picks[p], {p})
            if got:
                by_outcome.append(p)
            sel_labels |= got
            sel_roots |= dd.roots(names_in(picks[p]), {p}, set())
        test_labels = _outcome_refs(dd, call, args, kind, picked)
        shared_labels = sel_labels & test_labels
        test_roots = dd.roots(read, picked | ancestors, picked)
        shared_rows = sel_roots & test_roots
        if not shared_labels or not shared_rows or _other_rows(dd, picks, picked, args):
            continue
        pick = (by_outcome or sorted(picked))[0]
        chooser = picks[pick]
        candidates = chosen = None
        for sub in _walk(chooser):
            if isinstance(sub, ast.Call) and called_name(sub) in _PICKERS | _ORDERERS and \
                    isinstance(sub.func, ast.Attribute):
                f = ev.objects.get(root_name(sub.func.value) or "")
                if f is not None and f.rows:
                    candidates = f.rows if f.kind != "dataframe" else (
                        f.shape[1] if f.shape and len(f.shape) > 1 else None)
                break
        pf = ev.objects.get(pick)
        if pf is not None:
            chosen = pf.length if pf.length is not None else (
                pf.rows if pf.rows is not None else (1 if pf.kind == "scalar" else None))
        reported = any(m.is_reported(t) for t in call.targets) or any(
            any(sub is call.node for sub in _walk(e)) for e in m.reported_exprs) or \
            kind == "model"
        strong = candidates is not None and chosen is not None and candidates >= 3 * chosen
        severity, confidence = ("critical", 0.85) if strong and reported else ("high", 0.7)
        test = call.last
        what = (f"{chosen} of {candidates} candidates" if strong else f"`{pick}`")
        yield Finding(
            explanation=(f"`{pick}` (line {getattr(chooser, 'lineno', '?')}) is chosen for its "
                         f"association with `{sorted(shared_labels)[0]}` ({what}), and "
                         f"`{test}` (line {call.line}) then tests the chosen ones against "
                         f"`{sorted(shared_labels)[0]}` on the same rows "
                         f"(`{', '.join(sorted(shared_rows))}`). The selection already "
                         "guarantees a large difference or correlation, so "
                         + ("the reported discrimination (AUC, sensitivity/specificity) is "
                            "inflated (double dipping): even pure noise items would look "
                            "predictive." if test in _DISCRIMINATION else
                            "the reported correlation / skill of the chosen ones is inflated: "
                            "they were kept for matching this record, so part of their fit "
                            "is selection noise and says nothing about new data."
                            if kind == "correlation" and (test == "corrcoef" or test in helpers)
                            else "the test statistic is inflated and its p-value is meaningless "
                            "(double dipping): even pure noise passes.")),
            severity=severity, confidence=confidence,
            evidence={"lines": sorted({getattr(chooser, "lineno", call.line), call.line}),
                      "values": {"selected": pick, "candidates": candidates,
                                 "chosen": chosen, "label": sorted(shared_labels)[0]}},
            suggestion=("Choose on one part of the data and test on another: split the rows "
                        "(a discovery half to pick, a confirmation half to test), or put the "
                        "selection inside a permutation test / cross-validation so the null "
                        "distribution includes the selection step."))
        return


# -- a cut-off calibrated on a set of values, its hit rate then measured on the same values ------

_QUANTILE_FUNCS = {"quantile": 1.0, "nanquantile": 1.0, "percentile": 100.0,
                   "nanpercentile": 100.0, "scoreatpercentile": 100.0}
_QUANTILE_MODULES = {"np", "numpy", "stats", "scipy", "statistics", "pd", "torch"}
_RATE_REDUCERS = {"mean", "nanmean", "average"}
_COUNT_REDUCERS = {"sum", "nansum", "count_nonzero"}
# a claim that the rate validates something (an interval's coverage, an alarm's error rate)
_COVERAGE_WORDS = re.compile(
    r"(?i)cover|captur|hit.?rate|calibrat|conform|exceed|breach|violat|valid|accura|"
    r"empirical|false.?alarm|false.?positive|miss.?rate|sensitiv|specificit")
# words that also describe a descriptive cut-off (a reference interval, outlier fences, a
# top-decile flag): a validation only when the values are a model's errors / scores
_SHARE_WORDS = re.compile(r"(?i)within|inside|outside|interval|band|fraction|share|pct|"
                          r"percent|rate")
# what a model's output looks like in the calculation of the values a cut-off is set on
_MODEL_OUTPUT_CALLS = {"predict", "predict_proba", "predict_log_proba", "decision_function",
                       "score_samples", "polyval", "forecast", "get_prediction", "fit_predict",
                       "get_forecast", "simulate", "kneighbors", "reconstruct"}
_MODEL_OUTPUT_ATTRS = {"resid", "fittedvalues", "resid_pearson", "resid_response",
                       "resid_deviance", "resid_anscombe", "resid_working", "fitted_values",
                       "negative_outlier_factor_", "residuals"}
_MODEL_OUTPUT_TOKENS = {"resid", "residual", "residuals", "err", "errs", "error", "errors",
                        "pred", "preds", "prediction", "predictions", "forecast", "fitted",
                        "nonconformity", "conformity", "anomaly"}
_INSAMPLE_WORDS = re.compile(r"(?i)in.?sample|by construction|sanity|train|calibration (set|data)")


@dataclass
class _Cut:
    name: str | None  # the name the cut-off is bound to (None: inline)
    data: ast.expr  # the values it was calibrated on
    keys: set[str]  # their source, and the source of the value a plain name is bound to
    level: float | None  # the quantile level (0..1), when known
    line: int
    node: ast.expr


def _strip_number(node: ast.AST) -> ast.AST:
    """`float(q)`, `round(q, 2)`, `q.item()`: the number inside."""
    while True:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in ("float", "round", "abs") and node.args:
            node = node.args[0]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in ("item", "round") and not node.args[1:]:
            node = node.func.value
        else:
            return node


def _number(node: ast.AST | None) -> float | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and \
            not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = _number(node.operand)
        return None if v is None else -v
    return None


def _levels(node: ast.AST | None, scale: float) -> list[float | None] | None:
    """The quantile level(s) of a `q=` argument, as fractions; None entries when unknown."""
    if node is None:
        return None
    if isinstance(node, ast.List | ast.Tuple):
        return [(v / scale if (v := _number(e)) is not None else None) for e in node.elts]
    v = _number(node)
    return [v / scale if v is not None else None]


def _quantile_of(node: ast.AST) -> tuple[ast.expr, list[float | None]] | None:
    """(values, levels) of `np.quantile(v, .9)`, `np.percentile(v, [5, 95])`,
    `v.quantile(.9)`, `stats.scoreatpercentile(v, 90)`, `np.sort(v)[int(.9 * len(v))]`."""
    node = _strip_number(node)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in _QUANTILE_FUNCS:
        scale = _QUANTILE_FUNCS[node.func.attr]
        recv = node.func.value
        module = (isinstance(recv, ast.Name) and recv.id in _QUANTILE_MODULES) or (
            isinstance(recv, ast.Attribute) and recv.attr == "stats")
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        if module:
            if not node.args:
                return None
            data = node.args[0]
            q = node.args[1] if len(node.args) > 1 else kw.get("q", kw.get("per"))
        else:
            data = recv
            q = node.args[0] if node.args else kw.get("q")
        levels = _levels(q, scale)
        return (data, levels) if levels else None
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Call):
        inner = node.value
        py_sorted = isinstance(inner.func, ast.Name) and inner.func.id == "sorted"
        np_sort = isinstance(inner.func, ast.Attribute) and inner.func.attr == "sort" and \
            isinstance(inner.func.value, ast.Name) and inner.func.value.id in ("np", "numpy")
        if not (py_sorted or np_sort) or not inner.args:
            return None
        sorted_data = inner.args[0]
        level = None
        k = node.slice
        if isinstance(k, ast.Call) and isinstance(k.func, ast.Name | ast.Attribute) and \
                k.args:  # int(0.9 * len(v)), math.ceil(0.9 * n)
            k = k.args[0]
        if isinstance(k, ast.BinOp) and isinstance(k.op, ast.Mult):
            level = _number(k.left) if _number(k.left) is not None else _number(k.right)
            if level is not None and not 0 < level < 1:
                level = None
        return sorted_data, [level]
    return None


def _cell_value(ev: Evidence, name: str) -> ast.expr | None:
    """The value of `name` when this cell binds it exactly once (a plain assignment)."""
    hits = [n for n in _walk(ev.model.tree) if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Store) and n.id == name]
    if len(hits) != 1:
        return None
    for n in _walk(ev.model.tree):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and n.targets[0] is hits[0]:
            return n.value
    return None


def _keys(ev: Evidence, node: ast.AST) -> set[str]:
    keys = {ast.unparse(node)}
    if isinstance(node, ast.Name):
        value = _cell_value(ev, node.id)
        if value is not None:
            keys.add(ast.unparse(value))
    return keys


def _cuts(ev: Evidence) -> list[_Cut]:
    out: list[_Cut] = []
    for node in _walk(ev.model.tree):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        found = _quantile_of(node.value)
        if found is None:
            continue
        data, levels = found
        target = node.targets[0]
        names = [target] if isinstance(target, ast.Name) else list(target.elts) if isinstance(
            target, ast.Tuple) else []
        if not names or not all(isinstance(t, ast.Name) for t in names):
            continue
        if len(names) == 1 and len(levels) > 1:
            continue  # an array of cut-offs compared as a whole: not followed
        if len(names) != len(levels):
            continue
        for t, level in zip(names, levels, strict=True):
            out.append(_Cut(t.id, data, _keys(ev, data), level,  # type: ignore[union-attr]
                            node.lineno, node.value))
    return out


# the last tree's map, held with its tree so the ids stay valid
_LAST_PARENTS: list[tuple[ast.AST, dict[int, ast.AST]]] = []


def _parents(tree: ast.AST) -> dict[int, ast.AST]:
    """id(child) -> parent. Four rules ask for the same cell's map: the last one is kept
    (a concurrent review of another cell only rebuilds it)."""
    last = _LAST_PARENTS[:1]
    if last and last[0][0] is tree:
        return last[0][1]
    out = tree_parents(tree)  # within a review, the map the other rules share
    _LAST_PARENTS[:] = [(tree, out)]
    return out


def _rebound_between(ev: Evidence, data: ast.expr, start: int, end: int) -> bool:
    names = names_in(data)
    return any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id in names
               and start < n.lineno <= end for n in _walk(ev.model.tree))


@dataclass
class _Hit:
    cmp: ast.Compare
    cut: _Cut
    expected: float | None  # the rate the comparison gives by construction


def _hit_on_same_values(ev: Evidence, cmp: ast.Compare, cuts: list[_Cut]) -> _Hit | None:
    if len(cmp.ops) != 1 or not isinstance(cmp.ops[0], ast.Lt | ast.LtE | ast.Gt | ast.GtE):
        return None
    left, right = cmp.left, cmp.comparators[0]
    below = isinstance(cmp.ops[0], ast.Lt | ast.LtE)  # values < cut-off (data on the left)
    for data_side, cut_side, flipped in ((left, right, False), (right, left, True)):
        cut_node = _strip_number(cut_side)
        candidates: list[_Cut] = []
        if isinstance(cut_node, ast.Name):
            candidates = [c for c in cuts if c.name == cut_node.id
                          and c.line <= cmp.lineno]
            candidates = candidates[-1:]
        else:
            inline = _quantile_of(cut_node)
            if inline is not None and len(inline[1]) == 1:
                candidates = [_Cut(None, inline[0], _keys(ev, inline[0]), inline[1][0],
                                   cmp.lineno, cut_node)]  # type: ignore[arg-type]
        for cut in candidates:
            if not (_keys(ev, data_side) & cut.keys):
                continue
            if _rebound_between(ev, cut.data, cut.line, cmp.lineno):
                continue
            expected = None
            if cut.level is not None:
                expected = cut.level if below != flipped else 1 - cut.level
            return _Hit(cmp, cut, expected)
    return None


def _rate_of(node: ast.AST, parents: dict[int, ast.AST]) -> tuple[ast.AST, bool] | None:
    """The expression that turns a boolean comparison into a rate: `(...).mean()`,
    `np.mean(...)`, `(...).sum() / len(v)`; (node, exact) where exact is False when the
    rate is further transformed (scaled to percent is still exact)."""
    cur = node
    while True:
        parent = parents.get(id(cur))
        if parent is None:
            return None
        if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.BitAnd | ast.BitOr):
            cur = parent
            continue
        if isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Invert):
            cur = parent
            continue
        if isinstance(parent, ast.Attribute) and parent.value is cur:
            call = parents.get(id(parent))
            if isinstance(call, ast.Call) and call.func is parent:
                if parent.attr in _RATE_REDUCERS:
                    return call, True
                if parent.attr in ("astype", "to_numpy", "values"):
                    cur = call
                    continue
                if parent.attr in _COUNT_REDUCERS:
                    div = parents.get(id(call))
                    if isinstance(div, ast.BinOp) and isinstance(div.op, ast.Div) and \
                            div.left is call:
                        return div, True
            if parent.attr == "values":
                cur = parent
                continue
            return None
        if isinstance(parent, ast.Call) and cur in parent.args:
            f = parent.func
            last = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(
                f, ast.Name) else ""
            if last in _RATE_REDUCERS:
                return parent, True
            if last in _COUNT_REDUCERS:
                div = parents.get(id(parent))
                if isinstance(div, ast.BinOp) and isinstance(div.op, ast.Div) and \
                        div.left is parent:
                    return div, True
            if last in ("float", "int"):
                cur = parent
                continue
            return None
        return None


def _rate_target(rate: ast.AST, parents: dict[int, ast.AST]) -> tuple[str | None, ast.stmt | None]:
    """(name the rate is stored in, its statement), following `100 * rate`, `round(rate)`."""
    cur = rate
    while True:
        parent = parents.get(id(cur))
        if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Mult) and (
                _number(parent.left) == 100 or _number(parent.right) == 100):
            cur = parent
            continue
        if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and \
                parent.func.id in ("float", "round"):
            cur = parent
            continue
        break
    stmt = cur
    while stmt is not None and not isinstance(stmt, ast.stmt):
        stmt = parents.get(id(stmt))
    if isinstance(stmt, ast.Assign) and stmt.value is cur and len(stmt.targets) == 1 and \
            isinstance(stmt.targets[0], ast.Name):
        return stmt.targets[0].id, stmt
    return None, stmt  # type: ignore[return-value]


def _model_derived(ev: Evidence, data: ast.AST) -> bool:
    """Whether the values a cut-off is set on are a model's output - residuals, prediction
    errors, predicted scores, anomaly scores (a predict/decision_function/polyval call or a
    `.resid` / `.fittedvalues` in their calculation, in this cell or an earlier one, or a
    name that says so) - rather than raw measurements of a sample."""
    m = ev.model
    values: dict[str, list[ast.AST]] = {}
    for tree in (m._prior_tree, m.tree):
        for node in _walk(tree):
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    for n in names_in(t):
                        values.setdefault(n, []).append(node.value)
    seen: set[str] = set()
    todo: list[ast.AST] = [data]
    while todo:
        node = todo.pop()
        for x in _walk(node):
            if isinstance(x, ast.Call) and called_name(x) in _MODEL_OUTPUT_CALLS:
                return True
            if isinstance(x, ast.Attribute) and x.attr in _MODEL_OUTPUT_ATTRS:
                return True
            if isinstance(x, ast.Name) and x.id not in seen:
                seen.add(x.id)
                if set(_tokens(x.id)) & _MODEL_OUTPUT_TOKENS:
                    return True
                if len(seen) < 40:
                    todo.extend(values.get(x.id, []))
    return False


def _validation_context(ev: Evidence, hit: _Hit, name: str | None, stmt: ast.stmt | None
                        ) -> tuple[bool, bool]:
    """(looks like a validation, says it is in-sample): the words of the rate's name and of
    the lines that report it, and whether the values come from test rows. A share of values
    outside / inside the cut-off is a validation claim only for a model's errors or scores
    (a prediction interval's coverage, an alarm's false-alarm rate); on raw measurements it
    restates how a descriptive cut-off was drawn (a reference interval's 5% of the reference
    sample outside it, the share beyond outlier fences or above a top-decile line)."""
    m = ev.model
    texts = [name or ""]
    for c in m.calls:
        if c.matches("print", "display") or c.last == "print":
            src = m.src(c.node)
            if (name and re.search(rf"\b{re.escape(name)}\b", src)) or (
                    stmt is not None and c.line == getattr(stmt, "lineno", -1)):
                texts.append(src)
    if stmt is not None:
        texts.append(m.src(stmt))
    text = " ".join(texts)
    data_names = names_in(hit.cut.data)
    deps = set(data_names)
    for n in data_names:
        deps |= m.dependencies(n)
    test_rows = any(role_of_name(n) in ("test", "val") for n in deps)
    validation = test_rows or bool(_COVERAGE_WORDS.search(text)) or (
        bool(_SHARE_WORDS.search(text)) and _model_derived(ev, hit.cut.data))
    return validation, bool(_INSAMPLE_WORDS.search(text))


@rule("circular_validation.cutoff_scored_on_its_calibration_data",
      title="A cut-off calibrated on a set of values and its coverage measured on the same values")
def cutoff_scored_on_its_calibration_data(ev: Evidence) -> Iterator[Finding]:
    """An interval half-width, alarm threshold or cut-off set at a quantile of some values
    (`q = np.quantile(np.abs(resid), 0.9)`, `np.percentile(v, [5, 95])`, `v.quantile(.99)`,
    `np.sort(v)[int(.9 * len(v))]`) and then its coverage / hit rate / exceedance rate
    measured on those same values (`(np.abs(resid) <= q).mean()`): the rate equals the
    quantile level by construction (90% of values lie below their own 90th percentile), so
    reporting it as a validation of the interval or threshold says nothing. Found when the
    comparison uses the same expression (or the name bound to it) and the rate reaches the
    output in a validation context (coverage / rate / accuracy words, or values from test
    rows). Critical (0.9) when the kernel shows the reported rate equal to the level; high
    (0.7) when it cannot be read; medium (0.5) when the output itself calls it
    in-sample or by construction."""
    if ev.tree is None or not any(w in ev.code for w in ("quantile", "percentile", "sort")):
        return
    cuts = _cuts(ev)
    inline = any(isinstance(n, ast.Compare) and any(
        _quantile_of(x) is not None for x in (n.left, *n.comparators))
        for n in _walk(ev.model.tree))
    if not cuts and not inline:
        return
    m = ev.model
    parents = _parents(m.tree)
    reported_ids = {id(n) for e in m.reported_exprs for n in _walk(e)}
    for cmp in (n for n in _walk(m.tree) if isinstance(n, ast.Compare)):
        hit = _hit_on_same_values(ev, cmp, cuts)
        if hit is None:
            continue
        found = _rate_of(cmp, parents)
        if found is None:
            continue
        rate, _exact = found
        # a two-sided band: (v >= lo) & (v <= hi) -> the rate is hi - lo
        expected = hit.expected
        parent = parents.get(id(cmp))
        if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.BitAnd):
            other = parent.right if parent.left is cmp else parent.left
            second = _hit_on_same_values(ev, other, cuts) if isinstance(
                other, ast.Compare) else None
            if second is None or hit.expected is None or second.expected is None:
                expected = None
            else:
                expected = hit.expected + second.expected - 1
        elif parent is not None and parent is not rate and not (
                isinstance(parent, ast.Attribute | ast.Call)):
            expected = None
        name, stmt = _rate_target(rate, parents)
        reported = id(rate) in reported_ids or (name is not None and m.is_reported(name))
        if not reported:
            continue
        validation, insample = _validation_context(ev, hit, name, stmt)
        if not validation:
            continue
        value = None
        if name is not None:
            f = ev.objects.get(name)
            if f is not None and isinstance(f.value, int | float) and not isinstance(
                    f.value, bool):
                value = float(f.value)
        confirmed = False
        if value is not None and expected is not None:
            frac = value / 100 if value > 1.0 else value
            confirmed = abs(frac - expected) <= 0.02
            if not confirmed:
                continue  # the rate is not the level: something else is measured
        severity, confidence = ("critical", 0.9) if confirmed else ("high", 0.7)
        if insample:  # the output says so itself: worth a note, not a block
            severity, confidence = "medium", 0.5
        cut = hit.cut
        level = f"{cut.level:.0%} quantile" if cut.level is not None else "an order statistic"
        where = f"`{cut.name}` (line {cut.line})" if cut.name else "the cut-off"
        shown = (f"; the kernel shows {name} = {value:.4g}, the level itself"
                 if confirmed and value is not None else "")
        side = "on one side of" if expected is None else (
            "within" if expected >= 0.5 else "beyond")
        by = f" ({expected:.0%} here)" if expected is not None else ""
        yield Finding(
            explanation=(f"{where} is the {level} of `{m.src(cut.data)[:60]}`, and line "
                         f"{cmp.lineno} measures how often those same values fall {side} it "
                         f"(`{m.src(rate)[:70]}`){shown}. The rate equals the quantile level "
                         f"by construction{by}, so the reported coverage / hit rate validates "
                         "nothing: it would be the same whatever the model or the data."),
            severity=severity, confidence=confidence,
            evidence={"lines": sorted({cut.line, cmp.lineno}),
                      "values": {"level": cut.level, "expected_rate": expected,
                                 "reported_rate": value}},
            suggestion=("Calibrate the cut-off on one set of values and measure its coverage on "
                        "another: split-conformal (fit the model on a training part, take the "
                        "quantile of |residuals| on a calibration part, then check coverage "
                        "once on the untouched test rows), or cross-validate the threshold."))
        return


# -- selection whose explicit validation fold is the test set ------------------------------------

_CV_SEARCHERS = {
    "SequentialFeatureSelector", "RFECV", "GridSearchCV", "RandomizedSearchCV",
    "HalvingGridSearchCV", "HalvingRandomSearchCV", "BayesSearchCV", "TunedThresholdClassifierCV",
    "LassoCV", "RidgeCV", "ElasticNetCV", "LogisticRegressionCV", "LassoLarsCV", "LarsCV",
    "OrthogonalMatchingPursuitCV", "RidgeClassifierCV", "GraphicalLassoCV",
}
_CV_SCORERS = {"cross_val_score", "cross_validate", "validation_curve"}
_ROW_INDEXERS = {"where", "flatnonzero", "nonzero", "argwhere", "asarray", "array"}
_EVAL_CALLS = {"score", "predict", "predict_proba", "decision_function", "predict_log_proba",
               "transform"}
_PICK_CALLS = {"max", "min", "argmax", "argmin", "nanargmax", "nanargmin", "idxmax", "idxmin",
               "sorted", "sort_values", "nlargest", "nsmallest", "argsort"}


def _row_names(node: ast.AST | None) -> set[str]:
    """The names that identify a set of rows: `te`, `np.where(mask)[0]`, `test.index`."""
    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return _row_names(node.value)  # np.where(mask)[0]
    if isinstance(node, ast.Call) and node.args and isinstance(
            node.func, ast.Attribute | ast.Name):
        last = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id
        if last in _ROW_INDEXERS:
            return _row_names(node.args[0])
    if isinstance(node, ast.Attribute) and node.attr in ("index", "values") and isinstance(
            node.value, ast.Name):
        return {node.value.id}
    return set()


def _bound_value(ev: Evidence, name: str) -> ast.expr | None:
    value = _cell_value(ev, name)
    return value if value is not None else _columns.literal_assignment(ev, name)


def _validation_rows(ev: Evidence, cv: ast.AST | None) -> tuple[set[str], str] | None:
    """(names of the validation rows, description) for `cv=[(tr, te)]`, a name bound to such
    a list, or a PredefinedSplit whose fold 0 is built from a set of rows."""
    if isinstance(cv, ast.Name):
        cv = _bound_value(ev, cv.id)
    if isinstance(cv, ast.List | ast.Tuple) and cv.elts and all(
            isinstance(e, ast.Tuple) and len(e.elts) == 2 for e in cv.elts):
        names: set[str] = set()
        for e in cv.elts:
            names |= _row_names(e.elts[1])  # type: ignore[attr-defined]
        if names:
            return names, f"an explicit split `cv={ast.unparse(cv)[:60]}`"
        return None
    if isinstance(cv, ast.Call) and called_name(cv) == "PredefinedSplit":
        fold = cv.args[0] if cv.args else next(
            (k.value for k in cv.keywords if k.arg == "test_fold"), None)
        names = set()
        fold_name = fold.id if isinstance(fold, ast.Name) else None
        value = _bound_value(ev, fold_name) if fold_name else fold
        if isinstance(value, ast.Call) and called_name(value) == "where" and value.args:
            names |= _row_names(value.args[0])  # np.where(is_test, 0, -1)
        if fold_name:
            for n in _walk(ev.model.tree):  # fold[idx_te] = 0
                if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(
                        n.targets[0], ast.Subscript) and isinstance(
                        n.targets[0].value, ast.Name) and n.targets[0].value.id == fold_name \
                        and (_number(n.value) or 0) >= 0:
                    names |= _row_names(n.targets[0].slice)
        if names:
            return names, f"a PredefinedSplit whose validation fold is `{', '.join(sorted(names))}`"
    return None


def _selects_rows(node: ast.AST, rows: set[str]) -> bool:
    """Whether `node` picks rows with one of `rows`: `X[te]`, `X.iloc[te]`, `y[mask]`."""
    for n in _walk(node):
        if isinstance(n, ast.Subscript):
            sl = n.slice.elts[0] if isinstance(n.slice, ast.Tuple) and n.slice.elts else n.slice
            if _row_names(sl) & rows:
                return True
    return False


def _is_eval(c: CallSite) -> bool:
    return c.last in METRIC_EXACT or c.last in _EVAL_CALLS or bool(
        c.name and "sklearn.metrics" in c.name and not c.last[:1].isupper())


@rule("circular_validation.validation_fold_is_test",
      title="Selection cross-validated on a hand-made fold that is the test set")
def validation_fold_is_test(ev: Evidence) -> Iterator[Finding]:
    """A feature selector or hyperparameter search (SequentialFeatureSelector, RFECV,
    GridSearchCV, LassoCV...) given an explicit list of (train, test) index pairs or a
    PredefinedSplit as `cv=`, whose validation fold is the very set of rows later used to
    report the test score (`cv=[(idx_tr, idx_te)]`, then a metric on `y[idx_te]`): every
    candidate was scored on the test rows, so the reported score of the winner is optimistic
    - the same as choosing on the test set. Also `cross_val_score(..., cv=[(tr, te)])` over a
    loop of candidates whose best is picked. Critical (0.9) when the reported test score
    depends on what was selected; high (0.7) when it is not printed."""
    if ev.tree is None or "cv" not in ev.code:
        return
    m = ev.model
    reported_ids = {id(n) for e in m.reported_exprs for n in _walk(e)}
    for call in m.calls:
        searcher = call.last in _CV_SEARCHERS
        if not (searcher or call.last in _CV_SCORERS):
            continue
        found = _validation_rows(ev, call.kwarg("cv"))
        if found is None:
            continue
        rows, how = found
        selection = set(call.targets)
        if call.receiver_root and not selection:
            selection = {call.receiver_root}
        hits: list[tuple[CallSite, bool]] = []
        if searcher:
            for c in m.calls:
                if c.order <= call.order or c.line <= call.line or not _is_eval(c):
                    continue
                if not _selects_rows(c.node, rows):
                    continue
                used = names_in(c.node) | ({c.receiver_root} if c.receiver_root else set())
                deps = set(used)
                for u in used:
                    deps |= m.dependencies(u)
                if not deps & selection:
                    continue
                rep = id(c.node) in reported_ids or any(m.is_reported(t) for t in c.targets)
                hits.append((c, rep))
        elif call.loop_depth > 0:  # candidates scored on the test fold, then the best picked
            stored = set(call.targets)
            if isinstance(call.stmt, ast.Expr) and isinstance(call.stmt.value, ast.Call):
                outer = call.stmt.value
                if isinstance(outer.func, ast.Attribute) and outer.func.attr in (
                        "append", "extend"):
                    stored |= {r for r in [root_name(outer.func.value)] if r}
            if isinstance(call.stmt, ast.Assign):
                stored |= {r for t in call.stmt.targets if (r := root_name(t))}
            for c in m.calls:
                if c.order > call.order and c.last in _PICK_CALLS:
                    used = names_in(c.node)
                    if used & stored or any(m.depends_on(u, s) for u in used for s in stored):
                        rep = id(c.node) in reported_ids or any(
                            m.is_reported(t) for t in c.targets)
                        hits.append((c, rep))
                        break
        if not hits:
            continue
        c, rep = next(((h, r) for h, r in hits if r), hits[0])
        severity, confidence = ("critical", 0.9) if rep else ("high", 0.7)
        what = (f"`{call.last}` (line {call.line}) selects with {how}"
                if searcher else
                f"`{call.last}` (line {call.line}) scores each candidate with {how}")
        yield Finding(
            explanation=(f"{what}: its only validation rows, "
                         f"`{', '.join(sorted(rows))}`, are the rows that "
                         f"`{' '.join(m.src(c.node).split())[:70]}` (line {c.line}) then "
                         "uses to report the "
                         "score. Every candidate was scored on the test rows, so the winner's "
                         "test score is the best of several noisy test estimates - optimistic, "
                         "as if the choice had been made on the test set."),
            severity=severity, confidence=confidence,
            evidence={"lines": sorted({call.line, c.line}),
                      "values": {"validation_rows": sorted(rows), "selector": call.last}},
            suggestion=("Select inside the training rows only: `cv=5` (or a StratifiedKFold) "
                        "with `.fit(X[idx_tr], y[idx_tr])`, or a validation split carved out "
                        "of the training rows; then score the chosen model once on the test "
                        "rows."))
        return


# -- in-sample evaluation of a fitted model reported as its accuracy ----------------------------

_FLEXIBLE = ("RandomForest", "ExtraTree", "GradientBoosting", "XGB", "LGBM", "CatBoost",
             "KNeighbors", "RadiusNeighbors", "DecisionTree", "MLP", "Bagging", "AdaBoost",
             "GaussianProcess", "SVR", "SVC", "KernelRidge", "Booster")
_NOT_SUPERVISED = ("SearchCV", "Pipeline", "Scaler", "Encoder", "Imputer", "PCA", "KMeans",
                   "Transformer", "Selector", "Calibrated")
_PRED_CALLS = {"predict", "predict_proba", "decision_function", "predict_log_proba"}
_HAND_ERR_CALLS = {"mean", "nanmean", "average", "median", "sqrt", "abs", "sum", "square"}
_INSAMPLE_LABEL = re.compile(r"(?i)in.?sample|train|resubstitut|apparent|goodness.of.fit|"
                             r"overfit|memori[sz]|fitted values|fit (?:to|on) (?:the )?"
                             r"(?:same|training|all)|self.?fit|\bfit\b")
_INSAMPLE_NAME = {"train", "training", "tr", "insample", "fit", "apparent", "resub"}
_NEW_DATA = re.compile(r"(?i)\bnew\b|unseen|expect|generali[sz]|future|production|deploy|"
                       r"out.of.sample|real.world|\bwill\b|\bshould\b")
_HELDOUT_USES = {"cross_val_score", "cross_validate", "cross_val_predict", "KFold",
                 "StratifiedKFold", "GroupKFold", "TimeSeriesSplit", "LeaveOneOut", "ShuffleSplit",
                 "RepeatedKFold", "train_test_split", "permutation_test_score", "learning_curve",
                 "validation_curve"}


def _flexible(ev: Evidence, name: str, cls: str) -> bool:
    """A model whose fit to its own rows is known to be optimistic: forests, boosting,
    neighbours, kernels, networks, and trees grown deeper than a few levels."""
    short = cls.rsplit(".", 1)[-1]
    if not any(k in short for k in _FLEXIBLE):
        return False
    if "DecisionTree" in short:
        depth = (ev.objects.get(name).params if name in ev.objects else {}).get("max_depth")
        return not (isinstance(depth, int) and depth <= 4)
    return True


def _fit_data(c: CallSite) -> tuple[ast.expr, ast.expr] | None:
    x = c.arg(0, "X")
    y = c.arg(1, "y")
    return (x, y) if x is not None and y is not None else None


def _has_heldout(ev: Evidence) -> bool:
    """The cell also evaluates on something the model did not see: a cross-validation or a
    split helper, an out-of-bag score, or a prediction/score on test/validation rows."""
    m = ev.model
    for c in m.calls:
        if c.last in _HELDOUT_USES or c.last.endswith("SearchCV"):
            return True
        if c.last in _PRED_CALLS | {"score"} and c.node.args:
            root = _operand_root(c.node.args[0])
            if root and role_of_name(root) in ("test", "val"):
                return True
    return any(isinstance(n, ast.Attribute) and n.attr in ("oob_score_", "oob_prediction_",
                                                           "oob_decision_function_")
               for n in _walk(m.tree))


_RESHAPES = {"ravel", "flatten", "squeeze", "reshape", "asarray", "array", "to_numpy"}


def _reshaped(node: ast.AST) -> ast.AST:
    """`p.ravel()`, `np.asarray(p)`, `p.reshape(-1)`: the same values, only reshaped."""
    while isinstance(node, ast.Call):
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr in _RESHAPES:
            if node.args and isinstance(f.value, ast.Name) and f.value.id in ("np", "numpy"):
                node = node.args[0]
            elif isinstance(f.value, ast.Name) and f.value.id in ("np", "numpy"):
                return node
            else:
                node = f.value
        else:
            return node
    return node


def _statements_reporting(m, node: ast.AST) -> tuple[list[ast.stmt], set[str]]:  # type: ignore[no-untyped-def]
    """The top-level statements that show `node` (directly or through the names it is bound
    to) and those bound names; empty when it never reaches the output."""
    reported = {id(n) for e in m.reported_exprs for n in _walk(e)}
    st = _stmt_of(m.tree, node)
    if st is None:
        return [], set()
    out: list[ast.stmt] = []
    bound: set[str] = set()
    if id(node) in reported:
        out.append(st)
    if isinstance(st, ast.Assign) and any(n is node for n in _walk(st.value)):
        bound = {n for t in st.targets for n in names_in(t)}
        if any(m.is_reported(b) for b in bound):
            out += [o for o in m.tree.body if o is not st and names_in(o) & bound]
    return out, bound


def _same_src(m, node: ast.AST) -> str:  # type: ignore[no-untyped-def]
    """The source of `node` with one quote style, so `df["y"]` and `df['y']` (an f-string
    forces the other quotes) compare as the same expression."""
    return m.src(node).replace("'", '"')


@rule("circular_validation.in_sample_fit_reported",
      title="A model's fit to its own training rows reported as its accuracy")
def in_sample_fit_reported(ev: Evidence) -> Iterator[Finding]:
    """`model.fit(X, y)` and then a metric of `model.predict(X)` against `y`, or
    `model.score(X, y)`, on the very rows the model was fitted to, reported with no held-out
    or cross-validated figure in the cell. High (0.7) for flexible models (forests, boosting,
    kNN, kernels, networks, deep trees), whose in-sample fit says little about new data;
    critical (0.85) when the text presents it as the error/accuracy to expect on new data;
    medium (0.45) for other models (a linear fit with few features is only mildly
    optimistic). Quiet when the figure is labelled as in-sample / training fit."""
    m = ev.model
    if m.tree is None or ev.tree is None or "fit" not in ev.code or _has_heldout(ev):
        return
    fits: dict[str, list[tuple[int, int, ast.expr, ast.expr]]] = {}
    for c in m.calls:
        if c.last != "fit" or c.loop_depth:
            continue
        name = c.receiver.id if isinstance(c.receiver, ast.Name) else None
        if name is None and isinstance(c.receiver, ast.Call):
            # `rf = RandomForestRegressor(...).fit(X, y)`: fit returns the estimator
            st = _stmt_of(m.tree, c.node)
            if isinstance(st, ast.Assign) and st.value is c.node and len(st.targets) == 1 \
                    and isinstance(st.targets[0], ast.Name):
                name = st.targets[0].id
        data = _fit_data(c) if name is not None else None
        if data is not None:
            fits.setdefault(name, []).append((c.node.lineno, c.node.col_offset, *data))
    if not fits:
        return

    def last_fit(model: str, node: ast.AST):  # type: ignore[no-untyped-def]
        before = [f for f in fits.get(model, []) if (f[0], f[1]) < (node.lineno, node.col_offset)]
        return before[-1] if before else None

    # predictions on the fitted rows: node -> (model, y source)
    preds: dict[int, tuple[str, str]] = {}
    pred_names: dict[str, tuple[str, str]] = {}
    evals: list[tuple[ast.AST, str]] = []  # (metric node, model)
    for c in m.calls:
        if not isinstance(c.receiver, ast.Name) or c.loop_depth or not c.node.args:
            continue
        f = last_fit(c.receiver.id, c.node)
        if f is None or _same_src(m, c.node.args[0]) != _same_src(m, f[2]):
            continue
        if c.last == "score" and len(c.node.args) >= 2 and _same_src(
                m, c.node.args[1]) == _same_src(m, f[3]):
            evals.append((c.node, c.receiver.id))
        elif c.last in _PRED_CALLS:
            preds[id(c.node)] = (c.receiver.id, _same_src(m, f[3]))
            st = _stmt_of(m.tree, c.node)
            if isinstance(st, ast.Assign) and _reshaped(st.value) is c.node:
                for t in st.targets:
                    if isinstance(t, ast.Name):
                        pred_names[t.id] = preds[id(c.node)]

    def pred_in(node: ast.AST) -> tuple[str, str] | None:
        for sub in _walk(node):
            if id(sub) in preds:
                return preds[id(sub)]
            if isinstance(sub, ast.Name) and sub.id in pred_names:
                return pred_names[sub.id]
        return None

    for c in m.calls:
        if c.last in METRIC_EXACT or c.last == "confusion_matrix":
            got = pred_in(c.node)
            if got and any(_same_src(m, a) == got[1] for a in c.node.args):
                evals.append((c.node, got[0]))
        elif c.last in _HAND_ERR_CALLS:
            # `np.mean((y - p) ** 2)`, `((y - p) ** 2).sum()`, `(p == y).mean()`,
            # `np.mean(p != y)`: an error / accuracy computed by hand
            data = c.node.args[0] if c.node.args else (
                c.receiver if c.receiver is not None and not (
                    isinstance(c.receiver, ast.Name) and m.dotted(c.receiver)) else None)
            for sub in _walk(data) if data is not None else ():
                if isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Sub):
                    sides = (sub.left, sub.right)
                elif isinstance(sub, ast.Compare) and len(sub.ops) == 1 and isinstance(
                        sub.ops[0], ast.Eq | ast.NotEq):
                    sides = (sub.left, sub.comparators[0])
                else:
                    continue
                got = pred_in(sub)
                if got and got[1] in (_same_src(m, _reshaped(x)) for x in sides):
                    evals.append((c.node, got[0]))
                    break
    hits: list[tuple[ast.AST, str, list[ast.stmt], str]] = []
    for node, model in evals:
        sts, bound = _statements_reporting(m, node)
        if not sts or any(h[0] is node for h in hits):
            continue
        text = " ".join(_label_text(s) for s in sts)
        if _INSAMPLE_LABEL.search(text) or any(
                set(_tokens(b)) & _INSAMPLE_NAME for b in bound):
            continue
        short = (m.type_of(model) or "").rsplit(".", 1)[-1]
        if any(k in short for k in _NOT_SUPERVISED):
            continue
        hits.append((node, model, sts, text))
    if hits:
        node, model, sts, _ = hits[0]
        text = " ".join(h[3] for h in hits)
        sts = [s for h in hits for s in h[2]]
        cls = m.type_of(model) or ""
        short = cls.rsplit(".", 1)[-1]
        flexible = bool(cls) and _flexible(ev, model, cls)
        claim = bool(_NEW_DATA.search(text))
        f = last_fit(model, node)
        data_src = m.src(f[2]) if f else "X"
        facts = ev.objects.get(_operand_root(f[2]) or "") if f else None
        rows = facts.shape[0] if facts is not None and facts.shape else None
        cols = facts.shape[1] if facts is not None and facts.shape and len(
            facts.shape) == 2 else None
        # many features per row: the in-sample fit absorbs noise (optimism grows with p/n)
        wide = bool(rows and cols and cols >= 10 and cols * 4 >= rows)
        what = m.src(node)
        text_out = (f"`{what}` (line {node.lineno}) scores `{model}`"
                    + (f" ({short})" if short else "")
                    + f" on `{data_src}`, the same "
                    + (f"{rows:,} " if rows else "")
                    + "rows it was fitted to, and the cell reports no held-out or "
                      "cross-validated figure. ")
        if flexible:
            text_out += (f"A {short} can fit its training rows almost exactly, so this in-sample "
                         "figure is far more optimistic than its error on new data")
        elif wide:
            text_out += (f"With {cols:,} features for {rows:,} rows the fit absorbs noise in "
                         "those rows, so this in-sample figure is markedly optimistic about "
                         "new data")
        else:
            text_out += "An in-sample fit is optimistic about new data"
        text_out += (" - yet it is presented as what to expect on new data." if claim else ".")
        if flexible and claim:
            sev, conf = "critical", 0.85
        elif flexible:
            sev, conf = "high", 0.7
        elif wide:
            sev, conf = "high", 0.65
        else:
            sev, conf = "medium", 0.45
        yield Finding(
            explanation=text_out, severity=sev, confidence=conf,
            evidence={"lines": sorted({node.lineno, *(s.lineno for s in sts)}),
                      "values": {"model": short or model, "scored_on": data_src,
                                 "rows": rows, "features": cols, "flexible": flexible}},
            suggestion=("Estimate the error on rows the model has not seen: "
                        "cross_val_predict / cross_validate with KFold(shuffle=True), or a "
                        "train_test_split and a score on the test part (or the forest's "
                        "oob_score_). Label any figure on the fitted rows as in-sample fit."))
        return


# -- the best of many candidates scored on the same data, reported as its accuracy -------------

_SCORE_TOKENS = {"auc", "roc", "acc", "accuracy", "sens", "sensitivity", "spec", "specificity",
                 "youden", "f1", "fscore", "r2", "rsq", "mse", "rmse", "mae", "mape", "err",
                 "error", "errors", "loss", "score", "precision", "recall", "ppv", "npv", "kappa",
                 "mcc", "tpr", "tnr", "brier", "logloss", "hit", "hits", "correct",
                 # a strategy's / portfolio's performance is a score too
                 "sharpe", "sortino", "calmar", "treynor", "cagr", "pnl"}
_HELDOUT_TOKENS = {"test", "tst", "holdout", "heldout", "hold", "val", "valid", "validation",
                   "dev", "oos", "unseen", "external", "replication", "fold", "folds", "cv"}
_VALUE_PICKS = {"max", "min", "amax", "amin", "nanmax", "nanmin"}
_INDEX_PICKS = {"idxmax", "idxmin", "argmax", "argmin", "nanargmax", "nanargmin"}
_ORDER_PICKS = {"sorted", "sort_values", "nlargest", "nsmallest"}


def _scoreish(m, node: ast.AST) -> bool:  # type: ignore[no-untyped-def]
    """An expression that computes a performance score: a sklearn-style metric call or a
    helper/variable whose name is a score (auc, accuracy, sens/spec, error, loss, ...)."""
    for sub in _walk(node):
        if isinstance(sub, ast.Call):
            name = called_name(sub)
            if name in METRIC_EXACT or set(_tokens(name)) & _SCORE_TOKENS:
                return True
        elif isinstance(sub, ast.Name) and set(_tokens(sub.id)) & _SCORE_TOKENS:
            return True
    return False


def _in_functions(tree: ast.AST) -> set[int]:
    return {id(n) for f in _walk(tree) if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef
                                                         | ast.Lambda)
            for n in _walk(f) if n is not f}


def _selected_elsewhere(m, loop: ast.AST, roots: set[str]) -> bool:  # type: ignore[no-untyped-def]
    """After the selection, the chosen candidate is passed to a further computation (scored
    on other rows, refitted, evaluated): an independent evaluation may follow."""
    end = getattr(loop, "end_lineno", loop.lineno)
    for c in m.calls:
        if c.node.lineno <= end or c.last in _RECORDERS or c.last in ("print", "display"):
            continue
        if any(names_in(a) & roots for a in [*c.node.args, *(k.value for k in c.node.keywords)]):
            return True
    return False


def _heldout_names(m) -> bool:  # type: ignore[no-untyped-def]
    names = set(m.stored_names) | set(m.loaded_names)
    return any(role_of_name(n) in ("test", "val") or set(_tokens(n)) & _HELDOUT_TOKENS
               for n in names)


def _iter_size(ev: Evidence, it: ast.AST) -> int | None:
    if isinstance(it, ast.Call) and called_name(it) in ("enumerate", "list", "tuple", "sorted",
                                                        "unique") and it.args:
        if called_name(it) == "unique":
            return None
        return _iter_size(ev, it.args[0])
    if isinstance(it, ast.Call) and called_name(it) == "range" and 2 <= len(it.args) <= 3:
        bounds = [_number(a) for a in it.args]
        if all(b is not None and float(b).is_integer() for b in bounds) and bounds[-1]:
            return len(range(*(int(b) for b in bounds)))  # type: ignore[arg-type]
        return None
    if isinstance(it, ast.Call) and called_name(it) == "range" and len(it.args) == 1:
        arg = it.args[0]
        n = _number(arg)
        if n is not None:
            return int(n)
        if isinstance(arg, ast.Subscript) and isinstance(arg.value, ast.Attribute) and \
                arg.value.attr == "shape" and isinstance(arg.value.value, ast.Name):
            f = ev.objects.get(arg.value.value.id)
            k = _number(arg.slice)
            if f is not None and f.shape and k is not None and int(k) < len(f.shape):
                return int(f.shape[int(k)])
        if isinstance(arg, ast.Call) and called_name(arg) == "len" and arg.args:
            return _iter_size(ev, arg.args[0])
        return None
    if isinstance(it, ast.List | ast.Tuple):
        return len(it.elts)
    if isinstance(it, ast.Name) and it.id in ev.objects:
        f = ev.objects[it.id]
        return f.length if f.length is not None else (f.shape[0] if f.shape else None)
    if isinstance(it, ast.Attribute) and it.attr == "columns" and isinstance(it.value, ast.Name):
        f = ev.objects.get(it.value.id)
        return f.shape[1] if f is not None and f.shape and len(f.shape) > 1 else None
    return None


def _tracking_loops(m):  # type: ignore[no-untyped-def]
    """(outermost loop, loops around the comparison, score expr, record root, carrier names,
    carrier keys) for each `if score > best: best = ...` inside a loop of the cell body."""
    inside_fn = _in_functions(m.tree)
    parents = _parents(m.tree)
    for node in _walk(m.tree):
        if not isinstance(node, ast.If) or id(node) in inside_fn or \
                not isinstance(node.test, ast.Compare) or len(node.test.ops) != 1 or \
                not isinstance(node.test.ops[0], ast.Gt | ast.GtE | ast.Lt | ast.LtE):
            continue
        assigned = {n for st in node.body if isinstance(st, ast.Assign)
                    for t in st.targets for n in names_in(t)}
        left, right = node.test.left, node.test.comparators[0]
        for score, best in ((left, right), (right, left)):
            root = root_name(best)
            if root and root in assigned and not (names_in(score) & {root}):
                break
        else:
            continue
        loops: list[ast.AST] = []
        cur: ast.AST | None = parents.get(id(node))
        while cur is not None:
            if isinstance(cur, ast.For):
                loops.append(cur)
            cur = parents.get(id(cur))
        if not loops:
            continue
        snames = names_in(score)
        carriers: set[str] = set()
        keys: set[str] = set()
        for st in node.body:
            if not isinstance(st, ast.Assign):
                continue
            val = st.value
            targets = {n for t in st.targets for n in names_in(t)}
            if isinstance(val, ast.Dict):
                for k, v in zip(val.keys, val.values, strict=False):
                    if isinstance(k, ast.Constant) and isinstance(k.value, str) and (
                            names_in(v) & snames or m.src(v) == m.src(score)):
                        keys.add(k.value)
            elif names_in(val) & snames or m.src(val) == m.src(score):
                carriers |= targets
        # the score's own definition inside the loops (`se, sp = sens_spec(...)`)
        defs: list[ast.AST] = [score]
        for st in _walk(loops[-1]):
            if isinstance(st, ast.Assign) and any(names_in(t) & snames for t in st.targets):
                defs.append(st.value)
        yield loops[-1], loops, node, score, root, carriers, keys, defs


@rule("circular_validation.best_of_many_in_sample",
      title="The best of many candidates, scored on the same data, reported as its accuracy")
def best_of_many_in_sample(ev: Evidence) -> Iterator[Finding]:
    """Many candidates (features, cut-offs, models, settings) are scored on the same rows
    and the best is kept - a max-tracking loop (`if score > best: best = ...`), or
    max/argmax/idxmax/`sorted(...)[0]` over a collection of scores - and the winner's score
    is reported, with no held-out rows, cross-validation or later evaluation of the chosen
    candidate in the cell. The maximum of many noisy scores is biased upwards (the winner's
    luck counts as skill). High (0.7)."""
    m = ev.model
    if m.tree is None or ev.tree is None or _has_heldout(ev) or _heldout_names(m):
        return
    if relevant(ev) and flow_of(ev).heldout_parts():
        return  # a hand-made hold-out with role-less names (selection_on_test reads it)
    reported = [n for e in m.reported_exprs for n in _walk(e)]
    for outer, loops, cmp, _score, root, carriers, keys, defs in _tracking_loops(m):
        if not any(_scoreish(m, d) for d in defs) and not (
                set(_tokens(root)) & _SCORE_TOKENS or any(
                    set(_tokens(k)) & _SCORE_TOKENS for k in keys)):
            continue
        loop_vars = {n for lp in loops for n in names_in(lp.target)}
        if not any(names_in(d) & loop_vars for d in defs) and not any(
                names_in(d) & {t for st in _walk(outer) if isinstance(st, ast.Assign)
                               for t in names_in(st.targets[0])} for d in defs):
            continue
        end = getattr(outer, "end_lineno", outer.lineno)
        shown = [n for n in reported if getattr(n, "lineno", 0) > end and (
            (isinstance(n, ast.Name) and n.id in carriers) or (
                isinstance(n, ast.Subscript) and root_name(n.value) == root
                and isinstance(n.slice, ast.Constant) and n.slice.value in keys))]
        if not shown or _selected_elsewhere(m, outer, {root, *carriers}):
            continue
        sizes = [_iter_size(ev, lp.iter) for lp in reversed(loops)]
        n_known = [s for s in sizes if s]
        count = (" x ".join(str(s) if s else f"len({m.src(lp.iter)})"
                            for s, lp in zip(sizes, reversed(loops), strict=True))
                 + " candidate combinations"
                 if len(loops) > 1 else f"{sizes[0]} candidates" if sizes[0] else
                 "every candidate of the loop")
        if len(n_known) == len(sizes) and len(sizes) > 1:
            total = 1
            for s in n_known:
                total *= s
            count = f"{count} ({total:,})"
        what = m.src(shown[0])
        yield Finding(
            explanation=(f"The loop at line {outer.lineno} scores {count} on the same rows and "
                         f"keeps the best with `if {m.src(cmp.test)}:` "
                         f"(line {cmp.lineno}); `{what}` (line {shown[0].lineno}) then reports "
                         "the winner's score. Chosen and scored on the same data, it is the "
                         "maximum of many noisy estimates, biased upwards: nothing independent "
                         "of the selection measures how the chosen candidate performs on new "
                         "data."),
            severity="high", confidence=0.7,
            evidence={"lines": sorted({outer.lineno, cmp.lineno, shown[0].lineno}),
                      "values": {"selection": "max-tracking loop", "loops": len(loops),
                                 "candidates": sizes}},
            suggestion=("Choose the candidate on a development part (or inside cross-validation)"
                        " and report its score on rows the selection never saw; or "
                        "cross-validate the whole selection procedure (nested CV / "
                        "bootstrap optimism correction)."))
        return
    yield from _picked_from_collection(ev, reported)


def _cv_scoreish(m, node: ast.AST) -> bool:  # type: ignore[no-untyped-def]
    """An expression computing a cross-validated score: cross_val_score(...).mean(),
    cross_validate(...)["test_score"].mean(), a metric of cross_val_predict(...)."""
    return any(isinstance(c, ast.Call) and called_name(c) in _CV_SCORE_CALLS
               for c in _walk(node))


_CV_SCORE_CALLS = {"cross_val_score", "cross_validate", "cross_val_predict"}


def _score_named(name: str) -> bool:
    """`mae`, `rmse_by_cut`, `errs`: a name that says it holds scores (plurals too)."""
    return any(t in _SCORE_TOKENS or (t.endswith("s") and t[:-1] in _SCORE_TOKENS)
               for t in _tokens(name))


def _numeric(value: ast.AST) -> bool:
    """A computed number (arithmetic or a call), not a message or a label: `errors[name] =
    str(exc)` in a try/except loop is not a score."""
    if isinstance(value, ast.Call) and called_name(value) in ("str", "repr", "type", "len"):
        return False
    return not isinstance(value, ast.JoinedStr | ast.Constant) and any(
        isinstance(x, ast.Call | ast.BinOp) for x in _walk(value))


def _setting_loop(target: ast.AST, body: list[ast.AST]) -> bool:
    """The loop variable is a candidate setting: passed to a call as such (`Ridge(alpha=a)`,
    `s.rolling(w)`, `mae_at(2018, cut)`), the model fitted (`est.fit`), or a cut-off in an
    ordered comparison (`df[df.score >= cut]`). A variable used only as a key (`truth[r]`,
    `df[df.region == r]`) names a subgroup, not a setting."""
    var = names_in(target)
    if not var:
        return False
    for b in body:
        for x in _walk(b):
            if isinstance(x, ast.Compare) and names_in(x) & var and any(
                    isinstance(op, ast.Lt | ast.LtE | ast.Gt | ast.GtE) for op in x.ops):
                return True
            if not isinstance(x, ast.Call) or called_name(x) in _RECORDERS:
                continue
            if isinstance(x.func, ast.Attribute) and called_name(x) in _MODEL_METHODS and \
                    root_name(x.func.value) in var:
                return True
            for a in [*x.args, *(k.value for k in x.keywords)]:
                if names_in(a) & var and not any(
                        isinstance(sub, ast.Subscript) and names_in(sub.slice) & var
                        for sub in _walk(a)):
                    return True
    return False


def _score_collections(m, scoreish=_scoreish, top_level: bool = False  # type: ignore[no-untyped-def]
                       ) -> set[str]:
    """Names holding many scores: a comprehension whose element is a score, a loop filling a
    dict/list with scores, and Series/arrays/sorts made from them (`top_level`: only those
    built outside any loop - one built per fold of an outer loop is nested selection).
    A collection named as a score (`mae`, `rmse`, `err`) filled with computed numbers counts
    when the loop's variable is a candidate setting (`mae[cut] = abs(est(cut) - truth)`)."""
    inside_fn = _in_functions(m.tree)
    if top_level:
        inside_fn |= {id(n) for f in _walk(m.tree) if isinstance(f, ast.For | ast.While)
                      for n in _walk(f) if n is not f}
    by_name = scoreish is _scoreish
    found: set[str] = set()
    for node in _walk(m.tree):
        if id(node) in inside_fn:
            continue
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                isinstance(node.targets[0], ast.Name):
            comps = [c for c in _walk(node.value)
                     if isinstance(c, ast.ListComp | ast.DictComp | ast.GeneratorExp)]
            for c in comps[:1]:
                elt = c.value if isinstance(c, ast.DictComp) else c.elt
                target = node.targets[0].id
                if scoreish(m, elt) or (
                        by_name and _score_named(target) and _numeric(elt) and len(
                            c.generators) == 1 and _setting_loop(c.generators[0].target, [elt])):
                    found.add(target)
        elif isinstance(node, ast.For):
            vals: dict[str, list[ast.AST]] = {}  # a score computed first, then stored
            for st in _walk(node):
                if isinstance(st, ast.Assign) and len(st.targets) == 1 and \
                        isinstance(st.targets[0], ast.Name):
                    vals.setdefault(st.targets[0].id, []).append(st.value)

            setting: list[bool] = []  # computed once per loop, only if a name asks

            def scored(v: ast.AST, coll: str, vals: dict[str, list[ast.AST]] = vals,
                       loop: ast.For = node, setting: list[bool] = setting) -> bool:
                if scoreish(m, v) or (scoreish is not _scoreish and any(
                        scoreish(m, d) for n in names_in(v) for d in vals.get(n, ()))):
                    return True
                if not (by_name and _score_named(coll) and _numeric(v)):
                    return False
                if not setting:
                    # a score averaged over an inner loop of windows/folds is a resampling
                    # estimate (best_cv_score_reported's ground), not one same-rows score
                    setting.append(_setting_loop(loop.target, loop.body) and not any(
                        isinstance(x, ast.For | ast.While) for b in loop.body for x in _walk(b)))
                return setting[0]
            for st in _walk(node):
                if isinstance(st, ast.Assign) and isinstance(st.targets[0], ast.Subscript) and \
                        isinstance(st.targets[0].value, ast.Name) and \
                        scored(st.value, st.targets[0].value.id):
                    found.add(st.targets[0].value.id)
                elif isinstance(st, ast.Call) and called_name(st) == "append" and \
                        isinstance(st.func, ast.Attribute) and \
                        isinstance(st.func.value, ast.Name) and st.args and \
                        scored(st.args[0], st.func.value.id):
                    found.add(st.func.value.id)
    derived = {t for a in m.assignments for t in a.targets if t not in found
               and any(m.depends_on(t, f) for f in found)
               and isinstance(_untransposed(a.value), ast.Call)
               and called_name(_untransposed(a.value)) in (
                   "Series", "array", "asarray", "DataFrame", "dict", "sorted", "sort_values",
                   "nlargest", "nsmallest", "list")}
    return found | derived


def _untransposed(node: ast.AST) -> ast.AST:
    """`pd.DataFrame(results).T` / `.transpose()`: the frame call under the transpose."""
    while True:
        if isinstance(node, ast.Attribute) and node.attr == "T":
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr == "transpose" and not node.args:
            node = node.func.value
        else:
            return node


def _picked_from_collection(ev: Evidence, reported: list[ast.AST]) -> Iterator[Finding]:
    m = ev.model
    coll = _score_collections(m)
    if not coll:
        return
    # `rmse = pd.Series(rmse).sort_values()`: its `.iloc[0]` is the winner's score
    ordered = {t for a in m.assignments for t in a.targets if t in coll and any(
        isinstance(x, ast.Call) and called_name(x) in _ORDER_PICKS for x in _walk(a.value))}
    hit = _best_reported(m, coll, reported, ordered)
    if hit is None:
        return
    what = m.src(hit)
    yield Finding(
        explanation=(f"`{what}` (line {hit.lineno}) reports the best of a collection of scores "
                     "computed on the same rows for many candidates: the rows that chose the "
                     "winner also score it, and nothing independent of the choice (other rows, "
                     "cross-validation, a later evaluation of the chosen candidate) follows. "
                     "The maximum of many noisy estimates is biased upwards: it is not what the "
                     "chosen candidate will score on new data."),
        severity="high", confidence=0.65,
        evidence={"lines": [hit.lineno], "values": {"selection": what}},
        suggestion=("Choose the candidate on a development part (or inside cross-validation) "
                    "and report its score on rows the selection never saw, or cross-validate "
                    "the whole selection procedure."))


def _score_column(node: ast.AST) -> bool:
    """`ranked` or `ranked["cv_r2"]`, not `ranked["name"]` (the winner's label)."""
    while isinstance(node, ast.Subscript):
        key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str) and not (
                set(_tokens(key.value)) & (_SCORE_TOKENS | {"cv", "mean"})):
            return False
        node = node.value
    return True


_EXTRA_SCORE_KEYS = {"ap", "auprc", "prauc", "auroc"}


def _method_chain(node: ast.AST) -> list[ast.Call]:
    """The calls of a method chain, outermost first (`t.sort_values(..).set_index(..)`)."""
    out: list[ast.Call] = []
    node = _untransposed(node)
    while isinstance(node, ast.Call):
        out.append(node)
        node = _untransposed(node.func.value) if isinstance(node.func, ast.Attribute) else None
    return out


def _sorted_by_score(call: ast.Call) -> bool:
    """A sort whose key, when named, is a score column (`sort_values("AUC")`)."""
    by = next((k.value for k in call.keywords if k.arg in ("by", "columns")), None)
    if by is None and call.args and called_name(call) != "sorted":
        by = call.args[0]
    strs = [k.value for k in _walk(by) if isinstance(k, ast.Constant)
            and isinstance(k.value, str)] if by is not None else []
    return not strs or any(set(_tokens(k)) & (_SCORE_TOKENS | _EXTRA_SCORE_KEYS | {"mean"})
                           for k in strs)


def _best_reported(m, coll: set[str], reported: list[ast.AST],  # type: ignore[no-untyped-def]
                   sorted_names: set[str] | None = None) -> ast.AST | None:
    """The reported expression that takes the best of a score collection: max(scores),
    scores[argmax], sorted(...)[0], and (`sorted_names`: collections assigned from a sort)
    `ranked.iloc[0]`."""
    imported = m._imported_names | {"np", "pd", "numpy", "pandas", "statistics"}
    index_names: set[str] = set()
    for c in m.calls:
        root = _collection_root(c, imported)
        recv = c.receiver
        if root is None and isinstance(recv, ast.Subscript) and \
                isinstance(recv.slice, ast.Constant) and _score_column(recv):
            root = _operand_root(recv.value)  # table["sharpe"].idxmax()
        if root not in coll:
            continue
        if c.last in _INDEX_PICKS or (c.last in ("max", "min") and c.has_kwarg("key")):
            index_names |= set(c.targets)
    # a table of scores sorted by a score: its first label is the winner (`best =
    # perf.index[0]`) and `perf.loc[best]` / `perf.iloc[0]` the winner's row of scores
    ranked = {t for a in m.assignments for t in a.targets if t in coll
              and any(called_name(c) in _ORDER_PICKS and _sorted_by_score(c)
                      for c in _method_chain(a.value))}
    rows: set[str] = set()
    if ranked:
        for a in m.assignments:
            v = a.value
            if not (isinstance(v, ast.Subscript) and len(a.targets) == 1):
                continue
            base = v.value
            if isinstance(base, ast.Attribute) and root_name(base.value) in ranked:
                if base.attr == "index" and _number(v.slice) == 0.0:
                    index_names.add(a.targets[0])
                elif (base.attr == "iloc" and _number(v.slice) == 0.0) or (
                        base.attr == "loc" and isinstance(v.slice, ast.Name)
                        and v.slice.id in index_names):
                    rows.add(a.targets[0])
    hit: ast.AST | None = None
    # `board.iloc[0]["model"]`: the winner's name is read from its row, not its score
    named = {id(x.value) for x in reported if isinstance(x, ast.Subscript)
             and isinstance(x.slice, ast.Constant) and isinstance(x.slice.value, str)
             and not _score_column(x)}
    for n in reported:
        if id(n) in named:
            continue
        if rows and isinstance(n, ast.Attribute | ast.Subscript) and \
                isinstance(n.value, ast.Name) and n.value.id in rows:
            key = n.attr if isinstance(n, ast.Attribute) else (
                n.slice.value if isinstance(n.slice, ast.Constant) else None)
            toks = set(_tokens(key)) if isinstance(key, str) else set()
            if toks & (_SCORE_TOKENS | _EXTRA_SCORE_KEYS) and \
                    not toks & _HELDOUT_TOKENS:
                hit = n
                break
        if isinstance(n, ast.Call) and called_name(n) in _VALUE_PICKS and not any(
                k.arg == "key" for k in n.keywords):
            cs = [c for c in m.calls if c.node is n]
            if cs and _collection_root(cs[0], imported) in coll:
                hit = n
        elif isinstance(n, ast.Subscript):
            base = n.value.value if isinstance(n.value, ast.Attribute) and \
                n.value.attr in ("loc", "iloc", "at", "iat") else n.value
            keys = [k.value for k in _walk(n.slice)
                    if isinstance(k, ast.Constant) and isinstance(k.value, str)]
            by_index = _operand_root(base) in coll and bool(names_in(n.slice) & index_names) \
                and not any(set(_tokens(k)) & _HELDOUT_TOKENS for k in keys)
            # table.loc[best, "oos_sharpe"]: the winner's score on other rows is reported;
            # `ranked.index[0]` is the winner's name, not its score
            top = _number(n.slice) in (0.0, -1.0) and not (
                isinstance(n.value, ast.Attribute) and n.value.attr in ("index", "keys")) and ((
                isinstance(base, ast.Call) and called_name(base) in _ORDER_PICKS
                and any(names_in(a) & coll for a in [base.func, *base.args])) or (
                sorted_names is not None and root_name(base) in sorted_names
                and _score_column(base)))
            if by_index or top:
                hit = n
        if hit is not None:
            break
    return hit


_FOLD_ITERS = {"split", "KFold", "StratifiedKFold", "GroupKFold", "TimeSeriesSplit",
               "RepeatedKFold", "ShuffleSplit", "LeaveOneOut", "StratifiedGroupKFold"}


def _outer_evaluation(ev: Evidence) -> bool:
    """Something independent of the CV-based choice measures the winner: a score on test rows
    (the flow's test scores, predict/score on a test/holdout-named frame) or a
    cross-validation of a search object (nested CV)."""
    m = ev.model
    if relevant(ev) and any(s.in_cell and s.on == "test" for s in flow_of(ev).scores):
        return True
    for c in m.calls:
        if c.last in _PRED_CALLS | {"score", "evaluate"} and c.node.args:
            root = _operand_root(c.node.args[0])
            if root and role_of_name(root) == "test":
                return True
        if c.last in _CV_SCORE_CALLS and c.node.args:
            est = c.node.args[0]
            if any(isinstance(x, ast.Call) and called_name(x).endswith("SearchCV")
                   for x in _walk(est)):
                return True
            root = root_name(est)
            f = ev.objects.get(root) if root else None
            if f is not None and "SearchCV" in f.type:
                return True
    return False


def _n_candidates(ev: Evidence, name: str) -> int | None:
    f = ev.objects.get(name)
    if f is None:
        return None
    n = f.length if f.length is not None else (f.shape[0] if f.shape else None)
    if f.kind == "dataframe" and f.shape:
        n = f.shape[0]
    return n


@rule("circular_validation.best_cv_score_reported",
      title="The best of many cross-validated scores reported as the performance")
def best_cv_score_reported(ev: Evidence) -> Iterator[Finding]:
    """Many candidates (feature sets, regions, models, settings) are each cross-validated, the
    one with the best CV score is picked (max/idxmax/sort then [0], `if cv > best`) and that
    same CV score is reported as the winner's performance, with no outer/nested CV and no
    evaluation on untouched test rows. The CV score chose the winner, so the maximum of many
    noisy CV estimates is biased upwards. High (0.7) with 5 or more candidates, medium with
    fewer (or an unknown number). Quiet when the selection runs inside an outer fold loop or
    a function, or a test-set / nested evaluation follows."""
    m = ev.model
    if m.tree is None or ev.tree is None or not any(
            c.last in _CV_SCORE_CALLS for c in m.calls) or _outer_evaluation(ev):
        return
    reported = [n for e in m.reported_exprs for n in _walk(e)]
    # max-tracking loops over cross-validated scores
    for outer, loops, cmp, _score, root, carriers, keys, defs in _tracking_loops(m):
        if not any(_cv_scoreish(m, d) for d in defs) or any(
                any(isinstance(x, ast.Call) and called_name(x) in _FOLD_ITERS
                    for x in _walk(lp.iter)) for lp in loops):
            continue
        if any(isinstance(p, ast.For | ast.While) and p is not outer and outer in _walk(p)
               for p in _walk(m.tree)):
            continue  # chosen afresh in every pass of an outer loop
        end = getattr(outer, "end_lineno", outer.lineno)
        shown = [n for n in reported if getattr(n, "lineno", 0) > end and (
            (isinstance(n, ast.Name) and n.id in carriers) or (
                isinstance(n, ast.Subscript) and root_name(n.value) == root
                and isinstance(n.slice, ast.Constant) and n.slice.value in keys))]
        if not shown:
            continue
        shown.sort(key=lambda n: not (isinstance(n, ast.Name) and n.id == root))
        sizes = [_iter_size(ev, lp.iter) for lp in loops]
        total: int | None = 1
        for sz in sizes:
            total = total * sz if (total and sz) else None
        yield _best_cv_finding(m, shown[0], total, f"`if {m.src(cmp.test)}:` in the loop at "
                                                   f"line {outer.lineno}")
        return
    coll = _score_collections(m, _cv_scoreish, top_level=True)
    if not coll:
        return
    ordered = {a_t for a in m.assignments for a_t in a.targets if a_t in coll and any(
        isinstance(x, ast.Call) and called_name(x) in _ORDER_PICKS for x in _walk(a.value))}
    hit = _best_reported(m, coll, reported, ordered)
    if hit is None:
        return
    imported = m._imported_names | {"np", "pd", "numpy", "pandas", "statistics"}
    kinds = {("max" if "max" in c.last else "min") for c in m.calls
             if c.last in _VALUE_PICKS and _collection_root(c, imported) in coll
             and any(c.node is n for n in reported)}
    if kinds == {"max", "min"}:
        return  # the range of all candidates, none chosen
    roots = sorted(coll & names_in(hit)) or sorted(coll)
    sizes = [_n_candidates(ev, r) for r in roots]
    total = max((sz for sz in sizes if sz), default=None)
    yield _best_cv_finding(m, hit, total, f"`{m.src(hit)}`")


def _best_cv_finding(m, hit: ast.AST, n: int | None, how: str  # type: ignore[no-untyped-def]
                     ) -> Finding:
    many = n is not None and n >= 5
    count = f"{n} candidates" if n else "several candidates"
    return Finding(
        explanation=(f"{count[0].upper()}{count[1:]} are each cross-validated and the best is "
                     f"kept ({how}); `{m.src(hit)}` (line {hit.lineno}) reports the winner's own "
                     "CV score as its performance, with no outer/nested cross-validation or "
                     "untouched test set in the cell. The CV score was used to choose, so it is "
                     "the maximum of many noisy estimates and biased upwards"
                     + (f" - with {n} candidates the winner's luck is a large part of it."
                        if many else ".")),
        severity="high" if many else "medium", confidence=0.7 if many else 0.5,
        evidence={"lines": [hit.lineno], "values": {"candidates": n, "selection": m.src(hit)}},
        suggestion=("Put the selection inside the cross-validation: repeat the choice within "
                    "each outer training fold (nested CV - e.g. cross_val_score of a "
                    "GridSearchCV, or a loop over outer.split choosing on inner folds) and "
                    "report the outer score, or evaluate the chosen candidate once on a test "
                    "set it never saw."))


RULES = [selection_on_test, search_fit_on_test, early_stopping_on_test,
         selection_on_validation_reported, search_best_score_reported, fitted_on_test_set,
         coefficients_fit_on_test, selection_then_test_same_data,
         cutoff_scored_on_its_calibration_data, validation_fold_is_test,
         in_sample_fit_reported, best_of_many_in_sample, best_cv_score_reported]


# --- from the analysis trace: the rows a model was scored on ---------------------------------
@rule("circular_validation.scored_on_training_rows",
      title="A flexible model's performance was measured on the rows it was fit on")
def scored_on_training_rows(ev: Evidence) -> Iterator[Finding]:
    """Reads the trace: a score or metric computed on rows the model was fit on, with no
    held-out evaluation of that model anywhere, is its in-sample fit reported as skill."""
    from ..thresholds import section

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


RULES.append(scored_on_training_rows)


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


RULES.append(chosen_on_heldout_rows)
