"""The in-process executor for the shared runner (`services.cell_runner`): attempts run in
the user's own IPython shell (the magics), their outputs shown as usual and captured for the
critic, the evidence gathered from the user's namespace, checks evaluated on it.

The runner is a coroutine on a private loop (ipykernel's own loop is busy running the
magic's cell), while the shell belongs to the kernel's main thread: every step that touches
the shell or its namespace goes through `on_main`, which runs a call on that thread and
returns its result. The per-cell timeout is the service's: a SIGALRM interrupts the attempt
(main thread, POSIX), as the service interrupts its kernel.
"""

from __future__ import annotations

import contextlib
import json
import logging
import signal
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from critics import AnalysisCritic

from . import kernel_facts, self_check_kernel, trace_request
from .cell_evidence import gather_in_process, snapshot_before
from .config import EngineConfig
from .critique_record import add_check_results, failed_review, reviewed
from .run_types import Executed
from .self_checks import CheckResult, SelfCheck
from .shell_capture import OutputCapture
from .status import CellStatus

log = logging.getLogger(__name__)

T = TypeVar("T")
OnMain = Callable[[Callable[[], T]], Awaitable[T]]
DISABLED = "the critic is disabled in settings"


class CellTimeoutError(TimeoutError):
    """An in-process attempt interrupted at the per-cell timeout."""


async def here(call: Callable[[], T]) -> T:
    """`on_main` for a runner that already runs on the shell's thread."""
    return call()


@dataclass
class ShellExecuted(Executed):
    outputs: list[dict[str, Any]] = field(default_factory=list)
    before: dict[str, Any] | None = None  # what the cell filters in place, read before it ran
    prior: str = ""  # earlier cells, for the critic
    trace: dict[str, Any] | None = None  # what ran, as the kernel-side recorder saw it


def start_trace(shell: Any) -> bool:
    """The analysis trace recorder in the user's own process, recording the cells `shell`
    runs (installed once; IPython's events start and stop it). False if it cannot be."""
    try:
        if trace_request.install_in_process(shell.user_ns, shell):
            trace_request.begin_in_process()  # installed during this cell's events
        return True
    except Exception as exc:  # the critic degrades to the code and the facts
        log.warning("nbcritic: the analysis trace could not be installed: %s", exc)
        return False


class ShellExecutor:
    def __init__(self, shell: Any, *, config: EngineConfig, critic: AnalysisCritic,
                 prior_cells: Callable[[], list[str]], on_main: OnMain[Any] = here,
                 disabled: list[str] | None = None, use_llm: bool = True) -> None:
        self.shell = shell
        self.config = config
        self.critic = critic
        self._prior_cells = prior_cells
        self.on_main = on_main
        self.disabled = list(disabled or [])
        self.use_llm = use_llm

    async def execute(self, code: str) -> ShellExecuted:
        prior = "\n\n".join(self._prior_cells()) if self.config.critic_enabled else ""
        return await self.on_main(lambda: self._run(code, prior))

    def _run(self, code: str, prior: str) -> ShellExecuted:
        """One attempt on the shell's thread: shown as usual, captured for the critic."""
        before = self._before(code, prior)
        traced = self.config.critic_enabled and start_trace(self.shell)
        timeout = self.config.cell_timeout
        started = time.time()
        with OutputCapture(self.shell) as capture, _deadline(timeout) as expired:
            result = self.shell.run_cell(code, store_history=False)
        exc = result.error_before_exec or result.error_in_exec
        executed = ShellExecuted(CellStatus.OK, None, result.execution_count, started,
                                 time.time(), exc, capture.outputs, before, prior,
                                 trace_request.in_cell_lines(
                                     trace_request.export_in_process(), code)
                                 if traced else None)
        if expired():
            executed.status = CellStatus.TIMEOUT
            executed.exception = CellTimeoutError(
                f"cell exceeded its {timeout:g} s timeout; the cell was interrupted")
            executed.error = {"ename": "CellTimeoutError",
                              "evalue": str(executed.exception), "traceback": []}
        elif isinstance(exc, KeyboardInterrupt):
            executed.status = CellStatus.INTERRUPTED
            executed.error = {"ename": "KeyboardInterrupt", "evalue": "", "traceback": []}
        elif not result.success:
            executed.status = CellStatus.ERROR
            executed.error = self.error_of(exc)
        return executed

    def _before(self, code: str, prior: str) -> dict[str, Any] | None:
        if not self.config.critic_enabled:
            return None
        try:
            return snapshot_before(code, self.shell.user_ns, prior)
        except Exception as exc:  # reading facts must never break the cell
            log.warning("nbcritic: before-snapshot failed: %s", exc)
            return None

    async def review(self, code: str, executed: Executed) -> dict[str, Any] | None:
        """The critic never fails a cell: an internal error becomes a critic error."""
        if not self.config.critic_enabled:
            return None
        assert isinstance(executed, ShellExecuted)
        try:
            evidence = await self.on_main(lambda: gather_in_process(
                code, self.shell.user_ns, executed.outputs, prior_code=executed.prior,
                before=executed.before, budget_ms=self.config.introspection_budget_ms,
                trace=executed.trace))
            critique = await self.critic.areview(evidence, disabled=self.disabled,
                                                 use_llm=self.use_llm)
        except Exception as exc:
            return failed_review(exc)
        return reviewed(critique, self.critic)

    def skip_reason(self) -> str:
        return DISABLED

    async def self_check(self, checks: list[SelfCheck], critique: dict[str, Any],
                         executed: Executed) -> str | None:
        """The checks on the user's namespace (nothing added to it, nothing printed)."""
        results = await self.on_main(lambda: self._evaluate(checks))
        add_check_results(critique, checks, results)
        return None  # the namespace is the user's own: nothing is lost

    def _evaluate(self, checks: list[SelfCheck]) -> list[CheckResult]:
        try:
            raw = json.loads(self_check_kernel.evaluate(
                self.shell.user_ns, [c.to_dict() for c in checks],
                budget_ms=self.config.introspection_timeout * 1000))
            return [CheckResult.from_dict(r) for r in raw]
        except Exception as exc:  # the checks must never break the cell
            return [CheckResult(c.name, False, error=f"{type(exc).__name__}: {exc}",
                                evaluated=False) for c in checks]

    async def namespace(self) -> dict[str, Any]:
        """Shallow facts of the user's variables, for the generator and the analyzer."""
        return await self.on_main(self._namespace)

    def _namespace(self) -> dict[str, Any]:
        try:
            return json.loads(kernel_facts.collect(self.shell.user_ns, {
                "names": "*", "mode": "namespace",
                "budget_ms": self.config.introspection_budget_ms}))
        except Exception as exc:
            return {"error": f"{type(exc).__name__}: {exc}"}

    def prior_cells(self) -> list[str]:
        return self._prior_cells()

    async def replay(self) -> None:
        """Nothing to replay into: the namespace is the user's own session."""

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


@contextlib.contextmanager
def _deadline(seconds: float) -> Iterator[Callable[[], bool]]:
    """Interrupt the code run inside at `seconds` (a KeyboardInterrupt, as the kernel's
    interrupt raises); yields whether it did. Off the main thread or without SIGALRM: no
    deadline."""
    fired = False

    def on_alarm(_signum: int, _frame: Any) -> None:
        nonlocal fired
        fired = True
        raise KeyboardInterrupt

    usable = hasattr(signal, "SIGALRM") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield lambda: False
        return
    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield lambda: fired
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
