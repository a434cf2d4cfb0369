"""The magics' `RunEvents`: the shared runner's steps as panels in the notebook (a generated
attempt and its diff, a critique, an escalation, a plan). Displays are handed to the
kernel's main thread (`show`), in order with the attempts they belong to."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from IPython.display import Markdown, display

from services.cell_plan import Plan
from services.code_generator import Generation
from services.iteration_control import Cause, Decision, RetryBudgets
from services.run_types import AttemptRun, RunEvents

from .magics_display import attempt_panel, critique_panel, escalation_panel


class PanelEvents(RunEvents):
    def __init__(self, show: Callable[[Callable[[], object]], None], *, generator: str,
                 min_confidence: float) -> None:
        self.show = show
        self.generator = generator
        self.min_confidence = min_confidence
        self._previous: str | None = None  # the last attempt's code (for the diff)
        self._note = ""  # which retry the next attempt is

    def _display(self, obj: Any) -> None:
        self.show(lambda: display(obj))

    def attempt_started(self, number: int, code: str, cause: Cause | None,
                        generation: Generation | None) -> None:
        previous, self._previous = self._previous, code
        if generation is not None:
            self._display(attempt_panel(number, code, previous,
                                        cause=cause.value if cause else None,
                                        generator=self.generator,
                                        explanation=generation.explanation, note=self._note))

    def retry_scheduled(self, after: int, decision: Decision, budgets: RetryBudgets) -> None:
        self._note = retry_note(decision, budgets)

    def reviewed(self, run: AttemptRun) -> None:
        self._display(critique_panel(
            run.critique, status=run.outcome.status.value, blocking=run.blocking,
            min_confidence=self.min_confidence, attempt=run.outcome.attempt,
            overridden=run.override))

    def escalated(self, escalation: dict[str, Any]) -> None:
        self._display(escalation_panel(escalation))

    def planned(self, plan: Plan | None, error: str | None) -> None:
        if plan is not None:
            self._display(Markdown(plan.render()))
        else:
            self.show(lambda: print(f"nbcritic: no plan ({error})", file=sys.stderr))


def retry_note(decision: Decision, budgets: RetryBudgets) -> str:
    """'critique retry 1 of 2': which retry of its budget the next attempt is."""
    kind = decision.cause.value if decision.cause else "error"
    used = decision.retries_used.get(kind, 0) + 1
    return f"{kind} retry {used} of {budgets.of(decision.cause or Cause.ERROR)}"
