"""A code generator that returns queued answers: the real `CodeGenerator` interface for tests
of the retry loop (ours, and users' own through the pytest plugin), with no model behind it.

    gen = ScriptedGenerator(["x = 1\nprint(x)", GeneratorError("model down")])
    ...
    gen.calls[0].feedback   # what the retry loop sent with the first fix request
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

from .code_generator import (
    AttemptSummary,
    Generation,
    GenerationContext,
    GeneratorError,
    TokenUsage,
)

Answer = str | Generation | BaseException


@dataclass
class GeneratorCall:
    """One request the loop made, recorded before it was answered."""

    kind: str  # "generate" | "fix"
    prompt: str | None
    context: GenerationContext
    code: str | None = None
    feedback: str | None = None
    history: list[AttemptSummary] = field(default_factory=list)


class ScriptedGenerator:
    """Answers each `generate`/`fix` with the next queued answer (FIFO): a string is the
    code, a `Generation` is returned as is, an exception is raised. An empty queue raises
    `GeneratorError`, so a test that scripted too few answers escalates visibly."""

    def __init__(self, answers: Iterable[Answer] = (), *,
                 usage: TokenUsage | None = None) -> None:
        self._answers: deque[Answer] = deque(answers)
        self.usage = usage or TokenUsage(0, 0)
        self.calls: list[GeneratorCall] = []

    def queue(self, *answers: Answer) -> ScriptedGenerator:
        self._answers.extend(answers)
        return self

    @property
    def pending(self) -> int:
        return len(self._answers)

    async def generate(self, prompt: str, context: GenerationContext) -> Generation:
        self.calls.append(GeneratorCall("generate", prompt, context))
        return self._next()

    async def fix(self, prompt: str | None, code: str, feedback: str,
                  history: list[AttemptSummary], context: GenerationContext) -> Generation:
        self.calls.append(GeneratorCall("fix", prompt, context, code, feedback, list(history)))
        return self._next()

    def _next(self) -> Generation:
        if not self._answers:
            raise GeneratorError("the scripted generator has no answer left")
        answer = self._answers.popleft()
        if isinstance(answer, BaseException):
            raise answer
        if isinstance(answer, Generation):
            return answer
        return Generation(code=answer, explanation="scripted", usage=self.usage,
                          model="scripted")
