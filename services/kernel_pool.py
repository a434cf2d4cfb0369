"""A warm pool of pre-started kernels, so a new notebook does not pay a cold start.

The pool also owns every kernel it ever handed out until it is shut down, so `close()` leaves
no orphan kernel processes behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from .config import EngineConfig
from .kernel_provider import KernelProvider, kernel_provider
from .kernel_session import KernelSession, KernelStartError

log = logging.getLogger(__name__)


class KernelPool:
    def __init__(self, config: EngineConfig, provider: KernelProvider | None = None):
        self.config = config
        self.provider = provider or kernel_provider(config)  # local, or a gateway's
        self.runtime_dir = self.provider.runtime_dir
        self._warm: list[KernelSession] = []
        self._live: set[KernelSession] = set()
        self._refill_task: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[None]] = set()
        self._closed = False
        self.cold_starts = 0

    @property
    def warm_count(self) -> int:
        return len(self._warm)

    def start(self) -> None:
        self._schedule_refill()

    async def wait_warm(self, count: int | None = None, timeout: float = 60.0) -> None:
        """Wait until `count` (default: pool_size) kernels are warm. For start-up and tests."""
        target = self.config.pool_size if count is None else count
        async with asyncio.timeout(timeout):
            while len(self._warm) < target:
                self._schedule_refill()
                await asyncio.sleep(0.02)

    async def acquire(self) -> KernelSession:
        if self._closed:
            raise KernelStartError("the kernel pool is shut down")
        while self._warm:
            session = self._warm.pop(0)
            if await session.is_alive():
                self._schedule_refill()
                return session
            self.discard(session)
        self._schedule_refill()
        self.cold_starts += 1
        return await self._start_one()

    def discard(self, session: KernelSession, now: bool = False) -> None:
        """Shut a kernel down off the request path (graceful shutdown can stall ~2.5 s).

        `now` kills at once: for a dead, hung or busy kernel a graceful request cannot help.
        """
        task = asyncio.create_task(self._shutdown(session, now))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def close(self) -> None:
        self._closed = True
        if self._refill_task:
            self._refill_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._refill_task
        if self._background:
            await asyncio.gather(*self._background, return_exceptions=True)
        await asyncio.gather(*(self._shutdown(s) for s in list(self._live)),
                             return_exceptions=True)
        self._warm.clear()
        await self.provider.close()

    # -- internals ---------------------------------------------------------------------

    async def _start_one(self) -> KernelSession:
        last_error: Exception | None = None
        for _ in range(2):  # one retry: a start can fail for transient reasons
            try:
                session = await self.provider.start()
            except KernelStartError as exc:
                last_error = exc
                log.warning("kernel start failed (%s): %s", self.provider.where, exc)
                continue
            self._live.add(session)
            if self._closed:
                await self._shutdown(session)
                raise KernelStartError("the kernel pool is shut down")
            return session
        assert last_error is not None
        raise last_error

    async def _shutdown(self, session: KernelSession, now: bool = False) -> None:
        try:
            await self.provider.stop(session, now)
        finally:
            self._live.discard(session)

    def _schedule_refill(self) -> None:
        if self._closed or (self._refill_task and not self._refill_task.done()):
            return
        if len(self._warm) >= self.config.pool_size:
            return
        self._refill_task = asyncio.create_task(self._refill())

    async def _refill(self) -> None:
        while not self._closed and len(self._warm) < self.config.pool_size:
            try:
                session = await self._start_one()
            except KernelStartError:
                await asyncio.sleep(1.0)
                continue
            self._warm.append(session)
