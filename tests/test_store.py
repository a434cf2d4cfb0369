"""Notebook files: validation, atomic writes, import of any nbformat 4.x, ids, the journal."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from services.journal import Journal
from services.notebook_store import (
    InvalidNotebook,
    InvalidNotebookId,
    NotebookExists,
    NotebookNotFound,
    NotebookStore,
    check_notebook_id,
    parse_notebook,
)
from services.status import ExecutionState


def _v4_minor(minor: int) -> dict:
    cell = {"cell_type": "code", "metadata": {}, "source": ["x = 1\n", "x"], "outputs": [],
            "execution_count": None}
    return {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": minor}


@pytest.mark.parametrize("minor", [0, 1, 2, 3, 4, 5])
def test_any_nbformat_4_minor_is_imported_with_cell_ids(minor: int) -> None:
    raw = _v4_minor(minor)
    if minor == 5:
        raw["cells"][0]["id"] = "keep-me"
    nb = parse_notebook(json.dumps(raw))
    assert nb.nbformat == 4 and nb.nbformat_minor == 5
    assert nb.cells[0].source == "x = 1\nx"  # line lists rejoined
    assert nb.cells[0].id == ("keep-me" if minor == 5 else nb.cells[0].id)
    assert nb.cells[0].id
    nbformat.validate(nb)


@pytest.mark.parametrize("content, fragment", [
    (b"{not json", "not JSON"),
    (b"[1, 2]", "JSON object"),
    (json.dumps({"nbformat": 3, "nbformat_minor": 0, "worksheets": []}), "nbformat 4"),
    (json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}}), "cells"),
    (json.dumps({**_v4_minor(5), "cells": [{"cell_type": "code", "id": "a", "metadata": {},
                                            "source": "", "outputs": "nope",
                                            "execution_count": None}]}), "nope"),
])
def test_invalid_notebooks_are_refused_with_nbformats_message(content: bytes | str,
                                                               fragment: str) -> None:
    with pytest.raises(InvalidNotebook) as info:
        parse_notebook(content)
    assert fragment in str(info.value)


@pytest.mark.parametrize("bad", ["../etc/passwd", "..", "a/b", "a\\b", ".hidden", "",
                                 "x" * 129, "a..b", "nb\x00", "/abs"])
def test_path_traversal_and_odd_ids_are_refused(bad: str, tmp_path: Path) -> None:
    store = NotebookStore(tmp_path)
    with pytest.raises(InvalidNotebookId):
        check_notebook_id(bad)
    with pytest.raises(InvalidNotebookId):
        store.path(bad)


async def test_create_read_update_delete(tmp_path: Path) -> None:
    store = NotebookStore(tmp_path)
    notebook_id = await store.create("analysis")
    with pytest.raises(NotebookExists):
        await store.create("analysis")
    await store.update(notebook_id, lambda nb: nb.cells.append(new_code_cell("1 + 1")))
    on_disk = nbformat.read(store.path(notebook_id), as_version=4)
    nbformat.validate(on_disk)
    assert on_disk.cells[0].source == "1 + 1"
    assert store.list_ids() == ["analysis"]
    await store.delete(notebook_id)
    with pytest.raises(NotebookNotFound):
        store.read(notebook_id)


async def test_an_invalid_change_writes_nothing(tmp_path: Path) -> None:
    store = NotebookStore(tmp_path)
    notebook_id = await store.create("safe", new_notebook(cells=[new_code_cell("a = 1")]))
    before = store.path(notebook_id).read_bytes()

    def break_it(nb: nbformat.NotebookNode) -> None:
        nb.cells[0]["outputs"] = [{"output_type": "no-such-type"}]

    with pytest.raises(InvalidNotebook):
        await store.update(notebook_id, break_it)
    assert store.path(notebook_id).read_bytes() == before
    assert store.read(notebook_id).cells[0].outputs == []
    assert not list(tmp_path.glob(".*.tmp")), "temp file left behind"


async def test_write_is_atomic_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = NotebookStore(tmp_path, fsync=True)
    notebook_id = await store.create("atomic")
    before = store.path(notebook_id).read_bytes()

    def crash(*_args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError):
        await store.update(notebook_id, lambda nb: nb.cells.append(new_code_cell("x")))
    assert store.path(notebook_id).read_bytes() == before  # old file untouched
    assert not list(tmp_path.glob(".*.tmp"))


async def test_external_edit_is_picked_up(tmp_path: Path) -> None:
    store = NotebookStore(tmp_path)
    notebook_id = await store.create("external")
    nb = new_notebook(cells=[new_code_cell("edited outside")])
    path = store.path(notebook_id)
    nbformat.write(nb, path)
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 1_000_000))
    assert store.read(notebook_id).cells[0].source == "edited outside"


def test_journal_sequence_and_execution_records(
        journal_store: Callable[[], Journal]) -> None:
    journal = journal_store()
    journal.create_execution("e1", "nb", "cell", ["c1"])
    first = journal.append("e1", "nb", "c1", "stream", {"text": "a"})
    second = journal.append("e1", "nb", "c1", "stream", {"text": "b"})
    journal.append("e2", "nb", "c1", "stream", {"text": "other"})
    assert second.seq > first.seq
    assert [e.data["text"] for e in journal.events("e1")] == ["a", "b"]
    assert [e.data["text"] for e in journal.events("e1", after_seq=first.seq)] == ["b"]
    assert [e.id for e in journal.unfinished()] == ["e1"]
    journal.set_state("e1", ExecutionState.DONE, {"status": "ok"})
    assert journal.execution("e1").result == {"status": "ok"}
    assert journal.unfinished() == []
    journal.close()
    reopened = journal_store()  # durable across a restart
    assert len(reopened.events("e1")) == 2
    if type(reopened) is Journal:  # SQLite
        assert reopened._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
