"""Every finding the critic reports on corpus cases, by id (in-process evidence, all rules).

    .venv/bin/python bench/critic_case.py CASE_ID [CASE_ID ...] [-v]   # -v also prints the code
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.critic_corpus import by_id
from critics import AnalysisCritic
from tests.inprocess_evidence import run_and_gather


def main(argv: list[str]) -> None:
    cases, critic = by_id(), AnalysisCritic()
    for cid in (a for a in argv if not a.startswith("-")):
        case = cases[cid]
        critique = critic.review(run_and_gather(case.code, case.setup))
        print("==", cid, case.family, "|", case.note)
        for f in critique.findings:
            print(f"  {f.rule_id} {f.severity} {f.confidence}: {f.explanation}")
        for e in critique.errors:
            print("  critic error:", e)
        if "-v" in argv:
            print(case.code)


if __name__ == "__main__":
    main(sys.argv[1:])
