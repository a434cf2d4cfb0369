"""The parts of one cell run that the shared runner (`services.cell_runner`) and its faces
exchange: what to run (`RunSpec`), the seams a face fills (`CellExecutor`, `RunEvents`),
one executed attempt (`Executed`, `AttemptRun`) and the run's outcome (`RunOutcome`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from .cell_metadata import Override
from .code_generator import CodeGenerator, Generation, TokenUsage
from .iteration_control import AttemptOutcome, Cause, Decision, RetryBudgets
from .self_checks import SelfCheck
from .status import CellStatus

if TYPE_CHECKING:
    from .cell_plan import Plan, Planner
    from .learning import Learning


@dataclass
class RunSpec:
    """One cell run, as a face resolved it from its request, cell and settings."""

    code: str  # empty: the generator writes the code from `prompt` first
    prompt: str | None = None
    budgets: RetryBudgets = field(default_factory=RetryBudgets)
    auto_fix: bool = True  # rewrite failing or blocked attempts (needs a generator)
    min_confidence: float = 0.8
    overrides: list[Override] = field(default_factory=list)  # the first that applies
    token_budget: int = 0  # generator tokens per run (0: no limit)
    checks: list[SelfCheck] = field(default_factory=list)
    invalid_checks: str | None = None  # why the cell's declared checks could not be read
    plan: bool = False  # a prompt cell: the planner plans before the code is written
    replay: bool = False  # replay the earlier cells before each retry
    expects_error: bool = False  # `raises-exception`: an error is the cell's result
    max_feedback_chars: int = 4000
    context_max_chars: int = 12_000
    notebook_id: str = ""  # where lessons learned from this run come from
    cell_id: str = ""
    execution_id: str = ""


@dataclass
class RunTools:
    """Who writes code, plans it and remembers lessons (each optional)."""

    generator: CodeGenerator | None = None
    planner: Planner | None = None
    learning: Callable[[], Learning | None] = lambda: None


@dataclass
class Executed:
    """What running one attempt's code gave, before the critic (times: epoch seconds)."""

    status: CellStatus
    error: dict[str, Any] | None = None  # Jupyter's shape
    execution_count: int | None = None
    started: float = 0.0
    finished: float = 0.0
    exception: BaseException | None = None  # in-process: the attempt's own exception

    def show_error(self, error: dict[str, Any]) -> None:
        """Add an error to the attempt's outputs (a face that keeps outputs overrides)."""


class CellExecutor(Protocol):
    """Runs attempts of one cell and reads what the critic and the generator need."""

    async def execute(self, code: str) -> Executed: ...

    async def review(self, code: str, executed: Executed) -> dict[str, Any] | None:
        """The stored critique of an `ok` attempt, None when the cell is not reviewed."""

    def skip_reason(self) -> str: ...

    async def self_check(self, checks: list[SelfCheck], critique: dict[str, Any],
                         executed: Executed) -> str | None:
        """Evaluate the checks (results join `critique`); why the attempt's state was
        lost doing so, if it was."""

    async def namespace(self) -> dict[str, Any]: ...

    def prior_cells(self) -> list[str]: ...

    async def replay(self) -> None: ...


@dataclass
class AttemptRun:
    """One attempt: what the controller decides on and what the cell keeps."""

    outcome: AttemptOutcome
    record: dict[str, Any]  # as stored in `metadata.nbcritic.attempts`
    executed: Executed
    error: dict[str, Any] | None
    critique: dict[str, Any] | None
    override: dict[str, Any] | None
    namespace: dict[str, Any] | None  # variables read after a failure
    reviewed: bool = False  # the critic or the checks judged it

    @property
    def blocking(self) -> list[str]:
        return [str(f.get("rule_id", "")) for f in self.record.get("findings") or []]


@dataclass
class RunOutcome:
    runs: list[AttemptRun] = field(default_factory=list)
    escalation: dict[str, Any] | None = None
    tokens: TokenUsage = field(default_factory=TokenUsage)
    plan: dict[str, Any] | None = None
    lessons: dict[str, Any] | None = None
    generation_error: str | None = None  # the code could not be written: no attempt ran

    @property
    def status(self) -> CellStatus:
        return self.runs[-1].outcome.status if self.runs else CellStatus.ERROR

    @property
    def last(self) -> AttemptRun | None:
        return self.runs[-1] if self.runs else None


class RunEvents:
    """What the runner reports as it goes: the service journals it, the magics show it.
    Every hook does nothing here."""

    def attempt_started(self, number: int, code: str, cause: Cause | None,
                        generation: Generation | None) -> None: ...

    def override_applied(self, applied: dict[str, Any]) -> None: ...

    def reviewed(self, run: AttemptRun) -> None: ...

    def retry_scheduled(self, after: int, decision: Decision, budgets: RetryBudgets) -> None: ...

    def escalated(self, escalation: dict[str, Any]) -> None: ...

    def planned(self, plan: Plan | None, error: str | None) -> None: ...

    def learned(self, lessons: dict[str, Any]) -> None: ...
