"""Findings and the critique that holds them. Field names are the stored, public format:
other tools read `cell.metadata["nbcritic"]["critique"]["findings"]`."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any


class Severity(StrEnum):
    INFO = "info"
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"
    CRITICAL = "critical"

    @property
    def rank(self) -> int:
        return _RANK[self]

    def __ge__(self, other: object) -> bool:  # type: ignore[override]
        return self.rank >= Severity(other).rank  # type: ignore[arg-type]

    def __gt__(self, other: object) -> bool:  # type: ignore[override]
        return self.rank > Severity(other).rank  # type: ignore[arg-type]

    def __le__(self, other: object) -> bool:  # type: ignore[override]
        return self.rank <= Severity(other).rank  # type: ignore[arg-type]

    def __lt__(self, other: object) -> bool:  # type: ignore[override]
        return self.rank < Severity(other).rank  # type: ignore[arg-type]

    def lowered(self, steps: int = 1) -> Severity:
        return _ORDER[max(0, self.rank - steps)]


_ORDER = [Severity.INFO, Severity.LOW, Severity.MEDIUM, Severity.HIGH, Severity.CRITICAL]
_RANK = {s: i for i, s in enumerate(_ORDER)}


@dataclass
class Finding:
    """One problem found in a cell. `evidence` holds `lines` (1-based, in the cell's code),
    `values` (numbers or facts read from the kernel) and, for the Claude critic, `quotes`."""

    rule_id: str = ""
    title: str = ""
    explanation: str = ""
    severity: Severity = Severity.MEDIUM
    confidence: float = 0.5
    evidence: dict[str, Any] = field(default_factory=dict)
    suggestion: str = ""
    family: str = ""
    source: str = "rules"  # "rules" | "claude" | a user rule's package

    def __post_init__(self) -> None:
        self.severity = Severity(self.severity)
        self.confidence = round(min(1.0, max(0.0, float(self.confidence))), 3)

    @property
    def lines(self) -> list[int]:
        return list(self.evidence.get("lines", []))

    def is_blocking(self, min_confidence: float) -> bool:
        return self.severity is Severity.CRITICAL and self.confidence >= min_confidence

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["severity"] = self.severity.value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Finding:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)


@dataclass
class CriticError:
    """A rule (or the Claude critic) that crashed: reported, never fails the cell."""

    rule_id: str
    error: str


@dataclass
class Critique:
    findings: list[Finding] = field(default_factory=list)
    errors: list[CriticError] = field(default_factory=list)
    rules_run: int = 0
    skipped: bool = False  # `nbcritic-skip` tag or metadata, or the critic is off
    rules_ms: float = 0.0
    introspection_ms: float = 0.0
    llm_ms: float = 0.0
    trace_ms: float = 0.0  # CPU time the kernel spent recording the analysis trace
    introspection_error: str | None = None

    def has_critical_issues(self, min_confidence: float = 0.8) -> bool:
        return any(f.is_blocking(min_confidence) for f in self.findings)

    def critical_findings(self, min_confidence: float = 0.8) -> list[Finding]:
        return [f for f in self.findings if f.is_blocking(min_confidence)]

    def by_rule(self, rule_id: str) -> list[Finding]:
        return [f for f in self.findings if f.rule_id == rule_id]

    def to_dict(self) -> dict[str, Any]:
        return {
            "findings": [f.to_dict() for f in self.findings],
            "errors": [asdict(e) for e in self.errors],
            "rules_run": self.rules_run,
            "skipped": self.skipped,
            "timing_ms": {"rules": round(self.rules_ms, 3),
                          "introspection": round(self.introspection_ms, 3),
                          "llm": round(self.llm_ms, 3),
                          "trace": round(self.trace_ms, 3)},
            "introspection_error": self.introspection_error,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Critique:
        timing = data.get("timing_ms", {})
        return cls(
            findings=[Finding.from_dict(f) for f in data.get("findings", [])],
            errors=[CriticError(**e) for e in data.get("errors", [])],
            rules_run=data.get("rules_run", 0),
            skipped=data.get("skipped", False),
            rules_ms=timing.get("rules", 0.0),
            introspection_ms=timing.get("introspection", 0.0),
            llm_ms=timing.get("llm", 0.0),
            trace_ms=timing.get("trace", 0.0),
            introspection_error=data.get("introspection_error"),
        )
