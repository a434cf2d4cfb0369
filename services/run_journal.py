"""The service's `RunEvents`: each step of a cell run becomes an event of the execution
journal (what streaming clients, post-mortems and the reflection read)."""

from __future__ import annotations

from typing import Any

from .cell_plan import Plan
from .code_generator import Generation
from .execution_events import ExecutionHub
from .iteration_control import Cause, Decision, RetryBudgets
from .run_types import AttemptRun, RunEvents


class JournaledRun(RunEvents):
    def __init__(self, hub: ExecutionHub, execution_id: str, notebook_id: str,
                 cell_id: str) -> None:
        self.hub = hub
        self.ids = (execution_id, notebook_id, cell_id)

    def _emit(self, kind: str, data: dict[str, Any]) -> None:
        self.hub.emit(*self.ids, kind, data)

    def attempt_started(self, number: int, code: str, cause: Cause | None,
                        generation: Generation | None) -> None:
        self._emit("attempt_started", {
            "attempt": number, "code": code, "cause": cause.value if cause else None,
            "generated": generation is not None,
            "tokens": generation.usage.to_dict() if generation else None})

    def override_applied(self, applied: dict[str, Any]) -> None:
        self._emit("override_applied", applied)

    def reviewed(self, run: AttemptRun) -> None:
        self._emit("critique", {**(run.critique or {}), "attempt": run.outcome.attempt})

    def retry_scheduled(self, after: int, decision: Decision, budgets: RetryBudgets) -> None:
        self._emit("retry_scheduled", {
            "attempt": after + 1, "after_attempt": after,
            "cause": decision.cause.value if decision.cause else None,
            "feedback": decision.feedback, "retries_used": decision.retries_used,
            "budgets": {"error_retries": budgets.error_retries,
                        "critique_retries": budgets.critique_retries}})

    def escalated(self, escalation: dict[str, Any]) -> None:
        self._emit("escalated", escalation)

    def planned(self, plan: Plan | None, error: str | None) -> None:
        if plan is None:
            self._emit("plan", {"error": error, "plan": None})
        else:
            self._emit("plan", {"plan": plan.to_dict(), "text": plan.render()})

    def learned(self, lessons: dict[str, Any]) -> None:
        self._emit("lessons", lessons)
