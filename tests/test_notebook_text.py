"""The store writes notebooks cell by cell (`services.notebook_text`): the file is byte for
byte what `nbformat.v4.nbjson.writes` makes, across copy-on-write updates."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from nbformat import NotebookNode
from nbformat.v4 import (
    nbjson,
    new_code_cell,
    new_markdown_cell,
    new_notebook,
    new_output,
    new_raw_cell,
)

from services.notebook_store import InvalidNotebook, NotebookStore, find_cell, parse_notebook
from services.notebook_text import NotebookText

SHIPPED = sorted((Path(__file__).parents[1] / "notebooks").glob("*.ipynb"))


def _tricky() -> NotebookNode:
    png = base64.b64encode(b"\x89PNG fake").decode()
    code = new_code_cell("print('é ✓')\n\nx = {'cells': []}\n", outputs=[
        new_output("stream", name="stdout", text="a\nb\r\nc"),
        new_output("execute_result", data={"text/plain": "1\n2", "image/png": png,
                                           "application/json": {"k": [1, "two\n"]}},
                   execution_count=3),
        new_output("error", ename="E", evalue="v", traceback=["l1", "l2"])])
    code.metadata["trusted"] = True  # transient: not written
    md = new_markdown_cell("# t\n\n![x](attachment:x.png)")
    md["attachments"] = {"x.png": {"image/png": png}}
    nb = new_notebook(cells=[code, md, new_raw_cell(""), new_code_cell("")],
                      metadata={"orig_nbformat": 3, "kernelspec": {"name": "python3",
                                "display_name": "Python 3", "language": "python"}})
    return parse_notebook(json.loads(nbjson.writes(nb)))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_notebooks_are_written_as_nbformat_writes_them(path: Path) -> None:
    nb = parse_notebook(path.read_bytes())
    assert NotebookText().text("n", nb) == nbjson.writes(nb)


def test_unicode_bytes_attachments_transients_and_empty() -> None:
    nb = _tricky()
    nb.metadata["orig_nbformat"] = 3
    nb.cells[0].metadata["trusted"] = True
    text = NotebookText()
    assert text.text("n", nb) == nbjson.writes(nb)
    assert "trusted" not in text.text("n", nb) and "orig_nbformat" not in text.text("n", nb)
    assert nb.cells[0].metadata["trusted"] is True  # the notebook itself is untouched
    assert text.text("e", new_notebook()) == nbjson.writes(new_notebook())


async def test_file_matches_after_copy_on_write_updates(tmp_path: Path) -> None:
    store = NotebookStore(tmp_path, fsync=False)
    nb_id = await store.create("t", _tricky())
    target = store.peek(nb_id).cells[0].id

    def run(nb: NotebookNode) -> None:
        _, cell = find_cell(nb, target)
        cell.outputs = [NotebookNode(new_output("stream", name="stdout", text="new\n"))]
        nb.metadata.setdefault("nbcritic", {})["journal_seq"] = 7

    for _ in range(3):
        await store.update(nb_id, run, touches=target)
        await store.update(nb_id, lambda nb: nb.cells.append(new_code_cell("y = 2")))
        on_disk = store.path(nb_id).read_text()
        assert on_disk == nbjson.writes(store.peek(nb_id)) + "\n"
    assert json.loads(on_disk)["cells"][0]["outputs"][0]["text"] == ["new\n"]


async def test_a_one_cell_change_is_still_validated(tmp_path: Path) -> None:
    store = NotebookStore(tmp_path, fsync=False)
    nb_id = await store.create("t", _tricky())
    target = store.peek(nb_id).cells[0].id

    def breaks(nb: NotebookNode) -> None:
        find_cell(nb, target)[1].outputs = [{"output_type": "nonsense"}]

    with pytest.raises(InvalidNotebook):
        await store.update(nb_id, breaks, touches=target)
    with pytest.raises(InvalidNotebook):  # the notebook's own fields too
        await store.update(nb_id, lambda nb: nb.metadata.__setitem__("kernelspec", 5),
                           touches=target)
    assert store.path(nb_id).read_text() == nbjson.writes(store.peek(nb_id)) + "\n"
