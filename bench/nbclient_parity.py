"""Run notebooks through nbclient and through `nbcritic run`, as a new user would, and compare
the executed notebooks cell by cell (normalised as `bench/notebook_compare.py` says).

    .venv/bin/python bench/nbclient_parity.py                      # tests/parity_notebooks
    .venv/bin/python bench/nbclient_parity.py ~/src/nbclient/tests/files   # nbclient's own
    .venv/bin/python bench/nbclient_parity.py DIR --only Output.ipynb --json out.json

Both start from the notebook with its outputs and execution counts cleared, in the notebook's
folder (relative paths resolve alike), each run with an empty folder in
NBEXECUTE_TEST_PARALLEL_TMPDIR (nbclient's parallel notebooks read it; nbcritic's kernels get
it through NBCRITIC_KERNEL_ENV_ALLOW, as a user would pass it). Options follow
nbclient's test suite for its own files (`OPTIONS`); anything else runs with defaults. Where
nbclient raises (a cell error without allow_errors, a dead kernel), the notebook as far as it
got is compared, as nbcritic stops there too. nbclient gets a cell timeout of
NBCLIENT_TIMEOUT where its suite sets none: it now and then misses the execute reply after a
cell that captured widget output until its timeout (services/widgets.py), which with no
timeout is forever; no cell here runs that long.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import nbformat

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.notebook_compare import compare  # noqa: E402

DEFAULT_DIR = ROOT / "tests" / "parity_notebooks"
NBCLIENT_TIMEOUT = 30.0  # seconds per cell, where the options set none


@dataclass(frozen=True)
class RunOptions:
    timeout: float | None = None  # per cell; None: each executor's default
    allow_errors: bool = False  # nbclient allow_errors / nbcritic --continue-on-error


# nbclient's tests/test_client.py::test_run_all_notebooks options for its own files
OPTIONS = {
    "Interrupt.ipynb": RunOptions(timeout=3, allow_errors=True),
    "Skip Exceptions.ipynb": RunOptions(allow_errors=True),
}


@dataclass
class NotebookReport:
    name: str
    code_cells: int = 0
    matched: int = 0
    differing: list[dict[str, Any]] = field(default_factory=list)
    widget_state_same: bool | None = None
    nbclient_raised: str | None = None
    nbcritic_exit: int | None = None
    load_warnings: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)


def cleared(path: Path) -> str:
    """The notebook's JSON with outputs and execution counts cleared (nothing else)."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    for cell in raw.get("cells", []):
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
    return json.dumps(raw)


def run_nbclient(text: str, folder: Path, options: RunOptions, env: dict[str, str],
                 work: Path) -> tuple[nbformat.NotebookNode, str | None]:
    """nbclient as its own CLI runs it, but over IPC (sockets under `work`): over TCP, a
    kernel started while another machine user starts one can lose its port and stall
    nbclient for its whole start-up timeout (seen: 60 s). The transport changes no output."""
    from nbclient import NotebookClient
    from traitlets.config import Config

    config = Config()
    config.KernelManager.transport = "ipc"
    config.KernelManager.ip = str(work / "kernel")
    nb = nbformat.reads(text, as_version=4)  # as a user's nbformat.read: logs, never refuses
    client = NotebookClient(nb, timeout=options.timeout or NBCLIENT_TIMEOUT,
                            allow_errors=options.allow_errors, interrupt_on_timeout=True,
                            resources={"metadata": {"path": str(folder)}}, config=config)
    raised = None
    with _environment(env):
        try:
            client.execute()
        except Exception as exc:  # CellExecutionError, DeadKernelError, CellTimeoutError
            raised = type(exc).__name__
    return nb, raised


def run_nbcritic(text: str, folder: Path, options: RunOptions, env: dict[str, str],
                 work: Path, *, in_process: bool = False
                 ) -> tuple[nbformat.NotebookNode | None, int, str]:
    """`nbcritic run` in the notebook's folder: a new process, or (`in_process`, quicker
    for tests) its `main` called here."""
    source, output = work / "input.ipynb", work / "executed.ipynb"
    source.write_text(text, encoding="utf-8")
    args = ["run", str(source), "-o", str(output), "--no-learn", "--fail-on", "never",
            "--data-dir", str(work / "data")]
    if options.timeout is not None:
        args += ["--timeout", str(options.timeout)]
    if options.allow_errors:
        args.append("--continue-on-error")
    if in_process:
        code, stderr = _main_here(args, folder, env)
    else:
        done = subprocess.run([sys.executable, "-m", "app.cli", *args], cwd=folder,
                              env={**os.environ, **env, "PYTHONPATH": str(ROOT)},
                              capture_output=True, text=True, timeout=900, check=False)
        code, stderr = done.returncode, done.stderr
    executed = nbformat.read(output, as_version=4) if output.is_file() else None
    return executed, code, stderr


def _main_here(args: list[str], folder: Path, env: dict[str, str]) -> tuple[int, str]:
    from app.cli import main

    stderr = io.StringIO()
    with _environment(env), contextlib.chdir(folder), contextlib.redirect_stderr(stderr):
        code = main(args)
    return code, stderr.getvalue()


@contextlib.contextmanager
def _environment(env: dict[str, str]) -> Iterator[None]:
    saved = dict(os.environ)
    os.environ.update(env)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


@dataclass
class Execution:
    """One notebook run by both executors."""

    reference: nbformat.NotebookNode  # nbclient's, as far as it got
    nbclient_raised: str | None
    ours: nbformat.NotebookNode  # the notebook `nbcritic run` wrote
    nbcritic_exit: int
    stderr: str
    seconds: dict[str, float]

    @property
    def load_warnings(self) -> list[str]:
        marker = ": loaded leniently: "
        return [line.split(marker, 1)[1] for line in self.stderr.splitlines()
                if line.startswith("nbcritic run: ") and marker in line]


def execute_both(path: Path, options: RunOptions | None = None, *,
                 in_process: bool = False) -> Execution:
    options = options or OPTIONS.get(path.name, RunOptions())
    text = cleared(path)
    seconds: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="nbparity-") as tmp:
        work = Path(tmp)
        for side in ("nbclient", "nbcritic"):
            (work / side).mkdir()
        started = time.perf_counter()
        reference, raised = run_nbclient(text, path.parent, options, _env(work / "nbclient"),
                                         work)
        seconds["nbclient"] = round(time.perf_counter() - started, 2)
        started = time.perf_counter()
        ours, code, stderr = run_nbcritic(text, path.parent, options, _env(work / "nbcritic"),
                                          work, in_process=in_process)
        seconds["nbcritic"] = round(time.perf_counter() - started, 2)
    if ours is None:
        raise RuntimeError(f"nbcritic run wrote no notebook for {path.name}:\n{stderr}")
    return Execution(reference, raised, ours, code, stderr, seconds)


def run_notebook(path: Path, options: RunOptions | None = None, *,
                 in_process: bool = False) -> NotebookReport:
    run = execute_both(path, options, in_process=in_process)
    parity = compare(run.reference, run.ours, widget_state=run.nbclient_raised is None)
    return NotebookReport(
        path.name, code_cells=len(parity.cells),
        matched=len(parity.cells) - len(parity.differing),
        differing=[asdict(cell) for cell in parity.differing],
        widget_state_same=parity.widget_state_same, nbclient_raised=run.nbclient_raised,
        nbcritic_exit=run.nbcritic_exit, load_warnings=run.load_warnings,
        seconds=run.seconds)


def _env(folder: Path) -> dict[str, str]:
    """The test variables, and for nbcritic the setting that lets them reach its kernels
    (a kernel gets an allowlist of the service's environment: services/kernel_env.py)."""
    own = {"NBEXECUTE_TEST_PARALLEL_TMPDIR": str(folder), "COLUMNS": "80", "LINES": "24"}
    return {**own, "NBCRITIC_KERNEL_ENV_ALLOW": json.dumps(sorted(own))}


def _print(reports: list[NotebookReport]) -> None:
    for report in reports:
        flags = [f"nbclient raised {report.nbclient_raised}"] if report.nbclient_raised else []
        flags.append(f"nbcritic exit {report.nbcritic_exit}")
        if report.widget_state_same is not None:
            flags.append(f"widget state {'same' if report.widget_state_same else 'DIFFERS'}")
        flags += [f"warning: {w}" for w in report.load_warnings]
        print(f"{report.name}: {report.matched}/{report.code_cells} cells match "
              f"({'; '.join(flags)})")
        for cell in report.differing:
            print(f"    cell {cell['index']}: {cell['detail']}")
    cells = sum(r.code_cells for r in reports)
    matched = sum(r.matched for r in reports)
    widgets = [r.widget_state_same for r in reports if r.widget_state_same is not None]
    print(f"total: {len(reports)} notebooks, {matched}/{cells} code cells match; widget state "
          f"same in {sum(widgets)}/{len(widgets)} notebooks that have one")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", type=Path, default=[DEFAULT_DIR])
    parser.add_argument("--only", action="append", default=[], help="a notebook file name")
    parser.add_argument("--json", type=Path, help="write the reports here")
    parser.add_argument("--in-process", action="store_true",
                        help="call nbcritic's main here instead of a new process (quicker)")
    args = parser.parse_args(argv)
    paths = sorted(p for folder in args.folders for p in folder.glob("*.ipynb")
                   if not args.only or p.name in args.only)
    reports = [run_notebook(path, in_process=args.in_process) for path in paths]
    _print(reports)
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in reports], indent=1) + "\n")
    same = all(not r.differing and r.widget_state_same is not False for r in reports)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
