"""The service's executor for the shared runner (`services.cell_runner`): attempts run in the
notebook's kernel through jupyter_client, outputs are collected as nbformat under budgets and
journaled as they come, the per-cell timeout is enforced (a kernel that does not come back is
replaced), the critic reads facts from the kernel, and checks and namespace reads are silent
requests to it."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from nbformat import NotebookNode

from .cell_review import CellReviewer, ReviewPlan, prior_code_of
from .config import EngineConfig
from .critique_record import add_check_results, failed_review, reviewed
from .execution_events import ExecutionHub
from .generation_context import earlier_cells
from .kernel_limits import KernelLimits, exit_code, with_limit_reason
from .kernel_session import KernelSession, RawOutcome
from .notebook_store import NotebookNotFound, NotebookStore
from .outputs import OutputCollector
from .run_types import Executed
from .scientific_validity import jupyter_error
from .self_checks import SelfCheck, execute_checks
from .status import CellStatus


class KernelHost(Protocol):
    """What the executor needs from the service: its parts and its notebooks' kernels."""

    config: EngineConfig
    hub: ExecutionHub
    reviewer: CellReviewer
    store: NotebookStore

    async def kernel_for(self, notebook_id: str,
                         execution_id: str | None = None) -> KernelSession: ...

    async def replace_kernel(self, notebook_id: str, session: KernelSession,
                             execution_id: str, status: CellStatus) -> None: ...

    async def drop_kernel(self, notebook_id: str) -> bool: ...

    def current_kernel(self, notebook_id: str, default: KernelSession) -> KernelSession: ...

    def take_replaced(self, kernel_id: str) -> bool: ...


@dataclass
class CellTarget:
    """The cell an execution runs, and how the request wants it run and reviewed."""

    execution_id: str
    notebook_id: str
    cell: NotebookNode
    timeout: float
    review: bool  # the critic reviews `ok` attempts of this cell
    skip_reason: str  # why not, when it does not
    disabled_rules: list[str]


@dataclass
class KernelExecuted(Executed):
    collector: OutputCollector | None = None
    raw: RawOutcome | None = None
    session: KernelSession | None = None
    plan: ReviewPlan | None = None

    def show_error(self, error: dict[str, Any]) -> None:
        assert self.collector is not None
        self.collector.add_error(jupyter_error(error))


class KernelExecutor:
    def __init__(self, host: KernelHost, target: CellTarget, session: KernelSession) -> None:
        self.host = host
        self.target = target
        self.session = session
        self.config = host.config

    @property
    def _ids(self) -> tuple[str, str, str]:
        t = self.target
        return t.execution_id, t.notebook_id, t.cell.id

    async def execute(self, code: str) -> KernelExecuted:
        plan = await self._review_plan(code)
        session = self.session
        if plan is not None:
            await self.host.reviewer.read_before(session, plan)
        collector = OutputCollector(self.config.output_budget_bytes, widgets=session.widgets)
        raw = await session.execute(code, timeout=self.target.timeout,
                                    interrupt_grace=self.config.interrupt_grace,
                                    on_message=self._output_sink(collector))
        self.host.hub.flush(self.target.execution_id)
        status = self._status_of(raw, session)
        returncode = await exit_code(session.km) if status is CellStatus.DEAD_KERNEL else None
        if status in (CellStatus.DEAD_KERNEL, CellStatus.TIMEOUT) and (
                raw.dead or raw.kernel_unusable):
            await self.host.replace_kernel(self.target.notebook_id, session,
                                           self.target.execution_id, status)
        error = with_limit_reason(error_of(status, raw, collector, self.target.timeout),
                                  returncode, KernelLimits.from_config(self.config))
        if error and not collector.error:
            collector.add_error(error)  # visible in JupyterLab as well
        self.session = self.host.current_kernel(self.target.notebook_id, session)
        count = collector.execution_count or (raw.reply or {}).get("execution_count")
        return KernelExecuted(status, error, count, raw.started, raw.finished,
                              collector=collector, raw=raw, session=session, plan=plan)

    async def review(self, code: str, executed: Executed) -> dict[str, Any] | None:
        """The critic never fails a cell: an internal error becomes a critic error."""
        assert isinstance(executed, KernelExecuted) and executed.collector is not None
        if executed.plan is None or executed.session is None:
            return None
        reviewer = self.host.reviewer
        outputs = [dict(o) for o in executed.collector.outputs()]
        try:
            critique = await reviewer.review(executed.session, executed.plan, code, outputs)
        except Exception as exc:
            return failed_review(exc)
        return reviewed(critique, reviewer.critic)

    def skip_reason(self) -> str:
        return self.target.skip_reason

    async def self_check(self, checks: list[SelfCheck], critique: dict[str, Any],
                         executed: Executed) -> str | None:
        """The checks in the kernel; a check that hung it costs the kernel (replaced)."""
        session = self.session
        timeout = self.config.introspection_timeout
        results, raw = await execute_checks(session, checks, timeout=timeout,
                                            interrupt_grace=self.config.interrupt_grace)
        add_check_results(critique, checks, results)
        if raw is None or not (raw.dead or raw.kernel_unusable):
            return None
        status = CellStatus.DEAD_KERNEL if raw.dead else CellStatus.TIMEOUT
        await self.host.replace_kernel(self.target.notebook_id, session,
                                       self.target.execution_id, status)
        return (f"a self-check did not finish within {timeout:g} s and the kernel was "
                "replaced; the cell's variables are gone")

    async def namespace(self) -> dict[str, Any]:
        return await self.host.reviewer.namespace(self.session)

    def prior_cells(self) -> list[str]:
        try:
            return earlier_cells(self.host.store.peek(self.target.notebook_id),
                                 self.target.cell.id)
        except NotebookNotFound:
            return []

    async def replay(self) -> None:
        """A fresh kernel with the earlier code cells re-run (their outputs are not kept):
        the retry starts from the namespace the notebook builds, not the failed attempt's."""
        execution_id, notebook_id, cell_id = self._ids
        await self.host.drop_kernel(notebook_id)
        session = self.session = await self.host.kernel_for(notebook_id, execution_id)
        sources = self.prior_cells()
        failed: int | None = None
        for index, source in enumerate(sources):
            raw = await session.execute(source, timeout=self.config.cell_timeout,
                                        interrupt_grace=self.config.interrupt_grace,
                                        on_message=_discard)
            if (raw.reply or {}).get("status") != "ok":
                failed = index
                break
        self.host.hub.emit(execution_id, notebook_id, cell_id, "replay", {
            "kernel_id": session.kernel_id, "cells": len(sources),
            "ok": failed is None, "failed_cell_index": failed})

    # -- helpers ----------------------------------------------------------------------------

    async def _review_plan(self, code: str) -> ReviewPlan | None:
        if not self.target.review:
            return None
        try:
            prior = prior_code_of(self.host.store.peek(self.target.notebook_id),
                                  self.target.cell.id)
        except NotebookNotFound:
            prior = ""
        return await self.host.reviewer.aplan(code, prior, self.target.disabled_rules)

    def _status_of(self, raw: RawOutcome, session: KernelSession) -> CellStatus:
        if self.host.take_replaced(session.kernel_id):
            return CellStatus.ABORTED  # restarted or shut down on request mid-execution
        return status_of(raw)

    def _output_sink(self, collector: OutputCollector) -> Callable[[dict[str, Any]], None]:
        """Outputs into the collector and, live, into the journal. Stream text is capped by
        the collector; every other kind is capped here, at the same budget, so a cell of
        100k display() calls cannot write 100k journal rows (the final outputs keep the
        head and tail, and the announcement says that the live events stopped)."""
        execution_id, notebook_id, cell_id = self._ids
        hub = self.host.hub
        announced = False
        live_bytes = 0

        def announce() -> None:
            nonlocal announced
            if not announced:
                announced = True
                hub.emit(execution_id, notebook_id, cell_id, "output_truncated",
                         {"budget_bytes": collector.budget_bytes})

        def on_message(msg: dict[str, Any]) -> None:
            nonlocal live_bytes
            event = collector.handle(msg)
            if collector.truncated:
                announce()
            if event is None:
                return
            type_, data = event
            if type_ == "stream":
                hub.stream(execution_id, notebook_id, cell_id, data["name"], data["text"])
                return
            if type_ != "error":
                live_bytes += _event_size(data)
                if live_bytes > collector.budget_bytes:
                    announce()
                    return
            hub.emit(execution_id, notebook_id, cell_id, type_, data)

        return on_message


def status_of(raw: RawOutcome) -> CellStatus:
    if raw.dead:
        return CellStatus.DEAD_KERNEL
    if raw.timed_out:
        return CellStatus.TIMEOUT
    if raw.interrupted:
        return CellStatus.INTERRUPTED
    reply_status = (raw.reply or {}).get("status")
    if reply_status == "ok":
        return CellStatus.OK
    if reply_status == "aborted":
        return CellStatus.ABORTED
    return CellStatus.ERROR


def error_of(status: CellStatus, raw: RawOutcome, collector: OutputCollector,
             timeout: float) -> dict[str, Any] | None:
    if status is CellStatus.DEAD_KERNEL:
        return {"ename": "DeadKernelError", "evalue": "the kernel died while executing the cell;"
                " the notebook gets a fresh kernel on the next execution", "traceback": []}
    if status is CellStatus.TIMEOUT:
        how = ("the kernel did not answer the interrupt and was replaced"
               if raw.kernel_unusable else "the cell was interrupted")
        return {"ename": "CellTimeoutError",
                "evalue": f"cell exceeded its {timeout:g} s timeout; {how}", "traceback": []}
    if status is CellStatus.ABORTED:
        return {"ename": "ExecutionAborted", "evalue": "the kernel was restarted or shut down"
                " while the cell ran", "traceback": []}
    if status in (CellStatus.ERROR, CellStatus.INTERRUPTED):
        if collector.error:
            return collector.error
        reply = raw.reply or {}
        return {k: reply.get(k, "" if k != "traceback" else []) for k in
                ("ename", "evalue", "traceback")}
    return None


def _event_size(data: dict[str, Any]) -> int:
    """What a live output event costs against the budget (as the collector counts)."""
    return len(json.dumps(data.get("data", data), default=str)) + 64


def _discard(_msg: dict[str, Any]) -> None:
    """Outputs of replayed cells are not kept (they ran before and kept theirs)."""
