"""Print the analysis trace the kernel-side recorder makes of corpus cases (in this
process), one event per line, and the findings: for writing and debugging trace rules.

    .venv/bin/python bench/trace_show.py CASE_ID [CASE_ID ...]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


def _short(event: dict) -> str:
    drop = {"cell"}
    return json.dumps({k: v for k, v in event.items() if k not in drop}, default=str)[:400]


def show(case_id: str) -> None:
    from inprocess_evidence import run_and_gather

    from bench.critic_corpus import by_id
    from critics import AnalysisCritic

    case = by_id()[case_id]
    ev = run_and_gather(case.code, case.setup)
    print(f"== {case.id} ({case.family}) {case.note}")
    for i, line in enumerate(case.code.splitlines(), 1):
        print(f"{i:3d} {line}")
    t = ev.trace
    for e in t.events:
        print("  ev", _short(e))
    for d, info in t.data.items():
        print("  data", d, json.dumps(info, default=str)[:200])
    print("  overlap", t.overlap[:30], "errors", t.errors)
    for f in AnalysisCritic(load_plugins=False).review(ev).findings:
        print(f"  finding {f.rule_id} {f.severity} {f.confidence}")


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        show(arg)
