"""`nbcritic serve` as a process of its own on a shared database, gateway and data dir: one
replica of a scaled-out set-up, for tests/test_replicas.py and bench/replica_load.py."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.conftest import TOKEN, free_port
from tests.kernel_gateway import GATEWAY_TOKEN


@contextmanager
def replica(data_dir: Path, database_url: str, gateway_url: str, log: Path,
            pool_size: int = 1) -> Iterator[tuple[subprocess.Popen[bytes], httpx.Client]]:
    port = free_port()
    env = {**os.environ, "NBCRITIC_DATABASE_URL": database_url,
           "NBCRITIC_GATEWAY_TOKEN": GATEWAY_TOKEN,
           "NBCRITIC_FSYNC_WRITES": "false"}
    args = [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port",
            str(port), "--data-dir", str(data_dir), "--token", TOKEN, "--pool-size", str(pool_size),
            "--gateway-url", gateway_url, "--log-level", "warning"]
    with open(log, "wb") as out:
        proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, env=env,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60,
                          headers={"Authorization": f"Bearer {TOKEN}"})
    try:
        _wait_healthy(client, proc, log)
        yield proc, client
    finally:
        client.close()
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _wait_healthy(client: httpx.Client, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"replica exited {proc.returncode}: {log.read_text()[-3000:]}")
        try:
            if client.get("/health").status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"replica not healthy: {log.read_text()[-3000:]}")
