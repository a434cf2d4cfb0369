"""`groupby_drops_nan_keys`: `groupby` / `pivot_table` silently drop the rows whose grouping
key is NaN, judged from the kernel's NaN counts of the key."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from ...code_model import root_name as _root
from ...evidence import Evidence
from ...findings import Finding
from ...rule import rule
from ._scan import _GROUPERS, _column_of, _grouping_keys, _pct

# -- groupby keys with NaN ------------------------------------------------------------------

_NAN_HANDLING = re.compile(r"\.(?:isna|isnull|notna|notnull|fillna|value_counts)\(|dropna\s*=\s*"
                           r"False|\.cat\.add_categories\(")


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
