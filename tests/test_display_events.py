"""A display shown with a display id carries that id in its live event (`transient`, as in
Jupyter's message), so a client can apply the later `update_display_data` to it while the cell
runs; the stored output stays plain nbformat. Real kernel."""

from __future__ import annotations

from pathlib import Path

import nbformat

from services.notebook_service import NotebookService
from services.status import CellStatus
from tests.conftest import make_settings

CODE = """\
handle = display({'text/plain': 'stage 0'}, raw=True, display_id=True)
handle.update({'text/plain': 'stage 1'}, raw=True)
display({'text/plain': 'no id'}, raw=True)
"""


async def test_display_events_carry_the_display_id_their_updates_name(tmp_path: Path) -> None:
    svc = NotebookService(make_settings(tmp_path, pool_size=0, critic_enabled=False))
    await svc.start()
    try:
        nb = await svc.create_notebook("displays")
        result = await svc.execute_cell(nb, (await svc.add_cell(nb, source=CODE)).id)
        assert result.status is CellStatus.OK
        events = svc.journal.events(result.execution_id)
        shown = [e.data for e in events if e.type == "display_data"]
        (update,) = [e.data for e in events if e.type == "update_display_data"]
        assert shown[0]["transient"] == {"display_id": update["display_id"]}
        assert "transient" not in shown[1]  # no id, no transient
        assert update["data"] == {"text/plain": "stage 1"}
        saved = svc.get_notebook(nb)
        nbformat.validate(saved)  # the stored outputs have no transient key
        assert [o["data"]["text/plain"] for o in saved.cells[0].outputs] == ["stage 1", "no id"]
    finally:
        await svc.stop()
