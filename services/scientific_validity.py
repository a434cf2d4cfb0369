"""ScientificValidityError: a cell that ran but whose result the critic judges invalid.

It is a *logical* execution error: the cell's status becomes `scientific_validity_error`
and its error has Jupyter's shape `{ename, evalue, traceback}` (so every client that shows
errors shows it), plus `findings` (the blocking findings as dicts) for the retry loop, the
ErrorAnalyzer and the API. The nbformat error output added to the cell carries only the
three Jupyter keys.
"""

from __future__ import annotations

from typing import Any

from critics import Critique, Finding

ENAME = "ScientificValidityError"
MAX_FINDINGS_IN_MESSAGE = 5


class ScientificValidityError(Exception):
    """Raised by in-process faces (magics, the pytest plugin) for a blocked result."""

    def __init__(self, findings: list[Finding]):
        self.findings = findings
        super().__init__(validity_message(findings))


def blocking_findings(critique: Critique | dict[str, Any] | None,
                      min_confidence: float) -> list[Finding]:
    """The critical findings at or above `min_confidence`, most confident first."""
    if critique is None:
        return []
    if isinstance(critique, dict):
        critique = Critique.from_dict(critique)
    found = critique.critical_findings(min_confidence)
    return sorted(found, key=lambda f: -f.confidence)


def validity_message(findings: list[Finding]) -> str:
    """Each finding's title, explanation, evidence and suggestion, and the ask."""
    lines = [f"the critic found {len(findings)} critical methodological "
             f"problem{'s' if len(findings) != 1 else ''} in this result:"]
    for i, f in enumerate(findings[:MAX_FINDINGS_IN_MESSAGE], 1):
        lines.append(f"{i}. [{f.rule_id}] {f.title} (confidence {f.confidence:.2f})")
        if f.explanation:
            lines.append(f"   {f.explanation}")
        evidence = _evidence_text(f)
        if evidence:
            lines.append(f"   evidence: {evidence}")
        if f.suggestion:
            lines.append(f"   fix: {f.suggestion}")
    if len(findings) > MAX_FINDINGS_IN_MESSAGE:
        lines.append(f"... and {len(findings) - MAX_FINDINGS_IN_MESSAGE} more")
    lines.append("Fix the method, not the symptom: rewrite the analysis so that the reported "
                 "result is valid (or override the critic if the finding is wrong).")
    return "\n".join(lines)


def _evidence_text(finding: Finding) -> str:
    parts = []
    if finding.lines:
        parts.append("line" + ("s " if len(finding.lines) > 1 else " ")
                     + ", ".join(str(n) for n in finding.lines))
    values = finding.evidence.get("values") or {}
    if values:
        shown = ", ".join(f"{k}={v!r}" for k, v in list(values.items())[:6])
        parts.append(shown[:300])
    return "; ".join(parts)


def validity_error(findings: list[Finding]) -> dict[str, Any]:
    """The cell's error for a blocked result (Jupyter's keys plus `findings`)."""
    message = validity_message(findings)
    return {
        "ename": ENAME,
        "evalue": message,
        "traceback": [f"{ENAME}: {message}"],
        "findings": [f.to_dict() for f in findings],
    }


def jupyter_error(error: dict[str, Any]) -> dict[str, Any]:
    """Only the keys an nbformat error output may have."""
    return {k: error.get(k, [] if k == "traceback" else "") for k in
            ("ename", "evalue", "traceback")}
