"""Facts about the objects a cell created or used, read inside the kernel.

This module is self-contained (standard library only; numpy/pandas/scipy used when the
kernel already imported them) because its source is sent into the user's kernel and run in
a private module object: nothing is added to the user's namespace, nothing is printed, no
history is written. The same `collect()` runs in-process for the IPython magics.

`collect(ns, request)` returns a JSON string: {"objects": {...}, "samples": [...],
"elapsed_ms": float, "truncated": bool, "errors": [...]}. The keys of each object and sample
are the fields of `critics.evidence.ObjectFacts` and `SampleFacts`. (How each feature alone
orders a model's target is measured by the analysis trace at the fit itself.)
"""

from __future__ import annotations

import ast
import contextlib
import json
import math
import sys
import time
from typing import Any

SKIP_NAMES = {"In", "Out", "get_ipython", "exit", "quit", "display"}
MAX_COLUMNS = 60
MAX_VALUES = 200
MAX_NAMESPACE = 80  # names listed for the code generator
SAMPLE_ROWS = 100_000
# Methods and functions a sample expression may call when it is re-evaluated: side-effect
# free selections and conversions only.
SAFE_METHODS = {
    "dropna", "to_numpy", "astype", "ravel", "flatten", "copy", "abs", "head", "tail",
    "reset_index", "squeeze", "notna", "isna", "notnull", "isnull", "between", "isin",
    "groupby", "get_group", "tolist", "values", "fillna", "query", "clip", "round", "mean",
    "sum", "log", "log1p", "sqrt", "exp", "asarray", "array", "diff", "sort_values",
    "to_list", "unique", "filter", "xs", "loc", "iloc", "reshape",
}
SAFE_NODES = (
    ast.Expression, ast.Name, ast.Load, ast.Attribute, ast.Subscript, ast.Slice, ast.Constant,
    ast.Compare, ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Tuple, ast.List, ast.keyword,
    ast.cmpop, ast.boolop, ast.operator, ast.unaryop, ast.Call,
)


def is_safe_expression(source: str) -> bool:
    """Only names, attributes, subscripts, comparisons, arithmetic and SAFE_METHODS calls."""
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError:
        return False
    for node in ast.walk(tree):
        if not isinstance(node, SAFE_NODES):
            return False
        if isinstance(node, ast.Call) and not (
            isinstance(node.func, ast.Attribute) and node.func.attr in SAFE_METHODS
        ):
            return False
    return True


def _public_name(obj: Any) -> str:
    """`pandas.DataFrame` rather than `pandas.core.frame.DataFrame`; private modules
    dropped (`sklearn.preprocessing._data` -> `sklearn.preprocessing`)."""
    module = getattr(obj, "__module__", None) or ""
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", "") or ""
    top = module.split(".")[0]
    if top == "__main__":  # defined in the user's namespace: a local name, as the code has it
        return name
    if top and getattr(sys.modules.get(top), name, None) is obj:
        return f"{top}.{name}"
    public = ".".join(p for p in module.split(".") if not p.startswith("_"))
    return f"{public}.{name}" if public else name


def _number(x: Any) -> float | int | bool | None:
    try:
        if isinstance(x, bool):
            return x
        if isinstance(x, int):
            return x
        f = float(x)
    except (TypeError, ValueError, OverflowError):
        return None
    if math.isnan(f) or math.isinf(f):
        return None
    if hasattr(x, "dtype") and getattr(x.dtype, "kind", "") in "iu":
        return int(x)
    return f


def _numbers(seq: Any, limit: int = MAX_VALUES) -> list[float] | None:
    out: list[float] = []
    for i, item in enumerate(seq):
        if i >= limit:
            break
        n = _number(item)
        if n is None or isinstance(n, bool):
            if isinstance(item, float) or (getattr(item, "ndim", None) == 0 and item != item):
                continue  # NaN: skip, keep the rest
            return None
        out.append(float(n))
    return out or None


def _frame_facts(df: Any, facts: dict[str, Any]) -> None:
    facts["kind"] = "dataframe"
    facts["shape"] = [int(df.shape[0]), int(df.shape[1])]
    cols = list(df.columns[:MAX_COLUMNS])
    part = df[cols] if len(df.columns) > MAX_COLUMNS else df
    facts["dtypes"] = {str(c): str(t) for c, t in part.dtypes.items()}
    facts["missing"] = {str(c): int(v) for c, v in part.isna().sum().items()}
    sample = part if len(part) <= SAMPLE_ROWS else part.head(SAMPLE_ROWS)
    try:
        facts["unique"] = _unique_counts(sample)
    except TypeError:  # unhashable cells (lists)
        facts["unique"] = {}
    if len(part) > len(sample):
        with contextlib.suppress(Exception):
            _exact_identifier_counts(part, sample, facts["unique"])
    with contextlib.suppress(Exception):
        _levels_and_ranges(part, facts)
    with contextlib.suppress(Exception):
        tails = _frame_tails(part, facts.get("ranges", {}))
        if tails:
            facts["tails"] = tails
    with contextlib.suppress(Exception):
        nesting = _nesting(part)
        if nesting:
            facts["nesting"] = nesting
    with contextlib.suppress(Exception):
        missing_by = _missing_by(part, facts["missing"], facts.get("levels", {}))
        if missing_by:
            facts["missing_by"] = missing_by
    with contextlib.suppress(Exception):
        found = _outcome_indicators(part, facts["unique"])
        if found:
            facts["params"] = {"outcome_indicators": found}
    if df.size <= TABLE_MAX_CELLS and all(
            getattr(t, "kind", "") in "iuf" for t in df.dtypes):
        with contextlib.suppress(Exception):
            table = _table_facts(df.to_numpy())
            if table:
                facts.setdefault("params", {})["table"] = table


PROBE_ROWS = 20_000


def _unique_counts(sample: Any) -> dict[str, int]:
    """Distinct values per column of the row sample. Hashing every float of a wide sample is
    most of the frame facts' cost, and a float column whose first PROBE_ROWS values are all
    distinct is a continuous measurement: its count is taken as the sample's non-missing rows
    (off only by repeats the probe did not see, a few in 10^4 at most)."""
    if len(sample) <= 2 * PROBE_ROWS:
        return {str(c): int(v) for c, v in sample.nunique().items()}
    probe = sample.head(PROBE_ROWS)
    floats = [c for c in sample.columns if getattr(sample[c].dtype, "kind", "") == "f"]
    continuous = set()
    if floats:
        seen, present = probe[floats].nunique(), probe[floats].notna().sum()
        continuous = {c for c in floats if seen[c] == present[c] and present[c] > 0}
    rest = [c for c in sample.columns if c not in continuous]
    counts = sample[rest].nunique() if rest else {}
    filled = sample[list(continuous)].notna().sum() if continuous else {}
    return {str(c): int(filled[c] if c in continuous else counts[c]) for c in sample.columns}


def _exact_identifier_counts(df: Any, sample: Any, unique: dict[str, int]) -> None:
    """A column whose values are all distinct in the row sample may be an identifier (one row
    per patient): counted over the sample only, a 150,000-row table would seem to hold 100,000
    patients on 1.5 rows each. Such integer/text columns are counted over every row; float
    columns (measurements, nearly always all distinct) keep the sample's count."""
    non_null = sample.notna().sum()
    for c in df.columns:
        key = str(c)
        if getattr(df[c].dtype, "kind", "") == "f" or key not in unique:
            continue
        if unique[key] == int(non_null[c]):
            unique[key] = int(df[c].nunique())


MAX_LEVELS = 30  # a column with at most this many distinct values has its levels listed
MAX_LEVEL_COLUMNS = 20


def _levels_and_ranges(df: Any, facts: dict[str, Any]) -> None:
    """Levels of the low-cardinality text/categorical columns ({column: {level: rows}}) and
    [min, max] of the numeric ones: what a filter on listed values (`isin`, `query("x in
    [...]")`) or on fixed bin edges can be checked against."""
    levels: dict[str, dict[str, int]] = {}
    ranges: dict[str, list[float]] = {}
    unique = facts.get("unique", {})
    for c in df.columns:
        kind = getattr(df[c].dtype, "kind", "")
        if kind in "iuf":
            lo, hi = _number(df[c].min()), _number(df[c].max())
            if lo is not None and hi is not None:
                ranges[str(c)] = [float(lo), float(hi)]
        elif _has_levels(df[c]) and 0 < unique.get(str(c), MAX_LEVELS + 1) <= MAX_LEVELS and \
                len(levels) < MAX_LEVEL_COLUMNS:
            levels[str(c)] = _level_counts(df[c])
    if levels:
        facts["levels"] = levels
    if ranges:
        facts["ranges"] = ranges


def _has_levels(col: Any) -> bool:
    """A text, categorical or boolean column: one whose values can be listed as levels."""
    return getattr(col.dtype, "kind", "") in "OSUb" or str(col.dtype) in ("category", "string")


class Budget:
    """A time budget counted in this thread's CPU time, so a loaded machine (the kernel
    waiting for a core) does not cut the facts short and make a critique depend on load; a
    wall-clock cap of WALL_FACTOR x the budget still stops work that blocks (I/O, sleeps,
    lazily computed frames) long before the service's hard introspection timeout."""

    WALL_FACTOR = 8.0

    def __init__(self, seconds: float) -> None:
        self.cpu_end = time.thread_time() + seconds
        self.wall_end = time.perf_counter() + seconds * self.WALL_FACTOR

    def __call__(self) -> bool:
        return time.thread_time() > self.cpu_end or time.perf_counter() > self.wall_end


def _level_counts(col: Any) -> dict[str, int]:
    """{level: rows} of a column, missing values left out."""
    return {str(k)[:60]: int(v) for k, v in col.value_counts(dropna=True).items()}


BEFORE_LEVEL_ROWS = 200_000
BEFORE_LEVEL_PROBE = 1_000  # rows whose distinct values decide whether a column has levels
BEFORE_LEVEL_SECONDS = 0.010  # stop listing levels after this long


def _before_levels(df: Any, facts: dict[str, Any]) -> None:
    """Levels of the text/categorical/boolean columns of a frame the cell is about to filter
    in place ({column: {level: rows}}, as `_levels_and_ranges`): compared with the levels
    after the cell, they show which groups a drop thinned (the rows it took are gone by
    then). Bounded (long frames skipped, identifier-like columns ruled out on a head probe, a
time limit): this runs before every cell that filters a frame in place."""
    if len(df) > BEFORE_LEVEL_ROWS:
        return
    over = Budget(BEFORE_LEVEL_SECONDS)
    head = df.iloc[:BEFORE_LEVEL_PROBE]
    levels: dict[str, dict[str, int]] = {}
    for c in df.columns[:MAX_COLUMNS]:
        if len(levels) >= MAX_LEVEL_COLUMNS or over():
            break
        if _has_levels(df[c]):
            with contextlib.suppress(TypeError):  # unhashable cells
                if head[c].nunique() > MAX_LEVELS:  # an identifier or free text: skip cheaply
                    continue
                counts = _level_counts(df[c])
                if 0 < len(counts) <= MAX_LEVELS:
                    levels[str(c)] = counts
    if levels:
        facts["levels"] = levels


TAIL_ROWS = 2_000  # evenly spaced rows read for a numeric column's tails and quantiles
TAIL_K = 3


def _frame_tails(df: Any, ranges: dict[str, list[float]]) -> dict[str, dict[str, Any]]:
    """Tails of the numeric columns whose [min, max] is known (see `_tails`)."""
    import numpy as np

    cols = [c for c in df.columns if str(c) in ranges]
    if not cols or not len(df):
        return {}
    step = max(1, -(-len(df) // TAIL_ROWS))
    sub = df.iloc[::step] if step > 1 else df
    out: dict[str, dict[str, Any]] = {}
    for c in cols:
        with contextlib.suppress(Exception):
            sample = sub[c].to_numpy(dtype="float64", na_value=np.nan)
            lo, hi = ranges[str(c)]
            t = _tails(df[c], sample, step, float(lo), float(hi))
            if t:
                out[str(c)] = t
    return out


def _tails(col: Any, sample: Any, step: int, lo: float, hi: float) -> dict[str, Any] | None:
    """{"top": [[value, rows], ...], "bottom": [...], "q": [q05, q50, q95]} of a numeric
    column: its TAIL_K largest and smallest distinct values with their rows, and quantiles.
    Read on `sample`, every `step`-th row (at most TAIL_ROWS), so quantiles, the values
    after the extremes and their rows (rows in the sample x step) are estimates on long
    columns; the extremes themselves are the column's exact min and max. Their rows are
    counted over every row when the value is a whole number set apart from the sample's
    rest (a possible placeholder code such as 9999, -999 or 65535: it matters even when
    rare); otherwise estimated (at least 1). `step` is returned with the tails."""
    import numpy as np

    v = np.sort(sample[~np.isnan(sample)])
    if not v.size:
        return None
    q = [float(v[min(v.size - 1, round(p * (v.size - 1)))]) for p in (0.05, 0.5, 0.95)]
    vals, counts = np.unique(v, return_counts=True)
    spread = q[2] - q[0]

    def side(extreme: float, order: list[int]) -> list[list[float]]:
        seen = bool(order) and vals[order[0]] == extreme
        rest = order[1:] if seen else order[:TAIL_K - 1]
        k = int(counts[order[0]]) * step if seen else 0
        if step > 1 and float(extreme).is_integer():
            near = float(vals[rest[0]]) if rest else extreme
            if abs(extreme - near) > max(spread, 1e-12) or near == 0 or \
                    abs(extreme) >= 4 * abs(near):
                k = int(np.count_nonzero(col.to_numpy() == extreme))
        return [[extreme, max(k, 1)]] + [[float(vals[i]), int(counts[i]) * step] for i in rest]

    n = len(vals)
    top = side(hi, list(range(n - 1, max(-1, n - 1 - TAIL_K), -1)))
    bottom = side(lo, list(range(min(n, TAIL_K))))
    return {"top": top, "bottom": bottom, "q": q, "step": step}


MISSING_BY_COLUMNS = 5
MISSING_BY_ROWS = 100_000


def _missing_by(df: Any, missing: dict[str, int], levels: dict[str, dict[str, int]]
                ) -> dict[str, dict[str, dict[str, int]]]:
    """Where the missing values sit: {column with NaN: {grouping column: {level: NaN rows}}}
    for up to MISSING_BY_COLUMNS columns with NaN and the grouping columns whose levels are
    listed. A loss concentrated in one group biases that group's summary far more than the
    overall share says. Exact up to MISSING_BY_ROWS rows, else read on evenly spaced rows
    and scaled (an estimate). Each key is factorized once; counts are bincounts."""
    import numpy as np
    import pandas as pd

    cols = [c for c in df.columns if missing.get(str(c), 0) > 0][:MISSING_BY_COLUMNS]
    keys = [k for k in df.columns if str(k) in levels][:MISSING_BY_COLUMNS]
    if not cols or not keys:
        return {}
    step = 1 if len(df) <= MISSING_BY_ROWS else -(-len(df) // MISSING_BY_ROWS)
    rows = df if step == 1 else df.iloc[::step]
    coded = {}
    for k in keys:
        codes, uniques = pd.factorize(rows[k])  # missing keys get -1, as groupby drops them
        coded[k] = (codes, [str(u)[:60] for u in uniques])
    out: dict[str, dict[str, dict[str, int]]] = {}
    for c in cols:
        na = rows[c].isna().to_numpy()
        per_key: dict[str, dict[str, int]] = {}
        for k, (codes, names) in coded.items():
            if k == c:
                continue
            keep = codes >= 0
            counts = np.bincount(codes[keep], weights=na[keep], minlength=len(names))
            per_key[str(k)] = {names[i]: int(v) * step for i, v in enumerate(counts) if v}
        if per_key:
            out[str(c)] = per_key
    return out


NEST_ROWS = 20_000
NEST_COLUMNS = 8
NEST_MAX_LEVELS = 200
# identifier columns with more levels (respondents of a panel, patients of a registry): a
# few, checked against the coarser columns in O(rows) per pair, not a levels x levels table
NEST_WIDE_COLUMNS = 2
NEST_WIDE_LEVELS = 5_000


def _nesting(df: Any) -> dict[str, dict[str, Any]]:
    """Grouping columns nested in coarser ones: {column A: {"levels": k, "rows": n,
    "min_rows": smallest level, "within": {column B: levels of B}}} when every level of A
    occurs with exactly one level of B (stands within a treatment, wells within a plate).
    Over up to NEST_COLUMNS text/categorical/bool/integer columns with 2..200 levels, on at
    most NEST_ROWS evenly spaced rows (a few bincounts per pair of columns); up to
    NEST_WIDE_COLUMNS columns met on the way with 200..5000 levels (at least 2 rows each on
    average) are checked as the finer column only."""
    import numpy as np
    import pandas as pd

    n = len(df)
    if n < 6:
        return {}
    rows = df if n <= NEST_ROWS else df.iloc[:: -(-n // NEST_ROWS)]
    top = min(NEST_MAX_LEVELS, len(rows) // 2)
    coded: list[tuple[str, Any, int]] = []
    wide: list[tuple[str, Any, int]] = []
    for c in df.columns:
        col = rows[c]
        kind = getattr(col.dtype, "kind", "")
        if not (kind in "OSUbiu" or str(col.dtype) in ("category", "string", "boolean")):
            continue
        codes, uniques = pd.factorize(col)
        k = len(uniques)
        if 2 <= k <= top:
            coded.append((str(c), codes, k))
        elif top < k <= min(NEST_WIDE_LEVELS, len(rows) // 2) and \
                len(wide) < NEST_WIDE_COLUMNS:
            wide.append((str(c), codes, k))
        if len(coded) >= NEST_COLUMNS:
            break
    out: dict[str, dict[str, Any]] = {}
    for a, ca, ka in wide:
        sizes = None
        for b, cb, _kb in coded:
            ok = (ca >= 0) & (cb >= 0)
            first = np.full(ka, -1)
            first[ca[ok]] = cb[ok]  # one level of b per level of a (the last written)
            if not (first[ca[ok]] == cb[ok]).all():
                continue
            if sizes is None:
                sizes = np.bincount(ca[ok], minlength=ka)
                out[a] = {"levels": int((sizes > 0).sum()), "rows": int(sizes.sum()),
                          "min_rows": int(sizes[sizes > 0].min()), "within": {}}
            out[a]["within"][b] = len(np.unique(first[first >= 0]))
    for a, ca, ka in coded:
        if ka < 3:
            continue
        for b, cb, kb in coded:
            if kb >= ka:
                continue
            ok = (ca >= 0) & (cb >= 0)
            pairs = np.bincount(ca[ok] * kb + cb[ok], minlength=ka * kb).reshape(ka, kb)
            per_a = (pairs > 0).sum(axis=1)
            if per_a.max() == 1:
                sizes = pairs.sum(axis=1)
                entry = out.setdefault(a, {"levels": int((sizes > 0).sum()),
                                           "rows": int(sizes.sum()),
                                           "min_rows": int(sizes[sizes > 0].min()),
                                           "within": {}})
                entry["within"][b] = int(((pairs > 0).sum(axis=0) > 0).sum())
    return out


INDICATOR_ROWS = 5000
INDICATOR_TARGETS = 3


def _outcome_indicators(df: Any, unique: dict[str, int]) -> dict[str, dict[str, list[Any]]]:
    """Numeric columns that are 0 or missing for (almost) every row of one class of a
    two-valued column and set for most rows of the other class: a record that exists only
    once that outcome happened (a closing bill, a refund, a rework count). For each
    two-valued column: {column: [share unset in class a, share unset in class b, a, b]}."""
    import numpy as np

    n = len(df)
    if n < 40:
        return {}
    binary = [c for c in df.columns if unique.get(str(c)) == 2][:INDICATOR_TARGETS]
    if not binary:
        return {}
    numeric = [c for c in df.columns if getattr(df[c].dtype, "kind", "") in "iuf"
               and unique.get(str(c), 0) >= 2]
    if not numeric:
        return {}
    rows = df if n <= INDICATOR_ROWS else df.iloc[:: -(-n // INDICATOR_ROWS)]
    x = rows[numeric].to_numpy(dtype=float)
    unset = (x == 0) | np.isnan(x)
    out: dict[str, dict[str, list[Any]]] = {}
    for b in binary:
        col = rows[b]
        levels = [v for v in col.dropna().unique().tolist()][:2]
        if len(levels) != 2:
            continue
        with contextlib.suppress(TypeError):
            levels = sorted(levels)
        in_a = (col == levels[0]).to_numpy()
        in_b = (col == levels[1]).to_numpy()
        if in_a.sum() < 10 or in_b.sum() < 10:
            continue
        za, zb = unset[in_a].mean(axis=0), unset[in_b].mean(axis=0)
        hits = ((za >= 0.95) & (zb <= 0.25)) | ((zb >= 0.95) & (za <= 0.25))
        found = {str(c): [round(float(za[i]), 3), round(float(zb[i]), 3),
                          _number(levels[0]) if _number(levels[0]) is not None
                          else str(levels[0])[:40],
                          _number(levels[1]) if _number(levels[1]) is not None
                          else str(levels[1])[:40]]
                 for i, c in enumerate(numeric) if hits[i] and c != b}
        if found:
            out[str(b)] = found
    return out


TABLE_MAX_CELLS = 400


def _table_facts(values: Any) -> dict[str, Any] | None:
    """A small 2-D table of non-negative numbers (a crosstab, an observed or an expected
    table of a chi-square test): its smallest cell and how many cells are below 5 and 1;
    for counts, also the expected counts under independence (what a chi-square test of
    the table compares it with)."""
    import numpy as np

    a = np.asarray(values, dtype=float)
    if a.ndim != 2 or not 2 <= a.size <= TABLE_MAX_CELLS or np.isnan(a).any() or \
            (a < 0).any():
        return None
    out: dict[str, Any] = {"shape": [int(a.shape[0]), int(a.shape[1])],
                           "min": float(a.min()), "below5": int((a < 5).sum()),
                           "below1": int((a < 1).sum())}
    total = float(a.sum())
    if np.all(a == np.round(a)) and min(a.shape) >= 2 and total > 0:
        e = np.outer(a.sum(axis=1), a.sum(axis=0)) / total
        out.update(total=int(total), expected_min=round(float(e.min()), 4),
                   expected_below5=int((e < 5).sum()), expected_below1=int((e < 1).sum()))
    return out


def _series_facts(s: Any, facts: dict[str, Any]) -> None:
    facts["kind"] = "series"
    facts["shape"] = [int(s.shape[0])]
    facts["dtypes"] = {"": str(s.dtype)}
    facts["missing"] = {"": int(s.isna().sum())}
    sample = s if len(s) <= SAMPLE_ROWS else s.head(SAMPLE_ROWS)
    with contextlib.suppress(TypeError):
        n = int(sample.nunique())
        if len(s) > len(sample) and s.dtype.kind != "f" and n == int(sample.notna().sum()):
            n = int(s.nunique())  # all distinct in the sample: maybe an identifier, count all
        facts["unique"] = {"": n}
    if len(s) <= MAX_VALUES and s.dtype.kind in "iufb":
        facts["values"] = _numbers(s.tolist())
    if s.dtype.kind in "iuf":
        with contextlib.suppress(Exception):
            import numpy as np

            lo, hi = _number(s.min()), _number(s.max())
            if lo is not None and hi is not None:
                step = max(1, -(-len(s) // TAIL_ROWS))
                sample = (s.iloc[::step] if step > 1 else s).to_numpy(
                    dtype="float64", na_value=np.nan)
                t = _tails(s, sample, step, float(lo), float(hi))
                if t:
                    facts["tails"] = {"": t}


def _array_facts(a: Any, facts: dict[str, Any]) -> None:
    import numpy as np

    facts["kind"] = "ndarray"
    facts["shape"] = [int(d) for d in a.shape]
    facts["dtypes"] = {"": str(a.dtype)}
    if a.dtype.kind == "f":
        facts["missing"] = {"": int(np.isnan(a).sum())}
    if a.size <= SAMPLE_ROWS and a.dtype.kind in "iufbU":
        facts["unique"] = {"": int(np.unique(a).size)}
    if a.ndim <= 1 and a.size <= MAX_VALUES and a.dtype.kind in "iuf":
        facts["values"] = _numbers(a.tolist())
    elif a.ndim == 2 and a.size <= TABLE_MAX_CELLS and a.dtype.kind in "iuf":
        table = _table_facts(a)
        if table:
            facts["params"] = {"table": table}
    elif a.ndim == 0 and a.dtype.kind in "iufb":
        facts["value"] = _number(a.item())


def is_fitted(est: Any) -> bool:
    """sklearn's own verdict (`check_is_fitted`: a Pipeline by its last step, an estimator
    by `__sklearn_is_fitted__` or its fitted attributes) when sklearn is loaded and knows
    the object; else `fitted_by_attributes`."""
    validation = sys.modules.get("sklearn.utils.validation")
    check = getattr(validation, "check_is_fitted", None)
    if check is not None:
        try:
            check(est)
            return True
        except TypeError:  # not an estimator sklearn can judge
            pass
        except Exception as exc:
            if type(exc).__name__ == "NotFittedError":
                return False
    return fitted_by_attributes(est)


def fitted_by_attributes(est: Any) -> bool:
    """Fitted attributes (trailing underscore); a chain of `steps` by its last step."""
    attrs = getattr(est, "__dict__", None) or {}
    steps = attrs.get("steps")
    if isinstance(steps, list):
        last = steps[-1] if steps else None
        return fitted_by_attributes(last[-1] if isinstance(last, tuple) else last)
    return any(k.endswith("_") and not k.startswith("__") for k in attrs)


def _estimator_facts(est: Any, facts: dict[str, Any]) -> None:
    facts["kind"] = "estimator"
    facts["fitted"] = is_fitted(est)
    on: dict[str, Any] = {}
    for attr in ("n_features_in_", "n_samples_seen_", "best_score_"):
        v = getattr(est, attr, None) if attr in vars(est) else None
        if v is not None:
            n = _number(v) if not hasattr(v, "__len__") else _number(max(v))
            if n is not None:
                on[attr] = n
    names = vars(est).get("feature_names_in_")
    if names is not None:
        on["feature_names_in_"] = [str(x) for x in list(names)[:MAX_COLUMNS]]
    best = vars(est).get("best_params_")
    if isinstance(best, dict):
        on["best_params_"] = {str(k): repr(v)[:80] for k, v in best.items()}
    facts["fitted_on"] = on
    try:
        params = est.get_params(deep=False)
    except Exception:
        params = {}
    facts["params"] = {k: v for k, v in params.items()
                       if v is None or isinstance(v, bool | int | float | str)}


def _result_facts(obj: Any, facts: dict[str, Any]) -> None:
    """scipy test results (statistic, pvalue) and statsmodels fitted results."""
    facts["kind"] = "result"
    params: dict[str, Any] = {}
    for attr in ("statistic", "pvalue", "rsquared", "rsquared_adj", "correlation"):
        try:
            v = getattr(obj, attr)
        except Exception:
            continue
        n = _number(v)
        if n is not None:
            params[attr] = n
    with contextlib.suppress(Exception):  # statsmodels results: the rows the fit used
        nobs = _number(getattr(obj, "nobs", None))
        if nobs is not None and not isinstance(nobs, bool) and float(nobs).is_integer():
            params["nobs"] = int(nobs)
    pv = getattr(obj, "pvalues", None)
    if pv is not None:
        with contextlib.suppress(TypeError):
            facts["values"] = _numbers(list(pv))
    with contextlib.suppress(Exception):  # chi-square results: the expected counts
        expected = getattr(obj, "expected_freq", None)
        if expected is not None:
            table = _table_facts(expected)
            if table:
                params["expected"] = table
    with contextlib.suppress(Exception):  # regression results: serial correlation of resid
        resid = getattr(obj, "resid", None)
        if resid is not None and getattr(obj, "model", None) is not None:
            import numpy as np

            e = np.asarray(resid, dtype=float).ravel()
            e = e[~np.isnan(e)]
            if LAG_MIN_N <= e.size <= 10 * SAMPLE_ROWS:
                c = e - e.mean()
                ss = float(np.dot(c, c))
                if ss > 0:
                    params["resid_lag1"] = round(float(np.dot(c[:-1], c[1:]) / ss), 4)
                    params["nobs"] = int(e.size)
            params.update(_residual_shape(e))
    facts["params"] = params
    if "pvalue" in params:
        facts["value"] = params["pvalue"]


def describe(name: str, obj: Any, shallow: bool = False) -> dict[str, Any]:
    facts: dict[str, Any] = {"name": name, "type": _public_name(type(obj))}
    cls = type(obj)
    mod = cls.__module__ or ""
    if isinstance(obj, type(sys)):
        facts.update(kind="module", qualname=obj.__name__, type="module")
        return facts
    if isinstance(obj, type):
        facts.update(kind="class", qualname=_public_name(obj))
        return facts
    if mod.startswith("pandas") and cls.__name__ == "DataFrame":
        if shallow:
            facts.update(kind="dataframe", shape=[int(x) for x in obj.shape])
        else:
            _frame_facts(obj, facts)
        return facts
    if mod.startswith("pandas") and cls.__name__ == "Series":
        if shallow:
            facts.update(kind="series", shape=[int(obj.shape[0])])
        else:
            _series_facts(obj, facts)
        return facts
    if mod == "numpy" and cls.__name__ == "ndarray":
        if shallow:
            facts.update(kind="ndarray", shape=[int(d) for d in obj.shape])
        else:
            _array_facts(obj, facts)
        return facts
    if callable(obj) and not hasattr(obj, "get_params") and (
        hasattr(obj, "__code__") or type(obj).__name__ in ("builtin_function_or_method", "ufunc")
    ):
        facts.update(kind="callable", qualname=_public_name(obj))
        return facts
    number = _number(obj) if isinstance(obj, int | float) or mod == "numpy" else None
    if number is not None:
        facts.update(kind="scalar", value=number)
        return facts
    if isinstance(obj, str):
        facts.update(kind="scalar", value=obj[:200], length=len(obj))
        return facts
    if hasattr(obj, "get_params") and hasattr(obj, "fit"):
        _estimator_facts(obj, facts)
        return facts
    if hasattr(obj, "pvalue") or hasattr(obj, "pvalues") or hasattr(obj, "rsquared"):
        _result_facts(obj, facts)
        return facts
    if isinstance(obj, list | tuple | dict | set):
        facts.update(kind="sequence", length=len(obj))
        if not shallow:
            items = list(obj.values()) if isinstance(obj, dict) else list(obj)
            facts["values"] = _numbers(items)
        return facts
    if hasattr(obj, "__len__"):
        with contextlib.suppress(Exception):
            facts["length"] = len(obj)
    return facts


def sample_facts(value: Any) -> dict[str, Any]:
    """Size, spread, skewness and a Shapiro-Wilk p-value of a numeric sample; its lag-1
    autocorrelation in the order given and, for a pandas sample, how many contiguous runs
    of the source's rows it is made of."""
    import numpy as np

    arr = np.asarray(value, dtype=float).ravel()
    missing = int(np.isnan(arr).sum())
    arr = arr[~np.isnan(arr)]
    n = int(arr.size)
    out: dict[str, Any] = {"n": n, "missing": missing}
    if n == 0:
        return out
    with contextlib.suppress(Exception):
        out.update(_order_facts(value, arr))
    out["n_unique"] = int(np.unique(arr).size)
    out["integer_valued"] = bool(np.all(arr == np.round(arr)))
    out["mean"] = float(arr.mean())
    out["min"], out["max"] = float(arr.min()), float(arr.max())
    if n > 1:
        out["std"] = float(arr.std(ddof=1))
    if n >= 3 and out.get("std"):
        centred = arr - arr.mean()
        m2 = float(np.mean(centred**2))
        out["skew"] = float(np.mean(centred**3) / m2**1.5) if m2 > 0 else 0.0
        if out["n_unique"] > 2:
            try:
                from scipy.stats import shapiro

                sample = arr if n <= 5000 else arr[:: max(1, n // 5000)][:5000]
                p = float(shapiro(sample).pvalue)
                out["normal_p"] = None if math.isnan(p) else p
            except Exception:
                pass
    return out


LAG_MIN_N = 20
ORDER_LAG_MIN_N = 12  # a sample's lag-1: short annual series are read too (rules set their n)


def _residual_shape(e: Any) -> dict[str, float]:
    """Skewness and a Shapiro-Wilk p-value of a fitted model's residuals: an ANOVA or OLS
    is judged by its errors, not by the pooled response."""
    import numpy as np

    if e.size < 8:
        return {}
    if e.size > 50_000:  # a strided sample keeps the request inside its time budget
        e = e[:: e.size // 50_000]
    c = e - e.mean()
    m2 = float(np.mean(c**2))
    if not m2 > 0 or np.unique(e).size <= 2:
        return {}
    out = {"resid_skew": round(float(np.mean(c**3) / m2**1.5), 4)}
    with contextlib.suppress(Exception):
        from scipy.stats import shapiro

        sample = e if e.size <= 5000 else e[:: max(1, e.size // 5000)][:5000]
        p = float(shapiro(sample).pvalue)
        if not math.isnan(p):
            out["resid_normal_p"] = p
    return out


def _order_facts(value: Any, arr: Any) -> dict[str, Any]:
    """`lag1`: autocorrelation of neighbouring values in the order given (None for a sorted
    sample, whose neighbours are alike by construction). `runs`: for a Series whose index is
    increasing integers or timestamps, the number of contiguous stretches of rows it holds
    (a label constant over long periods gives few long runs)."""
    import numpy as np

    out: dict[str, Any] = {}
    n = arr.size
    if n >= ORDER_LAG_MIN_N:
        d = np.diff(arr)
        c = arr - arr.mean()
        ss = float(np.dot(c, c))
        if ss > 0 and not (np.all(d >= 0) or np.all(d <= 0)):
            out["lag1"] = round(float(np.dot(c[:-1], c[1:]) / ss), 4)
    index = getattr(value, "index", None)
    if index is None or not (type(value).__module__ or "").startswith("pandas") or \
            getattr(value, "ndim", 1) != 1 or len(index) < LAG_MIN_N:
        return out
    if not (index.is_monotonic_increasing and index.is_unique):
        return out
    kind = getattr(index.dtype, "kind", "")
    if kind in "iu":
        steps = np.diff(index.to_numpy())
        step = 1
    elif kind == "M":
        steps = np.diff(index.to_numpy().astype("int64"))
        step = steps.min() if steps.size else 0
    else:
        return out
    if steps.size and step > 0:
        out["runs"] = int(np.count_nonzero(steps != step)) + 1
    return out


# calls whose two samples are (x, y) pairs: a point's influence on the fit is read
PAIR_CALLS = {"scipy.stats.linregress", "scipy.stats.pearsonr", "pingouin.corr"}
PAIR_MAX_N = 2000


def _t_p(r: float, df: int) -> float | None:
    """Two-sided p-value of a correlation r with df degrees of freedom."""
    if df < 1:
        return None
    from scipy.special import betainc

    r2 = min(r * r, 1.0)
    if r2 >= 1.0:
        return 0.0
    t2 = r2 * df / (1 - r2)
    return float(betainc(df / 2, 0.5, df / (df + t2)))


def pair_facts(x: Any, y: Any) -> dict[str, Any]:
    """Influence of single points on a straight-line fit / Pearson r of paired samples:
    the largest Cook's distance (either variable regressed on the other), that point's
    leverage and values, r and its p with and without it, and Spearman's rho and p."""
    import numpy as np

    x = np.asarray(x, dtype=float).ravel()
    y = np.asarray(y, dtype=float).ravel()
    if x.size != y.size:
        return {}
    keep = ~(np.isnan(x) | np.isnan(y))
    x, y = x[keep], y[keep]
    n = int(x.size)
    if not 5 <= n <= PAIR_MAX_N or x.std() == 0 or y.std() == 0:
        return {}
    r = float(np.corrcoef(x, y)[0, 1])
    best = (-1.0, 0, 0.0)
    for a, b in ((x, y), (y, x)):
        ac = a - a.mean()
        sxx = float(np.dot(ac, ac))
        slope = float(np.dot(ac, b - b.mean())) / sxx
        resid = b - b.mean() - slope * ac
        s2 = float(np.dot(resid, resid)) / (n - 2)
        h = 1 / n + ac**2 / sxx
        if s2 <= 0:
            continue
        cooks = resid**2 / (2 * s2) * h / (1 - h) ** 2
        i = int(np.argmax(cooks))
        if cooks[i] > best[0]:
            best = (float(cooks[i]), i, float(h[i]))
    if best[0] < 0:
        return {}
    cook, i, lev = best
    mask = np.ones(n, dtype=bool)
    mask[i] = False
    xd, yd = x[mask], y[mask]
    out: dict[str, Any] = {"pair_r": round(r, 4), "cooks_max": round(cook, 3),
                           "leverage_max": round(lev, 3),
                           "influential": [float(x[i]), float(y[i])]}
    if xd.std() > 0 and yd.std() > 0:
        out["drop_r"] = round(float(np.corrcoef(xd, yd)[0, 1]), 4)
    with contextlib.suppress(Exception):
        out["pair_p"] = _t_p(r, n - 2)
        if "drop_r" in out:
            out["drop_p"] = _t_p(out["drop_r"], n - 3)
        from scipy.stats import rankdata

        rx, ry = rankdata(x), rankdata(y)
        rho = float(np.corrcoef(rx, ry)[0, 1])
        out["rank_r"] = round(rho, 4)
        out["rank_p"] = _t_p(rho, n - 2)
    return out


# calls whose (x, y) samples are split into their within- and between-group parts along the
# grouping columns of the frame they were read from (a pooled correlation / slope)
GROUPED_PAIR_CALLS = PAIR_CALLS | {
    "scipy.stats.spearmanr", "scipy.stats.kendalltau", "numpy.polyfit", "numpy.corrcoef",
    "pandas.Series.corr", "pandas.DataFrame.corr"}
GROUP_ROWS = 5000
GROUP_COLUMNS = 3
GROUP_MAX_LEVELS = 200
# expressions that aggregate rows: their values are not the rows of the frame they read
_AGGREGATING = {"groupby", "mean", "sum", "unique", "value_counts", "agg", "aggregate",
                "resample", "rolling", "pivot_table", "describe", "nunique", "count"}


def _source_frame(ns: dict[str, Any], exprs: list[str]) -> tuple[str, Any] | None:
    """The one DataFrame (a name of the namespace) that every expression reads, when none
    of them aggregates rows."""
    common: set[str] | None = None
    for expr in exprs:
        tree = ast.parse(expr, mode="eval")
        names: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in _AGGREGATING and (
                    node.attr != "groupby" or "get_group" not in expr):
                return None
            if isinstance(node, ast.Name):
                obj = ns.get(node.id)
                cls = type(obj)
                if (cls.__module__ or "").startswith("pandas") and cls.__name__ == "DataFrame":
                    names.add(node.id)
        common = names if common is None else common & names
    if not common or len(common) != 1:
        return None
    name = next(iter(common))
    return name, ns[name]


def _column_read(expr: str) -> str:
    """The column an expression reads last: `df.x` / `df["x"]` / `df["x"].values` -> x."""
    node = ast.parse(expr, mode="eval").body
    while (isinstance(node, ast.Attribute) and node.attr in ("values", "array")) or (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("to_numpy", "astype", "dropna")):
        node = node.value if isinstance(node, ast.Attribute) else node.func.value
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return str(node.slice.value)
    return ""


def _row_positions(value: Any, frame: Any) -> Any:
    """Positions in `frame` of a sample's rows: by label for a Series read from it, by
    position for an array as long as the frame; None when they cannot be matched."""
    import numpy as np

    mod = type(value).__module__ or ""
    if mod.startswith("pandas") and getattr(value, "ndim", 0) == 1:
        index = value.index
        if not (frame.index.is_unique and index.is_unique) or \
                list(index.names) != list(frame.index.names):
            return None
        if index is frame.index or index.equals(frame.index):
            return np.arange(len(frame))
        pos = frame.index.get_indexer(index)
        return None if (pos < 0).any() else pos
    if getattr(value, "ndim", 0) == 1 and len(value) == len(frame):
        return np.arange(len(frame))
    return None


def _group_columns(rows: Any, skip: set[str]) -> list[int]:
    """Positions of up to GROUP_COLUMNS grouping columns: text, categorical or boolean
    columns, then integer ids, with 2 to min(200, n/3) levels (integers: at least 3 rows
    per level)."""
    n = len(rows)
    top = min(GROUP_MAX_LEVELS, n // 3)
    text: list[Any] = []
    ints: list[Any] = []
    for i, c in enumerate(rows.columns):
        if str(c) in skip:
            continue
        col = rows.iloc[:, i]
        kind = getattr(col.dtype, "kind", "")
        is_text = kind in "OSUb" or str(col.dtype) in ("category", "string", "boolean")
        if not (is_text or kind in "iu"):
            continue
        counts = col.value_counts(dropna=True)
        if not 2 <= len(counts) <= top:
            continue
        if is_text:
            text.append(i)
        elif int(counts.min()) >= 3:
            ints.append(i)
        if len(text) >= GROUP_COLUMNS:
            break
    return (text + ints)[:GROUP_COLUMNS]


def _r(a: Any, b: Any) -> float | None:
    import numpy as np

    ac, bc = a - a.mean(), b - b.mean()
    den = math.sqrt(float(np.dot(ac, ac)) * float(np.dot(bc, bc)))
    return None if den <= 0 else float(np.dot(ac, bc)) / den


def group_split(x: Any, y: Any, codes: Any) -> dict[str, Any] | None:
    """How the association of x and y splits along a grouping (integer codes 0..k-1):
    r of the group-demeaned values (within), r of the group means (between), the share of
    each variable's variance the groups explain (eta squared), and how many groups have a
    positive / negative r of their own."""
    import numpy as np

    k = int(codes.max()) + 1
    cnt = np.bincount(codes, minlength=k).astype(float)
    used = cnt > 0
    mx = np.bincount(codes, x, k)[used] / cnt[used]
    my = np.bincount(codes, y, k)[used] / cnt[used]
    remap = np.cumsum(used) - 1
    c = remap[codes]
    wx, wy = x - mx[c], y - my[c]
    sx, sy = float(np.dot(x - x.mean(), x - x.mean())), float(np.dot(y - y.mean(), y - y.mean()))
    wxx, wyy = float(np.dot(wx, wx)), float(np.dot(wy, wy))
    if sx <= 0 or sy <= 0 or wxx <= 1e-9 * sx or wyy <= 1e-9 * sy:
        return None
    within = float(np.dot(wx, wy)) / math.sqrt(wxx * wyy)
    g = int(used.sum())
    sxy_g = np.bincount(c, wx * wy, g)
    sxx_g, syy_g = np.bincount(c, wx * wx, g), np.bincount(c, wy * wy, g)
    ok = (cnt[used] >= 3) & (sxx_g > 0) & (syy_g > 0)
    rg = np.zeros(g)
    rg[ok] = sxy_g[ok] / np.sqrt(sxx_g[ok] * syy_g[ok])
    between = _r(mx, my) if g >= 3 else None
    return {"within_r": round(within, 4),
            "between_r": None if between is None else round(between, 4),
            "eta2_x": round(1 - wxx / sx, 4), "eta2_y": round(1 - wyy / sy, 4),
            "n_groups": g, "pos_groups": int((ok & (rg > 0)).sum()),
            "neg_groups": int((ok & (rg < 0)).sum())}


def group_facts(ns: dict[str, Any], x: Any, y: Any, ex: str, ey: str) -> dict[str, Any]:
    """For a pair (x, y) read from one DataFrame: {"groups": {column: group_split(...)}}
    for up to GROUP_COLUMNS grouping columns of that frame (on at most GROUP_ROWS evenly
    spaced rows), each with the pooled r and n of those rows."""
    import numpy as np
    import pandas as pd

    found = _source_frame(ns, [ex, ey])
    if found is None:
        return {}
    _, frame = found
    px, py = _row_positions(x, frame), _row_positions(y, frame)
    if px is None or py is None or len(px) != len(py) or not np.array_equal(px, py):
        return {}
    xv = np.asarray(x, dtype=float).ravel()
    yv = np.asarray(y, dtype=float).ravel()
    keep = ~(np.isnan(xv) | np.isnan(yv))
    xv, yv, pos = xv[keep], yv[keep], px[keep]
    n = xv.size
    if n < 20:
        return {}
    if n > GROUP_ROWS:
        step = -(-n // GROUP_ROWS)
        xv, yv, pos = xv[::step], yv[::step], pos[::step]
    skip = {_column_read(ex), _column_read(ey)}
    cand = [i for i, (c, t) in enumerate(list(frame.dtypes.items())[:MAX_COLUMNS])
            if str(c) not in skip and getattr(t, "kind", "") not in "fcmMV"]
    if not cand:
        return {}
    rows = frame.iloc[pos, cand]
    pooled = _r(xv, yv)
    if pooled is None:
        return {}
    out: dict[str, Any] = {}
    for col in _group_columns(rows, skip):
        name = rows.columns[col]
        codes, _ = pd.factorize(rows.iloc[:, col])
        ok = codes >= 0
        split = group_split(xv[ok], yv[ok], codes[ok])
        if split is not None:
            split.update(r=round(pooled, 4), n=int(xv.size))
            out[str(name)] = split
    return {"groups": out} if out else {}


MAX_GROUPS = 20


def group_samples(name: str, obj: Any, call: str = "", line: int = 0
                  ) -> list[dict[str, Any]]:
    """Sample facts per group of a named collection of numeric samples, the form a test
    unpacks (`f_oneway(*groups)`, `f_oneway(*(g for _, g in groups))`): a pandas SeriesGroupBy
    (`df.groupby("g")["y"]`), or a list, tuple or dict of 1-D numeric arrays or Series. Each
    group is one sample keyed `name[key]`, with line 0 (it is not a test argument) unless the
    test's `call` and `line` are given (the test unpacks the groupby itself)."""
    cls = type(obj)
    if (cls.__module__ or "").startswith("pandas") and cls.__name__ == "SeriesGroupBy":
        if not 2 <= obj.ngroups <= MAX_GROUPS or len(obj.obj) > SAMPLE_ROWS:
            return []
        items = list(obj)
    elif isinstance(obj, dict | list | tuple) and 2 <= len(obj) <= MAX_GROUPS:
        items = list(obj.items()) if isinstance(obj, dict) else list(enumerate(obj))
    else:
        return []
    total = 0
    for _, value in items:
        vmod = type(value).__module__ or ""
        if not (vmod.startswith(("numpy", "pandas")) and getattr(value, "ndim", 0) == 1
                and getattr(getattr(value, "dtype", None), "kind", "") in "iuf"):
            return []  # not a collection of numeric samples
        total += len(value)
    if total > SAMPLE_ROWS:
        return []
    return [{"call": call, "line": line, "arg": i, "expr": f"{name}[{key!r}]",
             **sample_facts(value)} for i, (key, value) in enumerate(items)]


def collect(ns: dict[str, Any], request: dict[str, Any] | str) -> str:
    started = time.perf_counter()
    if isinstance(request, str):
        request = json.loads(request)
    if request.get("samples") and "scipy.stats" not in sys.modules:
        # Sample facts use scipy.stats; its first import in a kernel (a few hundred ms) is a
        # one-off cost, not introspection work: counted against the budget it would cut the
        # facts of that cell's remaining samples short.
        with contextlib.suppress(Exception):
            import scipy.stats  # noqa: F401
    over = Budget(float(request.get("budget_ms", 25.0)) / 1000)
    mode = request.get("mode")
    shallow = mode in ("before", "namespace")
    objects: dict[str, Any] = {}
    samples: list[dict[str, Any]] = []
    pairs: dict[tuple[Any, Any], list[tuple[int, Any, str]]] = {}
    errors: list[str] = []
    truncated = False
    names = request.get("names", [])
    if names == "*":  # the whole user namespace (context for the code generator)
        names = [n for n in list(ns) if not n.startswith("_") and n not in SKIP_NAMES]
        truncated = len(names) > MAX_NAMESPACE
        names = names[:MAX_NAMESPACE]
    for name in names:
        if over():
            truncated = True
            break
        if name in SKIP_NAMES or name.startswith("_") or name not in ns:
            continue
        try:
            objects[name] = describe(name, ns[name], shallow=shallow)
            if not shallow and objects[name].get("kind", "other") in ("other", "sequence"):
                samples += group_samples(name, ns[name])
            if mode == "before" and objects[name].get("kind") == "dataframe":
                with contextlib.suppress(Exception):
                    _before_levels(ns[name], objects[name])
            if mode == "namespace" and objects[name].get("kind") == "dataframe":
                objects[name]["dtypes"] = {
                    str(c): str(t) for c, t in list(ns[name].dtypes.items())[:MAX_COLUMNS]}
        except Exception as exc:
            errors.append(f"{name}: {type(exc).__name__}: {exc}")
    for spec in request.get("samples", []):
        if over():
            truncated = True
            break
        expr = spec.get("expr", "")
        if not is_safe_expression(expr):
            continue
        try:
            value = eval(compile(expr, "<nbcritic-sample>", "eval"), {"__builtins__": {}}, ns)
            if spec.get("groups"):  # f_oneway(*[g["y"] for _, g in df.groupby(k)])
                samples += group_samples(expr, value, spec.get("call", ""), spec.get("line", 0))
                continue
            samples.append({**spec, **sample_facts(value)})
            if spec.get("call") in GROUPED_PAIR_CALLS and spec.get("arg") in (
                    0, 1, "x", "y"):
                pairs.setdefault((spec.get("call"), spec.get("line")), []).append(
                    (len(samples) - 1, value, expr))
        except Exception as exc:
            errors.append(f"{expr[:60]}: {type(exc).__name__}: {exc}")
    for (call, _), members in pairs.items():
        if len(members) != 2 or over():
            continue
        (i, x, ex), (j, y, ey) = members
        found: dict[str, Any] = {}
        if call in PAIR_CALLS:
            with contextlib.suppress(Exception):
                found.update(pair_facts(x, y))
        with contextlib.suppress(Exception):
            found.update(group_facts(ns, x, y, ex, ey))
        for k in (i, j):
            samples[k].update(found)
    elapsed = (time.perf_counter() - started) * 1000
    return json.dumps({"objects": objects, "samples": samples,
                       "elapsed_ms": elapsed, "truncated": truncated,
                       "errors": errors[:20]}, default=str)
