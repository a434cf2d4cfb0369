"""Evaluate a cell's self-checks against a namespace, inside the kernel.

Self-contained (standard library only; numpy/pandas are used duck-typed, through the objects
the kernel already holds) because its source is sent into the user's kernel and run as a
private module, exactly like `kernel_facts`: nothing is added to the user's namespace,
nothing is printed, no history is written. The IPython magics import it in-process.

`evaluate(ns, checks)` takes check specs (the dicts of `SelfCheck.to_dict()`) and returns a
JSON list, one object per check: {"name", "passed", "detail", "value", "error",
"elapsed_ms"}. Values are JSON-safe and short. An exception raised by a check (NameError,
a non-numeric target, ...) fails that check with the exception's text in "error"; a
KeyboardInterrupt (the caller's timeout) is not caught, so the whole request stops.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import math
import sys
import time
import warnings
from typing import Any

MAX_LIST = 10  # items of a list shown in a result
MAX_TEXT = 200  # characters of a repr shown in a result
MAX_COLUMNS_SHOWN = 20


def evaluate(ns: dict[str, Any], checks: list[dict[str, Any]] | str,
             budget_ms: float = 200.0) -> str:
    """Run every check against `ns` (never rebound: expressions are evaluated with a shallow
    copy of it as globals; an expression that mutates an object, `df.pop("x")`, is the
    check author's doing). Checks left when `budget_ms` is spent are reported as not
    evaluated (failed), so a slow first check cannot hide the others silently. On a failed
    comparison the operands are evaluated once more to show their values."""
    specs: list[dict[str, Any]] = json.loads(checks) if isinstance(checks, str) else checks
    t0 = time.perf_counter()
    results: list[dict[str, Any]] = []
    # A check must not publish anything: its prints and warnings are swallowed.
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink), \
            warnings.catch_warnings(record=True):
        for spec in specs:
            name = str(spec.get("name", "?"))
            if (time.perf_counter() - t0) * 1000 > budget_ms:
                results.append({**_result(name, False, error=(
                    f"not evaluated: the self-checks' time budget ({budget_ms:g} ms) was "
                    "spent on the checks before it")), "evaluated": False})
                continue
            started = time.perf_counter()
            try:
                # a fresh shallow copy per check: names an expression binds (walrus) land
                # there, neither in the user's namespace nor in the next check's
                result = _run_one(dict(ns), spec)
            except Exception as exc:
                result = _result(name, False, error=_exception_text(exc))
            result["name"] = name
            result["elapsed_ms"] = round((time.perf_counter() - started) * 1000, 3)
            results.append(result)
    return json.dumps(results, default=_short_repr)


def _result(name: str, passed: bool, detail: str = "", value: Any = None,
            error: str | None = None) -> dict[str, Any]:
    if error and not detail:
        detail = error
    return {"name": name, "passed": passed, "detail": detail, "value": value, "error": error}


def _run_one(scope: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    kind = spec.get("type")
    name = str(spec.get("name", "?"))
    if kind == "expression":
        return _expression(scope, spec, name)
    target = str(spec.get("target", ""))
    obj = _eval(target, scope)
    columns = [str(c) for c in spec.get("columns") or []]
    if kind == "no_missing":
        return _no_missing(obj, target, columns, name)
    if kind == "column_exists":
        return _column_exists(obj, target, columns, name)
    if kind == "in_range":
        return _in_range(obj, target, columns, spec.get("min"), spec.get("max"), name)
    raise ValueError(f"unknown check type {kind!r}")


def _eval(source: str, scope: dict[str, Any]) -> Any:
    return eval(compile(source, "<nbcritic-check>", "eval"), scope)


# -- no_missing ----------------------------------------------------------------------------


def _no_missing(obj: Any, target: str, columns: list[str], name: str) -> dict[str, Any]:
    if columns:
        obj, absent = _select(obj, target, columns)
        if absent:
            return _result(name, False, f"{target} has no column(s) {_join(absent)}",
                           {"absent_columns": absent[:MAX_LIST]})
    by_column = _missing_by_column(obj)
    if by_column is not None:
        total = sum(by_column.values())
        found = {c: n for c, n in sorted(by_column.items(), key=lambda kv: -kv[1]) if n}
        value = {"missing": total, "rows": _length(obj),
                 "by_column": dict(list(found.items())[:MAX_COLUMNS_SHOWN])}
        if not total:
            return _result(name, True, f"{target} has no missing values", value)
        shown = ", ".join(f"{c} {n}" for c, n in list(found.items())[:MAX_LIST])
        more = f" and {len(found) - MAX_LIST} more columns" if len(found) > MAX_LIST else ""
        detail = f"{target} has {_count(total, 'missing value')}: {shown}{more}"
        return _result(name, False, detail, value)
    total = _missing_count(obj)
    size = _length(obj)
    value = {"missing": total, "size": size}
    if not total:
        return _result(name, True, f"{target} has no missing values", value)
    of = f" (of {size})" if size is not None else ""
    return _result(name, False, f"{target} has {_count(total, 'missing value')}{of}", value)


def _missing_by_column(obj: Any) -> dict[str, int] | None:
    """Per-column counts for a DataFrame-like object (it has `columns` and `isna`)."""
    if not (hasattr(obj, "columns") and hasattr(obj, "isna")):
        return None
    counts = obj.isna().sum()
    return {str(c): int(n) for c, n in counts.items()}


def _missing_count(obj: Any) -> int:
    if obj is None:
        return 1
    if isinstance(obj, float):
        return int(math.isnan(obj))
    if isinstance(obj, bool | int | str | bytes | complex):
        return 0
    if hasattr(obj, "isna"):  # pandas Series / Index
        return int(obj.isna().sum())
    dtype = getattr(obj, "dtype", None)
    if dtype is not None and hasattr(obj, "ravel"):  # numpy array or scalar
        np = sys.modules["numpy"]
        if dtype.kind in "fc":
            return int(np.isnan(obj).sum())
        if dtype.kind in "mM":
            return int(np.isnat(obj).sum())
        if dtype.kind == "O":
            return sum(_is_missing(x) for x in obj.ravel())
        return 0
    if isinstance(obj, dict):
        return sum(_is_missing(x) for x in obj.values())
    if isinstance(obj, list | tuple | set | frozenset):
        return sum(_is_missing(x) for x in obj)
    raise TypeError(f"cannot count missing values in a {type(obj).__name__}")


def _is_missing(x: Any) -> bool:
    if x is None:
        return True
    try:
        return bool(x != x)  # NaN, NaT, pd.NA-like
    except Exception:  # pd.NA's comparison raises in bool()
        return True


# -- column_exists -------------------------------------------------------------------------


def _column_exists(obj: Any, target: str, columns: list[str], name: str) -> dict[str, Any]:
    absent = _absent_columns(obj, target, columns)
    labels = _labels(obj, target)
    value = {"absent": absent[:MAX_LIST], "columns": labels[:MAX_COLUMNS_SHOWN]}
    if not absent:
        return _result(name, True, f"{target} has column(s) {_join(columns)}", value)
    has = _join(labels[:MAX_LIST]) + ("…" if len(labels) > MAX_LIST else "")
    return _result(name, False,
                   f"{target} lacks column(s) {_join(absent)} (it has: {has or 'none'})", value)


def _labels(obj: Any, target: str) -> list[str]:
    if hasattr(obj, "columns"):
        return [str(c) for c in obj.columns]
    if isinstance(obj, dict):
        return [str(k) for k in obj]
    names = getattr(getattr(obj, "dtype", None), "names", None)  # numpy structured array
    if names:
        return list(names)
    raise TypeError(f"{target} has no columns (it is a {type(obj).__name__})")


def _absent_columns(obj: Any, target: str, columns: list[str]) -> list[str]:
    present = set(_labels(obj, target))
    return [c for c in columns if c not in present]


def _select(obj: Any, target: str, columns: list[str]) -> tuple[Any, list[str]]:
    """`obj` restricted to `columns` (named as strings; the labels may be ints), and the
    columns it does not have."""
    absent = _absent_columns(obj, target, columns)
    if absent:
        return obj, absent
    if isinstance(obj, dict):
        key_of = {str(k): k for k in obj}
        return {key_of[c]: obj[key_of[c]] for c in columns}, absent
    label_of = {str(c): c for c in getattr(obj, "columns", [])}
    if not label_of:
        return obj, absent  # a structured array: checked as a whole
    return obj[[label_of[c] for c in columns]], absent


# -- in_range ------------------------------------------------------------------------------


def _in_range(obj: Any, target: str, columns: list[str], low: float | None,
              high: float | None, name: str) -> dict[str, Any]:
    bounds = _bounds_text(low, high)
    if columns:
        obj, absent = _select(obj, target, columns)
        if absent:
            return _result(name, False, f"{target} has no column(s) {_join(absent)}",
                           {"absent_columns": absent[:MAX_LIST]})
        target = f"{target} ({_join(columns)})"
    scalar = _scalar(obj)
    if scalar is not None:
        ok = not math.isnan(scalar) and (low is None or scalar >= low) and (
            high is None or scalar <= high)
        detail = f"{target} = {scalar:g}" + (" is within " if ok else " is outside ") + bounds
        return _result(name, ok, detail, {"value": _json_number(scalar)})
    values = _floats(obj, target)
    np = sys.modules.get("numpy")
    if np is not None and not isinstance(values, list):
        return _in_range_array(np, values, target, low, high, bounds, name)
    nan = sum(math.isnan(v) for v in values)
    finite = [v for v in values if not math.isnan(v)]
    outside = [v for v in finite if (low is not None and v < low)
               or (high is not None and v > high)]
    lo, hi = (min(finite), max(finite)) if finite else (None, None)
    return _range_result(name, target, bounds, len(values), len(outside) + nan, nan, lo, hi,
                         outside[:MAX_LIST])


def _in_range_array(np: Any, values: Any, target: str, low: float | None, high: float | None,
                    bounds: str, name: str) -> dict[str, Any]:
    values = values.ravel()
    nan_mask = np.isnan(values)
    inside = ~nan_mask
    if low is not None:
        inside &= values >= low
    if high is not None:
        inside &= values <= high
    bad = ~inside & ~nan_mask
    finite = values[~nan_mask]
    lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (None, None)
    examples = [float(v) for v in values[bad][:MAX_LIST]]
    return _range_result(name, target, bounds, int(values.size), int((~inside).sum()),
                         int(nan_mask.sum()), lo, hi, examples)


def _range_result(name: str, target: str, bounds: str, n: int, outside: int, nan: int,
                  lo: float | None, hi: float | None, examples: list[float]) -> dict[str, Any]:
    value = {"n": n, "outside": outside, "nan": nan, "min": _json_number(lo),
             "max": _json_number(hi), "examples": [_json_number(v) for v in examples]}
    if n == 0:
        return _result(name, True, f"{target} is empty: no value outside {bounds}", value)
    seen = f"min {lo:g}, max {hi:g}" if lo is not None and hi is not None else "no numbers"
    if not outside:
        return _result(name, True, f"all {n} values of {target} are within {bounds} ({seen})",
                       value)
    nan_text = f", {nan} NaN" if nan else ""
    return _result(name, False, f"{outside} of {n} values of {target} are outside {bounds} "
                                f"({seen}{nan_text})", value)


def _scalar(obj: Any) -> float | None:
    """A single number (Python, numpy scalar or 0-d array), else None."""
    if isinstance(obj, bool | int | float):
        return float(obj)
    if getattr(obj, "ndim", None) == 0 and hasattr(obj, "item"):
        item = obj.item()
        if isinstance(item, bool | int | float):
            return float(item)
    return None


def _floats(obj: Any, target: str) -> Any:
    """All values as floats, NaN for missing ones: a numpy array when numpy is loaded,
    else a list. TypeError when the values are not numeric."""
    np = sys.modules.get("numpy")
    try:
        if hasattr(obj, "to_numpy"):  # pandas: nullable dtypes need na_value
            return obj.to_numpy(dtype=float, na_value=float("nan"))
        if np is not None:
            return np.asarray(obj, dtype=float)
        return [float("nan") if x is None else float(x) for x in obj]
    except (TypeError, ValueError) as exc:
        kind = getattr(obj, "dtype", None)
        shown = f" (dtype {kind})" if kind is not None else ""
        raise TypeError(f"{target} is not numeric{shown}: {exc}") from exc


def _bounds_text(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f"[{low:g}, {high:g}]"
    return f">= {low:g}" if low is not None else f"<= {high:g}"


# -- expression ----------------------------------------------------------------------------


def _expression(scope: dict[str, Any], spec: dict[str, Any], name: str) -> dict[str, Any]:
    expr = str(spec.get("expr", ""))
    value = _eval(expr, scope)
    passed = bool(value)  # an ambiguous truth value (a Series) raises: reported as an error
    shown = passed if _is_bool(value) else _short_repr(value)
    if passed:
        return _result(name, True, f"{expr} holds", shown)
    why = _why_false(expr, scope)
    return _result(name, False, f"{expr} is {_short_repr(value)}" + (f" ({why})" if why else ""),
                   shown)


def _why_false(expr: str, scope: dict[str, Any]) -> str:
    """The operands of a false comparison (`len(df) = 42, 100`), or the first false part of
    an `and`: what the retry loop needs to see, not just "False"."""
    try:
        node = ast.parse(expr, mode="eval").body
        whole = ast.unparse(node)
        while isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
            node = next((v for v in node.values
                         if not _eval(ast.unparse(v), scope)), node.values[-1])
        if isinstance(node, ast.Compare):
            parts = [node.left, *node.comparators]
            return ", ".join(f"{ast.unparse(p)} = {_short_repr(_eval(ast.unparse(p), scope))}"
                             for p in parts if not isinstance(p, ast.Constant))
        if not isinstance(node, ast.Constant):
            part = ast.unparse(node)
            return f"false part: {part}" if part != whole else ""
    except Exception:
        return ""
    return ""


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool) or type(value).__name__ in ("bool_", "bool")


# -- small helpers ---------------------------------------------------------------------------


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _length(obj: Any) -> int | None:
    try:
        return len(obj)
    except Exception:
        return None


def _join(items: list[str]) -> str:
    return ", ".join(items)


def _json_number(value: float | None) -> float | None:
    if value is None or math.isnan(value) or math.isinf(value):
        return None
    return value


def _short_repr(value: Any) -> str:
    try:
        text = repr(value)
    except Exception as exc:
        text = f"<unrepresentable {type(value).__name__}: {exc}>"
    text = " ".join(text.split())
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def _exception_text(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}"
    return text if len(text) <= 2 * MAX_TEXT else text[: 2 * MAX_TEXT - 1] + "…"
