"""nbcritic runs what nbclient runs, with the same outputs: the reference notebooks in
tests/parity_notebooks (Output widgets, widget state, lenient loading, kernel history) run
through nbclient and through `nbcritic run` (real kernels), compared cell by cell after
normalisation (bench/notebook_compare.py), widget state included.

`bench/nbclient_parity.py DIR` runs the same comparison over any folder, e.g. nbclient's own
tests/files (docs/jupyter-compatibility.md has the numbers).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import nbformat
import pytest

from bench.nbclient_parity import DEFAULT_DIR, Execution, execute_both
from bench.notebook_compare import WIDGET_STATE, compare

pytest.importorskip("ipywidgets")  # a dev dependency; widget notebooks need it in the kernel

NOTEBOOKS = sorted(p.name for p in DEFAULT_DIR.glob("*.ipynb"))


@pytest.fixture(scope="module")
def executed() -> Callable[[str], Execution]:
    """Each reference notebook run once by both executors, when a test first asks."""
    runs: dict[str, Execution] = {}

    def get(name: str) -> Execution:
        if name not in runs:
            runs[name] = execute_both(DEFAULT_DIR / name, in_process=True)
        return runs[name]

    return get


def _cell(nb: nbformat.NotebookNode, cell_id: str) -> nbformat.NotebookNode:
    return next(cell for cell in nb.cells if cell.get("id") == cell_id)


def _texts(cell: nbformat.NotebookNode) -> str:
    return "".join(o.get("text", "") for o in cell.outputs)


def _models(nb: nbformat.NotebookNode) -> dict[str, Any]:
    return nb.metadata["widgets"][WIDGET_STATE]["state"]


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_every_cell_and_the_widget_state_match_nbclient(
        executed: Callable[[str], Execution], name: str) -> None:
    run = executed(name)
    assert run.nbclient_raised is None
    assert run.nbcritic_exit == 0, run.stderr
    parity = compare(run.reference, run.ours)
    assert parity.cells and not parity.differing, parity.differing
    assert parity.widget_state_same is not False
    nbformat.validate(run.ours)  # strict on write, lenient on load


def test_output_widgets_keep_their_output_out_of_the_cell(
        executed: Callable[[str], Execution]) -> None:
    nb = executed("widget_output.ipynb").ours
    assert _texts(_cell(nb, "capture")) == "cell text\ncell text again\n"
    assert _texts(_cell(nb, "error-inside")) == "the cell goes on\n"
    assert _texts(_cell(nb, "clear-now")) == "stays in the cell\n"
    assert _texts(_cell(nb, "kernel-sees-sync")) == "after the clear: 0 1\n"
    captured = [json.dumps(m["state"].get("outputs")) for m in _models(nb).values()
                if m["model_name"] == "OutputModel"]
    assert any("in inner\\nalso in inner\\n" in text for text in captured)
    assert any("world\\ncaptured by the decorator\\n" in text for text in captured)
    assert any("x is 3" in text for text in captured)  # interact's own Output widget


def test_widget_state_is_the_kernels_not_the_files(
        executed: Callable[[str], Execution]) -> None:
    models = _models(executed("widget_state.ipynb").ours)
    assert "0123456789abcdef0123456789abcdef" not in models  # the input's stale state
    sliders = [m for m in models.values() if m["model_name"] == "IntSliderModel"]
    assert [m["state"]["value"] for m in sliders] == [7]
    [image] = [m for m in models.values() if m["model_name"] == "ImageModel"]
    assert image["buffers"][0]["path"] == ["value"]


def test_a_kernelspec_without_a_name_runs_with_a_warning(
        executed: Callable[[str], Execution]) -> None:
    run = executed("lenient_loading.ipynb")
    assert run.ours.metadata.kernelspec.name == "python3"
    assert any("kernelspec had no 'name'" in w for w in run.load_warnings)
    assert run.ours.metadata.nbcritic.load_warnings == run.load_warnings


def test_kernel_history_is_in_memory(executed: Callable[[str], Execution]) -> None:
    [result] = _cell(executed("kernel_history.ipynb").ours, "hist-file").outputs
    assert result.data["text/plain"] == "':memory:'"


def test_the_reference_notebooks_cover_each_case() -> None:
    assert NOTEBOOKS == ["kernel_history.ipynb", "lenient_loading.ipynb",
                         "widget_output.ipynb", "widget_state.ipynb"]
    lenient = json.loads((DEFAULT_DIR / "lenient_loading.ipynb").read_text())
    assert lenient["metadata"]["kernelspec"] == {"language": "python"}

