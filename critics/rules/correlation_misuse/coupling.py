"""Correlations built in by the arithmetic (mathematical coupling).

- `shared_denominator`: a correlation between two ratios that share a denominator.
- `part_whole`: a component correlated with a total that contains it.
- `baseline_vs_change`: a baseline correlated with (or regressed on) the change from it,
  which regression to the mean makes negative.
"""

from __future__ import annotations

import ast
import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass

from ...ast_cache import walk as _walk
from ...code_model import CallSite, CodeModel, called_name, root_name
from ...evidence import Evidence
from ...findings import Finding
from ...rule import rule
from .. import _columns
from ._scan import _FORMULA_MODELS, _matrix_columns, _number, _sites, _src, _str

# -- ratios that share a denominator --------------------------------------------------------------

_PASS_THROUGH = {"round", "astype", "to_numpy", "fillna", "abs", "copy", "clip"}


def _key_of(node: ast.AST) -> str | None:
    """A comparable key for a column or variable: `df.pop`, `df["pop"]`, `pop` -> "pop"."""
    while (isinstance(node, ast.Attribute) and node.attr in ("values", "array")) or (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in _PASS_THROUGH):
        node = node.value if isinstance(node, ast.Attribute) else node.func.value  # type: ignore[union-attr]
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript):
        col = _str(node.slice)
        if col is not None:
            return col
    if isinstance(node, ast.Name):
        return node.id
    return None


def _ratio_parts(node: ast.AST) -> tuple[str, str] | None:
    """(numerator key, denominator key) of `a / b`, `1e5 * a / b`, `a / b * 100`,
    `(a / b).round(2)`, `a.div(b)`, `np.divide(a, b)`; None for anything else or a
    constant denominator."""
    for _ in range(6):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            if _number(node.left) is not None:
                node = node.right
                continue
            if _number(node.right) is not None:
                node = node.left
                continue
            return None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in _PASS_THROUGH:
            node = node.func.value
            continue
        break
    num = den = None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        num, den = node.left, node.right
        while isinstance(num, ast.BinOp) and isinstance(num.op, ast.Mult) and (
                _number(num.left) is not None or _number(num.right) is not None):
            num = num.right if _number(num.left) is not None else num.left
    elif isinstance(node, ast.Call) and called_name(node) in ("div", "truediv", "divide"):
        if isinstance(node.func, ast.Attribute) and called_name(node) != "divide" and node.args:
            num, den = node.func.value, node.args[0]
        elif len(node.args) == 2:
            num, den = node.args
    if num is None or den is None or _number(den) is not None:
        return None
    nk, dk = _key_of(num), _key_of(den)
    if nk is None or dk is None or nk == dk:
        return None
    return nk, dk


def _ratio_defs(m: CodeModel) -> dict[str, tuple[str, str, int]]:
    """Names and columns defined as a ratio (this cell and earlier ones):
    key -> (numerator, denominator, line in this cell or 0)."""
    out: dict[str, tuple[str, str, int]] = {}
    for tree, here in ((m._prior_tree, False), (m.tree, True)):
        for node in _walk(tree):
            pairs: list[tuple[ast.AST, ast.AST, int]] = []
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    elts = t.elts if isinstance(t, ast.Tuple | ast.List) else [t]
                    vals = node.value.elts if isinstance(node.value, ast.Tuple) and isinstance(
                        t, ast.Tuple | ast.List) and len(node.value.elts) == len(elts) else None
                    for i, e in enumerate(elts):
                        pairs.append((e, vals[i] if vals else node.value, node.lineno))
            elif isinstance(node, ast.Call):
                for kw in node.keywords:
                    if kw.arg:
                        pairs.append((ast.Name(id=kw.arg), kw.value, kw.value.lineno))
            for target, value, line in pairs:
                key = _key_of(target)
                parts = _ratio_parts(value) if key else None
                if key and parts:
                    out[key] = (*parts, line if here else 0)
    return out


@rule("correlation_misuse.shared_denominator",
      title="Correlation between two ratios that share a denominator")
def shared_denominator(ev: Evidence) -> Iterator[Finding]:
    """Correlating x/z with y/z (two per-capita rates, two shares of the same total) builds a
    correlation in through the common, noisy denominator: even unrelated counts x and y give a
    clear r once both are divided by the same varying z (Pearson's spurious correlation of
    ratios). Found for scipy/numpy/pandas correlations and simple regressions whose two
    variables are ratios with the same denominator, written inline or defined as names or
    columns. Medium (0.5): per-capita comparisons can be what is meant, but the correlation
    then needs the denominator controlled (a partial correlation, a count model with an
    offset)."""
    if ev.tree is None or ("/" not in ev.code + ev.prior_code and "div" not in ev.code):
        return
    sites = _sites(ev)
    if not sites:
        return
    m = ev.model
    defs: dict[str, tuple[str, str, int]] | None = None
    for call, what, exprs, matrix in sites:
        if defs is None:
            defs = _ratio_defs(m)
        variables: list[tuple[str, tuple[str, str, int]]] = []
        if matrix and what != "np.corrcoef":
            if what != "DataFrame.corr":
                continue
            _frame, cols = _matrix_columns(ev, exprs[0])
            variables = [(c, defs[c]) for c in cols if c in defs]
        else:
            if what == "sm.OLS":
                continue
            if what == "smf.ols":  # "rate_a ~ rate_b": both sides of the formula
                formula = _str(call.arg(0, "formula")) or ""
                exprs = []
                for ident in re.findall(r"[A-Za-z_]\w*", formula):
                    if ident in defs and all(v[0] != ident for v in variables):
                        variables.append((ident, defs[ident]))
            for e in exprs:
                inline = _ratio_parts(e)
                key = _key_of(e)
                if inline is not None:
                    variables.append((_src(ev, e), (*inline, call.line)))
                elif key is not None and key in defs:
                    variables.append((key, defs[key]))
        found = None
        for i, (a, (an, ad, al)) in enumerate(variables):
            for b, (bn, bd, bl) in variables[i + 1:]:
                if ad == bd and an != bn:
                    found = (a, b, ad, [x for x in (al, bl) if x])
                    break
            if found:
                break
        if found is None:
            continue
        a, b, den, lines = found
        yield Finding(
            explanation=(f"`{what}` (line {call.line}) correlates `{a}` with `{b}`, and both "
                         f"are ratios over the same denominator `{den}`. Dividing two "
                         f"unrelated quantities by a shared, varying `{den}` makes them "
                         "correlated by itself (Pearson's spurious correlation of ratios): "
                         "part or all of this correlation comes from the common denominator, "
                         "not from a link between the numerators."),
            severity="medium", confidence=0.5,
            evidence={"lines": sorted({call.line, *lines}),
                      "values": {"variables": [a, b], "denominator": den}},
            suggestion=(f"Control for `{den}` instead of dividing both sides by it: a partial "
                        f"correlation of the counts given `{den}` (correlate the residuals of "
                        f"each count regressed on log `{den}`), or a count model with "
                        f"`offset=np.log({den})`; at least show that the correlation survives "
                        f"when `{den}` is held roughly fixed (within strata)."))
        return


# -- a part correlated with a whole that contains it -------------------------------------------

_ROW_TOTALS = {"sum", "mean", "nansum", "nanmean", "average"}


@dataclass
class _Total:
    key: str  # the total's name or column
    frame: str | None  # the frame it is a column of (None for a plain variable)
    source: str | None  # the frame/matrix whose columns were summed (None: named terms)
    parts: list[str] | None  # the summed columns (None: every column of `source`)
    line: int  # line in this cell (0: an earlier cell)


def _row_total_parts(ev: Evidence, value: ast.AST) -> tuple[str | None, list[str] | None] | None:
    """(source, parts) when `value` adds up (or averages) several columns row by row:
    `df[cols].sum(axis=1)`, `np.sum(M, axis=1)`, `M.mean(1)`, `df.a + df.b + df.c`."""
    if isinstance(value, ast.Call) and called_name(value) in ("round", "astype") and \
            isinstance(value.func, ast.Attribute):
        value = value.func.value
    if isinstance(value, ast.Call) and called_name(value) in _ROW_TOTALS:
        f = value.func
        module = isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and \
            f.value.id in ("np", "numpy")
        if isinstance(f, ast.Attribute) and not module:
            data = f.value
            axis = next((k.value for k in value.keywords if k.arg == "axis"),
                        value.args[0] if value.args else None)
        elif value.args:
            data = value.args[0]
            axis = next((k.value for k in value.keywords if k.arg == "axis"),
                        value.args[1] if len(value.args) > 1 else None)
        else:
            return None
        if not (isinstance(axis, ast.Constant) and axis.value in (1, "columns")):
            return None
        if isinstance(data, ast.Subscript):
            base, sl = data.value, data.slice
            if isinstance(base, ast.Attribute) and base.attr in ("loc", "iloc"):
                if base.attr == "iloc" or not (isinstance(sl, ast.Tuple) and len(sl.elts) == 2):
                    return None
                base, sl = base.value, sl.elts[1]
            cols = _columns.columns(ev, sl)
            if cols is None or len(cols[1]) < 2 or not isinstance(base, ast.Name):
                return None
            return base.id, cols[1]
        if isinstance(data, ast.Name):
            return data.id, None
        return None
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
        terms: list[ast.AST] = []
        stack: list[ast.AST] = [value]
        while stack:
            n = stack.pop()
            if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add):
                stack += [n.right, n.left]
            else:
                terms.append(n)
        keys = [_key_of(t) for t in terms]
        frames = {root_name(t) for t in terms if isinstance(t, ast.Attribute | ast.Subscript)}
        if len(terms) < 2 or None in keys or len(set(keys)) < len(keys) or len(frames) > 1:
            return None
        return (next(iter(frames)) if frames else None), [k for k in keys if k]
    return None


def _totals(ev: Evidence) -> dict[str, _Total]:
    m = ev.model
    out: dict[str, _Total] = {}
    for tree, here in ((m._prior_tree, False), (m.tree, True)):
        owner = _assign_owners(tree)
        for node in _walk(tree):
            pairs: list[tuple[ast.AST, ast.AST]] = []
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                pairs.append((node.targets[0], node.value))
            elif isinstance(node, ast.Call) and called_name(node) == "assign":
                frame = owner.get(id(node)) or (root_name(node.func) if isinstance(
                    node.func, ast.Attribute) else None)
                pairs += [(ast.Subscript(value=ast.Name(id=frame), slice=ast.Constant(k.arg))
                           if frame else ast.Name(id=k.arg), k.value)
                          for k in node.keywords if k.arg]
            for target, value in pairs:
                key = _key_of(target) if isinstance(target, ast.Name | ast.Subscript |
                                                    ast.Attribute) else None
                if key is None:
                    continue
                found = _row_total_parts(ev, value)
                if found is None:
                    continue
                source, parts = found
                frame = root_name(target) if not isinstance(target, ast.Name) else None
                out[key] = _Total(key, frame, source, parts,
                                  getattr(value, "lineno", 0) if here else 0)
    return out


def _assign_owners(tree: ast.AST) -> dict[int, str]:
    """`df2 = df.assign(total=...).query(...)`: the frame (`df2`) each `.assign` call's new
    columns end up in."""
    out: dict[int, str] = {}
    for node in _walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
                node.targets[0], ast.Name):
            n = node.value
            while isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
                if n.func.attr == "assign":
                    out[id(n)] = node.targets[0].id
                n = n.func.value
    return out


def _component(ev: Evidence, call: CallSite, node: ast.AST, total: _Total) -> list[str]:
    """The parts of `total` that `node` stands for: `df["essay"]`, `M[:, j]`, `df[s]` for a
    loop over parts, `df[parts]` (several)."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in _PASS_THROUGH:
        node = node.func.value
    if isinstance(node, ast.Attribute) and node.attr in ("values", "array"):
        node = node.value
    if not isinstance(node, ast.Subscript | ast.Attribute):
        return []
    root = root_name(node)
    if total.parts is None:  # every column of a matrix / frame: M[:, j], df.iloc[:, j]
        base = node.value if isinstance(node, ast.Subscript) else None
        if isinstance(base, ast.Attribute) and base.attr == "iloc":
            base = base.value
        if isinstance(base, ast.Name) and base.id == total.source:
            return [ast.unparse(node)]
        return []
    if total.source is not None and root != total.source and not (
            total.frame is not None and root == total.frame):
        return []
    key = _key_of(node)
    if key is not None and key in total.parts:
        return [key]
    if isinstance(node, ast.Subscript):
        sl = node.slice
        if isinstance(sl, ast.Name):
            it = _columns.enclosing_loop_iter(ev, call.node, sl.id)
            cols = _columns.columns(ev, it) if it is not None else None
            if cols is not None:
                return [c for c in cols[1] if c in total.parts]
        cols = _columns.columns(ev, sl) if not isinstance(sl, ast.Constant) else None
        if cols is not None:
            return [c for c in cols[1] if c in total.parts]
    return []


def _is_total(node: ast.AST, total: _Total) -> bool:
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in _PASS_THROUGH:
        node = node.func.value
    if isinstance(node, ast.Attribute) and node.attr in ("values", "array"):
        node = node.value
    if _key_of(node) != total.key:
        return False
    if total.frame is None:
        return isinstance(node, ast.Name)
    return root_name(node) == total.frame


@rule("correlation_misuse.part_whole",
      title="A component correlated with a total that contains it")
def part_whole(ev: Evidence) -> Iterator[Finding]:
    """Correlating each part of a sum with the sum itself (an exam section with the total
    mark, a spending category with total spending, an item with its scale score): the part
    is on both sides, so r is inflated by construction, and most for the parts with the
    largest variance, whatever their real relation to the others. Found for scipy/numpy/
    pandas correlations whose one side is a row total (`df[cols].sum(axis=1)`, `a + b + c`,
    `M.sum(axis=1)`, a mean of columns) and whose other side is one of its columns, including
    loops over the parts and `df[parts].corrwith(df.total)`. High (0.7) for a total of at most
    ten parts, medium (0.5) for more (the inflation shrinks). Quiet for part-rest
    correlations (`total - part`)."""
    if ev.tree is None or not any(k in ev.code + ev.prior_code for k in
                                  ("sum", "mean", "average", "+")):
        return
    sites = _sites(ev)
    if not sites:
        return
    totals = _totals(ev)
    if not totals:
        return
    for call, what, exprs, matrix in sites:
        pairs: list[tuple[ast.AST, ast.AST]] = []
        if what == "DataFrame.corrwith":
            other = call.arg(0, "other")
            if other is not None:
                pairs.append((exprs[0], other))
        elif not matrix and len(exprs) == 2:
            pairs += [(exprs[0], exprs[1]), (exprs[1], exprs[0])]
        hit = None
        for part, whole in pairs:
            for total in totals.values():
                if not _is_total(whole, total):
                    continue
                parts = _component(ev, call, part, total)
                if parts:
                    hit = (total, parts, part, whole)
                    break
            if hit:
                break
        if hit is None:
            continue
        total, parts, part, whole = hit
        n_parts = len(total.parts) if total.parts is not None else None
        if total.parts is None:
            f = ev.objects.get(total.source or "")
            n_parts = f.shape[1] if f is not None and f.shape and len(f.shape) == 2 else None
        few = n_parts is not None and n_parts <= 10
        severity, confidence = ("high", 0.7) if few else ("medium", 0.5)
        shown = ", ".join(f"`{p}`" for p in parts[:4]) + (" …" if len(parts) > 4 else "")
        where = f"line {total.line}" if total.line else "an earlier cell"
        of = (f"the {n_parts} columns {', '.join(total.parts[:6])}"
              + (" …" if len(total.parts) > 6 else "") if total.parts is not None else
              f"every column of `{total.source}`")
        yield Finding(
            explanation=(f"`{what}` (line {call.line}) correlates {shown} with "
                         f"`{ev.source_of(whole)}`, a total of {of} ({where}) that contains "
                         f"{'it' if len(parts) == 1 else 'them'}. The part is on both sides of "
                         "the correlation, so r is inflated by construction - most for the "
                         "parts with the largest variance - and says little about how well "
                         "the part tracks the rest (a part-whole correlation)."),
            severity=severity, confidence=confidence,
            evidence={"lines": sorted({call.line, *([total.line] if total.line else [])}),
                      "values": {"total": total.key, "parts": parts[:8],
                                 "n_parts": n_parts}},
            suggestion=("Correlate each part with the total of the other parts (the corrected "
                        "item-rest correlation: `pearsonr(df[c], df[parts].sum(axis=1) - "
                        "df[c])`), or compare parts with an external criterion rather than "
                        "with a sum they belong to."))
        return


# -- a baseline correlated with the change from it (regression to the mean) ----------------------

_DIFF_WRAPPERS = {"round", "astype", "to_numpy", "copy"}


def _strip_wrappers(node: ast.AST) -> ast.AST:
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in _DIFF_WRAPPERS:
        node = node.func.value
    if isinstance(node, ast.Attribute) and node.attr in ("values", "array"):
        node = node.value
    return node


class _Substitute(ast.NodeTransformer):
    def __init__(self, given: dict[str, ast.expr]):
        self.given = given

    def visit_Name(self, n: ast.Name) -> ast.AST:
        return self.given.get(n.id, n)


def _inline_helper(ev: Evidence, node: ast.AST) -> ast.AST:
    """`change(df.pre, df.post)` with `def change(a, b): return b - a`: the returned
    expression with the call's arguments in place of the parameters."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        return node
    for tree in (ev.model.tree, ev.model._prior_tree):
        for fn in _walk(tree):
            if isinstance(fn, ast.FunctionDef) and fn.name == node.func.id:
                rets = [s for s in fn.body if isinstance(s, ast.Return)]
                if len(rets) != 1 or rets[0].value is None:
                    return node
                params = [a.arg for a in fn.args.args]
                given = dict(zip(params, node.args, strict=False))
                given.update({k.arg: k.value for k in node.keywords if k.arg})

                return _Substitute(given).visit(copy.deepcopy(rets[0].value))
    return node


def _difference(node: ast.AST) -> tuple[str, ast.AST, ast.AST] | None:
    """("-"|"/", left, right) for `b - a`, `b.sub(a)`, `np.subtract(b, a)`, `b / a`,
    `(b - a) / k`, `100 * (b - a)`: a change score or a ratio of two variables."""
    node = _strip_wrappers(node)
    for _ in range(4):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult | ast.Div) and \
                _number(node.right) is not None:
            node = _strip_wrappers(node.left)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) and \
                _number(node.left) is not None:
            node = _strip_wrappers(node.right)
        else:
            break
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub | ast.Div):
        if _number(node.left) is not None or _number(node.right) is not None:
            return None
        return ("-" if isinstance(node.op, ast.Sub) else "/"), node.left, node.right
    if isinstance(node, ast.Call):
        name = called_name(node)
        if name in ("sub", "subtract", "div", "divide", "truediv"):
            op = "-" if name in ("sub", "subtract") else "/"
            if isinstance(node.func, ast.Attribute) and name not in ("subtract", "divide") \
                    and node.args:
                return op, node.func.value, node.args[0]
            if len(node.args) == 2:
                return op, node.args[0], node.args[1]
    return None


def _defined_differences(ev: Evidence) -> dict[str, tuple[str, ast.AST, ast.AST, int]]:
    """Names and columns assigned a difference or a ratio: `df["gain"] = df.post - df.pre`,
    `gain = post - pre`, `df.assign(gain=lambda d: d.post - d.pre)`."""
    m = ev.model
    out: dict[str, tuple[str, ast.AST, ast.AST, int]] = {}
    for tree, here in ((m._prior_tree, False), (m.tree, True)):
        for node in _walk(tree):
            pairs: list[tuple[str | None, ast.AST]] = []
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
                    node.targets[0], ast.Name | ast.Subscript | ast.Attribute):
                pairs.append((_key_of(node.targets[0]), node.value))
            elif isinstance(node, ast.Call) and called_name(node) == "assign":
                for k in node.keywords:
                    v = k.value.body if isinstance(k.value, ast.Lambda) else k.value
                    pairs.append((k.arg, v))
            for key, value in pairs:
                d = _difference(_inline_helper(ev, value)) if key else None
                if key and d:
                    out[key] = (*d, getattr(node, "lineno", 0) if here else 0)
    return out


def _same_var(a: ast.AST, b: ast.AST) -> bool:
    ka, kb = _key_of(_strip_wrappers(a)), _key_of(_strip_wrappers(b))
    if ka is None or ka != kb:
        return False
    ra, rb = root_name(a), root_name(b)
    # `d.pre` inside an assign lambda and `df.pre` outside: same column, other frame name
    return ra == rb or isinstance(a, ast.Attribute | ast.Subscript) == isinstance(
        b, ast.Attribute | ast.Subscript)


def _formula_sides(c: CallSite) -> tuple[str, str] | None:
    """(response, regressor) of a one-regressor statsmodels formula `gain ~ pre`."""
    if c.last not in _FORMULA_MODELS or not (c.name or "").startswith("statsmodels"):
        return None
    formula = _str(c.arg(0, "formula"))
    if formula is None or "~" not in formula:
        return None
    lhs, rhs = formula.split("~", 1)
    terms = [t.strip() for t in rhs.split("+") if t.strip() not in ("1", "0", "-1", "")]
    if len(terms) != 1:
        return None
    return lhs.strip(), terms[0]


# a model's fitted values / predictions and what is left of y after them: residuals against
# fitted values is a diagnostic (is there structure left?), not a baseline-vs-change claim
_MODEL_OUTPUT = re.compile(r"(?i)fitted|pred|yhat|y_hat|forecast|resid|estimate")


@rule("correlation_misuse.baseline_vs_change",
      title="A baseline correlated with the change from it")
def baseline_vs_change(ev: Evidence) -> Iterator[Finding]:
    """Correlating (or regressing) a baseline x with a change that contains it (`post - x`,
    or a ratio `post / x`): x's measurement error enters the change with the opposite sign,
    so r is negative by construction even when every unit changed alike (regression to the
    mean; Oldham 1962). Found for scipy/numpy/pandas correlations, linregress / polyfit and
    one-regressor statsmodels formulas, with the change written inline, as a helper's return
    value, or stored in a name / column. High (0.7) for a difference: a negative r is then
    no evidence that low starters gain more. Medium (0.5) for a ratio. Quiet for the change
    against the mean of both measurements (Oldham's method) or against an outside variable."""
    if ev.tree is None or not re.search(r"-|/|sub|div", ev.code + ev.prior_code):
        return
    sites = [(c, what, exprs) for c, what, exprs, matrix in _sites(ev)
             if not matrix and len(exprs) == 2]
    formulas = [(c, sides) for c in ev.model.calls
                if (sides := _formula_sides(c)) is not None]
    if not sites and not formulas:
        return
    diffs = _defined_differences(ev)
    hits: list[tuple[CallSite, str, str, str, str, int]] = []
    for c, what, exprs in sites:
        for base, other in ((exprs[0], exprs[1]), (exprs[1], exprs[0])):
            other_s = _strip_wrappers(other)
            d = _difference(_inline_helper(ev, other_s))
            line = c.line
            if d is None:
                key = _key_of(other_s)
                if key in diffs:
                    op, left, right, line = diffs[key]
                    d = (op, left, right)
            if d is None:
                continue
            op, left, right = d
            if _same_var(base, right) or (op == "/" and _same_var(base, left)):
                hits.append((c, what, ev.source_of(base), ev.source_of(other),
                             f"{ast.unparse(left)} {op} {ast.unparse(right)}", line or 0))
                break
    for c, (lhs, rhs) in formulas:
        m = re.fullmatch(r"I\((.*)\)", lhs.replace(" ", ""))
        expr = m.group(1) if m else None
        if expr is None and lhs in diffs:
            op, left, right, _ = diffs[lhs]
            expr = f"{_key_of(left)}{op}{_key_of(right)}"
        if expr is None:
            continue
        mt = re.fullmatch(r"([A-Za-z_]\w*)([-/])([A-Za-z_]\w*)", expr.replace(" ", ""))
        if mt and (mt.group(3) == rhs or (mt.group(2) == "/" and mt.group(1) == rhs)):
            hits.append((c, f"{c.last}", rhs, lhs,
                         f"{mt.group(1)} {mt.group(2)} {mt.group(3)}", 0))
    hits = [h for h in hits if not (_MODEL_OUTPUT.search(h[2]) or _MODEL_OUTPUT.search(h[3]))]
    for c, what, base, change, expr, def_line in hits[:1]:
        ratio = " / " in expr
        severity, confidence = ("medium", 0.5) if ratio else ("high", 0.7)
        kind = "a ratio" if ratio else "a change score"
        yield Finding(
            explanation=(f"`{what}` (line {c.line}) relates `{base}` to `{change}`, which is "
                         f"{kind} that contains it (`{expr}`). The baseline's measurement "
                         "error and day-to-day noise enter both sides with opposite signs, so "
                         "the correlation/slope is negative by construction even when every "
                         "unit changed by the same amount (regression to the mean): a negative "
                         "r does not show that low starters gain more."),
            severity=severity, confidence=confidence,
            evidence={"lines": sorted({c.line, *([def_line] if def_line else [])}),
                      "values": {"baseline": base, "change": change, "definition": expr}},
            suggestion=("Relate the change to the mean of the two measurements (Oldham's "
                        "method), regress the follow-up on the baseline (ANCOVA: `post ~ pre "
                        "+ group`), or compare against the negative r expected from the "
                        "baseline's test-retest reliability."))
