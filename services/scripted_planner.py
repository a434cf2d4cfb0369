"""A planner that returns queued plans: the real `Planner` interface for tests of the
planning step, with no model behind it.

    planner = ScriptedPlanner([Plan(objectives=["..."]), GeneratorError("model down")])
    ...
    planner.calls[0].prompt, planner.calls[0].context.lessons
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .cell_plan import Plan
from .code_generator import GenerationContext, GeneratorError

Answer = Plan | Mapping[str, Any] | BaseException


@dataclass
class PlannerCall:
    """One request, recorded before it was answered."""

    prompt: str
    context: GenerationContext


class ScriptedPlanner:
    """Answers each `plan` with the next queued answer (FIFO): a `Plan` is returned as is,
    a mapping is read with `Plan.from_dict`, an exception is raised. An empty queue raises
    `GeneratorError`, so a test that scripted too few plans fails visibly."""

    def __init__(self, answers: Iterable[Answer] = ()) -> None:
        self._answers: deque[Answer] = deque(answers)
        self.calls: list[PlannerCall] = []

    def queue(self, *answers: Answer) -> ScriptedPlanner:
        self._answers.extend(answers)
        return self

    @property
    def pending(self) -> int:
        return len(self._answers)

    async def plan(self, prompt: str, context: GenerationContext) -> Plan:
        self.calls.append(PlannerCall(prompt, context))
        if not self._answers:
            raise GeneratorError("the scripted planner has no plan left")
        answer = self._answers.popleft()
        if isinstance(answer, BaseException):
            raise answer
        if isinstance(answer, Plan):
            return answer
        plan = Plan.from_dict(answer)
        plan.model = plan.model or "scripted"
        return plan
