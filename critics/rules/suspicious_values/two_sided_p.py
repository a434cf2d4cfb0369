"""Two-sided p-values computed from a signed statistic without abs(): `2 * sf(t)` that
exceeds 1 for a negative statistic."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from ...ast_cache import walk as _walk
from ...code_model import called_name as _call_last
from ...evidence import Evidence
from ...findings import Finding
from ...rule import rule
from ._code import _of, _stmt_keys
from ._text import _MAX_TEXT
from ._vocabulary import _CLIP_CALLS

# -- two-sided p-values from a signed statistic, without abs() ------------------------------------

_SYMMETRIC_DISTS = {"norm", "t"}
_ABS_CALLS = {"abs", "fabs", "absolute"}


def _is_abs(node: ast.AST, ev: Evidence) -> bool:
    """`abs(z)`, `np.abs(z)`, `-abs(z)`, or a name the cell assigned from one."""
    if isinstance(node, ast.UnaryOp):
        node = node.operand
    if isinstance(node, ast.Call) and _call_last(node) in _ABS_CALLS:
        return True
    if isinstance(node, ast.Name):
        for a in ev.model.assigned_at(node.id):
            if a.value is not None and any(isinstance(s, ast.Call) and _call_last(s)
                                           in _ABS_CALLS for s in _walk(a.value)):
                return True
    return False


def _dist_call(node: ast.AST, methods: set[str]) -> ast.Call | None:
    """`stats.norm.cdf(z)`, `norm.sf(t, df)`, `t.cdf(...)`: a symmetric distribution's method."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in methods and node.args):
        return None
    owner = node.func.value
    dist = owner.attr if isinstance(owner, ast.Attribute) else (
        owner.id if isinstance(owner, ast.Name) else "")
    return node if dist in _SYMMETRIC_DISTS else None


def _doubled_tail(node: ast.BinOp) -> tuple[ast.Call, str] | None:
    """`2 * (1 - norm.cdf(z))`, `2 * norm.sf(z)`, `2 * norm.cdf(z)` (the statistic's sign
    decides whether this is a p-value or up to 2): the tail call and which tail."""
    if not isinstance(node.op, ast.Mult):
        return None
    sides = (node.left, node.right)
    if not any(isinstance(s, ast.Constant) and s.value in (2, 2.0) for s in sides):
        return None
    other = next(s for s in (node.right, node.left)
                 if not (isinstance(s, ast.Constant) and s.value in (2, 2.0)))
    if isinstance(other, ast.BinOp) and isinstance(other.op, ast.Sub) and \
            isinstance(other.left, ast.Constant) and other.left.value in (1, 1.0):
        call = _dist_call(other.right, {"cdf"})
        return (call, "upper") if call is not None else None
    call = _dist_call(other, {"sf"})
    if call is not None:
        return call, "upper"
    call = _dist_call(other, {"cdf"})
    return (call, "lower") if call is not None else None


def _reported_above_one(ev: Evidence, stmt_keys: set[str]) -> float | None:
    """A value above 1 the cell reports under one of these names or keys."""
    for key in stmt_keys:
        f = ev.objects.get(key)
        if f is not None:
            vals = list(f.values or []) + ([f.value] if isinstance(f.value, int | float)
                                           and not isinstance(f.value, bool) else [])
            big = [float(v) for v in vals if isinstance(v, int | float) and v > 1]
            if big:
                return max(big)
        for m in re.finditer(rf"""['"]?\b{re.escape(key)}\b['"]?\s*[:=]\s*([-+]?\d+\.\d+)""",
                             ev.text[:_MAX_TEXT]):
            v = float(m.group(1))
            if v > 1:
                return v
    return None


@rule("suspicious_values.two_sided_p_without_abs",
      title="Two-sided p-value doubled from a signed statistic (can exceed 1)")
def two_sided_p_without_abs(ev: Evidence) -> Iterator[Finding]:
    """`2 * (1 - norm.cdf(z))` is a two-sided p-value only for z >= 0: for a negative z it
    lies between 1 and 2 (and `2 * norm.cdf(z)` fails the other way). The statistic needs
    `abs()` first: `2 * norm.sf(abs(z))`."""
    if ev.tree is None or ("cdf" not in ev.code and ".sf" not in ev.code):
        return
    clipped = {id(sub) for node in _of(ev.tree, ast.Call)
               if _call_last(node) in _CLIP_CALLS for sub in _walk(node)}
    # `2 * norm.cdf(x) - 1`: the mass within +-x, not a p-value
    clipped |= {id(b.left) for b in _of(ev.tree, ast.BinOp) if isinstance(b.op, ast.Sub)}
    stmts = _of(ev.tree, ast.Assign, ast.AugAssign, ast.Expr, ast.Return)
    seen: set[int] = set()
    for node in _of(ev.tree, ast.BinOp):
        found = _doubled_tail(node)
        if found is None or id(node) in clipped:
            continue
        call, tail = found
        stat = call.args[0]
        if isinstance(stat, ast.Constant) or (isinstance(stat, ast.UnaryOp)
                                              and isinstance(stat.operand, ast.Constant)):
            continue  # a fixed quantile (2 * (1 - norm.cdf(1.96))), not a statistic
        if _is_abs(stat, ev) or (isinstance(stat, ast.UnaryOp) and tail == "lower"
                                 and _is_abs(stat.operand, ev)):
            continue
        if node.lineno in seen:
            continue
        seen.add(node.lineno)
        keys: set[str] = set()
        for st in stmts:
            if isinstance(st, ast.Assign | ast.AugAssign) and st.lineno <= node.lineno <= (
                    st.end_lineno or st.lineno) and any(n is node for n in _walk(st)):
                keys |= _stmt_keys(st)
        for d in _of(ev.tree, ast.Dict):  # {"p_two_sided": 2 * (1 - norm.cdf(z))}
            for k, v in zip(d.keys, d.values, strict=False):
                if isinstance(k, ast.Constant) and isinstance(k.value, str) and any(
                        n is node for n in _walk(v)):
                    keys.add(k.value)
        for c in _of(ev.tree, ast.Call):  # dict(p=...), assign(p=...)
            for kw in c.keywords:
                if kw.arg and any(n is node for n in _walk(kw.value)):
                    keys.add(kw.arg)
        seen_value = _reported_above_one(ev, keys)
        formula = ast.unparse(node)[:60]
        fix_sign = "negative" if tail == "upper" else "positive"
        explanation = (f"Line {node.lineno} doubles one tail of a symmetric distribution "
                       f"(`{formula}`) without taking `abs()` of the statistic: for a "
                       f"{fix_sign} statistic this is not a p-value but a number between 1 "
                       "and 2, and the direction of the effect decides whether the result "
                       "can ever be significant.")
        if seen_value is not None:
            explanation += f" The cell reports {seen_value:g}, above 1."
            severity, confidence = "critical", 0.9
        else:
            severity, confidence = "high", 0.65
        yield Finding(
            explanation=explanation, severity=severity, confidence=confidence,
            evidence={"lines": [node.lineno],
                      "values": {"formula": formula, "reported": seen_value}},
            suggestion=("Use the absolute statistic: `p = 2 * stats.norm.sf(abs(z))` (or "
                        "`2 * stats.t.sf(abs(t), df)`), or let the test compute it "
                        "(`alternative='two-sided'`)."))
