"""Local mode of the magics: run a cell in the user's own kernel, review it with the same
`AnalysisCritic` (evidence gathered in-process from the user's namespace), and run the
bounded retry loop with the semantics of `NotebookService._run_cell`: separate error and
critique budgets, stall detection and escalation by `IterationController`, feedback about
*this attempt's* code by `ErrorAnalyzer`, ScientificValidityError for a blocked result.

Each attempt runs through `shell.run_cell(..., store_history=False)`, so its outputs are
displayed as usual (and `Out`/`_` are set for the magic's cell), while `OutputCapture`
records them as nbformat outputs for the critic.
"""

from __future__ import annotations

import base64
import getpass
import json
import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from IPython.display import Markdown, display

from critics import AnalysisCritic, CriticError, Critique
from services import kernel_facts, self_check_kernel
from services.attempt_lessons import columns_in, libraries_of
from services.cell_evidence import gather_in_process, snapshot_before
from services.cell_metadata import Override, fingerprint, now_iso
from services.code_generator import (
    AttemptSummary,
    CodeGenerator,
    Generation,
    GenerationContext,
    GeneratorError,
    TokenUsage,
)
from services.config import EngineConfig
from services.critique_record import reviewed
from services.error_analyzer import ErrorAnalyzer, ErrorFeedback
from services.generation_context import leftovers, variables_from
from services.iteration_control import (
    Action,
    AttemptOutcome,
    Cause,
    Decision,
    IterationController,
    Pattern,
    RetryBudgets,
)
from services.learning import Learning
from services.lessons import LessonQuery
from services.scientific_validity import blocking_findings, validity_error
from services.self_checks import CheckResult, SelfCheck, check_findings, unevaluated
from services.status import CellStatus

from .magics_display import attempt_panel, critique_panel, escalation_panel, summary_panel
from .magics_event_loop import BackgroundLoop

log = logging.getLogger(__name__)


# -- capturing what an attempt shows, while it is shown -------------------------------------


class OutputCapture:
    """Record stdout/stderr writes, published displays and the displayed result of code run
    by the shell, as nbformat v4 outputs, without changing what the user sees."""

    def __init__(self, shell: Any) -> None:
        self.shell = shell
        self.outputs: list[dict[str, Any]] = []
        self._undo: list[Callable[[], None]] = []

    def __enter__(self) -> OutputCapture:
        for name in ("stdout", "stderr"):
            self._wrap(getattr(sys, name), "write", self._stream_writer(name))
        self._wrap(self.shell.display_pub, "publish", self._publisher)
        self._wrap(self.shell.displayhook, "write_format_data", self._result_writer)
        return self

    def __exit__(self, *exc: object) -> None:
        for undo in reversed(self._undo):
            undo()
        self._undo.clear()

    def _wrap(self, obj: Any, attr: str, make: Callable[[Callable[..., Any]], Any]) -> None:
        had_own = attr in getattr(obj, "__dict__", {})
        original = getattr(obj, attr)
        try:
            setattr(obj, attr, make(original))
        except (AttributeError, TypeError):  # a stream that refuses patching: not captured
            return

        def undo() -> None:
            if had_own:
                setattr(obj, attr, original)
            else:
                try:
                    delattr(obj, attr)
                except AttributeError:
                    setattr(obj, attr, original)

        self._undo.append(undo)

    def _stream_writer(self, name: str) -> Callable[[Callable[..., Any]], Any]:
        def make(original: Callable[..., Any]) -> Callable[..., Any]:
            def write(data: Any, *args: Any, **kwargs: Any) -> Any:
                result = original(data, *args, **kwargs)
                if data and not getattr(self.shell.displayhook, "is_active", False):
                    self._add_stream(name, data if isinstance(data, str) else str(data))
                return result
            return write
        return make

    def _add_stream(self, name: str, text: str) -> None:
        last = self.outputs[-1] if self.outputs else None
        if last and last["output_type"] == "stream" and last["name"] == name:
            last["text"] += text
        else:
            self.outputs.append({"output_type": "stream", "name": name, "text": text})

    def _publisher(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def publish(data: dict[str, Any], metadata: dict[str, Any] | None = None,
                    *args: Any, **kwargs: Any) -> Any:
            if not kwargs.get("update"):
                self.outputs.append({"output_type": "display_data", "data": _jsonable(data),
                                     "metadata": dict(metadata or {})})
            return original(data, metadata, *args, **kwargs)
        return publish

    def _result_writer(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def write_format_data(format_dict: dict[str, Any],
                              md_dict: dict[str, Any] | None = None) -> Any:
            self.outputs.append({"output_type": "execute_result",
                                 "data": _jsonable(format_dict),
                                 "metadata": dict(md_dict or {}),
                                 "execution_count": getattr(self.shell.displayhook,
                                                            "prompt_count", None)})
            return original(format_dict, md_dict)
        return write_format_data


def _jsonable(data: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in (data or {}).items():
        if isinstance(value, bytes):
            out[key] = base64.b64encode(value).decode("ascii")
        else:
            out[key] = value
    return out


# -- one cell run ---------------------------------------------------------------------------


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
    """The retry loop of one cell, in this process. Built per invocation by the magics."""

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
        self.analyzer = ErrorAnalyzer()
        self.learning = learning or (lambda: None)  # opened on first use (a SQLite file)
        self.planner = planner

    # -- the loop -------------------------------------------------------------------------

    def run(self, code: str, options: RunOptions, *, prompt: str | None = None,
            ask_prompt: str | None = None) -> CellRun:
        """`code` is the cell's body; `ask_prompt` (for %%ask) is the full text sent to
        `generate` when there is no code to run yet."""
        min_conf = (self.config.critic_min_confidence if options.min_confidence is None
                    else options.min_confidence)
        run = CellRun("local", code, prompt, min_confidence=min_conf)
        budgets = RetryBudgets(
            self.config.max_error_retries if options.max_error_retries is None
            else options.max_error_retries,
            self.config.max_critique_retries if options.max_critique_retries is None
            else options.max_critique_retries)
        retry = self.config.auto_fix if options.retry is None else options.retry
        can_generate = self.generator is not None and retry
        controller = IterationController(budgets, can_generate=can_generate,
                                         max_feedback_chars=self.config.feedback_max_chars)
        override = self._override_for(code, prompt, options)
        generation: Generation | None = None
        cause: Cause | None = None
        previous: str | None = None
        checks = list(options.checks)
        if ask_prompt is not None:  # %%ask: the generator writes the code first
            assert self.generator is not None
            try:
                context = self._context(text=ask_prompt)
                if options.plan and self.planner is not None:
                    checks += self._plan(run, ask_prompt, context, checks)
                generation = self.loop.run(self.generator.generate(ask_prompt, context))
            except (KeyboardInterrupt, SystemExit):
                raise
            except Exception as exc:
                detail = _generator_failure(exc)
                run.status = CellStatus.ERROR
                run.escalation = controller.escalate_without_attempt(Pattern.GENERATOR_FAILED,
                                                                     detail)
                display(escalation_panel(run.escalation))
                return run
            run.tokens += generation.usage
            code = generation.code
            display(attempt_panel(1, code, None, cause=None,
                                  generator=generator_name(self.generator),
                                  explanation=generation.explanation))
        namespaces: list[dict[str, Any] | None] = []
        outcomes: list[AttemptOutcome] = []
        while True:
            record, outcome, namespace, exc = self._attempt(
                code, len(run.attempts) + 1, min_conf, options, override, cause, generation,
                checks)
            run.attempts.append(record)
            outcomes.append(outcome)
            namespaces.append(namespace)
            run.exception = exc
            decision = controller.decide(outcomes)
            budget = self.config.cell_token_budget
            if decision.action is Action.RETRY and budget and run.tokens.total >= budget:
                decision = controller.escalate(
                    outcomes, Pattern.TOKEN_BUDGET, f"{run.tokens.total} of {budget} tokens")
            if decision.action is Action.RETRY:
                generation, decision = self._rewrite(run, outcomes, namespace, prompt,
                                                     decision, controller)
                if generation is not None:
                    run.tokens += generation.usage
                    previous, code, cause = code, generation.code, decision.cause
                    display(attempt_panel(
                        len(run.attempts) + 1, code, previous,
                        cause=cause.value if cause else None,
                        generator=generator_name(self.generator),
                        explanation=generation.explanation,
                        note=_retry_note(decision, controller)))
                    continue
            if decision.action is Action.ESCALATE:
                run.escalation = decision.escalation
                display(escalation_panel(run.escalation or {}))
            break
        last = run.attempts[-1]
        run.status = last.status
        if len(run.attempts) > 1 or run.escalation:
            self._learn(run, next((n for n in reversed(namespaces) if n), None))
        generated = any(r.generated for r in run.attempts)
        if last.status is CellStatus.OK and generated:
            run.next_input = last.code
            self.shell.set_next_input(last.code, replace=False)
        if len(run.attempts) > 1 or run.next_input is not None:
            display(summary_panel(run.status.value, len(run.attempts),
                                  next_input=run.next_input is not None,
                                  fixed=len(run.attempts) > 1 and last.status is CellStatus.OK,
                                  overridden=last.override is not None))
        return run

    # -- one attempt ----------------------------------------------------------------------

    def _attempt(self, code: str, number: int, min_conf: float, options: RunOptions,
                 override: Override | None, cause: Cause | None,
                 generation: Generation | None, checks: list[SelfCheck] | None = None
                 ) -> tuple[AttemptRecord, AttemptOutcome, dict[str, Any] | None,
                            BaseException | None]:
        ns = self.shell.user_ns
        review = self.config.critic_enabled
        prior = "\n\n".join(self.prior_cells()) if review else ""
        before = None
        if review:
            try:
                before = snapshot_before(code, ns, prior)
            except Exception as exc:  # reading facts must never break the cell
                log.warning("nbcritic: before-snapshot failed: %s", exc)
        with OutputCapture(self.shell) as capture:
            result = self.shell.run_cell(code, store_history=False)
        exc = result.error_before_exec or result.error_in_exec
        if result.success:
            status = CellStatus.OK
        elif isinstance(exc, KeyboardInterrupt):
            status = CellStatus.INTERRUPTED
        else:
            status = CellStatus.ERROR
        record = AttemptRecord(number, code, status, cause.value if cause else None,
                               generation is not None, result.execution_count,
                               explanation=generation.explanation if generation else None)
        error: dict[str, Any] | None = None
        if status is CellStatus.OK and (review or checks):
            if review:
                critique = self.review(code, capture.outputs, prior, before,
                                       options.disabled_rules)
            else:
                critique = {**Critique(skipped=True).to_dict(),
                            "reason": "the critic is disabled in settings"}
            if checks:
                self.self_check(checks, critique)
            blocking = blocking_findings(critique, min_conf)
            if blocking and override is not None:
                record.override = {**override.to_dict(), "attempt": number,
                                   "findings": [f.rule_id for f in blocking]}
                critique["overridden"] = record.override
            elif blocking:
                status = record.status = CellStatus.SCIENTIFIC_VALIDITY_ERROR
                error = validity_error(blocking)
                record.blocking = [f.rule_id for f in blocking]
            record.critique = critique
            display(critique_panel(critique, status=status.value, blocking=record.blocking,
                                   min_confidence=min_conf, attempt=number,
                                   overridden=record.override))
        elif status is CellStatus.OK:
            record.critique = {**Critique(skipped=True).to_dict(),
                               "reason": "the critic is disabled in settings"}
        elif status is CellStatus.ERROR:
            error = self.error_of(exc)
        elif status is CellStatus.INTERRUPTED:
            error = {"ename": "KeyboardInterrupt", "evalue": "", "traceback": []}
        record.error = error
        feedback: ErrorFeedback | None = None
        namespace: dict[str, Any] | None = None
        if status is CellStatus.ERROR:
            namespace = self.namespace()
        if status in (CellStatus.ERROR, CellStatus.SCIENTIFIC_VALIDITY_ERROR):
            feedback = self.analyzer.analyze(error or {}, code,
                                             execution_count=result.execution_count,
                                             variables=variables_from(namespace or {}))
            record.analysis = feedback.to_dict()
        return record, AttemptOutcome(number, code, status, feedback), namespace, exc

    def review(self, code: str, outputs: list[dict[str, Any]], prior: str,
               before: dict[str, Any] | None, disabled: list[str]) -> dict[str, Any]:
        """The critic never fails a cell: an internal error becomes a critic error."""
        try:
            evidence = gather_in_process(code, self.shell.user_ns, outputs, prior_code=prior,
                                         before=before,
                                         budget_ms=self.config.introspection_budget_ms)
            if self.critic.llm is not None and self.use_llm:
                critique = self.loop.run(self.critic.areview(evidence, disabled=disabled))
            else:
                critique = self.critic.review(evidence, disabled=disabled)
        except KeyboardInterrupt:
            raise
        except Exception as exc:
            log.warning("nbcritic: the critic failed", exc_info=True)
            return Critique(errors=[CriticError("critic", f"{type(exc).__name__}: {exc}")]
                            ).to_dict()
        return reviewed(critique, self.critic)

    def self_check(self, checks: list[SelfCheck], critique: dict[str, Any]) -> None:
        """The cell's checks on the user's namespace (nothing added to it, nothing
        printed); failed ones join the critique as findings, like the service's."""
        try:
            raw = json.loads(self_check_kernel.evaluate(
                self.shell.user_ns, [c.to_dict() for c in checks],
                budget_ms=self.config.introspection_timeout * 1000))
            results = [CheckResult.from_dict(r) for r in raw]
        except Exception as exc:  # the checks must never break the magic
            results = [CheckResult(c.name, False, error=f"{type(exc).__name__}: {exc}",
                                   evaluated=False) for c in checks]
        critique.setdefault("findings", []).extend(
            f.to_dict() for f in check_findings(checks, results))
        critique.setdefault("errors", []).extend(
            {"rule_id": "self_check", "error": reason}
            for reason in unevaluated(checks, results))
        critique["checks"] = [{"name": r.name, "passed": r.passed, "detail": r.detail,
                               "error": r.error, "evaluated": r.evaluated} for r in results]

    def error_of(self, exc: BaseException | None) -> dict[str, Any]:
        """Jupyter's error shape, with IPython's own structured traceback (`Cell In[N],
        line K` frames) so that ErrorAnalyzer finds the failing line of this attempt."""
        if exc is None:
            return {"ename": "Error", "evalue": "", "traceback": []}
        try:
            stb = self.shell.InteractiveTB.structured_traceback(
                type(exc), exc, exc.__traceback__)
        except Exception:
            stb = []
        return {"ename": type(exc).__name__, "evalue": str(exc), "traceback": list(stb)}

    def namespace(self) -> dict[str, Any]:
        """Shallow facts of the user's variables, for the generator and the analyzer."""
        try:
            return json.loads(kernel_facts.collect(self.shell.user_ns, {
                "names": "*", "mode": "namespace",
                "budget_ms": self.config.introspection_budget_ms}))
        except Exception as exc:
            return {"error": f"{type(exc).__name__}: {exc}"}

    # -- rewriting ------------------------------------------------------------------------

    def _context(self, namespace: dict[str, Any] | None = None, *, text: str = "",
                 record: AttemptRecord | None = None) -> GenerationContext:
        """Earlier cells, the user's variables and the relevant lessons (as the service)."""
        facts = namespace if namespace is not None else self.namespace()
        prior = self.prior_cells()
        lessons = []
        learning = self.learning()
        if learning is not None:
            error = (record.error or {}) if record else {}
            lessons = learning.for_prompt(LessonQuery(
                rule_ids=[f.get("rule_id", "") for f in error.get("findings") or []],
                error_types=[error["ename"]] if record and record.status is CellStatus.ERROR
                and error.get("ename") else [],
                libraries=libraries_of("\n\n".join(prior), record.code if record else ""),
                columns=columns_in(text, facts)))
        drop = leftovers([record.code], "\n\n".join(prior)) if record else set()
        return GenerationContext(prior_cells=prior, variables=variables_from(facts, drop),
                                 lessons=[lesson.prompt_line() for lesson in lessons],
                                 lesson_ids=[lesson.id for lesson in lessons],
                                 max_chars=self.config.context_max_chars,
                                 status=record.status.value if record else None,
                                 generated=bool(record and record.generated))

    def _plan(self, run: CellRun, prompt: str, context: GenerationContext,
              current: list[SelfCheck]) -> list[SelfCheck]:
        """%%ask --plan: the model's plan, shown before the code; its expressible success
        criteria become checks of this run. A failed plan is reported, not fatal."""
        try:
            plan = self.loop.run(self.planner.plan(prompt, context))
        except (KeyboardInterrupt, SystemExit):
            raise
        except Exception as exc:
            print(f"nbcritic: no plan ({_generator_failure(exc)})", file=sys.stderr)
            return []
        run.tokens += plan.usage
        run.plan = plan.to_dict()
        display(Markdown(plan.render()))
        checks, _dropped = plan.checks()
        taken = {c.name for c in current}
        return [c for c in checks if c.name not in taken]

    def _learn(self, run: CellRun, namespace: dict[str, Any] | None) -> None:
        """A fixed retry or an escalation becomes lessons (as in the service)."""
        learning = self.learning()
        if learning is None:
            return
        try:
            learned = self.loop.run(learning.learn_from_cell(
                [r.to_dict() for r in run.attempts], run.escalation, notebook_id="magics",
                cell_id=str(self.shell.execution_count), execution_id="local",
                prior_code="\n\n".join(self.prior_cells()), namespace=namespace))
            run.lessons = learned.to_dict()
        except Exception:
            log.warning("nbcritic: learning from this cell failed", exc_info=True)

    def _rewrite(self, run: CellRun, outcomes: list[AttemptOutcome],
                 namespace: dict[str, Any] | None, prompt: str | None, decision: Decision,
                 controller: IterationController) -> tuple[Generation | None, Decision]:
        """Ask the generator to fix the last attempt; a failure or a repeat escalates."""
        last = run.attempts[-1]
        last.feedback = decision.feedback
        history = [AttemptSummary(r.attempt, r.code, r.status.value, r.feedback or "",
                                  r.generated) for r in run.attempts[:-1]]
        assert self.generator is not None and decision.feedback is not None
        try:
            generation = self.loop.run(self.generator.fix(
                prompt, last.code, decision.feedback, history,
                self._context(namespace, text=last.code, record=last)))
        except (KeyboardInterrupt, SystemExit):
            raise
        except Exception as exc:
            return None, controller.escalate(outcomes, Pattern.GENERATOR_FAILED,
                                             _generator_failure(exc))
        repeated = controller.check_candidate(generation.code, outcomes)
        if repeated is not None:
            return None, repeated
        return generation, decision

    def _override_for(self, code: str, prompt: str | None,
                      options: RunOptions) -> Override | None:
        if options.force:
            return Override("flag", current_user(), now_iso(), "%%critique --force")
        record = self.accepted.get(fingerprint(code, prompt))
        if record is not None:
            return Override("accepted", str(record.get("by", "user")),
                            str(record.get("at", now_iso())), str(record.get("reason", "")))
        return None


def _generator_failure(exc: BaseException) -> str:
    if isinstance(exc, GeneratorError):
        return str(exc) or type(exc).__name__
    return f"{type(exc).__name__}: {exc}"


def _retry_note(decision: Decision, controller: IterationController) -> str:
    kind = decision.cause.value if decision.cause else "error"
    used = decision.retries_used.get(kind, 0) + 1
    return f"{kind} retry {used} of {controller.budgets.of(decision.cause or Cause.ERROR)}"


def current_user() -> str:
    try:
        return getpass.getuser()
    except Exception:
        return "user"
