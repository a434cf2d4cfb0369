"""Calibrated confidence: a built-in rule's finding carries the measured precision of that
rule on the labelled corpus, not a number typed into the rule.

`calibration.json` is written by `bench/calibrate.py` from a run of the corpus: for each rule,
`tp` (its findings on flawed cells of its own family), `fp` (its findings on sound cells) and
`confidence`, the lower bound of the 95 % Wilson interval of tp / (tp + fp). A lower bound,
because the corpus is the data the rules were tuned on: a rule that fired a few times cannot
claim much. A rule the table does not know (new, or never fired) is capped below the blocking
bar until it is measured. User and plugin rules keep their own confidence.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from functools import cache
from pathlib import Path

from .findings import Finding

TABLE = Path(__file__).with_name("calibration.json")
UNMEASURED_CAP = 0.75  # below the default blocking bar (0.8): unmeasured rules never block


@cache
def table() -> dict[str, dict[str, float]]:
    if not TABLE.exists():
        return {}
    return json.loads(TABLE.read_text()).get("rules", {})


def wilson_lower(tp: int, fp: int, z: float = 1.96) -> float:
    n = tp + fp
    if n == 0:
        return 0.0
    p = tp / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return round((centre - spread) / (1 + z * z / n), 3)


def calibrate(finding: Finding, builtin: bool) -> Finding:
    """The finding with its rule's measured confidence (built-in rules only)."""
    if not builtin or not table():
        return finding
    row = table().get(finding.rule_id)
    if row is None:
        return replace(finding, confidence=min(finding.confidence, UNMEASURED_CAP))
    return replace(finding, confidence=float(row["confidence"]))
