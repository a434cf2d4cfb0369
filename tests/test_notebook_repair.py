"""Lenient loading: what Jupyter tolerates is filled in and said; the rest is refused, and
what is written is always valid."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import nbformat
import pytest

from services.notebook_store import InvalidNotebook, NotebookStore, parse_notebook


def _notebook(**metadata: Any) -> dict[str, Any]:
    cells = [{"cell_type": "code", "id": "c1", "metadata": {}, "source": "1",
              "outputs": [], "execution_count": None},
             {"cell_type": "markdown", "id": "m1", "metadata": {}, "source": "# t"}]
    return {"nbformat": 4, "nbformat_minor": 5, "metadata": metadata, "cells": cells}


def _warnings(nb: nbformat.NotebookNode) -> list[str]:
    return nb.metadata["nbcritic"]["load_warnings"]


def test_a_valid_notebook_loads_unchanged_and_without_warnings() -> None:
    raw = _notebook(kernelspec={"name": "python3", "display_name": "Python 3",
                                "language": "python"})
    nb = parse_notebook(json.dumps(raw))
    assert "nbcritic" not in nb.metadata
    assert nb.metadata == raw["metadata"]


def test_a_kernelspec_with_only_a_language_gets_the_kernel_nbcritic_runs() -> None:
    nb = parse_notebook(json.dumps(_notebook(kernelspec={"language": "python"})),
                        kernel_name="python3")
    spec = nb.metadata.kernelspec
    assert spec.name == "python3" and spec.language == "python"
    assert isinstance(spec.display_name, str) and spec.display_name
    assert [w.split(";")[0] for w in _warnings(nb)] == [
        "metadata.kernelspec had no 'name'", "metadata.kernelspec had no 'display_name'"]
    nbformat.validate(nb)


@pytest.mark.parametrize("spec", [None, "python3", ["python3"]])
def test_a_kernelspec_that_is_not_an_object_is_replaced(spec: Any) -> None:
    nb = parse_notebook(_notebook(kernelspec=spec), kernel_name="python3")
    assert nb.metadata.kernelspec.name == "python3"
    assert "not an object" in _warnings(nb)[0]


def test_language_info_without_a_name_takes_the_kernelspecs_language_or_goes() -> None:
    with_language = parse_notebook(_notebook(
        kernelspec={"name": "ir", "display_name": "R", "language": "R"},
        language_info={"version": "4.3"}))
    assert with_language.metadata.language_info == {"name": "R", "version": "4.3"}
    without = parse_notebook(_notebook(language_info={"version": "4.3"}))
    assert "language_info" not in without.metadata
    assert "dropped" in _warnings(without)[0]


def test_cells_missing_fields_jupyter_tolerates_are_filled_in() -> None:
    raw = _notebook()
    raw["cells"] = [{"cell_type": "code", "id": "a", "source": "x = 1"},
                    {"cell_type": "code", "id": "b", "metadata": {}, "source": "x",
                     "outputs": []},
                    {"cell_type": "markdown", "id": "c", "source": "t", "outputs": [],
                     "execution_count": 3},
                    {"cell_type": "raw", "id": "d", "metadata": {}}]
    nb = parse_notebook(raw)
    assert nb.cells[0].outputs == [] and nb.cells[0].execution_count is None
    assert nb.cells[0].metadata == {} and nb.cells[3].source == ""
    assert "outputs" not in nb.cells[2] and "execution_count" not in nb.cells[2]
    assert _warnings(nb) == [
        "2 cell(s) had no 'metadata'; filled in {}",
        "1 cell(s) had no 'outputs'; filled in []",
        "2 cell(s) had no 'execution_count'; filled in None",
        "1 cell(s) had no 'source'; filled in ''",
        "1 markdown/raw cell(s) had 'outputs', which only code cells have; dropped",
        "1 markdown/raw cell(s) had 'execution_count', which only code cells have; dropped",
    ]
    nbformat.validate(nb)


def test_missing_and_repeated_cell_ids_get_new_ones() -> None:
    raw = _notebook()
    raw["cells"].append(copy.deepcopy(raw["cells"][0]))
    del raw["cells"][1]["id"]
    nb = parse_notebook(raw)
    ids = [cell.id for cell in nb.cells]
    assert ids[0] == "c1" and len(set(ids)) == 3
    assert _warnings(nb) == ["1 cell(s) had no id (or not a string); new ids were given",
                             "1 cell(s) repeated another cell's id; new ids were given"]


def test_what_no_repair_covers_is_still_refused() -> None:
    raw = _notebook(kernelspec={"language": "python"})
    raw["cells"][0]["outputs"] = [{"output_type": "no-such-type"}]
    with pytest.raises(InvalidNotebook):
        parse_notebook(raw)


async def test_the_warnings_are_kept_in_the_written_file_which_is_valid(tmp_path: Path) -> None:
    store = NotebookStore(tmp_path, kernel_name="python3")
    nb = parse_notebook(_notebook(kernelspec={"language": "python"}))
    notebook_id = await store.create("lenient", nb)
    on_disk = nbformat.read(store.path(notebook_id), as_version=4)
    nbformat.validate(on_disk)
    assert on_disk.metadata.kernelspec.name == "python3"
    assert len(_warnings(on_disk)) == 2


async def test_a_file_edited_outside_the_service_is_read_leniently(tmp_path: Path) -> None:
    store = NotebookStore(tmp_path, kernel_name="python3")
    store.path("outside").write_text(json.dumps(_notebook(kernelspec={"language": "python"})))
    nb = store.read("outside")
    assert nb.metadata.kernelspec.name == "python3" and _warnings(nb)
