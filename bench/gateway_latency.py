"""Latency of the cell `1+1` on a kernel behind a Jupyter Kernel Gateway, against a local
kernel and against the gateway used directly, in one run (issue 23).

  local session      nbcritic's KernelSession on a local ipykernel (ipc), as the service runs it
  gateway session    the same KernelSession on a kernel of a `jupyter kernelgateway` on loopback
                     (services.gateway_client: REST + the channels over one WebSocket)
  gateway direct     a bare client of that gateway: execute_request on the kernel's WebSocket
                     (`websockets`, JSON protocol) until its execute_reply and idle status
  service local / service gateway
                     NotebookService.execute_cell in-process (journal, store, outputs, critic
                     off) on a local kernel and on a gateway kernel

Samples are interleaved (rounds of one block per path, order rotating), so drift and
background load land on every path alike. Every execution is checked (result `2`).

    .venv/bin/python bench/gateway_latency.py                 # 20 warm-up, 200 timed per path
    .venv/bin/python bench/gateway_latency.py --iterations 50 # quicker
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.settings import Settings
from services.kernel_provider import GatewayKernels, LocalKernels
from services.kernel_session import KernelSession
from services.notebook_service import NotebookService
from tests.kernel_gateway import GATEWAY_TOKEN, gateway_headers, kernel_gateway

Sample = Callable[[], Awaitable[None]]


def _settings(data_dir: Path, gateway_url: str | None) -> Settings:
    extra: dict[str, Any] = {"gateway_url": gateway_url, "gateway_token": GATEWAY_TOKEN} \
        if gateway_url else {}
    return Settings(data_dir=data_dir, pool_size=1, critic_enabled=False, fsync_writes=False,
                    token="bench", **extra)


def session_sample(session: KernelSession) -> Sample:
    async def run() -> None:
        seen: list[dict[str, Any]] = []
        outcome = await session.execute("1+1", timeout=30, interrupt_grace=5,
                                        on_message=seen.append)
        assert outcome.reply and outcome.reply["status"] == "ok"
        assert seen[-1]["content"]["data"]["text/plain"] == "2"
    return run


async def direct_sample(url: str) -> tuple[Sample, Callable[[], Awaitable[None]]]:
    """A bare gateway client: its own kernel, its own socket."""
    import httpx
    from websockets.asyncio.client import connect

    async with httpx.AsyncClient(base_url=url, headers=gateway_headers()) as http:
        kernel_id = (await http.post("/api/kernels", json={"name": "python3"})).json()["id"]
    ws = await connect(f"ws{url.removeprefix('http')}/api/kernels/{kernel_id}/channels",
                       additional_headers=gateway_headers(), max_size=None)

    async def run() -> None:
        msg_id = uuid.uuid4().hex
        await ws.send(json.dumps({
            "header": {"msg_id": msg_id, "msg_type": "execute_request", "username": "bench",
                       "session": "bench", "date": "", "version": "5.3"},
            "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
            "content": {"code": "1+1", "silent": False, "store_history": True,
                        "user_expressions": {}, "allow_stdin": False, "stop_on_error": True}}))
        replied = idle = False
        result = None
        while not (replied and idle):
            msg = json.loads(await ws.recv())
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "execute_reply":
                replied = True
            elif msg["msg_type"] == "execute_result":
                result = msg["content"]["data"]["text/plain"]
            elif msg["msg_type"] == "status":
                idle = msg["content"]["execution_state"] == "idle"
        assert result == "2"

    async def close() -> None:
        await ws.close()
        async with httpx.AsyncClient(base_url=url, headers=gateway_headers()) as http:
            await http.delete(f"/api/kernels/{kernel_id}")

    return run, close


async def service_sample(svc: NotebookService) -> Sample:
    await svc.pool.wait_warm(1)
    nb = await svc.create_notebook(f"bench-{uuid.uuid4().hex[:6]}")
    cell = (await svc.add_cell(nb, source="1+1")).id

    async def run() -> None:
        result = await svc.execute_cell(nb, cell)
        assert result.outputs[-1]["data"]["text/plain"] == "2"
    return run


async def measure(paths: dict[str, Sample], warmup: int, iterations: int,
                  rounds: int) -> dict[str, list[float]]:
    for sample in paths.values():
        for _ in range(warmup):
            await sample()
    times: dict[str, list[float]] = {name: [] for name in paths}
    names = list(paths)
    block = max(1, iterations // rounds)
    for r in range(rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        for name in order:
            for _ in range(block):
                start = time.perf_counter()
                await paths[name]()
                times[name].append((time.perf_counter() - start) * 1000)
    return times


def report(times: dict[str, list[float]]) -> str:
    def pct(values: list[float], q: float) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    floor = {"gateway session": "gateway direct", "service gateway": "service local",
             "gateway direct": "local session", "local session": "local session",
             "service local": "local session"}
    lines = ["| path | n | median ms | p90 ms | min ms | vs | ratio of medians |",
             "| --- | --: | --: | --: | --: | --- | --: |"]
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, values in times.items():
        peer = floor[name]
        ratio = medians[name] / medians[peer]
        lines.append(f"| {name} | {len(values)} | {medians[name]:.2f} | {pct(values, 0.9):.2f}"
                     f" | {min(values):.2f} | {peer} | {ratio:.2f} |")
    return "\n".join(lines)


async def main(args: argparse.Namespace) -> None:
    with kernel_gateway() as url, tempfile.TemporaryDirectory() as tmp:
        local_provider = LocalKernels(_settings(Path(tmp) / "a", None))
        gateway_provider = GatewayKernels(_settings(Path(tmp) / "b", url))
        local = await local_provider.start()
        remote = await gateway_provider.start()
        direct, close_direct = await direct_sample(url)
        svc_local = NotebookService(_settings(Path(tmp) / "c", None))
        svc_gateway = NotebookService(_settings(Path(tmp) / "d", url))
        await svc_local.start()
        await svc_gateway.start()
        try:
            paths = {"local session": session_sample(local),
                     "gateway session": session_sample(remote),
                     "gateway direct": direct,
                     "service local": await service_sample(svc_local),
                     "service gateway": await service_sample(svc_gateway)}
            times = await measure(paths, args.warmup, args.iterations, args.rounds)
        finally:
            await close_direct()
            await svc_local.stop()
            await svc_gateway.stop()
            await local_provider.stop(local, now=True)
            await gateway_provider.stop(remote, now=True)
            await local_provider.close()
            await gateway_provider.close()
    print(report(times))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=10)
    asyncio.run(main(parser.parse_args()))
