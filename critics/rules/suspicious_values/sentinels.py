"""Sentinel / placeholder codes (99, 999, -9, 65535, a block of zeros) averaged or
summarised as if they were real values."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import pairwise

from ...ast_cache import walk as _walk
from ...code_model import called_name as _call_last
from ...evidence import Evidence, ObjectFacts
from ...findings import Finding
from ...rule import rule
from ._vocabulary import _fmt, _tokens
from .nonnegative import _SIGNED_TOKENS, _duration_key, _footer_blocks, _physical_key

# -- sentinel / placeholder codes averaged as real values --------------------------------------

# codes that exports write for "missing", "overflow" or "not applicable": all nines and the
# largest signed/unsigned 16- and 32-bit integers (a timer or counter that overflowed)
_NINES_CODES = {99.0, 999.0, 9999.0, 99999.0, 999999.0, 9999999.0}
_MACHINE_CODES = {32767.0, 65535.0, 2147483647.0, 4294967295.0}
_NEGATIVE_CODES = {-9.0, -99.0, -999.0, -9999.0, -99999.0}
_SUMMARY_METHODS = {"mean", "sum", "std", "var", "sem", "median", "quantile", "describe",
                    "agg", "aggregate"}
_SUMMARY_FUNCS = {"mean", "nanmean", "average", "std", "nanstd", "var", "nanvar", "median",
                  "nanmedian", "percentile", "nanpercentile", "quantile", "nanquantile", "sum",
                  "nansum", "fmean", "stdev", "pstdev", "variance", "pvariance"}
# methods a column passes through unchanged on the way to its summary
_PASS_METHODS = {"groupby", "resample", "to_numpy", "astype", "dropna", "fillna", "round",
                 "copy", "reset_index", "set_index", "sort_values", "sort_index", "squeeze",
                 "to_frame", "rename", "asarray", "array", "ravel", "flatten", "tolist",
                 "assign"}
_COLUMN_ATTRS_SKIP = {"values", "T", "loc", "iloc", "str", "dt", "cat", "array"}
# outputs that are not a location of the values (counts, spreads, totals): left out of the
# "how large are the column's summaries" evidence
_COUNT_AGGS = {"count", "size", "nunique", "first", "last", "idxmax", "idxmin", "std", "var",
               "sem", "sum", "max", "ptp"}
_NOT_LOCATION_TOKENS = _COUNT_AGGS | {"n", "sd", "stdev", "variance", "total", "rows", "num"}


@dataclass
class _Chain:
    root: str | None = None
    columns: list[str] = field(default_factory=list)
    guarded: bool = False  # replaced / masked / filtered / clipped on the way, or unknown


def _listed_columns(ev: Evidence | None, node: ast.AST) -> list[str] | None:
    """The column names a name holds when it is bound once to a literal list / tuple of
    strings (`num = ["age", "income"]`, then `df[num]`), or to one string (a tuple is a
    single MultiIndex key, not a list of columns)."""
    if ev is None or not isinstance(node, ast.Name):
        return None
    from .._columns import literal_assignment
    bound = literal_assignment(ev, node.id)
    if isinstance(bound, ast.Constant) and isinstance(bound.value, str):
        return [bound.value]
    if isinstance(bound, ast.List) and bound.elts and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in bound.elts):
        return [str(e.value) for e in bound.elts]  # type: ignore[attr-defined]
    return None


def _walk_chain(node: ast.AST, ev: Evidence | None = None) -> _Chain:
    """Root name, columns and guards of `df.groupby(g)["x"].values`, `df.loc[:, "x"]`,
    `df[cols]` (a name bound to a literal list of columns)."""
    out = _Chain()
    called: set[int] = set()
    cur: ast.AST | None = node
    while cur is not None:
        if isinstance(cur, ast.Call):
            called.add(id(cur.func))
            if isinstance(cur.func, ast.Attribute):
                if cur.func.attr not in _PASS_METHODS:
                    out.guarded = True
                cur = cur.func.value
                continue
            if _call_last(cur) in ("asarray", "array") and cur.args:  # np.asarray(df.x)
                cur = cur.args[0]
                continue
            out.guarded = True
            return out
        if isinstance(cur, ast.Attribute):
            if id(cur) not in called and cur.attr not in _COLUMN_ATTRS_SKIP:
                out.columns.append(cur.attr)
            cur = cur.value
            continue
        if isinstance(cur, ast.Subscript):
            sl = cur.slice
            parts = list(sl.elts) if isinstance(sl, ast.Tuple) else [sl]
            if isinstance(sl, ast.Tuple) and parts and isinstance(parts[0], ast.Slice) and \
                    parts[0].lower is None and parts[0].upper is None:
                parts = parts[1:]  # df.loc[:, "x"]
            strs: list[str] = []
            for p in parts:
                elts = p.elts if isinstance(p, ast.List | ast.Tuple) else [p]
                for e in elts:
                    listed = _listed_columns(ev, e)
                    if isinstance(e, ast.Constant) and isinstance(e.value, str):
                        strs.append(e.value)
                    elif listed is not None:
                        strs += listed
                    else:
                        out.guarded = True  # a row mask, a slice, a computed key
            out.columns += strs
            cur = cur.value
            continue
        if isinstance(cur, ast.Name):
            out.root = cur.id
        else:
            out.guarded = True
        return out
    return out


def _agg_columns(call: ast.Call) -> tuple[list[str], set[str]]:
    """Columns a named / dict aggregation reads (`agg(m=("x", "mean"))`, `agg({"x": "mean"})`)
    and the output names that are counts (not summaries of a value)."""
    cols: list[str] = []
    counts: set[str] = set()
    for kw in call.keywords:
        v = kw.value
        if isinstance(v, ast.Tuple) and len(v.elts) == 2 and isinstance(
                v.elts[0], ast.Constant) and isinstance(v.elts[0].value, str):
            cols.append(v.elts[0].value)
            v = v.elts[1]
        if kw.arg and isinstance(v, ast.Constant) and v.value in _COUNT_AGGS:
            counts.add(kw.arg)
    for a in call.args:
        if isinstance(a, ast.Dict):
            cols += [k.value for k in a.keys
                     if isinstance(k, ast.Constant) and isinstance(k.value, str)]
    return cols, counts


def _resolve_chain(ev: Evidence, node: ast.AST, site: ast.AST, function: str | None,
                   depth: int = 0) -> list[tuple[str, list[str]]]:
    """(frame name, columns) the expression `node` reads, following helper parameters to
    their call sites, loop variables to the groupby they iterate and names bound once in the
    cell; [] when a guard (replace, mask, filter, clip, an unknown call) is on the way."""
    ch = _walk_chain(node, ev)
    if ch.guarded or ch.root is None or depth > 3:
        return []
    facts = ev.objects.get(ch.root)
    if facts is not None and facts.kind == "dataframe":
        return [(ch.root, ch.columns)]
    out: list[tuple[str, list[str]]] = []
    # a loop / comprehension variable over `df.groupby(g)` (`for _, grp in ...`)
    from .._columns import bindings_of, literal_assignment, loops_around
    for target, it in loops_around(ev, site):
        names = [target] if isinstance(target, ast.Name) else (
            list(target.elts) if isinstance(target, ast.Tuple) else [])
        if names and isinstance(names[-1], ast.Name) and names[-1].id == ch.root:
            for frame, cols in _resolve_chain(ev, it, it, None, depth + 1):
                out.append((frame, cols + ch.columns))
            return out
    for b in bindings_of(ev, function):
        if ch.root in b:
            for frame, cols in _resolve_chain(ev, b[ch.root], b[ch.root], None, depth + 1):
                out.append((frame, cols + ch.columns))
    if out or function:
        return out
    bound = literal_assignment(ev, ch.root)
    if bound is None:
        bound = _single_loop_binding(ev, ch.root, site)
    if bound is not None:
        for frame, cols in _resolve_chain(ev, bound, bound, None, depth + 1):
            out.append((frame, cols + ch.columns))
    return out


def _single_loop_binding(ev: Evidence, name: str, site: ast.AST) -> ast.expr | None:
    """The value of `name` when the cell binds it exactly once, by a plain assignment in the
    body of a loop that also holds `site` (`for g, x in df.groupby(k).col: v = x.to_numpy()`
    then `v.mean()`), so that the loop's groupby can be followed from the value."""
    binds = ev.model.assigned_at(name)
    if len(binds) != 1:
        return None
    stmt = binds[0].stmt
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)):
        return None
    from .._columns import loops_around
    around_site = {id(it) for _, it in loops_around(ev, site)}
    if not any(id(it) in around_site for _, it in loops_around(ev, stmt)):
        return None
    return stmt.value


@dataclass
class _SummarySite:
    line: int
    frame: str
    column: str
    targets: list[str]
    counts: set[str]
    method: str = ""  # mean, sum, describe, agg... (the call that summarises)


def _summary_sites(ev: Evidence) -> list[_SummarySite]:
    out: list[_SummarySite] = []
    for c in ev.model.calls:
        counts: set[str] = set()
        extra: list[str] = []
        method = c.method or c.last or ""
        if method in ("agg", "aggregate"):  # the functions it applies, by name
            method = " ".join(str(n.value) for n in _walk(c.node)
                              if isinstance(n, ast.Constant) and isinstance(n.value, str))
        if c.method in _SUMMARY_METHODS and c.receiver is not None and (not (
                c.name or "").startswith(("numpy.", "statistics.", "scipy.")) or (
                c.name or "").startswith("numpy.ndarray.")):  # `arr.mean()`, not `np.mean`
            src = c.receiver
            if c.method in ("agg", "aggregate"):
                extra, counts = _agg_columns(c.node)
        elif c.last in _SUMMARY_FUNCS and (c.name or "").startswith(
                ("numpy.", "statistics.")) and c.node.args:
            src = c.node.args[0]
        else:
            continue
        targets = list(c.targets)
        if c.function:  # a helper's summary comes back to the names its callers assign
            targets += [t for k in ev.model.calls if k.method is None
                        and k.name == c.function and k.function != c.function
                        for t in k.targets]
        for frame, cols in _resolve_chain(ev, src, c.node, c.function):
            facts = ev.objects[frame]
            named = cols + extra
            if not named:  # df.describe(), df.mean(): every numeric column
                named = list(facts.ranges)
            for col in named:
                if col in facts.ranges:
                    out.append(_SummarySite(c.line, frame, col, targets, counts, method))
    return out


def _negative_nines(v: float) -> bool:
    """-9, -99, -999 and the decimal codes loggers write (-99.9, -999.9, -9.99): a negative
    number whose digits are all nines (at least two of them unless it is -9)."""
    if v >= 0 or v in _NEGATIVE_CODES:
        return v in _NEGATIVE_CODES
    digits = f"{-v:.6f}".rstrip("0").rstrip(".").replace(".", "")
    return len(digits) >= 2 and set(digits) == {"9"}


def _sentinel_of(col: str, rng: list[float]) -> tuple[float, str] | None:
    """(code, side) when the column's range ends at a classic placeholder code."""
    lo, hi = float(rng[0]), float(rng[1])
    if hi in _NINES_CODES or hi in _MACHINE_CODES:
        return hi, "max"
    if _negative_nines(lo) and hi > 0 and -lo >= 5 * hi:
        return lo, "min"
    if lo == -1.0 and hi >= 10 and (_physical_key(col) or _duration_key(col) == "nonneg"):
        return lo, "min"
    return None


def _negative_code_of(tails: dict | None) -> tuple[float, str] | None:
    """(code, "min") when the kernel's tails show a negative placeholder (-9, -99, -999...)
    repeated at the bottom of a column whose other values are all >= 0: a measurement
    that failed, not a value (whatever the magnitude of the real values)."""
    bottom = (tails or {}).get("bottom") or []
    if len(bottom) < 2:
        return None
    code, rows, after = float(bottom[0][0]), int(bottom[0][1]), float(bottom[1][0])
    if _negative_nines(code) and rows >= 2 and (after >= 0 or _far_below(tails, code, after)):
        return code, "min"
    return None


def _far_below(tails: dict, code: float, after: float) -> bool:
    """A negative all-nines code (-99.9, -999) sits below signed measurements (temperatures,
    anomalies) with a gap to the next value over twice the central 5-95 % spread: the values
    do not run down to it, it is a code (a real cold extreme is a step, not a cliff)."""
    q = tails.get("q") or []
    if len(q) != 3 or not _negative_nines(code):
        return False
    spread = float(q[2]) - float(q[0])
    return 0 < 2 * spread < after - code


# names of quantities that are counted or measured from zero up: a -1 among them is a code
_FROM_ZERO_TOKENS = {"count", "counts", "n", "num", "number", "qty", "quantity", "amount",
                     "orders", "visits", "items", "sessions", "purchases", "clicks", "logins",
                     "spend", "spent", "paid", "revenue", "price", "cost", "size", "weight",
                     "height", "length", "distance", "since", "to", "till"}


# reaction times and latencies: measured from a stimulus onwards, never negative
_RT_TOKENS = {"rt", "rts", "reaction", "latency", "latencies", "rxn"}


def _minus_one_spike(tails: dict | None, n: int) -> bool:
    """The kernel's tails show -1 as a spike under values that are all >= 0: at least 10
    rows and 5 % of the column hold -1, at least three times as many as the next value, and
    the other values are not a small -1/0/1 code (the largest is 3 or more, or the values
    are fractional measurements such as seconds)."""
    t = tails or {}
    bottom, top = t.get("bottom") or [], t.get("top") or []
    if len(bottom) < 2 or not top or n <= 0:
        return False
    code, rows = float(bottom[0][0]), int(bottom[0][1])
    after, after_rows = float(bottom[1][0]), int(bottom[1][1])
    high = float(top[0][0])
    if code != -1.0 or after < 0:
        return False
    if high < 3 and after.is_integer() and high.is_integer():
        return False  # -1 / 0 / 1: a ternary code, not a placeholder
    return rows >= 10 and rows / n >= 0.05 and rows >= 3 * after_rows


def _minus_one_code(col: str, tails: dict | None, n: int) -> tuple[float, str] | None:
    """(-1, "min") when the kernel's tails show -1 as a spike under values that are all
    >= 0 (`_minus_one_spike`) in a column named as a duration, reaction time / latency,
    count or amount (`days_to_paid`, `n_orders`, `rt_ms`): "never happened" / "no
    response" / "not applicable" written as -1. Quiet for signed names (delay, change,
    offset...)."""
    if not _minus_one_spike(tails, n):
        return None
    toks = set(_tokens(col))
    if toks & _SIGNED_TOKENS:
        return None
    if _duration_key(col) is not None or _physical_key(col) or toks & (
            _FROM_ZERO_TOKENS | _RT_TOKENS):
        return -1.0, "min"
    return None


# "don't know" / "refused" / "not applicable" codes that survey exports put just above a short
# rating scale (1-5 then 8, 9; 0-10 then 97, 98, 99)
_SURVEY_CODES = {7.0, 8.0, 9.0, 77.0, 88.0, 96.0, 97.0, 98.0, 99.0, 777.0, 888.0, 997.0,
                 998.0, 999.0}


@dataclass
class _SurveyCodes:
    codes: list[tuple[float, int]]  # (code, rows), largest first
    top: float  # the scale's largest level
    bottom: float  # the scale's smallest level
    rows: int
    share: float


def _survey_codes(tails: dict | None, n: int) -> _SurveyCodes | None:
    """The kernel's tails show a short integer rating scale starting at 0 or 1 (bottom levels
    consecutive, top level at most 10) with, above it and after a gap of at least one
    unused level, one to three values from the survey code set (8/9, 97/98/99...): the
    non-response codes of the question, at least 5 rows and 1 % of the column."""
    t = tails or {}
    top, bottom = t.get("top") or [], t.get("bottom") or []
    if len(top) < 2 or len(bottom) < 2 or n <= 0:
        return None
    vals = [float(v) for v, _ in top + bottom]
    if not all(v.is_integer() for v in vals):
        return None
    lows = [float(v) for v, _ in bottom]
    if lows[0] not in (0.0, 1.0) or any(b - a != 1.0 for a, b in pairwise(lows)):
        return None
    highs = [(float(v), int(r)) for v, r in top]
    # the first gap of two or more levels, from the top: codes above it, the scale below
    cut = next((i for i in range(len(highs) - 1) if highs[i][0] - highs[i + 1][0] >= 2), None)
    if cut is None:
        return None
    codes, scale_top = highs[:cut + 1], highs[cut + 1][0]
    if not 3 <= scale_top <= 10 or any(c not in _SURVEY_CODES for c, _ in codes):
        return None
    rows = sum(r for _, r in codes)
    if rows < 5 or rows / n < 0.01 or highs[cut + 1][1] < 0.02 * n:
        return None
    return _SurveyCodes(codes, scale_top, lows[0], rows, rows / n)


_BELOW_OPS = (ast.Lt, ast.LtE)
_CODE_CALLS = {"replace", "isin", "between", "mask", "where", "clip", "drop", "ne", "eq",
               "lt", "le", "gt", "ge", "query", "astype"}
_QUERY_NUM_RE = re.compile(r"[<>=!]=?\s*(\d+(?:\.\d+)?)")


def _survey_codes_handled(tree: ast.AST, sc: _SurveyCodes) -> bool:
    """The cell deals with the codes: it compares with one (`!= 9`, `>= 8`, `isin([8, 9])`,
    `replace({8: np.nan})`, `query("q < 8")`), or keeps the scale (`< 6`, `<= 5`,
    `between(1, 5)`)."""
    codes = {c for c, _ in sc.codes}
    upper = {sc.top + k for k in range(int(min(codes) - sc.top))}  # 5, 6, 7 under 8

    def num(n: ast.AST) -> float | None:
        if isinstance(n, ast.Constant) and isinstance(n.value, int | float) and \
                not isinstance(n.value, bool):
            return float(n.value)
        return None

    for n in _walk(tree):
        if isinstance(n, ast.Compare):
            for op, right in zip(n.ops, n.comparators, strict=True):
                v = num(right)
                if v in codes or (isinstance(op, _BELOW_OPS) and v in upper):
                    return True
                if isinstance(right, ast.List | ast.Tuple | ast.Set) and any(
                        num(e) in codes for e in right.elts):
                    return True
        elif isinstance(n, ast.Call) and _call_last(n) in _CODE_CALLS:
            for a in [*n.args, *(k.value for k in n.keywords)]:
                elts = list(a.elts) if isinstance(a, ast.List | ast.Tuple | ast.Set) else (
                    [k for k in a.keys if k is not None] if isinstance(a, ast.Dict) else [a])
                if any(num(e) in codes for e in elts):
                    return True
                if _call_last(n) in ("between", "clip", "lt", "le") and num(a) in upper:
                    return True
                if isinstance(a, ast.Constant) and isinstance(a.value, str) and any(
                        float(m) in codes | upper for m in _QUERY_NUM_RE.findall(a.value)):
                    return True
    return False


def _survey_finding(ev: Evidence, frame: str, col: str, group: list[_SummarySite],
                    sc: _SurveyCodes) -> Finding | None:
    """Non-response codes (8 / 9, 97-99) above a short rating scale, averaged into it."""
    group = [s for s in group if set(s.method.split()) & (_LOCATION | _MEAN_LIKE)]
    if not group or _survey_codes_handled(ev.tree, sc):
        return None
    lines = sorted({s.line for s in group})
    lo = min(c for c, _ in sc.codes)
    lift = sc.share * (lo - sc.top)
    codes_txt = ", ".join(f"{_num(c)} ({r:,} rows)" for c, r in sorted(sc.codes))
    scale = f"{_num(sc.bottom)}-{_num(sc.top)}"
    return Finding(
        explanation=(f"`{frame}.{col}` is a {scale} scale plus the values {codes_txt}: "
                     f"{sc.rows:,} rows ({sc.share:.1%}) sit above the scale's top level "
                     f"{_num(sc.top)}, after unused levels, at the codes surveys write for "
                     "'don't know' / 'refused' / 'not applicable'. The summary on "
                     f"line{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines))} "
                     "averages them as ratings, so every mean is pushed up by at least "
                     f"{lift:.2f} points on the {scale} scale ({sc.share:.1%} x "
                     f"({_num(lo)} - {_num(sc.top)})), most in the groups with the most "
                     "non-response, and any 'top box' share counts them as top answers."),
        severity="high", confidence=0.75,
        evidence={"lines": lines, "values": {f"{frame}.{col}": [sc.bottom, sc.top],
                                             "codes": {_num(c): r for c, r in sc.codes},
                                             "code_share": round(sc.share, 4)}},
        suggestion=(f"Treat {', '.join(_num(c) for c, _ in sc.codes)} as missing on this "
                    f"question (`df['{col}'].where(df['{col}'].between({_num(sc.bottom)}, "
                    f"{_num(sc.top)}))`), compute the means and top-box shares on the valid "
                    "answers only, and report the non-response share (and base) per group "
                    "alongside."))


def _bulk_values(ev: Evidence, site: _SummarySite) -> list[float]:
    """What the cell's own summaries of the column came to: the kernel's values of the
    names the summary is assigned to (count outputs left out), or a printed describe /
    Series of the column."""
    vals: list[float] = []
    for t in site.targets:
        f = ev.objects.get(t)
        if f is None:
            continue
        if isinstance(f.value, int | float) and not isinstance(f.value, bool):
            vals.append(float(f.value))
        vals += [float(v) for v in (f.values or [])]
        for col, rng in (f.ranges or {}).items():
            if col not in site.counts and rng and not set(_tokens(col)) & _NOT_LOCATION_TOKENS:
                vals += [float(rng[0]), float(rng[1])]
    rows = _footer_blocks(ev.text or "", site.column)
    if rows:
        labelled = dict(rows)
        if "max" in labelled:
            vals += [labelled[k] for k in ("mean", "50%", "75%") if k in labelled]
        else:
            vals += [v for _, v in rows]
    return vals


def _num(v: float | None) -> str:
    if v is not None and float(v).is_integer() and abs(v) < 1e12:
        return str(int(v))
    return _fmt(float(v or 0.0))


def _code_in_cell(tree: ast.AST, code: float) -> bool:
    """The cell names the code: a literal `-99` (a unary minus on 99 in the AST), `999`,
    `-99.9`, or a string holding it (a query, a `na_values` list)."""
    text = _num(code)
    for n in _walk(tree):
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub) and isinstance(
                n.operand, ast.Constant) and isinstance(n.operand.value, int | float) and \
                not isinstance(n.operand.value, bool) and -float(n.operand.value) == code:
            return True
        if isinstance(n, ast.Constant):
            if isinstance(n.value, int | float) and not isinstance(n.value, bool) and \
                    float(n.value) == code:
                return True
            if isinstance(n.value, str) and text in n.value:
                return True
    return False


_MEAN_LIKE = {"mean", "nanmean", "average", "fmean", "sum", "nansum", "describe", "std",
              "nanstd", "var", "nanvar", "sem", "stdev", "pstdev", "variance", "pvariance"}
_ZERO_IMPOSSIBLE = {"height", "bmi", "handle", "talk", "hold"}
# quantities a recorded row cannot have at exactly 0: what a sold item fetched, what was paid,
# a body's weight, an object's size. A block of zeros in them stands for "no sale", "not
# paid", "not weighed"
_ZERO_NOT_A_VALUE = _ZERO_IMPOSSIBLE | {
    "price", "prices", "hammer", "fare", "fares", "rent", "paid", "sale", "premium",
    "weight", "weights", "wt", "mass", "length", "width", "diameter", "size", "sqft"}
# quantities where 0 is an ordinary value (a count, nothing sold, a dry day, no discount), or
# that are signed / relative, or a weight that is not a measurement (a sample or portfolio
# weight may be 0)
_ZERO_IS_A_VALUE = _SIGNED_TOKENS | {
    "count", "counts", "n", "num", "number", "qty", "quantity", "units", "unit", "sales",
    "visits", "visit", "defects", "defect", "errors", "rain", "rainfall", "precip",
    "precipitation", "snow", "revenue", "spend", "spent", "discount", "tip", "tips",
    "refund", "refunds", "loss", "gain", "returns", "return", "items", "orders", "clicks",
    "sample", "portfolio", "class", "allocation", "alloc", "share", "pct", "percent",
    "rate", "ratio", "prop", "proportion", "frac", "fraction", "is", "has", "flag", "any",
    "total", "sum", "cum", "cumulative", "extra", "fee", "fees", "tax", "bonus", "overtime",
    "penalty", "fine", "donation", "missed", "lost", "absent", "absence", "outstanding",
    "due", "owed", "arrears", "debt"}
# location summaries: a block of placeholder zeros drags them down (a total is unaffected)
_LOCATION = {"mean", "nanmean", "average", "fmean", "median", "nanmedian", "describe",
             "quantile", "nanquantile", "percentile", "nanpercentile"}
_ZERO_TEST_RE = re.compile(r"(?:[<>]=?|[!=]=)\s*0(?:\.0*)?(?![\d.])|\bnonzero\b")
_ZERO_METHODS = {"replace", "mask", "where", "ne", "eq", "gt", "ge", "lt", "le", "clip",
                 "isin", "drop", "nonzero", "flatnonzero", "count_nonzero"}


@dataclass
class _Tail:
    code: float
    rows: int  # rows holding the code (exact when set apart, see ObjectFacts.tails)
    after: float  # the next distinct value inward
    apart: bool  # repeated exact value far from the rest
    rest: float  # a (generous) location of the other values
    share: float


def _tail_of(t: dict, side: str, n: int) -> _Tail | None:
    """The extreme value of a kernel `tails` fact on one side and how far it sits from the
    next distinct value: 8x the next value's magnitude, or 5x the central spread."""
    ends = t.get("top" if side == "max" else "bottom") or []
    q = t.get("q") or []
    if len(ends) < 2 or len(q) != 3 or n <= 0:
        return None
    code, rows = float(ends[0][0]), int(ends[0][1])
    after = float(ends[1][0])
    q05, q50, q95 = (float(x) for x in q)
    spread = q95 - q05
    gap = abs(code - after)
    if side == "max":
        apart = code > 0 and ((after >= 0 and code >= 8 * after) or
                              (0 < 5 * spread < gap) or _nines_spike(code, rows, ends, n))
        rest = (q05 + q50 + min(q95, after)) / 3
    else:
        # a negative code below values that are all >= 0 (-999 under intensities, counts)
        apart = code < 0 and ((after >= 0 and (-code >= 8 * after or _negative_nines(code)))
                              or (0 < 5 * spread < gap)
                              or (_negative_nines(code) and 0 < 2 * spread < gap))
        rest = (max(q05, after) + q50 + q95) / 3
    return _Tail(code, rows, after, apart and rows >= 2, rest, rows / n)


def _nines_spike(code: float, rows: int, ends: list, n: int) -> bool:
    """An all-nines code (99, 999, 99999) at the top of a column as a spike of its own: at
    least 10 rows and 1 % of the column, ten times the rows of the next value, which lies at
    most half-way up to it (the values do not run up to the code, e.g. mileages up to 37,000
    then 7 % of rows at exactly 99999 'not declared'). A real maximum is neither repeated
    that often nor all nines."""
    if code not in _NINES_CODES or len(ends) < 2:
        return False
    after, after_rows = float(ends[1][0]), int(ends[1][1])
    return 0 < 2 * after <= code and rows >= 10 and rows >= 0.01 * n and \
        rows >= 10 * max(after_rows, 1)


def _moved(tail: _Tail) -> float | None:
    """How many times the code rows move a mean of the column (with / without), from the
    code's share and a generous location of the rest; None when it cannot be told."""
    if tail.rest <= 0 or not 0 < tail.share < 0.5:
        return None
    with_code = tail.share * tail.code + (1 - tail.share) * tail.rest
    if with_code <= 0:
        return float("inf")
    return max(with_code / tail.rest, tail.rest / with_code)


def _zero_block(t: dict, n: int) -> _Tail | None:
    """A block of exact zeros set apart from the other values: at least 10 rows and 5% of
    the column (under half), at least three distinct values, and a smallest non-zero value
    that is not on the grid continuing down to 0 (at least 1.5x the step to the next value:
    0, 0.1, 0.2 mm of rain or 0, 1, 2 visits run on to 0; 0, 110, 150 pounds does not) and
    not tiny against the median (>= 2% of it)."""
    bottom, q = t.get("bottom") or [], t.get("q") or []
    if len(bottom) < 3 or len(q) != 3 or n <= 0 or float(bottom[0][0]) != 0.0:
        return None
    rows, after, nxt = int(bottom[0][1]), float(bottom[1][0]), float(bottom[2][0])
    q50 = float(q[1])
    share = rows / n
    if rows < 10 or not 0.05 <= share < 0.5 or q50 <= 0 or after <= 0:
        return None
    if after < 1.5 * (nxt - after) or after < 0.02 * q50:
        return None
    return _Tail(0.0, rows, after, True, q50, share)


def _zero_status(facts: ObjectFacts, col: str) -> tuple[str, list] | None:
    """(status column, [share zero in class a, in class b, a, b]) when a two-valued column
    of the frame marks the zero rows as a class of their own (kernel `outcome_indicators`:
    the column is 0 for ~all rows of one class and set for most of the other)."""
    found = (facts.params or {}).get("outcome_indicators") or {}
    for status, cols in found.items():
        if isinstance(cols, dict) and col in cols and status != col:
            return status, list(cols[col])
    return None


def _zero_placeholder(col: str, t: dict, n: int,
                      facts: ObjectFacts | None = None) -> tuple[_Tail, str, str | None] | None:
    """A spike of exact zeros standing for 'not recorded' / 'did not happen' rather than a
    value: (tail, why, status column). Either the column names a quantity that cannot be 0
    (a duration, an age, a handle time, a price fetched, a weight, a size) or a two-valued
    column of the frame marks exactly the zero rows as another status; quiet for names
    where 0 is an ordinary value (counts, units sold, rainfall, revenue, discounts)."""
    toks = set(_tokens(col))
    tail = _zero_block(t, n)
    if tail is None:
        return None
    status = _zero_status(facts, col) if facts is not None else None
    if _duration_key(col) == "nonneg" or toks & _ZERO_IMPOSSIBLE:
        return tail, "name", status[0] if status else None
    if toks & _ZERO_IS_A_VALUE:
        return None
    if toks & _ZERO_NOT_A_VALUE:
        return tail, "name", status[0] if status else None
    if status is not None:
        return tail, "status", status[0]
    return None


def _zero_handled(tree: ast.AST) -> bool:
    """The cell tests or replaces zeros somewhere (`x > 0`, `x != 0`, `.replace(0, np.nan)`,
    `.mask(x.eq(0))`, `query("x > 0")`, `np.nonzero`): it knows about them."""
    def zero(n: ast.AST) -> bool:
        return isinstance(n, ast.Constant) and isinstance(n.value, int | float) and \
            not isinstance(n.value, bool) and float(n.value) == 0.0
    for n in _walk(tree):
        if isinstance(n, ast.Compare) and any(zero(x) for x in [n.left, *n.comparators]):
            return True
        if isinstance(n, ast.Call):
            name = n.func.attr if isinstance(n.func, ast.Attribute) else (
                n.func.id if isinstance(n.func, ast.Name) else "")
            if name in _ZERO_METHODS and (
                    name.endswith("nonzero") or any(zero(a) for a in n.args) or any(
                        zero(e) for a in n.args if isinstance(a, ast.List | ast.Tuple | ast.Set)
                        for e in a.elts)):
                return True
        if isinstance(n, ast.Dict) and any(k is not None and zero(k) for k in n.keys):
            return True
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and \
                _ZERO_TEST_RE.search(n.value):
            return True
        if isinstance(n, ast.Attribute) and n.attr in ("nonzero", "flatnonzero"):
            return True
    return False


@rule("suspicious_values.sentinel_code_in_summary",
      title="A placeholder code (65535, 9999, -999...) averaged as a real value")
def sentinel_code_in_summary(ev: Evidence) -> Iterator[Finding]:
    """Exports write placeholder codes for missing or broken measurements: 99 / 999 / 9999
    for "unknown", 65535 or 32767 for a 16-bit counter or timer that overflowed, -999 for
    "not measured". A mean, sum, standard deviation, quantile or describe() of a column that
    still holds such a code averages it as a real value. Evidence: the kernel's range of the
    summarised column ends exactly at a code and the code sits far from the rest - the
    cell's own summaries of the column are at most an eighth of it (or, for a negative code,
    its magnitude is five times the column's maximum, or the column is a count / age /
    duration that cannot be -1). Quiet when the code is replaced, masked, clipped or filtered
    out on the way to the summary (or named anywhere in the cell), and when the summarised
    frame no longer holds it."""
    found = sorted(_sentinel_findings(ev), key=lambda sf: (
        -sf[1].severity.rank, -sf[1].confidence, -sf[0]))
    for _, f in found:  # the most affected column first (findings on the same lines merge)
        yield f


def _sentinel_findings(ev: Evidence) -> Iterator[tuple[float, Finding]]:
    if ev.tree is None or not any(f.ranges for f in ev.objects.values()):
        return
    sites = _summary_sites(ev)
    by_col: dict[tuple[str, str], list[_SummarySite]] = {}
    for s in sites:
        by_col.setdefault((s.frame, s.column), []).append(s)
    for (frame, col), group in by_col.items():
        facts = ev.objects[frame]
        rng = facts.ranges[col]
        tails = facts.tails.get(col) if facts.tails else None
        n = (facts.rows or 0) - int(facts.missing.get(col, 0) or 0)
        found = _sentinel_of(col, rng) or _negative_code_of(tails) or _minus_one_code(
            col, tails, n)
        below_zero: list[float] = []
        if found is None and _minus_one_spike(tails, n) and not set(_tokens(col)) & \
                _SIGNED_TOKENS:
            # whatever the name: a column of positive values plus a block of -1 whose own
            # summary in this cell comes out negative - the -1 rows were averaged in
            below_zero = sorted(v for s in group for v in _bulk_values(ev, s) if v < 0)
            if below_zero and float(tails["bottom"][1][0]) > 0:
                found = (-1.0, "min")
        if found is None and not below_zero:
            sc = _survey_codes(tails, n)
            if sc is not None:
                f = _survey_finding(ev, frame, col, group, sc)
                if f is not None:
                    yield sc.share, f
                continue
        tail: _Tail | None = None
        zero = False
        zero_by, status = "", None
        if found is None and tails:
            placeholder = _zero_placeholder(col, tails, n, facts)
            if placeholder is None:
                continue
            tail, zero_by, status = placeholder
            found, zero = (0.0, "min"), True
            group = [s for s in group if set(s.method.split()) & _LOCATION]
            if not group or _zero_handled(ev.tree):
                continue
        elif found is None:
            continue
        code, side = found
        if code == -1.0 and not below_zero:
            below_zero = sorted(v for s in group for v in _bulk_values(ev, s) if v < 0)
        if tails and not zero:
            tail = _tail_of(tails, side, n)
            if tail is not None and tail.code != code:
                tail = None
            if tail is not None and not tail.apart and code != -1.0:
                continue  # the values run up to the code: an ordinary extreme
        if not zero and _code_in_cell(ev.tree, code):
            continue
        lines = sorted({s.line for s in group})
        bulk = [abs(v) for s in group for v in _bulk_values(ev, s)]
        rows_txt = (f"{tail.rows:,} row{'s' if tail.rows != 1 else ''} "
                    f"({tail.share:.1%}) hold exactly {_num(code)}") if tail else ""
        if zero and tail is not None:
            marked = ""
            if status is not None:
                za, zb, a, b = (facts.params["outcome_indicators"][status][col] + [0, 0, "", ""]
                                )[:4]
                zero_class, other = (a, b) if za >= zb else (b, a)
                marked = (f"; the zeros line up with `{status}` = {zero_class!r} "
                          f"({max(za, zb):.0%} of those rows are 0, against "
                          f"{min(za, zb):.0%} where `{status}` = {other!r}), so they mark "
                          "another status (not sold, not measured), not a value")
            why = (f"{rows_txt}, while the next smallest value is {_num(tail.after)} and "
                   f"the median {_num(tail.rest)}"
                   + (f": `{col}` cannot really be 0, so the zeros look like 'not "
                      "recorded' or 'did not happen'" if zero_by == "name" else "")
                   + marked)
        elif tail is not None and tail.apart and side == "min" and code < -1 and \
                tail.after >= 0:
            why = (f"{rows_txt}, while every other value is >= 0 (the smallest is "
                   f"{_num(tail.after)}): a negative code below non-negative measurements")
        elif tail is not None and code == -1.0 and tail.after >= 0 and below_zero:
            why = (f"{rows_txt}, while every other value is >= 0 (the smallest is "
                   f"{_num(tail.after)}), and the cell's own summary of it comes out "
                   f"negative ({_num(below_zero[0])}) although no real value is: -1 "
                   "stands for 'no response' / 'not applicable', not a measurement")
        elif tail is not None and code == -1.0 and tail.after >= 0:
            why = (f"{rows_txt}, while every other value is >= 0 (the smallest is "
                   f"{_num(tail.after)}): `{col}` cannot be negative (it counts or measures "
                   "from zero), so -1 stands for 'never happened' / 'not applicable'")
        elif tail is not None and tail.apart:
            why = (f"{rows_txt}, and the next {'largest' if side == 'max' else 'smallest'} "
                   f"value is only {_num(tail.after)}"
                   + (f"; `{col}` cannot be negative" if code == -1.0 else ""))
        elif side == "max":
            top = max(bulk) if bulk else None
            if top is not None and (top == 0 or code < 8 * top):
                continue  # the summaries reach the code's order: a plausible value
            if top is None and code not in _MACHINE_CODES:
                continue
            why = (f"the cell's own summaries of it are at most {_num(top)}, "
                   f"{code / top:.0f}x below the code" if top else
                   "no summary value could be read to show how far it sits from the rest")
        else:
            why = (f"the rest of the column reaches only {_num(rng[1])}" if code != -1.0 else
                   f"`{col}` cannot be negative")
        severity, conf = ("high", 0.75) if (side == "min" or bulk or (
            tail is not None and tail.apart)) else ("medium", 0.5)
        if zero:  # a name that rules 0 out, or a status column marking the zero rows
            severity, conf = (("high", 0.75) if zero_by == "name" and status else
                              ("high", 0.7) if zero_by == "name" else ("medium", 0.55))
        moved = _moved(tail) if tail is not None and tail.apart and not zero else None
        mean_like = any(set(s.method.split()) & _MEAN_LIKE for s in group)
        shift = ""
        if moved is not None and moved > 2 and mean_like:
            severity, conf = "critical", 0.85
            with_code = tail.share * tail.code + (1 - tail.share) * tail.rest
            how = (f"about {moved:.1f}x {'above' if side == 'max' else 'away from'} the mean "
                   "without them" if moved != float("inf") else
                   f"at about {_num(round(with_code, 2))}, below zero although every real "
                   "value is >= 0 (sums and totals turn negative)")
            shift = (f" With {tail.share:.1%} of the rows at {_num(code)} and the other "
                     f"values around {_num(tail.rest)}, the mean comes out {how}: the "
                     "reported summary is not a summary of the measurements.")
        if not zero and code == -1.0 and tail is not None and tail.after >= 0 and \
                tail.share >= 0.5 and any(set(s.method.split()) & (_LOCATION | _MEAN_LIKE)
                                          for s in group):
            severity, conf = "critical", 0.85
            shift = (f" With {tail.share:.0%} of the rows at -1, the median is -1 itself and "
                     "the mean is less than half of what the real values average: the "
                     "reported summary is not a summary of the measurements.")
        what = ("a value that exports also write for missing or not-applicable entries"
                if zero else "a placeholder code that exports write for missing, unknown or "
                "overflowed values")
        effect = ("zeros as real values, so means, medians and lower quantiles are pulled "
                  "down (most in the groups where the zeros are most frequent) and describe "
                  "neither the recorded values nor how often the value is missing." if zero
                  else "code as a real measurement, so means, totals, spreads and "
                  f"{'upper' if side == 'max' else 'lower'} quantiles are biased (most "
                  "where the code is most frequent).")
        yield (tail.share if tail else 0.0), Finding(
            explanation=(f"`{frame}.{col}` runs from {_num(rng[0])} to {_num(rng[1])}: its "
                         f"{side}imum is exactly {_num(code)}, {what}, and {why}. The "
                         f"summary on line{'s' if len(lines) > 1 else ''} "
                         f"{', '.join(map(str, lines))} averages the {effect}" + shift),
            severity=severity, confidence=conf,
            evidence={"lines": lines, "values": {f"{frame}.{col}": list(rng),
                                                 "code": code,
                                                 **({"code_rows": tail.rows,
                                                     "next_value": tail.after}
                                                    if tail else {}),
                                                 **({"mean_moved_x": round(moved, 2)}
                                                    if moved is not None else {}),
                                                 **({"status_column": status}
                                                    if status else {})}},
            suggestion=(f"Count the rows where `{col}` is 0 and report that share on its "
                        "own (e.g. a sell-through or completion rate); compute the "
                        f"averages on the other rows: `df.loc[df['{col}'] > 0, '{col}']` "
                        f"or `df['{col}'].replace(0, np.nan)`, with the number of rows "
                        "each summary is based on." if zero else
                        f"Count the rows equal to {_num(code)} (`(df['{col}'] == "
                        f"{_num(code)}).sum()`), then treat them as missing before "
                        f"summarising: `df['{col}'].replace({_num(code)}, np.nan)` or "
                        f"`df[df['{col}'] != {_num(code)}]`, and report how many were "
                        "excluded (and whether other codes such as 0 mean 'not measured')."))
