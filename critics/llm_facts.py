"""Kernel facts as a model reads them: summaries, not raw values, and one valid JSON object
per line within a budget.

A long numeric sequence (100 floats of `y_test`) becomes `{n, min, max, mean, head}`; a
long list keeps its first items and a count; a wide mapping (levels, dtypes) keeps its first
keys and says how many more there are. A line that is still over its share drops whole
fields (the least telling first) and names them in `omitted`; it is never cut mid-JSON.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from .evidence import Evidence, ObjectFacts

MAX_LIST = 8  # items of a list kept as they are
HEAD = 5  # leading numbers shown with a summary
MAX_KEYS = 20  # keys of a mapping kept
# fields an object line gives up first when it is over its share, then the rest in order
SHED_FIRST = ("tails", "missing_by", "nesting", "levels", "ranges", "unique", "params",
              "fitted_on", "values", "dtypes", "missing")
KEEP = ("name", "type", "kind", "shape", "length", "value", "fitted")


def summarise(value: Any) -> Any:
    """`value` with long sequences summarised and wide mappings trimmed (recursively)."""
    if isinstance(value, dict):
        items = list(value.items())
        out = {str(k): summarise(v) for k, v in items[:MAX_KEYS]}
        if len(items) > MAX_KEYS:
            out["…"] = f"{len(items) - MAX_KEYS} more"
        return out
    if isinstance(value, list | tuple):
        if len(value) > MAX_LIST and all(_is_number(v) for v in value):
            return _number_summary(list(value))
        out_list = [summarise(v) for v in value[:MAX_LIST]]
        if len(value) > MAX_LIST:
            out_list.append(f"… {len(value) - MAX_LIST} more")
        return out_list
    return value


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _number_summary(values: list[float]) -> dict[str, Any]:
    finite = [float(v) for v in values if v == v]  # NaN != NaN
    summary: dict[str, Any] = {"n": len(values), "head": [_round(v) for v in values[:HEAD]]}
    if finite:
        summary.update(min=_round(min(finite)), max=_round(max(finite)),
                       mean=_round(sum(finite) / len(finite)))
    if len(finite) < len(values):
        summary["nan"] = len(values) - len(finite)
    return summary


def _round(value: float) -> float:
    return float(f"{value:.6g}")


def compact(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if v not in (None, "", [], {})}


def object_entry(obj: ObjectFacts) -> dict[str, Any]:
    data = compact(asdict(obj))
    if data.get("kind") == "other":
        data.pop("kind")
    return summarise(data)


def fit_line(kind: str, data: dict[str, Any], limit: int) -> str:
    """`kind {json}` within `limit` characters: whole fields are dropped (and named) until
    it fits; the JSON stays valid."""
    line = _line(kind, data)
    if len(line) <= limit:
        return line
    order = [k for k in SHED_FIRST if k in data] + [
        k for k in data if k not in SHED_FIRST and k not in KEEP]
    kept = dict(data)
    omitted: list[str] = []
    for key in order:
        kept.pop(key)
        omitted.append(key)
        line = _line(kind, {**kept, "omitted": omitted})
        if len(line) <= limit:
            return line
    return _line(kind, {k: kept[k] for k in ("name", "type") if k in kept} | {
        "omitted": "facts too long for the prompt"})


def _line(kind: str, data: dict[str, Any]) -> str:
    return f"{kind} {json.dumps(data, separators=(',', ':'), default=str)}"


def render_facts(evidence: Evidence, budget: int) -> str:
    """Objects after the cell, objects before it, and test samples: one line each, each
    within a quarter of `budget`, all within `budget` (the rest counted as omitted)."""
    entries: list[tuple[str, dict[str, Any]]] = []
    entries += [("object", object_entry(o)) for o in evidence.objects.values()]
    entries += [("before_cell", object_entry(o)) for o in evidence.before.values()]
    entries += [("sample", summarise(compact(asdict(s)))) for s in evidence.samples]
    lines: list[str] = []
    used = omitted = 0
    for kind, data in entries:
        line = fit_line(kind, data, budget // 4)
        if used + len(line) > budget:
            omitted += 1
            continue
        lines.append(line)
        used += len(line) + 1
    if omitted:
        lines.append(f"({omitted} more entries omitted)")
    if evidence.introspection_error:
        lines.append(f"(introspection error: {evidence.introspection_error[:200]})")
    return "\n".join(lines)
