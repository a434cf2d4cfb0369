"""`bins_exclude_values`: fixed bin edges (`np.histogram`, `pd.cut`, `plt.hist`,
`binned_statistic`) that leave values of the data outside the counts, judged from the
kernel's range of the binned column."""

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
from .._columns import loops_around
from ..suspicious_values import CellIndex
from ._context import _ctx
from ._scan import (
    _INT_RE,
    STAT_TESTS,
    SUMMARY_METHODS,
    _column_of,
    _is_summary_call,
    _loop_source,
    _num,
    _pct,
)

# -- fixed bin edges that do not cover the data ------------------------------------------------

_INF_ATTRS = {"inf", "infty", "Inf", "PINF", "NINF"}
_TRANSPARENT = {"to_numpy", "dropna", "astype", "asarray", "array", "ravel", "flatten",
                "squeeze", "tolist", "list"}
_BIN_CHECKS = re.compile(
    r"\bassert\b|dropna\s*=\s*False|\.isna\(|\.isnull\(|\.notna\(|fillna\(|add_categories|"
    r"\bclip\(|include_lowest\s*=\s*True|(?i:outside|out of range|beyond the (?:first|last)|"
    r"off the (?:scale|edges))")
_BIN_REPORT = re.compile(r"(?i)\b(?:outside|out of range|not binned|unbinned|excluded|dropped|"
                         r"below the|above the)\b")


def _has_inf(node: ast.AST) -> bool:
    for n in _walk(node):
        if isinstance(n, ast.Attribute) and n.attr in _INF_ATTRS:
            return True
        if isinstance(n, ast.Name) and n.id in ("inf", "infty"):
            return True
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.strip(
                "+-").lower() in ("inf", "infinity"):
            return True
        if isinstance(n, ast.Constant) and isinstance(n.value, float) and n.value in (
                float("inf"), float("-inf")):
            return True
    return False


def _edges_of(ev: Evidence, node: ast.AST | None, line: int, depth: int = 0) -> tuple[
        float, float, int] | None:
    """(first edge, last edge, number of edges) of explicit bin edges; None for a bin count,
    a rule name ('auto'), open-ended edges (±inf) or edges that cannot be read."""
    if node is None or depth > 3 or _has_inf(node):
        return None
    if isinstance(node, ast.List | ast.Tuple):
        nums = [_num(e) for e in node.elts]
        if len(nums) < 2 or any(x is None for x in nums):
            return None
        vals = [x for x in nums if x is not None]
        return min(vals), max(vals), len(vals)
    if isinstance(node, ast.Call):
        last = _call_last(node)
        args = [_num(a) for a in node.args]
        if last in ("arange", "range") and node.args and all(a is not None for a in args) \
                and not node.keywords:
            a, b, step = (0.0, args[0], 1.0) if len(args) == 1 else (
                args[0], args[1], args[2] if len(args) > 2 else 1.0)
            if a is None or b is None or not step or step <= 0 or b <= a:
                return None
            import math
            n = math.ceil((b - a) / step)
            return a, a + (n - 1) * step, n
        if last == "linspace" and len(node.args) >= 2 and args[0] is not None and \
                args[1] is not None:
            n = int(args[2]) if len(args) > 2 and args[2] is not None else 50
            return min(args[0], args[1]), max(args[0], args[1]), n
        return None
    if isinstance(node, ast.Name):
        assigns = [a for a in ev.model.assignments if a.targets == [node.id]]
        if any(a.value is None or _has_inf(a.value) for a in assigns):
            return None
        before = [a for a in assigns if a.line <= line]
        if before:
            got = _edges_of(ev, before[-1].value, before[-1].line, depth + 1)
            if got is not None:
                return got
        facts = ev.objects.get(node.id)
        if facts is None or facts.kind not in ("ndarray", "sequence", "series") or \
                not facts.values or len(facts.values) < 2:
            return None
        size = facts.shape[0] if facts.shape else facts.length
        if size != len(facts.values) or (facts.shape and len(facts.shape) != 1):
            return None  # non-finite edges were left out of the values, or a long array
        return min(facts.values), max(facts.values), len(facts.values)
    return None


def _groupby_source(it: ast.AST) -> ast.AST | None:
    """`df` for `df.groupby(...)` (and `df.groupby(...)[col]`)."""
    if isinstance(it, ast.Subscript):
        it = it.value
    if isinstance(it, ast.Call) and _call_last(it) == "groupby" and isinstance(
            it.func, ast.Attribute):
        return it.func.value
    return None


def _bound_by_loop(ev: Evidence, near: ast.AST, name: str) -> ast.AST | None:
    """What a loop / comprehension variable around `near` walks: `peaks` for `row` in
    `zip(names, peaks)`, `df` for `grp` in `for key, grp in df.groupby(...)`."""
    src = _loop_source(ev, near, name)
    if src is not None:
        return src
    for target, it in loops_around(ev, near):
        frame = _groupby_source(it)
        if frame is not None and isinstance(target, ast.Tuple) and len(target.elts) == 2 \
                and isinstance(target.elts[1], ast.Name) and target.elts[1].id == name:
            return frame
    return None


def _enclosing_function(ev: Evidence, walk: CellIndex, node: ast.AST) -> ast.FunctionDef | None:
    st = walk.stmt_of.get(id(node))
    for _n, s, fn in walk.items:
        if s is st and fn is not None:
            for f in walk.of(ast.FunctionDef):
                if f.name == fn:
                    return f
            return None
    return None


def _data_range(ev: Evidence, walk: CellIndex, node: ast.AST | None, near: ast.AST,
                depth: int = 0) -> tuple[str, float, float, int | None, int] | None:
    """(what, min, max, NaN count, rows) of the data a binning call reads, from the kernel's
    column ranges: `df.x`, `df["x"].to_numpy()`, `grp.x` for a group of `df`, a helper's
    parameter at its call sites, a name bound to one of those."""
    if node is None or depth > 4:
        return None
    for _ in range(4):
        if isinstance(node, ast.Attribute) and node.attr == "values":
            node = node.value
        elif isinstance(node, ast.Call) and _call_last(node) in _TRANSPARENT and (
                isinstance(node.func, ast.Attribute) and not node.args
                and _call_last(node) not in ("asarray", "array", "list")):
            node = node.func.value  # type: ignore[union-attr]
        elif isinstance(node, ast.Call) and _call_last(node) in ("asarray", "array", "list") \
                and len(node.args) == 1:
            node = node.args[0]
        else:
            break
    col = _column_of(node)
    if col is not None and isinstance(node, ast.Attribute | ast.Subscript):
        frame: ast.AST | None = node.value
        for _ in range(3):
            if not isinstance(frame, ast.Name):
                return None
            facts = ev.objects.get(frame.id)
            local = _bound_by_loop(ev, near, frame.id)
            if local is not None:
                frame = local
                continue
            if facts is None or facts.kind != "dataframe" or col not in facts.ranges:
                return None
            lo, hi = facts.ranges[col]
            return f"{frame.id}.{col}", lo, hi, facts.missing.get(col), facts.rows or 0
        return None
    if isinstance(node, ast.Name):
        local = _bound_by_loop(ev, near, node.id)
        if local is not None:
            return _data_range(ev, walk, local, near, depth + 1)
        fn = _enclosing_function(ev, walk, near)
        if fn is not None and node.id in [a.arg for a in fn.args.args]:
            pos = [a.arg for a in fn.args.args].index(node.id)
            found = None
            for c in ev.model.calls:
                if isinstance(c.node.func, ast.Name) and c.node.func.id == fn.name and \
                        len(c.node.args) > pos:
                    got = _data_range(ev, walk, c.node.args[pos], c.node, depth + 1)
                    if got is None:
                        return None  # one call site we cannot read: no verdict
                    found = got if found is None else (
                        found[0], min(found[1], got[1]), max(found[2], got[2]), found[3],
                        found[4])
            return found
        assigns = [a for a in ev.model.assignments if a.targets == [node.id]]
        if len(assigns) == 1 and assigns[0].value is not None:
            return _data_range(ev, walk, assigns[0].value, assigns[0].value, depth + 1)
    return None


def _strs_in(node: ast.AST) -> set[str]:
    return {n.value for n in _walk(node) if isinstance(n, ast.Constant)
            and isinstance(n.value, str)}


_BINNERS = {"histogram": ("numpy.histogram", 1), "cut": ("pandas.cut", 1),
            "hist": ("hist", 1), "binned_statistic": ("scipy.stats.binned_statistic", 3)}


@rule("data_loss.bins_exclude_values",
      title="Fixed bin edges leave values out of the counts")
def bins_exclude_values(ev: Evidence) -> Iterator[Finding]:
    """`np.histogram(x, bins=edges)`, `pd.cut(x, bins=[...])`, `plt.hist(x, bins=edges)`,
    `binned_statistic(x, v, bins=edges)` with fixed edges: values below the first or above
    the last edge are not counted (histogram) or become NaN (pd.cut) and fall out of every
    count, share and mean built from the bins; with `pd.cut`'s default `right=True` a value
    equal to the first edge is lost too unless `include_lowest=True`. Judged from the
    kernel's [min, max] of the binned column against the edges (read from the code or the
    kernel); quiet for a number of bins, open-ended edges (±inf) or when the cell checks the
    binned total (`assert counts.sum() == len(x)`, `isna()` of the bins, `clip`). High
    (0.75) when the data reach more than half a bin beyond the edges and the counts feed a
    summary, or (0.85) when the lost share is known and at least 5%; medium otherwise
    (plots at most medium)."""
    if ev.tree is None or not any(k in ev.code for k in ("histogram", "cut(", "hist(",
                                                         "binned_statistic")):
        return
    if _BIN_CHECKS.search(ev.code):
        return
    ctx = _ctx(ev)
    best: tuple[float, Finding] | None = None
    for c in ev.model.calls:
        spec = _BINNERS.get(c.last)
        if spec is None or not (c.matches(spec[0]) or (c.last == "hist")):
            continue
        if c.last == "hist" and c.name and c.name.startswith("pandas"):
            continue
        bins = c.arg(spec[1], "bins")
        edges = _edges_of(ev, bins, c.line) if bins is not None else None
        rng = c.kwarg("range")
        if edges is None and isinstance(rng, ast.Tuple | ast.List) and len(rng.elts) == 2:
            lo_e, hi_e = _num(rng.elts[0]), _num(rng.elts[1])
            n_b = _num(bins) if bins is not None else 10.0
            if lo_e is not None and hi_e is not None and n_b and hi_e > lo_e:
                edges = (lo_e, hi_e, int(n_b) + 1)
        if edges is None:
            continue
        e0, en, n_edges = edges
        data = c.arg(0, "x")
        got = _data_range(ev, ctx.walk, data, c.node)
        if got is None:
            continue
        what, lo, hi, nan, rows = got
        is_cut = c.last == "cut"
        right = c.kwarg_value("right", True) is not False
        lowest = bool(c.kwarg_value("include_lowest", False))
        below = lo < e0 or (is_cut and right and not lowest and lo == e0)
        above = hi > en or (is_cut and not right and hi == en)
        if not (below or above):
            continue
        width = (en - e0) / max(n_edges - 1, 1)
        overshoot = max(e0 - lo, hi - en, 0.0)
        material = overshoot > width / 2
        # the exact loss when the cut labels are stored in a column of the binned frame
        lost: int | None = None
        st = c.stmt
        if is_cut and isinstance(st, ast.Assign) and len(st.targets) == 1:
            t = st.targets[0]
            tcol, troot = _column_of(t), _root(t)
            tf = ev.objects.get(troot or "")
            if tcol and tf is not None and tf.kind == "dataframe" and tcol in tf.missing and \
                    what.startswith(f"{troot}.") and not ctx.rebound_after(troot or "", c.line):
                lost = max(0, tf.missing[tcol] - (nan or 0))
        frac = lost / rows if lost is not None and rows else None
        targets = set(c.targets)
        downstream = ctx.downstream(targets, c.line) if targets else set()
        used = any((x.receiver_root in downstream or _names(x.node) & downstream)
                   and (x.last in SUMMARY_METHODS or x.last in STAT_TESTS
                        or x.last in ("value_counts", "groupby", "crosstab", "bincount",
                                      "size", "cumsum"))
                   for x in ev.model.calls if x.line >= c.line) if downstream else False
        if not used and is_cut and isinstance(st, ast.Assign) and len(st.targets) == 1 and \
                (tcol := _column_of(st.targets[0])):
            # `df["band"] = pd.cut(...)`, then `df.band.value_counts()` / `groupby("band")`
            used = any(x.line > c.line and (x.last in SUMMARY_METHODS or x.last in (
                "value_counts", "groupby", "crosstab", "pivot_table", "size")) and (
                tcol in _strs_in(x.node) or tcol in {
                    _column_of(n) for n in _walk(x.node)}) for x in ev.model.calls)
        inline = any(isinstance(p, ast.Call) and (_is_summary_call(p) or _call_last(p) in (
            "value_counts", "groupby", "crosstab")) and any(s is c.node for s in _walk(p))
            for p in ctx.walk.own.get(id(st), ()))
        in_helper = c.function is not None
        feeds = used or inline or in_helper or bool(c.kwarg_value("density", False))
        reported = any(_BIN_REPORT.search(line) and _INT_RE.search(line)
                       for line in (ev.text or "")[:20_000].splitlines()[:300])
        if frac is not None and frac < 0.01:
            continue
        if c.last == "hist":
            severity, confidence = "medium", 0.5
        elif frac is not None and frac >= 0.05 and feeds and not reported:
            severity, confidence = "high", 0.85
        elif frac is None and material and feeds and not reported:
            severity, confidence = "high", 0.75
        else:
            severity, confidence = "medium", 0.5
        sides = []
        if lo < e0:
            sides.append(f"its minimum {lo:,.6g} lies below the first edge {e0:,.6g}")
        elif below:
            sides.append(f"its minimum {lo:,.6g} equals the first edge, which `pd.cut` "
                         "excludes by default (right-closed bins)")
        if hi > en:
            sides.append(f"its maximum {hi:,.6g} lies above the last edge {en:,.6g}")
        elif above:
            sides.append(f"its maximum {hi:,.6g} equals the last edge, which `right=False` "
                         "excludes")
        fate = "become NaN and fall out of every count and group" if is_cut else \
            "are not counted in any bin"
        amount = (f" {lost} of {rows} values ({_pct(frac)}) are lost." if frac is not None
                  else " How many values are lost cannot be read from the kernel, only that "
                  "the data reach beyond the edges.")
        f = Finding(
            explanation=(f"Line {c.line}: `{ev.source_of(c.node.func)}` bins `{what}` with "
                         f"fixed edges {e0:,.6g} to {en:,.6g}, but {' and '.join(sides)}: "
                         f"values outside the edges {fate}.{amount} Shares, totals and means "
                         "built from these bins then describe only the values inside the "
                         "range, and the extremes left out are rarely a random subset."),
            severity=severity, confidence=confidence,
            evidence={"lines": [c.line], "values": {
                "data": what, "data_min": lo, "data_max": hi, "first_edge": e0,
                "last_edge": en, **({"lost": lost, "rows": rows} if lost is not None else {})}},
            suggestion=("Make the outer bins open-ended (`np.r_[-np.inf, edges, np.inf]`, or "
                        "`pd.cut(..., include_lowest=True)` with edges from the data's min to "
                        "max) and check the binned total against the number of values "
                        "(`assert counts.sum() == len(x)`); compute means and shares from the "
                        "raw values, not from bin midpoints."))
        rank = {"high": 2.0, "medium": 1.0}[severity] + confidence
        if best is None or rank > best[0]:
            best = (rank, f)
    if best is not None:
        yield best[1]
