"""Output parity with nbclient: the same cells, run once by nbclient and once through
NotebookService (real kernels), must leave the same nbformat outputs.

Normalised only where the two legitimately differ: consecutive chunks of one stream are merged
on both sides (nbclient keeps one output per IOPub chunk), tracebacks (ANSI text) are compared
as non-empty lists of strings, and PNG bytes, should they differ, by decoded image size.
"""

from __future__ import annotations

import asyncio
import base64
import copy
import json
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbclient
import nbformat
import pytest
from nbformat import NotebookNode
from nbformat.v4 import new_code_cell, new_notebook

from services.cell_result import CellResult
from services.notebook_service import NotebookService
from services.status import CellStatus
from tests.conftest import make_settings

# (name, source). Streams are flushed explicitly so stdout/stderr order is deterministic.
CELLS: list[tuple[str, str]] = [
    ("imports", (
        "import sys\n"
        "import matplotlib\n"
        "matplotlib.use('module://matplotlib_inline.backend_inline')\n"
        "import matplotlib.pyplot as plt\n"
        "import pandas as pd\n"
        "from IPython.display import (HTML, JSON, SVG, Image, Latex, Markdown, clear_output,\n"
        "                             display, update_display)"
    )),
    ("stdout", "print('hello stdout')"),
    ("stdout_chunks", "for i in range(5):\n    print('chunk', i, flush=True)"),
    ("stderr", "print('hello stderr', file=sys.stderr)"),
    ("mixed_streams", (
        "print('out 1', flush=True)\n"
        "print('err 1', file=sys.stderr, flush=True)\n"
        "print('out 2', flush=True)"
    )),
    ("execute_result", "x = 20\nx * 2 + 2"),
    ("print_and_result", "print('computing', flush=True)\n{'a': [1, 2, 3], 'b': 'text'}"),
    ("html", "display(HTML('<b>bold</b> <i>html</i>'))"),
    ("markdown_latex_json", (
        "display(Markdown('# Title\\n\\n*emphasis*'))\n"
        "display(Latex(r'$\\alpha^2$'))\n"
        "display(JSON({'k': [1, 2], 'nested': {'x': None}}))"
    )),
    ("svg", (
        "display(SVG('<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"20\" height=\"10\">"
        "<rect width=\"20\" height=\"10\" fill=\"teal\"/></svg>'))"
    )),
    ("png_plot", (
        "fig, ax = plt.subplots(figsize=(1.5, 1), dpi=40)\n"
        "ax.plot([0, 1, 2], [0, 1, 0], color='k')\n"
        "ax.set_axis_off()"
    )),
    ("image_with_metadata", (
        "import io\n"
        "buf = io.BytesIO()\n"
        "fig.savefig(buf, format='png', dpi=20)\n"
        "Image(data=buf.getvalue(), width=33)"
    )),
    ("display_update_same_cell", (
        "h = display(HTML('<p>v1</p>'), display_id=True)\n"
        "print('between', flush=True)\n"
        "h.update(HTML('<p>v2</p>'))"
    )),
    ("display_shown", "shared = display(Markdown('**first**'), display_id='shared-id')"),
    ("display_updated_by_next_cell", "shared.update(Markdown('**second**'))\nprint('updated')"),
    ("same_id_shown", "_h1 = display(HTML('<i>one</i>'), display_id='dup-id')"),
    ("same_id_shown_again", "_h2 = display(HTML('<i>two</i>'), display_id='dup-id')"),
    ("shown_then_updated_elsewhere", "_h3 = display(HTML('<p>m1</p>'), display_id='multi-id')"),
    ("shown_and_updated_here", (
        "_h4 = display(HTML('<p>m2</p>'), display_id='multi-id')\n"
        "_h4.update(HTML('<p>m3</p>'))"
    )),
    ("update_display_function", (
        "display(HTML('<p>before</p>'), display_id='fn-id')\n"
        "update_display(HTML('<p>after</p>'), display_id='fn-id')"
    )),
    ("clear_output", (
        "print('gone', flush=True)\n"
        "display(HTML('<p>gone too</p>'))\n"
        "clear_output()\n"
        "print('after clear')"
    )),
    ("clear_output_wait", (
        "print('old', flush=True)\n"
        "clear_output(wait=True)\n"
        "print('new', flush=True)\n"
        "display(HTML('<p>new html</p>'))"
    )),
    ("clear_then_nothing_new", "print('stays', flush=True)\nclear_output(wait=True)"),
    ("repr_html_object", (
        "class Rich:\n"
        "    def _repr_html_(self):\n"
        "        return '<table><tr><td>rich</td></tr></table>'\n"
        "    def __repr__(self):\n"
        "        return 'Rich()'\n"
        "Rich()"
    )),
    ("repr_mimebundle_object", (
        "class Bundle:\n"
        "    def _repr_mimebundle_(self, include=None, exclude=None):\n"
        "        return ({'text/plain': 'Bundle', 'application/json': {'v': 1}},\n"
        "                {'application/json': {'expanded': True}})\n"
        "display(Bundle())"
    )),
    ("dataframe", "pd.DataFrame({'a': [1, 2, 3], 'b': [0.5, 1.5, 2.5], 'c': list('xyz')})"),
    ("error", "print('before the error', flush=True)\n1 / 0"),
    ("after_error", "print('still running')\nx"),
]
NAMES = [name for name, _ in CELLS]

# Cells whose stored outputs are changed by a later cell (cross-cell display updates).
UPDATED_LATER = {"display_shown", "same_id_shown", "shown_then_updated_elsewhere"}


@dataclass
class Runs:
    reference: NotebookNode  # executed by nbclient
    results: list[CellResult]  # NotebookService.execute_cell, in order
    stored: NotebookNode  # the service's notebook after the run
    path: Path  # the service's .ipynb on disk


def _notebook() -> NotebookNode:
    nb = new_notebook(cells=[new_code_cell(source) for _, source in CELLS])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    for cell, name in zip(nb.cells, NAMES, strict=True):
        cell.id = name.replace("_", "-")
    return nb


async def _run_service(data_dir: Path, content: dict[str, Any]) -> Runs:
    service = NotebookService(make_settings(data_dir))
    await service.start()
    try:
        notebook_id = await service.create_notebook(None, content)
        cell_ids = [c.id for c in service.get_notebook(notebook_id).cells]
        results = [await service.execute_cell(notebook_id, cell_id) for cell_id in cell_ids]
        stored = service.get_notebook(notebook_id)
        path = service.store.path(notebook_id)
    finally:
        await service.stop()
    return Runs(NotebookNode(), results, stored, path)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runs]:
    import matplotlib.font_manager  # build the font cache first: no one-off warning in a run

    matplotlib.font_manager.fontManager  # noqa: B018
    nb = _notebook()
    content = json.loads(nbformat.writes(nb))
    reference = copy.deepcopy(nb)
    nbclient.NotebookClient(reference, timeout=60, kernel_name="python3",
                            allow_errors=True).execute()
    service_runs = asyncio.run(_run_service(tmp_path_factory.mktemp("parity"), content))
    service_runs.reference = reference
    yield service_runs


# -- normalisation ------------------------------------------------------------------------


def _merge_streams(outputs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    merged: list[dict[str, Any]] = []
    for output in outputs:
        output = json.loads(json.dumps(output))  # plain dicts, a copy
        last = merged[-1] if merged else None
        if (last is not None and output["output_type"] == "stream"
                and last["output_type"] == "stream" and last["name"] == output["name"]):
            last["text"] += output["text"]
        else:
            merged.append(output)
    return merged


def _png_size(b64: str) -> tuple[int, int]:
    raw = base64.b64decode(b64)
    assert raw[:8] == b"\x89PNG\r\n\x1a\n" and raw[12:16] == b"IHDR"
    width, height = struct.unpack(">II", raw[16:24])
    return width, height


def _normalise(outputs: list[dict[str, Any]], other: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Merged streams; tracebacks checked, then blanked; PNGs that differ -> their size."""
    result = _merge_streams(outputs)
    others = _merge_streams(other)
    for index, output in enumerate(result):
        if output["output_type"] == "error":
            traceback = output["traceback"]
            assert isinstance(traceback, list) and traceback, output
            assert all(isinstance(line, str) for line in traceback), output
            output["traceback"] = "<traceback>"
        png = output.get("data", {}).get("image/png")
        if png is not None:
            twin = others[index].get("data", {}).get("image/png") if index < len(others) else None
            if twin != png:
                output["data"]["image/png"] = ("png", _png_size(png))
    return result


def _compare(ours: list[dict[str, Any]], theirs: list[dict[str, Any]]) -> None:
    assert _normalise(ours, theirs) == _normalise(theirs, ours)


def _params() -> list[Any]:
    params = []
    for index, name in enumerate(NAMES):
        params.append(pytest.param(index, id=name))
    return params


# -- tests --------------------------------------------------------------------------------


def test_reference_run_covers_every_output_kind(runs: Runs) -> None:
    """Guards the fixture: the cells really produce what this file claims to compare."""
    kinds: set[str] = set()
    for cell in runs.reference.cells:
        for output in cell.outputs:
            kinds.add(output.output_type)
            if output.output_type == "stream":
                kinds.add(output.name)
            kinds.update(output.get("data", {}))
    assert kinds >= {
        "stream", "stdout", "stderr", "display_data", "execute_result", "error",
        "text/plain", "text/html", "text/markdown", "text/latex", "application/json",
        "image/svg+xml", "image/png",
    }
    by_name = dict(zip(NAMES, runs.reference.cells, strict=True))
    assert len(by_name["stdout_chunks"].outputs) > 1  # nbclient: one output per chunk
    assert by_name["display_update_same_cell"].outputs[0].data["text/html"] == "<p>v2</p>"
    assert by_name["display_shown"].outputs[0].data["text/markdown"] == "**second**"
    assert by_name["same_id_shown"].outputs[0].data["text/html"] == "<i>two</i>"
    assert by_name["shown_then_updated_elsewhere"].outputs[0].data["text/html"] == "<p>m3</p>"
    assert by_name["error"].outputs[-1].ename == "ZeroDivisionError"
    assert [o.output_type for o in by_name["dataframe"].outputs] == ["execute_result"]
    assert "text/html" in by_name["dataframe"].outputs[0].data


@pytest.mark.parametrize("index", _params())
def test_stored_outputs_match_nbclient(runs: Runs, index: int) -> None:
    ours = runs.stored.cells[index]
    theirs = runs.reference.cells[index]
    assert ours.source == theirs.source
    assert ours.execution_count == theirs.execution_count == index + 1
    _compare(ours.outputs, theirs.outputs)


def test_results_match_stored_outputs_and_statuses(runs: Runs) -> None:
    for name, result, cell in zip(NAMES, runs.results, runs.stored.cells, strict=True):
        assert result.cell_id == cell.id
        assert result.execution_count == cell.execution_count
        assert result.output_truncated is False
        if name not in UPDATED_LATER:
            assert result.outputs == cell.outputs, name
        expected = CellStatus.ERROR if name == "error" else CellStatus.OK
        assert result.status is expected, (name, result.error)
    error = runs.results[NAMES.index("error")].error
    assert error is not None
    assert (error["ename"], error["evalue"]) == ("ZeroDivisionError", "division by zero")
    assert error["traceback"] and all(isinstance(line, str) for line in error["traceback"])


def test_written_notebook_validates(runs: Runs) -> None:
    on_disk = nbformat.read(runs.path, as_version=4)
    nbformat.validate(on_disk)
    assert [c.id for c in on_disk.cells] == [c.id for c in runs.stored.cells]
    for disk_cell, stored_cell in zip(on_disk.cells, runs.stored.cells, strict=True):
        assert disk_cell.outputs == stored_cell.outputs
        assert disk_cell.execution_count == stored_cell.execution_count
        for output in disk_cell.outputs:
            assert "transient" not in output
    # the reference notebook is valid too, so the comparison above is between valid outputs
    nbformat.validate(runs.reference)


async def test_display_update_does_not_reach_a_reexecuted_cell(service: NotebookService) -> None:
    notebook_id = await service.create_notebook(None)
    shown = await service.add_cell(
        notebook_id, source="from IPython.display import HTML, display, update_display\n"
                            "_h = display(HTML('<p>tracked</p>'), display_id='tracked-id')")
    updater = await service.add_cell(
        notebook_id, source="update_display(HTML('<p>updated</p>'), display_id='tracked-id')")
    assert (await service.execute_cell(notebook_id, shown.id)).status is CellStatus.OK
    # the cell no longer shows 'tracked-id' (as after a clear, or an edit and a re-run)
    await service.update_cell(notebook_id, shown.id, source="display(HTML('<p>unrelated</p>'))")
    rerun = await service.execute_cell(notebook_id, shown.id)
    assert rerun.outputs[0]["data"]["text/html"] == "<p>unrelated</p>"
    assert (await service.execute_cell(notebook_id, updater.id)).status is CellStatus.OK
    # nbclient and JupyterLab forget a cell's display ids when its outputs are replaced
    outputs = service.get_cell(notebook_id, shown.id).outputs
    assert outputs[0]["data"]["text/html"] == "<p>unrelated</p>"
