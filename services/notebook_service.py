"""NotebookService: notebooks, cells, kernels, and `execute_cell`, the flow of DESIGN.md.

One kernel per notebook (from the warm pool), one execution per notebook at a time (an
asyncio.Lock, whose waiters are served in order), different notebooks in parallel.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from nbformat import NotebookNode
from nbformat.v4 import new_code_cell, new_markdown_cell, new_raw_cell

from .cell_metadata import (
    META,
    Override,
    apply_result,
    cell_int,
    cell_prompt,
    check_own_metadata,
    clear_if_changed,
    drop_plan,
    now_iso,
    own_meta,
    standing_override,
    tags,
)
from .cell_plan import Planner
from .cell_result import CellResult
from .cell_review import CellReviewer, cell_disabled_rules, skip_reason
from .cell_runner import CellRunner
from .code_generator import CodeGenerator
from .config import EngineConfig
from .execution_events import ExecutionHub
from .iteration_control import RetryBudgets
from .journal import Event
from .journal_postgres import open_journal
from .kernel_executor import CellTarget, KernelExecuted, KernelExecutor
from .kernel_isolation import protect_service_process
from .kernel_pool import KernelPool
from .kernel_session import KernelSession
from .learning import Learning
from .notebook_store import (
    CellNotFound,
    NotebookNotFound,
    NotebookStore,
    find_cell,
    parse_notebook,
)
from .outputs import OutputCollector
from .replica_locks import STREAM_POLL, SWEEP_INTERVAL, replica_locks
from .run_journal import JournaledRun
from .run_types import RunOutcome, RunSpec, RunTools
from .self_checks import SelfCheck, cell_checks, parse_checks
from .status import CellStatus, ExecutionState
from .widgets import store_widget_state

log = logging.getLogger(__name__)


class ExecutionNotFound(KeyError):
    """An execution id the journal does not know for this notebook."""


class ServiceStopping(RuntimeError):
    """The service is shutting down and takes no new executions."""


class CellNotExecutable(Exception):
    """The cell cannot run as asked (not a code cell, or a prompt with no code generator)."""


@dataclass
class ExecuteOptions:
    timeout: float | None = None  # seconds; None -> config.cell_timeout
    stop_on_error: bool = True  # run-all: stop at the first cell that is not ok
    critic: bool = True  # review `ok` results (when the critic is enabled in settings)
    disabled_rules: tuple[str, ...] = ()  # per request, on top of settings and cell metadata
    override_critic: bool = False  # critical findings do not block this run
    override_by: str = "user"  # recorded with an override
    auto_fix: bool | None = None  # None -> config.auto_fix
    max_error_retries: int | None = None  # None -> cell metadata, then config
    max_critique_retries: int | None = None
    replay_before_retry: bool | None = None  # None -> config.replay_before_retry
    checks: tuple[SelfCheck, ...] = ()  # self-checks for this run, on top of the cell's
    # run-all: self-checks per cell id, on top of each cell's own
    cell_checks: dict[str, tuple[SelfCheck, ...]] = field(default_factory=dict)
    plan: bool | None = None  # None -> cell metadata `planning`, then config.planning
    # a single-cell re-run of code shown blocked is the person's override; False: reviewed
    # again (and, with a generator, rewritten), as the web page's "Let it fix" asks
    rerun_overrides: bool = True


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="milliseconds")


class NotebookService:
    def __init__(self, config: EngineConfig, *, reviewer: CellReviewer | None = None,
                 generator: CodeGenerator | None = None, planner: Planner | None = None,
                 learning: Learning | None = None):
        self.config = config
        self.reviewer = reviewer or CellReviewer(config)
        self.generator = generator  # None: prompt cells get 409, failing cells no auto-fix
        self.planner = planner  # None: no pre-run plans
        config.data_dir.mkdir(parents=True, exist_ok=True)
        self.store = NotebookStore(config.data_dir / "notebooks", fsync=config.fsync_writes,
                                   kernel_name=config.kernel_name)
        self.journal = open_journal(config.data_dir, config.database_url_text)
        # replicas sharing the database: execution ownership and notebook locks
        self.replicas = replica_locks(config.database_url_text)
        self._sweeper: asyncio.Task[None] | None = None
        self.learning = learning or Learning(config)
        self.hub = ExecutionHub(self.journal)
        self.pool = KernelPool(config)
        self._kernels: dict[str, KernelSession] = {}
        self._kernel_locks: dict[str, asyncio.Lock] = {}
        self._exec_locks: dict[str, asyncio.Lock] = {}
        self._tasks: dict[str, asyncio.Task[list[CellResult]]] = {}
        self._replaced: set[str] = set()  # kernel ids replaced on request mid-execution
        # notebook -> display id -> cell id -> output indices (for update_display_data)
        self._displays: dict[str, dict[str, dict[str, list[int]]]] = {}
        self._reaper: asyncio.Task[None] | None = None
        self._started = False
        self._stopping = ""  # why new executions are refused, once draining
        self.last_reflection: dict[str, dict[str, Any]] = {}  # notebook -> after its run-all

    # -- lifecycle -----------------------------------------------------------------------

    async def start(self) -> None:
        protect_service_process()  # kernels of this user cannot read its environ or memory
        await self._replay_unwritten_results()
        self._recover_unfinished()
        if self.replicas.shared:  # executions of replicas that die later, and their streams
            self._sweeper = asyncio.create_task(self._sweep_orphans())
            self.hub.poll = STREAM_POLL
        for notebook_id in self.store.list_ids():
            self._compact_journal(notebook_id)
        self.pool.start()
        if self.config.idle_kernel_timeout > 0:
            self._reaper = asyncio.create_task(self._reap_idle_kernels())
        self._started = True

    async def drain(self, reason: str = "the service is stopping") -> None:
        """The first step of a graceful stop: refuse new executions, end the running and
        queued ones `aborted`, which answers the clients waiting on them and ends their
        event streams. Kernels are stopped by `stop()`."""
        self._stopping = reason
        for task in list(self._tasks.values()):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def stop(self) -> None:
        """Abort running executions and shut every kernel down (no orphans)."""
        if self._reaper:
            self._reaper.cancel()
        if self._sweeper:
            self._sweeper.cancel()
        for task in list(self._tasks.values()):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)
        self._kernels.clear()
        await self.store.flush_all()
        await self.pool.close()
        self.journal.close()
        self.replicas.close()
        self.reviewer.close()
        await self.learning.aclose()
        self._started = False

    def _compact_journal(self, notebook_id: str) -> None:
        """Journal retention (`journal_keep_executions`): older executions lose outputs."""
        keep = self.config.journal_keep_executions
        if keep <= 0:
            return
        try:
            self.journal.compact_outputs(notebook_id, keep,
                                         self.store.written_seq.get(notebook_id, 0))
        except Exception:  # retention never fails an execution
            log.exception("journal compaction of notebook %s failed", notebook_id)

    def _recover_unfinished(self) -> None:
        """Executions cut off by a killed service end as `aborted` in the journal, with the
        results of the cells that finished before (their `final` events) and the rest as
        not run. With replicas: only those whose replica is gone, each ended by one replica."""
        for record in self.journal.unfinished():
            with self.replicas.adopt(record.id) as orphaned:
                current = self.journal.execution(record.id)
                if not orphaned or current is None or current.state == ExecutionState.DONE:
                    continue
                results = [e.data for e in self.journal.events_of_type(record.id, "final")]
                done = {r.get("cell_id") for r in results}
                self.hub.finish(record.id, record.notebook_id, {
                    "state": ExecutionState.DONE.value, "status": CellStatus.ABORTED.value,
                    "reason": "the service stopped before this execution finished",
                    "results": results,
                    "not_run": [c for c in record.cell_ids if c not in done],
                })
                self.journal.commit()  # before another replica may look at it

    # -- notebooks -----------------------------------------------------------------------

    async def create_notebook(self, notebook_id: str | None = None,
                              content: str | bytes | dict[str, Any] | None = None) -> str:
        nb = (parse_notebook(content, kernel_name=self.config.kernel_name)
              if content is not None else None)
        return await self.store.create(notebook_id, nb)

    def list_notebooks(self) -> list[dict[str, Any]]:
        summaries = []
        for notebook_id in self.store.list_ids():
            try:
                nb = self.store.peek(notebook_id)  # a summary needs no copy of every output
            except Exception as exc:  # a broken file on disk must not hide the others
                summaries.append({"id": notebook_id, "error": str(exc)})
                continue
            summaries.append({"id": notebook_id, "cells": len(nb.cells),
                              "kernel": self.kernel_state(notebook_id)})
        return summaries

    def get_notebook(self, notebook_id: str) -> NotebookNode:
        return self.store.read(notebook_id)

    async def delete_notebook(self, notebook_id: str) -> None:
        self.store.read(notebook_id)  # 404 before touching the kernel
        await self.shutdown_kernel(notebook_id)
        await self.store.delete(notebook_id)

    # -- cells ---------------------------------------------------------------------------

    async def add_cell(self, notebook_id: str, *, source: str = "", prompt: str | None = None,
                       cell_type: str = "code", position: int | None = None,
                       metadata: dict[str, Any] | None = None) -> NotebookNode:
        check_own_metadata(metadata)
        maker = {"code": new_code_cell, "markdown": new_markdown_cell, "raw": new_raw_cell}
        cell = maker[cell_type](source=source)
        if metadata:
            cell.metadata.update(metadata)
        if prompt is not None:
            own_meta(cell)["prompt"] = prompt

        def change(nb: NotebookNode) -> NotebookNode:
            index = len(nb.cells) if position is None else max(0, min(position, len(nb.cells)))
            nb.cells.insert(index, cell)
            return cell

        # only the new cell is new: the others are shared, not copied (nor re-validated)
        return await self.store.update(notebook_id, change, touches=cell.id)

    def get_cell(self, notebook_id: str, cell_id: str) -> NotebookNode:
        return self.store.read_cell(notebook_id, cell_id)

    async def update_cell(self, notebook_id: str, cell_id: str, *, source: str | None = None,
                          prompt: str | None = None,
                          metadata: dict[str, Any] | None = None) -> NotebookNode:
        check_own_metadata(metadata)

        def change(nb: NotebookNode) -> NotebookNode:
            _, cell = find_cell(nb, cell_id)
            old_prompt = cell_prompt(cell)
            if metadata is not None:
                keep = cell.metadata.get(META)
                cell.metadata = NotebookNode(metadata)
                if keep is not None and META not in metadata:
                    cell.metadata[META] = keep
            if source is not None:
                cell.source = source
            if prompt is not None:
                own_meta(cell)["prompt"] = prompt
            if cell_prompt(cell) != old_prompt:
                drop_plan(cell)  # a plan (and its checks) belongs to the prompt it planned
            clear_if_changed(cell)  # new code or prompt: an override no longer applies
            return cell

        return await self.store.update(notebook_id, change, touches=cell_id)

    async def accept_findings(self, notebook_id: str, cell_id: str, *, by: str = "user",
                              reason: str = "") -> dict[str, Any]:
        """The user accepts the cell's findings: its current code and prompt run unblocked
        until either changes. Journaled as `override_applied`."""
        from .cell_metadata import accept_findings

        def change(nb: NotebookNode) -> dict[str, Any]:
            _, cell = find_cell(nb, cell_id)
            return accept_findings(cell, by, reason)

        record = await self.store.update(notebook_id, change)
        # not part of an execution: its own journal id, found by notebook_events()
        self.journal.append(f"override-{uuid.uuid4().hex}", notebook_id, cell_id,
                            "override_applied", {**record, "how": "accepted"})
        return record

    async def delete_cell(self, notebook_id: str, cell_id: str) -> None:
        def change(nb: NotebookNode) -> None:
            index, _ = find_cell(nb, cell_id)
            del nb.cells[index]

        await self.store.update(notebook_id, change, touches=cell_id)

    async def move_cell(self, notebook_id: str, cell_id: str, position: int) -> NotebookNode:
        def change(nb: NotebookNode) -> NotebookNode:
            index, cell = find_cell(nb, cell_id)
            del nb.cells[index]
            nb.cells.insert(max(0, min(position, len(nb.cells))), cell)
            return cell

        return await self.store.update(notebook_id, change, touches=cell_id)

    # -- execution -----------------------------------------------------------------------

    async def execute_cell(self, notebook_id: str, cell_id: str,
                           options: ExecuteOptions | None = None) -> CellResult:
        """Run one cell and wait for its final result (the execution keeps its resource id)."""
        execution_id = self.start_execution(notebook_id, [cell_id], options)
        results = await self.wait(execution_id)
        if not results:
            raise CellNotFound(cell_id)  # deleted while queued
        return results[0]

    async def run_all(self, notebook_id: str,
                      options: ExecuteOptions | None = None) -> list[CellResult]:
        execution_id = self.start_execution(notebook_id, None, options)
        return await self.wait(execution_id)

    async def wait(self, execution_id: str) -> list[CellResult]:
        """Results of a running execution; a caller that goes away does not cancel it."""
        task = self._tasks.get(execution_id)
        if task is None:
            return []
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            if task.cancelled():  # the execution was aborted (the service is stopping)
                return []
            raise

    def start_execution(self, notebook_id: str, cell_ids: list[str] | None,
                        options: ExecuteOptions | None = None) -> str:
        """Queue an execution (one cell, or all cells when `cell_ids` is None); return its id.

        Bad requests fail here, before anything is queued.
        """
        if self._stopping:
            raise ServiceStopping(self._stopping)
        nb = self.store.peek(notebook_id)
        if options is not None and options.plan and self.planner is None:
            raise CellNotExecutable("a plan was asked for, but no planner is configured "
                                    "(set ANTHROPIC_API_KEY)")
        if cell_ids is None:
            kind, targets = "run_all", [c.id for c in nb.cells if c.cell_type == "code"]
        else:
            kind, targets = "cell", cell_ids
            for cell_id in cell_ids:
                self._check_executable(find_cell(nb, cell_id)[1])
        execution_id = uuid.uuid4().hex
        self.journal.create_execution(execution_id, notebook_id, kind, targets)
        self.replicas.claim(execution_id)
        self.hub.emit(execution_id, notebook_id, None, "status",
                      {"state": ExecutionState.QUEUED.value, "kind": kind, "cells": targets})
        task = asyncio.create_task(self._run_execution(
            execution_id, notebook_id, targets, options or ExecuteOptions(), kind))
        self._tasks[execution_id] = task
        task.add_done_callback(lambda _t: self._tasks.pop(execution_id, None))
        return execution_id

    def _check_executable(self, cell: NotebookNode) -> None:
        if cell.cell_type != "code":
            raise CellNotExecutable(f"cell {cell.id} is a {cell.cell_type} cell, not code")
        if not cell.source.strip() and cell_prompt(cell) is not None and self.generator is None:
            raise CellNotExecutable(
                f"cell {cell.id} has a prompt but no code, and no code generator is configured "
                "(set ANTHROPIC_API_KEY)"
            )

    async def _run_execution(self, execution_id: str, notebook_id: str, cell_ids: list[str],
                             options: ExecuteOptions, kind: str = "cell") -> list[CellResult]:
        results: list[CellResult] = []
        summary: dict[str, Any] = {"state": ExecutionState.DONE.value}
        try:
            async with self._exec_locks.setdefault(notebook_id, asyncio.Lock()), \
                    self.replicas.notebook(notebook_id):
                self.journal.set_state(execution_id, ExecutionState.RUNNING)
                self.hub.emit(execution_id, notebook_id, None, "status",
                              {"state": ExecutionState.RUNNING.value})
                for cell_id in cell_ids:
                    result = await self._run_cell(execution_id, notebook_id, cell_id, options,
                                                  single_cell=kind == "cell")
                    results.append(result)
                    if options.stop_on_error and result.stops_a_run:
                        break
        except asyncio.CancelledError:
            summary["reason"] = "cancelled: the service is stopping"
            summary["status"] = CellStatus.ABORTED.value
            raise
        except (NotebookNotFound, CellNotFound) as exc:
            summary["status"] = CellStatus.ABORTED.value
            summary["reason"] = f"{type(exc).__name__}: {exc} (deleted while queued)"
        except Exception as exc:
            log.exception("execution %s failed", execution_id)
            summary["status"] = CellStatus.ABORTED.value
            summary["reason"] = f"internal error: {type(exc).__name__}"
        finally:
            summary.setdefault("status", _overall(results))
            summary["results"] = [r.as_dict() for r in results]
            summary["not_run"] = [c for c in cell_ids if c not in {r.cell_id for r in results}]
            summary["blocked"] = [r.cell_id for r in results
                                  if r.status is CellStatus.SCIENTIFIC_VALIDITY_ERROR]
            self.hub.finish(execution_id, notebook_id, summary)
            self.replicas.release(execution_id)
            self._compact_journal(notebook_id)
        if kind == "run_all" and self.config.reflection_auto:
            try:  # a post-mortem never changes the run's results
                self.last_reflection[notebook_id] = await self.reflect(
                    notebook_id, [execution_id], record_clean=False)
            except Exception:
                log.exception("reflection after run-all of %s failed", notebook_id)
        return results

    async def _run_cell(self, execution_id: str, notebook_id: str, cell_id: str,
                        options: ExecuteOptions, *, single_cell: bool = False) -> CellResult:
        """DESIGN.md's flow for one cell: the shared runner (`services.cell_runner`) in the
        notebook's kernel. Each retry waits for the previous execute reply."""
        cell = self.get_cell(notebook_id, cell_id)
        result = CellResult(notebook_id, cell_id, execution_id, CellStatus.OK)
        empty = not cell.source.strip() and cell_prompt(cell) is None
        if cell.cell_type != "code" or "skip-execution" in tags(cell) or empty:
            result.skipped = True  # an empty cell runs nothing, as in Jupyter
            self.hub.emit(execution_id, notebook_id, cell_id, "final", result.as_dict())
            return result
        self._check_executable(cell)
        spec = self._spec(execution_id, notebook_id, cell, options, single_cell)
        session = await self.kernel_for(notebook_id, execution_id)  # we hold the exec lock
        executor = KernelExecutor(self, self._target(execution_id, notebook_id, cell, options),
                                  session)
        events = JournaledRun(self.hub, execution_id, notebook_id, cell_id)
        tools = RunTools(self.generator, self.planner, lambda: self.learning)
        outcome = await CellRunner(executor, events, spec, tools).run()
        result.plan = outcome.plan
        result.tokens = outcome.tokens.to_dict() if outcome.tokens.total else None
        if outcome.generation_error is not None:
            return await self._generation_failed(result, outcome)
        return await self._finish(result, outcome, cell)

    def _spec(self, execution_id: str, notebook_id: str, cell: NotebookNode,
              options: ExecuteOptions, single_cell: bool) -> RunSpec:
        """The run as the request, the cell's metadata and the settings ask for it."""
        checks, invalid = self._checks_for(cell, options)
        override = self._override_for(cell, options, single_cell)
        token_budget = cell_int(cell, "token_budget", upper=10**9)
        return RunSpec(
            code=cell.source, prompt=cell_prompt(cell), budgets=self._budgets(cell, options),
            auto_fix=self._auto_fix(options), min_confidence=self.config.critic_min_confidence,
            overrides=[override] if override is not None else [],
            token_budget=self.config.cell_token_budget if token_budget is None else token_budget,
            checks=checks, invalid_checks=invalid, plan=self._planning(cell, options),
            replay=self._replay(options), expects_error="raises-exception" in tags(cell),
            max_feedback_chars=self.config.feedback_max_chars,
            context_max_chars=self.config.context_max_chars,
            notebook_id=notebook_id, cell_id=cell.id, execution_id=execution_id)

    def _target(self, execution_id: str, notebook_id: str, cell: NotebookNode,
                options: ExecuteOptions) -> CellTarget:
        review = self.config.critic_enabled and options.critic and not skip_reason(cell)
        return CellTarget(execution_id, notebook_id, cell,
                          options.timeout or self.config.cell_timeout, review,
                          self._skip_reason(cell, options),
                          cell_disabled_rules(cell) + list(options.disabled_rules))

    async def _finish(self, result: CellResult, outcome: RunOutcome,
                      cell: NotebookNode) -> CellResult:
        """Persist the last attempt: its code, outputs, status, and the whole history."""
        runs = outcome.runs
        last = runs[-1]
        executed = last.executed
        assert isinstance(executed, KernelExecuted) and executed.collector is not None
        collector = executed.collector
        result.status = status = last.outcome.status
        result.code = last.outcome.code
        result.error = last.error
        result.critique = last.critique
        result.override = last.override
        result.escalation = outcome.escalation
        result.execution_count = last.record["execution_count"]
        result.outputs = [dict(o) for o in collector.outputs()]
        result.output_truncated = collector.truncated
        result.expected_error = status is CellStatus.ERROR and "raises-exception" in tags(cell)
        result.started_at = runs[0].record["started_at"]
        result.finished_at = _iso(executed.finished)
        result.duration_ms = round(sum(r.record["duration_ms"] for r in runs), 3)
        result.attempts = [r.record for r in runs]
        result.lessons = outcome.lessons
        await self._persist(result, collector)
        return result

    async def _generation_failed(self, result: CellResult, outcome: RunOutcome) -> CellResult:
        """A prompt cell whose code could not be generated: an error, escalated."""
        now = now_iso()
        result.status = CellStatus.ERROR
        result.error = {"ename": "CodeGenerationError", "evalue": outcome.generation_error,
                        "traceback": []}
        result.escalation = outcome.escalation
        result.outputs = [{"output_type": "error", **result.error}]
        result.started_at = result.finished_at = now
        await self._persist(result, OutputCollector(self.config.output_budget_bytes))
        return result

    # -- learning across runs ------------------------------------------------------------

    def _checks_for(self, cell: NotebookNode,
                    options: ExecuteOptions) -> tuple[list[SelfCheck], str | None]:
        """The cell's declared self-checks, then the request's (a request check replaces
        a cell check of the same name)."""
        declared, error = cell_checks(cell)
        requested = list(options.cell_checks.get(cell.id, ())) + list(options.checks)
        extra = {c.name for c in requested}
        return [c for c in declared if c.name not in extra] + requested, error

    def _planning(self, cell: NotebookNode, options: ExecuteOptions) -> bool:
        if self.planner is None:
            return False
        if options.plan is not None:
            return options.plan
        from_cell = cell.metadata.get(META, {}).get("planning")
        return from_cell if isinstance(from_cell, bool) else self.config.planning

    async def reflect(self, notebook_id: str, execution_ids: list[str] | None = None, *,
                      record_clean: bool | None = None) -> dict[str, Any]:
        """A post-mortem of the notebook's executions (default: those since its last
        reflection): patterns, metrics, suggestions, lessons and improvement requests. A
        clean one is journaled only when asked for named executions (`record_clean`)."""
        self.store.peek(notebook_id)  # 404 for an unknown notebook
        for execution_id in execution_ids or []:
            record = self.journal.execution(execution_id)
            if record is None or record.notebook_id != notebook_id:
                raise ExecutionNotFound(execution_id)
        if record_clean is None:
            record_clean = execution_ids is not None
        return await self.learning.reflect(self.journal, notebook_id, execution_ids,
                                           record_clean=record_clean)

    def reflections(self, notebook_id: str, limit: int = 20) -> list[dict[str, Any]]:
        self.store.peek(notebook_id)
        events = self.journal.notebook_events(notebook_id, types=("reflection",), limit=10**6)
        return [{**e.data, "id": e.execution_id, "seq": e.seq, "ts": e.ts}
                for e in events[-limit:]][::-1]

    async def set_checks(self, notebook_id: str, cell_id: str,
                         raw: Any) -> list[dict[str, Any]]:
        """Replace a cell's self-checks (validated first: CheckSpecError names the field)."""
        checks = [c.to_dict() for c in parse_checks(raw)]

        def change(nb: NotebookNode) -> list[dict[str, Any]]:
            _, cell = find_cell(nb, cell_id)
            meta = own_meta(cell)
            if checks:
                meta["checks"] = checks
            else:
                meta.pop("checks", None)
            return checks

        return await self.store.update(notebook_id, change)

    def _budgets(self, cell: NotebookNode, options: ExecuteOptions) -> RetryBudgets:
        """Request, then cell metadata, then settings."""
        def pick(requested: int | None, key: str, default: int) -> int:
            if requested is not None:
                return requested
            from_cell = cell_int(cell, key)
            return default if from_cell is None else from_cell

        return RetryBudgets(
            pick(options.max_error_retries, "max_error_retries", self.config.max_error_retries),
            pick(options.max_critique_retries, "max_critique_retries",
                 self.config.max_critique_retries))

    def _auto_fix(self, options: ExecuteOptions) -> bool:
        wanted = self.config.auto_fix if options.auto_fix is None else options.auto_fix
        return wanted and self.generator is not None

    def _replay(self, options: ExecuteOptions) -> bool:
        if options.replay_before_retry is None:
            return self.config.replay_before_retry
        return options.replay_before_retry

    def _override_for(self, cell: NotebookNode, options: ExecuteOptions,
                      single_cell: bool) -> Override | None:
        """The request's flag, findings accepted for this code, or (single-cell execute
        only) the re-run of the user's own code that was shown blocked."""
        if options.override_critic:
            return Override("flag", options.override_by, now_iso(),
                            "override_critic in the execute request")
        return standing_override(cell, cell.source, cell_prompt(cell),
                                 single_cell=single_cell and options.rerun_overrides,
                                 by=options.override_by)

    def _skip_reason(self, cell: NotebookNode, options: ExecuteOptions) -> str:
        if not self.config.critic_enabled:
            return "the critic is disabled in settings"
        if not options.critic:
            return "the request asked for no critique"
        return skip_reason(cell) or "skipped"

    async def _persist(self, result: CellResult, collector: OutputCollector) -> None:
        """Journal the `final` event and apply it to the notebook in one step (no await in
        between, so a client that saw `final` reads the new outputs). The file is written in
        the background; the journal replays results a killed service had not written yet."""
        data = result.as_dict()
        emitted = False

        def change(nb: NotebookNode) -> None:
            nonlocal emitted
            event = self.hub.emit(result.execution_id, result.notebook_id, result.cell_id,
                                  "final", data)
            emitted = True
            nb.metadata.setdefault(META, {})["journal_seq"] = event.seq
            apply_result(nb, data)
            self._apply_foreign_display_updates(nb, result.notebook_id, result.cell_id,
                                                collector)
            store_widget_state(nb, collector.widgets)

        # cross-cell display updates touch other cells: then copy the whole notebook
        touches = None if collector.foreign_updates else result.cell_id
        try:
            await self.store.update(result.notebook_id, change, durable=False, touches=touches)
        except NotebookNotFound:
            pass  # deleted while running: the journal still has the result
        finally:
            if not emitted:
                self.hub.emit(result.execution_id, result.notebook_id, result.cell_id,
                              "final", data)
        displays = self._displays.setdefault(result.notebook_id, {})
        for cells in displays.values():  # the cell's old outputs (and their ids) are gone
            cells.pop(result.cell_id, None)
        for display_id, indices in collector.display_positions().items():
            displays.setdefault(display_id, {})[result.cell_id] = indices

    async def _replay_unwritten_results(self) -> None:
        """Apply `final` events newer than what each notebook file records (a kill can land
        between the journal write and the background file write)."""
        for notebook_id in self.store.list_ids():
            try:
                nb = self.store.read(notebook_id)
            except Exception:
                log.warning("notebook %s could not be read for replay", notebook_id)
                continue
            applied = nb.metadata.get(META, {}).get("journal_seq", 0)
            finals = self.journal.notebook_events(notebook_id, applied, types=("final",))
            if not finals:
                continue

            def change(nb: NotebookNode, finals: list[Event] = finals) -> None:
                for event in finals:
                    apply_result(nb, event.data)
                nb.metadata.setdefault(META, {})["journal_seq"] = finals[-1].seq

            await self.store.update(notebook_id, change)
            log.info("replayed %d result(s) into notebook %s", len(finals), notebook_id)

    def _apply_foreign_display_updates(self, nb: NotebookNode, notebook_id: str,
                                       collector_cell_id: str,
                                       collector: OutputCollector) -> None:
        """update_display_data for a display shown by an earlier cell (as nbclient does)."""
        known = self._displays.get(notebook_id, {})
        for display_id, update in collector.foreign_updates.items():
            for other_id, indices in known.get(display_id, {}).items():
                if other_id == collector_cell_id:
                    continue  # the collector already updated its own cell
                try:
                    _, other = find_cell(nb, other_id)
                except CellNotFound:
                    continue
                for index in indices:
                    if index < len(other.outputs) and "data" in other.outputs[index]:
                        other.outputs[index]["data"] = update["data"]
                        other.outputs[index]["metadata"] = update["metadata"]

    # -- kernels -------------------------------------------------------------------------

    def kernel_state(self, notebook_id: str) -> dict[str, Any] | None:
        session = self._kernels.get(notebook_id)
        if session is None:
            return None
        return {"id": session.kernel_id, "busy": session.busy,
                "idle_seconds": round(time.monotonic() - session.last_used, 3)}

    async def kernel_for(self, notebook_id: str, execution_id: str | None = None) -> KernelSession:
        async with self._kernel_locks.setdefault(notebook_id, asyncio.Lock()):
            session = self._kernels.get(notebook_id)
            if session is not None and await session.is_alive():
                return session
            if session is not None:
                self.pool.discard(session)
            warm = self.pool.warm_count > 0
            session = await self.pool.acquire()
            self._kernels[notebook_id] = session
            if execution_id:
                self.hub.emit(execution_id, notebook_id, None, "kernel",
                              {"event": "started", "kernel_id": session.kernel_id, "warm": warm})
            return session

    async def replace_kernel(self, notebook_id: str, session: KernelSession,
                              execution_id: str, status: CellStatus) -> None:
        if self._kernels.get(notebook_id) is session:
            del self._kernels[notebook_id]
        self.pool.discard(session, now=True)
        self.hub.emit(execution_id, notebook_id, None, "kernel",
                      {"event": "replaced", "kernel_id": session.kernel_id,
                       "reason": status.value})

    def current_kernel(self, notebook_id: str, default: KernelSession) -> KernelSession:
        """The notebook's kernel now (`default` when it was dropped)."""
        return self._kernels.get(notebook_id, default)

    def take_replaced(self, kernel_id: str) -> bool:
        """Whether this kernel was restarted or shut down on request while it ran (asked
        once: the answer is consumed)."""
        if kernel_id not in self._replaced:
            return False
        self._replaced.discard(kernel_id)
        return True

    async def ensure_kernel(self, notebook_id: str) -> dict[str, Any]:
        self.store.read(notebook_id)
        await self.kernel_for(notebook_id)
        state = self.kernel_state(notebook_id)
        assert state is not None
        return state

    async def interrupt(self, notebook_id: str) -> bool:
        """Interrupt the running cell, if any; True when a kernel was there to interrupt."""
        self.store.read(notebook_id)
        session = self._kernels.get(notebook_id)
        if session is None:
            return False
        await session.interrupt()
        return True

    async def restart(self, notebook_id: str) -> dict[str, Any]:
        """A fresh namespace: swap in a warm kernel; a running cell ends `aborted`."""
        self.store.read(notebook_id)
        await self.drop_kernel(notebook_id)
        return await self.ensure_kernel(notebook_id)

    async def shutdown_kernel(self, notebook_id: str) -> bool:
        return await self.drop_kernel(notebook_id)

    async def drop_kernel(self, notebook_id: str) -> bool:
        async with self._kernel_locks.setdefault(notebook_id, asyncio.Lock()):
            session = self._kernels.pop(notebook_id, None)
            if session is None:
                return False
            if session.busy:
                self._replaced.add(session.kernel_id)
            self.pool.discard(session, now=session.busy)
            return True

    async def _sweep_orphans(self) -> None:
        """With replicas: executions whose replica died end `aborted` (their lease, an
        advisory lock, went with its connection), so their streams end on any replica."""
        while True:
            await asyncio.sleep(SWEEP_INTERVAL)
            try:
                self._recover_unfinished()
            except Exception:
                log.exception("looking for executions of replicas that died failed")

    async def _reap_idle_kernels(self) -> None:
        interval = max(0.5, min(60.0, self.config.idle_kernel_timeout / 4))
        while True:
            await asyncio.sleep(interval)
            now = time.monotonic()
            for notebook_id, session in list(self._kernels.items()):
                lock = self._exec_locks.get(notebook_id)
                if session.busy or (lock is not None and lock.locked()):
                    continue
                if now - session.last_used >= self.config.idle_kernel_timeout:
                    log.info("shutting down idle kernel of notebook %s", notebook_id)
                    with contextlib.suppress(Exception):
                        await self.drop_kernel(notebook_id)


def _overall(results: list[CellResult]) -> str:
    for result in results:
        if not (result.acceptable or result.skipped):
            return result.status.value
    return CellStatus.OK.value
