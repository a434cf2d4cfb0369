"""Values that become -inf/NaN or are compared as NaN, then silently skipped:
`log_of_zero_dropped` (a log of zeros or negatives whose infinities are dropped),
`nan_comparison_filter` (a comparison filter that also drops the rows whose value is
missing) and `nan_skipping_aggregate` (`np.nanmax`, `nanpercentile`, `.max()` over data
with missing values)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from ...ast_cache import walk as _walk
from ...code_model import called_name as _call_last
from ...code_model import names_in as _names
from ...code_model import root_name as _root
from ...evidence import Evidence
from ...findings import Finding
from ...rule import rule
from ._context import _Ctx, _ctx
from ._scan import (
    _INT_RE,
    _MISSING_CALLS,
    _NAN_AWARE,
    _REPORT_TEXT,
    _column_of,
    _Drop,
    _loop_source,
    _num,
    _pct,
)

# -- log / sqrt of zeros or negatives, whose -inf/NaN results are then skipped ---------------------

_LOG_FUNCS = {"log", "log10", "log2"}
_INF_DISCARD = re.compile(
    r"replace\(\s*\[\s*-?np\.inf\s*,\s*-?np\.inf\s*\]|replace\(\s*-np\.inf|"
    r"use_inf_as_na|isfinite|isinf\(")
_REDUCTIONS = {"mean", "median", "agg", "aggregate", "sum", "std", "var", "describe",
               "nanmean", "nanmedian", "nanstd", "dropna", "fit", "ols", "corr", "pearsonr",
               "ttest_ind", "gmean", "quantile"}
_GUARDS = {"log1p", "where", "mask", "clip", "arcsinh"}


def _log_calls(tree: ast.AST) -> list[ast.Call]:
    out = []
    for node in _walk(tree):
        if isinstance(node, ast.Call) and _call_last(node) in _LOG_FUNCS and node.args and \
                isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
                and node.func.value.id in ("np", "numpy"):
            out.append(node)
    return out


def _guarded(arg: ast.AST) -> bool:
    """`np.log(x + 1)`, `np.log(x.where(x > 0))`, `np.log(x.clip(lower=1e-9))`,
    `np.log(x[x > 0])`: the zeros were handled before the log."""
    for sub in _walk(arg):
        if isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Add):
            return True
        if isinstance(sub, ast.Call) and _call_last(sub) in _GUARDS:
            return True
        if isinstance(sub, ast.Compare):
            return True
    return False


@rule("data_loss.log_of_zero_dropped",
      title="Zeros or negatives turned into -inf/NaN by a log, then skipped")
def log_of_zero_dropped(ev: Evidence) -> Iterator[Finding]:
    """`np.log(spend)` with zero spend gives -inf (negatives give NaN); replacing the
    infinities by NaN (or filtering to finite values) and averaging silently restricts the
    summary to the positive rows. Judged from numpy's 'divide by zero / invalid value
    encountered in log' warning after the run, or the inf-discarding code alone."""
    if ev.tree is None or "log" not in ev.code:
        return
    calls = [c for c in _log_calls(ev.tree) if not _guarded(c.args[0])]
    if not calls:
        return
    zero_warned = any("encountered in log" in w.message and "divide by zero" in w.message
                      for w in ev.warnings)
    invalid_warned = any("invalid value encountered in log" in w.message for w in ev.warnings)
    discards = bool(_INF_DISCARD.search(ev.code))
    reduced = any(_call_last(n) in _REDUCTIONS for n in _walk(ev.tree)
                  if isinstance(n, ast.Call)) or any(
        isinstance(n, ast.Attribute) and n.attr in _REDUCTIONS for n in _walk(ev.tree))
    if not reduced:
        return
    logged = set().union(*(_names(c.args[0]) for c in calls)) | {
        s.attr for c in calls for s in _walk(c.args[0]) if isinstance(s, ast.Attribute)} | {
        s.value for c in calls for s in _walk(c.args[0])
        if isinstance(s, ast.Constant) and isinstance(s.value, str)}
    # the cell counts the zeros / non-positive values itself: an explicit, reported choice
    for node in _walk(ev.tree):
        if isinstance(node, ast.Compare) and any(
                isinstance(c, ast.Constant) and c.value == 0 for c in node.comparators) and (
                {s.attr for s in _walk(node.left) if isinstance(s, ast.Attribute)}
                | _names(node.left)) & (logged - {"np", "numpy"}):
            return
    line = calls[0].lineno
    src = ast.unparse(calls[0])[:60]
    if zero_warned and discards:
        severity, confidence = "high", 0.8
        why = ("numpy warned 'divide by zero encountered in log': some values are 0 and "
               "became -inf, and the cell then turns the infinities into NaN (or keeps only "
               "finite values), so every summary after it silently leaves those rows out")
    elif invalid_warned:
        severity, confidence = "high", 0.7
        why = ("numpy warned 'invalid value encountered in log': some values are negative "
               "and became NaN, which the summaries after it skip silently")
    elif zero_warned:
        severity, confidence = "medium", 0.5
        why = ("numpy warned 'divide by zero encountered in log': some values are 0 and "
               "became -inf")
    elif discards:
        severity, confidence = "medium", 0.45
        why = ("the cell then turns infinities into NaN (or keeps finite values only), "
               "which drops every zero silently")
    else:
        return
    yield Finding(
        explanation=(f"Line {line} takes `{src}` of values that include zeros or negatives: "
                     f"{why}. The result describes only the positive rows, not all of them, "
                     "and nothing reports how many were dropped."),
        severity=severity, confidence=confidence,
        evidence={"lines": [line], "values": {"divide_by_zero_warning": zero_warned,
                                              "invalid_value_warning": invalid_warned,
                                              "inf_discarded": discards}},
        suggestion=("Decide what zeros mean and say it: keep them (`np.log1p(x)`, or report "
                    "the share of zeros next to a summary of the positive values), or exclude "
                    "them explicitly (`x.where(x > 0)`) and print how many rows that drops."))


# -- comparison filters that silently drop rows whose compared value is NaN ----------------------

_CMP_METHODS = {"lt", "le", "gt", "ge", "eq", "between"}
_QUERY_CMP = re.compile(r"`?([A-Za-z_]\w*)`?\s*(<=|>=|<|>|==)\s*[^&|<>=]+")


def _nan_dropping_columns(mask: ast.AST, frame: str) -> list[str] | None:
    """Columns of `frame` compared in a row mask that NaN fails (`df.x < 0.3`,
    `(df.a > 1) & (df.b <= 2)`, `df.x.between(1, 2)`, `df.x.ge(5)`); None when the mask
    handles missing values itself or an `|` / `~` / `!=` may keep them."""
    if any(isinstance(n, ast.Call) and _call_last(n) in _NAN_AWARE | _MISSING_CALLS
           for n in _walk(mask)):
        return None
    if isinstance(mask, ast.BinOp) and isinstance(mask.op, ast.BitAnd):
        left = _nan_dropping_columns(mask.left, frame)
        right = _nan_dropping_columns(mask.right, frame)
        if left is None and right is None:
            return None
        return (left or []) + (right or [])
    cols: list[str] = []
    if isinstance(mask, ast.Compare):
        if any(isinstance(op, ast.NotEq | ast.In | ast.NotIn | ast.Is | ast.IsNot)
               for op in mask.ops):
            return None
        sides = [mask.left, *mask.comparators]
    elif isinstance(mask, ast.Call) and isinstance(mask.func, ast.Attribute) and \
            mask.func.attr in _CMP_METHODS:
        sides = [mask.func.value]
    else:
        return None
    for side in sides:
        col = _column_of(side)
        if col and _root(side) == frame:
            cols.append(col)
    return cols or None


_OPS = {ast.Lt: lambda a, b: a < b, ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b,
        ast.GtE: lambda a, b: a >= b, ast.Eq: lambda a, b: a == b}
_METHOD_OPS = {"lt": ast.Lt, "le": ast.LtE, "gt": ast.Gt, "ge": ast.GtE, "eq": ast.Eq}
_TEXT_OPS = {"<": ast.Lt, "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE, "==": ast.Eq}


def _zero_kept(node: ast.AST, col: str) -> bool | None:
    """Whether the filter's conditions on `col` would keep a row whose `col` is 0: True
    for `discount < 0.3` (a missing value that means "none" belongs to the kept rows), False
    for `score >= 50`; None when a threshold is not a number."""
    verdicts: list[bool] = []
    if isinstance(node, ast.Call) and _call_last(node) == "query" and node.args and \
            isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        for mt in re.finditer(r"`?\b" + re.escape(col) + r"\b`?\s*(<=|>=|<|>|==)\s*"
                              r"(-?\d+(?:\.\d*)?(?:e-?\d+)?)", node.args[0].value):
            verdicts.append(_OPS[_TEXT_OPS[mt.group(1)]](0.0, float(mt.group(2))))
        return all(verdicts) if verdicts else None
    for sub in _walk(node):
        if isinstance(sub, ast.Compare):
            sides = [sub.left, *sub.comparators]
            for i, op in enumerate(sub.ops):
                a, b = sides[i], sides[i + 1]
                fn = _OPS.get(type(op))
                if fn is None:
                    continue
                if _column_of(a) == col:
                    c = _num(b)
                    if c is None:
                        return None
                    verdicts.append(fn(0.0, c))
                elif _column_of(b) == col:
                    c = _num(a)
                    if c is None:
                        return None
                    verdicts.append(fn(c, 0.0))
        elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and \
                _column_of(sub.func.value) == col:
            if sub.func.attr in _METHOD_OPS and sub.args:
                c = _num(sub.args[0])
                if c is None:
                    return None
                verdicts.append(_OPS[_METHOD_OPS[sub.func.attr]](0.0, c))
            elif sub.func.attr == "between" and len(sub.args) >= 2:
                lo, hi = _num(sub.args[0]), _num(sub.args[1])
                if lo is None or hi is None:
                    return None
                verdicts.append(lo <= 0.0 <= hi)
    return all(verdicts) if verdicts else None


def _nan_filters(ctx: _Ctx) -> list[tuple[_Drop, ast.AST]]:
    """(drop, the filtering node) for every comparison filter, including one inside a
    helper (`def shallow(df): return df[df.discount < 0.3]`), mapped to each call of it."""
    out: list[tuple[_Drop, ast.AST]] = []
    for node, st, fn in ctx.walk.items:
        if st is None or isinstance(st, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        cols: list[str] | None = None
        value: ast.AST | None = None
        if isinstance(node, ast.Subscript):
            value, mask = node.value, node.slice
            if isinstance(value, ast.Attribute) and value.attr == "loc":
                value = value.value
                if isinstance(mask, ast.Tuple) and mask.elts:
                    mask = mask.elts[0]
            if not isinstance(value, ast.Name):
                continue
            cols = _nan_dropping_columns(mask, value.id)
        elif isinstance(node, ast.Call) and _call_last(node) == "query" and \
                isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
                and node.args and isinstance(node.args[0], ast.Constant) and \
                isinstance(node.args[0].value, str):
            q = node.args[0].value
            if re.search(r"\bor\b|\||\bnot\b|~|!=|isna|isnull|notna|notnull|fillna|"
                         r"\bin\b", q):
                continue
            value = node.func.value
            cols = [m.group(1) for m in _QUERY_CMP.finditer(q)] or None
        if not cols or value is None:
            continue
        drop = ctx.sites._make("nan_compare", node, st, value, cols)
        if fn is None:
            out.append((drop, node))
        else:
            out += [(d, node) for d in ctx.sites._through_function(drop, fn)]
    return out


@rule("data_loss.nan_comparison_filter",
      title="Comparison filter silently drops the rows whose value is missing")
def nan_comparison_filter(ev: Evidence) -> Iterator[Finding]:
    """`df[df.discount < 0.3]`, `df.query("score >= 50")`, `df.loc[df.x.between(a, b)]`:
    a comparison with NaN is False, so every row whose compared value is missing leaves the
    frame along with the rows the filter meant to exclude - often a different population
    (items never discounted, orders without a coupon). Judged from the kernel: the source
    frame's NaN count in the compared column against the rows kept. High (0.8) when the
    missing rows are at least 20% of the frame and at least as many as the rows the
    comparison itself excluded, the condition would keep a value of 0 (so a missing value
    meaning "none" belonged to the kept rows), and the rest is summarised without reporting
    counts; medium otherwise (from 5% missing when 0 would be kept, from 20% when the
    threshold is not a number). Quiet when 0 would fail the condition too (`>= 20`).
    Quiet when the mask handles NaN (`fillna`, `isna() |`), the counts are reported, the
    filter is mostly a subgroup selection, or the column has no missing values."""
    if ev.tree is None or not any(op in ev.code for op in ("<", ">", "==", ".lt(", ".le(",
                                                           ".gt(", ".ge(", ".eq(", "between")):
        return
    ctx = _ctx(ev)
    seen: set[tuple[str | None, int]] = set()
    for drop, filt in _nan_filters(ctx):
        src = drop.source
        facts = ev.objects.get(src or "")
        if facts is None or facts.kind != "dataframe" or not facts.rows or \
                drop.in_place or ctx.rebound_after(src or "", drop.line):
            continue
        nan_cols = [(c, facts.missing.get(c, 0)) for c in drop.columns]
        nan_cols = [(c, k) for c, k in nan_cols if k]
        if not nan_cols or (src, drop.line) in seen:
            continue
        col, missing = max(nan_cols, key=lambda ck: ck[1])
        rows = facts.rows
        frac = missing / rows
        if frac < 0.05:
            continue
        summaries = [s for s in ctx.summaries_after(drop) if s[1] != "fit"]
        if not summaries or ctx.reported(drop):
            continue
        kept = None
        target = ev.objects.get(drop.target or "")
        if drop.target and target is not None and target.rows is not None and \
                not ctx.rebound_after(drop.target, drop.line):
            kept = target.rows
        by_value = max(0, rows - kept - missing) if kept is not None else None
        if by_value is not None and missing < by_value:
            continue  # mostly a deliberate subgroup; the NaN rows are a side effect
        seen.add((src, drop.line))
        at_zero = _zero_kept(filt, col)
        if at_zero and frac >= 0.2 and by_value is not None:
            severity, confidence = "high", (0.85 if frac >= 0.4 else 0.8)
        elif at_zero or (at_zero is None and frac >= 0.2):
            severity, confidence = "medium", 0.5 if at_zero else 0.4
        else:
            continue  # a value of 0 would fail the condition too: "none" is excluded anyway
        where = ", ".join(f"`{k}` on line {ln}" for ln, k in summaries[:3])
        kept_txt = (f"; {kept} of {rows} rows remain, and only {by_value} were excluded for "
                    "their value" if kept is not None else "")
        yield Finding(
            explanation=(f"Line {drop.line}"
                         + (f" (through `{drop.via}()`)" if drop.via else "")
                         + f" filters `{src}` with a comparison on `{col}`, "
                         f"which has {missing} missing values ({_pct(frac)} of {rows} rows): "
                         "a comparison with NaN is False, so all of those rows are dropped "
                         f"too{kept_txt}. The cell then computes {where} on what is left "
                         "without saying so; the rows with a missing value are usually a "
                         "different group (never discounted, never measured), not ones the "
                         "condition meant to exclude."),
            severity=severity, confidence=confidence,
            evidence={"lines": sorted({drop.line, *(ln for ln, _ in summaries[:3])}),
                      "values": {"column": col, "missing": missing, "rows": rows,
                                 "rows_kept": kept, "excluded_by_value": by_value}},
            suggestion=(f"Decide what a missing `{col}` means and write it down: fill it "
                        f"(`{src}['{col}'].fillna(0)` when missing means none) or keep those "
                        f"rows explicitly (`{src}[{src}['{col}'].isna() | ({src}['{col}'] < "
                        "x)]`), and print how many rows the filter keeps."))


# -- NaN-skipping aggregates over data with missing values -----------------------------------------

_NAN_EXTREMES = {"nanmax", "nanmin", "nanpercentile", "nanquantile", "nanargmax", "nanargmin"}
_NAN_CENTRAL = {"nanmean", "nanmedian", "nansum", "nanstd", "nanvar", "nancumsum"}
_PD_EXTREMES = {"max", "min", "quantile", "idxmax", "idxmin"}
_NAN_COUNTERS = {"isnan", "isna", "isnull", "notna", "notnull", "count_nonzero", "isfinite",
                 "count", "info", "value_counts"}


def _missing_in(ev: Evidence, data: ast.AST, call_node: ast.AST) -> tuple[str, int, int] | None:
    """(source, missing values, values) of the data an aggregate reads, from the kernel."""
    node = data
    for _ in range(3):
        if isinstance(node, ast.Name) and node.id not in ev.objects:
            src = _loop_source(ev, call_node, node.id)
            if src is None:
                return None
            node = src
        else:
            break
    col = _column_of(node)
    root = _root(node)
    facts = ev.objects.get(root or "")
    if facts is None or not facts.shape:
        return None
    if facts.kind == "dataframe":
        if col is None or col not in facts.missing:
            return None
        return f"{root}.{col}", facts.missing[col], facts.shape[0]
    if facts.kind in ("ndarray", "series"):
        size = 1
        for d in facts.shape:
            size *= d
        return root or "", facts.missing.get("", 0), size
    return None


def _feeds_verdict(ev: Evidence, call: ast.Call, stmt: ast.stmt) -> int | None:
    """Line of a threshold comparison (`max <= spec`, `s["max"] > limit`) on the aggregate's
    value: through the names it is assigned to or the dict key it is stored under."""
    m = ev.model
    keys: set[str] = set()
    names: set[str] = set()
    for n in _walk(stmt):
        if isinstance(n, ast.Dict):
            for k, v in zip(n.keys, n.values, strict=False):
                if v is not None and any(x is call for x in _walk(v)) and isinstance(
                        k, ast.Constant) and isinstance(k.value, str):
                    keys.add(k.value)
    if isinstance(stmt, ast.Assign):
        names |= {t for tg in stmt.targets for t in _names(tg)}
    downstream = set(names)
    for a in m.assignments:
        if a.loaded & downstream:
            downstream |= set(a.targets)
    for n in _walk(m.tree):
        if not (isinstance(n, ast.Compare) and isinstance(
                n.ops[0], ast.Lt | ast.LtE | ast.Gt | ast.GtE)):
            continue
        for side in (n.left, *n.comparators):
            if any(x is call for x in _walk(side)):
                return n.lineno
            if isinstance(side, ast.Subscript) and isinstance(side.slice, ast.Constant) and \
                    side.slice.value in keys:
                return n.lineno
            if isinstance(side, ast.Name) and side.id in downstream:
                return n.lineno
    return None


@rule("data_loss.nan_skipping_aggregate",
      title="NaN-skipping maximum, percentile or mean over data with missing values")
def nan_skipping_aggregate(ev: Evidence) -> Iterator[Finding]:
    """`np.nanmax`, `np.nanpercentile`, `np.nanmean` (or a pandas `.max()`) over data the
    kernel says holds missing values, with nothing in the cell counting them: the result
    describes only the values that were recorded. Missing readings are often the extreme
    ones (over range, below detection, failed), so a maximum or tail percentile is then
    biased exactly where it is read. High (0.7) when the extreme decides a pass/fail
    comparison (`max <= spec`), medium (0.5) for an extreme reported as such, medium (0.45)
    for a mean or median when at least 10% of the values are missing. Quiet when the cell
    counts the missing values (`np.isnan(x).sum()`, `isna()`, `count()`) or says so."""
    if ev.tree is None or not any(k in ev.code for k in ("nan", ".max(", ".min(", "quantile")):
        return
    m = ev.model
    if any(c.last in _NAN_COUNTERS for c in m.calls):
        return
    if any(_REPORT_TEXT.search(line) and _INT_RE.search(line) and re.search(
            r"(?i)\b(?:nan|missing|over.?range|out of range|no reading|unrecorded)\b", line)
            for line in ev.text[:20_000].splitlines()[:300]):
        return
    best: tuple[int, float, str, Finding] | None = None
    for c in m.calls:
        last = c.last
        numpy_nan = (c.name or "").startswith("numpy.") and (
            last in _NAN_EXTREMES or last in _NAN_CENTRAL)
        pandas_ext = last in _PD_EXTREMES and c.receiver is not None and not (
            c.name or "").startswith(("numpy.", "builtins")) and c.kwarg_value("skipna") \
            is not False and c.receiver_root not in m.aliases
        if not (numpy_nan or pandas_ext):
            continue
        data = c.node.args[0] if numpy_nan and c.node.args else c.receiver
        if pandas_ext and isinstance(data, ast.Subscript | ast.Attribute):
            inner = data.value
            if isinstance(inner, ast.Call) and _call_last(inner) == "groupby":
                data = ast.Subscript(value=inner.func.value, slice=data.slice) if isinstance(
                    data, ast.Subscript) and isinstance(inner.func, ast.Attribute) else data
        if data is None:
            continue
        found = _missing_in(ev, data, c.node)
        if found is None or found[1] == 0:
            continue
        source, missing, total = found
        frac = missing / total if total else 0.0
        extreme = last in _NAN_EXTREMES or pandas_ext
        verdict = _feeds_verdict(ev, c.node, c.stmt) if extreme else None
        if pandas_ext and verdict is None:
            continue  # pandas skips NaN by default everywhere: only a decision on it counts
        if extreme and verdict is not None:
            sev, conf = "high", 0.7
        elif extreme:
            sev, conf = "medium", 0.5
        elif frac >= 0.10:
            sev, conf = "medium", 0.45
        else:
            continue
        what = (f"`{ev.source_of(c.node.func)}` (line {c.line}) skips the {missing} missing "
                f"values of `{source}` ({_pct(frac)} of {total})")
        tail = (f", and its result decides the comparison on line {verdict}" if verdict else "")
        f = Finding(
            explanation=(f"{what}{tail}; nothing in the cell counts or reports them. The "
                         "result describes only the values that were recorded: when the "
                         "missing ones are readings that failed or fell out of range, a "
                         "maximum or tail percentile is biased exactly where it is read, and a "
                         "pass verdict cannot be confirmed."),
            severity=sev, confidence=conf,
            evidence={"lines": sorted({c.line, *([verdict] if verdict else [])}),
                      "values": {"data": source, "missing": missing, "values": total}},
            suggestion=(f"Count the missing values per group (`np.isnan({source}).sum()`) and "
                        "report them next to the result; if they are censored readings (over "
                        "range, below detection), treat them as such (e.g. as at least the "
                        "limit) instead of skipping them, and do not call a group within "
                        "spec while it has unread values."))
        rank = (2 if sev == "high" else 1, conf)
        if best is None or rank > (best[0], best[1]):
            best = (rank[0], rank[1], source, f)
    if best is not None:
        yield best[3]
