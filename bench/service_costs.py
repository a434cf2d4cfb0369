"""What the service costs beyond the kernel as notebooks grow and run side by side (issue 22):

  size        service CPU (all threads of the service process, not the kernel) for `1+1` in a
              notebook of 300 executed cells vs in a one-cell notebook (each in a service
              process of its own), critic on and off
  neighbour   a notebook's `1+1` alone vs while another notebook prints 1 MiB in a loop
  journal     journal bytes per execution of a 1 MiB print, after 12 of them
  start       `import app.cli, app.main` (what `nbcritic serve` imports) vs
              `import jupyter_server.serverapp`; idle RSS of `nbcritic serve --pool-size 0`
              vs `jupyter_server`, in the same run

Each code tree given (`--source`, repeatable: e.g. an export of an older commit, then this
checkout) is measured by subprocesses that import it, so before/after land in one run, on one
machine, under the same load. Ratios within a run are what to compare.

    .venv/bin/python bench/service_costs.py                          # this checkout
    git archive 0d2928f | tar -x -C /tmp/before
    .venv/bin/python bench/service_costs.py --source /tmp/before --source .
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BIG_PRINT = "print('x' * 2**20)"  # 1 MiB (+ newline) of stdout
TOKEN = "bench-token"


def earlier_cell(i: int) -> str:
    """Small analysis-like cells; every tenth prints a line of numbers."""
    if i % 10 == 0:
        return (f"import math\nrows{i} = [math.sqrt(j) for j in range({i}, {i} + 200)]\n"
                f"print('row', *rows{i}[:40])")
    return f"v{i} = [j * {i} for j in range(50)]\ntotal{i} = sum(v{i})\ntotal{i}"


# -- the worker: runs inside a subprocess that imports the tree under test ------------------

def _service(data_dir: Path, **wanted: Any) -> Any:
    from app.settings import Settings
    from services.notebook_service import NotebookService

    known = {k: v for k, v in wanted.items() if k in Settings.model_fields}
    return NotebookService(Settings(data_dir=data_dir, token=TOKEN, fsync_writes=True,
                                    **known))


async def _started(data_dir: Path, **wanted: Any) -> Any:
    svc = _service(data_dir, **wanted)
    await svc.start()
    try:  # what `nbcritic serve` does after start-up, where the tree has it
        from app.gc_policy import freeze_startup_heap
        freeze_startup_heap()
    except ImportError:
        pass
    return svc


async def _notebook(svc: Any, sources: list[str]) -> tuple[str, str]:
    """A notebook whose cells ran once, plus a last `1+1` cell (its id returned)."""
    nb = await svc.create_notebook()
    for source in sources:
        cell = await svc.add_cell(nb, source=source)
        result = await svc.execute_cell(nb, cell.id)
        assert result.status.value == "ok", result.error
    cell = await svc.add_cell(nb, source="1+1")
    return nb, cell.id


async def _timed(svc: Any, nb: str, cell: str, critic: bool) -> tuple[float, float]:
    from services.notebook_service import ExecuteOptions

    cpu, wall = time.process_time(), time.perf_counter()
    result = await svc.execute_cell(nb, cell, ExecuteOptions(critic=critic))
    assert result.status.value == "ok" and result.outputs[0]["data"]["text/plain"] == "2"
    return (time.process_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000


async def worker_size(data_dir: Path, cells: int, samples: int) -> dict[str, Any]:
    """One notebook per service process: another notebook's background writes and
    collections would otherwise land on this one's executions."""
    svc = await _started(data_dir, pool_size=1)
    try:
        nb, cell = await _notebook(svc, [earlier_cell(i) for i in range(cells)])
        series: dict[str, list[tuple[float, float]]] = {}
        for _ in range(samples):  # interleaved, so load drifts hit both series alike
            for critic in (True, False):
                key = f"{cells} cells, critic {'on' if critic else 'off'}"
                series.setdefault(key, []).append(await _timed(svc, nb, cell, critic))
        return {k: _summary(v) for k, v in series.items()}
    finally:
        await svc.stop()


async def worker_neighbour(data_dir: Path, samples: int) -> dict[str, Any]:
    svc = await _started(data_dir, pool_size=2)
    try:
        nb, cell = await _notebook(svc, [])
        loud = await svc.create_notebook()
        loud_cell = (await svc.add_cell(loud, source=BIG_PRINT)).id
        alone = [await _timed(svc, nb, cell, True) for _ in range(samples)]
        stop = asyncio.Event()
        prints = 0

        async def print_loop() -> None:
            nonlocal prints
            while not stop.is_set():
                await svc.execute_cell(loud, loud_cell)
                prints += 1

        task = asyncio.create_task(print_loop())
        await asyncio.sleep(0.5)
        beside = [await _timed(svc, nb, cell, True) for _ in range(samples)]
        stop.set()
        await task
        return {"alone": _summary(alone), "beside 1 MiB prints": _summary(beside),
                "prints": prints}
    finally:
        await svc.stop()


async def worker_journal(data_dir: Path, runs: int) -> dict[str, Any]:
    svc = await _started(data_dir, pool_size=1, journal_keep_executions=5)
    try:
        nb = await svc.create_notebook()
        cell = (await svc.add_cell(nb, source=BIG_PRINT)).id
        sizes = []
        for _ in range(runs):
            assert (await svc.execute_cell(nb, cell)).status.value == "ok"
            await svc.store.flush_all()
            sizes.append(_journal_bytes(svc))
        half = runs // 2
        return {"runs": runs, "bytes": sizes[-1],
                "per_execution_last_half": (sizes[-1] - sizes[half - 1]) / (runs - half)}
    finally:
        await svc.stop()


def _journal_bytes(svc: Any) -> int:
    from services.database import open_sqlite

    svc.journal.commit()
    conn = open_sqlite(svc.journal.path)
    try:
        events = conn.execute("SELECT coalesce(sum(length(data)), 0) FROM events").fetchone()[0]
        results = conn.execute(
            "SELECT coalesce(sum(length(result)), 0) FROM executions").fetchone()[0]
    finally:
        conn.close()
    return int(events + results)


def _summary(pairs: list[tuple[float, float]]) -> dict[str, float]:
    cpu = sorted(p[0] for p in pairs)
    wall = sorted(p[1] for p in pairs)
    return {"n": len(pairs), "cpu_ms": statistics.median(cpu),
            "wall_ms": statistics.median(wall), "wall_p90_ms": wall[int(0.9 * (len(wall) - 1))]}


def run_worker(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(args.source))
    data_dir = Path(tempfile.mkdtemp(prefix="nbcritic-costs-"))
    coro = {"size": lambda: worker_size(data_dir, args.cells, args.samples),
            "neighbour": lambda: worker_neighbour(data_dir, args.samples),
            "journal": lambda: worker_journal(data_dir, 12)}[args.worker]()
    print(json.dumps(asyncio.run(coro)))


# -- the driver ---------------------------------------------------------------------------------

def _worker(source: Path, what: str, args: argparse.Namespace,
            cells: int | None = None) -> dict[str, Any]:
    argv = [sys.executable, str(Path(__file__).resolve()), "--worker", what,
            "--source", str(source), "--cells", str(cells or args.cells),
            "--samples", str(args.samples)]
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("NBCRITIC_", "ANTHROPIC_"))}
    env["PYTHONPATH"] = str(source)
    out = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=3600,
                         cwd=source)
    if out.returncode != 0:
        raise RuntimeError(f"worker {what} on {source} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def import_seconds(source: Path, statement: str, runs: int = 3) -> float:
    code = (f"import sys, time; sys.path.insert(0, {str(source)!r}); t = time.perf_counter(); "
            f"{statement}; print(time.perf_counter() - t)")
    times = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True, cwd=source, timeout=300)
        times.append(float(out.stdout.strip().splitlines()[-1]))
    return statistics.median(times)


def idle_rss_mib(argv: list[str], url: str, cwd: Path, env: dict[str, str]) -> float:
    import httpx

    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"{argv[:4]} exited with {proc.returncode}")
            try:
                if httpx.get(url, timeout=2,
                             headers={"Authorization": f"token {TOKEN}"}).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{argv[:4]} not ready")
            time.sleep(0.1)
        time.sleep(2.0)  # idle
        for line in Path(f"/proc/{proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError("no VmRSS")
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(30)


def start_costs(source: Path, port: int) -> dict[str, float]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("NBCRITIC_", "ANTHROPIC_"))}
    data = Path(tempfile.mkdtemp(prefix="nbcritic-idle-"))
    serve = [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(source)!r}); "
             "from app.cli import main; sys.exit(main())", "serve", "--port", str(port),
             "--data-dir", str(data), "--token", TOKEN, "--pool-size", "0",
             "--log-level", "warning"]
    return {"import_s": import_seconds(source, "import app.cli, app.main"),
            "idle_rss_mib": idle_rss_mib(serve, f"http://127.0.0.1:{port}/health", source, env)}


def jupyter_server_costs(port: int) -> dict[str, float]:
    root = Path(tempfile.mkdtemp(prefix="js-idle-"))
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(root / "config"),
               JUPYTER_RUNTIME_DIR=str(root / "runtime"))
    argv = [sys.executable, "-m", "jupyter_server", "--no-browser", "--allow-root",
            "--ip=127.0.0.1", f"--port={port}", "--ServerApp.port_retries=0",
            f"--ServerApp.root_dir={root}", f"--IdentityProvider.token={TOKEN}",
            "--ServerApp.log_level=WARN"]
    return {"import_s": import_seconds(ROOT, "import jupyter_server.serverapp"),
            "idle_rss_mib": idle_rss_mib(argv, f"http://127.0.0.1:{port}/api/status", root,
                                         env)}


def _port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def render(results: dict[str, dict[str, Any]], peer: dict[str, float], cells: int) -> str:
    names = list(results)
    head = "| what | " + " | ".join(names) + " | target |"
    lines = [head, "|---" * (len(names) + 2) + "|"]

    def row(what: str, cell: Any, target: str) -> None:
        lines.append(f"| {what} | " + " | ".join(cell(results[n]) for n in names)
                     + f" | {target} |")

    def size(r: dict[str, Any], on: str) -> str:
        big, one = r["size"][f"{cells} cells, critic {on}"], r["size"][f"1 cells, critic {on}"]
        ratio = big["cpu_ms"] / one["cpu_ms"]
        return (f"{big['cpu_ms']:.1f} vs {one['cpu_ms']:.1f} ms CPU (x{ratio:.2f});"
                f" wall p90 {big['wall_p90_ms']:.0f} vs {one['wall_p90_ms']:.0f} ms")

    row(f"`1+1` after {cells} cells vs 1 cell, critic on", lambda r: size(r, "on"),
        "within 1.2x")
    row(f"`1+1` after {cells} cells vs 1 cell, critic off", lambda r: size(r, "off"),
        "within 1.2x")

    def neighbour(r: dict[str, Any]) -> str:
        n = r["neighbour"]
        a, b = n["alone"]["wall_ms"], n["beside 1 MiB prints"]["wall_ms"]
        return f"{b:.1f} vs {a:.1f} ms alone (x{b / a:.2f}; {n['prints']} prints meanwhile)"

    row("another notebook's `1+1` (median) while one prints 1 MiB in a loop", neighbour,
        "within 1.5x of alone")
    row("journal bytes per 1 MiB execution (last 6 of 12)",
        lambda r: f"{r['journal']['per_execution_last_half'] / 2**20:.2f} MiB", "bounded")
    def start(r: dict[str, Any], key: str, unit: str) -> str:
        value = r["start"][key]
        return f"{value:.2f} {unit} (x{value / peer[key]:.2f} jupyter_server)"

    row("`import app.cli, app.main`", lambda r: start(r, "import_s", "s"), "<= 0.8 s")
    row("idle RSS, `nbcritic serve --pool-size 0`", lambda r: start(r, "idle_rss_mib", "MiB"),
        "<= 100 MiB")
    lines.append("")
    lines.append(f"Peer in the same run: `import jupyter_server.serverapp` "
                 f"{peer['import_s']:.2f} s, idle jupyter_server "
                 f"{peer['idle_rss_mib']:.0f} MiB RSS.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", type=Path, action="append",
                        help="a code tree to measure (repeatable; default this checkout)")
    parser.add_argument("--cells", type=int, default=300, help="earlier cells (default 300)")
    parser.add_argument("--samples", type=int, default=30, help="samples per series (30)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        args.source = args.source[0]
        run_worker(args)
        return 0
    sources = [s.resolve() for s in (args.source or [ROOT])]
    load_before = os.getloadavg()
    results: dict[str, dict[str, Any]] = {}
    for source in sources:
        name = source.name if source != ROOT else "this checkout"
        print(f"measuring {source} ...", file=sys.stderr, flush=True)
        results[name] = {w: _worker(source, w, args) for w in ("neighbour", "journal")}
        results[name]["size"] = {**_worker(source, "size", args, cells=1),
                                 **_worker(source, "size", args)}
        results[name]["start"] = start_costs(source, _port())
    peer = jupyter_server_costs(_port())
    print(render(results, peer, args.cells))
    print(f"\nload average {load_before[0]:.1f} before, {os.getloadavg()[0]:.1f} after; "
          f"nproc {os.cpu_count()}")
    print(json.dumps(results), file=sys.stderr)
    return 0


if __name__ == "__main__":
    if "--worker" in sys.argv:  # the tree under test first, before this checkout's packages
        src = sys.argv[sys.argv.index("--source") + 1]
        sys.path.insert(0, src)
    sys.exit(main())
