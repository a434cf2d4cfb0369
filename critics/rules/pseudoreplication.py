"""Pseudoreplication and paired data tested as independent (Makin & Orban de Xivry,
mistakes 4 and 8).

Rules (among others):
- `paired_as_independent`: an independent-samples test (t-test, Mann-Whitney, ANOVA…) on two
  measurements of the same units: two columns of one frame (same rows = same subjects)
  named like time points or sides (`pre`/`post`, `baseline`/`week12`, `left`/`right`), rows of
  a long frame filtered on such a time column, or variables so named with equal lengths.
- `repeated_units`: a test or an OLS/ANOVA fit on the rows of a long frame in which each
  subject/animal/patient/plot contributes several rows: n is the number of rows, not of
  independent units, and the p-value is too small.
- `cluster_assigned_treatment` / `cluster_assigned_model`: a test, or a formula/array-API
  regression or ANOVA, of a factor constant within the levels of a cluster column (batch,
  pond, plate, school…) over the clusters' rows (repeat readings, sub-samples).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Iterator
from itertools import pairwise
from typing import Any

from ..ast_cache import nodes_of
from ..ast_cache import walk as _walk
from ..code_model import CallSite, CodeModel, called_name, root_name
from ..evidence import Evidence, ObjectFacts
from ..findings import Finding
from ..rule import rule
from ..stat_tests import test_calls

# a time point, session or side: pre/post, before/after, baseline/follow-up, day1/day7…
_TIME_TOKEN = re.compile(
    r"(?i)(?:^|[_\s.-])(?:pre|post|before|after|baseline|base|follow_?up|followup|fu|"
    r"pretest|posttest|pre_?treatment|post_?treatment|pre_?op|post_?op|"
    r"left|right|morning|evening|initial|final|start|end|first|second|"
    r"(?:day|d|t|time|visit|week|wk|w|month|m|session|sess|trial|wave|year|yr|round|"
    r"timepoint|tp|phase|block|run)_?\d+)(?=$|[_\s.-]|\d)")
_PAIR_WORDS = [("pre", "post"), ("before", "after"), ("left", "right"),
               ("morning", "evening"), ("initial", "final"), ("start", "end"),
               ("first", "second"), ("baseline", ""), ("pretest", "posttest")]
# columns that identify a sampling unit measured more than once
_ID_SUFFIX = r"(?:_?(?:id|no|num|number|code|idx|index|name|key))"
_UNIT_ID = re.compile(
    r"(?i)^(?:subject|subj|participant|patient|animal|mouse|mice|rat|fish|plot|individual|"
    r"person|donor|litter|cage|tank|pot|plant|tree|volunteer|child|student|user|customer|"
    r"pid|sid|uid|worker|horse|dog|monkey|pig|cow|infant|twin|family|household|eye|sub|"
    r"ppt|colony|hive|nest|pen|herd|flock|respondent|athlete|player|runner|driver|"
    # crossed designs: every rater scores many items, every item is scored by many raters
    r"rater|judge|annotator|assessor|grader|coder|scorer|evaluator|reviewer|"
    # sensory and perception panels: every panelist rates every product, several times
    r"panelist|panellist|panel_?member|taster|listener|observer|tester|examinee)"
    rf"{_ID_SUFFIX}?$|^id$|"
    # items of a crossed design (stimuli, questions): bare, `item` is as often a product
    rf"^(?:item|stimulus|stim|question|vignette){_ID_SUFFIX}$|"
    # objects: bare, these words are as often a category (device: desktop/mobile/tablet,
    # vehicle: van/truck/car) as an identifier, so they need an id suffix here; a bare one
    # counts only when the kernel shows many distinct values (_OBJECT_MIN_UNITS)
    r"^(?:home|house|dwelling|apartment|meter|device|sensor|machine|vehicle|truck|"
    rf"turbine|engine|server|culture|specimen|organoid|embryo|client|account){_ID_SUFFIX}$")
_OBJECT_UNIT = re.compile(
    r"(?i)^(?:home|house|dwelling|apartment|meter|device|sensor|machine|vehicle|truck|"
    r"turbine|engine|server|culture|specimen|organoid|embryo|client|account)$")
_OBJECT_MIN_UNITS = 8
_INDEPENDENT = {"independent", "anova"}
_PAIRED_FIXES = {"ttest_ind": "scipy.stats.ttest_rel", "mannwhitneyu": "scipy.stats.wilcoxon",
                 "ranksums": "scipy.stats.wilcoxon", "f_oneway":
                 "a repeated-measures ANOVA (statsmodels AnovaRM / pingouin.rm_anova)",
                 "kruskal": "scipy.stats.friedmanchisquare"}
_AGGREGATES = {"mean", "median", "sum", "agg", "aggregate", "first", "last", "max", "min",
               "size", "count", "nunique", "std", "var", "any", "all", "prod", "apply"}
_MODEL_FITS = {"ols", "glm", "logit", "anova", "welch_anova", "kruskal", "anova_lm"}


def _src(ev: Evidence, node: ast.AST) -> str:
    return ev.source_of(node)


def _is_time_name(text: str) -> bool:
    return bool(_TIME_TOKEN.search(text))


def _arg_columns(node: ast.AST) -> tuple[str | None, str | None, bool]:
    """(frame, column, row-filtered) for `df["pre"]`, `df.pre`, `df.loc[:, "pre"]`,
    `df["pre"].dropna().values`, `df.loc[df.g == 1, "y"]`."""
    while (isinstance(node, ast.Attribute) and node.attr in ("values", "array")) or (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("to_numpy", "dropna", "astype", "tolist", "to_list",
                                   "copy", "ravel", "squeeze")):
        node = node.value if isinstance(node, ast.Attribute) else node.func.value  # type: ignore[union-attr]
    if isinstance(node, ast.Subscript):
        base, sl = node.value, node.slice
        if isinstance(base, ast.Attribute) and base.attr in ("loc", "iloc") and isinstance(
                base.value, ast.Name):
            if isinstance(sl, ast.Tuple) and len(sl.elts) == 2:
                rows, col = sl.elts
                full_rows = isinstance(rows, ast.Slice) and rows.lower is None \
                    and rows.upper is None
                if isinstance(col, ast.Constant) and isinstance(col.value, str):
                    return base.value.id, col.value, not full_rows
            return base.value.id, None, True
        if isinstance(base, ast.Name) and isinstance(sl, ast.Constant) and isinstance(
                sl.value, str):
            return base.id, sl.value, False
        if isinstance(base, ast.Subscript) and isinstance(sl, ast.Constant) and isinstance(
                sl.value, str):  # df[df.g == 1]["y"]
            frame = root_name(base)
            return frame, sl.value, True
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.value.id, node.attr, False
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Subscript):
        return root_name(node.value), node.attr, True  # df[df.g == 1].y
    if isinstance(node, ast.Name):
        return None, None, False
    return root_name(node), None, True


def _resolve(m: CodeModel, node: ast.expr) -> ast.expr:
    """`before` -> `wide.pre.to_numpy()` when the cell assigns it once from a column."""
    if isinstance(node, ast.Name):
        found = m.assigned_at(node.id)
        if len(found) == 1 and isinstance(found[0].stmt, ast.Assign) and \
                len(found[0].targets) == 1 and found[0].value is not None:
            value = found[0].value
            root = root_name(value)
            if isinstance(value, ast.Subscript | ast.Attribute | ast.Call) and root and \
                    root not in m.aliases:  # a selection from a frame, not `np.array(…)`
                return value
    return node


def _wide_by_unit(m: CodeModel, frame: str) -> str | None:
    """The unit column when `frame` was reshaped to one row per unit in this cell or an
    earlier one: `df.pivot(index="subject", …)`, `pivot_table(index="subject")`,
    `groupby(["subject", "cond"]).rt.mean().unstack()`."""
    for tree in (m.tree, m._prior_tree):
        for node in _walk(tree):
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Name) and node.targets[0].id == frame):
                continue
            for sub in _walk(node.value):
                if not (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute)):
                    continue
                keys: list[ast.AST] = []
                if sub.func.attr in ("pivot", "pivot_table"):
                    keys = [k.value for k in sub.keywords if k.arg == "index"] + sub.args[:1]
                elif sub.func.attr == "groupby" and "unstack" in ast.dump(node.value):
                    keys = sub.args[:1] + [k.value for k in sub.keywords if k.arg == "by"]
                for k in keys:
                    unit = next((x for x in _string_constants(k) if _UNIT_ID.match(x)), None)
                    if unit:
                        return unit
    return None


def _string_constants(node: ast.AST) -> list[str]:
    """String literals, and the quoted values inside `query("time == 'pre'")` strings."""
    out: list[str] = []
    for n in _walk(node):
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            out.append(n.value)
            out += re.findall(r"""['"]([^'"]+)['"]""", n.value)
    return out


def _tokens(name: str) -> set[str]:
    return {t for t in re.split(r"[_\W\d]+", name.lower()) if t}


def _pairing_names(a: str, b: str) -> bool:
    """Two names that read as two measurements of the same units: `pre`/`post`,
    `score_before`/`score_after`, `baseline`/`week12`, `left_iop`/`right_iop`."""
    if a == b:
        return False
    if _is_time_name(a) and _is_time_name(b):
        return True
    ta, tb = _tokens(a), _tokens(b)
    for x, y in _PAIR_WORDS:
        if y and ((x in ta and y in tb) or (y in ta and x in tb)):
            return True
    return ("baseline" in ta) != ("baseline" in tb) and (
        _is_time_name(a) or _is_time_name(b) or bool((ta | tb) & {"followup", "follow", "end"}))


def _independent_tests(ev: Evidence) -> list[tuple[CallSite, str, list[ast.expr]]]:
    out: list[tuple[CallSite, str, list[ast.expr]]] = []
    for call, full, spec in test_calls(ev.model):
        if spec.kind not in _INDEPENDENT:
            continue
        if full.startswith("pingouin.") and call.kwarg_value("paired", False) is True:
            continue
        if spec.kind == "anova" and not spec.variadic and not call.node.args:
            continue  # pingouin.anova(data=…): handled with the model fits
        args: list[ast.expr] = []
        if spec.variadic:
            args = list(call.node.args)
        else:
            for slot in spec.samples:
                node = call.arg(slot) if isinstance(slot, int) else call.kwarg(slot)
                if node is not None:
                    args.append(node)
            if not args:
                args = list(call.node.args[:2])
        out.append((call, full, args))
    return out


def _n_of(ev: Evidence, line: int, expr: str) -> int | None:
    for s in ev.samples:
        if s.line == line and s.expr == expr:
            return s.n + s.missing
    return None


def _frame_facts(ev: Evidence, name: str | None) -> ObjectFacts | None:
    f = ev.objects.get(name) if name else None
    return f if f is not None and f.kind == "dataframe" else None


def _unit_column(f: ObjectFacts) -> str | None:
    """The column identifying units that appear on several rows; None when some unit
    column has one row per value (rows are then the units: patients, not their sites)."""
    rows = f.shape[0] if f.shape else None
    found = None
    for col in f.dtypes:
        n = f.unique.get(col)
        if n is not None and n < 2:
            continue  # constant here (e.g. the key of the group being looped over)
        if _UNIT_ID.match(col) or (_OBJECT_UNIT.match(col) and (n or 0) >= _OBJECT_MIN_UNITS):
            if n is not None and rows is not None and n >= rows:
                return None
            found = found or col
    return found


def _one_row_per_unit(f: ObjectFacts | None) -> bool:
    if f is None or not f.shape:
        return False
    return any(_UNIT_ID.match(c) and f.unique.get(c, -1) >= f.shape[0] for c in f.dtypes)


def _paired_case(ev: Evidence, call: CallSite, full: str, args: list[ast.expr]
                 ) -> tuple[str, float, str, dict[str, object]] | None:
    """(severity, confidence, reason, values) when an independent test's samples are two
    measurements of the same units."""
    m = ev.model
    plain = [a.value if isinstance(a, ast.Starred) else a for a in args]
    if len(plain) < 2 or any(isinstance(a, ast.Starred) for a in args):
        return None
    cols = [_arg_columns(_resolve(m, a)) for a in plain]
    frames = {c[0] for c in cols}
    names = [c[1] for c in cols]
    severity = confidence = None
    values: dict[str, object] = {}
    why = ""
    # 1. two columns of one frame (same rows = same subjects)
    if len(frames) == 1 and None not in frames and all(names) and not any(
            c[2] for c in cols) and len(set(names)) == len(names):
        frame = next(iter(frames))
        f = _frame_facts(ev, frame)
        unit = _unit_column(f) if f is not None else None
        if all(_is_time_name(n or "") for n in names) or (
                len(names) == 2 and _pairing_names(names[0] or "", names[1] or "")):
            severity, confidence = "critical", 0.9 if f is not None else 0.8
            why = (f"`{frame}[{names[0]!r}]` and `{frame}[{names[1]!r}]` are two columns "
                   f"of the same frame, i.e. two measurements of the same "
                   f"{f.shape[0] if f is not None and f.shape else ''} rows/subjects")
        elif (unit := _wide_by_unit(m, frame)) is not None:
            severity, confidence = "critical", 0.85
            why = (f"`{frame}` was reshaped to one row per `{unit}`, so its columns "
                   f"{names[0]!r} and {names[1]!r} are two measurements of the same units")
        elif f is not None and f.shape and _one_row_per_unit(f):
            # one row per subject (a named unit, not a bare row id): a crossover's two arms
            unit = next((c for c in f.dtypes if _UNIT_ID.match(c) and c.lower() != "id"), None)
            if unit is not None:
                severity, confidence = "high", 0.7
                why = (f"`{frame}` has one row per `{unit}` ({f.shape[0]} units), so its "
                       f"columns {names[0]!r} and {names[1]!r} are measured on the same units")
        if f is not None and f.shape:
            values["rows"] = f.shape[0]
        values["columns"] = names
    # 2. rows of a long frame filtered on a time-point value: df[df.time == "pre"].y
    if severity is None and len(frames) == 1 and None not in frames and all(
            c[2] for c in cols):
        labels = [[s for s in _string_constants(a) if s not in (names[i] or "",)]
                  for i, a in enumerate(plain)]
        flat = [next((s for s in ls if _is_time_name(s) or any(
            s.lower() in w for w in _PAIR_WORDS)), None) for ls in labels]
        if all(flat) and len(set(flat)) == len(flat) and (
                all(_is_time_name(x or "") for x in flat)
                or _pairing_names(flat[0] or "", flat[1] or "")):
            frame = next(iter(frames))
            f = _frame_facts(ev, frame)
            unit = _unit_column(f) if f is not None else None
            if _one_row_per_unit(f):
                return None  # each row a different subject: independent groups
            if f is not None and unit and f.shape and f.unique.get(unit, 0) < f.shape[0]:
                severity, confidence = "critical", 0.9
                why = (f"the samples are the {flat[0]!r} and {flat[1]!r} rows of `{frame}`, "
                       f"where each of {f.unique[unit]} `{unit}` values appears "
                       f"{f.shape[0] / f.unique[unit]:.1f} times on average: the same "
                       "subjects measured at each time point")
                values.update(rows=f.shape[0], units=f.unique[unit], unit_column=unit)
            else:
                severity, confidence = "high", 0.65 if f is None else 0.6
                why = (f"the samples are the {flat[0]!r} and {flat[1]!r} rows of "
                       f"`{frame}`, which reads as the same subjects measured twice")
            values["conditions"] = flat
    # 3. variables named like time points, of equal length
    if severity is None and all(isinstance(a, ast.Name) for a in plain) and len(plain) == 2:
        na, nb = (a.id for a in plain)  # type: ignore[attr-defined]
        disjoint_rows = len(frames) == 1 and None not in frames and all(c[2] for c in cols)
        if _pairing_names(na, nb) and not disjoint_rows:
            ns = [_n_of(ev, call.line, _src(ev, a)) for a in plain]
            if None not in ns and ns[0] != ns[1]:
                return None  # different sizes: cannot be the same subjects
            severity = "high"
            confidence = 0.65 if None not in ns else 0.5
            why = (f"`{na}` and `{nb}` are named as two measurements of the same units"
                   + (f" and have the same length ({ns[0]})" if None not in ns else ""))
            if None not in ns:
                values["n"] = ns[0]
    if severity is None or confidence is None:
        return None
    return severity, confidence, why, values


@rule("pseudoreplication.paired_as_independent",
      title="Independent-samples test on paired measurements")
def paired_as_independent(ev: Evidence) -> Iterator[Finding]:
    """An independent-samples test on two measurements of the same subjects (before/after,
    left/right, two time points): the pairing is ignored and the test is invalid."""
    if ev.tree is None:
        return
    for call, full, args in _independent_tests(ev):
        verdict = _paired_case(ev, call, full, args)
        if verdict is None:
            continue
        severity, confidence, why, values = verdict
        test = full.rsplit(".", 1)[-1]
        fix = _PAIRED_FIXES.get(test, "a paired test (scipy.stats.ttest_rel / wilcoxon)")
        yield Finding(
            explanation=(f"`{test}` (line {call.line}) treats its samples as independent, but "
                         f"{why}. Ignoring the pairing uses the wrong variance and the wrong "
                         "degrees of freedom; the p-value is not valid for this design."),
            severity=severity, confidence=confidence,
            evidence={"lines": [call.line], "values": values},
            suggestion=(f"Use a paired test on the per-subject measurements: {fix} (e.g. "
                        "`stats.ttest_rel(df['pre'], df['post'])`, or `stats.wilcoxon(...)` "
                        "for skewed differences), or a mixed model with a random intercept per "
                        "subject (`smf.mixedlm('y ~ time', df, groups=df['subject'])`)."),
        )


def _source_frame(ev: Evidence, node: ast.AST, cache: dict[int, str | None],
                  unit_re: re.Pattern = _UNIT_ID, counts: bool = False
                  ) -> tuple[str | None, ObjectFacts | None, bool]:
    """The nearest frame with a unit column that the expression's rows come from, and
    whether they were aggregated to one value per unit on the way (groupby on the unit,
    pivot with the unit as index). Frames without a unit column (a crosstab, a filtered
    copy) are looked through, but not a frame reduced by another key (`groupby(["item",
    "cond"]).mean()`): its rows are means over the units, one per key, and the units'
    rows are no longer what the test counts — unless the test counts rows (`counts`: a
    contingency table of group sizes still counts every row)."""
    m = ev.model
    agg = _aggregates(m, node, unit_re)
    if agg == "unit":
        return None, None, True
    if agg == "other" and not counts and _reduced(node):
        return None, None, False
    seen: set[str] = set()
    queue = list(dict.fromkeys(n.id for n in _walk(node) if isinstance(n, ast.Name)))
    while queue:
        name = queue.pop(0)
        if name in seen:
            continue
        seen.add(name)
        f = _frame_facts(ev, name)
        if f is not None and (any(unit_re.match(c) for c in f.dtypes) or (
                unit_re is _UNIT_ID and _unit_column(f) is not None)):
            return name, f, False
        for a in m.assigned_at(name):
            if a.value is None:
                continue
            key = id(a.value)
            if key not in cache:
                cache[key] = _aggregates(m, a.value, unit_re)
            if cache[key] == "unit":
                return None, None, True
            if cache[key] == "other" and not counts and _reduced(a.value):
                continue  # one row per key of another grouping: the units are averaged out
            queue += [n for n in a.loaded if n not in seen]
    return None, None, False


_REDUCERS = _AGGREGATES - {"apply"}


def _reduced(node: ast.AST) -> bool:
    """Whether `node` reduces a groupby/pivot to one value per key (`.mean()`, `.agg(...)`,
    `pivot_table(...)`); `.apply(...)` may return rows and does not count."""
    for sub in _walk(node):
        if not (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute)):
            continue
        if sub.func.attr == "pivot_table":
            return True
        if sub.func.attr == "groupby" and _grouped_aggregate(sub, node, _REDUCERS):
            return True
    return False


def _aggregates(m: CodeModel, node: ast.AST, unit_re: re.Pattern = _UNIT_ID) -> str | None:
    """"unit" for an aggregation to one value per unit (`groupby("subject").mean()`,
    `pivot(index="subject")`), "other" for other aggregations, None for none."""
    found = None
    for sub in _walk(node):
        if not (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute)):
            continue
        attr = sub.func.attr
        keys: list[ast.AST] = []
        if attr in ("pivot", "pivot_table"):
            keys = [k.value for k in sub.keywords if k.arg == "index"]
        elif attr == "groupby":
            keys = list(sub.args[:1]) + [k.value for k in sub.keywords if k.arg == "by"]
            if not _grouped_aggregate(sub, node):
                continue
        else:
            continue
        found = "other"
        for k in keys:
            names = _string_constants(k) + [n.attr for n in _walk(k)
                                             if isinstance(n, ast.Attribute)]
            if any(unit_re.match(x) or (unit_re is _UNIT_ID and _OBJECT_UNIT.match(x))
                   for x in names):
                return "unit"  # grouping by an object-like column only ever quiets
    return found


def _grouped_aggregate(groupby: ast.Call, within: ast.AST,
                       methods: set[str] | frozenset[str] = frozenset(_AGGREGATES)) -> bool:
    """Whether `groupby(...)` is followed by an aggregation in the same expression."""
    for sub in _walk(within):
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and \
                sub.func.attr in methods:
            inner = sub.func.value
            while isinstance(inner, ast.Subscript | ast.Attribute):
                inner = inner.value
            if inner is groupby:
                return True
    return False


def _melted_ids(ev: Evidence) -> dict[str, str]:
    """Frames built by `melt(id_vars="subject")` / `wide_to_long(i="subject")` in the cell:
    frame -> unit id column (each id repeated by construction)."""
    out: dict[str, str] = {}
    for call in ev.model.calls:
        if call.last not in ("melt", "wide_to_long") or not call.targets:
            continue
        idv = call.kwarg("id_vars") or call.kwarg("i")
        for s in _string_constants(idv) if idv is not None else []:
            if _UNIT_ID.match(s):
                out[call.targets[0]] = s
    return out


def _formula_terms(call: CallSite) -> str:
    """The formula's text; in an f-string (`f"{outcome} ~ arm * period"`, a helper's
    formula) each interpolated part reads as `_`, the literal terms as written."""
    f = call.arg(0, "formula")
    if isinstance(f, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) and isinstance(v.value, str)
                       else "_" for v in f.values)
    return f.value if isinstance(f, ast.Constant) and isinstance(f.value, str) else ""


@rule("pseudoreplication.repeated_units",
      title="Repeated measurements of the same units treated as independent")
def repeated_units(ev: Evidence) -> Iterator[Finding]:
    """A test or model fit on rows of a long frame where each subject/animal/plot
    contributes several rows, as if every row were an independent unit."""
    if ev.tree is None:
        return
    m = ev.model
    melted = _melted_ids(ev)
    agg_cache: dict[int, str | None] = {}
    reported: set[int] = set()
    paired_lines: dict[int, set[str]] = {}
    independent = _independent_tests(ev)
    for c, full, args in independent:
        if _paired_case(ev, c, full, args) is not None:
            paired_lines.setdefault(c.line, set()).add(full)
    candidates: list[tuple[CallSite, str, list[ast.AST]]] = [
        (c, full, list(args)) for c, full, args in independent]
    counting: set[int] = set()  # tests of row counts: an aggregated table still counts rows
    for c, full, spec in test_calls(m):  # chi2_contingency(pd.crosstab(rows…)), z-tests
        if spec.kind in ("contingency", "proportion"):
            counting.add(id(c.node))
            candidates.append((c, full, [a.value if isinstance(a, ast.Starred) else a
                                         for a in c.node.args] +
                               [k.value for k in c.node.keywords if k.arg is not None]))
    for call in m.calls:  # smf.ols("y ~ group", data=df).fit(), pg.anova(data=df, …)
        if call.last in _MODEL_FITS and (call.kwarg("data") is not None or (
                call.name or "").startswith("statsmodels.formula")):
            data = call.kwarg("data") or call.arg(1)
            if data is not None:
                candidates.append((call, call.last, [data]))
    for call, full, args in candidates:
        if call.line in reported:
            continue
        if call.kwarg("groups") is not None or _clustered(m, call):
            continue
        if full in paired_lines.get(call.line, ()):
            continue  # reported as paired data tested as independent
        if any(kw.arg in ("re_formula", "vc_formula") for kw in call.node.keywords):
            continue
        test = full.rsplit(".", 1)[-1]
        frame = f = None
        aggregated = False
        for a in args:
            frame, f, aggregated = _source_frame(ev, a, agg_cache,
                                                 counts=id(call.node) in counting)
            if frame is not None or aggregated:
                break
        if aggregated:
            continue  # one value per unit: the sound twin
        unit = rows = units = None
        if f is not None:
            unit = _unit_column(f)
            if unit is None or not f.shape:
                continue
            rows, units = f.shape[0], f.unique.get(unit)
            if not units or rows / units < 1.5:
                continue  # one row per unit
            ns = [s.n for s in ev.samples if s.line == call.line]
            if id(call.node) in counting:
                # the samples of a test of counts are its count arrays, not rows: the rows
                # it counts are the table's total (or the z-test's `nobs`)
                ns = []
                total = _count_total(ev, call)
                if total is not None and total <= units:
                    continue  # at most one row per unit counted (one period)
            if ns and sum(ns) <= units:
                continue  # the samples hold at most one row per unit (one time point)
            terms = _formula_terms(call)
            if terms and unit in terms:
                continue  # the unit is in the model (fixed effect / C(subject))
            severity = "critical"
            confidence = 0.85 if ns or call.last in _MODEL_FITS else 0.8
            if call.last in _MODEL_FITS and not _p_values_read(ev):
                severity, confidence = "medium", 0.5  # estimates only: their SEs are wrong
        elif frame is None and any(
                n.id in melted for a in args for n in _walk(a) if isinstance(n, ast.Name)):
            frame = next(n.id for a in args for n in _walk(a)
                         if isinstance(n, ast.Name) and n.id in melted)
            unit = melted[frame]
            severity, confidence = "high", 0.65
        elif frame is None and call.last not in _MODEL_FITS and id(call.node) not in counting \
                and (crossed := _crossed_id_unit(ev, call, args)) is not None:
            # samples gathered through a loop or ids like P01…P10: a unit on several rows
            # in more than one compared group. Named like a subject or rater: critical;
            # only the ids: the unit may as well be a site holding distinct people (medium)
            frame, f, unit, rows, units = crossed
            severity, confidence = ("critical", 0.8) if _UNIT_ID.match(unit) else \
                ("medium", 0.5)
        else:
            continue
        ns = [s.n for s in ev.samples if s.line == call.line] \
            if id(call.node) not in counting else []
        values: dict[str, object] = {"frame": frame, "unit_column": unit}
        if rows is not None:
            values.update(rows=rows, units=units)
        if ns:
            values["n_per_sample"] = ns
        detail = (f"`{frame}` has {rows} rows but only {units} distinct `{unit}` values "
                  f"({rows / units:.1f} rows per unit)" if rows and units else
                  f"`{frame}` is a long (melted) frame with several rows per `{unit}`")
        n_txt = (f"; the test's samples have n = {', '.join(map(str, ns))}, counting rows "
                 "as if they were independent units" if ns and units and sum(ns) > units
                 else "")
        if id(call.node) in counting and units and (counted := _count_total(ev, call)):
            n_txt = (f"; the test counts {counted} rows as independent trials, about "
                     f"{counted / units:.1f} per `{unit}`")
        reported.add(call.line)
        yield Finding(
            explanation=(f"`{test}` (line {call.line}) treats every row as an independent "
                         f"observation, but {detail}{n_txt}. Measurements of the same unit are "
                         "correlated, so the effective sample size is overstated and the "
                         "p-value is too small (pseudoreplication)."),
            severity=severity, confidence=confidence,
            evidence={"lines": [call.line], "values": values},
            suggestion=(f"Aggregate to one value per `{unit}` before testing (e.g. "
                        f"`{frame}.groupby(['{unit}', 'condition'])['y'].mean()`), use a "
                        "paired test when every unit is measured in each condition, or fit a "
                        f"mixed model with a random intercept per unit "
                        f"(`smf.mixedlm('y ~ condition', {frame}, groups={frame}['{unit}'])`)."),
        )


_NEST_COLUMNS = 8  # services.kernel_facts.NEST_COLUMNS: pairs beyond these are not examined


def _crossed_id_unit(ev: Evidence, call: CallSite, args: list[ast.AST]
                     ) -> tuple[str, ObjectFacts, str, int, int] | None:
    """(frame, facts, unit column, rows, units) when an independent test's samples are rows
    of a frame split on a column `b` (also through a loop appending to a list), and another
    column named like a unit or whose levels read as unit ids (`P01`…`P10`) has several rows
    per level, crossed with `b`: the kernel examined the pair
    and found the ids not nested in `b`, so units appear in more than one compared group.
    Quiet when some column is unique per row (the rows are units of their own) or the
    samples hold no more rows than there are units."""
    plain = [a.value if isinstance(a, ast.Starred) else a for a in args]
    nodes, names = _sample_sources(ev, call, plain)  # type: ignore[arg-type]
    if any(_reduced(n) for n in nodes) or any(_aggregates(ev.model, n) for n in nodes):
        return None
    ns = [s.n for s in ev.samples if s.line == call.line]
    for frame in names:
        f = _frame_facts(ev, frame)
        if f is None or not f.shape or not f.levels:
            continue
        rows = f.shape[0]
        if any(f.unique.get(c, 0) >= rows for c in f.dtypes if not _is_float(f.dtypes[c])):
            continue  # an id unique per row: the rows are the units
        # the grouping columns the kernel paired up for its nesting facts
        top = min(200, rows // 2)
        examined = [c for c in f.dtypes if not _is_float(f.dtypes[c])
                    and 2 <= f.unique.get(c, 0) <= top][:_NEST_COLUMNS]
        used = _mentioned(nodes, f.dtypes)
        compared = [b for b in used if b in f.levels and b in examined]
        for a in examined:
            if a in used or not (_UNIT_ID.match(a) or _id_labels(f, a)):
                continue
            counts = f.levels.get(a, {})  # text levels; integer ids: their count only
            units = len(counts) or f.unique.get(a, 0)
            fewest = min(counts.values()) if counts else rows / max(units, 1)
            if units < 3 or fewest < 4 or not ns or sum(ns) <= 2 * units:
                continue
            nest = f.nesting.get(a) if isinstance(f.nesting, dict) else None
            for b in compared:
                if f.unique.get(b, 0) >= units:
                    continue  # only a finer column can be nested in a coarser one
                if isinstance(nest, dict) and b in nest.get("within", {}):
                    continue  # nested: cluster_assigned_treatment's case
                return frame, f, a, rows, units
    return None


def _is_float(dtype: str) -> bool:
    return dtype.startswith(("float", "Float", "complex", "datetime", "timedelta"))


# clusters whose members share more than a unit's repeated measurements: the unit that was
# randomised or sampled (classrooms, schools, clinics, litters, batches…), or a unit itself
_CLUSTER_ID = re.compile(
    r"(?i)^(?:classroom|school|teacher|clinic|hospital|site|centre|center|ward|practice|"
    r"village|household|farm|cluster|litter|cage|tank|pen|pond|herd|colony|hive|nest|"
    r"family|plate|dish|flask|batch|doctor|physician|surgeon|clinician)"
    r"(?:_?(?:id|no|num|number|code|idx|index|name|key))?$")
_RESAMPLERS = {"choice", "sample", "resample", "bootstrap", "permutation_test", "integers",
               "randint"}


def _resampled(call: CallSite) -> list[ast.AST]:
    """The data a bootstrap/permutation draw resamples row by row: `rng.choice(x, n)` (with
    replacement, the default), `df.sample(frac=1, replace=True)`, `resample(x)`,
    `stats.bootstrap((a, b), f)`, `rng.permutation(labels)`, `x[rng.integers(0, len(x), n)]`."""
    last = call.last
    node = call.node
    if last == "choice":
        if call.kwarg_value("replace", True) is not True or not node.args or \
                isinstance(node.args[0], ast.Constant):
            return []
        return [node.args[0]]
    if last == "sample":
        if call.kwarg_value("replace", False) is not True or call.receiver is None:
            return []
        return [call.receiver]
    if last in ("resample", "bootstrap", "permutation_test"):
        return [a for a in node.args[:1] if not isinstance(a, ast.Constant)]
    if last in ("integers", "randint") and (len(node.args) >= 3 or call.has_kwarg("size")):
        # index draws of a full resample: rng.integers(0, len(x), (n_boot, len(x)))
        return [a.args[0] for a in node.args[:2] if isinstance(a, ast.Call)
                and isinstance(a.func, ast.Name) and a.func.id == "len" and a.args]
    return []


def _cluster_column(f: ObjectFacts) -> tuple[str, int, int, bool] | None:
    """(column, rows, clusters, rows_are_units) for a cluster column with several rows per
    value; rows_are_units: another id column is unique per row (units nested in clusters)."""
    if not f.shape or not f.shape[0]:
        return None
    rows = f.shape[0]
    unique_id = any((_UNIT_ID.match(c) or c.lower().endswith("_id"))
                    and f.unique.get(c, -1) >= rows for c in f.dtypes)
    for col in f.dtypes:
        if _CLUSTER_ID.match(col) or _UNIT_ID.match(col):
            k = f.unique.get(col)
            if k and k >= 3 and rows / k >= 1.5:
                return col, rows, k, unique_id
    return None


def _mentions(text: str, col: str) -> bool:
    return re.search(rf"\b{re.escape(col)}\b", text) is not None


def _chain_src(m: CodeModel, node: ast.AST) -> str:
    """Source of `node` and of the values assigned to the names it reads (two levels)."""
    parts = [m.src(node)]
    names = {n.id for n in _walk(node) if isinstance(n, ast.Name)}
    for _ in range(2):
        nxt: set[str] = set()
        for name in names:
            for a in m.assigned_at(name):
                if a.value is not None:
                    parts.append(m.src(a.value))
                    nxt |= a.loaded
        names = nxt - names
    return "\n".join(parts)


@rule("pseudoreplication.row_bootstrap_over_clusters",
      title="Bootstrap or permutation over rows nested in clusters")
def row_bootstrap_over_clusters(ev: Evidence) -> Iterator[Finding]:
    """A bootstrap (or permutation) resamples individual rows - students, cells, patients -
    of a frame in which the rows come in clusters (classroom, school, litter, clinic, subject
    with several rows): the draws treat every row as independent, so the interval ignores the
    between-cluster variation and is too narrow, most of all when the clusters were the
    randomised units. Quiet when the data were aggregated to one value per cluster first
    (a cluster bootstrap). High (0.65) when no column identifies the rows as units of their
    own; medium (0.5) when one does (units nested in clusters: the clustering may not matter
    for the question)."""
    if ev.tree is None:
        return
    m = ev.model
    cache: dict[int, str | None] = {}
    for call in m.calls:
        if call.last not in _RESAMPLERS:
            continue
        for data in _resampled(call):
            frame, f, aggregated = _source_frame(ev, data, cache, _CLUSTER_ID)
            if aggregated or f is None:
                continue
            found = _cluster_column(f)
            if found is None:
                continue
            col, rows, k, nested = found
            if _mentions(_chain_src(m, data), col):
                continue  # the draws are of the clusters themselves
            sev, conf = ("medium", 0.5) if nested or _mentions(ev.code, col) else \
                ("high", 0.65)
            yield Finding(
                explanation=f"`{call.last}` (line {call.line}) resamples rows of `{frame}` "
                            f"one at a time, but its {rows} rows come in {k} `{col}` clusters "
                            f"({rows / k:.1f} rows each). Rows of one cluster are correlated, "
                            "so a row-level bootstrap or permutation treats them as "
                            "independent and the interval (or p-value) is too narrow - "
                            "pseudoreplication, unless the rows themselves were the "
                            "independently randomised units.",
                severity=sev, confidence=conf,
                evidence={"lines": [call.line],
                          "values": {"frame": frame, "cluster_column": col, "rows": rows,
                                     "clusters": k}},
                suggestion=f"Resample whole `{col}` clusters (a cluster bootstrap: draw "
                           f"{col} ids with replacement and keep all their rows, or aggregate "
                           f"to one value per {col} first), or fit a mixed model with a "
                           f"random intercept per {col}.")
            return


def _fits_of(m: CodeModel, call: CallSite) -> list[CallSite]:
    """`.fit(...)` calls on the model this call builds: chained or through a name."""
    return [c for c in m.calls if c.method == "fit" and (
        c.receiver is call.node or (c.receiver_root is not None
                                    and c.receiver_root in call.targets))]


def _clustered(m: CodeModel, call: CallSite) -> bool:
    """Cluster-robust errors by unit: `.fit(cov_type="cluster", cov_kwds={"groups": …})`."""
    if call.kwarg_value("cov_type") == "cluster":
        return True
    return any(str(f.kwarg_value("cov_type", "")).startswith(("cluster", "hac-"))
               for f in _fits_of(m, call))


def _p_values_read(ev: Evidence) -> bool:
    """The cell reads a fitted model's p-values (`.pvalues`, `summary()`, `anova_lm`)."""
    return any(s in ev.code for s in (".pvalues", "summary", "anova_lm", ".f_pvalue",
                                      "t_test", "p-unc", "PR(>F)"))


# -- a predictor that varies only between clusters, analysed row by row ---------------------------

# columns naming a group of rows that share conditions: the unit a treatment or exposure is
# assigned to or measured on (stands, depots, schools, stores, sites)
_GROUP_NAME = re.compile(
    r"(?i)^(?:depot|garage|stand|store|shop|branch|outlet|route|station|district|county|"
    r"municipality|commune|parish|team|squad|crew|facility|plant|factory|site|clinic|"
    r"hospital|school|classroom|class|teacher|ward|practice|village|farm|field|lake|pond|"
    r"stream|river|reef|forest|catchment|watershed|herd|flock|colony|hive|pen|cage|tank|"
    r"litter|batch|lot|plate|well|region|city|town|country|state|province|company|firm|"
    r"cohort|centre|center|lab|laboratory|court|prison|camp|estate|building|floor|block|"
    r"cluster|unit|area|zone|tract|transect|neighbo(?:u)?rhood|office|warehouse|fleet|vessel|ship)"
    r"(?:_?(?:id|no|num|number|code|name|key|idx))?$")
_FORMULA_FITS = {"ols", "logit", "probit", "glm", "poisson", "negativebinomial", "wls", "rlm",
                 "quantreg"}
_NUMERIC = ("int", "uint", "float", "Int", "UInt", "Float", "bool")


def _cluster_candidates(f: ObjectFacts, x: str, used: set[str]
                        ) -> tuple[str, int, bool] | None:
    """(group column, groups, strong) for a predictor `x` of frame facts `f` that looks
    measured per group: a continuous `x` with about as many distinct values as some grouping
    column has levels (strong), or any `x` with a group-named column of many rows per level."""
    rows = f.rows or 0
    ux = f.unique.get(x)
    dtype = f.dtypes.get(x, "")
    if not rows or not ux:
        return None
    best: tuple[str, int, bool] | None = None
    for g, gtype in f.dtypes.items():
        if g == x or g in used or gtype.startswith("float") or _UNIT_ID.match(g):
            continue
        k = f.unique.get(g, 0)
        if k < 3 or rows / k < 3:
            continue
        # a continuous value repeated as often as a grouping column's levels: measured per
        # group. A group-like name (or an exact match of the counts) rules out a coincidence
        # (ten price points in a frame with twelve stores).
        named = bool(_GROUP_NAME.match(g) or _CLUSTER_ID.match(g))
        strong = dtype.startswith("float") and ux >= 8 and 0.8 * k <= ux <= k \
            and rows / ux >= 5 and (named or ux == k)
        named = named and rows / k >= 5 and ux <= k
        if strong or named:
            cand = (g, k, strong)
            if best is None or (strong and not best[2]):
                best = cand
    return best


def _formula_sides(formula: str) -> tuple[set[str], set[str]]:
    if "~" not in formula:
        return set(), set()
    lhs, rhs = formula.split("~", 1)
    return set(re.findall(r"[A-Za-z_]\w*", lhs)), set(re.findall(r"[A-Za-z_]\w*", rhs))


def _provenance(m: CodeModel, frame: str, x: str) -> str | None:
    """The smaller table `x` was defined in, when `frame` was built by repeating or merging
    it onto the rows (`trips = depots.loc[depots.index.repeat(n)]`, `df.merge(stands)`)."""
    owners: set[str] = set()
    for tree in (m._prior_tree, m.tree):
        for node in _walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                t = node.targets[0]
                if isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Constant) and \
                        t.slice.value == x and isinstance(t.value, ast.Name):
                    owners.add(t.value.id)
                elif isinstance(t, ast.Name) and isinstance(node.value, ast.Call) and \
                        called_name(node.value) == "DataFrame" and node.value.args and \
                        isinstance(node.value.args[0], ast.Dict) and any(
                            isinstance(k, ast.Constant) and k.value == x
                            for k in node.value.args[0].keys):
                    owners.add(t.id)
    owners.discard(frame)
    if not owners:
        return None
    for tree in (m._prior_tree, m.tree):
        for node in _walk(tree):
            if not (isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == frame for t in node.targets)):
                continue
            names = {n.id for n in _walk(node.value) if isinstance(n, ast.Name)}
            spreads = any(isinstance(n, ast.Call) and called_name(n) in (
                "repeat", "merge", "join", "reindex", "explode") for n in _walk(node.value))
            hit = names & owners
            if hit and spreads:
                return sorted(hit)[0]
    return None


@rule("pseudoreplication.cluster_level_predictor",
      title="A predictor that varies only between clusters, tested over individual rows")
def cluster_level_predictor(ev: Evidence) -> Iterator[Finding]:
    """A regression, correlation or GLM over individual rows (trees, trips, pupils) of a
    predictor that was assigned or measured per cluster (the stand's deposition, the depot's
    training programme, the school's policy): the predictor has as many independent values
    as there are clusters, not rows, so the p-value and CI counting rows are far too small.
    Judged from the kernel: a continuous predictor with about as many distinct values as a
    group-named column (stand, depot, school, site…) has levels (high, 0.75), or a predictor
    defined in a per-cluster table that was repeated or merged onto the rows (high, 0.7),
    when p-values or intervals are read; a group-named column with many rows per level and a
    predictor of no more levels gives medium (0.5). Quiet with cluster
    terms, `groups=`, cluster-robust errors, mixed models / GEE, or data aggregated to one
    row per cluster."""
    if ev.tree is None:
        return
    m = ev.model
    sites: list[tuple[CallSite, str, list[str], set[str], bool]] = []
    for call, _full, spec in test_calls(m):
        if spec.kind not in ("regression", "correlation"):
            continue
        cols: list[str] = []
        frame = None
        for a in (call.arg(0, "x"), call.arg(1, "y")):
            if a is None:
                continue
            fr, col, filtered = _arg_columns(a)
            if fr is None or col is None or filtered:
                break
            frame = frame or fr
            if fr != frame:
                break
            cols.append(col)
        else:
            if frame and len(cols) == 2:
                sites.append((call, frame, cols, set(cols), True))
    for call in m.calls:
        if call.last not in _FORMULA_FITS or not (call.name or "").startswith(
                "statsmodels.formula"):
            continue
        formula = _formula_terms(call)
        data = call.kwarg("data") or call.arg(1)
        if not formula or not isinstance(data, ast.Name):
            continue
        lhs, rhs = _formula_sides(formula)
        sites.append((call, data.id, sorted(rhs), lhs | rhs, _p_values_read(ev)))
    # calls whose nested factor cluster_assigned_model reports from the kernel's nesting facts
    seen: set[int] = {ln for f in _cluster_model_findings(ev) for ln in f.evidence["lines"]}
    for call, frame, predictors, used, inference in sites:
        if call.line in seen or call.kwarg("groups") is not None or _clustered(m, call):
            continue
        f = _frame_facts(ev, frame)
        if f is None or not f.rows:
            continue
        best: tuple[str, str, int, bool, str | None] | None = None
        for x in predictors:
            if x not in f.dtypes or not f.dtypes[x].startswith(_NUMERIC):
                continue
            found = _cluster_candidates(f, x, used)
            if found is None:
                continue
            g, k, strong = found
            source = None if strong else _provenance(m, frame, x)
            if best is None or ((strong or source) and not (best[3] or best[4])):
                best = (x, g, k, strong, source)
        if best is None:
            continue
        x, g, k, strong, source = best
        rows = f.rows
        if (strong or source) and inference:
            severity, confidence = "high", 0.75 if strong else 0.7
        else:
            severity, confidence = "medium", 0.5
        seen.add(call.line)
        test = call.last
        if strong:
            why = (f"`{x}` takes only {f.unique.get(x)} distinct values over {rows} rows - about "
                   f"as many as the {k} `{g}` groups - so it is measured per `{g}`")
        elif source:
            why = (f"`{x}` comes from `{source}`, a table of `{g}`-level values repeated or "
                   f"merged onto the rows, so it varies only between the {k} `{g}` groups")
        else:
            why = (f"the {rows} rows come in {k} `{g}` groups ({rows / k:.0f} rows each) and "
                   f"`{x}` has no more levels than there are groups; if it was assigned per "
                   f"`{g}`, the groups are the units")
        yield Finding(
            explanation=(f"`{test}` (line {call.line}) treats the {rows} rows of `{frame}` as "
                         f"independent observations of `{x}`, but {why}. Rows in one group "
                         "share its conditions, so the effective sample size is the number of "
                         "groups and the p-value and confidence interval are far too small "
                         "(pseudoreplication)."),
            severity=severity, confidence=confidence,
            evidence={"lines": [call.line],
                      "values": {"frame": frame, "predictor": x, "group_column": g,
                                 "rows": rows, "groups": k,
                                 "predictor_values": f.unique.get(x)}},
            suggestion=(f"Analyse at the level `{x}` varies: average to one row per `{g}` "
                        f"(`{frame}.groupby('{g}').mean(numeric_only=True)`) and fit on those "
                        f"{k} rows, or keep the rows and model the grouping "
                        f"(`smf.mixedlm(..., groups={frame}['{g}'])`, GEE with "
                        f"`groups='{g}'`, or `.fit(cov_type='cluster', cov_kwds={{'groups': "
                        f"{frame}['{g}']}})`)."))


# -- autocorrelated rows of a time series counted as independent ----------------------------------

_TIME_COLUMN = re.compile(
    r"(?i)^(?:date|datetime|time|timestamp|ts|day|days|doy|dayofyear|day_of_year|hour|hours|"
    r"minute|week|month|year|season|period|epoch|obs_date|obs_time|date_time|sample_date|"
    r"reading_time|t)$|(?:_date|_time|_day|_ts|_at|_hour)$")
_LAG_STRONG = 0.5
_MIN_ROWS = 30


def _frames_behind(ev: Evidence, args: list[ast.expr]) -> list[tuple[str, ObjectFacts]]:
    """The data frames in the kernel the arguments' rows come from (through assignments)."""
    m = ev.model
    out: list[tuple[str, ObjectFacts]] = []
    seen: set[str] = set()
    queue = [n.id for a in args for n in _walk(a) if isinstance(n, ast.Name)]
    while queue and len(seen) < 40:
        name = queue.pop(0)
        if name in seen:
            continue
        seen.add(name)
        f = _frame_facts(ev, name)
        if f is not None:
            out.append((name, f))
            continue
        for a in m.assigned_at(name):
            queue += [n for n in a.loaded if n not in seen]
    return out


def _time_column(frames: list[tuple[str, ObjectFacts]]) -> str | None:
    """A datetime column, or a column named like a time stamp / day / season, with many
    distinct values or several rows per value (a time axis, not a label)."""
    for name, f in frames:
        for col, dtype in f.dtypes.items():
            if "datetime" in dtype or "period" in dtype:
                return f"{name}.{col}"
        named = [c for c in f.dtypes if _TIME_COLUMN.search(c) and f.unique.get(c, 0) >= 5]
        if named:  # the finest one: days rather than seasons
            return f"{name}.{max(named, key=lambda c: f.unique.get(c, 0))}"
    return None


@rule("pseudoreplication.autocorrelated_rows",
      title="Autocorrelated time-series rows counted as independent observations")
def autocorrelated_rows(ev: Evidence) -> Iterator[Finding]:
    """An independent-samples test (t-test, Mann-Whitney, ANOVA) on daily or hourly rows of a
    time series grouped by a property of a longer period (season, year, climate phase, a
    before/after regime): neighbouring days are nearly copies of each other, so thousands of
    rows carry the information of a few periods and the p-value is far too small. Read from
    the kernel: a strong lag-1 autocorrelation of each sample in row order and, for pandas
    samples, that the rows come in a few long contiguous runs (the group label constant over
    long periods); a time column in the source frame supports it. Also an OLS-type fit on a
    frame with a time axis whose residuals are strongly autocorrelated, its p-values read
    with the default errors."""
    if ev.tree is None:
        return
    for call, full, args in _independent_tests(ev) if ev.samples else []:
        read = [s for s in ev.samples if s.line == call.line and s.call == full]
        if len(read) < 2 or any(s.lag1 is None or s.n < _MIN_ROWS for s in read):
            continue
        lag_min = min(s.lag1 for s in read if s.lag1 is not None)
        if lag_min < _LAG_STRONG:
            continue
        cache: dict[int, str | None] = {}
        if any(_source_frame(ev, a, cache)[0] is not None for a in args):
            continue  # a unit column: repeated_units reports it
        frames = _frames_behind(ev, args)
        time_col = _time_column(frames)
        runs = [s.runs for s in read]
        blocks = sum(r for r in runs if r) if all(runs) else None
        long_runs = all(r and s.n / r >= 10 for s, r in zip(read, runs, strict=True))
        if long_runs and lag_min >= _LAG_STRONG:
            severity, confidence = "high", 0.8 if time_col or lag_min >= 0.7 else 0.7
        elif time_col and lag_min >= 0.6:
            severity, confidence = "high", 0.7
        else:
            continue  # alike neighbours alone may be a sort order (rows sorted by a covariate)
        n_total = sum(s.n for s in read)
        n_eff = sum(s.n * (1 - s.lag1) / (1 + s.lag1) for s in read if s.lag1 is not None)
        test = full.rsplit(".", 1)[-1]
        lags = ", ".join(f"{s.lag1:.2f}" for s in read if s.lag1 is not None)
        block_txt = (f"; the rows of each group come in only {blocks} contiguous stretches "
                     f"(about {n_total / blocks:.0f} consecutive rows each), so the grouping "
                     "is a property of whole periods, not of single rows"
                     if long_runs and blocks else "")
        time_txt = f" (time axis: `{time_col}`)" if time_col else ""
        yield Finding(
            explanation=(f"`{test}` (line {call.line}) treats its {n_total} rows as "
                         f"independent, but neighbouring rows are strongly autocorrelated"
                         f"{time_txt}: lag-1 autocorrelation {lags}{block_txt}. With "
                         f"autocorrelation this strong the rows carry the information of "
                         f"about {n_eff:.0f} independent observations at most (and of only "
                         "as many periods as were compared when the effect is per period), "
                         "so the p-value is far too small (pseudoreplication in time)."),
            severity=severity, confidence=confidence,
            evidence={"lines": [call.line],
                      "values": {"n": [s.n for s in read], "lag1": [s.lag1 for s in read],
                                 "runs": runs, "time_column": time_col,
                                 "n_effective_ar1": round(n_eff, 1)}},
            suggestion=_AUTOCORR_FIX,
        )
    yield from _autocorrelated_fits(ev)


_AUTOCORR_FIX = ("Test at the level of the period that carries the label: average the rows "
                 "within each season/year/episode and compare those means "
                 "(`df.groupby(['season', 'phase'])['y'].mean()`), or model the serial "
                 "correlation (a regression with HAC/Newey-West errors, `cov_type='HAC'`, or "
                 "a mixed model with a random effect per period).")


def _autocorrelated_fits(ev: Evidence) -> Iterator[Finding]:
    """A formula/array OLS-type fit over time-series rows whose residuals are strongly
    autocorrelated in row order, its p-values read with the default (iid) errors."""
    m = ev.model
    if not _p_values_read(ev):
        return
    for call in m.calls:
        if call.last not in _FORMULA_FITS | {"OLS", "WLS", "GLM"}:
            continue
        fits = _fits_of(m, call)
        if not fits or any(str(f.kwarg_value("cov_type", "")).lower().startswith(
                ("hac", "cluster", "nw")) for f in fits) or _clustered(m, call):
            continue
        if any(kw.arg in ("groups", "re_formula", "vc_formula") for kw in call.node.keywords):
            continue
        results = [t for f in fits for t in f.targets]
        facts = next((ev.objects[t] for t in results if t in ev.objects
                      and isinstance(ev.objects[t].params, dict)
                      and "resid_lag1" in ev.objects[t].params), None)
        if facts is None:
            continue
        lag, nobs = facts.params["resid_lag1"], facts.params.get("nobs", 0)
        if not isinstance(lag, int | float) or lag < 0.6 or nobs < 2 * _MIN_ROWS:
            continue
        data = call.kwarg("data") or (call.arg(1) if call.last in _FORMULA_FITS else None)
        args = [data] if data is not None else list(call.node.args)
        cache: dict[int, str | None] = {}
        if any(_source_frame(ev, a, cache)[0] is not None for a in args):
            continue  # a unit column: repeated_units reports it
        time_col = _time_column(_frames_behind(ev, args))
        if time_col is None:
            continue
        n_eff = nobs * (1 - lag) / (1 + lag)
        yield Finding(
            explanation=(f"`{call.last}` (line {call.line}) is fitted on {nobs} rows of a time "
                         f"series (time axis: `{time_col}`) whose residuals have lag-1 "
                         f"autocorrelation {lag:.2f}: neighbouring rows are not independent, "
                         f"so the default standard errors and p-values count {nobs} rows "
                         f"where there are about {n_eff:.0f} independent observations at "
                         "most, and far fewer when the predictor is a property of whole "
                         "periods (pseudoreplication in time)."),
            severity="high", confidence=0.75 if lag >= 0.8 else 0.7,
            evidence={"lines": [call.line],
                      "values": {"nobs": nobs, "resid_lag1": lag, "time_column": time_col,
                                 "n_effective_ar1": round(n_eff, 1)}},
            suggestion=_AUTOCORR_FIX)


# -- a treatment assigned to whole clusters, tested over their members ----------------------------

_ID_LABEL = re.compile(r"^[A-Za-z][A-Za-z_ -]{0,12}[_ -]?\d{1,4}$")  # ST01, H3, plate_4, cage 12


# administrative codes of geographic or institutional units (`county_fips`, `geoid`,
# `state_fips`, `tract_geoid`): the unit, under its official code
_AREA_CODE = re.compile(
    r"(?i)^(?:(?:county|state|tract|district|city|place|municipality|region|school|"
    r"hospital|facility|plant|store|site|msa|cbsa|puma|block_?group)_?)?"
    r"(?:fips|geoid|cbsa|msa|puma|nces|ipeds|unitid|ccn|npi)(?:_?(?:id|code|no))?$")
# the period axis of a panel: units observed once per month, week, wave…
_PERIOD_COLUMN = re.compile(
    r"(?i)^(?:quarter|qtr|wave|round|visit|session|cycle|fy|fiscal_year|fiscal_month|"
    r"yearmonth|year_month|ym|yyyymm|month_start|week_start|period_start|survey_year|"
    r"survey_wave|calendar_month|month_year)$")
_DATE_LABEL = re.compile(
    r"(?i)^(?:\d{4}(?:[-/.]?(?:\d{1,2}|q[1-4]|w\d{1,2}))?(?:[-/.]\d{1,2})?(?:[ t]\S+)?|"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*(?:[ -]?\d{2,4})?)$")


def _cluster_named(col: str) -> bool:
    return bool(_GROUP_NAME.match(col) or _CLUSTER_ID.match(col) or _UNIT_ID.match(col)
                or _OBJECT_UNIT.match(col) or _AREA_CODE.match(col))


# what follows a group word in the name of a column that describes the group rather than
# naming it (`school_size`, `farm_area`, `site_mean`): not an identifier
_ATTRIBUTE_SUFFIX = re.compile(
    r"(?i)^(?:size|type|kind|class|area|mean|avg|average|total|sum|count|n|pop|rank|score|"
    r"rate|year|age|level|grade|group|cat|category|status|region|effect|weight|wt|lat|lon|"
    r"lng|x|y|z|min|max|sd|std|var|pct|share|prop|ratio|fee|cost|budget|enrol\w*|"
    r"staff|beds|capacity|volume|depth|len|length|width|height|temp)$")


def _coded_group(f: ObjectFacts, col: str) -> bool:
    """A group named by its official code: a group word and a short code suffix
    (`school_urn`, `hospital_ods`, `farm_cph`) whose values the kernel shows are identifier
    codes, not measurements: integers with at least four digits scattered over a range ten
    times wider than their number of distinct values, or text labels read as ids."""
    head, _, tail = col.partition("_")
    if not tail or len(tail) > 7 or not tail.isalnum() or _ATTRIBUTE_SUFFIX.match(tail) or \
            not (_GROUP_NAME.match(head) or _CLUSTER_ID.match(head)):
        return False
    k = f.unique.get(col, 0)
    span = f.ranges.get(col)
    if f.dtypes.get(col, "").startswith(("int", "uint", "Int", "UInt")) and span and \
            len(span) == 2 and k >= 3:
        lo, hi = span
        return lo >= 1000 and hi - lo + 1 >= 10 * k
    return _id_labels(f, col)


def _panel_period(f: ObjectFacts, a: str, nest: dict[str, Any], compared: Iterable[str]
                  ) -> tuple[str, int] | None:
    """(period column, periods) when the levels of `a` are the units of a balanced panel:
    every `a` level has exactly T rows (kernel `nesting` min_rows = rows / levels) and a
    time axis of the frame (a datetime/period column, a column named like a month, week or
    wave, or one whose level labels read as dates: `2018-07`, `2019Q1`) has exactly T
    distinct values, T >= 3: each unit observed once per period, whatever its column is
    called (`51001`, `county_fips`)."""
    k, rows, low = nest.get("levels", 0), nest.get("rows", 0), nest.get("min_rows", 0)
    if k < 4 or not rows or rows % k or low != rows // k or low < 3:
        return None
    per = rows // k
    compared = set(compared)
    for t, dtype in f.dtypes.items():
        if t == a or t in compared or f.unique.get(t) != per:
            continue
        labels = list(f.levels.get(t, {}))
        if "datetime" in dtype or "period" in dtype or _TIME_COLUMN.search(t) or \
                _PERIOD_COLUMN.match(t) or (
                    len(labels) >= 3 and all(_DATE_LABEL.match(str(x)) for x in labels)):
            return t, per
    return None


def _id_labels(f: ObjectFacts, col: str, nested: list[str] | tuple[str, ...] = ()) -> bool:
    """Text levels that read as identifiers of units (`ST01`…`ST10`, `H3`): one shared
    letter prefix followed by numbers, or, for a column nested in `nested`, that column's
    level followed by a number (`PVA-0`…`PVA-4`, `EVA-0`…: the units numbered within each
    treatment, their ids built from it)."""
    labels = list(f.levels.get(col, {}))
    if len(labels) >= 4 and any(_numbered_within(f, labels, b) for b in nested):
        return True
    if len(labels) < 3 or not all(_ID_LABEL.match(x) for x in labels):
        return False
    prefixes = {re.sub(r"[\d\s_-]+$", "", x) for x in labels}
    if len(prefixes) == 1:
        return True
    for b in nested:
        outer = {str(v).lower() for v in f.levels.get(b, {})}
        if len(prefixes) >= 2 and outer and {x.lower() for x in prefixes} <= outer and \
                len(labels) >= 2 * len(prefixes):
            return True  # several numbered units per level, each id naming its level
    return False


# `<outer level><sep><short tag><number>`: `L2305-A/P3`, `plate4_w12`, `ctrl.rep2`, `A:3`
_WITHIN_SUFFIX = re.compile(r"^[/_.: |#-]+([A-Za-z]{0,5})[ _-]?(\d{1,3})$")


def _numbered_within(f: ObjectFacts, labels: list[str], b: str) -> bool:
    """Hierarchical ids: every label is a level of `b` (the column it nests in) followed by
    a separator and a number counted within that level (`L2305-A/P1`…`P6`, `ctrl_rep1`…),
    one tag throughout, at least two per level and each level's numbers consecutive from
    0 or 1. Units numbered within their treatment or lot, not cells of a design (doses
    10/20/50 would not count up from 1)."""
    outer = sorted((str(v) for v in f.levels.get(b, {})), key=len, reverse=True)
    if not outer:
        return False
    tags: set[str] = set()
    numbers: dict[str, list[int]] = {}
    for x in map(str, labels):
        o = next((o for o in outer if x.startswith(o)), None)
        hit = _WITHIN_SUFFIX.match(x[len(o):]) if o else None
        if o is None or hit is None:
            return False
        tags.add(hit.group(1).lower())
        numbers.setdefault(o, []).append(int(hit.group(2)))
    if len(tags) != 1:
        return False
    return all(len(ns) >= 2 and sorted(ns) == list(range(min(ns), min(ns) + len(ns)))
               and min(ns) in (0, 1) for ns in numbers.values())


def _abbreviated_ids(f: ObjectFacts, col: str, nested: list[str]) -> bool:
    """Ids led by an abbreviation of the level of a column they nest in (`RES-T1`… for
    restored, `REF-T1`… for reference): each prefix's leading letters start exactly one
    distinct level, several numbered ids per level."""
    labels = [str(x) for x in f.levels.get(col, {})]
    if len(labels) < 3 or not all(_ID_LABEL.match(x) for x in labels):
        return False
    prefixes = {re.sub(r"[\d\s_-]+$", "", x) for x in labels}
    heads = {re.match(r"[a-z]*", x.lower()).group(0) for x in prefixes}
    for b in nested:
        outer = {str(v).lower() for v in f.levels.get(b, {})}
        hit = [[o for o in outer if len(h) >= 2 and o.startswith(h)] for h in heads]
        if len(prefixes) >= 2 and len(heads) == len(prefixes) and outer and \
                all(len(o) == 1 for o in hit) and len({o[0] for o in hit}) == len(hit) and \
                len(labels) >= 2 * len(prefixes):
            return True
    return False


# an identifier column of any entity (`manager_id`, `agentId`, `vendor_no`, `courier_key`):
# its head is not a treatment, category or period word (`treatment_id`, `group_id`,
# `grade_id`, `year_id` name the compared factor's levels or the time axis, not a unit)
_GENERIC_ID = re.compile(
    r"^(?P<head>[A-Za-z][A-Za-z0-9]*?(?:_[A-Za-z0-9]+)*?)"
    r"(?:_(?:id|ID|Id|no|num|number|key|uid)|Id|ID)$")
_NOT_UNIT_HEAD = re.compile(
    r"(?i)(?:^|_)(?:treatment|treat|trt|arm|condition|cond|group|grp|dose|level|factor|"
    r"variant|version|cell|combo|combination|stratum|strata|type|kind|class|cat|category|"
    r"status|grade|size|rank|tier|segment|band|bucket|bin|scenario|protocol|regime|"
    r"year|month|week|day|date|period|quarter|qtr|time|wave|round|hour|step|season|"
    r"phase|epoch|fy)$")
_GENERIC_ID_MIN = 6  # entities behind a generic id column before it counts as the unit


def _generic_id(f: ObjectFacts, a: str, nest: dict[str, Any], split: list[str]) -> list[str]:
    """The compared columns `split` that a generic identifier column `a` (`manager_id`,
    `agentId`) clusters: `a` is named `<entity>_id`/`<entity>Id` for an entity that is not
    a treatment, category or period, holds text or integer codes of at least 6 entities,
    and has at least twice as many levels as the compared column (not a relabelling of its
    levels). The name says `a` is an identifier, the kernel's nesting that the compared
    factor was applied to whole entities."""
    match = _GENERIC_ID.match(a)
    if match is None or _NOT_UNIT_HEAD.search(match.group("head")):
        return []
    dtype = f.dtypes.get(a, "")
    if _is_float(dtype) or dtype.startswith("bool"):
        return []
    k = nest.get("levels", 0)
    if k < _GENERIC_ID_MIN:
        return []
    return [b for b in split if k >= 2 * nest.get("within", {}).get(b, k)]


def _nested_clusters(f: ObjectFacts, compared: Iterable[str], skip: Callable[[str], bool]
                     ) -> Iterator[tuple[str, list[str], int, int, float, bool, dict[str, Any]]]:
    """Columns `a` of frame `f` that one of the `compared` columns is constant within (kernel
    `nesting`), with at least 3 levels and 3 rows per level, named like a unit, labelled
    like unit ids or the units of a balanced panel (`_panel_period`): (a, the compared
    columns it nests in, levels, rows, rows per level, named like a unit — None when only
    the panel's shape says so —, its nesting fact)."""
    compared = set(compared)
    for a, nest in f.nesting.items():
        if not isinstance(nest, dict) or skip(a):
            continue
        split = [b for b in nest.get("within", {}) if b in compared]
        k, rows = nest.get("levels", 0), nest.get("rows", 0)
        if not split or k < 3 or not rows:
            continue
        named, labels = _cluster_named(a) or _coded_group(f, a), _id_labels(f, a, split)
        if not (named or labels):
            if generic := _generic_id(f, a, nest, split):
                split, named = generic, False  # an entity's id column, as labels read as ids
            elif _panel_period(f, a, nest, split) is None and \
                    not _abbreviated_ids(f, a, split):
                continue
            else:
                named = None  # only the panel's shape or an id spelling says `a` is a unit
        per = rows / k
        if per < 3 or nest.get("min_rows", 0) < 2:
            continue
        yield a, split, k, rows, per, named, nest


def _split_columns(nodes: list[ast.AST], f: ObjectFacts) -> set[str]:
    """Columns of `f` the rows are split by on the way to a test or fit: groupby keys
    (`for sp, d in df.groupby("species")`) and equality filters (`df[df.species == sp]`)."""
    out: set[str] = set()
    for node in nodes:
        for n in _walk(node):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and \
                    n.func.attr == "groupby":
                keys = list(n.args[:1]) + [k.value for k in n.keywords if k.arg == "by"]
                out |= _mentioned(keys, f.dtypes)
            elif isinstance(n, ast.Call) and (called_name(n) or "").rsplit(".", 1)[-1] in (
                    "unique", "drop_duplicates"):
                # `for c in df.crop.unique()`: the rows taken one level of `crop` at a time
                target = n.func.value if isinstance(n.func, ast.Attribute) and not n.args \
                    else (n.args[0] if n.args else None)
                if target is not None:
                    out |= _mentioned([target], f.dtypes)
            elif isinstance(n, ast.Compare) and len(n.ops) == 1 and \
                    isinstance(n.ops[0], ast.Eq | ast.In):
                out |= {c for c in _mentioned([n.left, *n.comparators], f.dtypes)
                        if not any(isinstance(x, ast.Constant) and x.value == c
                                   for x in [n.left, *n.comparators])}
    return out


def _rows_per_subset(f: ObjectFacts, a: str, nest: dict[str, Any], per: float,
                     split: set[str]) -> float:
    """Rows per `a` level within one subset of the rows split by the `split` columns that
    cross `a` (neither holds whole `a` levels nor is nested in `a`): a model or test per
    species over stations counts each station once or so, not once per species."""
    for g in split:
        k = f.unique.get(g, 0)
        if g == a or k < 2 or g in nest.get("within", {}) or \
                a in (f.nesting.get(g) or {}).get("within", {}):
            continue
        per /= k
    return per


def _sample_sources(ev: Evidence, call: CallSite, args: list[ast.expr],
                    through_tables: bool = False) -> tuple[list[ast.AST], list[str]]:
    """The expressions the test's samples are computed from (the arguments, the values
    assigned to the names they read, what was appended to them, and the iterables of the
    loops around those), and the names reached; with `through_tables`, frames without
    nesting facts (a crosstab of counts) are followed to the rows they count."""
    from ._columns import loops_around

    m = ev.model

    # the cell's functions, in walk order (within a review, from the tree's index rather than
    # a fresh walk of the whole tree for every test call)
    defs = {d.name: d for d in nodes_of(ev.tree, ast.FunctionDef)} \
        if ev.tree is not None else {}

    def appended(name: str) -> list[ast.AST]:
        # samples.append(g.y) inside a loop over df.groupby("arm")
        found: list[ast.AST] = []
        if name in defs:  # a helper of the cell: `arm(df, "a")` returns df.loc[df.g == name]
            found += [r.value for r in _walk(defs[name])
                      if isinstance(r, ast.Return) and r.value is not None]
        for c in m.calls:
            if c.method in ("append", "extend") and c.receiver_root == name:
                found += list(c.node.args) + [it for _, it in loops_around(ev, c.node)]
        return found

    nodes: list[ast.AST] = list(args) + [it for _, it in loops_around(ev, call.node)]
    # stop at the nearest frame the rows come from
    def stop(name: str) -> bool:
        f = _frame_facts(ev, name)
        return f is not None and (not through_tables or bool(f.nesting))

    return _trace(m, nodes, stop=stop, more=appended, keep=set(defs))


def _trace(m: CodeModel, nodes: list[ast.AST], stop: Callable[[str], bool] | None = None,
           more: Callable[[str], list[ast.AST]] | None = None,
           keep: set[str] | frozenset[str] = frozenset()
           ) -> tuple[list[ast.AST], list[str]]:
    """`nodes` and every value assigned to the names they read, transitively (at most 60
    expressions; names where `stop` holds are not followed, `more` adds expressions per
    name, imported names are skipped unless in `keep`), and the names reached."""
    seen: set[str] = set()
    names: list[str] = []
    i = 0
    while i < len(nodes) and len(nodes) < 60:
        node = nodes[i]
        i += 1
        for n in _walk(node):
            if not isinstance(n, ast.Name) or n.id in seen or (
                    n.id in m.aliases and n.id not in keep):
                continue
            seen.add(n.id)
            names.append(n.id)
            if stop is not None and stop(n.id):
                continue
            nodes += [a.value for a in m.assigned_at(n.id) if a.value is not None]
            if more is not None:
                nodes += more(n.id)
    return nodes, names


def _mentioned(nodes: list[ast.AST], columns: dict[str, str]) -> set[str]:
    out: set[str] = set()
    for node in nodes:
        for n in _walk(node):
            if isinstance(n, ast.Attribute) and n.attr in columns:
                out.add(n.attr)
            elif isinstance(n, ast.Constant) and isinstance(n.value, str):
                out |= {s for s in [n.value, *re.findall(r"\w+", n.value)] if s in columns}
    return out


# tests of counts: chi-square / exact tests of a contingency table, z-tests of proportions
_COUNT_KINDS = ("contingency", "proportion")
_PAIRED_COUNTS = ("mcnemar", "cochrans_q")


def _counting_tests(ev: Evidence) -> list[tuple[CallSite, str, list[ast.expr]]]:
    """Tests of counts computed from rows (`chi2_contingency(pd.crosstab(df.a, df.b))`,
    `fisher_exact(table)`, `proportions_ztest(count, nobs)`), with every argument; paired
    tables (McNemar) are left out."""
    out: list[tuple[CallSite, str, list[ast.expr]]] = []
    for call, full, spec in test_calls(ev.model):
        if spec.kind not in _COUNT_KINDS or full.rsplit(".", 1)[-1] in _PAIRED_COUNTS:
            continue
        args = [a.value if isinstance(a, ast.Starred) else a for a in call.node.args]
        args += [k.value for k in call.node.keywords if k.arg is not None]
        if args:
            out.append((call, full, args))
    return out


def _count_total(ev: Evidence, call: CallSite) -> int | None:
    """The number of rows a test of counts counts, from the kernel's facts: the sum of the
    table (a small frame or Series whose every cell is listed in its `tails`), or of the
    `nobs` of a proportions test."""
    def total(node: ast.AST | None) -> float | None:
        column = None
        while True:  # `tab["n"].to_numpy()`, `np.asarray(tab.n)`, `tab["n"].values`
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr in ("to_numpy", "tolist") and not node.args:
                node = node.func.value
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr in ("asarray", "array") and len(node.args) == 1:
                node = node.args[0]
            elif isinstance(node, ast.Attribute) and node.attr == "values":
                node = node.value
            elif column is None and isinstance(node, ast.Subscript) and \
                    isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
                column, node = node.slice.value, node.value
            elif column is None and isinstance(node, ast.Attribute) and \
                    isinstance(node.value, ast.Name) and (
                        (f := ev.objects.get(node.value.id)) is not None and
                        f.kind == "dataframe" and node.attr in f.dtypes):
                column, node = node.attr, node.value
            else:
                break
        if not isinstance(node, ast.Name):
            return None
        f = ev.objects.get(node.id)
        if f is None:
            return None
        if column is None and f.values and f.kind != "dataframe":
            return float(sum(f.values))
        rows = f.shape[0] if f.shape else f.length
        if not f.tails or not rows or (column is not None and column not in f.tails):
            return None
        out = 0.0
        for name, col in f.tails.items():
            if column is not None and name != column:
                continue
            cells = {v: r for v, r in [*col.get("top", []), *col.get("bottom", [])]}
            if col.get("step", 1) != 1 or sum(cells.values()) != rows:
                return None  # not every cell listed
            out += sum(v * r for v, r in cells.items())
        return out

    node = call.kwarg("nobs") if call.kwarg("nobs") is not None else (
        call.arg(1) if call.last.startswith("proportions_") else None)
    if node is None:
        node = call.arg(0) if call.arg(0) is not None else (
            call.kwarg("observed") or call.kwarg("table"))
    t = total(node)
    return round(t) if t is not None and t > 0 else None


@rule("pseudoreplication.cluster_assigned_treatment",
      title="Groups assigned to whole clusters, compared over the clusters' members")
def cluster_assigned_treatment(ev: Evidence) -> Iterator[Finding]:
    """An independent-samples test (t-test, Mann-Whitney, ANOVA…) comparing the levels of a
    column that is constant within the levels of a grouping column with few levels and many
    rows each: a treatment applied to whole stands, cages, classrooms, ponds or batches,
    tested over the trees, mice, pupils or fish in them. The replicates of the comparison are
    the clusters, not the rows, so the p-value counting rows is far too small. Read from the
    kernel's `nesting` facts of the frame the samples come from (every level of the cluster
    column occurs with one level of the compared column). Critical (0.85) for a cluster
    column named like a unit or group (stand, cage, school, plate…) with >= 5 rows per
    cluster and fewer clusters than half the rows tested; high (0.7) when only its level
    labels read as unit ids (`ST01`…); medium (0.5) when only the frame's shape says the
    column holds units — a balanced panel, each level (`51001`, 3107) observed once per
    month/week/quarter — since plain codes may as well label cells of a design; quiet when
    the cluster column is used on the way (aggregated, grouped, filtered on), the rows were
    reduced to one value per key, or a panel's samples hold no more rows than it has units
    (one period)."""
    if ev.tree is None:
        return
    counting = {id(c.node) for c, _, _ in _counting_tests(ev)}
    for call, full, args in [*_independent_tests(ev), *_counting_tests(ev)]:
        counts = id(call.node) in counting
        plain = [a.value if isinstance(a, ast.Starred) else a for a in args]
        nodes, names = _sample_sources(ev, call, plain, through_tables=counts)
        if not counts and any(_reduced(n) for n in nodes):
            continue  # means per key: the clusters may already be the replicates
        frames = [(n, f) for n in names if (f := _frame_facts(ev, n)) is not None]
        ns = [s.n for s in ev.samples if s.line == call.line and s.call == full]
        total = _count_total(ev, call) if counts else None
        if counts:
            ns = []  # the samples of a test of counts are its tables, not rows
        elif not ns:  # `ttest_ind(*samples)`: the collection's members, read by name
            packed = {a.value.id for a in args if isinstance(a, ast.Starred)
                      and isinstance(a.value, ast.Name)}
            ns = [s.n for s in ev.samples if s.line == 0 and s.expr.split("[", 1)[0] in packed]
        best = None
        for frame, f in frames:
            if not f.nesting or _unit_column(f) is not None:
                continue  # a subject-like column: repeated_units reports it
            used = _mentioned(nodes, f.dtypes)
            subsets = _split_columns(nodes, f)
            for a, split, k, rows, per, named, nest in _nested_clusters(
                    f, used, used.__contains__):
                per = _rows_per_subset(f, a, nest, per, subsets)
                if per < 2:
                    continue  # about one row per cluster in each subset tested
                tested = sum(ns) if ns else total
                clusters = round(tested / per) if tested else k
                clusters = min(k, clusters) if counts else clusters
                panel = _panel_period(f, a, nest, used)
                if panel is not None and tested is not None and tested <= k:
                    continue  # no more rows than panel units: one period each, at most
                if counts and (named is None or (tested is not None and tested < 2 * k)):
                    continue  # counts of about one row per cluster, or plain codes
                if named and per >= 5 and tested is not None and clusters <= tested / 2:
                    sev, conf = "critical", 0.85
                elif named is None:
                    # a balanced grid of plain numbers or codes x periods: the codes may be
                    # the units the treatment was assigned to, or mere labels of cells
                    sev, conf = "medium", 0.5
                else:
                    sev, conf = "high", 0.7 if tested is not None else 0.6
                cand = (sev == "critical", conf, frame, a, split[0], k, rows, per, clusters,
                        sev, panel)
                if best is None or cand[:2] > best[:2]:
                    best = cand
        if best is None:
            continue
        _, conf, frame, a, b, k, rows, per, clusters, sev, panel = best
        test = full.rsplit(".", 1)[-1]
        n_txt = (f"n = {', '.join(map(str, ns))} rows" if ns else
                 f"the counts of its {total} rows" if total else
                 "counts of its rows" if id(call.node) in counting else "its rows")
        panel_txt = (f" (a panel: each `{a}` observed once per `{panel[0]}`, {panel[1]} "
                     "periods)" if panel is not None else "")
        yield Finding(
            explanation=(f"`{test}` (line {call.line}) compares the `{b}` groups of `{frame}` "
                         f"with {n_txt} as replicates, but `{b}` is constant within each of "
                         f"the {k} `{a}` levels ({rows} rows, about {per:.0f} per `{a}`"
                         f"{panel_txt}): "
                         f"`{b}` was applied to or observed on whole `{a}` units, so the "
                         f"comparison has about {clusters} independent replicates, not "
                         f"{sum(ns) if ns else total or rows}. Rows of one `{a}` share its "
                         "conditions, "
                         "so the p-value counting rows is far too small (pseudoreplication)."),
            severity=sev, confidence=conf,
            evidence={"lines": [call.line],
                      "values": {"frame": frame, "compared_column": b, "cluster_column": a,
                                 "clusters": k, "rows": rows, "n_per_sample": ns}},
            suggestion=(f"Test at the level `{b}` was assigned: compute one rate or count "
                        f"per `{a}` (`{frame}.groupby(['{a}', '{b}'])[outcome].mean()`) and "
                        f"compare those {k} per-`{a}` rates between the `{b}` groups "
                        "(Welch t-test or Mann-Whitney), or model the rows with the clusters "
                        f"(a logistic GEE or mixed model with groups=`{a}`, or a cluster-"
                        "adjusted Rao-Scott chi-square)."
                        if id(call.node) in counting else
                        f"Test at the level `{b}` was assigned: average to one value per "
                        f"`{a}` (`{frame}.groupby(['{a}', '{b}'], as_index=False).mean("
                        f"numeric_only=True)`) and compare those {k} means, or keep the rows "
                        f"and model the clusters (`smf.mixedlm('y ~ {b}', {frame}, "
                        f"groups={frame}['{a}'])`, or OLS with `cov_type='cluster'` by "
                        f"`{a}`)."))


# -- a factor assigned to whole clusters, modelled over the clusters' rows ------------------------

# array-API model classes (`sm.OLS(y, X)`) and their fits
_ARRAY_FITS = {"OLS", "WLS", "GLS", "GLM", "Logit", "Probit", "Poisson", "NegativeBinomial",
               "RLM", "QuantReg"}
_PINGOUIN_FITS = {"anova", "welch_anova", "ancova", "kruskal"}
_INFERENCE = (".pvalues", "summary", "anova_lm", ".f_pvalue", "conf_int", ".bse", ".tvalues",
              "t_test", "f_test", "wald_test", "p-unc", "PR(>F)", "p_values")
_CLUSTER_MODELS = ("mixedlm", "gee", "MixedLM", "GEE", "BinomialBayesMixedGLM")


def _model_sites(ev: Evidence) -> list[tuple[CallSite, str, list[ast.expr], set[str] | None,
                                             set[str], bool]]:
    """Model fits over a frame's rows: (call, kind, data expressions, predictor columns
    named in a formula or `between=` (None: read from the design matrix's sources),
    columns named anywhere in the model, whether the fit is a test in itself)."""
    m = ev.model
    out: list[tuple[CallSite, str, list[ast.expr], set[str] | None, set[str], bool]] = []
    for call in m.calls:
        name = call.name or ""
        if call.last in _FORMULA_FITS and name.startswith("statsmodels.formula"):
            formula = _formula_terms(call)
            data = call.kwarg("data") or call.arg(1)
            if formula and data is not None:
                lhs, rhs = _formula_sides(formula)
                out.append((call, "formula", [data], rhs, lhs | rhs, False))
        elif call.last in _PINGOUIN_FITS and (name.startswith("pingouin.") or (
                call.method in _PINGOUIN_FITS and call.has_kwarg("between"))):
            data = call.kwarg("data") or call.receiver
            between = call.kwarg("between")
            if data is None or between is None:
                continue
            rhs = set(_string_constants(between))
            cov = call.kwarg("covar")
            rhs |= set(_string_constants(cov)) if cov is not None else set()
            dv = call.kwarg("dv")
            used = rhs | (set(_string_constants(dv)) if dv is not None else set())
            out.append((call, "pingouin", [data], rhs, used, True))
        elif call.last in _ARRAY_FITS and name.startswith("statsmodels.") and \
                call.method != "fit":
            endog, exog = call.arg(0, "endog"), call.arg(1, "exog")
            if endog is not None and exog is not None:
                out.append((call, "array", [endog, exog], None, set(), False))
    return out


def _expr_sources(m: CodeModel, args: list[ast.expr]) -> tuple[list[ast.AST], list[str]]:
    """The expressions `args` are computed from, through every assignment of the names they
    read (design matrices built from a frame's columns), and the names reached."""
    return _trace(m, list(args))


def _outside_model(ev: Evidence, call: CallSite, col: str, f: ObjectFacts) -> bool:
    """Whether the cell names `col` or one of its levels somewhere other than the model call
    itself: the coefficient read (`params.filter(like="strain")`, `pvalues["C(strain)[T.b]"]`)
    or an indicator built for it (`(df.strain == "WLP001").astype(float)`)."""
    inside = {id(n) for n in _walk(call.node)}
    words = [col] + [str(v) for v in f.levels.get(col, {}) if len(str(v)) >= 2]
    for n in _walk(ev.tree):
        if id(n) in inside:
            continue
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and any(
                _mentions(n.value, w) for w in words):
            return True
    return False


def _accounts_for(ev: Evidence, call: CallSite, cluster: str) -> bool:
    """The fit, its `.fit(...)`, or another model of the cell handles the cluster column:
    `groups=`/`cov_kwds` naming it, a mixed model or GEE in the same cell."""
    m = ev.model
    for node in [call.node, *(f.node for f in _fits_of(m, call))]:
        if any(_mentions(_src(ev, kw.value), cluster) for kw in node.keywords):
            return True
    return any(c.last in _CLUSTER_MODELS for c in m.calls)


def _interactions(formula: str, columns: dict[str, str]) -> list[tuple[str, str]]:
    """Pairs of frame columns crossed in a formula's terms (`a * b`, `a:b`, `C(a):C(b)`)."""
    _, _, rhs = formula.partition("~")
    out: list[tuple[str, str]] = []
    for term in rhs.split("+"):
        if ":" not in term and "*" not in term:
            continue
        names = list(dict.fromkeys(n for n in re.findall(r"[A-Za-z_]\w*", term) if n in columns))
        out += [(x, y) for i, x in enumerate(names) for y in names[i + 1:]]
    return out


def _within_interaction(f: ObjectFacts, a: str, inter: list[tuple[str, str]]
                        ) -> tuple[str, str] | None:
    """(factor constant within the `a` clusters, factor varying within them over time) of a
    crossed pair of the formula: the difference-in-differences term the clusters replicate.
    The varying factor must be a time axis of the units — named like one (`post`, `after`,
    `period`, `week`) or the frame a balanced panel of `a` over a dated column — so a
    split-plot interaction (whole-plot factor x sub-plot factor, plots as fixed effects),
    tested correctly against the within-plot error, stays quiet."""
    nest = f.nesting.get(a) or {}
    within = nest.get("within", {})
    for x, y in inter:
        for u, v in ((x, y), (y, x)):
            if u in within and v not in within and v != a and f.unique.get(v, 0) >= 2 and (
                    _is_time_name(v) or _TIME_COLUMN.search(v) or _PERIOD_COLUMN.match(v)
                    or _panel_period(f, a, nest, (u, v)) is not None):
                return u, v
    return None


def _did_finding(call: CallSite, frame: str, a: str, b: str, t: str, k: int, rows: int,
                 per: float, kb: int, sev: str, conf: float) -> Finding:
    term = f"{b}:{t}"
    return Finding(
        explanation=(f"`{call.last}` (line {call.line}) estimates the `{term}` interaction "
                     f"(a difference in differences) from the {rows} rows of `{frame}` with "
                     f"ordinary i.i.d. errors, but `{b}` is constant within each of the {k} "
                     f"`{a}` levels (about {per:.0f} rows each; {kb} `{b}` groups): the "
                     f"effect is replicated by {k} `{a}` units, not {rows} rows. The `{a}` "
                     f"fixed effects remove each unit's level, not the shocks its rows share "
                     f"over `{t}` (serial correlation within a unit), so the standard error, "
                     f"p-value and confidence interval of `{term}` are too small "
                     "(Bertrand, Duflo & Mullainathan 2004)."),
        severity=sev, confidence=conf,
        evidence={"lines": [call.line],
                  "values": {"frame": frame, "compared_column": b, "interaction": term,
                             "cluster_column": a, "clusters": k, "rows": rows,
                             "rows_per_cluster": round(per, 1)}},
        suggestion=(f"Cluster the standard errors on the unit `{b}` was assigned to: "
                    f"`.fit(cov_type='cluster', cov_kwds={{'groups': "
                    f"pd.factorize({frame}['{a}'])[0]}})` (with {k} clusters, also check "
                    f"a wild-cluster bootstrap), or collapse to one pre and one post mean per "
                    f"`{a}` and compare the {k} changes."))


def _one_column(node: ast.AST, columns: dict[str, str]) -> str | None:
    """The single frame column an interaction factor reads: `df.post`, `df["post"]`,
    `(df.post == 1)`, `df.post.astype(int)`."""
    cols = _mentioned([node], columns)
    return next(iter(cols)) if len(cols) == 1 else None


def _product_factors(value: ast.AST, columns: dict[str, str]) -> tuple[str, str] | None:
    """(u, v) for a column computed as the product of two others: `df.treated * df.post`,
    `(df.treated == 1) & (df.post == 1)`, `df.treated.mul(df.post)`, `np.logical_and(…)`,
    with an `.astype(int)` around it."""
    for _ in range(3):
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and \
                value.func.attr in ("astype", "copy") and len(value.args) <= 1:
            value = value.func.value
    parts: list[ast.AST] = []
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult | ast.BitAnd):
        parts = [value.left, value.right]
    elif isinstance(value, ast.Call) and len(value.args) >= 1 and (
            isinstance(value.func, ast.Attribute)):
        if value.func.attr == "mul" and len(value.args) == 1:
            parts = [value.func.value, value.args[0]]
        elif value.func.attr in ("logical_and", "multiply") and len(value.args) == 2:
            parts = list(value.args)
    if len(parts) != 2:
        return None
    u, v = (_one_column(x, columns) for x in parts)
    return (u, v) if u and v and u != v else None


def _precomputed_interactions(ev: Evidence, columns: dict[str, str], preds: set[str]
                              ) -> dict[str, tuple[str, str]]:
    """Predictors computed as the product of two other columns (a difference-in-differences
    indicator built by hand: `df["did"] = df.treated * df.post`, `.assign(did=…)`), in the
    cell or at the top level of an earlier cell."""
    out: dict[str, tuple[str, str]] = {}
    want = {p for p in preds if p in ev.code or p in ev.prior_code}
    if not want:
        return out
    m = ev.model
    stmts: list[ast.AST] = [a.stmt for a in m.assignments]
    if any(f'"{p}"' in ev.prior_code or f"'{p}'" in ev.prior_code for p in want):
        stmts += [st for st in m._prior_tree.body if isinstance(st, ast.Assign)]
    for st in stmts:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and \
                isinstance(st.targets[0], ast.Subscript):
            sl = st.targets[0].slice
            if isinstance(sl, ast.Constant) and sl.value in want:
                pair = _product_factors(st.value, columns)
                if pair:
                    out[sl.value] = pair
    for c in m.calls:
        if c.method == "assign":
            for kw in c.node.keywords:
                if kw.arg in want:
                    v = kw.value.body if isinstance(kw.value, ast.Lambda) else kw.value
                    pair = _product_factors(v, columns)
                    if pair:
                        out[kw.arg] = pair
    return out


def _helper_frames(ev: Evidence, call: CallSite, names: list[str]) -> list[str]:
    """The frames passed to the cell's helper function whose parameter the model is fitted
    on (`def did(d): return smf.ols(…, data=d).fit()`; `did(panel)`)."""
    if call.function is None or ev.tree is None:
        return []
    fn = next((st for st in ev.tree.body if isinstance(st, ast.FunctionDef)
               and st.name == call.function), None)
    if fn is None:
        return []
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    idx = [params.index(n) for n in names if n in params]
    out: list[str] = []
    for c in ev.model.calls:
        if c.method is None and isinstance(c.node.func, ast.Name) and \
                c.node.func.id == fn.name:
            for i in idx:
                a = c.node.args[i] if i < len(c.node.args) else next(
                    (k.value for k in c.node.keywords if k.arg == params[i]), None)
                if isinstance(a, ast.Name) and _frame_facts(ev, a.id) is not None:
                    out.append(a.id)
    return out


@rule("pseudoreplication.cluster_assigned_model",
      title="A factor constant within clusters, modelled over the clusters' rows")
def cluster_assigned_model(ev: Evidence) -> Iterator[Finding]:
    """A regression or ANOVA (`smf.ols`/`glm`/`logit` formulas, `sm.OLS(y, X)` on dummies,
    `anova_lm`, `pingouin.anova(between=…)`) over the rows of a frame whose predictor is
    constant within the levels of a grouping column with several rows each: repeat readings
    of one batch, sub-samples of one pond, pupils of one classroom, entered as independent
    rows. The predictor has as many independent replicates as there are clusters, so its
    p-value and CI are far too small. Read from the kernel's `nesting` facts of the data
    frame (every level of the cluster column occurs with one level of the predictor).
    Critical (0.85) when p-values/intervals are read, the cluster column is named like a
    group or unit (batch, pond, plate, school…) with >= 3 rows per cluster, and the nested
    predictor is the model's only one or its coefficient is read by name; high (0.7) when
    only the cluster labels read as ids or its name is a generic entity id (`manager_id`,
    `agentId`: `_generic_id`), or other predictors are constant within clusters
    too; medium (0.5) without inference, when a predictor varying within the clusters may
    be the one of interest, or when only a balanced panel's shape says the cluster column
    holds units (plain codes observed once per period). Quiet with the cluster in the
    model, `groups=`, cluster-robust errors, a mixed model / GEE in the cell, or one row per
    cluster."""
    yield from _cluster_model_findings(ev)


# residual lag-1 correlation of a fit over rows stored unit by unit: the repeats of a unit
# are strongly alike (e.g. r = 0.66 for 5 waves per respondent with a person ICC of ~0.8)
_RESID_LAG_HIGH = 0.5


def _resid_lag1(ev: Evidence, m: CodeModel, call: CallSite) -> float | None:
    """The kernel's lag-1 autocorrelation of the residuals of the fit `call` builds."""
    for fit in _fits_of(m, call):
        for t in fit.targets:
            facts = ev.objects.get(t)
            lag = facts.params.get("resid_lag1") if facts is not None and isinstance(
                facts.params, dict) else None
            if isinstance(lag, int | float):
                return float(lag)
    return None


def _cluster_model_findings(ev: Evidence) -> Iterator[Finding]:
    if ev.tree is None:
        return
    m = ev.model
    inference = any(s in ev.code for s in _INFERENCE)
    seen: set[int] = set()
    for call, kind, data, predictors, used, is_test in _model_sites(ev):
        if call.line in seen or call.kwarg("groups") is not None or _clustered(m, call):
            continue
        if kind == "array":  # through the design matrix to the frame its rows come from
            nodes, names = _expr_sources(m, data)
            x_nodes, _ = _expr_sources(m, data[1:])
        else:
            nodes, names = _sample_sources(ev, call, data)
        if any(_reduced(n) for n in nodes):
            continue  # means per key: the clusters may already be the rows
        lag = _resid_lag1(ev, m, call)
        frames = [(n, f) for n in names if (f := _frame_facts(ev, n)) is not None]
        if not frames:  # fitted inside a helper on its parameter: the frames passed to it
            frames = [(n, f) for n in _helper_frames(ev, call, names)
                      if (f := _frame_facts(ev, n)) is not None]
        best = None
        for frame, f in frames:
            if not f.nesting or _unit_column(f) is not None:
                continue  # a subject-like column: repeated_units reports it
            if kind == "array":
                preds = _mentioned(x_nodes, f.dtypes)
                cols = _mentioned(nodes, f.dtypes)
            else:
                preds = {p for p in predictors or () if p in f.dtypes}
                cols = {c for c in used if c in f.dtypes}
            if not preds:
                continue
            subsets = _split_columns(nodes, f)
            inter = _interactions(_formula_terms(call), f.dtypes) if kind == "formula" else []
            # an interaction computed by hand (`did = treated * post`) and entered as a column
            prods = _precomputed_interactions(ev, f.dtypes, preds)
            inter += [uv for uv in prods.values() if uv not in inter]
            # `y ~ did + C(unit) + C(week)`: the hand-built interaction stands for its factors
            preds = preds | {c for uv in prods.values() for c in uv}

            def read_out(x: str, call: CallSite = call, f: ObjectFacts = f,
                         prods: dict[str, tuple[str, str]] = prods) -> bool:
                return _outside_model(ev, call, x, f) or any(
                    x in uv and _outside_model(ev, call, p, f) for p, uv in prods.items())

            def skip(a: str, cols: set[str] = cols, call: CallSite = call,
                     inter: list[tuple[str, str]] = inter, f: ObjectFacts = f) -> bool:
                if _accounts_for(ev, call, a):
                    return True
                # the cluster as fixed effects absorbs a factor constant within it, but not
                # that factor's interaction with one varying within it (difference in
                # differences: `treated:post` with `C(unit)`), which still rests on the
                # clusters: their shocks are shared by all their rows
                return a in cols and not _within_interaction(f, a, inter)

            for a, split, k, rows, per, named, nest in _nested_clusters(f, preds, skip):
                per = _rows_per_subset(f, a, nest, per, subsets)
                if per < 2:
                    continue  # about one row per cluster in each subset fitted
                split = sorted(split)
                b = split[0]
                if a in cols:
                    x, t = _within_interaction(f, a, inter) or (b, "")
                    read = read_out(x)
                    sev, conf = ("high", 0.75) if inference and read and named is not None \
                        else ("medium", 0.5)
                    cand = (False, conf, frame, a, x, k, rows, per,
                            nest["within"].get(x, 0), sev, t)
                    if best is None or cand[:2] > best[:2]:
                        best = cand
                    continue
                interest = len(preds) == 1 or any(read_out(s) for s in split)
                # another predictor that varies within the clusters may be the one of interest
                # (`sales ~ price + C(region)` over store-weeks): the nested one a control
                within = [p for p in preds if p not in nest.get("within", {})]
                if not (inference or is_test) or (not interest and within):
                    sev, conf = "medium", 0.5
                elif named and interest:
                    sev, conf = "critical", 0.85
                elif named is None:  # only the panel's shape says `a` is a unit
                    # unless the fit's residuals show neighbouring rows are not independent
                    sev, conf = ("high", 0.7) if lag is not None and lag >= _RESID_LAG_HIGH \
                        else ("medium", 0.5)
                else:
                    sev, conf = "high", 0.7
                cand = (sev == "critical", conf, frame, a, b, k, rows, per,
                        nest["within"][b], sev, "")
                if best is None or cand[:2] > best[:2]:
                    best = cand
        if best is None:
            continue
        _, conf, frame, a, b, k, rows, per, kb, sev, t = best
        seen.add(call.line)
        test = call.last
        if t:
            yield _did_finding(call, frame, a, b, t, k, rows, per, kb, sev, conf)
            continue
        lag_txt = (f" The fit's residuals of neighbouring rows correlate (lag-1 r = {lag:.2f}): "
                   "the rows are not independent." if lag is not None and
                   lag >= _RESID_LAG_HIGH else "")
        yield Finding(
            explanation=(f"`{test}` (line {call.line}) fits the {rows} rows of `{frame}` as "
                         f"independent observations of `{b}`, but `{b}` is constant within "
                         f"each of the {k} `{a}` levels (about {per:.0f} rows per `{a}`): "
                         f"the {kb} `{b}` groups were applied to or observed on whole `{a}` "
                         f"units, so the `{b}` effect rests on {k} independent replicates, "
                         f"not {rows}. Rows of one `{a}` (repeat readings, sub-samples) share "
                         "its conditions, so the residual degrees of freedom, standard error, "
                         f"p-value and confidence interval of `{b}` are far too small "
                         f"(pseudoreplication).{lag_txt}"),
            severity=sev, confidence=conf,
            evidence={"lines": [call.line],
                      "values": {"frame": frame, "compared_column": b, "cluster_column": a,
                                 "clusters": k, "rows": rows, "rows_per_cluster":
                                 round(per, 1), "resid_lag1": lag}},
            suggestion=(f"Fit at the level `{b}` was assigned: average to one row per `{a}` "
                        f"(`{frame}.groupby(['{a}', '{b}'], as_index=False).mean("
                        f"numeric_only=True)`) and fit on those {k} rows, or keep the rows "
                        f"and model the clusters (`smf.mixedlm('y ~ C({b})', {frame}, "
                        f"groups={frame}['{a}'])`, GEE with `groups='{a}'`, or "
                        f"`.fit(cov_type='cluster', cov_kwds={{'groups': {frame}['{a}']}})`)."))


# -- technical replicates stored in blocks of a bare array, counted as independent -----------

_BLOCK_ICC = 0.9  # share of the variance between blocks: the repeats are near copies
_BLOCK_SHIFT = 0.1  # blocks offset by half a block must lose most of the between variance
_BLOCK_DRIFT = 0.4  # within-block lag-1 of the residuals: exchangeable repeats, not a trend
_BLOCK_STEP = 3.0  # standard errors between neighbouring block means: each block a new unit
_T_TAILS = {"scipy.stats.t.sf", "scipy.stats.t.cdf", "scipy.stats.t.logsf",
            "scipy.stats.t.logcdf", "scipy.stats.t.isf", "scipy.stats.t.ppf"}


def _block_f(values: list[float], m: int) -> float | None:
    """One-way ANOVA F of consecutive blocks of `m` values (inf for exact copies)."""
    n = len(values)
    k = n // m
    if k < 2 or n != k * m:
        return None
    grand = sum(values) / n
    means = [sum(values[i * m:(i + 1) * m]) / m for i in range(k)]
    ssb = m * sum((mu - grand) ** 2 for mu in means)
    ssw = sum((values[i * m + j] - means[i]) ** 2 for i in range(k) for j in range(m))
    if ssb <= 0:
        return 0.0
    return float("inf") if ssw <= 0 else (ssb / (k - 1)) / (ssw / (n - k))


def _replicate_blocks(values: list[float]) -> tuple[int, int, float] | None:
    """(replicates per block, blocks, ICC) when the values come as >= 3 consecutive blocks
    of >= 3 near-copies: the block means explain >= 90 % of the variance (ICC from the
    one-way F), the split is sharp (blocks offset by half a block straddle two units and
    lose >= 90 % of F) and the repeats within a block do not drift (no trend, no sort)."""
    n = len(values)
    best: tuple[int, float] | None = None
    for m in range(3, n // 3 + 1):
        f = _block_f(values, m) if n % m == 0 else None
        if f is not None and (best is None or f > best[1]):
            best = (m, f)
    if best is None:
        return None
    m, f = best
    icc = 1.0 if f == float("inf") else (f - 1) / (f - 1 + m)
    if icc < _BLOCK_ICC:
        return None
    h = m // 2
    shifted = _block_f(values[h:h + (n // m - 1) * m], m)
    if shifted is None or shifted > _BLOCK_SHIFT * f:
        return None
    k = n // m
    means = [sum(values[i * m:(i + 1) * m]) / m for i in range(k)]
    res = [values[i] - means[i // m] for i in range(n)]
    num = sum(res[i] * res[i + 1] for i in range(n - 1) if (i + 1) % m)
    den = sum(r * r for r in res)
    if den > 0 and num / den > _BLOCK_DRIFT:
        return None
    # every boundary a change of unit: neighbouring block means apart by > 3 standard
    # errors (two regimes cut into blocks of one length share their means)
    se = (den / (n - k) * 2 / m) ** 0.5
    if any(abs(x - y) <= _BLOCK_STEP * se for x, y in pairwise(means)):
        return None
    return m, k, icc


def _compared_arrays(ev: Evidence) -> Iterator[tuple[CallSite, str, list[str]]]:
    """(call, test label, names of the two or more samples) for comparisons of bare arrays:
    an independent-samples scipy test on names, or a t statistic built by hand
    (`t = (a.mean() - b.mean()) / se; p = 2 * stats.t.sf(abs(t), df)`)."""
    m = ev.model
    for call, full, args in _independent_tests(ev):
        names = [a.id for a in args if isinstance(a, ast.Name)]
        if len(names) == len(args) >= 2:
            yield call, full.rsplit(".", 1)[-1], names
    for call in m.calls:
        if call.name not in _T_TAILS:
            continue
        nodes, _ = _trace(m, list(call.node.args))
        means = list(dict.fromkeys(
            n.func.value.id for node in nodes for n in _walk(node)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr == "mean" and isinstance(n.func.value, ast.Name)))
        if len(means) == 2:
            yield call, "hand-rolled t-test", means


@rule("pseudoreplication.replicate_blocks",
      title="Blocks of technical replicates in an array, tested as independent values")
def replicate_blocks(ev: Evidence) -> Iterator[Finding]:
    """A two-sample comparison (scipy test or a t statistic by hand) of bare arrays - no
    frame, no unit column - whose values come as consecutive blocks of near-copies: wells
    pipetted from one culture, injections of one preparation, readings of one specimen,
    stored together. Read from the values the kernel lists (<= 200): the block means carry
    >= 90 % of the variance and the split is sharp, so each block is one unit measured
    several times and the test's n counts repeats. High (0.65): the repeats are shown to be
    near copies (ICC), but the grouping is read from the order, not named."""
    if ev.tree is None:
        return
    for call, test, names in _compared_arrays(ev):
        found: list[tuple[str, int, int, int, float]] = []
        for name in names:
            facts = ev.objects.get(name)
            values = facts.values if facts is not None and facts.kind in (
                "ndarray", "sequence") else None
            _, reached = _trace(ev.model, [ast.Name(id=name, ctx=ast.Load())])
            if not values or any(_frame_facts(ev, r) is not None for r in reached):
                continue  # no values, or rows of a frame: the frame rules judge those
            blocks = _replicate_blocks([float(v) for v in values])
            if blocks is not None:
                found.append((name, len(values), *blocks))
        if not found:
            continue
        name, n, per, k, icc = max(found, key=lambda x: x[4])
        ns = ", ".join(f"`{x}` {len(ev.objects[x].values or [])}" for x in names)
        yield Finding(
            explanation=(f"The {test} (line {call.line}) counts every value as independent "
                         f"(n: {ns}), but the {n} values of `{name}` come as {k} consecutive "
                         f"blocks of {per} near-copies: the block means carry {icc:.0%} of "
                         f"the variance. Each block reads as one unit (a culture, a "
                         f"preparation, a specimen) measured {per} times, so the comparison "
                         f"has about {k} independent values per group, not {n}, and the "
                         "p-value measures the repeat (pipetting, injection) noise, not the "
                         "unit-to-unit variation (pseudoreplication)."),
            severity="high", confidence=0.65,
            evidence={"lines": [call.line],
                      "values": {"sample": name, "n": n, "blocks": k,
                                 "per_block": per, "icc": round(icc, 3)}},
            suggestion=(f"Average the {per} repeats of each unit first and compare the unit "
                        f"means (`{name}.reshape({k}, {per}).mean(axis=1)`, or with the unit "
                        "ids: `x[unit == u].mean()` per unit), or fit a mixed model with a "
                        "random intercept per unit."))
