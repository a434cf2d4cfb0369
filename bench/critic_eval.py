"""Recall and false-positive rate of the AnalysisCritic on the labeled corpus, per family,
and the critic's time per cell (rules, introspection).

Every case runs for real: a notebook per case (its `setup` cell, then the cell under
review) executed by NotebookService in a fresh kernel from the warm pool, the critique read
from the cell's result. Rules only: the Claude critic is off (no model is ever called here).

    .venv/bin/python bench/critic_eval.py            # all cases, writes bench/README.md
    .venv/bin/python bench/critic_eval.py --split dev --no-write --show-misses

Scoring: a flawed case is caught when a finding of its family has severity medium or
worse (recall; "strict recall" asks for high or worse). A sound case is a false positive
when any finding is high or critical (the issue's definition). Two more columns say what a
user would feel on sound cells: "blocked" (a critical finding at confidence >= 0.8, the default
that stops the cell and starts a rewrite) and "any note" (a medium or worse finding: advisory
noise that the false-positive rate does not count).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import hashlib
import json
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.critic_corpus import FAMILIES, SPLITS, Case, all_cases  # noqa: E402
from critics import Severity  # noqa: E402
from critics.evidence import Evidence  # noqa: E402

README = ROOT / "bench" / "README.md"
START, END = "<!-- critic_eval:start -->", "<!-- critic_eval:end -->"
RECALL_TARGET, FP_TARGET, RULES_MS_TARGET, INTROSPECTION_MS_TARGET = 0.9, 0.05, 5.0, 30.0


@dataclass
class Scored:
    case: Case
    status: str
    findings: list[dict[str, Any]] = field(default_factory=list)
    rules_ms: float = 0.0
    introspection_ms: float = 0.0
    cell_ms: float = 0.0
    errors: list[dict[str, Any]] = field(default_factory=list)

    def caught(self, floor: str = "medium") -> bool:
        return any(f["family"] == self.case.family and Severity(f["severity"]) >= floor
                   for f in self.findings)

    @property
    def false_positive(self) -> bool:
        return any(Severity(f["severity"]) >= "high" for f in self.findings)

    @property
    def blocked(self) -> bool:
        """What a user feels: a critical finding at the default min_confidence (0.8) blocks
        the cell and starts a rewrite."""
        return any(f["severity"] == "critical" and f["confidence"] >= 0.8
                   for f in self.findings)

    @property
    def noted(self) -> bool:
        """Any advisory (medium) or worse finding: the critic's noise on sound cells, which the
        false-positive rate (high or worse) does not count."""
        return any(Severity(f["severity"]) >= "medium" for f in self.findings)


async def run_cases(cases: list[Case], pool_size: int) -> list[Scored]:
    from services.config import EngineConfig
    from services.notebook_service import NotebookService

    data_dir = Path(tempfile.mkdtemp(prefix="nbcritic-critic-eval-"))
    service = NotebookService(EngineConfig(data_dir=data_dir, pool_size=pool_size,
                                           critic_llm=False, cell_timeout=60))
    await service.start()
    scored: list[Scored] = []
    try:
        for i, case in enumerate(cases, 1):
            notebook_id = await service.create_notebook(f"case-{i}")
            if case.setup:
                setup = await service.add_cell(notebook_id, source=case.setup)
                await service.execute_cell(notebook_id, setup.id)
            cell = await service.add_cell(notebook_id, source=case.code)
            result = await service.execute_cell(notebook_id, cell.id)
            critique = result.critique or {}
            timing = critique.get("timing_ms", {})
            scored.append(Scored(case, result.status.value, critique.get("findings", []),
                                 timing.get("rules", 0.0), timing.get("introspection", 0.0),
                                 result.duration_ms, critique.get("errors", [])))
            await service.delete_notebook(notebook_id)  # its kernel goes; the next is fresh
            print(f"\r{i}/{len(cases)} cases", end="", file=sys.stderr, flush=True)
    finally:
        print(file=sys.stderr)
        await service.stop()
    return scored


def rescore(cases: list[Case], saved: Path, disabled: frozenset[str]) -> list[Scored]:
    """The saved findings of `cases`, without those of the `disabled` rules (ids, families,
    or 'prefix*')."""
    rows = {r["id"]: r for r in map(json.loads, saved.read_text().splitlines()) if r}

    def kept(f: dict[str, Any]) -> bool:
        return not any(f["rule_id"] == d or f["family"] == d or
                       (d.endswith("*") and f["rule_id"].startswith(d[:-1])) for d in disabled)
    return [Scored(c, "ok", [f for f in rows[c.id]["findings"] if kept(f)])
            for c in cases if c.id in rows]


def run_in_process(cases: list[Case], setup_hidden: bool = False,
                   disabled: frozenset[str] = frozenset(),
                   cache: Path | None = None) -> list[Scored]:
    """Development mode: same facts, collected in this process (no kernel, no timing).
    `setup_hidden`: the rules see only the import lines of the setup cell, as in a notebook
    whose data come from files: the corpus simulates its data in the setup, and code that
    draws a feature from the outcome is evidence no real notebook shows.
    `disabled`: rule ids (or id prefixes) left out, to measure what deleting them costs.
    `cache`: a folder keeping each case's evidence, keyed by the case and the sources that
    gather it, so a rule change is re-measured in seconds."""
    from critics import AnalysisCritic

    critic = AnalysisCritic(load_plugins=False, disabled=disabled)
    out = []
    for case in cases:
        ev = _evidence(case, cache)
        if setup_hidden:
            ev = Evidence.from_dict({**ev.to_dict(), "prior_code": _imports_only(case.setup)})
        critique = critic.review(ev)
        out.append(Scored(case, "ok", [f.to_dict() for f in critique.findings],
                          critique.rules_ms, ev.introspection_ms, 0.0,
                          [e.__dict__ for e in critique.errors]))
    return out


GATHER_SOURCES = ("services/analysis_trace.py", "services/trace_catalogue.json",
                  "services/kernel_facts.py", "services/cell_evidence.py",
                  "tests/inprocess_evidence.py")


@functools.cache
def _sources() -> bytes:
    """Read once: the code that gathers is the code this process imported."""
    return b"".join((ROOT / src).read_bytes() for src in GATHER_SOURCES)


def _evidence(case: Case, cache: Path | None) -> Evidence:
    """The case's evidence gathered in this process (from the cache when it is current)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from inprocess_evidence import run_and_gather

    if cache is None:
        return run_and_gather(case.code, case.setup)
    digest = hashlib.sha256((case.setup + "\0" + case.code).encode())
    digest.update(_sources())
    path = cache / f"{case.id}-{digest.hexdigest()[:16]}.json"
    if path.exists():
        return Evidence.from_dict(json.loads(path.read_text()))
    ev = run_and_gather(case.code, case.setup)
    cache.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(ev.to_dict(), default=str))
    return ev


def _imports_only(setup: str) -> str:
    return "\n".join(line for line in setup.splitlines()
                     if line.lstrip().startswith(("import ", "from ")))


def _rate(num: int, den: int) -> str:
    return f"{num / den:.2f} ({num}/{den})" if den else "-"


def report(scored: list[Scored]) -> tuple[str, dict[str, Any]]:
    rows = []
    totals: dict[str, Any] = {}
    for split in (*SPLITS, "all"):
        part = [s for s in scored if split == "all" or s.case.split == split]
        flawed = [s for s in part if s.case.flawed]
        sound = [s for s in part if not s.case.flawed]
        totals[split] = {
            "flawed": len(flawed), "sound": len(sound),
            "recall": sum(s.caught() for s in flawed) / len(flawed) if flawed else None,
            "strict_recall": (sum(s.caught("high") for s in flawed) / len(flawed)
                              if flawed else None),
            "fp_rate": sum(s.false_positive for s in sound) / len(sound) if sound else None,
            "blocked_rate": sum(s.blocked for s in sound) / len(sound) if sound else None,
            "noted_rate": sum(s.noted for s in sound) / len(sound) if sound else None,
        }
        rows.append(f"| {split} | {_rate(sum(s.caught() for s in flawed), len(flawed))} | "
                    f"{_rate(sum(s.caught('high') for s in flawed), len(flawed))} | "
                    f"{_rate(sum(s.false_positive for s in sound), len(sound))} | "
                    f"{_rate(sum(s.blocked for s in sound), len(sound))} | "
                    f"{_rate(sum(s.noted for s in sound), len(sound))} |")
    fam_rows = []
    for family in FAMILIES:
        flawed = [s for s in scored if s.case.family == family]
        twins = {s.case.twin for s in flawed}
        sound = [s for s in scored if not s.case.flawed and s.case.id in twins]
        fam_rows.append(
            f"| {family} | {_rate(sum(s.caught() for s in flawed), len(flawed))} | "
            f"{_rate(sum(s.caught('high') for s in flawed), len(flawed))} | "
            f"{_rate(sum(s.false_positive for s in sound), len(sound))} |")
    general = [s for s in scored if not s.case.flawed and not s.case.twin]
    fam_rows.append(f"| ordinary sound analyses | - | - | "
                    f"{_rate(sum(s.false_positive for s in general), len(general))} |")
    rules = [s.rules_ms for s in scored]
    intro = [s.introspection_ms for s in scored]
    cell = [s.cell_ms for s in scored if s.cell_ms]
    timing = {
        "rules_ms_median": statistics.median(rules), "rules_ms_p90": _p90(rules),
        "introspection_ms_median": statistics.median(intro), "introspection_ms_p90": _p90(intro),
        "cell_ms_median": statistics.median(cell) if cell else None,
    }
    totals["timing"] = timing
    errors = sum(len(s.errors) for s in scored)
    all_t = totals["all"]
    verdict = (
        f"recall {all_t['recall']:.2f} (target >= {RECALL_TARGET}), false-positive rate "
        f"{all_t['fp_rate']:.2f} (target <= {FP_TARGET}); rules {timing['rules_ms_median']:.2f}"
        f" ms median (target < {RULES_MS_TARGET}), introspection "
        f"{timing['introspection_ms_median']:.1f} ms median (target < "
        f"{INTROSPECTION_MS_TARGET})")
    text = "\n".join([
        f"Corpus: {len(scored)} cells ({sum(s.case.flawed for s in scored)} flawed, "
        f"{sum(not s.case.flawed for s in scored)} sound), each run in a fresh kernel "
        "through NotebookService; rules only (no LLM). Critic errors: "
        f"{errors}.", "", f"**Result:** {verdict}.", "",
        "| split | recall (>= medium) | strict recall (>= high) | false-positive rate "
        "(>= high) | sound cells blocked (critical, conf >= 0.8) | sound cells with any "
        "note (>= medium) |",
        "|---|---|---|---|---|---|", *rows, "",
        "| family | recall | strict recall | FP rate on its sound twins |",
        "|---|---|---|---|", *fam_rows, "",
        "| critic time per cell | median | p90 |", "|---|---|---|",
        f"| rules | {timing['rules_ms_median']:.2f} ms | {timing['rules_ms_p90']:.2f} ms |",
        f"| introspection (silent kernel request) | {timing['introspection_ms_median']:.1f} ms "
        f"| {timing['introspection_ms_p90']:.1f} ms |",
        f"| the cell itself (for scale) | {timing['cell_ms_median'] or 0:.1f} ms | - |",
    ])
    return text, totals


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))] if ordered else 0.0


def misses(scored: list[Scored]) -> str:
    lines = []
    for s in scored:
        if s.case.flawed and not s.caught():
            got = ", ".join(f"{f['rule_id']}:{f['severity']}" for f in s.findings) or "nothing"
            lines.append(f"MISS {s.case.split} {s.case.id} ({s.case.family}): {got}")
        elif not s.case.flawed and s.false_positive:
            got = ", ".join(f"{f['rule_id']}:{f['severity']}:{f['confidence']}"
                            for f in s.findings if Severity(f["severity"]) >= "high")
            lines.append(f"FP   {s.case.split} {s.case.id}: {got}")
        if s.errors:
            lines.append(f"ERR  {s.case.id}: {s.errors}")
        if s.status not in ("ok", "scientific_validity_error"):  # blocked is a verdict
            lines.append(f"RUN  {s.case.id}: status {s.status}")
    return "\n".join(lines)


def write_readme(text: str, command: str) -> None:
    body = README.read_text() if README.exists() else "# Benchmarks\n"
    section = (f"{START}\n## Critic precision and recall (`bench/critic_eval.py`)\n\n"
               f"Command: `{command}`\n\n{text}\n{END}")
    if START in body:
        head, rest = body.split(START, 1)
        body = head + section + rest.split(END, 1)[1]
    else:
        body = body.rstrip() + "\n\n" + section + "\n"
    README.write_text(body)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=SPLITS)
    parser.add_argument("--family", choices=FAMILIES)
    parser.add_argument("--in-process", action="store_true",
                        help="collect facts in this process instead of a kernel (fast, dev)")
    parser.add_argument("--setup-hidden", action="store_true",
                        help="with --in-process: the rules see only the setup's imports")
    parser.add_argument("--no-write", action="store_true", help="do not update bench/README.md")
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument("--json", type=Path, help="also write the totals as JSON here")
    parser.add_argument("--pool-size", type=int, default=2)
    parser.add_argument("--disable", default="",
                        help="with --in-process: rule ids, families or 'prefix*' to leave out "
                             "(comma-separated)")
    parser.add_argument("--cache", type=Path,
                        help="with --in-process: keep each case's evidence in this folder")
    parser.add_argument("--shard", default="",
                        help="i/n: only every n-th case from the i-th (fill a --cache in parallel)")
    parser.add_argument("--rescore", type=Path,
                        help="score a saved --findings run again (no cell runs), leaving out "
                             "the findings of the --disable rules: two configurations measured "
                             "on one first look")
    parser.add_argument("--findings", type=Path,
                        help="also write each case's findings here (JSON Lines)")
    args = parser.parse_args()
    cases = all_cases(args.split)
    if args.family:
        cases = [c for c in cases if c.family == args.family or (
            not c.flawed and c.id in {x.twin for x in cases if x.family == args.family})]
    if args.shard:
        try:
            i, n = (int(x) for x in args.shard.split("/"))
        except ValueError:
            parser.error(f"--shard: expected i/n (e.g. 0/3), got {args.shard!r}")
        if not 0 <= i < n:
            parser.error(f"--shard: i must be in 0..n-1, got {args.shard!r}")
        cases = cases[i::n]
    if args.rescore and not args.rescore.is_file():
        parser.error(f"--rescore: no such file: {args.rescore}")
    t0 = time.perf_counter()
    if args.setup_hidden and not args.in_process:
        parser.error("--setup-hidden needs --in-process (a kernel run reads the notebook's "
                     "real earlier cells)")
    disabled = frozenset(d for d in args.disable.split(",") if d)
    if args.rescore:
        scored = rescore(cases, args.rescore, disabled)
    elif args.in_process:
        scored = run_in_process(cases, args.setup_hidden, disabled, args.cache)
    else:
        scored = asyncio.run(
        run_cases(cases, args.pool_size))
    text, totals = report(scored)
    print(text)
    print(f"\n({time.perf_counter() - t0:.0f} s)")
    if args.show_misses:
        print("\n" + misses(scored))
    if args.json:
        args.json.write_text(json.dumps(totals, indent=2))
    if args.findings:
        args.findings.write_text("".join(json.dumps(
            {"id": s.case.id, "family": s.case.family, "findings": s.findings}) + "\n"
            for s in scored))
    full_run = not (args.split or args.family or args.in_process)
    if full_run and not args.no_write:
        write_readme(text, ".venv/bin/python bench/critic_eval.py")
    return 0


if __name__ == "__main__":
    sys.exit(main())
