"""One cell's retry loop (DESIGN.md steps 4-7), shared by every face: the service (REST and
`nbcritic run`) and the IPython magics.

Attempts run until the iteration controller says `proceed` or `escalate`. What differs
between the faces sits behind two seams (`services.run_types`): a `CellExecutor` runs the
code and reads what the critic and the generator need (the service's kernel client,
`services.kernel_executor`; the magics' in-process shell, `services.shell_executor`), and
`RunEvents` reports each step (journal events, or panels). Everything else is decided here,
once: blocking and overrides, feedback about *this attempt's* code, budgets, stalls, the
token budget, escalation, plans, the lessons given to the generator and those learned.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

from .attempt_lessons import columns_in, libraries_of
from .cell_review import nearest_within_budget
from .code_generator import AttemptSummary, Generation, GenerationContext, GeneratorError
from .critique_record import add_check_results, applied_override, in_force, skipped
from .error_analyzer import ErrorAnalyzer, ErrorFeedback
from .generation_context import leftovers, variables_from
from .iteration_control import (
    Action,
    AttemptOutcome,
    Cause,
    Decision,
    IterationController,
    Pattern,
)
from .lessons import LessonQuery
from .run_types import AttemptRun, CellExecutor, Executed, RunEvents, RunOutcome, RunSpec, RunTools
from .scientific_validity import blocking_findings, jupyter_error, validity_error
from .status import CellStatus

log = logging.getLogger(__name__)

NO_GENERATOR = "no code generator is configured to write the cell's code"


class CellRunner:
    """The attempts of one cell run. Built per run: `await CellRunner(...).run()`."""

    def __init__(self, executor: CellExecutor, events: RunEvents, spec: RunSpec,
                 tools: RunTools | None = None) -> None:
        self.executor = executor
        self.events = events
        self.spec = spec
        self.tools = tools or RunTools()
        self.checks = list(spec.checks)
        self.plan_text = ""  # the rendered plan, once one was made
        self.out = RunOutcome()
        self.analyzer = ErrorAnalyzer()
        self.controller = IterationController(
            spec.budgets, can_generate=spec.auto_fix and self.tools.generator is not None,
            max_feedback_chars=spec.max_feedback_chars)

    async def run(self) -> RunOutcome:
        code, generation = self.spec.code, None
        lessons: list[str] = []
        if not code.strip():
            first = await self._first_generation()
            if first is None:
                return self.out
            generation, lessons = first
            code = generation.code
        cause: Cause | None = None
        while True:
            run = await self._attempt(code, cause, generation)
            run.record["lessons"] = lessons
            self.out.runs.append(run)
            decision = self._decide()
            if decision.action is Action.RETRY:
                generation, decision, lessons = await self._rewrite(decision)
                if generation is not None:
                    code, cause = generation.code, decision.cause
                    if self.spec.replay:
                        await self.executor.replay()
                    continue
            if decision.action is Action.ESCALATE:
                self.out.escalation = decision.escalation
                self.events.escalated(decision.escalation or {})
            break
        if len(self.out.runs) > 1 or self.out.escalation:
            self.out.lessons = await self._learn()
        return self.out

    def _outcomes(self) -> list[AttemptOutcome]:
        return [r.outcome for r in self.out.runs]

    def _decide(self) -> Decision:
        """The controller's decision, and the token budget on top of it."""
        outcomes = self._outcomes()
        decision = self.controller.decide(outcomes)
        budget, spent = self.spec.token_budget, self.out.tokens.total
        if decision.action is Action.RETRY and budget and spent >= budget:
            return self.controller.escalate(outcomes, Pattern.TOKEN_BUDGET,
                                            f"{spent} of {budget} tokens")
        return decision

    # -- one attempt ------------------------------------------------------------------------

    async def _attempt(self, code: str, cause: Cause | None,
                       generation: Generation | None) -> AttemptRun:
        number = len(self.out.runs) + 1
        self.events.attempt_started(number, code, cause, generation)
        executed = await self.executor.execute(code)
        verdict = await self._judge(code, number, executed, generation is not None)
        namespace, feedback = await self._feedback(code, executed, verdict)
        record = _record(number, code, cause, generation, executed, verdict, feedback)
        run = AttemptRun(AttemptOutcome(number, code, verdict.status, feedback), record,
                         executed, verdict.error, verdict.critique, verdict.applied,
                         namespace, verdict.reviewed)
        if verdict.reviewed:
            self.events.reviewed(run)
        return run

    async def _judge(self, code: str, number: int, executed: Executed,
                     generated: bool) -> _Verdict:
        """Review an `ok` attempt and run its checks; a blocking finding makes it a
        ScientificValidityError unless an override covers this code."""
        verdict = _Verdict(executed.status, executed.error)
        if executed.status is not CellStatus.OK:
            return verdict
        critique = await self.executor.review(code, executed)
        checking = bool(self.checks or self.spec.invalid_checks)
        verdict.critique = critique or skipped(self.executor.skip_reason())
        verdict.reviewed = critique is not None or checking
        if not verdict.reviewed:
            return verdict
        lost = await self._check(verdict.critique, executed) if checking else None
        blocking = blocking_findings(verdict.critique, self.spec.min_confidence)
        if lost is not None:  # the checks cost the attempt its state: final, like a timeout
            verdict.status, blocking = CellStatus.TIMEOUT, []
            verdict.error = {"ename": "CellTimeoutError", "evalue": lost, "traceback": []}
            executed.show_error(verdict.error)
        override = in_force(self.spec.overrides, code, self.spec.prompt) if blocking else None
        if blocking and override is not None:
            verdict.applied = applied_override(override, number, blocking, code,
                                               self.spec.prompt, generated)
            verdict.critique["overridden"] = verdict.applied
            self.events.override_applied(verdict.applied)
        elif blocking:
            verdict.status = CellStatus.SCIENTIFIC_VALIDITY_ERROR
            verdict.error = validity_error(blocking)
            executed.show_error(jupyter_error(verdict.error))
        return verdict

    async def _check(self, critique: dict[str, Any], executed: Executed) -> str | None:
        add_check_results(critique, [], [], self.spec.invalid_checks)
        if not self.checks:
            return None
        return await self.executor.self_check(self.checks, critique, executed)

    async def _feedback(self, code: str, executed: Executed, verdict: _Verdict
                        ) -> tuple[dict[str, Any] | None, ErrorFeedback | None]:
        """Structured feedback about this attempt's own code and error, and the variables
        read after an error (a declared expected error gets neither)."""
        status = verdict.status
        if self.spec.expects_error and status is CellStatus.ERROR:
            return None, None
        namespace = await self.executor.namespace() if status is CellStatus.ERROR else None
        if status not in (CellStatus.ERROR, CellStatus.SCIENTIFIC_VALIDITY_ERROR):
            return namespace, None
        feedback = self.analyzer.analyze(verdict.error or {}, code,
                                         execution_count=executed.execution_count,
                                         variables=variables_from(namespace or {}))
        return namespace, feedback

    # -- writing code -----------------------------------------------------------------------

    async def _first_generation(self) -> tuple[Generation, list[str]] | None:
        """A prompt with no code: the generator writes it (after a plan, when asked). A
        failure is an escalation with no attempt."""
        generator = self.tools.generator
        try:
            if generator is None or not self.spec.prompt:
                raise GeneratorError(NO_GENERATOR)
            context = await self._context()
            if self.spec.plan and self.tools.planner is not None:
                await self._plan(context)
                context.plan = self.plan_text
            generation = await generator.generate(self.spec.prompt, context)
        except Exception as exc:  # GeneratorError, or a user's generator that broke
            detail = failure_text(exc)
            self.out.generation_error = detail
            self.out.escalation = self.controller.escalate_without_attempt(
                Pattern.GENERATOR_FAILED, detail)
            self.events.escalated(self.out.escalation)
            return None
        self.out.tokens += generation.usage
        return generation, context.lesson_ids

    async def _plan(self, context: GenerationContext) -> None:
        """The model's plan before the code; its criteria it can express become checks of
        this run. A failed plan is reported, never fatal."""
        assert self.tools.planner is not None and self.spec.prompt is not None
        try:
            plan = await self.tools.planner.plan(self.spec.prompt, context)
        except Exception as exc:
            self.events.planned(None, failure_text(exc))
            return
        self.events.planned(plan, None)
        self.out.tokens += plan.usage
        self.plan_text = plan.render()  # every generate and fix of this cell carries it
        checks, dropped = plan.checks()
        taken = {c.name for c in self.checks}
        fresh = [c for c in checks if c.name not in taken]
        self.checks += fresh
        self.out.plan = {**plan.to_dict(), "checks": [c.to_dict() for c in fresh]}
        if dropped:
            self.out.plan["dropped_checks"] = dropped

    async def _rewrite(self, decision: Decision
                       ) -> tuple[Generation | None, Decision, list[str]]:
        """Ask the generator to fix the last attempt; a failure or a repeat escalates."""
        runs, outcomes = self.out.runs, self._outcomes()
        last = runs[-1]
        last.record["feedback"] = decision.feedback
        self.events.retry_scheduled(len(runs), decision, self.controller.budgets)
        history = [AttemptSummary(r.outcome.attempt, r.outcome.code, r.outcome.status.value,
                                  r.record.get("feedback") or "", bool(r.record["generated"]))
                   for r in runs[:-1]]
        assert self.tools.generator is not None and decision.feedback is not None
        try:
            context = await self._context(last)
            generation = await self.tools.generator.fix(
                self.spec.prompt, last.outcome.code, decision.feedback, history, context)
        except Exception as exc:  # GeneratorError, or a user's generator that broke
            return None, self.controller.escalate(outcomes, Pattern.GENERATOR_FAILED,
                                                  failure_text(exc)), []
        self.out.tokens += generation.usage
        repeated = self.controller.check_candidate(generation.code, outcomes)
        if repeated is not None:
            return None, repeated, []
        return generation, decision, context.lesson_ids

    async def _context(self, last: AttemptRun | None = None) -> GenerationContext:
        """Earlier cells, the variables (without what failed attempts left behind), the
        lessons relevant to this cell, and the status and author of the code to fix."""
        namespace = last.namespace if last is not None else None
        if namespace is None:
            namespace = await self.executor.namespace()
        cells = self.executor.prior_cells()
        prior = "\n\n".join(nearest_within_budget(cells))
        record = last.record if last is not None else {}
        code = str(record.get("code") or "")
        lessons = self._lessons(record, prior, code, namespace)
        failed = [r.outcome.code for r in self.out.runs]
        return GenerationContext(
            prior_cells=cells, variables=variables_from(namespace, leftovers(failed, prior)),
            lessons=[lesson.prompt_line() for lesson in lessons],
            lesson_ids=[lesson.id for lesson in lessons],
            max_chars=self.spec.context_max_chars, status=record.get("status"),
            generated=bool(record.get("generated")), plan=self.plan_text)

    def _lessons(self, record: dict[str, Any], prior: str, code: str,
                 namespace: dict[str, Any]) -> list[Any]:
        learning = self.tools.learning()
        if learning is None:
            return []
        failed_with_error = record.get("error") and record.get("status") == "error"
        findings = record.get("findings") or []
        # the cell's words: its prompt, its code, and what went wrong with it
        said = [self.spec.prompt or "", code, *(str(f.get("title", "")) for f in findings)]
        if failed_with_error:
            said.append(str(record["error"].get("evalue", "")))
        return learning.for_prompt(LessonQuery(
            rule_ids=[f.get("rule_id", "") for f in findings],
            error_types=[record["error"].get("ename", "")] if failed_with_error else [],
            libraries=libraries_of(prior, code),
            columns=columns_in(f"{code}\n{self.spec.prompt or ''}", namespace),
            text="\n".join(said), code=code))

    # -- learning ---------------------------------------------------------------------------

    async def _learn(self) -> dict[str, Any] | None:
        """A fixed retry or an escalation becomes lessons; never fails the cell."""
        learning = self.tools.learning()
        if learning is None:
            return None
        runs = self.out.runs
        namespace = next((r.namespace for r in reversed(runs) if r.namespace), None)
        prior = "\n\n".join(nearest_within_budget(self.executor.prior_cells()))
        try:
            learned = await learning.learn_from_cell(
                [r.record for r in runs], self.out.escalation, notebook_id=self.spec.notebook_id,
                cell_id=self.spec.cell_id, execution_id=self.spec.execution_id,
                prior_code=prior, namespace=namespace)
        except Exception:
            log.exception("learning from cell %s failed", self.spec.cell_id)
            return None
        data = learned.to_dict()
        if learned.created or learned.merged:
            self.events.learned(data)
        return data


class _Verdict:
    """An attempt after the critic: its status and error, critique and override."""

    def __init__(self, status: CellStatus, error: dict[str, Any] | None) -> None:
        self.status = status
        self.error = error
        self.critique: dict[str, Any] | None = None
        self.applied: dict[str, Any] | None = None
        self.reviewed = False


def _record(number: int, code: str, cause: Cause | None, generation: Generation | None,
            executed: Executed, verdict: _Verdict,
            feedback: ErrorFeedback | None) -> dict[str, Any]:
    """The attempt as stored in `metadata.nbcritic.attempts`."""
    error = verdict.error
    return {
        "attempt": number, "code": code, "status": verdict.status.value,
        "cause": cause.value if cause else None, "generated": generation is not None,
        "started_at": _iso(executed.started),
        "duration_ms": round((executed.finished - executed.started) * 1000, 3),
        "execution_count": executed.execution_count,
        "error": jupyter_error(error) if error else None,
        "findings": (error or {}).get("findings"),
        "analysis": feedback.to_dict() if feedback is not None else None,
        "feedback": None,  # set when a retry sends feedback about this attempt
        "tokens": generation.usage.to_dict() if generation else None,
        "explanation": generation.explanation if generation else None,
        "override": verdict.applied,  # a blocked result let through by a person's override
    }


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="milliseconds")


def failure_text(exc: BaseException) -> str:
    """What went wrong with the generator or planner, for an escalation or a note."""
    if isinstance(exc, GeneratorError):
        return str(exc) or type(exc).__name__
    return f"{type(exc).__name__}: {exc}"
