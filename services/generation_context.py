"""What the code generator is told about a cell's surroundings: the notebook's earlier code
cells and the kernel's variables (from a silent namespace probe), within a size budget."""

from __future__ import annotations

import ast
from typing import Any

from nbformat import NotebookNode

from .code_generator import GenerationContext, VariableInfo

MAX_VARIABLES = 60


def earlier_cells(nb: NotebookNode, cell_id: str) -> list[str]:
    """Sources of the non-empty code cells above `cell_id`, oldest first."""
    sources: list[str] = []
    for cell in nb.cells:
        if cell.get("id") == cell_id:
            break
        if cell.cell_type == "code" and cell.source.strip():
            sources.append(cell.source)
    return sources


def assigned_names(code: str) -> set[str]:
    """Names the code binds at any depth (assignments, imports, definitions, loop targets);
    empty for code that does not parse."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def leftovers(failed_codes: list[str], earlier_code: str) -> set[str]:
    """Names only failed attempts bound: what they left in the kernel is no input to build
    on (the earlier cells' names stay)."""
    bound = set().union(*(assigned_names(code) for code in failed_codes)) if failed_codes \
        else set()
    return bound - assigned_names(earlier_code)


def _noise(obj: dict[str, Any]) -> bool:
    """Imported classes and builtins say nothing about the data the cell works on."""
    return obj.get("kind") == "class" or str(obj.get("qualname") or "").startswith("builtins.")


def variables_from(facts: dict[str, Any], drop: set[str] | None = None) -> list[VariableInfo]:
    """VariableInfo for the objects of a namespace probe (`CellReviewer.namespace`): data
    first (frames, arrays, series, scalars), then the rest; modules shown by what they are.
    Imported classes, builtins and the names in `drop` (failed attempts' leftovers) are
    left out."""
    order = {"dataframe": 0, "series": 1, "ndarray": 2, "scalar": 3, "sequence": 4,
             "estimator": 5, "result": 6, "module": 8}
    found: list[tuple[int, VariableInfo]] = []
    for name, obj in (facts.get("objects") or {}).items():
        if name in (drop or set()) or _noise(obj):
            continue
        kind = obj.get("kind", "other")
        type_ = obj.get("type", "?")
        if kind == "module":
            type_ = f"module {obj.get('qualname', '')}".strip()
        shape = obj.get("shape")
        columns = obj.get("dtypes") if kind == "dataframe" else None
        found.append((order.get(kind, 7), VariableInfo(name, type_, shape, columns)))
    found.sort(key=lambda item: item[0])
    return [v for _, v in found[:MAX_VARIABLES]]


def build_context(nb: NotebookNode, cell_id: str, facts: dict[str, Any] | None,
                  lessons: list[str] | None = None, max_chars: int = 12_000,
                  drop: set[str] | None = None) -> GenerationContext:
    return GenerationContext(
        prior_cells=earlier_cells(nb, cell_id),
        variables=variables_from(facts or {}, drop),
        lessons=list(lessons or []),
        max_chars=max_chars,
    )
