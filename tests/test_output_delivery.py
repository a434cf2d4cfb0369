"""Outputs are never lost and a cell that finished is never a timeout, however far the service
falls behind the kernel's IOPub (issue 21). Real kernels; the slow consumer is a callback that
blocks, as a busy service does."""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from services.kernel_env import scrubbed_environment
from services.kernel_session import KernelSession
from services.notebook_service import NotebookService
from services.notebook_store import NotebookStore
from services.status import CellStatus
from tests.conftest import make_settings


@pytest.fixture
async def session() -> AsyncIterator[KernelSession]:
    runtime = Path(tempfile.mkdtemp(prefix="nbc-od-"))
    kernel = await KernelSession.start(kernel_name="python3", transport="ipc",
                                       runtime_dir=runtime, env=scrubbed_environment(),
                                       timeout=60)
    try:
        yield kernel
    finally:
        await kernel.shutdown(now=True)
        shutil.rmtree(runtime, ignore_errors=True)


def _slow_sink(seen: list[dict[str, Any]], delay: float) -> Any:
    def on_message(msg: dict[str, Any]) -> None:
        seen.append(msg)
        time.sleep(delay)  # the event loop is blocked, as when the service falls behind

    return on_message


async def test_no_display_is_dropped_when_the_service_falls_behind(
        session: KernelSession) -> None:
    seen: list[dict[str, Any]] = []
    code = "for i in range(6000):\n    display({'text/plain': str(i)}, raw=True)"
    outcome = await session.execute(code, timeout=300, interrupt_grace=5,
                                    on_message=_slow_sink(seen, 0.001))
    assert outcome.reply is not None and outcome.reply["status"] == "ok"
    shown = [m["content"]["data"]["text/plain"] for m in seen
             if m["msg_type"] == "display_data"]
    assert shown == [str(i) for i in range(6000)]


async def test_a_cell_that_finished_is_not_a_timeout(session: KernelSession) -> None:
    """The kernel is done long before the service has read its outputs: the execute reply,
    not the last IOPub message, says whether the cell beat its deadline."""
    seen: list[dict[str, Any]] = []
    code = "for i in range(150):\n    display({'text/plain': str(i)}, raw=True)"
    outcome = await session.execute(code, timeout=3, interrupt_grace=1,
                                    on_message=_slow_sink(seen, 0.04))
    assert not outcome.timed_out and not outcome.kernel_unusable
    assert outcome.reply is not None and outcome.reply["status"] == "ok"
    assert sum(m["msg_type"] == "display_data" for m in seen) == 150
    again = await session.execute("1 + 1", timeout=30, interrupt_grace=5,
                                  on_message=lambda m: None)
    assert again.reply is not None and again.reply["status"] == "ok"


async def test_every_output_kind_counts_against_the_budget_in_the_journal(
        tmp_path: Path) -> None:
    svc = NotebookService(make_settings(tmp_path, pool_size=0, critic_enabled=False,
                                        output_budget_bytes=20_000, cell_timeout=120.0))
    await svc.start()
    try:
        nb = await svc.create_notebook("displays")
        code = "for i in range(2000):\n    display({'text/plain': 'x' * 100}, raw=True)"
        result = await svc.execute_cell(nb, (await svc.add_cell(nb, source=code)).id)
        assert result.status is CellStatus.OK and result.output_truncated
        events = svc.journal.events(result.execution_id)
        displays = [e for e in events if e.type == "display_data"]
        assert 0 < len(displays) < 200  # ~20 kB of live events, not 2000 rows
        assert sum(e.type == "output_truncated" for e in events) == 1
    finally:
        await svc.stop()


async def test_listing_notebooks_copies_none(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A list needs summaries: with 5 notebooks of 10k outputs, deep copies took 2.3 s."""
    svc = NotebookService(make_settings(tmp_path, pool_size=0))
    for name in ("one", "two"):
        await svc.create_notebook(name)
        await svc.add_cell(name, source="1")

    def no_copy(self: NotebookStore, notebook_id: str) -> None:
        raise AssertionError(f"{notebook_id} was copied to be listed")

    monkeypatch.setattr(NotebookStore, "read", no_copy)
    listed = svc.list_notebooks()
    assert [(n["id"], n["cells"]) for n in sorted(listed, key=lambda n: n["id"])] == [
        ("one", 1), ("two", 1)]
