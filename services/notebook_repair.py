"""Lenient loading: what Jupyter tolerates in a notebook file and nbformat's schema does not.

nbformat.read only logs a schema error, nbclient runs the notebook anyway and JupyterLab opens
it; nbcritic validates strictly on every write, so it fills in what is missing instead, on the
raw JSON before validation, and says what it changed. Anything these repairs do not cover is
still refused with nbformat's own message. Repairs:

- `metadata.kernelspec` without `name` / `display_name` (or not an object): the kernel nbcritic
  runs, and its display name; `metadata.language_info` without `name`: the kernelspec's
  language, else it is dropped (a run rewrites it from the kernel anyway);
- cells without `metadata`, `source`, `outputs` or `execution_count`: {}, "", [], null; a
  markdown or raw cell's `outputs` / `execution_count`: dropped;
- nbformat 4.5 cells without an id, or with one another cell already has: a new id.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from nbformat.v4.nbbase import random_cell_id

CODE_DEFAULTS: dict[str, Any] = {"metadata": {}, "source": "", "outputs": [],
                                 "execution_count": None}
TEXT_DEFAULTS: dict[str, Any] = {"metadata": {}, "source": ""}
CODE_ONLY = ("outputs", "execution_count")


def repair_notebook(raw: dict[str, Any], kernel_name: str) -> list[str]:
    """Fill in what Jupyter would tolerate, in place; one sentence per kind of change."""
    changes: list[str] = []
    if not isinstance(raw.get("metadata"), dict):
        raw["metadata"] = {}
        changes.append("the notebook had no metadata object; an empty one was filled in")
    changes += _kernelspec(raw["metadata"], kernel_name)
    changes += _language_info(raw["metadata"])
    cells = raw.get("cells")
    if isinstance(cells, list) and all(isinstance(cell, dict) for cell in cells):
        changes += _cells(cells)
        if raw.get("nbformat_minor", 0) >= 5:
            changes += _cell_ids(cells)
    return changes


def _kernelspec(metadata: dict[str, Any], kernel_name: str) -> list[str]:
    spec = metadata.get("kernelspec")
    if spec is None and "kernelspec" not in metadata:
        return []  # the store gives a notebook without one the default kernelspec
    if not isinstance(spec, dict):
        metadata["kernelspec"] = {"name": kernel_name, "display_name": _display_name(kernel_name)}
        return [f"metadata.kernelspec was not an object; replaced by {kernel_name!r} "
                "(the kernel nbcritic runs)"]
    changes = []
    if not isinstance(spec.get("name"), str) or not spec["name"]:
        spec["name"] = kernel_name
        changes.append(f"metadata.kernelspec had no 'name'; filled in {kernel_name!r} "
                       "(the kernel nbcritic runs)")
    if not isinstance(spec.get("display_name"), str):
        spec["display_name"] = _display_name(spec["name"])
        changes.append("metadata.kernelspec had no 'display_name'; filled in "
                       f"{spec['display_name']!r}")
    return changes


def _display_name(kernel_name: str) -> str:
    """The installed kernelspec's display name, else the kernel name."""
    try:
        from jupyter_client.kernelspec import KernelSpecManager

        return str(KernelSpecManager().get_kernel_spec(kernel_name).display_name)
    except Exception:  # no such kernelspec here: the name says enough
        return kernel_name


def _language_info(metadata: dict[str, Any]) -> list[str]:
    info = metadata.get("language_info")
    if info is None or (isinstance(info, dict) and isinstance(info.get("name"), str)):
        return []
    language = (metadata.get("kernelspec") or {}).get("language")
    if isinstance(info, dict) and isinstance(language, str) and language:
        info["name"] = language
        return [f"metadata.language_info had no 'name'; filled in {language!r} "
                "(the kernelspec's language)"]
    del metadata["language_info"]
    return ["metadata.language_info had no 'name'; it was dropped"]


def _cells(cells: list[dict[str, Any]]) -> list[str]:
    filled: Counter[str] = Counter()
    dropped: Counter[str] = Counter()
    for cell in cells:
        code = cell.get("cell_type") == "code"
        for key, default in (CODE_DEFAULTS if code else TEXT_DEFAULTS).items():
            if key not in cell:
                cell[key] = type(default)() if default is not None else None
                filled[key] += 1
        if not code and cell.get("cell_type") in ("markdown", "raw"):
            for key in CODE_ONLY:
                if key in cell:
                    del cell[key]
                    dropped[key] += 1
    return ([f"{n} cell(s) had no {key!r}; filled in {CODE_DEFAULTS[key]!r}"
             for key, n in filled.items()]
            + [f"{n} markdown/raw cell(s) had {key!r}, which only code cells have; dropped"
               for key, n in dropped.items()])


def _cell_ids(cells: list[dict[str, Any]]) -> list[str]:
    seen: set[str] = set()
    missing = repeated = 0
    for cell in cells:
        cell_id = cell.get("id")
        if isinstance(cell_id, str) and cell_id not in seen:
            seen.add(cell_id)
            continue
        if not isinstance(cell_id, str):
            missing += 1
        else:
            repeated += 1
        cell["id"] = _fresh_id(seen)
    changes = []
    if missing:
        changes.append(f"{missing} cell(s) had no id (or not a string); new ids were given")
    if repeated:
        changes.append(f"{repeated} cell(s) repeated another cell's id; new ids were given")
    return changes


def _fresh_id(seen: set[str]) -> str:
    while (cell_id := random_cell_id()) in seen:
        pass
    seen.add(cell_id)
    return cell_id
