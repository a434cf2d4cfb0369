"""The shared reading of a cell's code for the data_loss rules: the call, column and status
vocabularies (summaries, tests, fits, status columns and values, report text), the `_Drop`
record of a place where rows leave a frame, `_Sites` (which finds every drop: dropna and
notna masks, status filters, inner merges, `errors="coerce"` and string parses, records
skipped by an `except` that only moves on), and the small AST helpers the rule modules
share (columns of an expression, method chains, grouping keys, numeric literals, loop
sources)."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from ...ast_cache import parents as _parents
from ...ast_cache import walk as _walk
from ...code_model import called_name as _call_last
from ...code_model import name_tokens as _tokens
from ...code_model import names_in as _names
from ...code_model import root_name as _root
from ...evidence import Evidence
from .._columns import enclosing_loop_iter, loops_around
from ..suspicious_values import CellIndex

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
# reductions of the rows a mask keeps to how many there are, and the steps on the way
_ROW_COUNTS = {"size", "count", "nunique", "value_counts"}
_COUNT_PASSES = {"groupby", "sort_values", "sort_index", "reset_index", "copy",
                 "drop_duplicates"}
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
    nested: bool = False  # skipped: appended into a container inside the name (`d[k].append`)
    filled: int | None = None  # coerce: line where another parse or column fills its NaN


def _mask_kind(mask: ast.AST) -> tuple[str, list[str]] | None:
    """'missing' for notna/isfinite masks, 'failed' for status/failure masks."""
    cols: list[str] = []
    missing = failed = False
    labels = _category_selections(mask)
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
        if isinstance(sub, ast.Attribute) and _is_status_column(sub.attr) and \
                id(sub) not in labels:
            failed = True
        if isinstance(sub, ast.Subscript) and isinstance(sub.slice, ast.Constant) and \
                isinstance(sub.slice.value, str) and _is_status_column(sub.slice.value) and \
                id(sub) not in labels:
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


def _category_selections(mask: ast.AST) -> set[int]:
    """ids of column references that select a category rather than a run outcome: a compound
    `<noun>_status` column (`squad_status`, `marital_status`, `smoking_status`) compared with
    (or `isin`) string labels none of which names a success or failure (`"starter"`,
    `"married"`). Its name says "status", but the rows it leaves out are another group, not
    failed runs. A bare `status` column keeps its reading whatever the label."""
    out: set[int] = set()
    for sub in _walk(mask):
        if isinstance(sub, ast.Compare) and len(sub.comparators) == 1 and isinstance(
                sub.ops[0], ast.Eq | ast.NotEq | ast.In | ast.NotIn):
            sides = [sub.left, sub.comparators[0]]
            labels = [v for x in sides for v in (
                _str_list(ast.List(elts=list(x.elts))) if isinstance(
                    x, ast.List | ast.Tuple | ast.Set) else _str_list(x))]
            refs = [x for x in sides if not isinstance(
                x, ast.Constant | ast.List | ast.Tuple | ast.Set)]
        elif isinstance(sub, ast.Call) and _call_last(sub) in ("isin", "eq", "ne") and \
                sub.args and isinstance(sub.func, ast.Attribute):
            labels, refs = _str_list(sub.args[0]), [sub.func.value]
        else:
            continue
        if not labels or any(v.lower() in STATUS_VALUES for v in labels):
            continue
        for ref in refs:
            col = _column_of(ref)
            if col and any(t not in STATUS_COLUMNS for t in _tokens(col)):
                out.add(id(ref))
    return out


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
        self._follow_fills()
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
                # what the record would have been added to: inside the `try`, or (when the
                # handler `continue`s) in the loop body after it, which the skip jumps over
                kept = list(t.body)
                if t in loop.body and all(_continues(h) for h in t.handlers):
                    kept += loop.body[loop.body.index(t) + 1:]
                target = None
                for n in (x for st in kept for x in _walk(st)):
                    if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and \
                            n.func.attr in ("append", "add", "insert") and _collector(
                            n.func.value) not in (None, *bound_in_loop):
                        target = _collector(n.func.value)
                        break
                if target is None:
                    continue
                h = t.handlers[0]
                out.append(_Drop("skipped", h.lineno, loop, h, source, target, False,
                                 plain=True, nested=not isinstance(n.func.value, ast.Name)))
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
                    if self._counted_only(node):
                        return None
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
            if self._counted_only(node):
                return None
            if kind == "missing" and not cols:
                col = _column_of(value)
                cols = [col] if col else []
            return self._make(kind, node, stmt, value, cols)
        return None

    def _counted_only(self, node: ast.AST) -> bool:
        """The rows a mask keeps are only counted, in the same expression: `df[df.status ==
        "renewed"].groupby("broker").size()`, `.policy_id.nunique()`, `len(df[mask])`,
        `df.query("status == 'ok'").shape[0]`. The count is how many rows are in that
        category (a rate's numerator), not a summary of values the filter thinned."""
        if self.ev.tree is None:
            return False
        up = _parents(self.ev.tree)
        cur = node
        for _ in range(12):
            p = up.get(id(cur))
            if isinstance(p, ast.Call) and isinstance(p.func, ast.Name) and \
                    p.func.id == "len" and p.args and p.args[0] is cur:
                return True
            if isinstance(p, ast.Subscript) and p.value is cur and _str_list(p.slice):
                cur = p  # a column or columns of the kept rows
                continue
            if not isinstance(p, ast.Attribute) or p.value is not cur:
                return False
            if p.attr == "shape":
                return True
            call = up.get(id(p))
            if not isinstance(call, ast.Call) or call.func is not p:
                cur = p  # `kept.policy_id`
                continue
            if p.attr in _ROW_COUNTS:
                # a normalised value_counts is the distribution of the kept rows' values
                return not any(k.arg == "normalize" for k in call.keywords)
            if p.attr not in _COUNT_PASSES:
                return False
            cur = call
        return False

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
        source = drop.source
        if source not in params:
            # `out = frame.copy()` (or `frame[...]`, `frame.assign(...)`) at the top of the
            # helper: the drop works on a copy of the parameter
            source = next((_root(st.value) for st in func.body if isinstance(st, ast.Assign)
                           and st.lineno < drop.line and len(st.targets) == 1 and isinstance(
                               st.targets[0], ast.Name) and st.targets[0].id == source), None)
        if source not in params or _reports_count(func):
            return []
        pos = params.index(source)
        out: list[_Drop] = []
        for node, st, outer in self.walk.items:
            if outer is None and st is not None and not isinstance(st, ast.FunctionDef) and \
                    isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id == fn and len(node.args) > pos:
                source = _root(node.args[pos])
                target, inline = self._target_of(node, st)
                cols = drop.columns
                if drop.kind == "coerce" and inline is None:
                    # `df["w"] = to_float(df, "raw")`: stored like a direct coercion, under
                    # the column the call names
                    raw = _param_column(drop.node, params, node) or (cols[0] if cols else None)
                    col, into = _coerced_into(st, raw)
                    if into is not None:
                        target, cols = into, ([col] if col else [])
                out.append(_Drop(drop.kind, node.lineno, st, node, source, target,
                                 target is not None and target == source, cols,
                                 inline, via=fn))
                if drop.kind == "coerce" and drop.columns != cols:
                    out[-1].parsed_from = raw
        return out

    def _follow_fills(self) -> None:
        """`iso = pd.to_datetime(s, format=A, errors="coerce")`, `alt = ...format=B...`, then
        `df["ts"] = iso.fillna(alt)` (or `combine_first`, `where(notna, other)`): the second
        parse fills the first's NaN, so what is lost is what stays NaN in the combined value;
        the coercion is judged where the values are combined. A fill with a constant is
        imputation, not a second reading, and is left alone."""
        for d in self.drops:
            if d.kind != "coerce" or d.parse or not d.target or d.inline_summary or \
                    d.target == d.source or not (isinstance(d.stmt, ast.Assign) and isinstance(
                        d.stmt.targets[0], ast.Name)):
                continue
            for st in self.walk.of(ast.Assign):
                if st.lineno <= d.line or len(st.targets) != 1:
                    continue
                if not any(_fills_with(n, d.target) for n in self.walk.own.get(id(st), ())
                           if isinstance(n, ast.Call)):
                    continue
                col, target = _coerced_into(st, None)
                if target is None:
                    break
                d.target, d.columns = target, ([col] if col else [])
                d.in_place, d.filled = target == d.source, st.lineno
                break

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


_FILLS = {"fillna", "combine_first", "where", "mask"}


_COUNTING = {"isna", "isnull", "notna", "notnull", "len", "count", "count_nonzero",
             "value_counts", "info"}


def _reports_count(func: ast.FunctionDef) -> bool:
    """The helper prints, logs or asserts a count (`print(out[col].isna().sum())`,
    `log.info("%d dropped", n0 - len(out))`, `assert out[col].notna().all()`): what it drops
    is reported where it happens."""
    for n in _walk(func):
        if isinstance(n, ast.Assert):
            parts: list[ast.AST] = [n.test]
        elif isinstance(n, ast.Call) and _call_last(n) in _LOG_CALLS:
            parts = list(n.args)
        else:
            continue
        for part in parts:
            for sub in _walk(part):
                if (isinstance(sub, ast.Call) and _call_last(sub) in _COUNTING) or (
                        isinstance(sub, ast.Attribute) and sub.attr == "shape"):
                    return True
    return False


def _param_column(coerce: ast.AST, params: list[str], call: ast.Call) -> str | None:
    """The column a helper coerces when the column is one of its parameters: `frame[col]`
    inside `def to_float(frame, col)`, called as `to_float(df, "raw")`, gives "raw"."""
    arg = coerce.args[0] if isinstance(coerce, ast.Call) and coerce.args else None
    if not (isinstance(arg, ast.Subscript) and isinstance(arg.slice, ast.Name)) or \
            arg.slice.id not in params:
        return None
    pos = params.index(arg.slice.id)
    value = call.args[pos] if len(call.args) > pos else next(
        (k.value for k in call.keywords if k.arg == arg.slice.id), None)
    return value.value if isinstance(value, ast.Constant) and isinstance(
        value.value, str) else None


def _fills_with(call: ast.Call, name: str) -> bool:
    """`name.fillna(other)`, `other.fillna(name)`, `name.combine_first(other)`,
    `name.where(name.notna(), other)`: NaN of one value filled from another non-constant."""
    if not isinstance(call.func, ast.Attribute) or call.func.attr not in _FILLS:
        return False
    recv = call.func.value
    args = list(call.args) + [k.value for k in call.keywords if k.arg in ("value", "other")]
    if call.func.attr in ("where", "mask"):
        args = args[1:]
    if not args or any(isinstance(a, ast.Constant) or _num(a) is not None for a in args):
        return False
    return (isinstance(recv, ast.Name) and recv.id == name) or any(
        isinstance(a, ast.Name) and a.id == name for a in args)


def _continues(h: ast.ExceptHandler) -> bool:
    """A handler that jumps to the next record (`except ValueError: continue`)."""
    return any(isinstance(st, ast.Continue) for st in h.body)


def _collector(node: ast.AST) -> str | None:
    """The name a loop collects into: `out` for `out.append`, `by_arm[k]["x"].append`."""
    for _ in range(6):
        if isinstance(node, ast.Name):
            return node.id
        if not isinstance(node, ast.Subscript):
            return None
        node = node.value
    return None


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


# -- helpers the rule modules share ------------------------------------------------------------


_GROUPERS = {"groupby": ("by",), "pivot_table": ("index", "columns")}


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


def _num(node: ast.AST | None) -> float | None:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _num(node.operand)
        return -inner if inner is not None else None
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and \
            not isinstance(node.value, bool):
        return float(node.value)
    return None


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
