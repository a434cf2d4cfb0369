"""Shared reading of a cell's code for the correlation_misuse rules.

The source text and the string / number literals of nodes, the variable (a frame column or a
plain name) an expression names, the correlation and simple-fit call sites with the two
samples each compares (`_sites`), the columns of a correlation matrix, the text a cell writes
for people, the statsmodels formula models, and the resolved correlation / slope calls whose
two samples the kernel reads (`_POOLED_NAMES`, `_stat_call`).
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass

from ...ast_cache import walk as _walk
from ...code_model import CallSite, CodeModel, called_name, root_name
from ...evidence import Evidence
from .. import _columns


def _src(ev: Evidence, node: ast.AST) -> str:
    return ev.source_of(node)


@dataclass
class _Var:
    label: str
    frame: str | None
    column: str | None
    name: str | None  # a plain variable


def _str(node: ast.AST | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _number(node: ast.AST) -> float | None:
    """A literal number; `np.inf`, `float("inf")` and `-np.inf` are infinite."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _number(node.operand)
        return -inner if inner is not None else None
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(
            node.value, bool):
        return float(node.value)
    if isinstance(node, ast.Attribute) and node.attr in ("inf", "Inf", "infty"):
        return math.inf
    if isinstance(node, ast.Call) and called_name(node) == "float" and node.args and _str(
            node.args[0]) in ("inf", "-inf", "Infinity"):
        return float(_str(node.args[0]) or "inf")
    return None


def _var_of(m: CodeModel, node: ast.AST) -> _Var:
    """`df["edu"]`, `df.edu`, `df["edu"].values`, `codes` -> frame/column/name."""
    label = _src(m.evidence, node)
    while True:
        if isinstance(node, ast.Attribute) and node.attr in ("values", "array"):
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in ("to_numpy", "astype", "dropna", "ravel", "tolist",
                                   "fillna", "copy"):
            node = node.func.value
        else:
            break
    if isinstance(node, ast.Subscript):
        base = node.value
        col = _str(node.slice)
        if isinstance(base, ast.Attribute) and base.attr == "loc" and isinstance(
                node.slice, ast.Tuple) and len(node.slice.elts) == 2:
            col = _str(node.slice.elts[1])
            base = base.value
        if col is not None:
            return _Var(label, root_name(base), col, None)
    if isinstance(node, ast.Attribute):
        return _Var(label, root_name(node.value), node.attr, None)
    if isinstance(node, ast.Name):
        return _Var(label, None, None, node.id)
    return _Var(label, root_name(node), None, None)


def _sites(ev: Evidence) -> list[tuple[CallSite, str, list[ast.AST], bool]]:
    """(call, what, variable expressions, is a matrix) for each correlation on variables."""
    m = ev.model
    out: list[tuple[CallSite, str, list[ast.AST], bool]] = []
    for c in m.calls:
        last = c.last
        if last in ("pearsonr", "spearmanr", "kendalltau") and (
                (c.name or "").startswith("scipy") or c.name == last or "." not in (c.name or "")):
            args = [a for a in (c.arg(0, "x"), c.arg(1, "y")) if a is not None]
            out.append((c, last, args, False))
        elif last == "linregress" and (
                (c.name or "").startswith("scipy") or c.name == last or "." not in (c.name or "")):
            args = [a for a in (c.arg(0, "x"), c.arg(1, "y")) if a is not None]
            out.append((c, "linregress", args, False))
        elif last == "polyfit" and (c.name or "").startswith("numpy") and \
                _const(c.arg(2, "deg")) == 1:
            args = [a for a in (c.arg(0, "x"), c.arg(1, "y")) if a is not None]
            out.append((c, "np.polyfit", args, False))
        elif last in ("ols", "OLS") and (c.name or "").startswith("statsmodels"):
            x = _single_regressor(c)
            if x is not None:
                out.append((c, f"{'smf.ols' if last == 'ols' else 'sm.OLS'}", [x], False))
        elif last == "corr" and (c.name or "").startswith("pingouin"):
            args = [a for a in (c.arg(0, "x"), c.arg(1, "y")) if a is not None]
            out.append((c, "pingouin.corr", args, False))
        elif last == "corrcoef" and (c.name or "").startswith("numpy"):
            args = [a for a in (c.arg(0, "x"), c.arg(1, "y")) if a is not None]
            out.append((c, "np.corrcoef", args, len(args) == 1))
        elif c.method == "corr" and c.receiver is not None and not (
                c.name or "").startswith("pingouin"):
            other = c.arg(0, "other")
            if other is not None and _str(other) is None:
                out.append((c, "Series.corr", [c.receiver, other], False))
            else:
                out.append((c, "DataFrame.corr", [c.receiver], True))
        elif c.method == "corrwith" and c.receiver is not None:
            out.append((c, "DataFrame.corrwith", [c.receiver], True))
    return out


def _const(node: ast.AST | None) -> object:
    return node.value if isinstance(node, ast.Constant) else None


def _single_regressor(c: CallSite) -> ast.AST | None:
    """The one predictor of a simple linear regression: `smf.ols("y ~ band", data=df)` ->
    `df["band"]`; `sm.OLS(y, sm.add_constant(df["band"]))` -> `df["band"]`. None when the
    model has several predictors or treats it as categorical (`C(band)`)."""
    if c.last == "ols":
        formula, data = _str(c.arg(0, "formula")), c.arg(1, "data")
        if formula is None or "~" not in formula or not isinstance(data, ast.Name):
            return None
        terms = [t.strip() for t in formula.split("~", 1)[1].split("+")]
        terms = [t for t in terms if t not in ("1", "0", "-1")]
        if len(terms) != 1:
            return None
        mt = re.fullmatch(r"(?:Q\(['\"])?([A-Za-z_]\w*)(?:['\"]\))?", terms[0])
        if mt is None:
            return None  # C(x), np.log(x), interactions
        return ast.Subscript(value=data, slice=ast.Constant(mt.group(1)), ctx=ast.Load())
    exog = c.arg(1, "exog")
    if isinstance(exog, ast.Call) and called_name(exog) == "add_constant" and exog.args:
        exog = exog.args[0]
    if isinstance(exog, ast.Subscript) and isinstance(exog.slice, ast.List) and len(
            exog.slice.elts) == 1 and _str(exog.slice.elts[0]) is not None:
        return ast.Subscript(value=exog.value, slice=exog.slice.elts[0], ctx=ast.Load())
    if isinstance(exog, ast.Attribute) or (
            isinstance(exog, ast.Subscript) and _str(exog.slice) is not None):
        return exog
    return None


def _column_list_expr(node: ast.AST | None) -> bool:
    """An expression that builds a list of column names (`a + ["y"]`, a list comprehension,
    `list(...)`/`sorted(...)`, `.drop(...)`/`.difference(...)`/`.tolist()` of columns), not
    a row mask."""
    if isinstance(node, ast.BinOp):
        return isinstance(node.op, ast.Add)
    if isinstance(node, ast.ListComp):
        return True
    if isinstance(node, ast.Call):
        f = node.func
        if isinstance(f, ast.Name):
            return f.id in ("list", "sorted")
        if isinstance(f, ast.Attribute):
            return f.attr in ("tolist", "to_list", "difference", "drop")
    return False


def _matrix_columns(ev: Evidence, node: ast.AST) -> tuple[str | None, list[str]]:
    """The frame and the columns a `df.corr()` / `df[cols].corr()` includes."""
    m = ev.model
    cols: list[str] | None = None
    base = node
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.List | ast.Tuple):
        cols = [s for s in (_str(e) for e in node.slice.elts) if s]
        base = node.value
    elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Name):
        base = node.value
        for a in m.assigned_at(node.slice.id):
            if isinstance(a.value, ast.List | ast.Tuple):
                cols = [s for s in (_str(e) for e in a.value.elts) if s]
            elif _column_list_expr(a.value):
                found = _columns.columns(ev, a.value)
                cols = found[1] if found is not None else []
    elif isinstance(node, ast.Subscript) and _column_list_expr(node.slice):
        # df[continuous + ["y"]], df[[c for c in cols if …]], df[list(keep)]: a selection of
        # columns; when it cannot be read, it is not the whole frame either
        base = node.value
        found = _columns.columns(ev, node.slice)
        cols = found[1] if found is not None else []
    dropped: set[str] = set()
    floats_only = False
    while isinstance(base, ast.Call) and isinstance(base.func, ast.Attribute) and \
            base.func.attr in ("select_dtypes", "dropna", "copy", "drop", "assign",
                               "reset_index", "fillna"):
        call = base
        if call.func.attr == "drop":  # type: ignore[attr-defined]
            target = next((k.value for k in call.keywords if k.arg == "columns"), None)
            axis = next((k.value for k in call.keywords if k.arg == "axis"), None)
            if target is None and call.args and isinstance(axis, ast.Constant) and \
                    axis.value in (1, "columns"):
                target = call.args[0]
            if target is not None:
                dropped |= {s for s in (_str(e) for e in (
                    target.elts if isinstance(target, ast.List | ast.Tuple) else [target])) if s}
        elif call.func.attr == "select_dtypes":  # type: ignore[attr-defined]
            include = call.args[0] if call.args else next(
                (k.value for k in call.keywords if k.arg == "include"), None)
            floats_only = "float" in (_src(ev, include) if include is not None else "")
        base = call.func.value  # type: ignore[attr-defined]
    frame = root_name(base)
    f = ev.objects.get(frame) if frame else None
    if cols is None:
        if f is not None and f.kind == "dataframe":
            kinds = ("float", "Float") if floats_only else (
                "int", "uint", "float", "Int", "UInt", "Float", "bool")
            cols = [c for c, dt in f.dtypes.items() if dt.startswith(kinds)]
        else:
            cols = []
    return frame, [c for c in cols if c not in dropped]


def _reported_strings(ev: Evidence) -> list[tuple[int, str]]:
    """Text the cell writes for people: print/f-strings, titles and labels, markdown."""
    out: list[tuple[int, str]] = []
    for c in ev.model.calls:
        if c.last in ("print", "display", "Markdown", "title", "set_title", "suptitle",
                      "xlabel", "ylabel", "set_xlabel", "set_ylabel", "annotate", "text"):
            for node in _walk(c.node):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    out.append((c.line, node.value))
    return out


_FORMULA_MODELS = {"ols", "glm", "logit", "probit", "poisson", "negativebinomial", "wls",
                   "rlm", "quantreg"}


_POOLED_NAMES = {
    "scipy.stats.pearsonr": "pearsonr", "scipy.stats.spearmanr": "spearmanr",
    "scipy.stats.kendalltau": "kendalltau", "scipy.stats.linregress": "linregress",
    "pingouin.corr": "pingouin.corr", "numpy.polyfit": "np.polyfit",
    "numpy.corrcoef": "np.corrcoef", "pandas.Series.corr": "Series.corr",
    "pandas.DataFrame.corr": "DataFrame.corr"}


def _stat_call(c: CallSite) -> tuple[str, list[ast.expr]] | None:
    """(resolved name, sample expressions) of a correlation or straight-line fit whose two
    samples the kernel reads."""
    from ...stat_tests import sample_args, stat_test_of

    found = stat_test_of(c)
    if found is None or found[0] not in _POOLED_NAMES:
        return None
    full, spec = found
    return full, [node for _, node in sample_args(c, spec)]
