"""Assertions shared by the per-family rule tests (tests/test_rules_*.py).

Each family test builds `Evidence` (in-process with `run_and_gather`, or code-only with
`evidence`) and checks it with that family's rules; these helpers keep the assertions uniform.
"""

from __future__ import annotations

from collections.abc import Iterable

from critics.evidence import Evidence
from critics.findings import Finding
from critics.rule import Rule
from tests.inprocess_evidence import evidence, run_and_gather

LOUD = ("high", "critical")


def check(rules: Iterable[Rule], ev: Evidence, rule_id: str | None = None) -> list[Finding]:
    """Every finding the rules report on `ev` (only `rule_id`'s when given)."""
    found = [f for r in rules for f in r.check(ev)]
    return [f for f in found if rule_id is None or f.rule_id == rule_id]


def run(rules: Iterable[Rule], code: str, setup: str = "") -> list[Finding]:
    """Run `code` in-process after `setup` and check the real evidence."""
    return check(rules, run_and_gather(code, setup))


def code_only(rules: Iterable[Rule], code: str) -> list[Finding]:
    """Check `code` without running it (no kernel facts)."""
    return check(rules, evidence(code))


def describe(found: list[Finding]) -> list[tuple[str, str, str]]:
    return [(f.rule_id, str(f.severity), f.explanation) for f in found]


def one(found: list[Finding], rule_id: str) -> Finding:
    """Exactly one finding of `rule_id`; the failure message lists everything found."""
    hits = [f for f in found if f.rule_id == rule_id]
    assert len(hits) == 1, describe(found)
    return hits[0]


def only(found: list[Finding]) -> Finding:
    """Exactly one finding in total."""
    assert len(found) == 1, describe(found)
    return found[0]


def quiet(found: list[Finding]) -> None:
    """A sound cell: no high or critical finding (what the benchmark counts as a false positive)."""
    loud = [f for f in found if f.severity in LOUD]
    assert not loud, describe(loud)


def silent(found: list[Finding]) -> None:
    """No finding at all, not even an informational one."""
    assert not found, describe(found)


def blocking(found: list[Finding], min_confidence: float = 0.8) -> list[Finding]:
    """The findings that would block the cell (critical at or above the threshold)."""
    return [f for f in found if f.is_blocking(min_confidence)]
