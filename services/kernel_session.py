"""One running kernel, driven through jupyter_client's async API.

A session executes one request at a time and always waits for the execute reply before the
next request, so replies never belong to an aborted or interleaved request.

An IPython kernel keeps its input history in memory (`HistoryManager.hist_file=:memory:`, as
nbclient starts them): parallel kernels never contend for one SQLite history file, and the
user's own IPython history stays free of service runs. `In`, `_ih` and `%history` of the
running session work as usual; nothing survives the kernel.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from queue import Empty
from typing import Any

import zmq
from jupyter_client.asynchronous.client import AsyncKernelClient
from jupyter_client.manager import AsyncKernelManager

from .widgets import WidgetComms

log = logging.getLogger(__name__)

LIVENESS_POLL = 0.2  # seconds between is_alive checks while a cell runs
RECEIVE_HWM = 200_000  # messages the service may be behind a kernel before ZMQ drops any
REPLY_POLL = 0.05  # seconds between looks at the shell channel while IOPub is read
DRAIN_QUIET_POLLS = 10  # after the reply, IOPub silent this many LIVENESS_POLLs: done
READY_POLL = 0.02  # re-ask kernel_info this often: readier than wait_for_ready's 0.2 s IOPub wait
IN_MEMORY_HISTORY = "--HistoryManager.hist_file=:memory:"


class KernelStartError(RuntimeError):
    pass


@dataclass
class RawOutcome:
    """What the kernel said about one execute request, before status mapping."""

    reply: dict[str, Any] | None = None  # execute_reply content
    timed_out: bool = False
    interrupted: bool = False  # interrupted on a user's request
    dead: bool = False
    kernel_unusable: bool = False  # did not come back after an interrupt
    started: float = field(default_factory=time.time)
    finished: float = 0.0


class KernelSession:
    def __init__(self, km: AsyncKernelManager, kc: AsyncKernelClient,
                 runtime_dir: Path | None):
        self.km = km
        self.kc = kc
        self.runtime_dir = runtime_dir
        self.kernel_id = km.kernel_id or uuid.uuid4().hex
        self.last_used = time.monotonic()
        self.busy = False
        self._interrupt_requested = False
        self.widgets = WidgetComms(self.send_comm)  # the widgets this kernel process made

    # -- lifecycle -------------------------------------------------------------------------

    @classmethod
    async def start(
        cls,
        *,
        kernel_name: str,
        transport: str,
        runtime_dir: Path,
        env: dict[str, str],
        timeout: float,
        launch: dict[str, Any] | None = None,
        kernel_arguments: tuple[str, ...] = (),
    ) -> KernelSession:
        """`launch`: extra Popen arguments (services.kernel_isolation); `kernel_arguments`:
        extra IPython kernel arguments."""
        kernel_id = uuid.uuid4().hex
        # Short, unique paths: an IPC socket path must stay under ~100 bytes.
        conn_file = runtime_dir / f"k-{kernel_id[:12]}.json"
        km = AsyncKernelManager(kernel_name=kernel_name, transport=transport,
                                connection_file=str(conn_file))
        if transport == "ipc":
            km.ip = str(runtime_dir / f"k-{kernel_id[:12]}")
        km.kernel_id = kernel_id
        extra = [IN_MEMORY_HISTORY, *kernel_arguments] if km.ipykernel else []
        try:
            await km.start_kernel(env=env, extra_arguments=extra, **(launch or {}))
        except Exception as exc:
            raise KernelStartError(f"kernel {kernel_name!r} failed to start: {exc}") from exc
        # ZMQ's default high-water mark (1000 messages) made the kernel's IOPub drop outputs
        # silently whenever the service fell behind; RECEIVE_HWM lets it fall far behind
        # while a flood of messages still cannot take all of the service's memory.
        kc = km.client()
        kc.context.setsockopt(zmq.RCVHWM, RECEIVE_HWM)  # defaults for the sockets created next
        kc.start_channels()
        return await cls.attach(km, kc, runtime_dir, timeout)

    @classmethod
    async def attach(cls, km: Any, kc: Any, runtime_dir: Path | None,
                     timeout: float) -> KernelSession:
        """A session over a started kernel whose channels are open (a local one, or a
        gateway's: services.gateway_client), once it answers; shut down if it does not."""
        session = cls(km, kc, runtime_dir)
        try:
            await session._wait_ready(timeout)
        except BaseException:
            await session.shutdown(now=True)
            raise
        return session

    async def _wait_ready(self, timeout: float) -> None:
        """Ready = a kernel_info reply on shell and a message on IOPub (the SUB is connected)."""
        deadline = time.monotonic() + timeout

        async def check() -> None:
            if time.monotonic() > deadline:
                raise KernelStartError(f"kernel did not become ready within {timeout:.0f} s")
            if not await self.km.is_alive():
                raise KernelStartError("kernel died during start-up")

        got_reply = False
        while not got_reply:
            await check()
            self.kc.kernel_info()
            with contextlib.suppress(Empty):
                msg = await self.kc.get_shell_msg(timeout=READY_POLL)
                got_reply = msg["msg_type"] == "kernel_info_reply"
        # Every request makes the kernel publish busy/idle; seeing one proves IOPub is connected.
        while True:
            await check()
            try:
                await self.kc.get_iopub_msg(timeout=READY_POLL)
                break
            except Empty:
                self.kc.kernel_info()
        await self._drain()

    async def _drain(self) -> None:
        for getter in (self.kc.get_shell_msg, self.kc.get_iopub_msg):
            while True:
                try:
                    await getter(timeout=0)
                except Empty:
                    break

    async def is_alive(self) -> bool:
        return await self.km.is_alive()

    async def interrupt(self) -> None:
        self._interrupt_requested = True
        await self.km.interrupt_kernel()

    async def restart(self) -> None:
        """Restart in place (same connection), then wait until the kernel answers."""
        await self.km.restart_kernel(now=True)
        self.widgets = WidgetComms(self.send_comm)
        await self._wait_ready(30.0)
        if self.km.connection_file:  # a local kernel's, rewritten for the restart
            Path(self.km.connection_file).unlink(missing_ok=True)

    async def shutdown(self, now: bool = False) -> None:
        try:
            await self.km.shutdown_kernel(now=now)
        except Exception:  # a kernel that is already gone
            log.debug("shutdown of kernel %s raised", self.kernel_id, exc_info=True)
            with contextlib.suppress(Exception):
                await self.km._async_kill_kernel()
        # A running execute() notices the dead kernel within LIVENESS_POLL; close the client's
        # sockets only after it returned, or its pending recv would be cancelled under it.
        deadline = time.monotonic() + 5 * LIVENESS_POLL + 1
        while self.busy and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        with contextlib.suppress(Exception):
            self.kc.stop_channels()

    # -- execution ------------------------------------------------------------------------

    def send_comm(self, comm_id: str, data: dict[str, Any], parent: dict[str, Any]) -> None:
        """A comm_msg from the "frontend" (an Output widget telling the kernel its outputs),
        sent between requests. The kernel sends no reply; what it publishes has this message
        as parent, so the collector of the next request never sees it."""
        msg = self.kc.session.msg("comm_msg", content={"comm_id": comm_id, "data": data},
                                  parent=parent)
        self.kc.shell_channel.send(msg)

    async def execute(
        self,
        code: str,
        *,
        timeout: float,
        interrupt_grace: float,
        on_message: Callable[[dict[str, Any]], None],
        silent: bool = False,
        store_history: bool = True,
        user_expressions: dict[str, str] | None = None,
    ) -> RawOutcome:
        """Run `code`; feed every IOPub message of this request to `on_message`.

        On the deadline: interrupt, wait `interrupt_grace` for the reply, else mark the kernel
        unusable (the caller replaces it). A dead kernel is noticed within LIVENESS_POLL.
        """
        self.busy = True
        self._interrupt_requested = False
        outcome = RawOutcome()
        try:
            msg_id = self.kc.execute(code, silent=silent, store_history=store_history,
                                     user_expressions=user_expressions,
                                     allow_stdin=False, stop_on_error=False)
            await self._collect(msg_id, timeout, interrupt_grace, on_message, outcome)
            if outcome.reply is not None:
                self.widgets.flush()  # the kernel is between requests now
        finally:
            outcome.interrupted = self._interrupt_requested and not outcome.timed_out
            outcome.finished = time.time()
            self.busy = False
            self.last_used = time.monotonic()
        return outcome

    async def _collect(self, msg_id: str, timeout: float, grace: float,
                       on_message: Callable[[dict[str, Any]], None], outcome: RawOutcome) -> None:
        """IOPub until `idle` and the shell reply, read side by side: the reply says when the
        kernel finished, so a service that falls behind the outputs never calls a finished
        cell a timeout; after the reply, IOPub is drained however long that takes."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        idle = False
        next_poll = 0.0
        quiet = 0  # IOPub polls that found nothing since the reply came
        while not (idle and outcome.reply is not None):
            now = loop.time()
            if outcome.reply is None and (now >= next_poll or now >= deadline):
                next_poll = now + REPLY_POLL
                await self._take_reply(msg_id, outcome, wait=0)
            if outcome.reply is None and now >= deadline:
                if outcome.timed_out:  # the interrupt did not bring it back either
                    outcome.kernel_unusable = True
                    return
                outcome.timed_out = True
                with contextlib.suppress(Exception):
                    await self.km.interrupt_kernel()
                deadline = loop.time() + grace
                continue
            wait = LIVENESS_POLL if outcome.reply else min(deadline - now, LIVENESS_POLL)
            if idle:  # IOPub is done; the reply is (almost always) already queued
                if not await self._take_reply(msg_id, outcome, wait) and not (
                        await self.km.is_alive()):
                    outcome.dead = True
                    return
                continue
            try:
                msg = await self.kc.get_iopub_msg(timeout=wait)
            except Empty:
                quiet = quiet + 1 if outcome.reply is not None else 0
                if quiet > DRAIN_QUIET_POLLS:
                    return  # replied, and IOPub has been silent: its idle is not coming
                if not await self.km.is_alive():
                    outcome.dead = True
                    return
                continue
            quiet = 0
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "status":
                idle = msg["content"]["execution_state"] == "idle"
                continue
            on_message(msg)

    async def _take_reply(self, msg_id: str, outcome: RawOutcome, wait: float) -> bool:
        """Read shell messages queued (or arriving within `wait`); True once the reply came."""
        while outcome.reply is None:
            try:
                msg = await self.kc.get_shell_msg(timeout=wait)
            except Empty:
                return False
            if msg["parent_header"].get("msg_id") == msg_id:
                outcome.reply = msg["content"]
        return True
