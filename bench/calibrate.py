"""Recompute the critic's calibrated confidences (critics/calibration.json) from a run of the
labelled corpus: per built-in rule, its findings (medium or worse) on flawed cells of its own
family (tp) and on sound cells (fp); findings on flawed cells of another family count for
neither (those cells may carry that flaw too). Confidence = the lower bound of the 95 %
Wilson interval of tp / (tp + fp) (critics/calibration.py says why).

    .venv/bin/python bench/calibrate.py                 # in-process run of the registered splits
    .venv/bin/python bench/calibrate.py --findings F    # from a saved run (JSON Lines)
    .venv/bin/python bench/calibrate.py --save-findings F   # keep this run's findings too

Only registered splits are used: a staged split is measured once before anything, this
table included, is tuned on it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.critic_corpus import REGISTERED_SPLITS, all_cases  # noqa: E402
from critics import Severity  # noqa: E402
from critics.calibration import TABLE, wilson_lower  # noqa: E402


def run_findings() -> list[dict[str, Any]]:
    from bench.critic_eval import run_in_process

    cases = [c for c in all_cases() if c.split in REGISTERED_SPLITS]
    return [{"id": s.case.id, "family": s.case.family,
             "findings": [{"rule_id": f["rule_id"], "family": f["family"],
                           "severity": f["severity"]} for f in s.findings]}
            for s in run_in_process(cases)]


def tally(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    for row in rows:
        for f in row["findings"]:
            if Severity(f["severity"]) < "medium":
                continue
            if row["family"] is None:
                fp[f["rule_id"]] += 1
            elif row["family"] == f["family"]:
                tp[f["rule_id"]] += 1
    return {rule: {"tp": tp[rule], "fp": fp[rule],
                   "confidence": wilson_lower(tp[rule], fp[rule])}
            for rule in sorted(set(tp) | set(fp))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--findings", type=Path, help="read a saved run instead of running")
    parser.add_argument("--save-findings", type=Path)
    parser.add_argument("--out", type=Path, default=TABLE)
    args = parser.parse_args()
    if args.findings:
        rows = [json.loads(line) for line in args.findings.read_text().splitlines() if line]
    else:
        rows = run_findings()
    if args.save_findings:
        args.save_findings.write_text("".join(json.dumps(r) + "\n" for r in rows))
    table = tally(rows)
    args.out.write_text(json.dumps({
        "_how": "bench/calibrate.py: per rule, tp/fp of its medium-or-worse findings on the "
                "registered corpus splits; confidence = 95% Wilson lower bound of precision",
        "cases": len(rows), "rules": table}, indent=1) + "\n")
    blocking = sum(1 for r in table.values() if r["confidence"] >= 0.8)
    print(f"{len(table)} rules measured on {len(rows)} cases; {blocking} can block at 0.8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
