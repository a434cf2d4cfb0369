"""Iteration control: after each attempt of a cell, `proceed`, `retry` or `escalate`.

Two budgets, counted separately: retries caused by runtime errors and retries caused by the
critic (fewer by default: a methodological fix that failed twice rarely succeeds a third
time). A stall stops early, whatever the budget: the generator proposes code it already
tried, the same blocking finding survives a fix, or the same error comes back unchanged.
An escalation summarises every attempt, names the pattern, and asks the user one concrete
question.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Protocol

from .status import CellStatus

MAX_QUESTION_CHARS = 400


class Action(StrEnum):
    PROCEED = "proceed"
    RETRY = "retry"
    ESCALATE = "escalate"


class Cause(StrEnum):
    ERROR = "error"
    CRITIQUE = "critique"


class Pattern(StrEnum):
    ERROR_BUDGET = "error_budget_exhausted"
    CRITIQUE_BUDGET = "critique_budget_exhausted"
    SAME_FINDING = "same_finding_survived_fix"
    SAME_ERROR = "same_error_repeated"
    REPEATED_CODE = "generator_repeated_code"
    GENERATOR_FAILED = "generator_failed"
    TOKEN_BUDGET = "token_budget_exhausted"
    NO_GENERATOR = "no_code_generator"


class Feedback(Protocol):
    """What ErrorAnalyzer returns (duck-typed here to keep this module standalone)."""

    kind: str
    ename: str
    evalue: str
    line: int | None
    line_text: str | None
    findings: list[dict[str, Any]]

    def render(self, max_chars: int = 4000) -> str: ...

    def signature(self) -> str: ...


@dataclass(frozen=True)
class RetryBudgets:
    error_retries: int = 3
    critique_retries: int = 2

    def of(self, cause: Cause) -> int:
        return self.error_retries if cause is Cause.ERROR else self.critique_retries


@dataclass
class AttemptOutcome:
    """One attempt as the controller sees it."""

    attempt: int
    code: str
    status: CellStatus
    feedback: Feedback | None = None  # for `error` and `scientific_validity_error`

    @property
    def cause(self) -> Cause | None:
        if self.status is CellStatus.ERROR:
            return Cause.ERROR
        if self.status is CellStatus.SCIENTIFIC_VALIDITY_ERROR:
            return Cause.CRITIQUE
        return None

    def blocking_rules(self) -> set[str]:
        if self.feedback is None or self.cause is not Cause.CRITIQUE:
            return set()
        return {f.get("rule_id", "") for f in self.feedback.findings}


@dataclass
class Decision:
    action: Action
    cause: Cause | None = None
    feedback: str | None = None  # for `retry`: the text the generator gets
    escalation: dict[str, Any] | None = None  # for `escalate`
    retries_used: dict[str, int] = field(default_factory=dict)


def normalized(code: str) -> str:
    """Code compared for "already tried": whitespace-insensitive, comments kept (a comment
    change alone is still the same program, but telling them apart needs a parser and the
    generator rarely does that)."""
    return "\n".join(line.rstrip() for line in code.strip().splitlines() if line.strip())


class IterationController:
    def __init__(self, budgets: RetryBudgets, *, can_generate: bool,
                 max_feedback_chars: int = 4000) -> None:
        self.budgets = budgets
        self.can_generate = can_generate
        self.max_feedback_chars = max_feedback_chars

    def retries_used(self, attempts: list[AttemptOutcome]) -> dict[str, int]:
        """Retries already made, by the cause of the attempt that triggered each one."""
        used = {Cause.ERROR.value: 0, Cause.CRITIQUE.value: 0}
        for previous in attempts[:-1]:
            if previous.cause is not None:
                used[previous.cause.value] += 1
        return used

    def decide(self, attempts: list[AttemptOutcome]) -> Decision:
        last = attempts[-1]
        cause = last.cause
        used = self.retries_used(attempts)
        if cause is None or last.feedback is None:
            return Decision(Action.PROCEED, retries_used=used)
        if not self.can_generate:
            if cause is Cause.ERROR:  # an ordinary error in a hand-written cell: final as is
                return Decision(Action.PROCEED, cause, retries_used=used)
            return self.escalate(attempts, Pattern.NO_GENERATOR)
        stall = self._stall(attempts)
        if stall is not None:
            return self.escalate(attempts, stall)
        if used[cause.value] >= self.budgets.of(cause):
            pattern = Pattern.ERROR_BUDGET if cause is Cause.ERROR else Pattern.CRITIQUE_BUDGET
            return self.escalate(attempts, pattern)
        return Decision(Action.RETRY, cause, last.feedback.render(self.max_feedback_chars),
                        retries_used=used)

    def check_candidate(self, code: str, attempts: list[AttemptOutcome]) -> Decision | None:
        """Before running generated code: code already tried is a stall."""
        tried = {normalized(a.code) for a in attempts}
        if normalized(code) in tried:
            return self.escalate(attempts, Pattern.REPEATED_CODE)
        return None

    def _stall(self, attempts: list[AttemptOutcome]) -> Pattern | None:
        if len(attempts) < 2:
            return None
        last, previous = attempts[-1], attempts[-2]
        if (last.cause is Cause.CRITIQUE and previous.cause is Cause.CRITIQUE
                and last.blocking_rules() & previous.blocking_rules()):
            return Pattern.SAME_FINDING
        if (last.cause is Cause.ERROR and previous.cause is Cause.ERROR
                and last.feedback is not None and previous.feedback is not None
                and last.feedback.signature() == previous.feedback.signature()):
            return Pattern.SAME_ERROR
        return None

    def escalate(self, attempts: list[AttemptOutcome], pattern: Pattern,
                 detail: str = "") -> Decision:
        last = attempts[-1]
        used = self.retries_used(attempts)
        escalation = {
            "pattern": pattern.value,
            "reason": _reason(pattern, last, used, self.budgets, detail),
            "question": _question(pattern, last, detail)[:MAX_QUESTION_CHARS],
            "attempts": [_summary(a) for a in attempts],
            "retries_used": used,
            "budgets": {"error_retries": self.budgets.error_retries,
                        "critique_retries": self.budgets.critique_retries},
            "at": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        return Decision(Action.ESCALATE, last.cause, escalation=escalation, retries_used=used)


    def escalate_without_attempt(self, pattern: Pattern, detail: str) -> dict[str, Any]:
        """Nothing ran (a prompt cell whose code could not be generated)."""
        question = (f"The code generator failed ({_short(detail, 160)}). Should I retry "
                    "later, or will you write the cell's code?")
        return {"pattern": pattern.value, "reason": f"the code generator failed: {detail}",
                "question": question[:MAX_QUESTION_CHARS], "attempts": [],
                "retries_used": {"error": 0, "critique": 0},
                "budgets": {"error_retries": self.budgets.error_retries,
                            "critique_retries": self.budgets.critique_retries},
                "at": datetime.now(UTC).isoformat(timespec="seconds")}


def _headline(outcome: AttemptOutcome) -> str:
    fb = outcome.feedback
    if fb is None:
        return outcome.status.value
    if outcome.cause is Cause.CRITIQUE:
        titles = [f"{f.get('title', '')} ({f.get('rule_id', '')})" for f in fb.findings]
        return "critic: " + "; ".join(titles)
    where = f" at line {fb.line}" if fb.line else ""
    return f"{fb.ename}: {_short(fb.evalue, 160)}{where}"


def _summary(outcome: AttemptOutcome) -> dict[str, Any]:
    return {"attempt": outcome.attempt, "status": outcome.status.value,
            "cause": outcome.cause.value if outcome.cause else None,
            "summary": _headline(outcome)}


def _short(text: str, limit: int) -> str:
    """At most `limit` characters; a cut never leaves a `code span` open (it ends before
    the span, or at a word when that loses little)."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if cut.count("`") % 2:
        cut = cut[: cut.rfind("`")]
    space = cut.rfind(" ")
    if space > len(cut) * 2 // 3:
        cut = cut[:space]
    return cut.rstrip(" ,;:(") + "…"


def _problem(last: AttemptOutcome) -> str:
    """` (what it was about)`: the blocking finding or the error, '' when neither."""
    if last.cause is Cause.CRITIQUE:
        finding = _first_finding(last)
        title = finding.get("title") or finding.get("rule_id")
        return f" (the critic reports \u201c{_short(title, 100)}\u201d)" if title else ""
    if last.feedback is not None and last.feedback.ename:
        return f" ({last.feedback.ename}: {_short(last.feedback.evalue or '', 100)})"
    return ""


def _first_finding(outcome: AttemptOutcome) -> dict[str, Any]:
    findings = outcome.feedback.findings if outcome.feedback else []
    return findings[0] if findings else {}


def _reason(pattern: Pattern, last: AttemptOutcome, used: dict[str, int],
            budgets: RetryBudgets, detail: str) -> str:
    n = last.attempt
    reasons = {
        Pattern.ERROR_BUDGET: f"the cell still fails after {used['error']} error "
                              f"retr{'y' if used['error'] == 1 else 'ies'} "
                              f"(budget {budgets.error_retries})",
        Pattern.CRITIQUE_BUDGET: f"the critic still blocks the result after {used['critique']} "
                                 f"critique retr{'y' if used['critique'] == 1 else 'ies'} "
                                 f"(budget {budgets.critique_retries})",
        Pattern.SAME_FINDING: f"the same critical finding survived the fix of attempt {n}",
        Pattern.SAME_ERROR: f"attempt {n} failed with the same error as attempt {n - 1}",
        Pattern.REPEATED_CODE: "the generator proposed code that was already tried",
        Pattern.GENERATOR_FAILED: "the code generator failed",
        Pattern.TOKEN_BUDGET: "the cell's token budget is spent",
        Pattern.NO_GENERATOR: "the critic blocks the result and no code generator is "
                              "configured to rewrite it",
    }
    text = reasons[pattern]
    return f"{text}: {detail}" if detail else text


def _question(pattern: Pattern, last: AttemptOutcome, detail: str) -> str:
    fb = last.feedback
    if pattern is Pattern.GENERATOR_FAILED:  # whatever the cell's problem, say why no fix came
        return (f"The code generator failed ({_short(detail, 160)}), so the cell could not be "
                f"rewritten{_problem(last)}. Should I retry later, or will you fix the cell by "
                "hand?")
    if last.cause is Cause.CRITIQUE:
        finding = _first_finding(last)
        title = finding.get("title") or finding.get("rule_id") or "a critical finding"
        head = (f"The critic reports \u201c{_short(title, 120)}\u201d. Should the analysis "
                "be restructured")
        tail = (", or is the finding wrong for this data, in which case accept it (override "
                "the critic for this cell)?")
        room = MAX_QUESTION_CHARS - len(head) - len(tail) - len(" as suggested ()")
        suggestion = _short(finding.get("suggestion") or "", room) if room > 20 else ""
        how = f" as suggested ({suggestion})" if suggestion else ""
        return head + how + tail
    if pattern is Pattern.TOKEN_BUDGET:
        return ("The cell used its token budget. Raise the budget for this cell, or fix the "
                "remaining problem by hand?")
    if fb is not None:
        where = f" on line {fb.line} (`{_short(fb.line_text or '', 120)}`)" if fb.line else ""
        return (f"The cell keeps failing with {fb.ename}: {_short(fb.evalue, 160)}{where}. "
                "What should this step use instead (which input, column or approach)?")
    return "How should this cell be changed?"
