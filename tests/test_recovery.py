"""A service killed between journaling a result and writing the notebook file loses nothing:
the next start replays the journal's `final` events into the file."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from services.notebook_service import NotebookService
from services.notebook_store import NotebookStore
from tests.conftest import make_settings


async def test_results_not_yet_written_are_replayed_on_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = make_settings(tmp_path, pool_size=0)
    first = NotebookService(settings)
    await first.start()
    nb = await first.create_notebook("crash")
    cell = (await first.add_cell(nb, source="print('survives')")).id
    # the background file write never happens: as if the process died right after the journal
    monkeypatch.setattr(NotebookStore, "_schedule_flush", lambda self, notebook_id: None)
    result = await first.execute_cell(nb, cell)
    assert result.status.value == "ok"
    on_disk = nbformat.read(first.store.path(nb), as_version=4)
    assert on_disk.cells[0].outputs == []  # the file really is behind
    await first.pool.close()  # kernels go; no flush, no orderly stop
    first.journal.close()
    monkeypatch.undo()

    second = NotebookService(settings)
    await second.start()
    try:
        replayed = nbformat.read(second.store.path(nb), as_version=4)
        nbformat.validate(replayed)
        assert replayed.cells[0].outputs[0]["text"] == "survives\n"
        assert replayed.cells[0].metadata["nbcritic"]["status"] == "ok"
        assert replayed.metadata["nbcritic"]["journal_seq"] > 0
        # a second start finds nothing left to replay and changes nothing
        before = second.store.path(nb).read_bytes()
        await second._replay_unwritten_results()
        assert second.store.path(nb).read_bytes() == before
    finally:
        await second.stop()


async def test_stop_writes_pending_changes(tmp_path: Path) -> None:
    service = NotebookService(make_settings(tmp_path, pool_size=0))
    await service.start()
    nb = await service.create_notebook("pending")
    cell = (await service.add_cell(nb, source="21 * 2")).id
    await service.execute_cell(nb, cell)
    await service.stop()
    stored = nbformat.read(tmp_path / "notebooks" / "pending.ipynb", as_version=4)
    assert stored.cells[0].outputs[0]["data"]["text/plain"] == "42"
