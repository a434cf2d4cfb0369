"""The stored critique of one attempt (`Critique.to_dict()` and what the retry loop adds to
it): the Claude critic's token usage, self-check results, a skipped review, an override.

One place for both faces (the service's kernel executor and the magics' in-process one),
so the critique a cell keeps has the same shape however it ran.
"""

from __future__ import annotations

import logging
from typing import Any

from critics import AnalysisCritic, CriticError, Critique

from .cell_metadata import Override, fingerprint
from .code_generator import TokenUsage
from .self_checks import CheckResult, SelfCheck, check_findings, unevaluated

log = logging.getLogger(__name__)

USAGE_KEYS = ("input_tokens", "output_tokens", "cache_read_input_tokens",
              "cache_creation_input_tokens")


def skipped(reason: str) -> dict[str, Any]:
    """The critique of an `ok` attempt the critic did not review, and why."""
    return {**Critique(skipped=True).to_dict(), "reason": reason}


def reviewed(critique: Critique, critic: AnalysisCritic) -> dict[str, Any]:
    """The critique as stored, with the Claude critic's token usage (prompt-cache counts
    included) when it took part. Call right after the review, with no await in between:
    the usage is the critic's last call's."""
    data = critique.to_dict()
    usage = llm_usage(critique, critic)
    if usage is not None:
        data["usage"] = usage
    return data


def failed_review(exc: Exception) -> dict[str, Any]:
    """The critique of a review that raised: the critic never fails a cell."""
    log.warning("the critic failed", exc_info=exc)
    return Critique(errors=[CriticError("critic", f"{type(exc).__name__}: {exc}")]).to_dict()


def llm_usage(critique: Critique, critic: AnalysisCritic) -> dict[str, int] | None:
    """The SDK's usage of the Claude critic's call for this critique (None: no call)."""
    last = getattr(critic.llm, "last_usage", None)
    if critique.llm_ms <= 0 or not isinstance(last, dict):
        return None
    counts = [int(last.get(key) or 0) for key in USAGE_KEYS]
    return TokenUsage(*counts).to_dict()


def add_check_results(critique: dict[str, Any], checks: list[SelfCheck],
                      results: list[CheckResult], invalid: str | None = None) -> None:
    """Failed checks join the findings (critical by default, so they block like the
    critic's); checks with no verdict, and invalid ones, are critic errors."""
    errors = critique.setdefault("errors", [])
    if invalid:
        errors.append({"rule_id": "self_check",
                       "error": f"invalid checks in cell metadata: {invalid}"})
    if not checks:
        return
    critique.setdefault("findings", []).extend(
        f.to_dict() for f in check_findings(checks, results))
    errors.extend({"rule_id": "self_check", "error": reason}
                  for reason in unevaluated(checks, results))
    critique["checks"] = [{"name": r.name, "passed": r.passed, "detail": r.detail,
                           "error": r.error, "evaluated": r.evaluated} for r in results]


def applied_override(override: Override, attempt: int, blocking: list[Any], code: str,
                     prompt: str | None, generated: bool) -> dict[str, Any]:
    """The override as recorded: who, how, when, on which attempt, findings and code."""
    return {**override.to_dict(), "attempt": attempt,
            "findings": [f.rule_id for f in blocking],
            "fingerprint": fingerprint(code, prompt), "generated": generated}


def in_force(overrides: list[Override], code: str, prompt: str | None) -> Override | None:
    """The first override that covers this code and prompt (a flag covers any)."""
    return next((o for o in overrides if o.applies_to(code, prompt)), None)
