"""Round-trip latency of executing the cell `1+1`: raw jupyter_client vs nbcritic vs jupyter_server.

One run, one machine, the clients interleaved in blocks so drift hits every path alike:

  raw jupyter_client   AsyncKernelClient: execute_request -> IOPub idle + execute_reply (the floor)
  nbcritic REST        POST /api/notebooks/{id}/cells/{cell}/execute (synchronous), keep-alive httpx
  jupyter_server       REST-created kernel, execute_request over /api/kernels/{id}/channels (ws)

plus diagnostic rows (the NotebookService in-process with and without fsync, GET /health over
the same HTTP stack, a blocking client, jupyter_server with TCP_NODELAY patched in on its
websocket), and the time to a usable kernel for a new notebook: warm pool (create notebook +
cell + first execute) and cold start. bench/README.md explains every row.

    .venv/bin/python bench/execute_latency.py              # full run, rewrites bench/README.md
    .venv/bin/python bench/execute_latency.py --quick      # short smoke run, README untouched

Every process and kernel it starts is stopped on the way out (process groups; a final sweep of
this process's descendants).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import gc
import json
import math
import os
import platform
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from queue import Empty
from typing import Any

import httpx
from jupyter_client.manager import AsyncKernelManager

ROOT = Path(__file__).resolve().parent.parent
README = Path(__file__).resolve().parent / "README.md"
START_MARK, END_MARK = "<!-- results:start -->", "<!-- results:end -->"
CODE, EXPECTED = "1+1", "2"
TOKEN = "bench-" + uuid.uuid4().hex
STEP_TIMEOUT = 30.0  # seconds for any single execute in the benchmark
TARGET_OVERHEAD_MS = 1.5
TARGET_FIRST_CELL_MS = 50.0


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# -- statistics ------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default)."""
    xs = sorted(values)
    k = (len(xs) - 1) * q
    lo = math.floor(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


@dataclass
class Series:
    name: str
    what: str
    samples: list[float] = field(default_factory=list)  # seconds
    error: str | None = None

    def ms(self, q: float) -> float:
        return percentile(self.samples, q) * 1000

    @property
    def median(self) -> float:
        return statistics.median(self.samples) * 1000

    @property
    def ok(self) -> bool:
        return bool(self.samples) and self.error is None


# -- process handling ------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _proc_table() -> dict[int, tuple[int, str]]:
    """pid -> (ppid, start time) for every process (Linux /proc)."""
    table: dict[int, tuple[int, str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()  # after "pid (comm) "
        table[int(entry.name)] = (int(fields[1]), fields[19])
    return table


def descendants(pid: int) -> dict[int, str]:
    """Every live descendant of `pid`, with its start time (to detect a reused pid)."""
    if not Path("/proc").is_dir():
        return {}
    table = _proc_table()
    children: dict[int, list[int]] = {}
    for child, (parent, _) in table.items():
        children.setdefault(parent, []).append(child)
    found: dict[int, str] = {}
    stack = [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            if child not in found:
                found[child] = table[child][1]
                stack.append(child)
    return found


def kill_leftovers(processes: dict[int, str], what: str) -> int:
    """Kill those of `processes` still alive (same pid *and* start time); return how many
    survived."""
    table = _proc_table()
    alive = [p for p, start in processes.items() if table.get(p, (0, ""))[1] == start]
    if alive:
        log(f"{len(alive)} {what} outlived their parent; killing {alive}")
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in alive:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                group = os.getpgid(pid)
                if group != os.getpgrp():  # never our own group
                    os.killpg(group, sig)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            table = _proc_table()
            alive = [p for p in alive if table.get(p, (0, ""))[1] == processes[p]]
            if not alive:
                break
            time.sleep(0.05)
    if alive:
        log(f"WARNING: could not kill {what}: {alive}")
    return len(alive)


class Server:
    """A server subprocess in its own process group; its logs go to a file."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], workdir: Path):
        self.name = name
        self.argv = argv
        self.log_path = workdir / f"{name}.log"
        self._log = self.log_path.open("wb")
        self.popen = subprocess.Popen(argv, stdout=self._log, stderr=subprocess.STDOUT,
                                      stdin=subprocess.DEVNULL, env=env, cwd=workdir,
                                      start_new_session=True)

    def check_alive(self) -> None:
        if self.popen.poll() is not None:
            raise RuntimeError(f"{self.name} exited with {self.popen.returncode}; log:\n"
                               f"{self.tail_log()}")

    def tail_log(self, lines: int = 30) -> str:
        with contextlib.suppress(OSError):
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        return ""

    def stop(self, timeout: float = 20.0) -> None:
        """SIGTERM (graceful: the servers shut their kernels down), then SIGKILL; then kill any
        descendant (kernels live in their own sessions) that outlived it."""
        kids = descendants(self.popen.pid)
        if self.popen.poll() is None:
            for sig, wait in ((signal.SIGTERM, timeout), (signal.SIGKILL, 5.0)):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.popen.pid, sig)
                try:
                    self.popen.wait(wait)
                    break
                except subprocess.TimeoutExpired:
                    log(f"{self.name} did not stop on {sig.name}")
        kill_leftovers(kids, f"{self.name} children")
        self._log.close()


def wait_http(url: str, headers: dict[str, str], server: Server, timeout: float = 60.0,
              ready: Callable[[httpx.Response], bool] = lambda r: r.status_code == 200) -> None:
    deadline = time.monotonic() + timeout
    with httpx.Client(timeout=5) as client:
        while True:
            server.check_alive()
            with contextlib.suppress(httpx.TransportError):
                if ready(client.get(url, headers=headers)):
                    return
            if time.monotonic() > deadline:
                raise RuntimeError(f"{server.name} not ready at {url}; log:\n{server.tail_log()}")
            time.sleep(0.05)


# -- the paths under test ----------------------------------------------------------------------


class Target:
    """One way of executing `1+1`; `once()` returns the round-trip time in seconds."""

    name = ""
    what = ""

    async def setup(self) -> None: ...

    async def once(self) -> float:
        raise NotImplementedError

    async def teardown(self) -> None: ...


def _check(result: str | None, reply_status: str | None, where: str) -> None:
    if reply_status != "ok" or result != EXPECTED:
        raise RuntimeError(f"{where}: unexpected result {result!r} (status {reply_status!r})")


async def start_raw_kernel(workdir: Path, transport: str) -> AsyncKernelManager:
    name = uuid.uuid4().hex[:10]
    km = AsyncKernelManager(kernel_name="python3", transport=transport,
                            connection_file=str(workdir / f"k-{name}.json"))
    if transport == "ipc":
        km.ip = str(workdir / f"k-{name}")  # IPC paths must stay short
    await km.start_kernel()
    return km


async def raw_execute(kc: Any) -> None:
    """execute_request; IOPub until this request's idle status, then its execute_reply."""
    msg_id = kc.execute(CODE, allow_stdin=False, stop_on_error=False)
    result = None
    while True:
        msg = await kc.get_iopub_msg(timeout=STEP_TIMEOUT)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "execute_result":
            result = msg["content"]["data"].get("text/plain")
        elif msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            break
    while True:
        msg = await kc.get_shell_msg(timeout=STEP_TIMEOUT)
        if msg["parent_header"].get("msg_id") == msg_id:
            _check(result, msg["content"]["status"], "raw jupyter_client")
            return


def blocking_execute(kc: Any) -> None:
    msg_id = kc.execute(CODE, allow_stdin=False, stop_on_error=False)
    result = None
    while True:
        msg = kc.get_iopub_msg(timeout=STEP_TIMEOUT)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "execute_result":
            result = msg["content"]["data"].get("text/plain")
        elif msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            break
    while True:
        msg = kc.get_shell_msg(timeout=STEP_TIMEOUT)
        if msg["parent_header"].get("msg_id") == msg_id:
            _check(result, msg["content"]["status"], "raw blocking client")
            return


async def drain(kc: Any, wait: float = 0.05) -> None:
    """Drop queued messages (wait=0: only those already received)."""
    for getter in (kc.get_shell_msg, kc.get_iopub_msg):
        with contextlib.suppress(Empty):
            while True:
                await getter(timeout=wait)


class RawKernelTarget(Target):
    """A bare kernel driven by a jupyter_client client; both raw paths tear down alike."""

    km: AsyncKernelManager | None
    kc: Any

    async def teardown(self) -> None:
        kc, km, self.kc, self.km = self.kc, self.km, None, None
        if kc is not None:
            kc.stop_channels()
        if km is not None:
            await km.shutdown_kernel(now=True)


class RawAsync(RawKernelTarget):
    def __init__(self, workdir: Path, transport: str):
        self.workdir, self.transport = workdir, transport
        self.name = f"raw jupyter_client ({transport})"
        self.what = (f"AsyncKernelClient over {transport}: execute_request -> IOPub idle + "
                     "execute_reply")
        self.km: AsyncKernelManager | None = None
        self.kc: Any = None

    async def setup(self) -> None:
        self.km = await start_raw_kernel(self.workdir, self.transport)
        self.kc = self.km.client()
        self.kc.start_channels()
        await self.kc.wait_for_ready(timeout=60)
        await drain(self.kc)

    async def once(self) -> float:
        t0 = time.perf_counter()
        await raw_execute(self.kc)
        return time.perf_counter() - t0



class RawBlocking(RawKernelTarget):
    name = "raw jupyter_client, blocking (ipc)"
    what = "BlockingKernelClient (zmq poll, no event loop) over ipc"

    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.km: AsyncKernelManager | None = None
        self.kc: Any = None

    async def setup(self) -> None:
        self.km = await start_raw_kernel(self.workdir, "ipc")
        self.kc = self.km.blocking_client()
        self.kc.start_channels()
        await asyncio.to_thread(self.kc.wait_for_ready, 60)

    async def once(self) -> float:
        t0 = time.perf_counter()
        blocking_execute(self.kc)
        return time.perf_counter() - t0



class InProcessService(Target):
    """nbcritic's NotebookService.execute_cell called directly: no HTTP, same engine code."""

    def __init__(self, workdir: Path, fsync: bool):
        self.workdir, self.fsync = workdir, fsync
        self.name = f"nbcritic service in-process (fsync {'on' if fsync else 'off'})"
        self.what = ("NotebookService.execute_cell awaited in this process (journal, store, "
                     f"output collection; no HTTP); fsync_writes={fsync}")
        self.service: Any = None
        self.notebook_id = self.cell_id = ""

    async def setup(self) -> None:
        from services.config import EngineConfig
        from services.notebook_service import NotebookService

        data_dir = self.workdir / f"inproc-{'fsync' if self.fsync else 'nofsync'}"
        self.service = NotebookService(EngineConfig(data_dir=data_dir, pool_size=0,
                                                    fsync_writes=self.fsync))
        await self.service.start()
        self.notebook_id = await self.service.create_notebook()
        self.cell_id = (await self.service.add_cell(self.notebook_id, source=CODE)).id
        await self.once()  # the cold start of the notebook's kernel

    async def once(self) -> float:
        t0 = time.perf_counter()
        result = await self.service.execute_cell(self.notebook_id, self.cell_id)
        elapsed = time.perf_counter() - t0
        text = (result.outputs[0].get("data", {}).get("text/plain") if result.outputs else None)
        _check(text, result.status.value, self.name)
        return elapsed

    async def teardown(self) -> None:
        service, self.service = self.service, None
        if service is not None:
            await service.stop()


def rest_execute(client: httpx.Client, notebook_id: str, cell_id: str) -> None:
    response = client.post(f"/api/notebooks/{notebook_id}/cells/{cell_id}/execute")
    if response.status_code != 200:
        raise RuntimeError(f"execute: HTTP {response.status_code}: {response.text[:300]}")
    body = response.json()
    outputs = body.get("outputs") or [{}]
    _check(outputs[0].get("data", {}).get("text/plain"), body.get("status"), "nbcritic REST")


def rest_new_cell(client: httpx.Client) -> tuple[str, str]:
    response = client.post("/api/notebooks", json={})
    response.raise_for_status()
    notebook_id = response.json()["id"]
    response = client.post(f"/api/notebooks/{notebook_id}/cells", json={"source": CODE})
    response.raise_for_status()
    return notebook_id, response.json()["id"]


class NbcriticServer:
    """`nbcritic serve` in a subprocess, as a user would run it."""

    def __init__(self, workdir: Path, pool_size: int, name: str):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        data_dir = workdir / f"{name}-data"
        exe = Path(sys.executable).with_name("nbcritic")
        argv = [str(exe) if exe.exists() else "nbcritic", "serve", "--port", str(self.port),
                "--data-dir", str(data_dir), "--token", TOKEN, "--pool-size", str(pool_size),
                "--log-level", "warning"]
        env = {k: v for k, v in os.environ.items() if not k.startswith("NBCRITIC_")}
        env["TMPDIR"] = str(workdir)
        self.server = Server(name, argv, env, workdir)
        self.headers = {"Authorization": f"Bearer {TOKEN}"}

    def wait_started(self) -> None:
        wait_http(f"{self.url}/health", {}, self.server,
                  ready=lambda r: r.status_code == 200 and r.json().get("status") == "ok")

    def warm_kernels(self) -> int:
        return httpx.get(f"{self.url}/health", timeout=5).json()["warm_kernels"]

    def wait_warm(self, count: int = 1, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while self.warm_kernels() < count:
            self.server.check_alive()
            if time.monotonic() > deadline:
                raise RuntimeError(f"{self.server.name}: pool not warm after {timeout:.0f} s")
            time.sleep(0.05)

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, headers=self.headers, timeout=STEP_TIMEOUT)

    def stop(self) -> None:
        self.server.stop()


class NbcriticRest(Target):
    name = "nbcritic REST"
    what = ("POST /api/notebooks/{id}/cells/{cell}/execute (synchronous), keep-alive "
            "httpx.Client, `nbcritic serve --pool-size 1` subprocess")

    def __init__(self, server: NbcriticServer):
        self.server = server
        self.client: httpx.Client | None = None
        self.notebook_id = self.cell_id = ""

    async def setup(self) -> None:
        self.client = self.server.client()
        self.notebook_id, self.cell_id = rest_new_cell(self.client)
        rest_execute(self.client, self.notebook_id, self.cell_id)

    async def once(self) -> float:
        assert self.client is not None
        t0 = time.perf_counter()
        rest_execute(self.client, self.notebook_id, self.cell_id)
        return time.perf_counter() - t0

    async def teardown(self) -> None:
        client, self.client = self.client, None
        if client is not None:
            client.close()


class NbcriticHealth(Target):
    name = "nbcritic GET /health"
    what = "the HTTP stack alone (httpx -> uvicorn -> FastAPI), no kernel, no auth"

    def __init__(self, server: NbcriticServer):
        self.server = server
        self.client: httpx.Client | None = None

    async def setup(self) -> None:
        self.client = self.server.client()

    async def once(self) -> float:
        assert self.client is not None
        t0 = time.perf_counter()
        response = self.client.get("/health")
        elapsed = time.perf_counter() - t0
        if response.status_code != 200:
            raise RuntimeError(f"/health: HTTP {response.status_code}")
        return elapsed

    async def teardown(self) -> None:
        client, self.client = self.client, None
        if client is not None:
            client.close()


# Loaded as jupyter_server_config.py by the diagnostic server: the kernel websocket handler
# turns Nagle off on its socket (tornado leaves it on unless a handler calls set_nodelay).
NODELAY_CONFIG = """\
import inspect

from jupyter_server.services.kernels.websocket import KernelWebsocketHandler

_open = KernelWebsocketHandler.open


async def _open_nodelay(self, *args, **kwargs):
    self.set_nodelay(True)
    result = _open(self, *args, **kwargs)
    if inspect.isawaitable(result):
        result = await result
    return result


KernelWebsocketHandler.open = _open_nodelay
"""


class JupyterServer:
    """`python -m jupyter_server` in a temp root, with its own config and runtime dirs."""

    def __init__(self, workdir: Path, nodelay_patch: bool = False):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.nodelay_patch = nodelay_patch
        tag = "jupyter_server-nodelay" if nodelay_patch else "jupyter_server"
        root = workdir / f"{tag}-root"
        root.mkdir()
        config_dir = workdir / f"{tag}-config"
        config_dir.mkdir()
        if nodelay_patch:
            (config_dir / "jupyter_server_config.py").write_text(NODELAY_CONFIG)
        argv = [sys.executable, "-m", "jupyter_server", "--no-browser", "--allow-root",
                "--ip=127.0.0.1",
                f"--port={self.port}", "--ServerApp.port_retries=0",
                f"--ServerApp.root_dir={root}", f"--IdentityProvider.token={TOKEN}",
                "--ServerApp.log_level=WARN"]
        env = dict(os.environ)
        env["TMPDIR"] = str(workdir)
        env["JUPYTER_CONFIG_DIR"] = str(config_dir)
        env["JUPYTER_RUNTIME_DIR"] = str(workdir / f"{tag}-runtime")
        self.headers = {"Authorization": f"token {TOKEN}"}
        self.server = Server(tag, argv, env, workdir)

    def wait_started(self) -> None:
        wait_http(f"{self.url}/api/status", self.headers, self.server)

    def stop(self) -> None:
        self.server.stop()


NODELAY_NAME = "jupyter_server, server-side TCP_NODELAY patched in"


class JupyterServerWs(Target):
    name = "jupyter_server REST+websocket"
    what = ("kernel from POST /api/kernels; execute_request over /api/kernels/{id}/channels "
            "(websocket-client, client TCP_NODELAY) -> execute_reply + IOPub idle")

    def __init__(self, server: JupyterServer):
        self.server = server
        if server.nodelay_patch:
            self.name = NODELAY_NAME
            self.what = ("the same, against a jupyter_server whose kernel websocket handler "
                         "calls set_nodelay(True) (patched in by a config file)")
        self.kernel_id = ""
        self.session_id = uuid.uuid4().hex
        self.ws: Any = None

    async def setup(self) -> None:
        import websocket  # websocket-client

        response = httpx.post(f"{self.server.url}/api/kernels", json={"name": "python3"},
                              headers=self.server.headers, timeout=60)
        response.raise_for_status()
        self.kernel_id = response.json()["id"]
        ws_url = (f"ws://127.0.0.1:{self.server.port}/api/kernels/{self.kernel_id}/channels"
                  f"?session_id={self.session_id}")
        self.ws = websocket.create_connection(
            ws_url, header=[f"Authorization: token {TOKEN}"], timeout=60,
            sockopt=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)])
        if not self.ws.sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY):
            raise RuntimeError("TCP_NODELAY did not stick on the websocket")
        self._execute(timeout=60)  # waits for the kernel to be ready

    def _message(self) -> tuple[str, str]:
        msg_id = uuid.uuid4().hex
        header = {"msg_id": msg_id, "msg_type": "execute_request", "username": "bench",
                  "session": self.session_id, "version": "5.3",
                  "date": dt.datetime.now(dt.UTC).isoformat()}
        content = {"code": CODE, "silent": False, "store_history": True, "user_expressions": {},
                   "allow_stdin": False, "stop_on_error": False}
        msg = {"header": header, "parent_header": {}, "metadata": {}, "content": content,
               "buffers": [], "channel": "shell"}
        return msg_id, json.dumps(msg)

    def _execute(self, timeout: float = STEP_TIMEOUT) -> None:
        msg_id, payload = self._message()
        self.ws.settimeout(timeout)
        self.ws.send(payload)
        result = status = None
        idle = False
        while not (idle and status is not None):
            msg = json.loads(self.ws.recv())
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            msg_type = msg["msg_type"] if "msg_type" in msg else msg["header"]["msg_type"]
            if msg_type == "execute_result":
                result = msg["content"]["data"].get("text/plain")
            elif msg_type == "status":
                idle = idle or msg["content"]["execution_state"] == "idle"
            elif msg_type == "execute_reply":
                status = msg["content"]["status"]
        _check(result, status, self.name)

    async def once(self) -> float:
        t0 = time.perf_counter()
        self._execute()
        return time.perf_counter() - t0

    async def teardown(self) -> None:
        ws, kernel_id, self.ws, self.kernel_id = self.ws, self.kernel_id, None, ""
        if ws is not None:
            with contextlib.suppress(Exception):
                ws.close()
        if kernel_id:  # the server's own shutdown would stop it too
            with contextlib.suppress(httpx.HTTPError):
                httpx.delete(f"{self.server.url}/api/kernels/{kernel_id}",
                             headers=self.server.headers, timeout=30)


# -- the runs ----------------------------------------------------------------------------------


async def run_latency(paths: list[Target], iterations: int, warmup: int,
                      rounds: int) -> dict[str, Series]:
    """Warm every path up, then `rounds` rounds; each round runs a block of every path, in an
    order that rotates from round to round."""
    series = {p.name: Series(p.name, p.what) for p in paths}
    for path in paths:
        for _ in range(warmup):
            await path.once()
    block = math.ceil(iterations / rounds)
    for r in range(rounds):
        order = paths[r % len(paths):] + paths[:r % len(paths)]
        for path in order:
            count = min(block, iterations - len(series[path.name].samples))
            gc.collect()
            await asyncio.sleep(0.05)  # let in-process background work (file writes) finish
            for _ in range(count):
                series[path.name].samples.append(await path.once())
        log(f"latency round {r + 1}/{rounds} done")
    return series


def warm_first_cell(server: NbcriticServer, samples: int, settle: float) -> tuple[Series, Series]:
    """A new notebook on a warm pool: create notebook + cell + first execute, via REST."""
    total = Series("nbcritic warm pool: new notebook + cell + first execute",
                   "POST /api/notebooks, POST .../cells, POST .../execute; pool warm")
    execute = Series("nbcritic warm pool: first execute only",
                     "the POST .../execute of the above (kernel taken from the pool)")
    with server.client() as client:
        client.get("/health")
        for i in range(samples):
            server.wait_warm(1)
            time.sleep(settle)
            t0 = time.perf_counter()
            notebook_id, cell_id = rest_new_cell(client)
            t1 = time.perf_counter()
            rest_execute(client, notebook_id, cell_id)
            t2 = time.perf_counter()
            total.samples.append(t2 - t0)
            execute.samples.append(t2 - t1)
            client.delete(f"/api/notebooks/{notebook_id}").raise_for_status()
            log(f"warm first cell {i + 1}/{samples}: {(t2 - t0) * 1000:.1f} ms")
    return total, execute


async def poll_ready(kc: Any, timeout: float = 60.0, every: float = 0.02) -> None:
    """Ready = a kernel_info reply on shell, then any IOPub message (the SUB is connected),
    asking again every `every` s. The same protocol as nbcritic's KernelSession, written out
    here so the floor does not run nbcritic code. jupyter_client's wait_for_ready waits 0.2 s
    for IOPub after each reply and then asks again, so a SUB that connects late costs it 0.2 s."""
    deadline = time.monotonic() + timeout
    got_reply = False
    while not got_reply:
        if time.monotonic() > deadline:
            raise RuntimeError("kernel did not become ready")
        kc.kernel_info()
        with contextlib.suppress(Empty):
            got_reply = (await kc.get_shell_msg(timeout=every))["msg_type"] == "kernel_info_reply"
    while True:
        if time.monotonic() > deadline:
            raise RuntimeError("kernel IOPub did not connect")
        try:
            await kc.get_iopub_msg(timeout=every)
            break
        except Empty:
            kc.kernel_info()
    await drain(kc, wait=0)  # late kernel_info replies are skipped by msg_id anyway


async def raw_cold(workdir: Path, samples: int, settle: float) -> dict[str, Series]:
    """start_kernel -> first `1+1` result, alternating two ways of waiting for readiness."""
    out = {
        "spawn": Series("raw cold: start_kernel returned",
                        "AsyncKernelManager.start_kernel (process spawned, connection written)"),
        "ready": Series("raw cold: ready (wait_for_ready)",
                        "+ start_channels + jupyter_client's wait_for_ready"),
        "first": Series("raw cold: start_kernel -> first `1+1` result (wait_for_ready)",
                        "+ the first execute_request (reply + idle)"),
        "ready_poll": Series("raw cold: ready (kernel_info every 20 ms)",
                             "+ start_channels + poll_ready (nbcritic's readiness protocol)"),
        "first_poll": Series("raw cold: start_kernel -> first `1+1` result (20 ms poll)",
                             "+ the first execute_request (reply + idle)"),
        "exec": Series("raw: first execute on a fresh kernel",
                       "the first `1+1` alone, on a kernel that just became ready"),
    }
    for i in range(samples * 2):
        polled = i % 2 == 1
        km: AsyncKernelManager | None = None
        kc: Any = None
        try:
            t0 = time.perf_counter()
            km = await start_raw_kernel(workdir, "ipc")
            t1 = time.perf_counter()
            kc = km.client()
            kc.start_channels()
            if polled:
                await poll_ready(kc)
            else:
                await kc.wait_for_ready(timeout=60)
            t2 = time.perf_counter()
            await raw_execute(kc)
            t3 = time.perf_counter()
        finally:
            if kc is not None:
                kc.stop_channels()
            if km is not None:
                await km.shutdown_kernel(now=True)
        out["spawn"].samples.append(t1 - t0)
        out["ready_poll" if polled else "ready"].samples.append(t2 - t0)
        out["first_poll" if polled else "first"].samples.append(t3 - t0)
        out["exec"].samples.append(t3 - t2)
        log(f"raw cold start {i + 1}/{samples * 2} ({'20 ms poll' if polled else 'wait_for_ready'})"
            f": {(t3 - t0) * 1000:.0f} ms")
        await asyncio.sleep(settle)
    return out


def nbcritic_cold(server: NbcriticServer, samples: int, settle: float) -> Series:
    series = Series("nbcritic --pool-size 0: new notebook + cell + first execute",
                    "every new notebook's kernel is a cold start on the request path")
    with server.client() as client:
        client.get("/health")
        for i in range(samples):
            t0 = time.perf_counter()
            notebook_id, cell_id = rest_new_cell(client)
            rest_execute(client, notebook_id, cell_id)
            elapsed = time.perf_counter() - t0
            series.samples.append(elapsed)
            client.delete(f"/api/notebooks/{notebook_id}").raise_for_status()
            log(f"nbcritic cold start {i + 1}/{samples}: {elapsed * 1000:.0f} ms")
            time.sleep(settle)
    return series


# -- report ------------------------------------------------------------------------------------


def _pkg(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "-"


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    pkgs = ", ".join(f"{p} {_pkg(p)}" for p in (
        "jupyter_client", "ipykernel", "pyzmq", "jupyter_server", "tornado", "websocket-client",
        "fastapi", "starlette", "uvicorn", "httpx"))
    return (f"nproc {os.cpu_count()} ({cpu}), Linux {platform.release()}, "
            f"Python {platform.python_version()}; {pkgs}")


def loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "n/a"


def git_state() -> str:
    """The commit measured, and whether the service code had uncommitted changes."""
    def git(*argv: str) -> str:
        return subprocess.run(["git", *argv], cwd=ROOT, capture_output=True, text=True,
                              timeout=10).stdout.strip()

    try:
        commit = git("rev-parse", "--short", "HEAD")
        dirty = git("status", "--porcelain", "--", "app", "services")
    except (OSError, subprocess.SubprocessError):
        return "unknown (no git)"
    if not commit:
        return "unknown (not a git checkout)"
    changed = len(dirty.splitlines())
    return f"{commit}" + (f" + uncommitted changes in {changed} file(s) of app/, services/"
                          if changed else "")


def fmt(value: float) -> str:
    return f"{value:.2f}" if value < 100 else f"{value:.0f}"


def latency_table(series: dict[str, Series], floors: dict[str, str]) -> list[str]:
    lines = ["| path | n | median ms | p90 ms | p99 ms | min ms | over floor (median) | x floor |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for s in series.values():
        if not s.ok:
            lines.append(f"| {s.name} | - | failed: {s.error} | | | | | |")
            continue
        floor = series.get(floors.get(s.name, ""))
        if floor is not None and floor.ok:
            over = f"{s.median - floor.median:+.2f} ms vs {floor.name}"
            ratio = f"{s.median / floor.median:.2f}"
        else:
            over = ratio = "(floor)" if s.name in floors.values() else "-"
        lines.append(f"| {s.name} | {len(s.samples)} | {fmt(s.median)} | {fmt(s.ms(0.9))} | "
                     f"{fmt(s.ms(0.99))} | {fmt(s.ms(0))} | {over} | {ratio} |")
    return lines


def startup_table(rows: list[Series]) -> list[str]:
    lines = ["| what | n | median ms | min ms | max ms |", "| --- | ---: | ---: | ---: | ---: |"]
    for s in rows:
        if not s.ok:
            lines.append(f"| {s.name} | - | failed: {s.error} | | |")
            continue
        lines.append(f"| {s.name} | {len(s.samples)} | {fmt(s.median)} | {fmt(s.ms(0))} | "
                     f"{fmt(s.ms(1))} |")
    return lines


def verdicts(series: dict[str, Series], startup: list[Series]) -> list[str]:
    def ok(name: str) -> Series | None:
        found = series.get(name)
        return found if found is not None and found.ok else None

    out = []
    rest, floor = ok(NbcriticRest.name), ok("raw jupyter_client (ipc)")
    engine, health = ok("nbcritic service in-process (fsync on)"), ok(NbcriticHealth.name)
    if rest and floor:
        over = rest.median - floor.median
        mark = "met" if over <= TARGET_OVERHEAD_MS else "NOT met"
        out.append(f"- nbcritic REST overhead over raw jupyter_client (ipc), median: "
                   f"**{over:.2f} ms** (target <= {TARGET_OVERHEAD_MS} ms: {mark})")
        if engine:
            split = (f"  - split: engine in-process {engine.median - floor.median:+.2f} ms; "
                     f"HTTP layer (REST minus in-process) {rest.median - engine.median:+.2f} ms")
            if health:
                split += f", against {health.median:.2f} ms for a bare GET /health round trip"
            out.append(split)
    js, jfloor = ok(JupyterServerWs.name), ok("raw jupyter_client (tcp)")
    if js and jfloor:
        line = (f"- jupyter_server overhead over raw jupyter_client (tcp), median: "
                f"**{js.median - jfloor.median:.2f} ms**")
        patched = ok(NODELAY_NAME)
        if patched:
            line += (f"; {patched.median - jfloor.median:+.2f} ms with server-side TCP_NODELAY "
                     "(the rest is Nagle + delayed ACK)")
        out.append(line)
    for s in startup:
        if s.name.startswith("nbcritic warm pool: new notebook") and s.ok:
            mark = "met" if s.median <= TARGET_FIRST_CELL_MS else "NOT met"
            out.append(f"- first cell of a new notebook on a warm pool, median: "
                       f"**{s.median:.1f} ms** (target <= {TARGET_FIRST_CELL_MS:.0f} ms: {mark})")
    return out


def render(args: argparse.Namespace, command: str, started: dt.datetime,
           series: dict[str, Series], floors: dict[str, str], startup: list[Series],
           notes: list[str]) -> str:
    floor_names = ["raw jupyter_client (ipc)", "raw jupyter_client (tcp)"]
    main_names = [*floor_names, NbcriticRest.name, JupyterServerWs.name]
    main = {n: series[n] for n in main_names if n in series}
    extra = {n: s for n, s in series.items() if n not in main}
    lines = [
        f"Command: `{command}`  ",
        f"Date: {started:%Y-%m-%d %H:%M} UTC; code: {git_state()}  ",
        f"Run: {args.iterations} timed executions per path after {args.warmup} warm-up, "
        f"interleaved in {args.rounds} rounds; {args.startup_samples} start-up samples each; "
        f"load average {args.load_before} before, {loadavg()} after  ",
        f"Machine: {machine()}",
        "",
        "Per-execution round trip of `1+1` (ms):",
        "",
        *latency_table(main, floors),
        "",
        "Diagnostics, same run and interleaving (ms):",
        "",
        *latency_table({**{n: series[n] for n in floor_names if n in series}, **extra}, floors),
        "",
        *(["Time to a usable kernel for a new notebook (ms):", "", *startup_table(startup), ""]
          if startup else []),
        *verdicts(series, startup),
    ]
    if notes:
        lines += ["", *[f"- {n}" for n in notes]]
    return "\n".join(lines) + "\n"


def write_readme(path: Path, section: str) -> None:
    block = f"{START_MARK}\n{section}{END_MARK}"
    text = path.read_text() if path.exists() else f"# Benchmarks\n\n{START_MARK}\n{END_MARK}\n"
    if START_MARK in text and END_MARK in text:
        head, rest = text.split(START_MARK, 1)
        tail = rest.split(END_MARK, 1)[1]
        text = head + block + tail
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    path.write_text(text)


# -- main --------------------------------------------------------------------------------------


async def _guarded(name: str, step: Callable[[], Awaitable[Any]], failures: list[str]) -> Any:
    """Run a step; on error record it and return None (the other steps still run)."""
    try:
        return await step()
    except Exception as exc:
        log(f"FAILED {name}: {type(exc).__name__}: {exc}")
        failures.append(f"{name}: {type(exc).__name__}: {exc}")
        return None


async def _set_up(target: Target, failures: list[str], attempts: int = 2) -> bool:
    """Set a path up; one retry (a transient error must not drop a whole row)."""
    for attempt in range(1, attempts + 1):
        try:
            await target.setup()
            return True
        except Exception as exc:
            what = f"set-up of {target.name} (attempt {attempt}/{attempts})"
            log(f"FAILED {what}: {type(exc).__name__}: {exc}")
            log("".join(traceback.format_exception(exc)).rstrip())
            server = getattr(getattr(target, "server", None), "server", None)
            if isinstance(server, Server):
                log(f"last lines of {server.log_path.name}:\n{server.tail_log()}")
            await _guarded(f"teardown of {target.name}", target.teardown, failures)
            if attempt == attempts:
                failures.append(f"{what}: {type(exc).__name__}: {exc}")
            else:
                time.sleep(1.0)
    return False


async def amain(args: argparse.Namespace, workdir: Path, command: str) -> int:
    started = dt.datetime.now(dt.UTC)
    failures: list[str] = []
    notes: list[str] = []
    servers: list[NbcriticServer | JupyterServer] = []
    paths: list[Target] = []
    series: dict[str, Series] = {}
    startup: list[Series] = []
    floors = {
        NbcriticRest.name: "raw jupyter_client (ipc)",
        JupyterServerWs.name: "raw jupyter_client (tcp)",
        "raw jupyter_client, blocking (ipc)": "raw jupyter_client (ipc)",
        "nbcritic service in-process (fsync on)": "raw jupyter_client (ipc)",
        "nbcritic service in-process (fsync off)": "raw jupyter_client (ipc)",
        NODELAY_NAME: "raw jupyter_client (tcp)",
    }
    try:
        log("starting nbcritic serve and jupyter_server")
        nbc = NbcriticServer(workdir, pool_size=1, name="serve-pool1")
        servers.append(nbc)
        jupyter: list[JupyterServer] = []
        if not args.skip_jupyter_server:
            jupyter.append(JupyterServer(workdir))
            if not args.no_diagnostics:
                jupyter.append(JupyterServer(workdir, nodelay_patch=True))
            servers += jupyter
        nbc.wait_started()
        candidates: list[Target] = [RawAsync(workdir, "ipc"), RawAsync(workdir, "tcp"),
                                   NbcriticRest(nbc)]
        for jsv in jupyter:
            try:
                await asyncio.to_thread(jsv.wait_started)
                candidates.append(JupyterServerWs(jsv))
            except Exception as exc:
                name = JupyterServerWs(jsv).name
                log(f"FAILED {name}: {exc}")
                failures.append(f"start of {name}: {type(exc).__name__}: {exc}")
                series[name] = Series(name, "", error="server did not start")
        if not args.no_diagnostics:
            candidates += [RawBlocking(workdir), InProcessService(workdir, fsync=True),
                           InProcessService(workdir, fsync=False), NbcriticHealth(nbc)]
        for path in candidates:
            log(f"setting up {path.name}")
            if await _set_up(path, failures):
                paths.append(path)
            else:
                series[path.name] = Series(path.name, path.what, error="set-up failed")
        log("waiting for nbcritic's pool to refill and the machine to settle")
        nbc.wait_warm(1)
        time.sleep(args.settle * 2)
        log(f"latency: {args.warmup} warm-up + {args.iterations} timed iterations per path")
        measured = await _guarded("latency", lambda: run_latency(
            paths, args.iterations, args.warmup, args.rounds), failures)
        series = {**(measured or {}), **series}

        if not args.skip_startup:
            log("time to a usable kernel: warm pool")
            warm = await _guarded("warm first cell", lambda: asyncio.to_thread(
                warm_first_cell, nbc, args.startup_samples, args.settle), failures)
            if warm:
                startup += list(warm)
            log("time to a usable kernel: raw cold start")
            cold = await _guarded("raw cold start", lambda: raw_cold(
                workdir, args.startup_samples, args.settle), failures)
            if cold:
                startup += [cold[k] for k in ("exec", "spawn", "ready", "first", "ready_poll",
                                              "first_poll")]
            log("time to a usable kernel: nbcritic --pool-size 0")

            async def pool0() -> Series:
                cold_server = NbcriticServer(workdir, pool_size=0, name="serve-pool0")
                servers.append(cold_server)
                await asyncio.to_thread(cold_server.wait_started)
                return await asyncio.to_thread(nbcritic_cold, cold_server,
                                               args.startup_samples, args.settle * 1.5)

            cold_rest = await _guarded("nbcritic --pool-size 0", pool0, failures)
            if cold_rest:
                startup.append(cold_rest)
    finally:
        log("cleaning up")
        for path in paths:
            await _guarded(f"teardown of {path.name}", path.teardown, failures)
        for server in servers:
            try:
                server.stop()
            except Exception as exc:
                log(f"stopping {type(server).__name__} raised {exc!r}")
    for msg in failures:
        notes.append(f"FAILED {msg}")
    if args.no_diagnostics:
        notes.append("diagnostic rows skipped (--no-diagnostics)")
    section = render(args, command, started, series, floors, startup, notes)
    print(section)
    if args.readme is not None:
        write_readme(args.readme, section)
        log(f"wrote {args.readme}")
    return 1 if failures else 0


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, help="timed executions per path (default 300)")
    parser.add_argument("--warmup", type=int, help="untimed executions per path first (30)")
    parser.add_argument("--rounds", type=int, help="interleaving rounds (default 10)")
    parser.add_argument("--startup-samples", type=int, help="start-up samples each (default 10)")
    parser.add_argument("--settle", type=float, default=1.0,
                        help="seconds to let the machine settle after a kernel start (1.0)")
    parser.add_argument("--quick", action="store_true",
                        help="a short run (50 iterations, 3 start-up samples); does not touch "
                        "the README unless --readme is given")
    parser.add_argument("--readme", type=Path, help=f"where to write results (default {README})")
    parser.add_argument("--no-readme", action="store_true", help="print only")
    parser.add_argument("--skip-jupyter-server", action="store_true")
    parser.add_argument("--skip-startup", action="store_true")
    parser.add_argument("--no-diagnostics", action="store_true",
                        help="only the three main paths (no in-process / blocking / health rows)")
    args = parser.parse_args(argv)
    quick = args.quick
    args.iterations = args.iterations or (50 if quick else 300)
    args.warmup = args.warmup if args.warmup is not None else (10 if quick else 30)
    args.rounds = max(1, min(args.rounds or (5 if quick else 10), args.iterations))
    args.startup_samples = args.startup_samples or (3 if quick else 10)
    if args.no_readme or (quick and args.readme is None):
        args.readme = None
    elif args.readme is None:
        args.readme = README
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    args.load_before = loadavg()
    given = sys.argv[1:] if argv is None else argv
    exe = os.path.relpath(sys.executable, ROOT) if sys.executable.startswith(str(ROOT)) \
        else sys.executable
    command = shlex.join([exe, os.path.relpath(__file__, ROOT), *given])

    def on_term(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)  # unwinds through every finally: kernels get stopped

    signal.signal(signal.SIGTERM, on_term)
    workdir = Path(tempfile.mkdtemp(prefix="nbb-"))  # short: IPC socket paths live here
    # Everything this run creates lives under workdir: nbcritic's kernel runtime dirs too
    # (in-process: tempfile.tempdir; the servers: TMPDIR), so nothing of it outlives the run.
    tempfile.tempdir = str(workdir)
    try:
        return asyncio.run(amain(args, workdir, command))
    except KeyboardInterrupt:
        log("interrupted")
        return 130
    finally:
        tempfile.tempdir = None
        leftovers = descendants(os.getpid())
        if leftovers:
            log(f"killing {len(leftovers)} leftover process(es): {sorted(leftovers)}")
            kill_leftovers(leftovers, "leftover processes")
        unclosed = sorted(p.name for p in workdir.glob("nbcritic-*"))
        if unclosed:  # KernelPool.close() removes its runtime dir
            log(f"note: kernel pool dir(s) not removed by their service: {unclosed}")
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
