"""Two `nbcritic serve` processes on one PostgreSQL database, one Kernel Gateway and one data
dir (real servers on loopback): a notebook made on A runs on B while A streams its events; B
killed with SIGKILL in the middle of a run: the execution ends `aborted` on A (B's lease, an
advisory lock, went with its connection), the events B wrote stay, and A serves the notebook;
and one execution per notebook holds across the replicas."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import new_notebook
from tests.kernel_gateway import kernel_gateway
from tests.replica_process import replica
from tests.test_api import _events

SLOW = "import time\nfor i in range(200):\n    print('tick', i, flush=True)\n    time.sleep(0.1)"


@pytest.fixture(scope="module")
def gateway_url() -> Iterator[str]:
    with kernel_gateway() as url:
        yield url


def _until(check: object, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return
        time.sleep(0.1)
    raise AssertionError(f"not within {timeout} s: {what}")


def test_two_replicas_share_notebooks_executions_and_a_failure(
        tmp_path: Path, pg_schema_url: str, gateway_url: str) -> None:
    data = tmp_path / "data"
    with replica(data, pg_schema_url, gateway_url, tmp_path / "a.log") as (_, a), \
            replica(data, pg_schema_url, gateway_url, tmp_path / "b.log") as (b_proc, b):
        nb, (quick, slow) = new_notebook(a, "x = 6 * 7\nprint(x)", SLOW)
        # A writes the notebook file behind a short delay; B reads the shared file
        _until(lambda: b.get(f"/api/notebooks/{nb}/cells/{slow}").status_code == 200,
               "B sees the notebook A made")

        # create on A, execute on B, stream the events from A
        location = b.post(f"/api/notebooks/{nb}/cells/{quick}/execute?wait=false"
                          ).headers["location"]
        events = _events(a, location + "/events")
        assert events[-1]["event"] == "done" and events[-1]["data"]["status"] == "ok"
        assert "".join(e["data"]["text"] for e in events if e["event"] == "stream") == "42\n"

        # one execution per notebook across replicas: A's run of the notebook waits for B's
        running = b.post(f"/api/notebooks/{nb}/cells/{slow}/execute?wait=false"
                         ).headers["location"]
        first = _events(a, running + "/events", stop_after=6)  # B is printing ticks
        assert any(e["event"] == "stream" for e in first)
        queued = a.post(f"/api/notebooks/{nb}/cells/{quick}/execute?wait=false"
                        ).headers["location"]
        time.sleep(1.0)
        assert a.get(queued).json()["state"] != "running"

        # B dies in the middle of the run
        os.killpg(b_proc.pid, signal.SIGKILL)
        b_proc.wait(10)
        rest = _events(a, running + "/events",
                       headers={"Last-Event-ID": str(first[-1]["id"])})
        assert rest[-1]["event"] == "done"
        assert rest[-1]["data"]["status"] == "aborted"
        record = a.get(running).json()
        assert record["state"] == "done" and record["status"] == "aborted"
        ticks = [e for e in first + rest if e["event"] == "stream"]
        assert ticks and all(e["data"]["text"].startswith("tick") for e in ticks)
        # what B wrote before it died is all still in the journal, in order
        again = [e["id"] for e in _events(a, running + "/events")]
        assert again[: len(first)] == [e["id"] for e in first]

        # the notebook lock went with B: A's queued run now runs, and A serves the notebook
        after = _events(a, queued + "/events")
        assert after[-1]["data"]["status"] == "ok"
        assert a.get(f"/api/notebooks/{nb}").status_code == 200
