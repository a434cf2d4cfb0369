"""False alarms of the critic on sound public notebooks that nobody on this project wrote.

The notebooks are published examples (statsmodels' example notebooks, scikit-learn's
gallery scripts) listed in `bench/real_notebooks.toml` and prepared once, outside the
repository, by `bench/real_notebooks_prepare.py` (default /work/realnb). Nothing is fetched
here: every notebook runs offline on bundled data sets.

Each notebook runs cell by cell through the real service, as `bench/critic_eval.py` does:
NotebookService with a warm kernel pool (real kernels), the rules critic on (no LLM, no code
generator, so nothing is rewritten), one fresh kernel per notebook. A cell that errors is
recorded and the next cell runs anyway.

    .venv/bin/python bench/real_notebooks_check.py                 # all; updates bench/README.md
    .venv/bin/python bench/real_notebooks_check.py --only sm_ols --show-findings
    .venv/bin/python bench/real_notebooks_check.py --json /tmp/realnb.json --no-write

Counted per notebook and in total:
- executed: code cells sent to the kernel; ok: status ok; errors: error / timeout / dead
  kernel; reviewed: cells the critic reviewed (ok or blocked);
- findings by severity; critical findings count as false alarms (the notebooks are sound);
- blocked: cells with a critical finding at confidence >= 0.8 (the service's default blocks
  such a cell: status scientific_validity_error);
- alarm rate: reviewed cells with any finding of severity high or critical / reviewed cells.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from critics import Severity  # noqa: E402

README = ROOT / "bench" / "README.md"
START, END = "<!-- real_notebooks:start -->", "<!-- real_notebooks:end -->"
DEFAULT_DIR = Path("/work/realnb")
SEVERITIES = ("critical", "high", "medium", "low", "info")
BLOCK_CONFIDENCE = 0.8


@dataclass
class CellRun:
    index: int  # 1-based among the notebook's code cells
    status: str
    ms: float
    findings: list[dict[str, Any]] = field(default_factory=list)
    critic_errors: int = 0
    error: str | None = None  # ename: evalue of a failed cell

    @property
    def reviewed(self) -> bool:
        return self.status in ("ok", "scientific_validity_error")

    @property
    def alarm(self) -> bool:
        return any(Severity(f["severity"]) >= "high" for f in self.findings)

    @property
    def blocked(self) -> bool:
        return any(f["severity"] == "critical" and f["confidence"] >= BLOCK_CONFIDENCE
                   for f in self.findings)


@dataclass
class NotebookRun:
    name: str
    repository: str
    path: str
    seconds: float = 0.0
    cells: list[CellRun] = field(default_factory=list)

    def totals(self) -> dict[str, Any]:
        return _totals(self.cells)


def _totals(cells: list[CellRun]) -> dict[str, Any]:
    sev = Counter(f["severity"] for c in cells for f in c.findings)
    reviewed = [c for c in cells if c.reviewed]
    alarms = sum(c.alarm for c in reviewed)
    return {
        "executed": len(cells),
        "ok": sum(c.status == "ok" for c in cells),
        "errors": sum(not c.reviewed for c in cells),
        "reviewed": len(reviewed),
        "findings": {s: sev.get(s, 0) for s in SEVERITIES},
        "critical": sev.get("critical", 0),
        "blocked": sum(c.blocked for c in cells),
        "alarm_cells": alarms,
        "alarm_rate": alarms / len(reviewed) if reviewed else None,
        "critic_errors": sum(c.critic_errors for c in cells),
    }


def load_manifest(folder: Path) -> list[dict[str, Any]]:
    manifest = folder / "manifest.json"
    if not manifest.exists():
        raise SystemExit(f"{manifest} not found: run bench/real_notebooks_prepare.py first")
    return json.loads(manifest.read_text())


def code_cells(path: Path) -> list[tuple[str, str]]:
    """(cell_type, source) of every markdown and code cell, in order."""
    nb = json.loads(path.read_text())
    out = []
    for cell in nb["cells"]:
        src = cell.get("source", "")
        src = "".join(src) if isinstance(src, list) else src
        if cell["cell_type"] in ("code", "markdown") and src.strip():
            out.append((cell["cell_type"], src))
    return out


async def run_notebooks(entries: list[dict[str, Any]], folder: Path, pool_size: int,
                        cell_timeout: float) -> list[NotebookRun]:
    from services.config import EngineConfig
    from services.notebook_service import NotebookService

    data_dir = Path(tempfile.mkdtemp(prefix="nbcritic-realnb-"))
    work = data_dir / "cwd"  # the kernels' working directory: files a notebook writes go here
    work.mkdir()
    here = Path.cwd()
    os.chdir(work)
    service = NotebookService(EngineConfig(
        data_dir=data_dir, pool_size=pool_size, critic_llm=False, cell_timeout=cell_timeout,
        auto_fix=False, lessons_enabled=False, improvements_enabled=False,
        reflection_auto=False))
    await service.start()
    runs: list[NotebookRun] = []
    try:
        for n, entry in enumerate(entries, 1):
            run = NotebookRun(entry["name"], entry["repository"], entry["path"])
            t0 = time.perf_counter()
            notebook_id = await service.create_notebook(f"realnb-{entry['name']}")
            ids = []
            for kind, source in code_cells(folder / entry["file"]):
                cell = await service.add_cell(notebook_id, source=source, cell_type=kind)
                if kind == "code":
                    ids.append(cell.id)
            for index, cell_id in enumerate(ids, 1):
                result = await service.execute_cell(notebook_id, cell_id)
                critique = result.critique or {}
                error = None
                if result.status.value not in ("ok", "scientific_validity_error"):
                    err = result.error or {}
                    error = f"{err.get('ename', result.status.value)}: " \
                            f"{str(err.get('evalue', ''))[:160]}"
                run.cells.append(CellRun(index, result.status.value, result.duration_ms,
                                         critique.get("findings", []),
                                         len(critique.get("errors", [])), error))
                if sys.stderr.isatty():
                    print(f"\r{n}/{len(entries)} {entry['name']}: cell {index}/{len(ids)}"
                          + " " * 20, end="", file=sys.stderr, flush=True)
            await service.delete_notebook(notebook_id)  # its kernel goes; the next is fresh
            run.seconds = time.perf_counter() - t0
            runs.append(run)
            if not sys.stderr.isatty():
                t = run.totals()
                print(f"{n}/{len(entries)} {entry['name']}: {t['executed']} cells, "
                      f"{t['errors']} failed, findings {_sev(t)}, {run.seconds:.0f} s",
                      file=sys.stderr, flush=True)
    finally:
        print(file=sys.stderr)
        await service.stop()
        os.chdir(here)
    return runs


def _rate(t: dict[str, Any]) -> str:
    if t["alarm_rate"] is None:
        return "-"
    return f"{t['alarm_rate']:.3f} ({t['alarm_cells']}/{t['reviewed']})"


def _sev(t: dict[str, Any]) -> str:
    return " / ".join(str(t["findings"][s]) for s in SEVERITIES)


def high_findings(runs: list[NotebookRun], floor: str = "high") -> list[dict[str, Any]]:
    out = []
    for run in runs:
        for cell in run.cells:
            for f in cell.findings:
                if Severity(f["severity"]) >= floor:
                    out.append({"notebook": run.name, "cell": cell.index, **_brief(f)})
    return out


def _brief(f: dict[str, Any]) -> dict[str, Any]:
    lines = (f.get("evidence") or {}).get("lines") or []
    return {"rule_id": f["rule_id"], "severity": f["severity"],
            "confidence": f["confidence"], "title": f["title"],
            "line": lines[0] if lines else None}


def measured_at() -> str:
    """The commit measured, and whether the critic's code differed from it."""
    def git(*args: str) -> str:
        out = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True,
                             check=False)
        return out.stdout.strip()

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = [line[3:] for line in git("status", "--porcelain", "--", "critics",
                                          "services").splitlines()]
    return head + (f" (uncommitted changes in {', '.join(dirty)})" if dirty else "")


def report(runs: list[NotebookRun]) -> tuple[str, str, dict[str, Any]]:
    """(the full per-notebook text for stdout, the short README block, the JSON data)."""
    total = _totals([c for r in runs for c in r.cells])
    by_repo = {}
    for repo in sorted({r.repository for r in runs}):
        part = [r for r in runs if r.repository == repo]
        by_repo[repo] = {"notebooks": len(part), **_totals([c for r in part for c in r.cells])}
    head = ("| notebook | executed | ok | errors | reviewed | findings crit / high / med / "
            "low / info | blocked | alarm rate (>= high) | s |")
    rows = [head, "|---|---|---|---|---|---|---|---|---|"]
    for r in runs:
        t = r.totals()
        rows.append(f"| {r.name} | {t['executed']} | {t['ok']} | {t['errors']} | "
                    f"{t['reviewed']} | {_sev(t)} | {t['blocked']} | {_rate(t)} | "
                    f"{r.seconds:.0f} |")
    total_row = (f"| **total ({len(runs)} notebooks)** | {total['executed']} | {total['ok']} | "
                 f"{total['errors']} | {total['reviewed']} | {_sev(total)} | "
                 f"{total['blocked']} | {_rate(total)} | {sum(r.seconds for r in runs):.0f} |")
    rows.append(total_row)
    repo_rows = ["| source | notebooks | code cells executed | reviewed | critical findings | "
                 "blocked cells | alarm rate per reviewed cell |", "|---|---|---|---|---|---|---|"]
    for repo, t in by_repo.items():
        repo_rows.append(f"| {repo} | {t['notebooks']} | {t['executed']} | {t['reviewed']} | "
                         f"{t['critical']} | {t['blocked']} | {_rate(t)} |")
    repo_rows.append(f"| all | {len(runs)} | {total['executed']} | {total['reviewed']} | "
                     f"{total['critical']} | {total['blocked']} | {_rate(total)} |")
    alarms = high_findings(runs)
    alarm_lines = [f"- `{a['rule_id']}` ({a['severity']}, conf {a['confidence']:.2f}) "
                   f"{a['notebook']} cell {a['cell']}"
                   + (f" line {a['line']}" if a["line"] else "") + f": {a['title']}"
                   for a in alarms] or ["- none"]
    errored = [f"{r.name} cell {c.index}: {c.error}" for r in runs for c in r.cells
               if not c.reviewed]
    summary = (
        f"Measured at {measured_at()}: {len(runs)} notebooks, {total['executed']} code "
        f"cells executed, {total['ok']} ok, "
        f"{total['errors']} failed to run, {total['reviewed']} reviewed. Findings by severity "
        f"(critical / high / medium / low / info): {_sev(total)}. **Critical findings (false "
        f"alarms): {total['critical']}; blocked cells: {total['blocked']}; alarm rate per "
        f"reviewed cell (any finding >= high): {_rate(total)}.** Critic errors: "
        f"{total['critic_errors']}.")
    block = "\n".join([summary, "", *repo_rows, "", "Findings of severity high or critical:",
                       "", *alarm_lines])
    full = "\n".join([*rows, "", block, "", "Cells that did not run:",
                      *(errored or ["none"])])
    data = {"total": total, "by_repository": by_repo,
            "notebooks": [{"name": r.name, "repository": r.repository, "path": r.path,
                           "seconds": round(r.seconds, 1), "totals": r.totals(),
                           "cells": [asdict(c) for c in r.cells]} for r in runs],
            "alarms": alarms}
    return full, block, data


def show_findings(runs: list[NotebookRun]) -> str:
    lines = []
    for run in runs:
        for cell in run.cells:
            for f in cell.findings:
                b = _brief(f)
                lines.append(f"{b['severity']:<8} {b['confidence']:.2f} {b['rule_id']:<40} "
                             f"{run.name} cell {cell.index} line {b['line']}: {b['title']}")
    return "\n".join(lines) or "no findings"


def write_readme(block: str, command: str) -> None:
    body = README.read_text()
    section = f"{START}\nCommand: `{command}`\n\n{block}\n{END}"
    if START in body:
        head, rest = body.split(START, 1)
        body = head + section + rest.split(END, 1)[1]
    else:
        body = (body.rstrip() + "\n\n## False alarms on public notebooks "
                "(`bench/real_notebooks_check.py`)\n\n" + section + "\n")
    README.write_text(body)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR,
                        help="the prepared notebooks (bench/real_notebooks_prepare.py)")
    parser.add_argument("--only", action="append", metavar="NAME",
                        help="run only this notebook (repeatable)")
    parser.add_argument("--json", type=Path, metavar="OUT", help="write every result here")
    parser.add_argument("--show-findings", action="store_true",
                        help="list every finding (rule_id, title, line, notebook, cell)")
    parser.add_argument("--no-write", action="store_true", help="do not update bench/README.md")
    parser.add_argument("--pool-size", type=int, default=2)
    parser.add_argument("--cell-timeout", type=float, default=120.0)
    args = parser.parse_args()
    entries = load_manifest(args.dir)
    if args.only:
        known = {e["name"] for e in entries}
        unknown = sorted(set(args.only) - known)
        if unknown:
            parser.error(f"unknown notebook(s) {unknown}; known: {sorted(known)}")
        entries = [e for e in entries if e["name"] in args.only]
    t0 = time.perf_counter()
    runs = asyncio.run(run_notebooks(entries, args.dir, args.pool_size, args.cell_timeout))
    full, block, data = report(runs)
    print(full)
    print(f"\n({time.perf_counter() - t0:.0f} s)")
    if args.show_findings:
        print("\n" + show_findings(runs))
    if args.json:
        args.json.write_text(json.dumps(data, indent=1))
    if not (args.only or args.no_write):
        write_readme(block, " ".join([".venv/bin/python bench/real_notebooks_check.py",
                                      *sys.argv[1:]]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
