"""Rows silently lost before a summary: missing values dropped (`dropna`, `notna` masks,
`to_numeric(errors="coerce")` then dropna or a NaN-skipping mean), failed runs filtered out
(`df[df.status == "ok"]`, `~df.failed`, `query("status == 'success'")`), inner merges that
lose unmatched rows, deduplication on a key coarser than a record (`drop_duplicates(
subset="customer_id")` on orders), dates or numbers coerced to NaT/NaN that a resample,
groupby or mean in the same chain then skips, and then a mean / describe / groupby / test on
what is left, with nothing in the cell saying how many rows went.

How many rows went comes from the kernel: the shape of a name filtered in place read before
the cell ran (`ev.before`) against after; the raw and the cleaned frame when both are named;
the source frame's NaN counts. "Reported" means the cell prints, displays, logs or asserts a
count (len/shape before and after, `isna().sum()`, `value_counts()` of the status, a message
with the number removed), or its output says so.
"""

from __future__ import annotations

import ast
import re
import weakref
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..ast_cache import walk as _walk
from ..code_model import CallSite
from ..code_model import called_name as _call_last
from ..code_model import name_tokens as _tokens
from ..code_model import names_in as _names
from ..code_model import root_name as _root
from ..evidence import Evidence, ObjectFacts
from ..findings import Finding
from ..rule import rule
from ._columns import enclosing_loop_iter, loops_around
from .suspicious_values import CellIndex, cell_index

SUMMARY_METHODS = {
    "mean", "median", "describe", "agg", "aggregate", "std", "var", "sum", "quantile", "corr",
    "cov", "pivot_table", "sem", "mode", "min", "max", "average", "percentile", "nanmean",
    "nanmedian", "crosstab", "mean_confidence_interval", "fmean",
}
STAT_TESTS = {
    "ttest_ind", "ttest_rel", "ttest_1samp", "mannwhitneyu", "wilcoxon", "ranksums",
    "kruskal", "f_oneway", "chi2_contingency", "chisquare", "fisher_exact", "ks_2samp",
    "pearsonr", "spearmanr", "kendalltau", "pointbiserialr", "brunnermunzel", "ztest",
    "proportions_ztest", "anova_lm", "pairwise_tukeyhsd", "levene", "bartlett",
}
FIT_CALLS = {"fit", "ols", "OLS", "logit", "Logit", "glm", "GLM", "mixedlm",
             "cross_val_score", "cross_validate", "fit_transform"}
# Row-preserving rebinds: `df = df.reset_index(drop=True)` keeps the after-shape meaningful.
ROW_PRESERVING = {"reset_index", "sort_values", "sort_index", "rename", "assign", "copy",
                  "astype", "set_index", "fillna", "round", "infer_objects", "convert_dtypes"}

# Columns that flag a run's success, and the values that name one.
STATUS_COLUMNS = {
    "status", "ok", "success", "succeeded", "successful", "failed", "fail", "failure",
    "failures", "error", "errors", "err", "errored", "exception", "crashed", "crash", "valid",
    "invalid", "isvalid", "converged", "convergence", "completed", "complete", "done",
    "finished", "passed", "timeout", "timedout", "exitcode", "returncode", "retcode",
    "excluded", "exclude", "bad", "qc", "usable", "aborted", "killed", "diverged", "broken",
}
STATUS_VALUES = {
    "ok", "success", "succeeded", "successful", "complete", "completed", "done", "finished",
    "passed", "pass", "failed", "fail", "failure", "error", "errored", "crashed", "timeout",
    "aborted", "cancelled", "canceled", "killed", "invalid", "excluded", "diverged", "broken",
}
_SPLIT_COLUMNS = {"split", "set", "fold", "subset", "partition", "group", "arm", "condition"}
_STATUS_COL_RE = re.compile(r"(?<![\w'\"])(?:\w*_)?(?:" + "|".join(sorted(
    STATUS_COLUMNS, key=len, reverse=True)) + r")(?:_\w*)?(?![\w'\"])", re.IGNORECASE)
_STATUS_VAL_RE = re.compile(r"['\"](?:" + "|".join(sorted(
    STATUS_VALUES, key=len, reverse=True)) + r")['\"]", re.IGNORECASE)
_MISSING_CALLS = {"notna", "notnull", "isna", "isnull", "isfinite", "isnan"}
_COUNT_METHODS = {"value_counts", "info", "count"}
_LOG_CALLS = {"warn", "warning", "info", "debug", "log", "write", "display", "print",
              "Markdown"}
_REPORT_TEXT = re.compile(
    r"(?i)\b(?:drop|dropped|dropping|remov\w*|exclud\w*|discard\w*|filter\w*|lost|"
    r"missing|nans?|null|fail\w*|kept|keep(?:ing)?|retain\w*|skipp\w*|invalid|unmatched|"
    r"coerc\w*|out of|rows?)\b")
_INT_RE = re.compile(r"(?<![\d.])\d+(?![\d.])|\d+(?:\.\d+)?\s*%")


def _str_list(node: ast.AST | None) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.List | ast.Tuple):
        return [e.value for e in node.elts
                if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return []


def _coerced_into(stmt: ast.stmt, col: str | None) -> tuple[str | None, str | None]:
    """(column, frame) a coerced value is stored in: `df["x"] = ...` gives ("x", "df"), `y =
    ...` gives (col, "y"); anything else keeps the source column and no target."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
        return col, None
    t = stmt.targets[0]
    if isinstance(t, ast.Name):
        return col, t.id
    return _column_of(t) or col, _root(t)


def _column_of(node: ast.AST | None) -> str | None:
    """`x` for `df.x`, `df["x"]`."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.attr
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(
            node.slice.value, str):
        return node.slice.value
    return None


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


# -- drop sites -----------------------------------------------------------------------------


@dataclass
class _Drop:
    kind: str  # missing | failed | merge | coerce
    line: int
    stmt: ast.stmt
    node: ast.AST
    source: str | None  # the frame rows are dropped from
    target: str | None  # the name holding the remaining rows (None: used inline)
    in_place: bool
    columns: list[str] = field(default_factory=list)
    inline_summary: str | None = None  # summary computed in the same expression
    plain: bool = True  # drops from the whole source (`df`, `df.x`), not from a subset of it
    via: str | None = None  # helper function the drop happens in
    coerced: bool = False  # NaNs were created by errors="coerce"
    right: str | None = None  # merge: the other frame
    parse: str | None = None  # a string parse whose failures become NaN ("str.extract")
    parsed_from: str | None = None  # the column parsed (its own NaN are not the parse's)
    sides: list[tuple[ast.AST, list[str]]] = field(default_factory=list)  # merge: (input, keys)


def _mask_kind(mask: ast.AST) -> tuple[str, list[str]] | None:
    """'missing' for notna/isfinite masks, 'failed' for status/failure masks."""
    cols: list[str] = []
    missing = failed = False
    for sub in _walk(mask):
        if isinstance(sub, ast.Call):
            last = _call_last(sub)
            if last in _MISSING_CALLS:
                missing = True
                target = sub.func.value if isinstance(sub.func, ast.Attribute) and last in (
                    "notna", "notnull", "isna", "isnull") and not isinstance(
                    sub.func.value, ast.Name) else (sub.args[0] if sub.args else None)
                col = _column_of(target)
                if col:
                    cols.append(col)
        elif isinstance(sub, ast.Compare) and len(sub.comparators) == 1 and isinstance(
                sub.ops[0], ast.Eq | ast.NotEq) and ast.dump(sub.left) == ast.dump(
                sub.comparators[0]):
            missing = True  # x == x
        if isinstance(sub, ast.Attribute) and _is_status_column(sub.attr):
            failed = True
        if isinstance(sub, ast.Subscript) and isinstance(sub.slice, ast.Constant) and \
                isinstance(sub.slice.value, str) and _is_status_column(sub.slice.value):
            failed = True
        if isinstance(sub, ast.Compare):
            cols = {c for x in [sub.left, *sub.comparators] if (c := _column_of(x))}
            lits = [x.value for x in [sub.left, *sub.comparators]
                    if isinstance(x, ast.Constant) and isinstance(x.value, str)]
            for x in [sub.left, *sub.comparators]:
                if isinstance(x, ast.List | ast.Tuple | ast.Set):
                    lits += _str_list(ast.List(elts=list(x.elts)))
            if any(v.lower() in STATUS_VALUES for v in lits) and not any(
                    t in _SPLIT_COLUMNS for c in cols for t in _tokens(c)):
                failed = True
        if isinstance(sub, ast.Call) and _call_last(sub) == "isin" and sub.args and any(
                v.lower() in STATUS_VALUES for v in _str_list(sub.args[0])):
            failed = True
    if failed:
        return "failed", cols
    if missing:
        return "missing", cols
    return None


def _is_status_column(text: str) -> bool:
    toks = _tokens(text)
    return bool(toks) and (any(t in STATUS_COLUMNS for t in toks)
                           or "".join(toks) in STATUS_COLUMNS) and not any(
        t in _SPLIT_COLUMNS for t in toks)


class _Sites:
    def __init__(self, ev: Evidence, walk: CellIndex):
        self.ev = ev
        self.model = ev.model
        self.walk = walk
        self.drops: list[_Drop] = []
        self.functions: dict[str, ast.FunctionDef] = {
            f.name: f for f in walk.of(ast.FunctionDef)}
        self.mask_values: dict[str, list[tuple[int, ast.AST]]] = {}
        for a in walk.of(ast.Assign):
            if isinstance(a.value, ast.Compare | ast.BoolOp | ast.UnaryOp | ast.Call):
                for t in a.targets:
                    if isinstance(t, ast.Name):
                        self.mask_values.setdefault(t.id, []).append((a.lineno, a.value))
        for node, st, fn in walk.items:
            if st is None or not isinstance(node, ast.Call | ast.Subscript) or isinstance(
                    st, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                continue
            drop = self._site(node, st)
            if drop is None:
                continue
            if fn is not None:
                self.drops += self._through_function(drop, fn)
            else:
                self.drops.append(drop)
        self.drops += self._swallowed_in_loops()
        self.drops += self._swallowing_parsers()
        self.drops.sort(key=lambda d: d.line)
        self._mark_coerced()

    # -- records skipped by an exception handler ---------------------------------------------

    def _swallowed_in_loops(self) -> list[_Drop]:
        """`for row in df.itertuples(): try: out.append(parse(row)) except ValueError:
        continue`: every record that raises is skipped without a trace, and `out` (what the
        summary is computed from) holds only the records that parsed."""
        out: list[_Drop] = []
        for loop in self.walk.of(ast.For):
            inner = [n for st in loop.body for n in _walk(st)]
            tries = [n for n in inner if isinstance(n, ast.Try)]
            if not tries or any(isinstance(n, ast.For | ast.While) for n in inner):
                continue
            source = _iter_source(loop.iter)
            if source is None or source in self.model.aliases:
                continue
            for t in tries:
                if not any(_silent_skip(h) for h in t.handlers) or any(
                        not _silent_skip(h) for h in t.handlers):
                    continue
                bound_in_loop = {n.id for n in inner if isinstance(n, ast.Name)
                                 and isinstance(n.ctx, ast.Store)}
                target = None
                for n in (x for st in t.body for x in _walk(st)):
                    if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and \
                            n.func.attr in ("append", "add", "insert") and isinstance(
                            n.func.value, ast.Name) and n.func.value.id not in bound_in_loop:
                        target = n.func.value.id
                        break
                if target is None:
                    continue
                h = t.handlers[0]
                out.append(_Drop("skipped", h.lineno, loop, h, source, target, False,
                                 plain=True))
                break
        return out

    def _swallowing_parsers(self) -> list[_Drop]:
        """A helper whose `except` returns None/NaN (`def parse(s): try: return float(s)
        except ValueError: return np.nan`) applied to a column: a hand-written
        `errors="coerce"`, so its NaNs are rows a later summary skips."""
        parsers = {f.name for f in self.functions.values() if _coercing_function(f)}
        if not parsers:
            return []
        out: list[_Drop] = []
        for node, st, fn in self.walk.items:
            if fn is not None or not isinstance(node, ast.Call) or not isinstance(
                    node.func, ast.Attribute) or node.func.attr not in ("apply", "map") or \
                    not node.args or not isinstance(node.args[0], ast.Name) or \
                    node.args[0].id not in parsers:
                continue
            recv = node.func.value
            source = _root(recv)
            col, target = _coerced_into(st, _column_of(recv))
            drop = _Drop("coerce", node.lineno, st, node, source, target, target == source,
                         [col] if col else [], via=node.args[0].id)
            drop.inline_summary = self._consumed_inline(node, st)
            if drop.inline_summary is not None:
                drop.target, drop.in_place = None, False
            out.append(drop)
        return out

    # -- recognising one site --------------------------------------------------------------

    def _site(self, node: ast.AST, stmt: ast.stmt) -> _Drop | None:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            last = node.func.attr
            recv = node.func.value
            if last == "dropna":
                axis = next((k.value for k in node.keywords if k.arg == "axis"), None)
                if isinstance(axis, ast.Constant) and axis.value in (1, "columns"):
                    return None
                subset = next((k.value for k in node.keywords if k.arg == "subset"), None)
                cols = _str_list(subset)
                col = _column_of(recv)
                if col:
                    cols = [col]
                return self._make("missing", node, stmt, recv, cols)
            if last == "query" and node.args and isinstance(node.args[0], ast.Constant) \
                    and isinstance(node.args[0].value, str):
                q = node.args[0].value
                if _STATUS_COL_RE.search(q) or _STATUS_VAL_RE.search(q):
                    return self._make("failed", node, stmt, recv, [])
                if re.search(r"\.(?:notna|notnull)\(\)", q):
                    return self._make("missing", node, stmt, recv, [])
                return None
            if last == "merge" and isinstance(recv, ast.Name) and self.model.aliases.get(
                    recv.id, "") == "pandas":
                if len(node.args) < 2:
                    return None
                return self._merge(node, stmt, node.args[0], node.args[1])  # pd.merge(a, b)
            if last == "merge" or (last == "join" and _kw_str(node, "how") == "inner"):
                return self._merge(node, stmt, recv, node.args[0] if node.args else None)
            if last in ("to_numeric", "to_datetime") and _kw_str(node, "errors") == "coerce":
                return self._coerce(node, stmt)
            if last in ("apply", "transform", "map") and node.args and _call_last(
                    ast.Call(func=node.args[0], args=[], keywords=[])) in (
                    "to_numeric", "to_datetime") and _kw_str(node, "errors") == "coerce":
                return self._coerce(node, stmt)
        parse = _string_parse(node)
        if parse is not None:
            return self._parse(node, stmt, parse)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id == "merge" and len(node.args) >= 2:
                return self._merge(node, stmt, node.args[0], node.args[1])
            if node.func.id in ("to_numeric", "to_datetime") and _kw_str(
                    node, "errors") == "coerce":
                return self._coerce(node, stmt)
        if isinstance(node, ast.Subscript):
            value, mask = node.value, node.slice
            if isinstance(value, ast.Attribute) and value.attr in ("loc",):
                value = value.value
                if isinstance(mask, ast.Tuple) and mask.elts:
                    mask = mask.elts[0]
            elif isinstance(value, ast.Attribute) and value.attr == "iloc":
                return None
            if not isinstance(mask, ast.Compare | ast.BoolOp | ast.UnaryOp | ast.Call
                              | ast.Name | ast.Attribute | ast.Subscript):
                return None
            if isinstance(mask, ast.Subscript) and not _names(mask) & {_root(value) or ""}:
                return None
            found = _mask_kind(mask) if not isinstance(mask, ast.Name) else None
            if found is None:
                # df[keep], df[~bad] with keep = df.status == "ok" a few lines up
                for n in _names(mask) & self.mask_values.keys():
                    for line, v in self.mask_values[n]:
                        if line <= stmt.lineno:
                            found = _mask_kind(v) or found
            if found is None:
                return None
            kind, cols = found
            if kind == "missing" and not cols:
                col = _column_of(value)
                cols = [col] if col else []
            return self._make(kind, node, stmt, value, cols)
        return None

    def _make(self, kind: str, node: ast.AST, stmt: ast.stmt, recv: ast.AST,
              cols: list[str]) -> _Drop:
        source = _root(recv)
        target, inline = self._target_of(node, stmt)
        in_place = False
        if isinstance(node, ast.Call) and any(
                k.arg == "inplace" and isinstance(k.value, ast.Constant) and k.value.value is True
                for k in node.keywords):
            target, in_place = source, True
        elif target is not None and target == source:
            in_place = True
        plain = isinstance(recv, ast.Name) or (
            isinstance(recv, ast.Attribute | ast.Subscript) and isinstance(recv.value, ast.Name)
            and _column_of(recv) is not None)
        return _Drop(kind, node.lineno, stmt, node, source, target, in_place, cols, inline,
                     plain=plain)

    def _merge(self, node: ast.Call, stmt: ast.stmt, left: ast.AST | None,
               right: ast.AST | None) -> _Drop | None:
        how = _kw_str(node, "how") or "inner"
        if how != "inner" or any(k.arg == "indicator" for k in node.keywords):
            return None
        if left is None:
            return None
        drop = self._make("merge", node, stmt, left, [])
        drop.right = _root(right)
        on = _str_list(next((k.value for k in node.keywords if k.arg == "on"), None))
        for side, kw in ((left, "left_on"), (right, "right_on")):
            if side is not None:
                keys = on or _str_list(next((k.value for k in node.keywords if k.arg == kw),
                                            None))
                drop.sides.append((side, keys))
        return drop

    def _coerce(self, node: ast.Call, stmt: ast.stmt) -> _Drop | None:
        arg = node.args[0] if node.args else None
        if _call_last(node) in ("apply", "transform", "map"):  # df[cols].apply(pd.to_numeric,
            arg = node.func.value if isinstance(node.func, ast.Attribute) else None  # errors=)
        source = _root(arg)
        src_cols = self._columns_named(arg, node)
        col, target = _coerced_into(stmt, src_cols[0] if len(src_cols) == 1 else None)
        out_cols = [col] if col else []
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(
                stmt.targets[0], ast.Subscript | ast.Attribute) and not _column_of(
                stmt.targets[0]):
            out_cols = self._columns_named(stmt.targets[0], node) or out_cols
        elif len(src_cols) > 1 and target is not None:
            out_cols = src_cols
        assigned = self._assign_keyword(node, stmt)
        if assigned is not None:  # frame.assign(v=pd.to_numeric(frame.raw, errors="coerce"))
            out_cols, recv = [assigned[0]], assigned[1]
            if source not in self.ev.objects:  # `lambda d: d.raw`: the frame is the receiver
                source = _root(recv)
        drop = _Drop("coerce", node.lineno, stmt, node, source, target,
                     target == source, out_cols)
        drop.parsed_from = ",".join(src_cols) if src_cols else None
        drop.inline_summary = self._consumed_inline(node, stmt)
        if drop.inline_summary is not None:  # the name holds the summary, not the values
            drop.target, drop.in_place = None, False
        return drop

    def _columns_named(self, node: ast.AST | None, at: ast.AST) -> list[str]:
        """Column names a subscript selects: `df["x"]`, `df[["x", "y"]]`, `df[cols]` with
        `cols = [...]` earlier, `df[c]` inside `for c in [...]` (or over such a name)."""
        one = _column_of(node)
        if one:
            return [one]
        if not isinstance(node, ast.Subscript):
            return []
        key = node.slice
        cols = _str_list(key)
        if cols or not isinstance(key, ast.Name):
            return cols
        it = enclosing_loop_iter(self.ev, at, key.id)
        if it is not None:
            return _str_list(it) or self._list_bound(it, at)
        return self._list_bound(key, at)

    def _list_bound(self, name: ast.AST, at: ast.AST) -> list[str]:
        if not isinstance(name, ast.Name):
            return []
        line = getattr(at, "lineno", 10**9)
        found: list[str] = []
        for a in self.walk.of(ast.Assign):
            if a.lineno <= line and any(isinstance(t, ast.Name) and t.id == name.id
                                        for t in a.targets):
                found = _str_list(a.value)
        return found

    def _assign_keyword(self, node: ast.AST, stmt: ast.stmt) -> tuple[str, ast.AST] | None:
        """(column, receiver) when `node` is the value of a `.assign(column=...)` keyword
        (directly or through a lambda)."""
        for sub in self.walk.own.get(id(stmt), ()):
            if isinstance(sub, ast.Call) and _call_last(sub) == "assign" and isinstance(
                    sub.func, ast.Attribute):
                for k in sub.keywords:
                    if k.arg and any(n is node for n in _walk(k.value)):
                        return k.arg, sub.func.value
        return None

    def _parse(self, node: ast.AST, stmt: ast.stmt, parse: str) -> _Drop | None:
        """`df["v"] = df.raw.str.extract(r"(\\d+\\.\\d+)").astype(float)`: every value the
        pattern does not match becomes NaN, stored in a column (or a name) that later summaries
        read while skipping those NaN."""
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1) or not _in_chain(
                stmt.value, node):
            return None
        t = stmt.targets[0]
        if not isinstance(t, ast.Name) and not (
                isinstance(t, ast.Subscript | ast.Attribute) and _column_of(t)):
            return None
        base, col = _chain_column(node)
        out_col, target = _coerced_into(stmt, col)
        if target is None:
            return None
        source = _root(base) if base is not None else _root(node)
        drop = _Drop("coerce", node.lineno, stmt, node, source, target, target == source,
                     [out_col] if out_col else [], parse=parse, parsed_from=col)
        return drop

    def _consumed_inline(self, node: ast.AST, stmt: ast.stmt) -> str | None:
        """A summary, `resample` or `groupby` in the same statement that takes the coerced
        values without counting or filling their NaN/NaT first: `pd.to_numeric(s,
        errors="coerce").mean()`, `df.assign(d=pd.to_datetime(..., errors="coerce"))
        .set_index("d").resample("MS").sum()` (NaT rows fall out of every period)."""
        found: list[str] = []
        for sub in self.walk.own.get(id(stmt), ()):
            if not isinstance(sub, ast.Call) or sub is node:
                continue
            last = _call_last(sub)
            if not (_is_summary_call(sub) or last in _NAT_DROPPING):
                continue
            path = _path_to(sub, node)
            if path is None:
                continue
            if any(isinstance(p, ast.Call) and _call_last(p) in _NAN_AWARE for p in path):
                continue  # `.isna().sum()` counts them, `.fillna(...)` keeps them
            found.append(last)
        # name the step that silently drops NaT/NaN keys when there is one
        return next((f for f in found if f in _NAT_DROPPING), found[0] if found else None)

    def _target_of(self, node: ast.AST, stmt: ast.stmt) -> tuple[str | None, str | None]:
        """(name holding the remaining rows, summary computed inline on them)."""
        for sub in self.walk.own.get(id(stmt), ()):
            if isinstance(sub, ast.Call) and sub is not node and _is_summary_call(sub) and any(
                    n is node for n in _walk(sub)):
                return None, _call_last(sub)
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(
                stmt.targets[0], ast.Name) and _in_chain(stmt.value, node):
            return stmt.targets[0].id, None
        if isinstance(stmt, ast.Return) and _in_chain(stmt.value, node):
            return "<return>", None
        return None, None

    def _through_function(self, drop: _Drop, fn: str) -> list[_Drop]:
        """A drop inside `def clean(df): return df.dropna()`: one site per call `clean(raw)`,
        from the argument to the name the call is assigned to."""
        func = self.functions.get(fn)
        if func is None:
            return []
        params = [a.arg for a in func.args.args]
        if drop.source not in params:
            return []
        pos = params.index(drop.source)
        out: list[_Drop] = []
        for node, st, outer in self.walk.items:
            if outer is None and st is not None and not isinstance(st, ast.FunctionDef) and \
                    isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id == fn and len(node.args) > pos:
                source = _root(node.args[pos])
                target, inline = self._target_of(node, st)
                out.append(_Drop(drop.kind, node.lineno, st, node, source, target,
                                 target is not None and target == source, drop.columns,
                                 inline, via=fn))
        return out

    def _mark_coerced(self) -> None:
        coerces = [d for d in self.drops if d.kind == "coerce"]
        for d in self.drops:
            if d.kind != "missing":
                continue
            for c in coerces:
                if c.target and c.line <= d.line and c.target in (d.source, d.target):
                    d.coerced = True
                    if d.target is not None or d.in_place:
                        # the rows are gone from a name the later summaries read: the
                        # dropna is where the loss shows; an inline `.dropna()` in one
                        # summary leaves the NaN in the frame for every other summary
                        c.kind = "coerce_then_dropped"


def _silent_skip(h: ast.ExceptHandler) -> bool:
    """An except clause that only moves on (`continue`, `pass`, `...`): nothing is logged,
    counted or recorded about the record that failed."""
    if not h.body:
        return False
    for st in h.body:
        if isinstance(st, ast.Continue | ast.Pass):
            continue
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant):
            continue
        return False
    return True


def _is_nan_literal(node: ast.AST | None) -> bool:
    if node is None or (isinstance(node, ast.Constant) and node.value is None):
        return True
    if isinstance(node, ast.Attribute) and node.attr in ("nan", "NaN", "NA", "NaT"):
        return True
    return isinstance(node, ast.Call) and _call_last(node) == "float" and bool(node.args) and \
        isinstance(node.args[0], ast.Constant) and str(node.args[0].value).lower() == "nan"


def _coercing_function(fn: ast.FunctionDef) -> bool:
    """A helper with a try whose every handler only returns None/NaN."""
    tries = [n for n in _walk(fn) if isinstance(n, ast.Try)]
    if not tries:
        return False
    for t in tries:
        for h in t.handlers:
            if not (len(h.body) == 1 and isinstance(h.body[0], ast.Return)
                    and _is_nan_literal(h.body[0].value)):
                return False
    return True


def _iter_source(node: ast.AST) -> str | None:
    """The collection a loop walks: `df` for `df.itertuples()`, `df.iterrows()`, `zip(df.a,
    df.b)`, `enumerate(files)`, `range(len(df))`, `df["raw"]`."""
    for _ in range(4):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in (
                "zip", "enumerate", "range", "len", "list", "sorted", "reversed", "tqdm") \
                and node.args:
            node = node.args[-1] if node.func.id == "range" else node.args[0]
            continue
        break
    if isinstance(node, ast.Constant):
        return None
    return _root(node)


def _chain_column(node: ast.AST) -> tuple[ast.AST | None, str | None]:
    """(frame, column) a method chain starts from: `df["raw"].str.strip().str.extract(...)`
    gives (df, "raw")."""
    cur: ast.AST | None = node
    for _ in range(20):
        if cur is None:
            break
        if isinstance(cur, ast.Attribute | ast.Subscript) and isinstance(cur.value, ast.Name):
            col = _column_of(cur)
            if col is not None and col != "str":
                return cur.value, col
            return None, None
        if isinstance(cur, ast.Call):
            cur = cur.func
        elif isinstance(cur, ast.Attribute | ast.Subscript):
            cur = cur.value
        else:
            break
    return None, None


_SPLITTING = {"split", "rsplit", "findall", "partition"}


def _string_parse(node: ast.AST) -> str | None:
    """A string parse that yields NaN where it fails: `.str.extract(pattern)` (no match),
    `.str.findall(...)`/`.str.split(...)` then `.str[i]` or `.str.get(i)` (no such piece)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(
            node.func.value, ast.Attribute) and node.func.value.attr == "str":
        if node.func.attr == "extract":
            return "str.extract"
        if node.func.attr == "get":
            inner = node.func.value.value
            if isinstance(inner, ast.Call) and _call_last(inner) in _SPLITTING:
                return f"str.{_call_last(inner)}(...).str.get"
        return None
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and \
            node.value.attr == "str" and isinstance(node.slice, ast.Constant | ast.UnaryOp):
        inner = node.value.value
        if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and \
                isinstance(inner.func.value, ast.Attribute) and \
                inner.func.value.attr == "str" and inner.func.attr in _SPLITTING:
            return f"str.{inner.func.attr}(...).str[...]"
    return None


def _kw_str(node: ast.Call, name: str) -> str | None:
    for k in node.keywords:
        if k.arg == name and isinstance(k.value, ast.Constant) and isinstance(k.value.value, str):
            return k.value.value
    return None


# Calls that skip rows whose key or timestamp is NaN/NaT, and calls that count or fill NaN.
_NAT_DROPPING = {"resample", "groupby", "Grouper", "pivot_table", "rolling"}
_NAN_AWARE = {"isna", "isnull", "notna", "notnull", "fillna", "interpolate", "ffill", "bfill",
              "value_counts", "count", "info", "combine_first", "where", "mask"}


def _path_to(root: ast.AST, target: ast.AST) -> list[ast.AST] | None:
    """The nodes strictly between `root` and `target` (None when `target` is not inside)."""
    stack: list[tuple[ast.AST, list[ast.AST]]] = [(root, [])]
    while stack:
        node, path = stack.pop()
        for child in ast.iter_child_nodes(node):
            if child is target:
                return path
            stack.append((child, [*path, child]))
    return None


def _in_chain(expr: ast.AST | None, node: ast.AST) -> bool:
    """`node` is `expr` or a receiver/subscripted value along its method chain:
    `df.dropna().reset_index(drop=True)` holds the dropna's rows."""
    while expr is not None:
        if expr is node:
            return True
        if isinstance(expr, ast.Call):
            expr = expr.func
        elif isinstance(expr, ast.Attribute | ast.Subscript):
            expr = expr.value
        else:
            return False
    return False


def _is_summary_call(node: ast.Call) -> bool:
    last = _call_last(node)
    return last in SUMMARY_METHODS or last in STAT_TESTS


# -- per-evidence context -----------------------------------------------------------------------


class _Ctx:
    """Everything the rules ask about one cell, computed once and shared by the three rules."""

    def __init__(self, ev: Evidence):
        self.ev = ev
        self.model = ev.model
        self.walk = cell_index(self.model.tree)
        self.sites = _Sites(ev, self.walk)
        self.drops = self.sites.drops
        self._down: dict[tuple[frozenset[str], int], set[str]] = {}
        self.name_assigns: dict[str, list[ast.Assign]] = {}
        for st in self.walk.of(ast.Assign):
            for t in st.targets:
                if isinstance(t, ast.Name):
                    self.name_assigns.setdefault(t.id, []).append(st)
        self._counts: list[set[str]] | None = None
        self._nan_counts: list[set[str]] | None = None

    # -- flow ------------------------------------------------------------------------------

    def downstream(self, names: set[str], after_line: int) -> set[str]:
        key = (frozenset(names), after_line)
        if key in self._down:
            return self._down[key]
        model = self.model
        tainted = set(names)
        assigns = [(set(a.targets), a.loaded) for a in model.assignments if a.line >= after_line]
        mutations = [(c.receiver_root, _names(c.node) - {c.receiver_root}) for c in model.calls
                     if c.line >= after_line and c.receiver_root and c.method in (
                         "append", "extend", "update", "add", "insert", "fit", "concat")]
        changed = True
        while changed:
            changed = False
            for targets, loaded in assigns:
                if loaded & tainted and not targets <= tainted:
                    tainted |= targets
                    changed = True
            for recv, used in mutations:
                if recv not in tainted and used & tainted:
                    tainted.add(recv)
                    changed = True
        self._down[key] = tainted
        return tainted

    def summaries_after(self, drop: _Drop) -> list[tuple[int, str]]:
        """(line, what) of summaries computed on the remaining rows."""
        if drop.inline_summary:
            return [(drop.line, drop.inline_summary)]
        if not drop.target or drop.target == "<return>":
            return []
        tainted = self.downstream({drop.target}, drop.line)
        found: list[tuple[int, str]] = []
        for c in self.model.calls:
            if c.line < drop.line or self.walk.stmt_of.get(id(c.node)) is drop.stmt:
                continue
            last = c.last
            if last in SUMMARY_METHODS or last in STAT_TESTS:
                kind = last
            elif last in FIT_CALLS:
                kind = "fit"
            else:
                continue
            used = ({c.receiver_root} if c.receiver_root else set()) | _names(c.node)
            if used & tainted:
                found.append((c.line, kind))
        return found

    # -- reporting -------------------------------------------------------------------------

    def reported_counts(self, nan_aware: bool = False) -> list[set[str]]:
        """Names in each count expression (len, .shape, value_counts, mask sums…) whose value
        reaches the output: printed, displayed, logged, asserted, or computed into a name
        that is. `nan_aware`: only counts that can show NaN (`isna().sum()`, `count()`,
        `notna().sum()`, `info()`): a coercion leaves the row count unchanged, and a share
        over a threshold (`(x > limit).mean()`) says nothing about the values that failed."""
        cached = self._nan_counts if nan_aware else self._counts
        if cached is not None:
            return cached
        count_nodes = {id(n): _names(n) for n, _, _ in self.walk.items if _is_count_node(n)
                       and (not nan_aware or _counts_nan(n))}
        out: list[set[str]] = []
        if nan_aware:
            self._nan_counts = out
        else:
            self._counts = out
        if not count_nodes:
            return out
        drop_stmts = {id(d.stmt) for d in self.drops}
        seen_names: set[str] = set()

        def visit(node: ast.AST, depth: int) -> None:
            names: set[str] = set()
            for sub in _walk(node):
                found = count_nodes.get(id(sub))
                if found is not None:
                    out.append(found)
                if isinstance(sub, ast.Name):
                    names.add(sub.id)
            if depth >= 3:
                return
            for n in names - seen_names:
                seen_names.add(n)
                for st in self.name_assigns.get(n, ()):
                    if id(st) not in drop_stmts:
                        visit(st.value, depth + 1)

        for expr in self.model.reported_exprs:
            visit(expr, 0)
        for node in self.walk.of(ast.Assert):
            visit(node.test, 0)
        for node in self.walk.of(ast.Raise):
            if node.exc is not None:
                visit(node.exc, 0)
        for node in self.walk.of(ast.Call):
            if _call_last(node) in _LOG_CALLS:
                for a in list(node.args) + [k.value for k in node.keywords]:
                    visit(a, 0)
        return out

    def reported(self, drop: _Drop) -> bool:
        if drop.kind == "merge":
            return self._merge_checked(drop)
        related = {n for n in (drop.source, drop.target) if n and n != "<return>"}
        related |= self.downstream(set(related), 0)
        for names in self.reported_counts(nan_aware=drop.kind == "coerce"):
            if not related or names & related:
                return True
        for line in self.ev.text[:30_000].splitlines()[:500]:
            if _REPORT_TEXT.search(line) and _INT_RE.search(line):
                return True
        return False

    def _merge_checked(self, drop: _Drop) -> bool:
        """A merge's loss is reported by a count of an input next to a count of the result
        (`len(a)`, `len(merged)`; `assert len(merged) == len(a)`), a count naming both inputs
        (an anti-join `(~a.k.isin(b.k)).sum()`), an `isin` between the inputs, or output text
        saying how many rows went. A count of the merged rows alone (`len(merged)`) does not
        say how many were lost."""
        inputs = {n for n in (drop.source, drop.right) if n}
        result: set[str] = set()
        if drop.target and drop.target != "<return>":
            result = self.downstream({drop.target}, drop.line) - inputs
        counts = self.reported_counts()
        if any(names & inputs for names in counts) and any(names & result for names in counts):
            return True
        if len(inputs) == 2 and any(inputs <= names for names in counts):
            return True
        if len(inputs) == 2:
            for c in self.walk.of(ast.Call):
                if _call_last(c) == "isin" and inputs <= _names(c):
                    return True
        for line in self.ev.text[:30_000].splitlines()[:500]:
            if _REPORT_TEXT.search(line) and _INT_RE.search(line):
                return True
        return False

    # -- rebinding -------------------------------------------------------------------------

    def rebound_after(self, name: str, line: int) -> bool:
        """`name` is rebound after `line` by something that changes what its rows mean."""
        drop_lines = {d.line for d in self.drops if d.target == name}
        for st in self.name_assigns.get(name, ()):
            if st.lineno <= line or st.lineno in drop_lines:
                continue
            v = st.value
            if isinstance(v, ast.Call) and _call_last(v) in ROW_PRESERVING and _root(v) == name:
                continue
            return True
        for c in self.model.calls:
            if c.line > line and c.receiver_root == name and c.kwarg_value("inplace") is True \
                    and c.line not in drop_lines and c.last not in ROW_PRESERVING:
                return True
        return False

    def assigned_before(self, name: str, line: int) -> bool:
        """`name` is (re)created earlier in this cell: its pre-cell shape says nothing."""
        drop_lines = {d.line for d in self.drops}
        return any(st.lineno < line and st.lineno not in drop_lines
                   for st in self.name_assigns.get(name, ()))


def _is_count_node(sub: ast.AST) -> bool:
    if isinstance(sub, ast.Call):
        last = _call_last(sub)
        if last == "len" or last in _COUNT_METHODS:
            return True
        if last in ("sum", "mean") and isinstance(sub.func, ast.Attribute):
            return any(isinstance(x, ast.Compare | ast.UnaryOp) or (
                isinstance(x, ast.Call) and _call_last(x) in _MISSING_CALLS)
                for x in _walk(sub.func.value))
        return False
    return isinstance(sub, ast.Attribute) and sub.attr in ("shape", "size", "nobs")


def _counts_nan(node: ast.AST) -> bool:
    """A count that can show how many values are NaN: `isna().sum()`, `notna().mean()`,
    `count()`, `info()`, `len(x.dropna())`; not a share over a threshold of the values
    left (`(x.dropna() > limit).mean()`)."""
    last = _call_last(node) if isinstance(node, ast.Call) else None
    if last in ("count", "info", "value_counts"):
        return True
    inner = {_call_last(x) for x in _walk(node) if isinstance(x, ast.Call)}
    if last in ("sum", "mean"):
        return bool(inner & _MISSING_CALLS)
    return bool(inner & (_MISSING_CALLS | {"dropna", "count"}))


def _shown_earlier(ev: Evidence, drop: _Drop) -> bool:
    """The notebook showed the source's missing values or status counts in an earlier cell."""
    if not drop.source or not ev.prior_code or drop.source not in ev.prior_code:
        return False
    pattern = re.compile(re.escape(drop.source) + r"\b[^\n]*\.(?:isna|isnull|info|value_counts|"
                         r"notna|describe)\(")
    return bool(pattern.search(ev.prior_code))


# -- quantifying the loss ---------------------------------------------------------------------


@dataclass
class _Loss:
    before: int | None = None
    after: int | None = None
    fraction: float | None = None
    lower_bound: bool = False
    how: str = ""


def _rows(facts: ObjectFacts | None) -> int | None:
    if facts is None or facts.kind not in ("dataframe", "series", "ndarray"):
        return None
    return facts.rows


def _quantify(ctx: _Ctx, drop: _Drop) -> _Loss:
    ev = ctx.ev
    src, tgt = drop.source, drop.target
    if drop.kind == "coerce":
        return _coerce_loss(ctx, drop)
    if drop.kind == "skipped":
        return _skipped_loss(ctx, drop)
    if drop.kind == "merge":
        return _merge_loss(ctx, drop)
    if drop.in_place and src:
        before = _rows(ev.before.get(src))
        together = sorted({d.line for d in ctx.drops if d.in_place and d.source == src})
        last = max(together, default=drop.line)
        after = _rows(ev.objects.get(src))
        if before and after is not None and not ctx.rebound_after(src, last) \
                and not ctx.assigned_before(src, min(together, default=drop.line)):
            how = "rows before and after the cell"
            if len(together) > 1:
                how += f", lines {', '.join(map(str, together))} together"
            return _Loss(before, after, max(0, before - after) / before, how=how)
        return _Loss()
    if src and tgt and tgt != "<return>":
        before = _rows(ev.objects.get(src))
        after = _rows(ev.objects.get(tgt))
        if before and after is not None and not ctx.rebound_after(src, drop.line) \
                and not ctx.rebound_after(tgt, drop.line):
            if drop.kind == "merge" and after >= before:
                return _Loss(before, after, 0.0, how="rows of the frames")
            return _Loss(before, after, max(0, before - after) / before,
                         how=f"rows of `{src}` and `{tgt}`")
    return _missing_bound(ctx, drop)


def _whole_frame(node: ast.AST) -> bool:
    """`df` or a projection of its columns (`df[["k", "g"]]`): every row of the name."""
    if isinstance(node, ast.Name):
        return True
    return isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and bool(
        _str_list(node.slice))


def _merge_loss(ctx: _Ctx, drop: _Drop) -> _Loss:
    """Rows of each input against rows of the result: every matched row of an input gives
    at least one result row, so an input with more rows than the result lost at least the
    difference (exactly, when the other input's key is unique). The side losing the largest
    share is the one reported."""
    ev = ctx.ev
    tgt = drop.target
    if not tgt or tgt == "<return>" or ctx.rebound_after(tgt, drop.line):
        return _Loss()
    after = _rows(ev.objects.get(tgt))
    if after is None:
        return _Loss()
    best: _Loss | None = None
    for i, (node, _keys) in enumerate(drop.sides):
        name = _root(node)
        if not name or not _whole_frame(node) or name == tgt or ctx.rebound_after(
                name, drop.line):
            continue
        before = _rows(ev.objects.get(name))
        if not before:
            continue
        lost = max(0, before - after)
        other = drop.sides[1 - i] if len(drop.sides) == 2 else None
        exact = False
        if other is not None and len(other[1]) == 1:
            of = ev.objects.get(_root(other[0]) or "")
            if of is not None and _whole_frame(other[0]) and of.rows and \
                    of.unique.get(other[1][0]) == of.rows:
                exact = True
        loss = _Loss(before, after, lost / before, lower_bound=not exact and lost > 0,
                     how=f"rows of `{name}` and `{tgt}`" + (
                         "" if exact or not lost else "; each matched row gives at least "
                         "one merged row"))
        if best is None or (loss.fraction or 0) > (best.fraction or 0):
            best = loss
    return best or _Loss()


def _skipped_loss(ctx: _Ctx, drop: _Drop) -> _Loss:
    """Records walked against records kept: the source's rows (or length) and the length
    of the collection the loop appends to."""
    src = ctx.ev.objects.get(drop.source or "")
    tgt = ctx.ev.objects.get(drop.target or "")
    if src is None or tgt is None or ctx.rebound_after(drop.target or "", drop.line):
        return _Loss()
    before = src.rows if src.kind in ("dataframe", "series", "ndarray", "sequence") else None
    after = tgt.length if tgt.kind == "sequence" else None
    if not before or after is None or after > before:
        return _Loss()
    return _Loss(before, after, (before - after) / before,
                 how=f"records in `{drop.source}` against entries appended to `{drop.target}`")


def _coerce_loss(ctx: _Ctx, drop: _Drop) -> _Loss:
    if drop.target is None and drop.source and drop.columns:
        # consumed inline: coercing a column that already has the target dtype loses nothing
        src = ctx.ev.objects.get(drop.source)
        col = (drop.parsed_from or drop.columns[0]).split(",")[0]
        dtype = src.dtypes.get(col, "") if src is not None else ""
        want = "datetime" if _call_last(drop.node) == "to_datetime" else ("int", "float")
        if src is not None and src.rows and dtype.startswith(want):
            return _Loss(src.rows, src.rows, 0.0, how="the column already had that type")
    facts = ctx.ev.objects.get(drop.target or "")
    if facts is None or not facts.rows or ctx.rebound_after(drop.target or "", drop.line):
        return _Loss()
    if facts.kind == "dataframe" and not drop.columns:
        return _Loss()
    if drop.parse:
        return _parse_loss(ctx, drop, facts)
    keys = drop.columns if facts.kind == "dataframe" else [""]
    counts = {k: facts.missing.get(k) for k in keys}
    if any(n is None for n in counts.values()):
        return _Loss()
    # NaN already in the text column were missing before the coercion: count only new ones
    src_cols = (drop.parsed_from or "").split(",") if drop.parsed_from else []
    less: list[str] = []
    if len(src_cols) == len(keys):
        for k, col in zip(keys, src_cols, strict=True):
            overwritten = drop.source == drop.target and col == k
            src = (ctx.ev.before if overwritten else ctx.ev.objects).get(drop.source or "")
            had = src.missing.get(col) if src is not None and src.rows == facts.rows else None
            if had:
                counts[k] = max(0, (counts[k] or 0) - had)
                less.append(f"{had} already missing in `{drop.source}.{col}`")
    worst = max(counts, key=lambda k: counts[k] or 0)
    n = counts[worst] or 0
    how = f"NaN count of `{drop.target}{'.' + worst if worst else ''}` after coercion"
    if len(keys) > 1:
        how += " (" + ", ".join(f"{k}: {counts[k]}" for k in keys[:6]) + ")"
    if less:
        how += ", less " + "; ".join(less)
    return _Loss(facts.rows, facts.rows - n, n / facts.rows, how=how)


def _parse_loss(ctx: _Ctx, drop: _Drop, facts: ObjectFacts) -> _Loss:
    key = drop.columns[0] if facts.kind == "dataframe" else ""
    n = facts.missing.get(key)
    if n is None:
        return _Loss()
    # the parsed column's own NaN were missing before the parse: count only new ones
    col = drop.parsed_from
    overwritten = drop.source == drop.target and col == key
    src = (ctx.ev.before if overwritten else ctx.ev.objects).get(drop.source or "")
    had = src.missing.get(col or "") if src is not None else None
    if had is None or src is None or src.rows != facts.rows:
        return _Loss()
    n = max(0, n - had)
    how = (f"NaN count of `{drop.target}{'.' + key if key else ''}` after the parse, "
           f"less the {had} already missing in `{drop.source}.{col}`")
    return _Loss(facts.rows, facts.rows - n, n / facts.rows, how=how)


def _missing_bound(ctx: _Ctx, drop: _Drop) -> _Loss:
    """A lower bound from the source's NaN counts (dropna drops at least the rows of the
    column with most NaNs)."""
    if drop.kind != "missing" or not drop.source or not drop.plain or drop.in_place:
        return _Loss()
    facts = ctx.ev.objects.get(drop.source)
    if facts is None or ctx.rebound_after(drop.source, drop.line):
        return _Loss()
    rows = facts.rows
    if not rows or not facts.missing:
        return _Loss()
    if drop.columns:
        counts = [facts.missing.get(c) for c in drop.columns]
        if any(c is None for c in counts):
            return _Loss()
        worst = max(c for c in counts if c is not None)
    elif facts.kind == "dataframe":
        worst = max(facts.missing.values())
    else:
        worst = facts.missing.get("", 0)
    return _Loss(rows, rows - worst, worst / rows, lower_bound=True,
                 how=f"NaN counts of `{drop.source}`")


# -- where a coercion's NaN matter more than their overall share -------------------------------


def _reads_column(node: ast.AST, frame: str, cols: list[str]) -> bool:
    """`frame["col"]` / `frame.col` for a coerced column (or the coerced name itself)."""
    if not cols:
        return isinstance(node, ast.Name) and node.id == frame
    return isinstance(node, ast.Subscript | ast.Attribute) and _root(node) == frame and \
        _column_of(node) in cols


def _selects(chain: ast.AST, frame: str, cols: list[str]) -> bool:
    """The receiver chain of an `agg`/`apply` holds the coerced values: `df.groupby(k)["x"]`,
    `df["x"]`, or the coerced Series itself."""
    if _root(chain) != frame:
        return False
    if not cols:
        return True
    for n in _walk(chain):
        if _reads_column(n, frame, cols):
            return True
        if isinstance(n, ast.Subscript) and _str_list(n.slice) and set(
                _str_list(n.slice)) <= set(cols):
            return True
    return False


def _threshold_of(node: ast.AST) -> tuple[ast.AST, float] | None:
    """(operand, threshold) of `x > 12`, `12 <= x`, `x.gt(12)`."""
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(
            node.ops[0], ast.Gt | ast.GtE | ast.Lt | ast.LtE):
        a, b = node.left, node.comparators[0]
        if _num(b) is not None:
            return a, _num(b)  # type: ignore[return-value]
        if _num(a) is not None:
            return b, _num(a)  # type: ignore[return-value]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in ("gt", "ge", "lt", "le") and node.args and \
            _num(node.args[0]) is not None:
        return node.func.value, _num(node.args[0])  # type: ignore[return-value]
    return None


def _threshold_shares(ctx: _Ctx, drop: _Drop) -> list[tuple[int, str]]:
    """(line, text) of shares or counts over a threshold computed on the coerced values:
    `(df.x > 12).mean()`, `np.mean(x > 12)`, `.agg(above=lambda s: (s > 12).mean())` on a
    groupby of the column. NaN compares False, so every value coercion destroyed is counted
    as not exceeding (or not below) the limit, and an over-range reading ('OVER', '>13')
    is exactly an exceedance."""
    frame = drop.target
    if not frame or frame == "<return>":
        return []
    cols = drop.columns if ctx.ev.objects.get(frame) is None or ctx.ev.objects[
        frame].kind == "dataframe" else []
    lambda_args: set[str] = set()
    for c in ctx.walk.of(ast.Call):
        if _call_last(c) in ("agg", "aggregate", "apply", "transform") and isinstance(
                c.func, ast.Attribute) and _selects(c.func.value, frame, cols):
            for a in list(c.args) + [k.value for k in c.keywords]:
                if isinstance(a, ast.Lambda):
                    lambda_args |= {x.arg for x in a.args.args}
    found: list[tuple[int, str]] = []
    for c in ctx.walk.of(ast.Call):
        last = _call_last(c)
        if last not in ("mean", "sum", "average", "count_nonzero"):
            continue
        inside = list(c.args) + ([c.func.value] if isinstance(c.func, ast.Attribute) else [])
        for part in inside:
            for n in _walk(part):
                t = _threshold_of(n)
                if t is None:
                    continue
                operand, limit = t
                if _reads_column(operand, frame, cols) or (
                        isinstance(operand, ast.Name) and operand.id in lambda_args):
                    found.append((c.lineno, ctx.ev.source_of(n) or f"> {limit:g}"))
                    break
    return found


def _agg_counts(ctx: _Ctx, drop: _Drop) -> bool:
    """A named aggregation showing, per group, both the rows and the values kept
    (`.agg(n="size", kept="count")`, `lots=("lot", "size"), measured=("x", "count")`): the
    table shows what each group lost. A `count` alone reads as the sample size."""
    frame = drop.target
    if not frame or frame == "<return>":
        return False
    for c in ctx.walk.of(ast.Call):
        if _call_last(c) in ("agg", "aggregate") and _root(c) == frame:
            named = {n.value for a in list(c.args) + [k.value for k in c.keywords]
                     for n in _walk(a) if isinstance(n, ast.Constant)}
            if {"count", "size"} <= named:
                return True
    return False


def _group_losses(ctx: _Ctx, drop: _Drop) -> tuple[str, str, int, int] | None:
    """(group column, level, NaN rows, rows) of the level of a groupby key the summaries
    use where the coerced column lost the largest share, from the kernel's per-level NaN
    counts (`missing_by` {column: {group column: {level: NaN rows}}}, beside `levels`), when
    the kernel provides them."""
    frame = drop.target
    facts = ctx.ev.objects.get(frame or "")
    by = getattr(facts, "missing_by", None) if facts is not None else None
    if not by or not drop.columns or ctx.rebound_after(frame or "", drop.line):
        return None
    keys: set[str] = set()
    for c in ctx.model.calls:
        if c.last == "groupby" and c.receiver_root == frame and c.line >= drop.line:
            for k in _grouping_keys(c.node, "groupby"):
                keys |= set(_str_list(k))
    best: tuple[str, str, int, int] | None = None
    for col in drop.columns:
        for key in keys:
            per = (by.get(col) or {}).get(key) or {}
            rows = facts.levels.get(key) or {}  # type: ignore[union-attr]
            for level, n in per.items():
                total = rows.get(level)
                if total and n and (best is None or n / total > best[2] / best[3]):
                    best = (key, level, int(n), int(total))
    return best


# -- the finding ---------------------------------------------------------------------------------


_WHAT = {
    "missing": "drops rows with missing values",
    "coerce": "turns unparseable values into NaN (`errors='coerce'`), which the summary then "
              "skips",
    "failed": "keeps only successful / valid rows",
    "merge": "inner-merges, which drops rows without a match",
    "skipped": "skips every record whose processing raises (an `except` that only moves on)",
}


_CACHE: list[tuple[weakref.ref, _Ctx]] = []


def _ctx(ev: Evidence) -> _Ctx:
    for ref, ctx in _CACHE:
        if ref() is ev:
            return ctx
    ctx = _Ctx(ev)
    _CACHE[:] = [(weakref.ref(ev), ctx)]
    return ctx


def _findings(ev: Evidence, kinds: set[str]) -> Iterator[Finding]:
    if ev.tree is None:
        return
    ctx = _ctx(ev)
    seen: set[tuple[str | None, str | None]] = set()
    flagged: set[str] = set()
    for drop in ctx.drops:
        if drop.kind not in kinds:
            continue
        key = (drop.source, drop.target) if drop.in_place else (drop.source, str(drop.line))
        if key in seen:
            continue
        seen.add(key)
        if drop.kind == "missing" and drop.coerced and drop.source in flagged:
            continue  # the coercion that made these NaN is already the finding
        summaries = ctx.summaries_after(drop)
        if drop.kind == "coerce" and not summaries:
            continue
        if ctx.reported(drop) or (drop.kind == "coerce" and _agg_counts(ctx, drop)):
            continue
        extra = (_threshold_shares(ctx, drop), _group_losses(ctx, drop)) \
            if drop.kind == "coerce" else ([], None)
        f = _judge(ev, drop, _quantify(ctx, drop), summaries, *extra)
        if f is not None:
            if drop.kind == "coerce" and drop.target:
                flagged.add(drop.target)
            yield f


def _judge(ev: Evidence, drop: _Drop, loss: _Loss,
           summaries: list[tuple[int, str]], shares: list[tuple[int, str]] | None = None,
           group: tuple[str, str, int, int] | None = None) -> Finding | None:
    frac = loss.fraction
    stats = [s for s in summaries if s[1] != "fit"]
    fits = [s for s in summaries if s[1] == "fit"]
    if frac is not None and frac < 0.02:
        return None
    shown = _shown_earlier(ev, drop)
    gfrac = group[2] / group[3] if group is not None and frac is not None else None
    if gfrac is not None and (gfrac < 0.10 or gfrac < 1.5 * frac):
        gfrac, group = None, None
    if frac is not None and frac >= 0.10 and stats:
        severity, conf = "high", (0.9 if frac >= 0.3 else 0.85)
    elif gfrac is not None and stats:  # the loss concentrates in one group the cell reports
        severity, conf = "high", (0.85 if gfrac >= 0.2 else 0.8)
    elif frac is not None and frac >= 0.10:
        severity, conf = "medium", 0.6
    elif frac is not None and shares:  # NaN counted as not exceeding the limit
        severity, conf = "medium", 0.55
    elif frac is not None:
        severity, conf = "low", 0.5
    elif stats or fits:
        severity, conf = "medium", 0.45
    else:
        return None
    if severity == "high" and shown:
        severity, conf = "medium", conf - 0.15
    if loss.lower_bound and severity == "high":
        conf -= 0.05
    src = f"`{drop.source}`" if drop.source else "the data"
    what = _WHAT.get(drop.kind, "drops rows")
    if drop.kind == "missing" and drop.coerced:
        what = "drops rows made NaN by `errors='coerce'`"
    if drop.kind == "coerce" and drop.parse:
        what = (f"parses text{f' `{drop.parsed_from}`' if drop.parsed_from else ''} with "
                f"`{drop.parse}`, which gives NaN wherever it fails (a format, unit or decimal "
                "separator the pattern does not cover), and the summary then skips them")

    via = f" (inside `{drop.via}()`)" if drop.via else ""
    cols = f" in {', '.join(f'`{c}`' for c in drop.columns[:4])}" if drop.columns and \
        drop.kind in ("missing", "coerce") else ""
    head = f"Line {drop.line}{via} {what}{cols} from {src}"
    if drop.kind == "coerce" and drop.inline_summary in _NAT_DROPPING:
        head = (f"Line {drop.line}{via} turns unparseable values{cols} of {src} into NaN/NaT "
                f"(`errors='coerce'`), and `{drop.inline_summary}` then silently leaves those "
                "rows out")
    values: dict[str, object] = {}
    if frac is not None and loss.before is not None and loss.after is not None:
        lost = loss.before - loss.after
        bound = "at least " if loss.lower_bound else ""
        gone = "are NaN after it" if drop.parse else "are gone"
        head += (f": {bound}{lost} of {loss.before} rows ({bound}{_pct(frac)}) {gone} "
                 f"({loss.how})")
        values = {"rows_before": loss.before, "rows_after": loss.after,
                  "fraction_lost": round(frac, 4)}
    else:
        head += " (how many rows this removes could not be read from the kernel)"
    lines = [drop.line]
    if summaries:
        where = ", ".join(f"`{k}` on line {ln}" for ln, k in summaries[:3])
        head += f"; the cell then computes {where} on what is left"
        lines += [ln for ln, _ in summaries[:3]]
    head += " without reporting how many rows were removed."
    if group is not None and gfrac is not None:
        head += (f" The loss is concentrated: {group[2]} of the {group[3]} rows with "
                 f"`{group[0]}` = {group[1]!r} ({_pct(gfrac)}) are NaN, so that group's "
                 "figures rest on what is left of it.")
        values["group_fraction_lost"] = round(gfrac, 4)
    if shares and frac is not None and loss.before is not None and loss.after is not None:
        ln, text = shares[0]
        head += (f" `{text}` on line {ln} counts every NaN as not meeting the limit (NaN "
                 f"compares False), so a share over the limit can be off by up to "
                 f"{100 * frac:.1f} percentage points, and values that failed to parse are "
                 "often the out-of-range ones ('OVER', '>13', '<LOD').")
    if shown:
        head += " (An earlier cell showed the missing values or status counts.)"
    if drop.kind == "failed":
        head += (" Failed runs are rarely missing at random: the summary describes only the "
                 "runs that succeeded.")
    elif drop.kind == "merge":
        head += " Unmatched keys often mean inconsistent IDs rather than absent data."
    elif drop.kind == "skipped":
        head += (" The records that fail to parse are rarely a random sample (an unhandled "
                 "format, unit or range), so the summary describes only the easy cases.")
    elif frac is not None and frac >= 0.10:
        head += " If missingness relates to the outcome, the summary is biased."
    return Finding(explanation=head, severity=severity, confidence=conf,
                   evidence={"lines": sorted(set(lines)), "values": values},
                   suggestion=_SUGGEST[drop.kind if drop.kind in _SUGGEST else "missing"])


_SUGGEST = {
    "missing": "Report the loss next to the result: `n0 = len(df); df = df.dropna(subset=[...]);"
               " print(f'dropped {n0 - len(df)} of {n0} rows')` (or show `df.isna().sum()`), "
               "and say whether missingness could relate to the outcome (or impute and say so).",
    "coerce": "Count what coercion destroyed: `bad = df[col].notna() & converted.isna(); "
              "print(bad.sum(), 'unparseable values')`, and show a few of them before "
              "summarising.",
    "failed": "Report how many runs failed and where: `print(df.status.value_counts())` (per "
              "condition), and consider whether failures depend on the condition you compare.",
    "merge": "Check the merge: `merged = a.merge(b, on=key, how='left', indicator=True)` and "
             "print `merged._merge.value_counts()`, or `assert len(merged) == len(a)`.",
    "skipped": "Record what fails instead of skipping it: append the failing records to a "
               "list in the `except` clause and print how many (and a few examples) before "
               "summarising; better, fix the parser for the formats it misses.",
}


@rule("data_loss.silent_dropna",
      title="Rows with missing values dropped silently before a summary")
def silent_dropna(ev: Evidence) -> Iterator[Finding]:
    """`dropna`, `notna` masks or `to_numeric(errors='coerce')` remove rows, and the cell
    summarises what is left without saying how many rows went."""
    yield from _findings(ev, {"missing", "coerce"})


@rule("data_loss.failed_rows_filtered",
      title="Failed or invalid runs filtered out silently before a summary")
def failed_rows_filtered(ev: Evidence) -> Iterator[Finding]:
    """Keeping only `status == 'ok'` rows (or `~failed`, `converged`, …), or skipping every
    record whose parsing raises (`except ...: continue` in the loop that builds the data), and
    summarising what is left without reporting how many were excluded."""
    yield from _findings(ev, {"failed", "skipped"})


@rule("data_loss.inner_merge_loss",
      title="Inner merge silently dropped unmatched rows")
def inner_merge_loss(ev: Evidence) -> Iterator[Finding]:
    """An inner `merge`/`join` loses every row whose key has no match, and the cell does
    not check how many."""
    yield from _findings(ev, {"merge"})


# -- groupby keys with NaN ------------------------------------------------------------------

_GROUPERS = {"groupby": ("by",), "pivot_table": ("index", "columns")}
_NAN_HANDLING = re.compile(r"\.(?:isna|isnull|notna|notnull|fillna|value_counts)\(|dropna\s*=\s*"
                           r"False|\.cat\.add_categories\(")


def _grouping_keys(call: ast.Call, last: str) -> list[ast.AST]:
    keys: list[ast.AST] = []
    if last == "groupby" and call.args:
        keys.append(call.args[0])
    for kw in call.keywords:
        if kw.arg in _GROUPERS[last]:
            keys.append(kw.value)
    out: list[ast.AST] = []
    for k in keys:
        out += list(k.elts) if isinstance(k, ast.List | ast.Tuple) else [k]
    return out


def _nan_keys(ev: Evidence, frame: str, keys: list[ast.AST]) -> list[tuple[str, int, int]]:
    """(key label, NaN count, rows) of each grouping key the kernel knows about."""
    facts = ev.objects.get(frame)
    out: list[tuple[str, int, int]] = []
    for k in keys:
        col = k.value if isinstance(k, ast.Constant) and isinstance(k.value, str) else None
        if col is None and _root(k) == frame:
            col = _column_of(k)
        if col is not None:
            if facts is None or facts.kind != "dataframe" or not facts.rows:
                continue
            n = facts.missing.get(col)
            if n is not None:
                out.append((f"{frame}.{col}", n, facts.rows))
        elif isinstance(k, ast.Name):
            kf = ev.objects.get(k.id)
            if kf is not None and kf.kind in ("series", "ndarray") and kf.rows:
                n = kf.missing.get("")
                if n is not None:
                    out.append((k.id, n, kf.rows))
    return out


def _handles_nan_keys(ev: Evidence, labels: list[str]) -> bool:
    """The cell counts, fills or keeps the missing keys (`isna().sum()`, `fillna`,
    `dropna=False`, `value_counts(dropna=False)`) on a line naming the key."""
    cols = {lab.rsplit(".", 1)[-1] for lab in labels}
    for line in ev.code.splitlines():
        if _NAN_HANDLING.search(line) and any(re.search(
                r"(?<![\w])" + re.escape(c) + r"(?![\w])", line) for c in cols):
            return True
    return False


_TOTALS_IN_STMT = re.compile(r"['\"](?:size|count|sum|nunique)['\"]|\.(?:size|count|sum|"
                             r"nunique|value_counts|cumsum)\(|\blen\b|\bnormali[sz]e\b")
_TOTALS_LATER = re.compile(r"\.sum\(|\baverage\(|\bweights?\b|\bshare|\btotal")


def _totals_used(ev: Evidence, c) -> bool:  # type: ignore[no-untyped-def]
    """The groups are counted or summed (sizes, shares, totals, a weighted overall figure):
    the rows without a key are then missing from a whole-population number. Per-group means
    alone stay valid for the rows that have a group."""
    lines = ev.code.splitlines()
    stmt = "\n".join(lines[c.stmt.lineno - 1:(c.stmt.end_lineno or c.stmt.lineno)])
    if _TOTALS_IN_STMT.search(stmt):
        return True
    later = lines[(c.stmt.end_lineno or c.stmt.lineno):]
    return any(re.search(r"(?<![\w])" + re.escape(t) + r"(?![\w])", ln)
               and _TOTALS_LATER.search(ln) for t in c.targets for ln in later)


@rule("data_loss.groupby_drops_nan_keys",
      title="groupby silently drops rows whose key is missing")
def groupby_drops_nan_keys(ev: Evidence) -> Iterator[Finding]:
    """`groupby` / `pivot_table` drop every row whose grouping key is NaN (pandas'
    `dropna=True` default), so group sizes, shares and totals describe only the rows with a
    key. Judged from the kernel's NaN counts of the key; quiet when the keys are complete or
    the cell counts, fills or keeps them (`dropna=False`)."""
    if ev.tree is None:
        return
    seen: set[str] = set()
    for c in ev.model.calls:
        last = c.last
        if last not in _GROUPERS or not c.receiver_root or c.has_kwarg("level"):
            continue
        if c.kwarg_value("dropna", True) is False:
            continue
        found = [k for k in _nan_keys(ev, c.receiver_root, _grouping_keys(c.node, last))
                 if k[1] > 0]
        if not found or _handles_nan_keys(ev, [k[0] for k in found]) or not _totals_used(
                ev, c):
            continue
        label, n, rows = max(found, key=lambda k: k[1])
        if label in seen:
            continue
        seen.add(label)
        frac = n / rows
        if frac >= 0.10:
            severity, conf = "high", (0.85 if frac >= 0.2 else 0.8)
        elif frac >= 0.02:
            severity, conf = "medium", 0.55
        else:
            severity, conf = "low", 0.4
        yield Finding(
            explanation=(f"Line {c.line} groups by `{label}`, which is missing for {n} of "
                         f"{rows} rows ({_pct(frac)}); `{last}` drops those rows by default "
                         "(`dropna=True`), so group sizes, shares of the total and any "
                         "overall figure weighted from the groups silently leave them out. "
                         "Rows without a key are rarely missing at random."),
            severity=severity, confidence=conf,
            evidence={"lines": [c.line], "values": {"nan_keys": n, "rows": rows,
                                                    "fraction_lost": round(frac, 4)}},
            suggestion=(f"Count them (`{c.receiver_root}[...].isna().sum()`) and keep them as "
                        f"their own group with `{last}(..., dropna=False)` (or `fillna"
                        "('unknown')` on the key), and compute overall figures on all rows."))


# -- malformed lines skipped while reading ------------------------------------------------------

_READERS = {"read_csv", "read_table", "read_fwf", "genfromtxt"}
_SKIP_TEXT = re.compile(r"(?i)\b(?:skipp\w*|malformed|bad (?:lines?|rows?)|dropped|discard\w*|"
                        r"unparse\w*|invalid|repaired)\b")
_LINE_COUNT = re.compile(r"splitlines\(|readlines\(|\.count\(\s*['\"]\\n|wc -l|sum\(1 for")


def _bad_line_mode(c) -> str | None:
    """'skip' (silently), 'warn' (a warning lists them) or None."""
    if c.last == "genfromtxt":
        return "warn" if c.kwarg_value("invalid_raise", True) is False else None
    mode = c.kwarg_value("on_bad_lines")
    if mode == "skip":
        return "skip"
    if mode == "warn":
        return "warn"
    if c.kwarg_value("error_bad_lines", True) is False:
        return "skip" if c.kwarg_value("warn_bad_lines", True) is False else "warn"
    return None


@rule("data_loss.bad_lines_skipped",
      title="Malformed lines skipped silently while reading the data")
def bad_lines_skipped(ev: Evidence) -> Iterator[Finding]:
    """`read_csv(on_bad_lines="skip")` (or `error_bad_lines=False`, `genfromtxt(
    invalid_raise=False)`) discards every line that does not parse, and nothing says how many.
    Malformed lines are rarely random (a field with a comma, one client, one export)."""
    if ev.tree is None:
        return
    ctx = _ctx(ev)
    for c in ev.model.calls:
        if c.last not in _READERS:
            continue
        mode = _bad_line_mode(c)
        if mode is None:
            continue
        if any(_SKIP_TEXT.search(ln) and _INT_RE.search(ln)
               for ln in ev.text[:30_000].splitlines()[:500]):
            continue
        if _LINE_COUNT.search(ev.code):
            continue
        tainted = ctx.downstream(set(c.targets), c.line) if c.targets else set()
        summaries = [d for d in ev.model.calls if d.line > c.line and (
            d.last in SUMMARY_METHODS or d.last in STAT_TESTS or d.last in FIT_CALLS
            or d.last == "groupby") and (({d.receiver_root} | _names(d.node)) & tainted)]
        if mode == "skip":
            severity, conf = ("high", 0.7) if summaries else ("medium", 0.6)
        else:
            severity, conf = "low", 0.4
        how = ("skips them silently" if mode == "skip" else
               "only warns about them (the count is not part of the result)")
        lines = [c.line] + [d.line for d in summaries[:3]]
        then = (f"; lines {', '.join(str(d.line) for d in summaries[:3])} then summarise "
                "what was parsed" if summaries else "")
        yield Finding(
            explanation=(f"Line {c.line} reads the data with malformed lines discarded "
                         f"(`{c.last}` {how}){then}, and the cell never says how many lines "
                         "were lost. Lines that fail to parse are rarely random (an unquoted "
                         "comma in one field, one client or exporter), so the summary can be "
                         "biased by an unknown share of missing records."),
            severity=severity, confidence=conf,
            evidence={"lines": sorted(set(lines)), "values": {"on_bad_lines": mode}},
            suggestion=("Pass a callable to `on_bad_lines` (engine='python') that repairs or "
                        "collects the bad lines and print how many there were, or compare the "
                        "raw line count with `len(df)` and report the difference."))


# -- deduplication on a key that does not identify the records -----------------------------------

_ID_TOKENS = {"id", "key", "uuid", "guid", "no", "num", "number", "ref", "code"}
_SORTS = {"sort_values", "sort_index", "nlargest", "nsmallest"}


def _dedupe_keys(node: ast.AST) -> tuple[ast.AST, list[str], bool] | None:
    """(frame expression, key columns, keep=False) of `df.drop_duplicates(subset=K)`,
    `df.drop_duplicates(K)`, `df[~df.duplicated(K)]`, `df.loc[~df["k"].duplicated()]`.
    Whole-row deduplication (no subset) is not a key choice and gives None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr == "drop_duplicates":
        subset = next((k.value for k in node.keywords if k.arg == "subset"), None)
        if subset is None and node.args:
            subset = node.args[0]
        keys = _str_list(subset)
        keep = next((k.value for k in node.keywords if k.arg == "keep"), None)
        frame = node.func.value
        if subset is None:  # whole rows of a column selection: `df[["a", "b"]]`
            frame, keys = _projection(frame)
        return (frame, keys, isinstance(keep, ast.Constant) and keep.value is False) \
            if keys else None
    if not isinstance(node, ast.Subscript):
        return None
    value, mask = node.value, node.slice
    if isinstance(value, ast.Attribute) and value.attr == "loc":
        value = value.value
        if isinstance(mask, ast.Tuple) and mask.elts:
            mask = mask.elts[0]
    if not (isinstance(mask, ast.UnaryOp) and isinstance(mask.op, ast.Invert)):
        return None
    call = mask.operand
    if not (isinstance(call, ast.Call) and _call_last(call) == "duplicated"
            and isinstance(call.func, ast.Attribute)):
        return None
    recv = call.func.value
    if _root(recv) != _root(value):
        return None
    subset = next((k.value for k in call.keywords if k.arg == "subset"), None)
    if subset is None and call.args:
        subset = call.args[0]
    keys = _str_list(subset)
    if not keys and _column_of(recv):
        keys = [_column_of(recv) or ""]  # df["k"].duplicated()
    keep = next((k.value for k in call.keywords if k.arg == "keep"), None)
    return (value, keys, isinstance(keep, ast.Constant) and keep.value is False) \
        if keys else None


def _projection(node: ast.AST) -> tuple[ast.AST, list[str]]:
    """(frame, columns) of `df[["a", "b"]]` / `df.loc[:, ["a", "b"]]`: deduplicating whole
    rows of a column selection keys on those columns. ([] for anything else.)"""
    if isinstance(node, ast.Subscript):
        value, sl = node.value, node.slice
        if isinstance(value, ast.Attribute) and value.attr == "loc" and \
                isinstance(sl, ast.Tuple) and len(sl.elts) == 2 and \
                isinstance(sl.elts[0], ast.Slice):
            value, sl = value.value, sl.elts[1]
        if isinstance(sl, ast.List | ast.Tuple):
            cols = _str_list(sl)
            if cols and len(cols) == len(sl.elts):
                return value, cols
    return node, []


_RECORD_ID_TOKENS = _ID_TOKENS | {"tag", "uid", "serial", "barcode", "sku", "accession",
                                  "ticket", "invoice", "receipt", "isbn", "guid"}


def _record_ids(facts: ObjectFacts, keys: list[str], kept: int) -> list[tuple[str, int]]:
    """Identifier columns left out of the key (`tree_tag`, `order_id`) with more distinct
    values than the rows kept: rows with different identifiers were merged away."""
    rows = facts.rows or 0
    out: list[tuple[str, int]] = []
    for c, dtype in facts.dtypes.items():
        if c in keys or dtype.startswith("float"):
            continue
        n = facts.unique.get(c, 0)
        named = bool(set(_tokens(c)) & _RECORD_ID_TOKENS) or c.lower().endswith("id")
        if (named or (rows and n >= 0.95 * rows)) and n > max(1.2 * kept, kept + 5):
            out.append((c, n))
    return out


def _sorted_first(ctx: _Ctx, frame_expr: ast.AST, line: int) -> bool:
    """The rows were ordered before one per key was kept (`df.sort_values("date")
    .drop_duplicates("customer_id", keep="last")`): a deliberate latest/first record."""
    for sub in _walk(frame_expr):
        if isinstance(sub, ast.Call) and _call_last(sub) in _SORTS:
            return True
    root = _root(frame_expr)
    return any(c.line <= line and c.last in _SORTS and (
        root in c.targets or (c.receiver_root == root and c.kwarg_value("inplace") is True))
        for c in ctx.model.calls)


def _used_columns(ctx: _Ctx, drop: _Drop, columns: set[str]) -> list[str]:
    """Columns of the deduplicated frame the rest of the cell reads (in the dedupe statement
    itself and in statements using what it produced)."""
    stmts = [drop.stmt]
    if drop.target and drop.target != "<return>":
        tainted = ctx.downstream({drop.target}, drop.line)
        stmts += [c.stmt for c in ctx.model.calls if c.line > drop.line and (
            ({c.receiver_root} | _names(c.node)) & tainted)]
    used: list[str] = []
    for st in stmts:
        for sub in _walk(st):
            text = sub.value if isinstance(sub, ast.Constant) and isinstance(
                sub.value, str) else sub.attr if isinstance(sub, ast.Attribute) else None
            if text in columns and text not in used:
                used.append(text)
    return used


@rule("data_loss.dedupe_wrong_key",
      title="Duplicates removed on a key that does not identify the records")
def dedupe_wrong_key(ev: Evidence) -> Iterator[Finding]:
    """`drop_duplicates(subset=K)` (or `df[~df.duplicated(K)]`) keeps one row per K. When K
    is coarser than a record (a customer, not an order) every other row of that customer is
    discarded, though it was a distinct record, and totals or means are computed on what is
    left. Judged from the kernel: the rows kept (distinct K) against the rows there were, and
    columns the cell then summarises that have many more distinct values than rows kept
    (so the deduplication threw away distinct records, not copies). Quiet when the rows were
    sorted first (a deliberate latest record per key), when the loss is reported, or when only
    per-key attributes are used afterwards."""
    if ev.tree is None or "duplicat" not in ev.code:
        return
    ctx = _ctx(ev)
    seen: set[int] = set()
    for node, st, fn in ctx.walk.items:
        if st is None or fn is not None or isinstance(
                st, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        found = _dedupe_keys(node)
        if found is None or node.lineno in seen:  # type: ignore[attr-defined]
            continue
        frame_expr, keys, keep_none = found
        drop = ctx.sites._make("dedupe", node, st, frame_expr, keys)
        seen.add(drop.line)
        if _sorted_first(ctx, frame_expr, drop.line):
            continue
        summaries = [s for s in ctx.summaries_after(drop) if s[1] != "fit"]
        if not summaries:
            continue
        f = _judge_dedupe(ctx, drop, keys, keep_none, summaries, ctx.reported(drop))
        if f is not None:
            yield f


def _judge_dedupe(ctx: _Ctx, drop: _Drop, keys: list[str], keep_none: bool,
                  summaries: list[tuple[int, str]], reported: bool = False) -> Finding | None:
    """`reported`: the cell says how many rows remain. That answers silence, not a wrong
    key, so only distinct record identifiers merged away still count then."""
    ev = ctx.ev
    by_id = False
    src = drop.source or ""
    facts = ev.objects.get(src)
    rows = kept = None
    finer: list[tuple[str, int]] = []
    if drop.in_place:
        before, after = _rows(ev.before.get(src)), _rows(facts)
        if before and after is not None and not ctx.rebound_after(src, drop.line):
            rows, kept = before, after
    elif facts is not None and facts.kind == "dataframe" and facts.rows and \
            not ctx.rebound_after(src, drop.line):
        rows = facts.rows
        target = ev.objects.get(drop.target or "")
        if drop.target and target is not None and target.kind == "dataframe" and \
                not ctx.rebound_after(drop.target, drop.line):
            kept = target.rows
        elif len(keys) == 1 and keys[0] in facts.unique and not keep_none:
            kept = facts.unique[keys[0]] + (1 if facts.missing.get(keys[0]) else 0)
        if kept:
            used = _used_columns(ctx, drop, set(facts.dtypes) - set(keys))
            finer = [(c, facts.unique[c]) for c in used
                     if facts.unique.get(c, 0) > max(1.2 * kept, kept + 5)]
            # the key is made of measured values (a float among them, no identifier): rows
            # that merely share those values are merged, though their record ids differ
            measured = any(facts.dtypes.get(k, "").startswith("float") for k in keys)
            id_key = any(set(_tokens(k)) & _RECORD_ID_TOKENS or k.lower().endswith("id")
                         for k in keys)
            if not finer and measured and not id_key:
                finer = _record_ids(facts, keys, kept)
                by_id = bool(finer)
    if reported and not by_id:
        return None
    key_txt = ", ".join(f"`{k}`" for k in keys)
    lines = sorted({drop.line, *(ln for ln, _ in summaries[:3])})
    what = ", ".join(f"`{k}`" for _, k in summaries[:3])
    if rows and kept is not None:
        frac = max(0, rows - kept) / rows
        if frac < 0.05:
            return None
        if finer and frac >= 0.2:
            severity, conf = "high", (0.85 if frac >= 0.4 else 0.8)
        elif finer:
            severity, conf = "medium", 0.55
        elif drop.in_place and frac >= 0.2:
            severity, conf = "medium", 0.5  # no per-column facts left to tell copies apart
        else:
            return None  # only per-key attributes are used afterwards: one row per key is fine
        head = (f"Line {drop.line} keeps one row per {key_txt} and discards the rest: "
                f"{rows - kept} of {rows} rows ({_pct(frac)}) of `{src}` are gone")
        if by_id:
            col, n = max(finer, key=lambda cn: cn[1])
            head += (f", although its record identifier `{col}` takes {n} distinct values: "
                     f"rows of different records that merely share the measured values "
                     f"{key_txt} were merged into one, not just copies removed (only {kept} "
                     "rows remain)")
        elif finer:
            col, n = max(finer, key=lambda cn: cn[1])
            head += (f", although `{col}` takes {n} distinct values in `{src}`: the discarded "
                     f"rows were distinct records, not copies (only {kept} rows remain)")
        values: dict[str, object] = {"rows_before": rows, "rows_after": kept,
                                     "fraction_lost": round(frac, 4),
                                     "finer_columns": dict(finer[:4])}
    elif facts is None:  # code only: the cell goes on to use a finer identifier
        used = _used_columns(ctx, drop, set(ctx.model.string_constants) - set(keys))
        other_ids = [c for c in used if set(_tokens(c)) & _ID_TOKENS]
        if not other_ids:
            return None
        severity, conf = "medium", 0.4
        head = (f"Line {drop.line} keeps one row per {key_txt}, yet the cell then works with "
                f"`{other_ids[0]}`, a finer identifier: every other record of the same "
                f"{key_txt} is discarded (how many could not be read from the kernel)")
        values = {"other_identifier": other_ids[0]}
    else:
        return None  # several key columns: how many rows one per key keeps is not known
    head += (f"; the cell then computes {what} on what is left"
             + (" without saying how many rows were removed" if not reported else "")
             + ". Deduplicating on a key that does not identify a record silently drops real "
             "rows and biases totals and means.")
    return Finding(
        explanation=head, severity=severity, confidence=conf,
        evidence={"lines": lines, "values": values},
        suggestion=("Deduplicate on the column(s) that identify one record (an order or "
                    "transaction id) or on all columns (`df.drop_duplicates()`), and print how "
                    "many rows were removed: `n0 = len(df); df = df.drop_duplicates(subset="
                    "['order_id']); print(f'removed {n0 - len(df)} duplicate rows')`. If one "
                    "row per key is intended, sort first and say which row is kept."))


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


def _num(node: ast.AST | None) -> float | None:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _num(node.operand)
        return -inner if inner is not None else None
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and \
            not isinstance(node.value, bool):
        return float(node.value)
    return None


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


def _loop_source(ev: Evidence, call_node: ast.AST, name: str) -> ast.AST | None:
    """What a loop variable stands for: `peaks` for `row` in `for f, row in zip(names,
    peaks)` / `{f: ... for f, row in zip(names, peaks)}` / `for row in peaks`."""
    for target, it in loops_around(ev, call_node):
        if isinstance(target, ast.Name) and target.id == name:
            return it
        if isinstance(target, ast.Tuple) and isinstance(it, ast.Call) and isinstance(
                it.func, ast.Name) and it.func.id == "zip":
            for elt, arg in zip(target.elts, it.args, strict=False):
                if isinstance(elt, ast.Name) and elt.id == name:
                    return arg
    return None


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


# -- filters on listed values that miss the column's spellings ------------------------------------

_QUERY_IN = re.compile(r"`?([A-Za-z_][\w ]*?)`?\s+in\s+(@\w+|\[[^\]]*\]|\([^)]*\))")
_QUERY_EQ = re.compile(r"`?([A-Za-z_]\w*)`?\s*==\s*(@\w+|'[^']*'|\"[^\"]*\")")


def _norm_level(s: str) -> str:
    """A spelling-insensitive form of a category: case, surrounding blanks, runs of
    blanks/underscores and hyphens between letters do not matter."""
    s = re.sub(r"(?<=\w)-(?=\w)", " ", s.strip().casefold())
    return re.sub(r"[\s_]+", " ", s).strip()


def _literal_strs(node: ast.AST | None) -> list[str] | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.List | ast.Tuple | ast.Set) and node.elts and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
        return [e.value for e in node.elts]  # type: ignore[attr-defined]
    return None


def _named_strs(ev: Evidence, name: str, line: int) -> list[str] | None:
    """The strings a name was last bound to before `line` (in the cell, else earlier cells):
    `channels = ["Email", "Social"]`."""
    found: list[str] | None = None
    for a in ev.model.assignments:
        if a.line < line and a.targets == [name] and a.value is not None:
            found = _literal_strs(a.value)
    if found is not None or not ev.prior_code or name not in ev.prior_code:
        return found
    try:
        prior = ast.parse(ev.prior_code)
    except SyntaxError:
        return None
    for st in prior.body:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(
                st.targets[0], ast.Name) and st.targets[0].id == name:
            found = _literal_strs(st.value)
    return found


def _strs_of(ev: Evidence, node: ast.AST | None, line: int) -> list[str] | None:
    if isinstance(node, ast.Name):
        return _named_strs(ev, node.id, line)
    if isinstance(node, ast.Call) and _call_last(node) in ("list", "set", "tuple", "sorted") \
            and len(node.args) == 1:
        return _strs_of(ev, node.args[0], line)
    return _literal_strs(node)


def _query_strs(ev: Evidence, text: str, line: int) -> list[str] | None:
    text = text.strip()
    if text.startswith("@"):
        return _named_strs(ev, text[1:], line)
    try:
        return _literal_strs(ast.parse(text, mode="eval").body)
    except SyntaxError:
        return None


def _value_filters(ev: Evidence, walk: CellIndex) -> list[tuple[ast.AST, ast.stmt, str, str,
                                                                list[str]]]:
    """(filtering node, its statement, frame, column, listed values) of every row filter
    that keeps listed values of a text column: `df[df.c.isin([...])]`, `df.loc[df["c"] ==
    "v"]`, `df.query("c in @names")`, `df.query("c == 'v'")` (negated conditions and `|`
    are left out: they keep rows rather than select them)."""
    out: list[tuple[ast.AST, ast.stmt, str, str, list[str]]] = []
    for node, st, fn in walk.items:
        if fn is not None or st is None or isinstance(st, ast.FunctionDef | ast.ClassDef):
            continue
        if isinstance(node, ast.Call) and _call_last(node) == "query" and isinstance(
                node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) and \
                node.args and isinstance(node.args[0], ast.Constant) and \
                isinstance(node.args[0].value, str):
            q = node.args[0].value
            if re.search(r"\bor\b|\||\bnot\b|~|!=", q):
                continue
            for m in _QUERY_IN.finditer(q):
                vals = _query_strs(ev, m.group(2), node.lineno)
                if vals:
                    out.append((node, st, node.func.value.id, m.group(1).strip(), vals))
            for m in _QUERY_EQ.finditer(q):
                vals = _query_strs(ev, m.group(2), node.lineno)
                if vals:
                    out.append((node, st, node.func.value.id, m.group(1), vals))
            continue
        if not isinstance(node, ast.Subscript):
            continue
        value, mask = node.value, node.slice
        if isinstance(value, ast.Attribute) and value.attr == "loc":
            value = value.value
            if isinstance(mask, ast.Tuple) and mask.elts:
                mask = mask.elts[0]
        if not isinstance(value, ast.Name):
            continue
        conjuncts: list[ast.AST] = []
        stack = [mask]
        while stack:
            m = stack.pop()
            if isinstance(m, ast.BinOp) and isinstance(m.op, ast.BitAnd):
                stack += [m.left, m.right]
            else:
                conjuncts.append(m)
        for c in conjuncts:
            col_node, listed = None, None
            if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and \
                    c.func.attr in ("isin", "eq") and c.args:
                col_node, listed = c.func.value, c.args[0]
            elif isinstance(c, ast.Compare) and len(c.ops) == 1 and isinstance(c.ops[0], ast.Eq):
                col_node, listed = c.left, c.comparators[0]
                if _column_of(col_node) is None:
                    col_node, listed = listed, col_node
            col = _column_of(col_node)
            if col is None or _root(col_node) != value.id:
                continue
            vals = _strs_of(ev, listed, node.lineno)
            if vals:
                out.append((node, st, value.id, col, vals))
    return out


def _spelling_gaps(listed: list[str], levels: dict[str, int]) -> tuple[
        dict[str, list[str]], dict[str, list[str]]]:
    """({listed value: levels spelled like it but left out}, {listed value: close levels
    that may be the same category}). A level is 'spelled like' a listed value when they are
    equal ignoring case, blanks, underscores and hyphens (case alone only for codes of 3+
    characters: `A` and `a` can be different alleles or grades); 'close' by difflib."""
    import difflib

    keep = set(listed)
    same: dict[str, list[str]] = {}
    close: dict[str, list[str]] = {}
    norm_listed = {v: _norm_level(v) for v in listed}
    for lev in levels:
        if lev in keep:
            continue
        nl = _norm_level(lev)
        for v, nv in norm_listed.items():
            if nl == nv and (len(nv) >= 3 or lev.strip().lower() != v.strip().lower()
                             or lev.strip() != lev):
                same.setdefault(v, []).append(lev)
                break
        else:
            prefixed = [v for v, nv in norm_listed.items() if len(nv) >= 4 and (
                nl.startswith(nv + " ") or nl.endswith(" " + nv))]
            if prefixed:
                close.setdefault(prefixed[0], []).append(lev)
            elif len(nl) >= 4:
                hit = difflib.get_close_matches(nl, list(norm_listed.values()), n=1, cutoff=0.8)
                if hit:
                    v = next(k for k, nv in norm_listed.items() if nv == hit[0])
                    if v not in levels:  # the listed spelling is absent: a typo in the list
                        same.setdefault(v, []).append(lev)
                    else:
                        close.setdefault(v, []).append(lev)
    return same, close


@rule("data_loss.filter_misses_spellings",
      title="Filter on listed values misses other spellings of the same categories")
def filter_misses_spellings(ev: Evidence) -> Iterator[Finding]:
    """`df[df.channel.isin(["Email", "Social"])]`, `df.query("channel in @names")`, `df[df.city
    == "new york"]`: the kernel lists the column's levels, and some of them are the listed
    categories spelled differently (`"email "`, `"paid_search"`, `"New York"`) or a listed
    value is absent while a near spelling holds rows (a typo in the list). Those rows are
    dropped silently, usually not at random (one data source, one app, one clerk), so every
    total, rate or ranking computed from the filtered rows is off. High (0.85) when at least
    5% of the rows meant to be kept are lost and a summary follows without any count being
    reported; medium otherwise (from 2%). Close-but-unequal levels (`"social_ads"` for
    `"Social"`) are named in the explanation, not counted."""
    if ev.tree is None or not any(k in ev.code for k in ("isin", "==", ".eq(", "query")):
        return
    ctx = _ctx(ev)
    seen: set[tuple[str, str, int]] = set()
    for node, st, frame, col, listed in _value_filters(ev, ctx.walk):
        facts = ev.objects.get(frame)
        if facts is None or facts.kind != "dataframe" or col not in facts.levels or \
                ctx.rebound_after(frame, node.lineno) or (frame, col, node.lineno) in seen:
            continue
        levels = facts.levels[col]
        if facts.unique.get(col, 0) > len(levels):
            continue  # levels from a truncated listing: absence proves nothing
        same, close = _spelling_gaps(listed, levels)
        if not same:
            continue
        seen.add((frame, col, node.lineno))
        lost = sum(levels[lev] for levs in same.values() for lev in levs)
        kept = sum(levels.get(v, 0) for v in set(listed))
        frac = lost / (lost + kept) if lost + kept else 0.0
        if frac < 0.02:
            continue
        drop = ctx.sites._make("values", node, st, ast.Name(id=frame), [col])
        summaries = ctx.summaries_after(drop)
        reported = ctx.reported(drop)
        if frac >= 0.05 and summaries and not reported:
            severity, confidence = "high", 0.85
        else:
            severity, confidence = "medium", 0.55
        pairs = "; ".join(
            f"{v!r} is also spelled " + ", ".join(f"{lev!r} ({levels[lev]} rows)"
                                                 for lev in levs[:4])
            if v in levels else
            f"{v!r} is not in the column, but " + ", ".join(
                f"{lev!r} ({levels[lev]} rows)" for lev in levs[:4]) + " is"
            for v, levs in list(same.items())[:5])
        maybe = ""
        if close:
            maybe = (" Possibly the same categories too: " + "; ".join(
                f"{lev!r} ({levels[lev]} rows) for {v!r}" for v, levs in list(
                    close.items())[:3] for lev in levs[:2]) + ".")
        then = ""
        if summaries:
            then = " The cell then computes " + ", ".join(
                f"`{k}` on line {ln}" for ln, k in summaries[:3]) + " on what is left."
        yield Finding(
            explanation=(f"Line {node.lineno} keeps the rows of `{frame}` whose `{col}` is one "
                         f"of {len(set(listed))} listed value(s), but the column spells some of "
                         f"them differently: {pairs}. Those {lost} rows ({_pct(frac)} of the "
                         f"{lost + kept} rows meant to be kept) are dropped without a "
                         f"trace.{maybe}{then} Rows with a variant spelling usually come from "
                         "one source (an app, a site, a form version), so the totals and "
                         "rankings are biased, not just smaller."),
            severity=severity, confidence=confidence,
            evidence={"lines": sorted({node.lineno, *(ln for ln, _ in summaries[:3])}),
                      "values": {"column": col, "rows_lost": lost, "rows_kept": kept,
                                 "variants": {v: levs[:4] for v, levs in same.items()}}},
            suggestion=(f"Normalise the categories before filtering (`{frame}['{col}'].str."
                        "strip().str.casefold()` plus a mapping of known aliases), then print "
                        f"the rows the filter leaves out (`{frame}.loc[~mask, '{col}']."
                        "value_counts()`) and check it is empty or intended."))


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


# -- model formulas that drop incomplete rows -----------------------------------------------

# statsmodels' formula interface (and patsy underneath it) drops every row with a NaN in any
# column the formula names (`missing="drop"` is the default): the fit, its parameters, fitted
# values and every summary of them describe the complete cases only.
_FORMULA_MODULES = ("statsmodels.formula.api.", "patsy.")
_PATSY_CALLS = {"dmatrices", "dmatrix"}
_FORMULA_TOKEN = re.compile(r"(?<![\w.])([A-Za-z_]\w*)(?![\w.(])")
_FORMULA_Q = re.compile(r"\bQ\(\s*['\"]([^'\"]+)['\"]\s*\)")
_NOBS_REPORT = re.compile(r"(?i)No\. Observations|\bnobs\b|\bn_?obs\b")


def _formula_call(c) -> tuple[ast.AST | None, ast.AST | None] | None:  # type: ignore[no-untyped-def]
    """(formula, data) of a formula model call, or None."""
    name = c.name or ""
    if name.startswith(_FORMULA_MODULES) or (c.last in _PATSY_CALLS and "patsy" in name):
        if c.last in _PATSY_CALLS:
            if c.kwarg_value("NA_action", "drop") != "drop":
                return None
            return c.arg(0, "formula_like"), c.arg(1, "data")
    elif c.last == "from_formula" and name.startswith("statsmodels"):
        pass
    else:
        return None
    if c.kwarg_value("missing", "drop") != "drop":
        return None
    return c.arg(0, "formula"), c.arg(1, "data")


def _formula_texts(ctx: _Ctx, node: ast.AST | None, line: int,
                   function: str | None = None) -> list[str]:
    """The formula strings a call can receive: a literal, an f-string's literal parts, a name
    bound to one of those earlier, the variable of a loop or comprehension over literal
    formulas, or (inside a helper) what the helper's callers pass for that parameter."""
    if node is None:
        return []
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return ["".join(v.value for v in node.values if isinstance(v, ast.Constant)
                        and isinstance(v.value, str))]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _formula_texts(ctx, node.left, line), _formula_texts(ctx, node.right, line)
        return [a + b for a in left or [""] for b in right or [""]] if left or right else []
    if not isinstance(node, ast.Name):
        return []
    if function is not None:
        func = ctx.sites.functions.get(function)
        params = [a.arg for a in func.args.args] if func is not None else []
        if node.id not in params:
            return []
        pos = params.index(node.id)
        out: list[str] = []
        for call, _st, outer in ctx.walk.items:
            if outer is None and isinstance(call, ast.Call) and isinstance(
                    call.func, ast.Name) and call.func.id == function:
                arg = call.args[pos] if len(call.args) > pos else next(
                    (k.value for k in call.keywords if k.arg == node.id), None)
                out += _formula_texts(ctx, arg, call.lineno)
        return out
    out = []
    for st in ctx.name_assigns.get(node.id, ()):
        if st.lineno <= line:
            out = _formula_texts(ctx, st.value, st.lineno - 1) or out
    if out:
        return out
    for loop in [*ctx.walk.of(ast.For), *(g for n, _, _ in ctx.walk.items
                                          if isinstance(n, ast.comprehension) for g in [n])]:
        if not (isinstance(loop.target, ast.Name) and loop.target.id == node.id):
            continue
        if isinstance(loop, ast.For) and not (
                loop.lineno <= line <= (loop.end_lineno or loop.lineno)):
            continue
        it = loop.iter
        if isinstance(it, ast.Call) and _call_last(it) in ("items", "values") and \
                isinstance(it.func, ast.Attribute):
            it = it.func.value
        if isinstance(it, ast.Name):
            src = [s.value for s in ctx.name_assigns.get(it.id, ()) if s.lineno <= line]
            it = src[-1] if src else it
        elts = it.values if isinstance(it, ast.Dict) else getattr(it, "elts", [])
        out += [t for e in elts for t in _formula_texts(ctx, e, line)]
    return out


def _formula_columns(text: str, columns: set[str]) -> list[str]:
    found = {m.group(1) for m in _FORMULA_Q.finditer(text)}
    bare = re.sub(r"'[^']*'|\"[^\"]*\"", " ", text)  # level names, Q("...") already read
    found |= {m.group(1) for m in _FORMULA_TOKEN.finditer(bare)}
    return sorted(found & columns)


def _formula_frames(ctx: _Ctx, c, data: ast.AST | None) -> list[str]:  # type: ignore[no-untyped-def]
    """The frame(s) a formula model is fitted on: `data=df` or a column projection of it;
    inside a helper `def fit(d): smf.ols(..., data=d)`, the frames passed to it."""
    if isinstance(data, ast.Subscript) and isinstance(data.slice, ast.List | ast.Constant):
        data = data.value
    if not isinstance(data, ast.Name):
        return []
    if c.function is None:
        return [data.id]
    func = ctx.sites.functions.get(c.function)
    params = [a.arg for a in func.args.args] if func is not None else []
    if data.id not in params:
        return []
    pos = params.index(data.id)
    out = []
    for node, _st, outer in ctx.walk.items:
        if outer is None and isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == c.function:
            arg = node.args[pos] if len(node.args) > pos else next(
                (k.value for k in node.keywords if k.arg == data.id), None)
            if isinstance(arg, ast.Name):
                out.append(arg.id)
    return out


def _nobs_reported(ctx: _Ctx) -> bool:
    """The cell shows how many rows the model used (or lost): `model.nobs`, a summary table
    ("No. Observations"), a NaN count, or a message about dropped/missing rows."""
    ev = ctx.ev
    text = ev.text[:30_000]
    if _NOBS_REPORT.search(text):
        return True
    for line in text.splitlines()[:500]:
        if re.search(r"(?i)\b(?:drop\w*|missing|nans?|excluded|complete[- ]cases?|"
                     r"incomplete)\b", line) and _INT_RE.search(line):
            return True
    exprs: list[ast.AST] = list(ctx.model.reported_exprs)
    exprs += [n.test for n in ctx.walk.of(ast.Assert)]
    exprs += [a for n in ctx.walk.of(ast.Call) if _call_last(n) in _LOG_CALLS for a in n.args]
    for e in exprs:
        for sub in _walk(e):
            if isinstance(sub, ast.Attribute) and sub.attr in ("nobs", "df_resid"):
                return True
            if isinstance(sub, ast.Call) and _call_last(sub) in _MISSING_CALLS | {"info"}:
                return True
    return False


def _fit_nobs(ev: Evidence, call: CallSite) -> int | None:
    """`nobs` of the fitted result the statement holding a formula call binds
    (`res = smf.logit(...).fit()`), as the kernel read it."""
    for name in call.targets:
        f = ev.objects.get(name)
        nobs = f.params.get("nobs") if f is not None and f.kind == "result" else None
        if isinstance(nobs, int) and not isinstance(nobs, bool):
            return nobs
    return None


@rule("data_loss.formula_drops_missing",
      title="Formula model silently dropped every row with a missing value")
def formula_drops_missing(ev: Evidence) -> Iterator[Finding]:
    """`smf.ols/glm/logit(...)`, `Model.from_formula` and `patsy.dmatrices` drop every row with
    a NaN in any column the formula names (statsmodels' default `missing='drop'`); the kernel's
    NaN counts of the frame say how many rows that is at least, and nothing in the cell says
    that the model (and every summary of it) covers only the complete cases."""
    if ev.tree is None:
        return
    ctx = _ctx(ev)
    reported: bool | None = None
    seen: set[str] = set()
    for c in ctx.model.calls:
        found = _formula_call(c)
        if found is None:
            continue
        formula, data = found
        texts = _formula_texts(ctx, formula, c.line, c.function)
        if not texts:
            continue
        for frame in _formula_frames(ctx, c, data):
            facts = ev.objects.get(frame)
            if frame in seen or facts is None or facts.kind != "dataframe" or not facts.rows:
                continue
            if ctx.rebound_after(frame, c.line):
                continue
            best: tuple[int, int, list[str]] | None = None
            for text in texts:
                cols = _formula_columns(text, set(facts.dtypes) | set(facts.missing))
                counts = {k: facts.missing.get(k) for k in cols}
                if not cols or any(v is None for v in counts.values()):
                    continue
                worst = max(v or 0 for v in counts.values())
                total = min(facts.rows, sum(v or 0 for v in counts.values()))
                holes = [k for k in cols if counts[k]]
                if best is None or worst > best[0]:
                    best = (worst, total, holes)
            if best is None or not best[0]:
                continue
            worst, total, holes = best
            rows = facts.rows
            used = _fit_nobs(ev, c)
            exact = used is not None and 0 <= rows - used <= rows
            if exact:  # the fitted result says how many rows it used: the loss is known
                worst = total = rows - used
            frac = worst / rows
            if frac < 0.02:
                continue
            if reported is None:
                reported = _nobs_reported(ctx)
            if reported:
                return
            seen.add(frame)
            if frac >= 0.3:
                severity, conf = "high", 0.8
            elif frac >= 0.1:
                severity, conf = "medium", 0.6
            else:
                severity, conf = "low", 0.5
            via = f" (inside `{c.function}()`)" if c.function else ""
            named = ", ".join(f"`{k}` ({facts.missing[k]} NaN)" for k in holes[:4])
            upto = f" and up to {total}" if total > worst else ""
            lost = (f"the fit used {used} of them, so {worst} rows ({_pct(frac)}) are left "
                    "out" if exact else
                    f"so at least {worst}{upto} rows ({_pct(frac)}+) are left out of the fit")
            head = (f"Line {c.line}{via} fits a formula model on `{frame}`, which silently "
                    f"drops every row with a missing value in a formula column (statsmodels' "
                    f"default `missing='drop'`): {named} of {rows} rows; {lost}. Its parameters, "
                    "fitted values and any summary of them describe only the complete cases, "
                    "and nothing in the cell reports the number of observations used.")
            if frac >= 0.1:
                head += (" Rows with a missing predictor are rarely a random subset (who "
                         "lacks a measurement is itself informative), so a result presented as "
                         "covering the whole frame is biased.")
            yield Finding(
                explanation=head, severity=severity, confidence=conf,
                evidence={"lines": [c.line], "values": {
                    "rows": rows, "rows_dropped_at_least": worst,
                    "fraction_dropped_at_least": round(frac, 4),
                    **({"rows_used": used} if exact else {}),
                    "missing": {k: facts.missing[k] for k in holes}}},
                suggestion=("Report the model's `nobs` against `len(df)`, and decide how to "
                            "treat the missing values instead of letting the formula drop "
                            "them: encode missingness (an indicator plus a filled value), "
                            "impute, or fit on an explicit complete-case subset and say so; "
                            "`missing='raise'` makes the loss impossible to miss."))
