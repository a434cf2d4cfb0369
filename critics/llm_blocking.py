"""When an LLM finding may block a cell: only when something other than the model backs it.

A finding of the LLM critic blocks (critical, confidence at or above the bar) only when a
rule finding of its family on overlapping lines, or a kernel fact of the kind its family is
about, corroborates it. Otherwise it is reported at most `high`, marked
`evidence["uncorroborated"]`, and never turns a result into a ScientificValidityError.
`blocks_alone=True` (setting `critic_llm_blocks_alone`) restores the model's own severity.

Kernel facts that corroborate a family (thresholds are data, below):
- parametric_assumptions: a sample given to a test is skewed (|skew| >= SKEW), rejected by
  Shapiro-Wilk (p < NORMAL_P) or tiny (n < TINY_N);
- data_loss: a frame the cell filtered lost at least LOSS_SHARE of its rows;
- pseudoreplication: a frame has grouping columns nested in coarser ones (repeated units).
"""

from __future__ import annotations

from collections.abc import Callable

from .evidence import Evidence
from .findings import Finding, Severity

SKEW = 1.0
NORMAL_P = 0.01
TINY_N = 8
LOSS_SHARE = 0.2
UNCORROBORATED_CEILING = Severity.HIGH


def _skewed_or_tiny(evidence: Evidence) -> bool:
    return any((s.skew is not None and abs(s.skew) >= SKEW)
               or (s.normal_p is not None and s.normal_p < NORMAL_P)
               or 0 < s.n < TINY_N for s in evidence.samples)


def _rows_lost(evidence: Evidence) -> bool:
    for name, before in evidence.before.items():
        after = evidence.objects.get(name)
        rows_before, rows_after = before.rows, after.rows if after else None
        if rows_before and rows_after is not None and (
                rows_before - rows_after) >= LOSS_SHARE * rows_before:
            return True
    return False


def _nested_units(evidence: Evidence) -> bool:
    return any(o.nesting for o in evidence.objects.values())


KERNEL_FACTS: dict[str, Callable[[Evidence], bool]] = {
    "parametric_assumptions": _skewed_or_tiny,
    "data_loss": _rows_lost,
    "pseudoreplication": _nested_units,
}


def _overlap(a: Finding, b: Finding) -> bool:
    return not a.lines or not b.lines or bool(set(a.lines) & set(b.lines))


def corroboration(finding: Finding, rule_findings: list[Finding],
                  evidence: Evidence) -> list[str]:
    """What backs an LLM finding besides the model: rule ids, and `kernel_facts.<family>`."""
    backers = [r.rule_id for r in rule_findings
               if r.source != finding.source and r.family and r.family == finding.family
               and _overlap(finding, r)]
    fact = KERNEL_FACTS.get(finding.family)
    if fact is not None and fact(evidence):
        backers.append(f"kernel_facts.{finding.family}")
    return backers


def apply_policy(llm_findings: list[Finding], rule_findings: list[Finding],
                 evidence: Evidence, *, blocks_alone: bool = False) -> list[Finding]:
    """Mark each LLM finding corroborated (with what) or cap it at `high` (unless
    `blocks_alone`). The findings are changed in place and returned."""
    for finding in llm_findings:
        backers = corroboration(finding, rule_findings, evidence)
        if backers:
            finding.evidence["corroborated_by"] = backers
        elif not blocks_alone and finding.severity > UNCORROBORATED_CEILING:
            finding.evidence["uncorroborated"] = True
            finding.evidence["severity_from_model"] = finding.severity.value
            finding.severity = UNCORROBORATED_CEILING
    return llm_findings
