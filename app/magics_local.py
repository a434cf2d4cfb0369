"""Local mode of the magics: a cell runs in the user's own kernel through the same cell
runner as the service (`services.cell_runner`), with the in-process executor
(`services.shell_executor`: the user's shell and namespace) and panels for its events
(`app.magics_events`). Overrides, blocking, budgets, stalls, escalation, plans and lessons
are the service's; this module only turns a magic's options into a run and its outcome into
what the magic shows and remembers (`CellRun`).

Each attempt runs through `shell.run_cell(..., store_history=False)`, so its outputs are
displayed as usual (and `Out`/`_` are set for the magic's cell), while
`services.shell_capture.OutputCapture` records them as nbformat outputs for the critic.
"""

from __future__ import annotations

import getpass
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from IPython.display import display

from critics import AnalysisCritic
from services.cell_metadata import Override, now_iso
from services.cell_runner import CellRunner
from services.code_generator import CodeGenerator, TokenUsage
from services.config import EngineConfig
from services.iteration_control import RetryBudgets
from services.learning import Learning
from services.run_types import AttemptRun, RunOutcome, RunSpec, RunTools
from services.self_checks import SelfCheck
from services.shell_capture import OutputCapture as OutputCapture  # re-exported
from services.shell_executor import ShellExecutor
from services.status import CellStatus

from .magics_display import summary_panel
from .magics_event_loop import BackgroundLoop, MainThreadCalls
from .magics_events import PanelEvents


@dataclass
class RunOptions:
    """One %%critique / %%ask invocation's options, resolved."""

    force: bool = False
    retry: bool | None = None  # None: settings' auto_fix; --no-retry: False
    max_error_retries: int | None = None  # None: settings
    max_critique_retries: int | None = None
    min_confidence: float | None = None  # None: settings
    disabled_rules: list[str] = field(default_factory=list)  # on top of settings
    checks: list[SelfCheck] = field(default_factory=list)  # --check: run after success
    plan: bool | None = None  # %%ask --plan


@dataclass
class AttemptRecord:
    attempt: int
    code: str
    status: CellStatus
    cause: str | None = None
    generated: bool = False
    execution_count: int | None = None
    error: dict[str, Any] | None = None
    critique: dict[str, Any] | None = None
    blocking: list[str] = field(default_factory=list)
    override: dict[str, Any] | None = None
    feedback: str | None = None  # what a retry sent about this attempt
    explanation: str | None = None
    analysis: dict[str, Any] | None = None

    @classmethod
    def from_run(cls, run: AttemptRun) -> AttemptRecord:
        """An attempt of the shared runner (its error keeps the blocking findings)."""
        rec = run.record
        error = rec.get("error")
        if error is not None and rec.get("findings"):
            error = {**error, "findings": rec["findings"]}
        return cls(rec["attempt"], rec["code"], run.outcome.status, rec.get("cause"),
                   bool(rec.get("generated")), rec.get("execution_count"), error,
                   run.critique, run.blocking, run.override, rec.get("feedback"),
                   rec.get("explanation"), rec.get("analysis"))

    def to_dict(self) -> dict[str, Any]:
        return {"attempt": self.attempt, "code": self.code, "status": self.status.value,
                "cause": self.cause, "generated": self.generated,
                "execution_count": self.execution_count, "error": self.error,
                "findings": (self.error or {}).get("findings"), "feedback": self.feedback,
                "explanation": self.explanation, "analysis": self.analysis,
                "override": self.override}


@dataclass
class CellRun:
    """What the magic ran and concluded (shown again by `%critic last`)."""

    mode: str  # "local" | "remote" | "auto"
    code: str  # the cell as the user wrote it ("" for %%ask)
    prompt: str | None = None
    attempts: list[AttemptRecord] = field(default_factory=list)
    escalation: dict[str, Any] | None = None
    status: CellStatus = CellStatus.OK
    min_confidence: float = 0.8
    tokens: TokenUsage = field(default_factory=TokenUsage)
    exception: BaseException | None = None  # the last attempt's own exception, if any
    next_input: str | None = None  # code put into the next input
    plan: dict[str, Any] | None = None  # %%ask --plan
    lessons: dict[str, Any] | None = None  # lessons this run wrote or merged
    notebook_id: str | None = None  # remote mode
    cell_id: str | None = None

    @property
    def final_code(self) -> str:
        return self.attempts[-1].code if self.attempts else self.code

    @property
    def critique(self) -> dict[str, Any] | None:
        """The critique of the last attempt that was reviewed."""
        for record in reversed(self.attempts):
            if record.critique is not None:
                return record.critique
        return None

    @property
    def last(self) -> AttemptRecord | None:
        return self.attempts[-1] if self.attempts else None


def generator_name(generator: object | None) -> str:
    return type(generator).__name__ if generator is not None else "none"


class LocalRunner:
    """One cell run in this process. Built per invocation by the magics."""

    def __init__(self, shell: Any, *, config: EngineConfig, critic: AnalysisCritic,
                 generator: CodeGenerator | None, loop: BackgroundLoop,
                 prior_cells: Callable[[], list[str]],
                 accepted: dict[str, dict[str, Any]], use_llm: bool = True,
                 learning: Callable[[], Learning | None] | None = None,
                 planner: Any = None) -> None:
        self.shell = shell
        self.config = config
        self.critic = critic
        self.generator = generator
        self.loop = loop
        self.prior_cells = prior_cells
        self.accepted = accepted
        self.use_llm = use_llm
        self.learning = learning or (lambda: None)  # opened on first use (a SQLite file)
        self.planner = planner

    def run(self, code: str, options: RunOptions, *, prompt: str | None = None,
            ask_prompt: str | None = None) -> CellRun:
        """`code` is the cell's body; `ask_prompt` (for %%ask) is the prompt the generator
        writes the code from (there is no code to run yet)."""
        min_conf = (self.config.critic_min_confidence if options.min_confidence is None
                    else options.min_confidence)
        run = CellRun("local", code, prompt, min_confidence=min_conf)
        calls = MainThreadCalls()
        executor = ShellExecutor(self.shell, config=self.config, critic=self.critic,
                                 prior_cells=self.prior_cells, on_main=calls.call,
                                 disabled=options.disabled_rules, use_llm=self.use_llm)
        events = PanelEvents(calls.post, generator=generator_name(self.generator),
                             min_confidence=min_conf)
        spec = self._spec("" if ask_prompt is not None else code, ask_prompt or prompt,
                          options, min_conf)
        tools = RunTools(self.generator, self.planner, self.learning)
        outcome = self.loop.run_serving(CellRunner(executor, events, spec, tools).run(), calls)
        self._conclude(run, outcome)
        return run

    def _spec(self, code: str, prompt: str | None, options: RunOptions,
              min_conf: float) -> RunSpec:
        config = self.config
        budgets = RetryBudgets(
            config.max_error_retries if options.max_error_retries is None
            else options.max_error_retries,
            config.max_critique_retries if options.max_critique_retries is None
            else options.max_critique_retries)
        return RunSpec(
            code=code, prompt=prompt, budgets=budgets, min_confidence=min_conf,
            auto_fix=config.auto_fix if options.retry is None else options.retry,
            overrides=self._overrides(options), token_budget=config.cell_token_budget,
            checks=list(options.checks), plan=bool(options.plan),
            max_feedback_chars=config.feedback_max_chars,
            context_max_chars=config.context_max_chars, notebook_id="magics",
            cell_id=str(self.shell.execution_count), execution_id="local")

    def _overrides(self, options: RunOptions) -> list[Override]:
        """--force covers the run; an acceptance covers the exact code it was given for."""
        found = [Override("flag", current_user(), now_iso(), "%%critique --force")
                 ] if options.force else []
        found += [Override("accepted", str(r.get("by", "user")), str(r.get("at", now_iso())),
                           str(r.get("reason", "")), key) for key, r in self.accepted.items()]
        return found

    def _conclude(self, run: CellRun, outcome: RunOutcome) -> None:
        """The run as the magic keeps it; accepted generated code goes to the next input."""
        run.attempts = [AttemptRecord.from_run(r) for r in outcome.runs]
        run.escalation, run.tokens = outcome.escalation, outcome.tokens
        run.plan, run.lessons = outcome.plan, outcome.lessons
        run.status = outcome.status
        last = run.last
        run.exception = outcome.last.executed.exception if outcome.last else None
        if last is None:
            return
        if last.status is CellStatus.OK and any(r.generated for r in run.attempts):
            run.next_input = last.code
            self.shell.set_next_input(last.code, replace=False)
        if len(run.attempts) > 1 or run.next_input is not None:
            display(summary_panel(run.status.value, len(run.attempts),
                                  next_input=run.next_input is not None,
                                  fixed=len(run.attempts) > 1 and last.status is CellStatus.OK,
                                  overridden=last.override is not None))


def current_user() -> str:
    try:
        return getpass.getuser()
    except Exception:
        return "user"
