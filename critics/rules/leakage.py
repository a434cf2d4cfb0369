"""Leakage: preprocessing, feature selection, target encoding or resampling fitted on data that
includes the test rows, and models trained on the rows they are then scored on.

The rules read one ordered data-flow pass over the notebook's earlier cells and this cell
(`_split_flow.flow_of(ev)`, also used by `target_leakage` and `circular_validation`), which tags
every value with the preprocessing fits it went through and the side of each split it is on. A
fit is a leak when its output or its fitted object meets a split it did not respect: the fit's
data held rows of both sides, or it predates the split and its result is what gets split or
cross-validated.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from typing import Any

from ..evidence import Evidence, ObjectFacts
from ..findings import Finding, Severity
from ..rule import rule
from ._split_flow import (
    CV_FUNCS,
    METRIC_EXACT,
    Flow,
    Leak,
    _const_strs,
    _last,
    _operand_root,
    flow_of,
    relevant,
)

_RULE_OF_TIER = {
    "supervised": "feature_selection", "corr": "feature_selection", "model": "feature_selection",
    "target": "target_encoding", "resample": "resampling",
}


def _facts_for(ev: Evidence, flow: Flow, leak: Leak) -> tuple[dict, int]:
    """Kernel values that confirm (+1) or contradict (-1) that the fit saw every row: the
    fitted object's n_samples_seen_ (or the fitted data's rows) against the training part's
    rows (or, for cross-validation, against all the rows being cross-validated)."""
    values: dict = {}
    fit = leak.fit
    seen_rows = None
    if fit.var and fit.var in ev.objects:
        seen = ev.objects[fit.var].fitted_on.get("n_samples_seen_")
        if seen is not None:
            values["n_samples_seen_"] = seen
            seen_rows = seen
    if seen_rows is None:
        data = _parse_expr(fit.data_src) if fit.data_src else None
        name = _whole_rows_name(data)
        if name and name in ev.objects and ev.objects[name].rows is not None:
            seen_rows = ev.objects[name].rows
            values[f"{name} rows (fitted on)"] = seen_rows
    train_rows = None
    split_rows = None
    if leak.split is not None:
        for name, role in leak.split.outputs:
            facts = ev.objects.get(name)
            if facts is None or facts.rows is None or f"{name} rows" in values:
                continue
            values[f"{name} rows"] = facts.rows
            if role == "train" and train_rows is None:
                train_rows = facts.rows
        src = _whole_rows_name(_parse_expr(leak.split.input_src))
        if src and src in ev.objects and ev.objects[src].rows is not None:
            split_rows = ev.objects[src].rows
            values.setdefault(f"{src} rows", split_rows)
    if seen_rows is None:
        return values, 0
    if train_rows is not None:
        return values, 1 if seen_rows > train_rows else -1 if seen_rows == train_rows else 0
    if leak.split is not None and leak.split.kind == "cv" and split_rows is not None:
        return values, 1 if seen_rows >= split_rows else 0
    return values, 0


def _whole_rows_name(node: ast.AST | None) -> str | None:
    """`X` for X, X.values, X[cols], X[["a", "b"]] (all rows); None for row subsets."""
    if isinstance(node, ast.Name):
        return node.id
    if (isinstance(node, ast.Attribute) and node.attr in ("values", "T")) or (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("to_numpy", "copy", "astype")):
        inner = node.value if isinstance(node, ast.Attribute) else node.func.value  # type: ignore
        return _whole_rows_name(inner)
    if isinstance(node, ast.Subscript) and (
            _const_strs(node.slice) is not None or isinstance(node.slice, ast.Name)):
        return _whole_rows_name(node.value)
    return None


def _parse_expr(src: str) -> ast.AST | None:
    try:
        return ast.parse(src, mode="eval").body
    except SyntaxError:
        return None


def _severity(leak: Leak, verdict: int) -> tuple[str, float]:
    tier = leak.fit.tier
    if leak.inner:
        if tier in ("supervised", "corr", "target", "model"):
            return "medium", 0.5
        if tier == "resample":
            return "medium", 0.5
        return "low", 0.3
    if tier == "stateless":
        return "low", 0.3
    if leak.fit.weak:
        return "medium", 0.45
    if tier == "encoder":
        return "medium", 0.45
    if tier == "unknown":
        return "medium", 0.45
    if tier == "unsup":
        base = ("high", 0.65)
    elif tier == "model":
        base = ("high", 0.7)
    elif tier in ("supervised", "target", "corr"):
        base = ("critical", 0.92)
    elif tier == "resample":
        base = ("critical", 0.88)
    else:
        base = ("critical", 0.88)
    sev, conf = base
    if leak.by_name:
        return ("high", 0.6) if sev == "critical" else (sev, min(conf, 0.5))
    if not leak.fit.in_cell:
        conf -= 0.03
    if verdict > 0:
        conf = min(0.97, conf + 0.06)
    elif verdict < 0:
        return "high", 0.6
    return sev, round(conf, 2)


def _explain(leak: Leak, flow: Flow, cls: str | None = None) -> tuple[str, str]:
    fit = leak.fit
    cls = cls or fit.cls
    where = f"line {fit.line}" if fit.in_cell else "an earlier cell"
    if fit.via:
        where += f" (inside `{fit.via}()`)"
    data = f"`{fit.data_src}`" if fit.data_src else "the data"
    split = leak.split
    if split is None:
        target = "data that is later used as a train/test split (by its names)"
    elif leak.how in ("split_input", "cv_input") and split.kind == "cv":
        target = f"the data cross-validated by `{split.call}` (line {leak.line})"
    elif leak.how == "split_input":
        at = split.line if split.in_cell else leak.line
        target = f"the data split by `{split.call}` (line {at})"
        if split.call == "manual split":
            target = f"the rows split by hand into train/test parts (line {at})"
    else:
        target = (f"the {'folds' if split.kind == 'cv' else 'train/test parts'} of "
                  f"`{split.call}` (applied at line {leak.line})")
    tier = fit.tier
    if tier in ("supervised", "corr"):
        what = (f"Features are selected by {cls} fitted on {data} ({where}) — all rows "
                f"and their labels — and then used in {target}.")
        why = ("The test rows' labels chose the features, so the reported score is optimistic "
               "(on pure noise this alone gives high accuracy).")
        fix = ("Do the selection inside the evaluation: put it in a Pipeline "
               "(`make_pipeline(SelectKBest(...), model)`) passed to cross_val_score/"
               "GridSearchCV, or fit the selector on X_train only.")
    elif tier == "model":
        what = (f"A model fitted on {data} ({where}), all rows, feeds its output "
                f"(predictions, importances) into {target}.")
        why = "The test rows' labels shaped those features, so the score is optimistic."
        fix = "Fit that model on the training rows only (or inside a Pipeline / per fold)."
    elif tier == "target":
        what = (f"{cls.capitalize()} is computed on {data} ({where}) — every row's own "
                f"label included — and used in {target}.")
        why = "Each test row's feature contains its own target, so the score is inflated."
        fix = ("Compute the encoding on the training rows only and map it onto the test rows "
               "(or use sklearn's TargetEncoder inside a Pipeline, which cross-fits).")
    elif tier == "resample":
        what = (f"Rows are oversampled with {cls} on {data} ({where}) before {target}.")
        why = ("Copies (or interpolations) of the same rows land on both sides of the split, "
               "so the test score measures memorisation.")
        fix = ("Split first and resample the training part only (imblearn's Pipeline "
               "resamples inside each CV fold).")
    elif tier == "stateless":
        what = (f"{cls} is fitted on {data} ({where}) before {target}. It is stateless, "
                "so nothing leaks yet, but it sits outside the model's pipeline.")
        why = "Harmless now; a stateful step added next to it would leak."
        fix = "Keep preprocessing in a Pipeline with the model."
    else:
        what = (f"`{cls}` is fitted on {data} ({where}) — all rows, test rows included — "
                f"and its output is used in {target}.")
        if cls.startswith("`."):
            what = (f"The data is normalised with statistics ({cls}) of {data} ({where}) "
                    f"— all rows, test rows included — before {target}.")
        why = ("The test rows' statistics (means, scales, components, imputed values) shape "
               "the training data, so the held-out score is optimistic.")
        if fit.weak:
            what = (f"A statistic of all rows ({cls} of {data}, {where}) is used as an offset "
                    f"before {target}.")
            why = ("A shift by a full-data minimum/maximum rarely changes a model's score, "
                   "but it is still information from the test rows.")
        fix = ("Split first and fit on the training part only (`fit` on X_train, then "
               "`transform` X_train and X_test), or put the step in a Pipeline "
               "(`make_pipeline(StandardScaler(), model)`) and cross-validate that.")
    if leak.inner:
        why = ("The fit used the whole training set, then that set is split again (CV folds "
               "or a validation split), so the inner validation scores are optimistic; a "
               "separate test evaluation is unaffected.")
    return f"{what} {why}", fix


def _leak_findings(ev: Evidence, family: str) -> Iterator[Finding]:
    """One finding per split (or cross-validation) that leaked, listing every step fitted on
    rows it should not have seen."""
    if not relevant(ev):
        return
    flow = flow_of(ev)
    groups: dict[tuple, list[Leak]] = {}
    for leak in flow.leaks:
        if not leak.in_cell:
            continue
        if _RULE_OF_TIER.get(leak.fit.tier, "preprocessing") != family:
            continue
        key = (leak.split.id if leak.split else ("name", leak.line), leak.inner)
        groups.setdefault(key, []).append(leak)
    for group in groups.values():
        rated = []
        for leak in group:
            values, verdict = _facts_for(ev, flow, leak)
            sev, conf = _severity(leak, verdict)
            rated.append((Severity(sev).rank, conf, leak, values, sev))
        rated.sort(key=lambda r: (-r[0], -r[1], r[2].fit.line, r[2].fit.cls))  # stable text
        _, conf, leak, values, sev = rated[0]
        main = leak.fit
        stats = [r[2].fit.cls for r in rated if r[2].fit.line == main.line
                 and r[2].fit.cls.startswith("`.")]
        cls = main.cls
        if main.cls.startswith("`.") and len(stats) > 1:
            cls = "/".join(dict.fromkeys(n.split(" of ")[0] for n in stats)) + " of the data"
        others = [r[2].fit for r in rated[1:] if r[2].fit.line != main.line
                  and Severity(r[4]) >= Severity.MEDIUM]
        lines = {x for x in (main.line if main.in_cell else None,
                             leak.split.line if leak.split and leak.split.in_cell else None,
                             leak.line) if x}
        lines |= {o.line for o in others if o.in_cell}
        values.update({"fitted": cls, "fitted_on": main.data_src})
        if others:
            values["also_fitted"] = [o.cls for o in others]
        if leak.split is not None:
            values["split"] = leak.split.call
        text, fix = _explain(leak, flow, cls)
        if others:
            also = ", ".join(dict.fromkeys(
                f"{o.cls} (line {o.line})" if o.in_cell else o.cls for o in others))
            text += f" The same holds for {also}."
        yield Finding(explanation=text, severity=sev, confidence=conf,
                      evidence={"lines": sorted(lines), "values": values}, suggestion=fix)


@rule("leakage.preprocessing_before_split",
      title="Preprocessing fitted on all rows before the train/test split")
def preprocessing_before_split(ev: Evidence) -> Iterator[Finding]:
    """A scaler, imputer, PCA, discretiser or a pandas/numpy normalisation (mean/std/min/max of
    the whole frame) is fitted on data that includes the test rows (or CV folds), and its output
    is then split or cross-validated. Critical when the data flow is clear; the kernel's
    `n_samples_seen_` (all rows vs the training rows) raises confidence. Encoders (category
    sets only) are medium, stateless transformers low."""
    yield from _leak_findings(ev, "preprocessing")


@rule("leakage.feature_selection_before_split",
      title="Features selected with all rows' labels before the split / cross-validation")
def feature_selection_before_split(ev: Evidence) -> Iterator[Finding]:
    """SelectKBest/RFE/SelectFromModel/univariate scores or correlation with the target computed
    on every row, then the selected features are split or cross-validated."""
    yield from _leak_findings(ev, "feature_selection")


@rule("leakage.target_encoding_before_split",
      title="Target encoding computed on all rows before the split")
def target_encoding_before_split(ev: Evidence) -> Iterator[Finding]:
    """Per-category means of the target (groupby(...)[target].transform('mean'), TargetEncoder,
    category_encoders) computed on the full frame, then used as a feature of a split/CV."""
    yield from _leak_findings(ev, "target_encoding")


@rule("leakage.resampling_before_split",
      title="Oversampling before the split puts copies of rows on both sides")
def resampling_before_split(ev: Evidence) -> Iterator[Finding]:
    """SMOTE/RandomOverSampler/`resample(replace=True)` on all rows, then split or CV."""
    yield from _leak_findings(ev, "resampling")


@rule("leakage.test_rows_in_training",
      title="Model trained on the rows it is evaluated on")
def test_rows_in_training(ev: Evidence) -> Iterator[Finding]:
    """A model fitted on data that contains the test split (the full X, or X_test itself) and
    then scored/predicted on that test split: the evaluation is on training data."""
    if not relevant(ev):
        return
    flow = flow_of(ev)
    seen: set[str] = set()
    for t in flow.test_rows:
        if not t.in_cell or t.model in seen:
            continue
        seen.add(t.model)
        where = f"line {t.fit_line}" if t.fit_in_cell else "an earlier cell"
        if t.how == "contains_test":
            what = f"`{t.model}` is fitted on `{t.fit_src}` ({where}), which contains the test rows"
        else:
            what = (f"`{t.model}` is fitted on `{t.fit_src}` ({where}), the data before "
                    f"`{t.split.call}` — test rows included")
        lines = sorted({x for x in (t.fit_line if t.fit_in_cell else None, t.line) if x})
        yield Finding(
            explanation=f"{what}, then evaluated with `{t.call}` on the test split "
                        f"(line {t.line}): the score measures fit to seen rows, not "
                        "generalisation.",
            severity="critical", confidence=0.88 if t.fit_in_cell else 0.85,
            evidence={"lines": lines, "values": {"fitted_on": t.fit_src,
                                                 "split": t.split.call}},
            suggestion="Fit on X_train / y_train only and evaluate once on X_test; refit on "
                       "all rows only for the final deployed model, without scoring it on "
                       "the test rows.")


# -- the same entity's rows on both sides of a row-level random split ---------------------------

_ROW_SPLITTERS = {"KFold", "StratifiedKFold", "ShuffleSplit", "StratifiedShuffleSplit",
                  "RepeatedKFold", "RepeatedStratifiedKFold"}
_ENTITY_ID = re.compile(
    r"(?i)^(?:\w+_)?(?:id|uuid|guid)$|^\w+id$|^(?:subject|patient|participant|user|customer|"
    r"client|member|listing|driver|player|household|person)"
    r"(?:_?(?:id|no|num|number|code|key))?$")
_MIN_ENTITIES = 20  # fewer distinct values is a category (device type), not an identifier


def _random_splits(ev: Evidence) -> list[tuple[int, str, ast.AST]]:
    """(line, what, data) of row-level random splits: train_test_split (shuffled), a
    cross-validation helper with a plain or row splitter and no groups, `KFold(...).split(X)`."""
    m = ev.model
    out: list[tuple[int, str, ast.AST]] = []

    def splitter_class(node: ast.AST | None) -> str | None:
        if isinstance(node, ast.Name):
            for a in reversed(m.assigned_at(node.id)):
                if isinstance(a.value, ast.Call):
                    node = a.value
                    break
        if isinstance(node, ast.Call):
            return _last(m.dotted(node.func) or (
                node.func.id if isinstance(node.func, ast.Name) else None))
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return "KFold"
        return None

    for c in m.calls:
        if c.last == "train_test_split" and c.node.args:
            if c.kwarg_value("shuffle", True) is False:
                continue
            out.append((c.line, "train_test_split", c.node.args[0]))
        elif c.last in CV_FUNCS:
            if c.has_kwarg("groups"):
                continue
            data = c.arg(1, "X")
            cv = c.kwarg("cv")
            cls = splitter_class(cv) if cv is not None else "KFold"
            if data is None or cls not in _ROW_SPLITTERS:
                continue
            out.append((c.line, f"{c.last}(cv={cls})", data))
        elif c.method == "split" and c.node.args and not c.has_kwarg("groups") and \
                len(c.node.args) < 3:
            cls = splitter_class(c.receiver)
            if cls in _ROW_SPLITTERS:
                out.append((c.line, f"{cls}.split", c.node.args[0]))
    return out


def _entity_frame(ev: Evidence, data: ast.AST) -> tuple[str, ObjectFacts, str, int] | None:
    """(frame, facts, id column, distinct ids) of the frame the split rows come from, when an
    identifier column repeats (several rows per listing, patient, customer)."""
    m = ev.model
    # runs[feats] / runs[["a", "b"]]: the columns of a frame keep its rows (and entities)
    root = _operand_root(data) or _whole_rows_name(data)
    if root is None:
        return None
    own = ev.objects.get(root)
    rows = own.rows if own is not None else None
    for name in [root, *sorted(m.dependencies(root))]:
        f = ev.objects.get(name)
        if f is None or f.kind != "dataframe" or not f.rows:
            continue
        if rows is not None and f.rows != rows:
            continue
        for col, dtype in f.dtypes.items():
            if dtype.startswith("float") or not _ENTITY_ID.match(col):
                continue
            k = f.unique.get(col, 0)
            if k >= _MIN_ENTITIES and f.rows / k >= 1.3:
                return name, f, col, k
    return None


_ID_SUFFIX = re.compile(r"(?i)[_\s-]*(?:id|uuid|guid|no|num|number|code|key)$")


_SCORE_WORDS = re.compile(
    r"(?i)\b(?:r2|r\^2|r²|accuracy|acc|auc|roc|mae|rmse|mse|mape|error|errors|score|scores|"
    r"performance|generali[sz]e[sd]?|generali[sz]ation|f1|precision|recall|log[- ]?loss)\b")


def _new_entity_claim(ev: Evidence, col: str) -> str | None:
    """Wording in the cell (comments, strings) or its output that reads the score as
    performance on new entities: "R2 on unseen patients", "error for new customers", a line
    that names both new entities and a score."""
    stem = _ID_SUFFIX.sub("", col).strip("_ ").lower()
    if len(stem) < 3:
        return None
    texts = [ev.code]
    for out in ev.outputs:
        t = out.get("text")
        if t is None:
            t = (out.get("data") or {}).get("text/plain", "")
        texts.append("".join(t) if isinstance(t, list) else str(t))
    pat = re.compile(
        r"(?i)\b(?:new|unseen|unknown|never[- ]seen|previously[- ]unseen|held[- ]out|"
        r"out[- ]of[- ]sample|future|novel|fresh)\s+" + re.escape(stem) + r"(?:e?s)?\b")
    for t in texts:
        for line in t.splitlines():
            # about the score, not how new entities are handled ("unseen shops get the mean")
            if (mt := pat.search(line)) and _SCORE_WORDS.search(line):
                return mt.group(0)
    return None


@rule("leakage.repeated_entities_across_split",
      title="Rows of the same entity on both sides of a random split")
def repeated_entities_across_split(ev: Evidence) -> Iterator[Finding]:
    """A row-level random split (train_test_split, KFold / cross_val_score without groups)
    of data in which an identifier repeats - reposted listings, several visits per patient,
    many transactions per customer - puts rows of the same entity in training and test, so
    the test score rewards recognising entities the model has already seen. Judged from the
    kernel: the id column's distinct values against the rows. High (0.8) when the rows of
    an entity look like copies (no other column takes more distinct values than the id, and
    a fine-grained column takes about one value per entity) or the cell reads the score as
    performance on new entities ("unseen patients"); medium (0.55) otherwise: predicting
    for entities already seen is a legitimate question (demand at known stations)."""
    if ev.tree is None or not any(w in ev.code for w in ("split", "cross_val", "Fold")):
        return
    m = ev.model
    splits = _random_splits(ev)
    if not splits:
        return
    scored = any(c.last in METRIC_EXACT or c.last in CV_FUNCS or c.method == "score"
                 for c in m.calls)
    if not scored:
        return
    for line, what, data in splits:
        found = _entity_frame(ev, data)
        if found is None:
            continue
        frame, f, col, k = found
        rows = f.rows or 0
        others = {c: n for c, n in f.unique.items() if c != col}
        # near-copies: no column varies within an entity (none takes more distinct values
        # than the id) and a fine-grained column takes about one value per entity (an
        # entity-level attribute, not a coarse one like hour or weekday that cannot tell)
        fine = [c for c, n in others.items() if 0.95 * k <= n <= k]
        copies = bool(others) and max(others.values()) <= k and bool(fine)
        claim = _new_entity_claim(ev, col)
        severity, confidence = ("high", 0.8) if copies or claim else ("medium", 0.55)
        text = (f"`{what}` (line {line}) splits the rows of `{frame}` at random, but "
                f"`{col}` has only {k} distinct values in {rows} rows ({rows / k:.1f} rows "
                "per entity): rows of the same entity land in both training and test, so the "
                "test score partly measures recognising entities already seen in training.")
        if copies:
            text += (f" No other column takes more distinct values than `{col}` and "
                     f"`{fine[0]}` takes {others[fine[0]]} (about one per entity): the "
                     "repeated rows look like copies, and the model is scored on rows it "
                     "memorised.")
        if claim:
            text += (f" The cell describes the score as performance on {claim!r}, which a "
                     "split that shares entities between training and test does not measure.")
        if not copies and not claim:
            text += (" Fine if the model will only predict for entities it has seen (the "
                     "entity is a legitimate feature); not if the score is read as performance "
                     "on new entities.")
        yield Finding(
            explanation=text, severity=severity, confidence=confidence,
            evidence={"lines": [line], "values": {"id_column": col, "distinct_ids": k,
                                                  "rows": rows}},
            suggestion=(f"Split by entity: `GroupShuffleSplit(test_size=0.25).split(X, y, "
                        f"groups={frame}['{col}'])` or `GroupKFold` with `groups=` in "
                        f"cross-validation (or drop exact duplicates first: "
                        f"`{frame}.drop_duplicates(subset='{col}')`)."))
        return




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
        for step in _supervised_steps_before(t, evaluation, stateless):
            share = t.share(rows, step.get("X"))
            key = (step.get("est_id"), evaluation.get("line"))
            if share is not None and share >= bar and key not in reported:
                reported.add(key)
                yield _heldout_finding(evaluation, step, step, share, _test_kept_apart(t, step))


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
        target, features, n = _fit_columns(ev, fit)
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
        if not col:
            continue
        found = set(e.get("from", []))
        for f in list(found):
            found |= sources.get(f, set())
        sources[col], rows[col] = found, int(e.get("n") or 0)
    return sources, rows


def _fit_columns(ev: Evidence, fit: dict[str, Any]) -> tuple[str | None, list[str], int]:
    """(target, feature columns, rows fitted) of one traced fit."""
    if fit["op"] == "model_fit":
        exog = [re.sub(r"^C\((\w+).*", r"\1", x) for x in fit.get("exog", [])]
        endog = re.findall(r"[A-Za-z_]\w*", str(fit.get("endog") or ""))
        return (endog[-1] if endog else None), exog, int(fit.get("n") or 0)
    x = ev.trace.data.get(fit.get("X") or "", {})
    y = ev.trace.data.get(fit.get("y") or "", {})
    return y.get("name"), list(x.get("cols", [])), int(x.get("n") or 0)


RULES = [preprocessing_before_split, feature_selection_before_split,
         target_encoding_before_split, resampling_before_split, test_rows_in_training,
         repeated_entities_across_split, fit_saw_heldout_rows,
         target_aggregate_as_feature, copies_across_split]
