"""Journal retention (`journal_keep_executions`): a notebook's older executions lose their
bulky output (output events; `outputs` in results) and keep everything else; the newest keep
all, so SSE resumption and the REST API of recent executions are unchanged."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from services.database import open_sqlite
from services.journal import OUTPUT_EVENTS, Journal
from services.notebook_service import NotebookService
from services.status import ExecutionState

from .conftest import LiveServer, make_settings, new_notebook

BIG = 'print("x" * 200_000)'


def _finished(journal: Journal, notebook_id: str, n: int, *, text: str = "x" * 1000) -> str:
    execution_id = f"e{n}"
    journal.create_execution(execution_id, notebook_id, "cell", ["c"])
    journal.append(execution_id, notebook_id, "c", "stream", {"name": "stdout", "text": text})
    outputs = [{"output_type": "stream", "name": "stdout", "text": text}]
    final = {"cell_id": "c", "status": "ok", "outputs": outputs,
             "critique": {"findings": [{"rule_id": "r"}]}}
    journal.append(execution_id, notebook_id, "c", "final", final)
    summary = {"state": "done", "status": "ok", "results": [final], "not_run": []}
    journal.set_state(execution_id, ExecutionState.DONE, summary)
    journal.append(execution_id, notebook_id, None, "done", summary)
    return execution_id


def _types(journal: Journal, execution_id: str) -> list[str]:
    return [e.type for e in journal.events(execution_id)]


def test_older_executions_lose_outputs_and_keep_the_rest(
        journal_store: Callable[[], Journal]) -> None:
    journal = journal_store()
    ids = [_finished(journal, "nb", n) for n in range(4)]
    journal.create_execution("running", "nb", "cell", ["c"])  # unfinished: never touched
    journal.append("running", "nb", "c", "stream", {"name": "stdout", "text": "y"})

    compacted = journal.compact_outputs("nb", keep=3, written_seq=10**9)

    assert compacted == ids[:2]  # the newest 3 (running included) stay whole
    for old in ids[:2]:
        assert _types(journal, old) == ["final", "done"]
        (final,) = journal.events_of_type(old, "final")
        assert final.data["outputs"] == [] and final.data["outputs_pruned"] is True
        assert final.data["status"] == "ok" and final.data["critique"]["findings"]
        record = journal.execution(old)
        assert record is not None and record.state == "done" and record.result is not None
        assert record.result["status"] == "ok" and record.result["outputs_pruned"] is True
        assert record.result["results"][0]["outputs"] == []
        assert record.result["results"][0]["critique"] == {"findings": [{"rule_id": "r"}]}
        (done,) = journal.events_of_type(old, "done")
        assert done.data == record.result
    for kept in ids[2:]:
        assert _types(journal, kept) == ["stream", "final", "done"]
    assert _types(journal, "running") == ["stream"]
    assert journal.compact_outputs("nb", keep=3, written_seq=10**9) == []  # done once
    journal.close()


def test_results_the_notebook_file_lacks_are_kept_for_replay(
        journal_store: Callable[[], Journal]) -> None:
    journal = journal_store()
    first, second, _third = (_finished(journal, "nb", n) for n in range(3))
    (first_final,) = journal.events_of_type(first, "final")

    # the file holds the first execution's result, not the second's
    assert journal.compact_outputs("nb", keep=1, written_seq=first_final.seq) == [first]
    assert "stream" in _types(journal, second)
    (final,) = journal.events_of_type(second, "final")
    assert final.data["outputs"]  # still there for `_replay_unwritten_results`
    journal.close()


async def _run_big(svc: NotebookService, notebook_id: str, cell_id: str, n: int) -> list[str]:
    ids = []
    for _ in range(n):
        result = await svc.execute_cell(notebook_id, cell_id)
        assert result.status.value == "ok"
        ids.append(result.execution_id)
        await svc.store.flush_all()  # as the background write would, before the next one
    return ids


def _journal_bytes(svc: NotebookService) -> int:
    svc.journal.commit()
    conn = open_sqlite(svc.journal.path)
    try:
        events = conn.execute("SELECT coalesce(sum(length(data)), 0) FROM events").fetchone()[0]
        results = conn.execute(
            "SELECT coalesce(sum(length(result)), 0) FROM executions").fetchone()[0]
    finally:
        conn.close()
    return events + results


async def test_the_journal_stays_bounded_through_real_executions(tmp_path: Path) -> None:
    svc = NotebookService(make_settings(tmp_path, journal_keep_executions=2))
    await svc.start()
    try:
        nb = await svc.create_notebook()
        cell = await svc.add_cell(nb, source=BIG)
        first = await _run_big(svc, nb, cell.id, 2)
        two = _journal_bytes(svc)
        ids = first + await _run_big(svc, nb, cell.id, 6)
        # eight executions of 200 KB take what about two and a half do, not eight
        assert _journal_bytes(svc) < 1.5 * two
        for old in ids[:-3]:
            assert not set(_types(svc.journal, old)) & set(OUTPUT_EVENTS)
        for kept in ids[-2:]:
            assert "stream" in _types(svc.journal, kept)
        stored = svc.get_cell(nb, cell.id)
        assert stored.outputs[0]["text"] == "x" * 200_000 + "\n"  # the notebook keeps them
        # an old execution's event stream still ends (final, then done)
        seen = [e.type async for e in _follow(svc, ids[0])]
        assert seen[-2:] == ["final", "done"]
    finally:
        await svc.stop()

    again = NotebookService(make_settings(tmp_path, journal_keep_executions=1))
    await again.start()  # a lower setting applies at start
    try:
        assert not set(_types(again.journal, ids[-2])) & set(OUTPUT_EVENTS)
        assert "stream" in _types(again.journal, ids[-1])
    finally:
        await again.stop()


async def _follow(svc: NotebookService, execution_id: str):  # type: ignore[no-untyped-def]
    async with asyncio.timeout(30):
        async for event in svc.hub.follow(execution_id):
            if event is not None:
                yield event


def test_rest_api_of_a_compacted_execution(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, journal_keep_executions=2)
    with LiveServer(settings) as server, server.client() as api:
        notebook_id, (cell_id,) = new_notebook(api, BIG)
        url = f"/api/notebooks/{notebook_id}/cells/{cell_id}/execute"
        old = api.post(url).json()["execution_id"]
        body: dict[str, Any] = {}
        for _ in range(20):  # each finish compacts what the notebook file already holds
            latest = api.post(url).json()["execution_id"]
            body = api.get(f"/api/executions/{old}").json()
            if body["results"][0].get("outputs_pruned"):
                break
        assert body["status"] == "ok" and body["results"][0]["status"] == "ok"
        assert body["results"][0]["outputs"] == []
        assert body["results"][0]["outputs_pruned"] is True
        assert _sse_types(api, old)[-2:] == ["final", "done"]
        assert "stream" not in _sse_types(api, old)
        whole = api.get(f"/api/executions/{latest}").json()
        assert whole["results"][0]["outputs"][0]["text"].startswith("xxx")
        assert "stream" in _sse_types(api, latest, after=0)  # the newest stay whole


def _sse_types(api: httpx.Client, execution_id: str, **params: Any) -> list[str]:
    with api.stream("GET", f"/api/executions/{execution_id}/events", params=params) as r:
        return [line[len("event: "):] for line in r.iter_lines() if line.startswith("event: ")]
