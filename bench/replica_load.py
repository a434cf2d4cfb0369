"""Two replicas x N notebooks on one PostgreSQL database and one Jupyter Kernel Gateway (issue
23): what a scaled-out set-up costs under load, measured on this machine.

Starts a `jupyter kernelgateway` and two `nbcritic serve` processes (pool size 2, critic on)
on a fresh schema of the database NBCRITIC_TEST_DATABASE_URL names (`.ci/postgres` makes one)
and one data dir. N notebooks are made, alternately on each replica; each runs its first cell
once (its gateway kernel starts), then all notebooks run `--runs` executions each at the same
time, every notebook on its own client thread. Reported: first-execution and loaded latency
(median, p90), executions per second, PostgreSQL connections, kernel processes and memory.

    NBCRITIC_TEST_DATABASE_URL=postgresql://... .venv/bin/python bench/replica_load.py
    ... bench/replica_load.py --notebooks 8 --runs 3      # smaller
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx
import psycopg

from tests.conftest import new_notebook
from tests.databases import with_search_path
from tests.kernel_gateway import kernel_gateway
from tests.replica_process import replica

CODE = "total = sum(i * i for i in range(200_000))\ntotal"


def _execute(api: httpx.Client, nb: str, cell: str) -> float:
    start = time.perf_counter()
    result = api.post(f"/api/notebooks/{nb}/cells/{cell}/execute").json()
    assert result["status"] == "ok", result
    return (time.perf_counter() - start) * 1000


def _kernels(gateway_url: str) -> tuple[int, float]:
    """The gateway's kernel processes (its children) and their resident memory (MiB)."""
    port = gateway_url.rsplit(":", 1)[1].encode()
    gateway = next(pid for pid in filter(str.isdigit, os.listdir("/proc"))
                   if b"--KernelGatewayApp.port=" + port in _read(f"/proc/{pid}/cmdline"))
    children = _read(f"/proc/{gateway}/task/{gateway}/children").split()
    rss_kb = 0
    for pid in children:
        status = _read(f"/proc/{pid.decode()}/status").decode()
        rss_kb += int(next((line.split()[1] for line in status.splitlines()
                            if line.startswith("VmRSS:")), "0"))
    return len(children), rss_kb / 1024


def _read(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError:
        return b""


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(args: argparse.Namespace) -> None:
    base = os.environ["NBCRITIC_TEST_DATABASE_URL"]
    schema = f"load_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    url = with_search_path(base, schema)
    try:
        with tempfile.TemporaryDirectory() as tmp, kernel_gateway() as gateway, \
                replica(Path(tmp) / "data", url, gateway, Path(tmp) / "a.log", 2) as (_, a), \
                replica(Path(tmp) / "data", url, gateway, Path(tmp) / "b.log", 2) as (_, b):
            targets = []
            for i in range(args.notebooks):
                api = (a, b)[i % 2]
                nb, (cell,) = new_notebook(api, CODE)
                targets.append((api, nb, cell))
            first = [_execute(api, nb, cell) for api, nb, cell in targets]

            def run(target: tuple[httpx.Client, str, str]) -> list[float]:
                api, nb, cell = target
                with httpx.Client(base_url=api.base_url, headers=api.headers,
                                  timeout=300) as own:
                    return [_execute(own, nb, cell) for _ in range(args.runs)]

            start = time.perf_counter()
            with ThreadPoolExecutor(len(targets)) as pool:
                loaded = [t for times in pool.map(run, targets) for t in times]
            wall = time.perf_counter() - start
            kernels, kernel_mib = _kernels(gateway)
            with psycopg.connect(base) as conn:
                connections = conn.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                    " AND pid <> pg_backend_pid()").fetchone()[0]
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
    print(f"2 replicas x {args.notebooks} notebooks, {args.runs} runs each at once, "
          f"cell: {CODE.splitlines()[0]!r}\n")
    print("| measure | value |\n| --- | --: |")
    print(f"| first execution of a notebook (gateway kernel from the warm pool or started), "
          f"median / p90 ms | {statistics.median(first):.0f} / {_pct(first, 0.9):.0f} |")
    print(f"| execution under load, median / p90 ms | {statistics.median(loaded):.0f} / "
          f"{_pct(loaded, 0.9):.0f} |")
    print(f"| executions per second (all notebooks) | {len(loaded) / wall:.1f} |")
    print(f"| PostgreSQL connections of the two replicas (+ this bench's none) | "
          f"{connections} |")
    print(f"| kernel processes on the gateway (notebooks + warm pools) | {kernels} |")
    print(f"| their resident memory, MiB total / per kernel | {kernel_mib:.0f} / "
          f"{kernel_mib / max(1, kernels):.0f} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notebooks", type=int, default=16)
    parser.add_argument("--runs", type=int, default=5)
    main(parser.parse_args())
