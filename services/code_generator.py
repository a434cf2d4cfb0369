"""The code generator interface: writes a cell's code from its prompt, and rewrites it from
feedback (an error or the critic's findings).

Two real implementations: `services.claude_generator.ClaudeCodeGenerator` (the Anthropic
Messages API) and `services.scripted_generator.ScriptedGenerator` (queued answers, for tests
and for users testing their own retry behaviour). The retry loop only sees this interface.
"""

from __future__ import annotations

from dataclasses import asdict, astuple, dataclass, field
from typing import Any, Protocol, runtime_checkable


class GeneratorError(Exception):
    """The generator could not produce code (API failure after its retries, malformed reply,
    refusal). The retry loop escalates instead of retrying."""


@dataclass
class TokenUsage:
    """Tokens of one or more calls. `input_tokens` are the uncached ones; the prompt-cache
    counts (`cache_read_input_tokens`, `cache_creation_input_tokens`) are the SDK's own,
    shown in `to_dict` when non-zero; `total` is input + output."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_input_tokens: int = 0
    cache_creation_input_tokens: int = 0

    @property
    def total(self) -> int:
        return self.input_tokens + self.output_tokens

    def __add__(self, other: TokenUsage) -> TokenUsage:
        return TokenUsage(*(a + b for a, b in zip(astuple(self), astuple(other), strict=True)))

    def to_dict(self) -> dict[str, int]:
        data = {k: v for k, v in asdict(self).items() if v or not k.startswith("cache_")}
        return {**data, "total": self.total}


@dataclass
class Generation:
    """One answer of the generator: the cell's full new code."""

    code: str
    explanation: str = ""
    usage: TokenUsage = field(default_factory=TokenUsage)
    model: str | None = None


@dataclass
class VariableInfo:
    """A name in the kernel's namespace, as the generator is told about it."""

    name: str
    type: str
    shape: list[int] | None = None
    columns: dict[str, str] | None = None  # DataFrame column -> dtype

    def describe(self) -> str:
        text = f"{self.name}: {self.type}"
        if self.shape is not None:
            text += f" shape={tuple(self.shape)}"
        if self.columns:
            cols = ", ".join(f"{c} ({d})" for c, d in self.columns.items())
            text += f" columns: {cols}"
        return text


@dataclass
class GenerationContext:
    """What the generator knows beyond the prompt: the notebook so far, the kernel's
    variables, and lessons from earlier runs. `render` keeps it within a size budget."""

    prior_cells: list[str] = field(default_factory=list)  # source of earlier code cells
    variables: list[VariableInfo] = field(default_factory=list)
    lessons: list[str] = field(default_factory=list)  # "lessons from earlier runs"
    max_chars: int = 12_000
    lesson_ids: list[str] = field(default_factory=list)  # which stored lessons `lessons` are
    # the status of the attempt a `fix` rewrites: "error", or "scientific_validity_error"
    # for a cell that ran and was blocked (None: not known, or `generate`)
    status: str | None = None
    # the code a `fix` rewrites was written by the code generator (an earlier attempt),
    # not by the user
    generated: bool = False
    # the cell's pre-run plan (`cell_plan.Plan.render()`), when one was made: the code
    # must follow it, so every `generate` and `fix` of the cell carries it
    plan: str = ""

    def render(self) -> str:
        """Plain text sections; earlier cells are cut from the oldest side first (the cells
        just above matter most), variables and lessons take their share first. The plan,
        when there is one, comes first and is never cut (it is short)."""
        plan = f"## The plan for this cell (follow it)\n{self.plan.strip()}" if self.plan else ""
        return "\n\n".join(p for p in (plan, *self.sections()) if p)

    def sections(self) -> tuple[str, str]:
        """(earlier cells, lessons and variables), within the budget together. The first
        is the same for every call about one cell (a prompt puts it first, cached); the
        second changes with each attempt's namespace."""
        parts: list[str] = []
        if self.lessons:
            parts.append("## Lessons from earlier runs\n" + "\n".join(
                f"- {lesson}" for lesson in self.lessons))
        if self.variables:
            parts.append("## Variables in the kernel\n" + "\n".join(
                f"- {v.describe()}" for v in self.variables))
        head = "\n\n".join(parts)
        head = head[: self.max_chars // 2]
        room = self.max_chars - len(head)
        cells: list[str] = []
        for source in reversed(self.prior_cells):
            block = f"```python\n{source.strip()}\n```"
            if len(block) + 2 > room:
                if not cells:
                    cells.append(f"```python\n# ...\n{source.strip()[-max(0, room - 30):]}\n```")
                break
            cells.append(block)
            room -= len(block) + 2
        cells.reverse()
        section = ("## Earlier cells of the notebook (oldest first)\n" + "\n\n".join(cells)
                   if cells else "")
        return section, head

    def to_dict(self) -> dict[str, Any]:
        return {"prior_cells": len(self.prior_cells),
                "variables": [v.name for v in self.variables], "lessons": self.lesson_ids,
                "plan": bool(self.plan)}


@dataclass
class AttemptSummary:
    """One earlier attempt, as the generator sees it in `fix(history=...)`."""

    attempt: int
    code: str
    status: str
    feedback: str  # what went wrong with it (error or findings), already synthesized
    generated: bool = False  # the code generator wrote it (else the user did)


@runtime_checkable
class CodeGenerator(Protocol):
    """Writes and rewrites one cell's code. Implementations raise `GeneratorError`."""

    async def generate(self, prompt: str, context: GenerationContext) -> Generation: ...

    async def fix(self, prompt: str | None, code: str, feedback: str,
                  history: list[AttemptSummary], context: GenerationContext) -> Generation: ...
