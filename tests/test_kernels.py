"""Kernel behaviour through NotebookService with real ipykernels: timeouts, dead kernels,
interrupts, restarts, output floods, queueing, parallel notebooks, idle shutdown, env."""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path

import pytest

from services.notebook_service import ExecuteOptions, NotebookService
from services.status import CellStatus
from tests.conftest import make_settings


async def _cell(service: NotebookService, notebook_id: str, source: str) -> str:
    return (await service.add_cell(notebook_id, source=source)).id


async def test_ok_cell_records_outputs_count_and_metadata(service: NotebookService) -> None:
    nb = await service.create_notebook("basic")
    cell = await _cell(service, nb, "x = 20\nprint('hello')\nx + 1")
    result = await service.execute_cell(nb, cell)
    assert result.status is CellStatus.OK
    assert result.execution_count == 1
    assert result.outputs == [
        {"output_type": "stream", "name": "stdout", "text": "hello\n"},
        {"output_type": "execute_result", "metadata": {}, "data": {"text/plain": "21"},
         "execution_count": 1},
    ]
    stored = service.get_cell(nb, cell)
    assert stored.execution_count == 1
    assert stored.outputs == result.outputs
    meta = stored.metadata["nbcritic"]
    assert meta["status"] == "ok"
    assert meta["timing"]["duration_ms"] > 0
    assert [a["attempt"] for a in meta["attempts"]] == [1]
    assert meta["attempts"][0]["code"] == "x = 20\nprint('hello')\nx + 1"
    # the namespace persists between cells of one notebook
    second = await service.execute_cell(nb, await _cell(service, nb, "x * 2"))
    assert second.outputs[0]["data"]["text/plain"] == "40"
    assert second.execution_count == 2


async def test_error_keeps_jupyter_shape_and_kernel_usable(service: NotebookService) -> None:
    nb = await service.create_notebook("err")
    result = await service.execute_cell(nb, await _cell(service, nb, "1/0"))
    assert result.status is CellStatus.ERROR
    assert result.error is not None
    assert result.error["ename"] == "ZeroDivisionError"
    assert isinstance(result.error["traceback"], list) and result.error["traceback"]
    assert result.outputs[-1]["output_type"] == "error"
    ok = await service.execute_cell(nb, await _cell(service, nb, "'still alive'"))
    assert ok.status is CellStatus.OK


async def test_timeout_interrupts_and_kernel_stays_usable(service: NotebookService) -> None:
    nb = await service.create_notebook("slow")
    await service.execute_cell(nb, await _cell(service, nb, "marker = 'kept'"))
    slow = await _cell(service, nb, "import time\nfor i in range(600):\n    time.sleep(0.1)")
    result = await service.execute_cell(nb, slow, ExecuteOptions(timeout=1.0))
    assert result.status is CellStatus.TIMEOUT
    assert result.error is not None and result.error["ename"] == "CellTimeoutError"
    # the loop was stopped part-way (its 60 s of sleeps did not run out)
    stopped_at = await service.execute_cell(nb, await _cell(service, nb, "i"))
    assert int(stopped_at.outputs[0]["data"]["text/plain"]) < 599
    # interrupted, not restarted: the namespace survived
    after = await service.execute_cell(nb, await _cell(service, nb, "marker"))
    assert after.status is CellStatus.OK
    assert after.outputs[0]["data"]["text/plain"] == "'kept'"


async def test_timeout_replaces_a_kernel_that_ignores_the_interrupt(tmp_path: Path) -> None:
    svc = NotebookService(make_settings(tmp_path, interrupt_grace=1.0))
    await svc.start()
    try:
        nb = await svc.create_notebook("stubborn")
        code = ("import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
                "while True:\n    time.sleep(0.05)")
        cell = (await svc.add_cell(nb, source=code)).id
        result = await svc.execute_cell(nb, cell, ExecuteOptions(timeout=1.0))
        assert result.status is CellStatus.TIMEOUT
        assert "replaced" in result.error["evalue"]
        fresh = await svc.execute_cell(nb, (await svc.add_cell(nb, source="'fresh'")).id)
        assert fresh.status is CellStatus.OK
        assert fresh.execution_count == 1  # a new kernel
    finally:
        await svc.stop()


async def test_dead_kernel_then_next_cell_on_fresh_kernel(service: NotebookService) -> None:
    nb = await service.create_notebook("dies")
    await service.execute_cell(nb, await _cell(service, nb, "state = 1"))
    old_kernel = service.kernel_state(nb)["id"]
    result = await service.execute_cell(nb, await _cell(service, nb, "import os\nos._exit(1)"))
    assert result.status is CellStatus.DEAD_KERNEL
    assert result.error["ename"] == "DeadKernelError"
    assert service.get_cell(nb, result.cell_id).metadata["nbcritic"]["status"] == "dead_kernel"
    nxt = await service.execute_cell(nb, await _cell(service, nb, "'state' in globals()"))
    assert nxt.status is CellStatus.OK
    assert nxt.outputs[0]["data"]["text/plain"] == "False"  # fresh namespace
    assert service.kernel_state(nb)["id"] != old_kernel
    assert len(service.get_notebook(nb).cells) == 3  # notebook intact


async def test_endless_print_stays_within_output_budget(tmp_path: Path) -> None:
    budget = 50_000
    svc = NotebookService(make_settings(tmp_path, output_budget_bytes=budget))
    await svc.start()
    try:
        nb = await svc.create_notebook("flood")
        cell = (await svc.add_cell(nb, source="while True:\n    print('y' * 200)")).id
        result = await svc.execute_cell(nb, cell, ExecuteOptions(timeout=2.0))
        assert result.status is CellStatus.TIMEOUT
        assert result.output_truncated
        text = "".join(o.get("text", "") for o in result.outputs if o["output_type"] == "stream")
        assert "output truncated" in text
        assert len(text) < budget + 1000
        on_disk = svc.store.path(nb).stat().st_size
        assert on_disk < budget + 20_000
        # the journal stays bounded too (stream events stop at the budget)
        events = svc.journal.events(result.execution_id)
        streamed = sum(len(e.data.get("text", "")) for e in events if e.type == "stream")
        assert streamed <= budget
    finally:
        await svc.stop()


async def test_interrupt_on_request(service: NotebookService) -> None:
    nb = await service.create_notebook("intr")
    cell = await _cell(service, nb, "import time\ntime.sleep(30)")
    task = asyncio.create_task(service.execute_cell(nb, cell))
    await _wait_busy(service, nb)
    assert await service.interrupt(nb)
    result = await asyncio.wait_for(task, 10)
    assert result.status is CellStatus.INTERRUPTED
    assert result.error["ename"] == "KeyboardInterrupt"


async def test_restart_mid_execution_aborts_and_gives_fresh_namespace(
    service: NotebookService,
) -> None:
    nb = await service.create_notebook("restart")
    await service.execute_cell(nb, await _cell(service, nb, "value = 41"))
    task = asyncio.create_task(service.execute_cell(nb, await _cell(
        service, nb, "import time\ntime.sleep(30)")))
    await _wait_busy(service, nb)
    await service.restart(nb)
    result = await asyncio.wait_for(task, 15)
    assert result.status is CellStatus.ABORTED
    check = await service.execute_cell(nb, await _cell(service, nb, "'value' in globals()"))
    assert check.outputs[0]["data"]["text/plain"] == "False"


async def test_two_executes_on_one_notebook_queue_without_interleaving(
    service: NotebookService,
) -> None:
    nb = await service.create_notebook("queue")
    code = ("import time\nfor i in range(5):\n"
            "    print('{tag}', i, flush=True)\n    time.sleep(0.05)")
    first = await _cell(service, nb, code.format(tag="A"))
    second = await _cell(service, nb, code.format(tag="B"))
    ra, rb = await asyncio.gather(service.execute_cell(nb, first),
                                  service.execute_cell(nb, second))
    assert ra.outputs[0]["text"] == "".join(f"A {i}\n" for i in range(5))
    assert rb.outputs[0]["text"] == "".join(f"B {i}\n" for i in range(5))
    assert rb.execution_count == ra.execution_count + 1
    # the second one started only after the first finished
    assert rb.started_at >= ra.finished_at


# Each cell marks its arrival and waits for the other's mark: they both meet only if they run
# at the same time (one after the other, the first gives up waiting and says "alone").
RENDEZVOUS = """import pathlib, time
pathlib.Path({mine!r}).touch()
for _ in range(600):
    if pathlib.Path({other!r}).exists():
        print("met")
        break
    time.sleep(0.05)
else:
    print("alone")
"""


async def test_different_notebooks_run_in_parallel(tmp_path: Path) -> None:
    svc = NotebookService(make_settings(tmp_path, pool_size=2))
    await svc.start()
    try:
        await svc.pool.wait_warm()
        marks = [str(tmp_path / "p1.mark"), str(tmp_path / "p2.mark")]
        ids = []
        for name, mine, other in (("p1", *marks), ("p2", *reversed(marks))):
            nb = await svc.create_notebook(name)
            source = RENDEZVOUS.format(mine=mine, other=other)
            ids.append((nb, (await svc.add_cell(nb, source=source)).id))
        results = await asyncio.gather(*(svc.execute_cell(nb, c) for nb, c in ids))
        assert all(r.status is CellStatus.OK for r in results)
        assert [r.outputs[0]["text"] for r in results] == ["met\n", "met\n"]
        # and their execution intervals, as the service recorded them, overlap
        (a, b) = results
        assert a.started_at < b.finished_at and b.started_at < a.finished_at
    finally:
        await svc.stop()


async def test_a_hung_notebook_does_not_block_another(service: NotebookService) -> None:
    hung = await service.create_notebook("hung")
    other = await service.create_notebook("other")
    task = asyncio.create_task(service.execute_cell(
        hung, await _cell(service, hung, "import time\ntime.sleep(30)")))
    await _wait_busy(service, hung)
    result = await service.execute_cell(other, await _cell(service, other, "2 + 2"))
    assert result.status is CellStatus.OK
    assert not task.done()  # done while the hung cell was still running, not after it
    await service.interrupt(hung)
    await asyncio.wait_for(task, 10)


async def test_warm_pool_hands_out_ready_kernels(tmp_path: Path) -> None:
    svc = NotebookService(make_settings(tmp_path, pool_size=1))
    await svc.start()
    try:
        await svc.pool.wait_warm()
        nb = await svc.create_notebook("warm")
        cell = (await svc.add_cell(nb, source="1+1")).id
        warm = svc.pool._warm[0]
        result = await svc.execute_cell(nb, cell)
        assert result.status is CellStatus.OK
        # the notebook got the kernel that was already started, not a new one (the speed of
        # that is measured against a pool of 0 in bench/execute_latency.py)
        assert svc._kernels[nb] is warm
        assert svc.pool.cold_starts == 0
        await svc.pool.wait_warm()  # refilled in the background
        assert svc.pool.warm_count == 1
    finally:
        await svc.stop()


async def test_idle_kernel_is_shut_down(tmp_path: Path) -> None:
    svc = NotebookService(make_settings(tmp_path, pool_size=0, idle_kernel_timeout=1.0))
    await svc.start()
    try:
        nb = await svc.create_notebook("idle")
        await svc.execute_cell(nb, (await svc.add_cell(nb, source="1")).id)
        pid = svc._kernels[nb].km.provisioner.process.pid
        assert svc.kernel_state(nb) is not None
        deadline = time.monotonic() + 10
        while svc.kernel_state(nb) is not None and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        assert svc.kernel_state(nb) is None
        await _wait_gone(pid)
    finally:
        await svc.stop()


async def test_stop_leaves_no_kernel_processes(tmp_path: Path) -> None:
    svc = NotebookService(make_settings(tmp_path, pool_size=2))
    await svc.start()
    await svc.pool.wait_warm()
    nb = await svc.create_notebook("orphans")
    await svc.execute_cell(nb, (await svc.add_cell(nb, source="1")).id)
    pids = [s.km.provisioner.process.pid for s in svc.pool._live]
    assert len(pids) >= 2
    await svc.stop()
    for pid in pids:
        await _wait_gone(pid)


async def test_kernel_environment_is_scrubbed(tmp_path: Path, monkeypatch:
                                              pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-secret")
    monkeypatch.setenv("NBCRITIC_TOKEN", "service-token")
    monkeypatch.setenv("HARMLESS_SETTING", "visible")
    monkeypatch.setenv("DATABASE_URL", "postgres://user:secret@db/x")  # not a secret by name
    svc = NotebookService(make_settings(tmp_path, pool_size=0,
                                        kernel_env_allow=["HARMLESS_SETTING"]))
    await svc.start()
    try:
        nb = await svc.create_notebook("env")
        code = ("import os, json\njson.dumps([os.environ.get(k) for k in "
                "('ANTHROPIC_API_KEY', 'NBCRITIC_TOKEN', 'HARMLESS_SETTING', 'DATABASE_URL')])")
        result = await svc.execute_cell(nb, (await svc.add_cell(nb, source=code)).id)
        values = json.loads(eval(result.outputs[0]["data"]["text/plain"]))
        assert values == [None, None, "visible", None]  # an allowlist, not a denylist
    finally:
        await svc.stop()


async def test_run_all_in_order_stops_at_first_failure(service: NotebookService) -> None:
    nb = await service.create_notebook("runall")
    await service.add_cell(nb, source="a = 1")
    await service.add_cell(nb, source="# title", cell_type="markdown")
    await service.add_cell(nb, source="b = a + 1\nb")
    expected = await service.add_cell(nb, source="1/0", metadata={"tags": ["raises-exception"]})
    await service.add_cell(nb, source="skipped = True",
                           metadata={"tags": ["skip-execution"]})
    await service.add_cell(nb, source="undefined_name")
    never = await service.add_cell(nb, source="c = 3")
    results = await service.run_all(nb)
    statuses = [r.status.value for r in results]
    assert statuses == ["ok", "ok", "error", "ok", "error"]
    assert results[2].cell_id == expected.id and results[2].expected_error
    assert results[3].skipped
    assert results[4].error["ename"] == "NameError"
    assert never.id not in {r.cell_id for r in results}
    record = service.journal.execution(results[0].execution_id)
    assert record.result["status"] == "error"
    assert record.result["not_run"] == [never.id]


async def test_journal_records_every_step_in_order(service: NotebookService) -> None:
    nb = await service.create_notebook("journal")
    cell = await _cell(service, nb, "print('a')\nimport sys\nprint('b', file=sys.stderr)\n3")
    result = await service.execute_cell(nb, cell)
    events = service.journal.events(result.execution_id)
    seqs = [e.seq for e in events]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    types = [e.type for e in events]
    assert types[0] == "status" and events[0].data["state"] == "queued"
    assert "attempt_started" in types and "execute_result" in types
    assert types[-2:] == ["final", "done"]
    assert {e.data["name"] for e in events if e.type == "stream"} == {"stdout", "stderr"}


async def _wait_busy(service: NotebookService, notebook_id: str) -> None:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        state = service.kernel_state(notebook_id)
        if state and state["busy"]:
            await asyncio.sleep(0.3)  # let the cell actually start running
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the cell never started")


async def _wait_gone(pid: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        # a zombie counts as gone: it runs no code
        try:
            with open(f"/proc/{pid}/stat") as handle:
                if handle.read().split(")")[-1].split()[0] == "Z":
                    return
        except FileNotFoundError:
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"kernel process {pid} still running")
