"""The command line: `nbcritic run` (headless) and `nbcritic serve` as a real process,
including a killed and restarted service and the kernels it leaves (none)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from tests.conftest import free_port

NBCRITIC = [sys.executable, "-m", "app.cli"]
ROOT = Path(__file__).resolve().parent.parent


def _write(path: Path, *cells: nbformat.NotebookNode) -> Path:
    nbformat.write(new_notebook(cells=list(cells)), path)
    return path


# `nbcritic run` keeps lessons and improvement requests in the data directory: not the repo's
DATA_DIR = Path(tempfile.mkdtemp(prefix="nbcritic-cli-tests-"))


def _run(*args: str, data_dir: Path = DATA_DIR) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NBCRITIC_DATA_DIR": str(data_dir)}
    return subprocess.run([*NBCRITIC, *args], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env=env)


def test_run_writes_the_executed_notebook_and_exits_0(tmp_path: Path) -> None:
    source = _write(tmp_path / "ok.ipynb", new_markdown_cell("# Title"),
                    new_code_cell("total = sum(range(10))"), new_code_cell("print(total)"))
    out = tmp_path / "out.ipynb"
    proc = _run("run", str(source), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    executed = nbformat.read(out, as_version=4)
    nbformat.validate(executed)
    assert executed.cells[2].outputs[0]["text"] == "45\n"
    assert executed.cells[2].metadata["nbcritic"]["status"] == "ok"
    assert [c.id for c in executed.cells] == [c.id for c in nbformat.read(source, 4).cells]
    assert nbformat.read(source, as_version=4).cells[2].outputs == []  # input untouched


def test_run_is_a_ci_gate_for_analysis_flaws(tmp_path: Path) -> None:
    """A notebook that runs cleanly but leaks and tests uncorrected exits 3 with the findings
    listed; its sound twin exits 0; the thresholds and switches change the verdict."""
    flawed = ROOT / "notebooks" / "flawed_analysis.ipynb"
    out = tmp_path / "flawed.out.ipynb"
    proc = _run("run", str(flawed), "-o", str(out))
    assert proc.returncode == 3, proc.stderr
    assert "CRITICAL" in proc.stderr
    assert "leakage.fit_saw_heldout_rows" in proc.stderr
    assert "multiple_comparisons.uncorrected" in proc.stderr
    executed = nbformat.read(out, as_version=4)
    rule_ids = {f["rule_id"] for c in executed.cells if c.cell_type == "code"
                for f in c.metadata["nbcritic"].get("critique", {}).get("findings", [])}
    assert {"leakage.fit_saw_heldout_rows", "multiple_comparisons.uncorrected"} <= rule_ids
    assert _run("run", str(flawed), "-o", str(out), "--fail-on", "never").returncode == 0
    assert _run("run", str(flawed), "-o", str(out), "--no-critic").returncode == 0
    skipped = _run("run", str(flawed), "-o", str(out), "--disable-rule", "leakage",
                   "--disable-rule", "multiple_comparisons.*")
    assert skipped.returncode == 0, skipped.stderr
    sound = _run("run", str(ROOT / "notebooks" / "sound_analysis.ipynb"), "-o", str(out))
    assert sound.returncode == 0, sound.stderr
    assert "0 finding(s)" in sound.stderr


def test_run_exits_nonzero_when_a_cell_is_not_ok(tmp_path: Path) -> None:
    source = _write(tmp_path / "bad.ipynb", new_code_cell("x = 1"),
                    new_code_cell("x.missing"), new_code_cell("print('never')"))
    proc = _run("run", str(source))
    assert proc.returncode == 1
    assert "AttributeError" in proc.stderr
    default_out = tmp_path / "bad.nbcritic.ipynb"
    executed = nbformat.read(default_out, as_version=4)
    assert executed.cells[1].metadata["nbcritic"]["status"] == "error"
    assert executed.cells[2].outputs == []  # stopped at the failure


def test_run_skips_an_empty_cell_like_jupyter(tmp_path: Path) -> None:
    source = _write(tmp_path / "gap.ipynb", new_code_cell("x = 1"), new_code_cell("  \n"),
                    new_code_cell("print(x + 1)"))
    out = tmp_path / "gap.out.ipynb"
    proc = _run("run", str(source), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    executed = nbformat.read(out, as_version=4)
    assert executed.cells[2].outputs[0]["text"] == "2\n"
    assert executed.cells[2].metadata["nbcritic"]["status"] == "ok"
    assert "skipped" in proc.stderr


def test_run_that_cannot_run_every_cell_never_exits_0(tmp_path: Path) -> None:
    # a prompt cell needs a code generator, and this run has none (no API key)
    prompt = new_code_cell("", metadata={"nbcritic": {"prompt": "plot the totals"}})
    source = _write(tmp_path / "prompt.ipynb", new_code_cell("x = 1"), prompt,
                    new_code_cell("print(x)"))
    env_key = {k: v for k, v in os.environ.items() if "ANTHROPIC" not in k}
    proc = subprocess.run([*NBCRITIC, "run", str(source)], capture_output=True, text=True,
                          timeout=120, cwd=ROOT,
                          env={**env_key, "NBCRITIC_DATA_DIR": str(tmp_path / "data")})
    assert proc.returncode == 1, proc.stderr
    assert "aborted" in proc.stderr


def test_run_accepts_raises_exception_and_honours_timeout(tmp_path: Path) -> None:
    expected = new_code_cell("raise ValueError('documented')",
                             metadata={"tags": ["raises-exception"]})
    source = _write(tmp_path / "tags.ipynb", expected, new_code_cell("'after'"))
    assert _run("run", str(source)).returncode == 0
    slow = _write(tmp_path / "slow.ipynb", new_code_cell("import time\ntime.sleep(30)"))
    proc = _run("run", str(slow), "--timeout", "1")
    assert proc.returncode == 1 and "timeout" in proc.stderr


def test_run_refuses_missing_and_invalid_files(tmp_path: Path) -> None:
    assert _run("run", str(tmp_path / "absent.ipynb")).returncode == 2
    broken = tmp_path / "broken.ipynb"
    broken.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "cells": 3,
                                  "metadata": {}}))
    proc = _run("run", str(broken))
    assert proc.returncode == 2 and "invalid notebook" in proc.stderr


# -- the service as a process ---------------------------------------------------------------

class ServerProcess:
    def __init__(self, data_dir: Path, token: str | None = "cli-token"):
        self.port = free_port()
        args = [*NBCRITIC, "serve", "--port", str(self.port), "--data-dir", str(data_dir),
                "--pool-size", "1", "--log-level", "warning"]
        if token:
            args += ["--token", token]
        env = {k: v for k, v in os.environ.items() if not k.startswith("NBCRITIC_")}
        self.proc = subprocess.Popen(args, cwd=ROOT, env=env, stderr=subprocess.PIPE,
                                     text=True)
        self.url = f"http://127.0.0.1:{self.port}"
        self.token = token or self._read_token()
        self._wait_up()

    def _read_token(self) -> str:
        assert self.proc.stderr is not None
        for _ in range(20):
            line = self.proc.stderr.readline()
            if line.startswith("token"):
                return line.split(": ", 1)[1].strip()
        raise AssertionError("no token printed")

    def _wait_up(self) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/health", timeout=1).json()["status"] == "ok":
                    return
            except httpx.HTTPError:
                pass
            assert self.proc.poll() is None, "server exited"
            time.sleep(0.05)
        raise AssertionError("server did not come up")

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=60,
                            headers={"Authorization": f"Bearer {self.token}"})

    def kernel_pids(self) -> list[int]:
        return _children(self.proc.pid)

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(timeout=30)


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _wait_dead(pids: list[int], timeout: float = 15.0) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and any(_alive(p) for p in pids):
        time.sleep(0.1)
    return [p for p in pids if _alive(p)]


@pytest.fixture
def server_dir(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "data"


def test_killed_service_restarts_with_every_notebook_intact(server_dir: Path) -> None:
    server = ServerProcess(server_dir)
    try:
        with server.client() as api:
            ids = {}
            for name in ("first", "second"):
                api.post("/api/notebooks", json={"id": name})
                cell = api.post(f"/api/notebooks/{name}/cells",
                                json={"source": f"print('{name}')"}).json()["id"]
                assert api.post(f"/api/notebooks/{name}/cells/{cell}/execute").json()[
                    "status"] == "ok"
                ids[name] = cell
            slow = api.post("/api/notebooks/first/cells",
                            json={"source": "import time\ntime.sleep(60)"}).json()["id"]
            running = api.post(f"/api/notebooks/first/cells/{slow}/execute?wait=false").json()
            time.sleep(0.5)
            before = {n: api.get(f"/api/notebooks/{n}/ipynb").text for n in ids}
            kernels = server.kernel_pids()
            assert kernels, "no kernel processes found"
    finally:
        server.stop(signal.SIGKILL)
    # kernels notice their parent is gone (ipykernel's parent poller) and exit
    assert _wait_dead(kernels) == []
    for name in ("first", "second"):
        nbformat.validate(nbformat.read(server_dir / "notebooks" / f"{name}.ipynb", 4))
    restarted = ServerProcess(server_dir)
    try:
        with restarted.client() as api:
            for name, cell in ids.items():
                assert api.get(f"/api/notebooks/{name}/ipynb").text == before[name]
                stored = api.get(f"/api/notebooks/{name}/cells/{cell}").json()
                assert stored["outputs"][0]["text"] == f"{name}\n"
            cut_off = api.get(f"/api/executions/{running['id']}").json()
            assert cut_off["state"] == "done" and cut_off["status"] == "aborted"
            events = httpx.get(f"{restarted.url}/api/executions/{running['id']}/events",
                               headers={"Authorization": f"Bearer {restarted.token}"},
                               timeout=10).text
            assert "event: done" in events
    finally:
        restarted.stop()


def test_graceful_stop_leaves_no_kernels_and_generated_token_works(server_dir: Path) -> None:
    server = ServerProcess(server_dir, token=None)
    try:
        assert len(server.token) >= 20
        with server.client() as api:
            nb = api.post("/api/notebooks", json={}).json()["id"]
            cell = api.post(f"/api/notebooks/{nb}/cells", json={"source": "1"}).json()["id"]
            assert api.post(f"/api/notebooks/{nb}/cells/{cell}/execute").json()["status"] == "ok"
        deadline = time.monotonic() + 20
        while len(server.kernel_pids()) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)  # the notebook's kernel plus the refilled warm one
        kernels = server.kernel_pids()
        assert len(kernels) >= 2
    finally:
        server.stop(signal.SIGTERM)
    # uvicorn re-raises the signal after its graceful shutdown (lifespan ran)
    assert server.proc.returncode in (0, -signal.SIGTERM)
    assert [p for p in kernels if _alive(p)] == []  # gone by the time serve exits


def test_the_demo_notebook_runs_clean(tmp_path: Path) -> None:
    out = tmp_path / "demo.out.ipynb"
    proc = _run("run", str(ROOT / "notebooks" / "demo.ipynb"), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    executed = nbformat.read(out, as_version=4)
    kinds = {o["output_type"] for c in executed.cells if c.cell_type == "code" for o in c.outputs}
    assert {"execute_result", "display_data", "stream"} <= kinds
    assert any("image/png" in o.get("data", {}) for c in executed.cells
               if c.cell_type == "code" for o in c.outputs)
