"""`formula_drops_missing`: a statsmodels formula or patsy design silently drops every row
with a NaN in a column the formula names."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from ...ast_cache import walk as _walk
from ...code_model import CallSite
from ...code_model import called_name as _call_last
from ...evidence import Evidence
from ...findings import Finding
from ...rule import rule
from ._context import _Ctx, _ctx
from ._scan import _INT_RE, _LOG_CALLS, _MISSING_CALLS, _pct

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
