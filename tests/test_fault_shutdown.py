"""A server that stops on time (issue 21): SIGTERM while clients are attached - a synchronous
execute waiting, an SSE stream following, an execution queued - ends them `aborted` with a
reason and the process exits, however long the running cell would take. A real `nbcritic
serve` process on 127.0.0.1, real kernels."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from services.notebook_service import NotebookService, ServiceStopping
from tests.conftest import make_settings
from tests.test_cli import ServerProcess

LONG_CELL = "import time\ntime.sleep(600)"


def _wait_running(client: httpx.Client, execution_id: str) -> None:
    for _ in range(600):  # bounded: 60 s of polls
        if client.get(f"/api/executions/{execution_id}").json()["state"] == "running":
            return
        time.sleep(0.1)
    raise AssertionError("the execution never started")


def _wait_queued(server: ServerProcess, nb: str, count: int) -> None:
    with server.client() as client:
        for _ in range(600):
            if len(client.get(f"/api/notebooks/{nb}/executions").json()["executions"]) >= count:
                return
            time.sleep(0.1)
    raise AssertionError("the execute never queued")


def _follow(server: ServerProcess, execution_id: str, seen: list[dict[str, Any]]) -> None:
    with server.client() as client, client.stream(
            "GET", f"/api/executions/{execution_id}/events", timeout=120) as response:
        kind = None
        for line in response.iter_lines():
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: ") and kind == "done":
                seen.append(json.loads(line[6:]))


def _execute(server: ServerProcess, path: str, answers: list[httpx.Response]) -> None:
    with server.client() as client:
        answers.append(client.post(path, json={}, timeout=120))


def test_sigterm_with_clients_attached_stops_on_time(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path)
    try:
        with server.client() as client:
            nb = client.post("/api/notebooks", json={"id": "slow"}).json()["id"]
            cell = client.post(f"/api/notebooks/{nb}/cells", json={"source": LONG_CELL}
                               ).json()["id"]
            path = f"/api/notebooks/{nb}/cells/{cell}/execute"
            running = client.post(path + "?wait=false", json={}).json()["id"]
            _wait_running(client, running)
        streamed: list[dict[str, Any]] = []
        answers: list[httpx.Response] = []
        threads = [threading.Thread(target=_follow, args=(server, running, streamed)),
                   threading.Thread(target=_execute, args=(server, path, answers))]
        for thread in threads:
            thread.start()
        _wait_queued(server, nb, 2)  # the execute queued behind the running cell
        time.sleep(0.5)  # the stream attached (a short grace; the assertions say if not)
        server.proc.send_signal(signal.SIGTERM)
        try:
            server.proc.wait(timeout=90)  # the cell would run 600 s
        except subprocess.TimeoutExpired:
            raise AssertionError("the server did not stop after SIGTERM") from None
        for thread in threads:
            thread.join(timeout=30)
        assert [s["status"] for s in streamed] == ["aborted"]
        assert "stopping" in streamed[0]["reason"]
        assert [a.status_code for a in answers] == [409]
        assert answers[0].json()["code"] == "execution_aborted"
    finally:
        server.stop(signal.SIGKILL)


def test_after_sigkill_the_cut_off_run_reports_what_finished(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path)
    try:
        with server.client() as client:
            nb = client.post("/api/notebooks", json={"id": "cut"}).json()["id"]
            cells = [client.post(f"/api/notebooks/{nb}/cells", json={"source": source}
                                 ).json()["id"] for source in ("a = 1", "b = a + 1", LONG_CELL)]
            run = client.post(f"/api/notebooks/{nb}/run?wait=false", json={}).json()["id"]
            second = f"/api/notebooks/{nb}/cells/{cells[1]}"
            for _ in range(600):  # bounded: until the second cell has its result
                if client.get(second).json().get("execution_count") is not None:
                    break
                time.sleep(0.1)
            else:
                raise AssertionError("the second cell never finished")
        killed_kernels = set(_runtime_root(tmp_path).iterdir())
        assert killed_kernels  # the killed service's dir of kernel dirs (IPC sockets)
    finally:
        server.stop(signal.SIGKILL)
    restarted = ServerProcess(tmp_path)
    try:
        with restarted.client() as client:
            record = client.get(f"/api/executions/{run}").json()
        assert not killed_kernels & set(_runtime_root(tmp_path).iterdir())  # cleaned at start
        assert record["status"] == "aborted"
        assert [r["cell_id"] for r in record["results"]] == cells[:2]
        assert [r["status"] for r in record["results"]] == ["ok", "ok"]
        assert record["not_run"] == cells[2:]
    finally:
        restarted.stop()


def _runtime_root(data_dir: Path) -> Path:
    """Where services keep their kernels' private dirs, one dir per service process
    (services.kernel_isolation)."""
    digest = hashlib.sha256(str(data_dir.resolve()).encode()).hexdigest()[:10]
    return Path(tempfile.gettempdir()) / f"nbcritic-{os.geteuid()}-{digest}"


async def test_a_draining_service_refuses_new_executions(tmp_path: Path) -> None:
    """After SIGTERM nothing new runs: a request that slips in gets 503 service_stopping."""
    svc = NotebookService(make_settings(tmp_path, pool_size=0))
    await svc.start()
    try:
        nb = await svc.create_notebook("late")
        cell = (await svc.add_cell(nb, source="1")).id
        await svc.drain("the service is stopping")
        with pytest.raises(ServiceStopping, match="stopping"):
            svc.start_execution(nb, [cell])
    finally:
        await svc.stop()
