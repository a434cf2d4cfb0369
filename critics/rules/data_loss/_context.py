"""`_Ctx`, everything the data_loss rules ask about one cell, computed once per Evidence
(`_ctx`): the drop sites, name flow after a line, the summaries computed on what is left,
whether the cell reports a count, and whether an earlier cell showed the missing values."""

from __future__ import annotations

import ast
import re
import weakref
from collections.abc import Set as AbstractSet

from ...ast_cache import nodes_of
from ...ast_cache import walk as _walk
from ...code_model import called_name as _call_last
from ...code_model import names_in as _names
from ...code_model import root_name as _root
from ...evidence import Evidence
from ..suspicious_values import cell_index
from ._scan import (
    _COUNT_METHODS,
    _INT_RE,
    _LOG_CALLS,
    _MISSING_CALLS,
    _REPORT_TEXT,
    FIT_CALLS,
    ROW_PRESERVING,
    STAT_TESTS,
    SUMMARY_METHODS,
    _column_of,
    _Drop,
    _Sites,
)

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
        self._count_nodes: list[tuple[set[str], ast.AST]] | None = None
        self._labels: set[str] | None = None

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
        masks, labels = self.missing_masks(), self.missing_labels()
        out = [names for names, n in self.reported_count_nodes()
               if not nan_aware or _counts_nan(n, masks, labels)]
        if nan_aware:
            self._nan_counts = out
        else:
            self._counts = out
        return out

    def reported_count_nodes(self) -> list[tuple[set[str], ast.AST]]:
        """(names, node) of every count expression whose value reaches the output."""
        if self._count_nodes is not None:
            return self._count_nodes
        masks = self.missing_masks()
        count_nodes = {id(n): (_names(n), n) for n, _, _ in self.walk.items
                       if _is_count_node(n, masks)}
        out: list[tuple[set[str], ast.AST]] = []
        self._count_nodes = out
        if not count_nodes:
            return out
        drop_stmts = {id(d.stmt) for d in self.drops}
        seen_names: set[str] = set()

        def visit(node: ast.AST, depth: int) -> None:
            names: set[str] = set()
            local: set[str] = set()  # lambda parameters and comprehension targets
            found_here: list[tuple[set[str], ast.AST]] = []
            for sub in _walk(node):
                found = count_nodes.get(id(sub))
                if found is not None:
                    found_here.append(found)
                if isinstance(sub, ast.Name):
                    names.add(sub.id)
                elif isinstance(sub, ast.Lambda):
                    local.update(a.arg for a in sub.args.args)
                elif isinstance(sub, ast.comprehension):
                    local |= _names(sub.target)
            for found in found_here:
                # a count over a lambda's or a comprehension's own variable
                # (`df.groupby(k).x.apply(lambda s: s.notna().mean())`, `{k: g.x.isna().sum()
                # for k, g in df.groupby(k)}`) counts the frame the expression applies it to
                if local and found[0] & local:
                    found = (found[0] | (names - local), found[1])
                out.append(found)
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

    def missing_report(self, drop: _Drop) -> str | None:
        """How a cell that drops missing rows reports them: "full" when it shows how many
        went (a NaN count, a count of the frame before the drop, or output text saying so),
        "after" when its only counts are of the rows that remain (`len(kept)`, a test's
        degrees of freedom `len(a) + len(b) - 2`), None when it shows no count at all. A
        share over a threshold (`(x <= 31).mean()`) counts nothing."""
        related = {n for n in (drop.source, drop.target) if n and n != "<return>"}
        related |= self.downstream(set(related), 0)
        masks, labels = self.missing_masks(), self.missing_labels()
        after: set[str] = set()
        if drop.target and drop.target != "<return>":
            after = self.downstream({drop.target}, drop.line)
            if not drop.in_place:
                after = after - {drop.source}
        found = None
        for names, node in self.reported_count_nodes():
            if related and not names & related:
                continue
            if _counts_nan(node, masks, labels):
                return "full"
            if _threshold_share(node, masks):
                continue
            line = getattr(node, "lineno", 0)
            if after and names & related <= after and line > drop.line:
                found = "after"
                continue
            return "full"
        return "full" if _text_reports(self.ev) else found

    def reported(self, drop: _Drop) -> bool:
        if drop.kind == "merge":
            return self._merge_checked(drop)
        related = {n for n in (drop.source, drop.target) if n and n != "<return>"}
        related |= self.downstream(set(related), 0)
        for names in self.reported_counts(nan_aware=drop.kind == "coerce"):
            if not related or names & related:
                return True
        return _text_reports(self.ev)

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
        return _text_reports(self.ev)

    def missing_masks(self) -> set[str]:
        """Names bound to a missing-value mask (`unparsed = df.ts.isna()`, `ok =
        np.isfinite(x)`): their sum, share, `any()` or `all()` counts NaN."""
        out: set[str] = set()
        grew = True
        while grew:
            grew = False
            for name, assigns in self.name_assigns.items():
                if name not in out and assigns and all(
                        _is_missing_mask(a.value, out) for a in assigns):
                    out.add(name)
                    grew = True
        return out

    def missing_labels(self) -> set[str]:
        """Columns that label rows by whether a value is missing: `df["outcome"] =
        np.where(df.dur.notna(), "completed", df.raw)`, `df["parsed"] = df.x.notna()`. A
        count over such a column (`pd.crosstab(df.pool, df.outcome)`, `df.groupby("outcome")
        .size()`) shows how many values are NaN, per group when it is crossed with one."""
        if self._labels is not None:
            return self._labels
        masks = self.missing_masks()
        out: set[str] = set()
        for st in self.walk.of(ast.Assign):
            if len(st.targets) != 1 or not isinstance(st.targets[0], ast.Subscript | ast.Attribute):
                continue
            col = _column_of(st.targets[0])
            if col and any((isinstance(x, ast.Call) and _call_last(x) in _MISSING_CALLS) or (
                    isinstance(x, ast.Name) and x.id in masks) for x in _walk(st.value)):
                out.add(col)
        self._labels = out
        return out

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


def _is_missing_mask(node: ast.AST, masks: AbstractSet[str]) -> bool:
    """`df.x.isna()`, `~np.isfinite(x)`, `a.isna() | b.isna()`, or a mask name combined."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not | ast.Invert):
        return _is_missing_mask(node.operand, masks)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr | ast.BitAnd):
        return _is_missing_mask(node.left, masks) or _is_missing_mask(node.right, masks)
    if isinstance(node, ast.Name):
        return node.id in masks
    return isinstance(node, ast.Call) and _call_last(node) in _MISSING_CALLS


def _is_count_node(sub: ast.AST, masks: AbstractSet[str] = frozenset()) -> bool:
    if isinstance(sub, ast.Call):
        last = _call_last(sub)
        if last == "len" or last in _COUNT_METHODS:
            return True
        if last == "crosstab":  # a table of counts, unless it aggregates values
            return not any(k.arg in ("values", "aggfunc") for k in sub.keywords)
        if last in ("sum", "mean") and isinstance(sub.func, ast.Attribute):
            return any(isinstance(x, ast.Compare | ast.UnaryOp) or (
                isinstance(x, ast.Call) and _call_last(x) in _MISSING_CALLS) or (
                isinstance(x, ast.Name) and x.id in masks)
                for x in _walk(sub.func.value))
        if last in ("any", "all") and isinstance(sub.func, ast.Attribute):
            # `assert not s.isna().any()`, `assert mask.all()`: a check that none is missing
            return _is_missing_mask(sub.func.value, masks)
        if last in ("sum", "any", "all", "count_nonzero") and sub.args and \
                isinstance(sub.func, ast.Attribute | ast.Name):
            return _is_missing_mask(sub.args[0], masks)  # np.sum(np.isnan(x)), any(mask)
        return False
    return isinstance(sub, ast.Attribute) and sub.attr in ("shape", "size", "nobs")


def _threshold_share(node: ast.AST, masks: AbstractSet[str] = frozenset()) -> bool:
    """`(x <= 31).mean()`: the share of the values left that meet a limit, not a count of
    rows (a mean of a missing-value mask is a count of NaN)."""
    if not (isinstance(node, ast.Call) and _call_last(node) == "mean" and isinstance(
            node.func, ast.Attribute)):
        return False
    inside = list(_walk(node.func.value))
    return any(isinstance(x, ast.Compare) for x in inside) and not any(
        (isinstance(x, ast.Call) and _call_last(x) in _MISSING_CALLS) or (
            isinstance(x, ast.Name) and x.id in masks) for x in inside)


def _counts_nan(node: ast.AST, masks: AbstractSet[str] = frozenset(),
                labels: AbstractSet[str] = frozenset()) -> bool:
    """A count that can show how many values are NaN: `isna().sum()`, `notna().mean()`,
    `count()`, `info()`, `len(x.dropna())`, the sum or `any()` of a name bound to such a
    mask (`unparsed.sum()`, `assert not unparsed.any()`), a count over a column labelling
    the missing rows (`pd.crosstab(df.pool, df.outcome)`, `labels`); not a share over a
    threshold of the values left (`(x.dropna() > limit).mean()`)."""
    last = _call_last(node) if isinstance(node, ast.Call) else None
    if last in ("count", "info", "value_counts"):
        return True
    if labels and any(_column_of(x) in labels or (isinstance(x, ast.Constant) and isinstance(
            x.value, str) and x.value in labels) for x in _walk(node)):
        return True  # `pd.crosstab(df.site, df.outcome)`, `df.groupby(["site", "parsed"]).size()`
    inner = {_call_last(x) for x in _walk(node) if isinstance(x, ast.Call)}
    if last in ("sum", "mean", "any", "all", "count_nonzero"):
        return bool(inner & _MISSING_CALLS) or any(
            isinstance(x, ast.Name) and x.id in masks for x in _walk(node))
    return bool(inner & (_MISSING_CALLS | {"dropna", "count"}))


# pandas' own shape footers ("[4 rows x 6 columns]", "Length: 212, dtype: ..."): the display
# of a result, not a line saying how many rows went
_SHAPE_FOOTER = re.compile(r"^\s*\[\d[\d,]* rows x \d[\d,]* columns\]\s*$|"
                           r"^\s*(?:Name: .*, )?Length: \d+, dtype: \w+\s*$")


_TABLE_NAN = re.compile(r"(?<=\s)NaN(?=\s{2,}|\s*$)")


def _text_reports(ev: Evidence) -> bool:
    """The cell's output says how many rows went: a line with a count and a word for it
    (dropped, missing, kept, rows…), not a table's shape footer, nor a line an f-string of
    the cell prints whose every value is a statistic of the rows left (a word like "failure"
    in a label, "failure of passive transfer (IgG < 10 g/L): 11.2 %")."""
    templates: list[tuple[re.Pattern[str], bool]] | None = None
    for line in ev.text[:30_000].splitlines()[:500]:
        if _SHAPE_FOOTER.match(line):
            continue
        if "NaN" in line:  # a table's empty cell (`NaN` then a column gap) reports nothing
            line = _TABLE_NAN.sub(" ", line)
        if _REPORT_TEXT.search(line) and _INT_RE.search(line):
            if templates is None:
                templates = _fstring_lines(ev, _ctx(ev).name_assigns)
            if any(stats_only and pat.fullmatch(line.strip()) for pat, stats_only in templates):
                continue
            return True
    return False


def _fstring_lines(ev: Evidence, assigns: dict[str, list[ast.Assign]]) -> list[
        tuple[re.Pattern[str], bool]]:
    """(pattern of an output line, whether its every value is a statistic) for each line of
    each f-string in the cell: the literal text, with `.*?` where a value goes."""
    out: list[tuple[re.Pattern[str], bool]] = []
    if ev.tree is None:
        return out
    for js in nodes_of(ev.tree, ast.JoinedStr):
        lines: list[tuple[list[str], list[ast.AST]]] = [([], [])]
        for part in js.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                pieces = part.value.split("\n")
                lines[-1][0].append(re.escape(pieces[0]))
                for more in pieces[1:]:
                    lines.append(([re.escape(more)], []))
            elif isinstance(part, ast.FormattedValue):
                lines[-1][0].append(".*?")
                lines[-1][1].append(part.value)
        for text, values in lines:
            pattern = "".join(text).strip()
            if values and pattern.replace(".*?", "").strip():
                out.append((re.compile(pattern), all(_statistic(v, assigns) for v in values)))
    return out


def _statistic(node: ast.AST, assigns: dict[str, list[ast.Assign]], depth: int = 0) -> bool:
    """A value computed from the rows left that is not a count of them: a mean, median,
    share over a threshold (`100 * (x < 10).mean()`) or a test's p-value, with no count
    inside; a name the cell binds only to such values (`p = stats.mannwhitneyu(a, b)
    .pvalue`)."""
    if isinstance(node, ast.Name):
        bound = assigns.get(node.id, [])
        return depth < 2 and bool(bound) and all(
            _statistic(a.value, assigns, depth + 1) for a in bound)
    inside = list(_walk(node))
    if any(_is_count_node(x) for x in inside if not _threshold_share(x)):
        return False
    return any(isinstance(x, ast.Call) and (_threshold_share(x) or _call_last(x) in (
        SUMMARY_METHODS - {"sum"}) or _call_last(x) in STAT_TESTS) for x in inside)


def _shown_earlier(ev: Evidence, drop: _Drop) -> bool:
    """The notebook showed the source's missing values or status counts in an earlier cell."""
    if not drop.source or not ev.prior_code or drop.source not in ev.prior_code:
        return False
    pattern = re.compile(re.escape(drop.source) + r"\b[^\n]*\.(?:isna|isnull|info|value_counts|"
                         r"notna|describe)\(")
    return bool(pattern.search(ev.prior_code))


# -- one context per Evidence, shared by the rules ---------------------------------------------


_CACHE: list[tuple[weakref.ref, _Ctx]] = []


def _ctx(ev: Evidence) -> _Ctx:
    for ref, ctx in _CACHE:
        if ref() is ev:
            return ctx
    ctx = _Ctx(ev)
    _CACHE[:] = [(weakref.ref(ev), ctx)]
    return ctx
