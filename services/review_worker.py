"""The critic's CPU-bound steps (parsing the cell and earlier cells, building Evidence, the
rules) run here, in a few worker threads, not on the event loop: one notebook's heavy review
then never stalls another notebook's execution, output streaming or HTTP requests.

Bounded: at most `workers` reviews run at once; later ones wait on the loop (an asyncio
semaphore, first come first served), so a burst of reviews queues instead of piling work
and memory into the executor. Threads, not processes: Evidence and Critique objects are not
copied, and the interpreter switches between the loop and a worker every few milliseconds
(`sys.getswitchinterval`), which is what keeps the loop responsive.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


class ReviewWorker:
    def __init__(self, workers: int = 2) -> None:
        if workers < 1:
            raise ValueError(f"critic_workers must be at least 1, got {workers}")
        self.workers = workers
        self._pool: ThreadPoolExecutor | None = None  # threads start on first use
        self._slots: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.waiting = 0  # reviews waiting for a free worker (for tests and /health)

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """`fn(*args, **kwargs)` in a worker thread, once one is free."""
        loop = asyncio.get_running_loop()
        if self._slots is None or self._loop is not loop:  # a semaphore serves one loop
            self._slots, self._loop = asyncio.Semaphore(self.workers), loop
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="nbcritic-review")
        self.waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self.waiting -= 1
        slots = self._slots
        try:
            future = self._pool.submit(functools.partial(fn, *args, **kwargs))
        except BaseException:
            slots.release()
            raise
        # the slot is free when the thread is done, not when the caller stops waiting
        # (a cancelled caller cannot stop a running thread)
        future.add_done_callback(lambda _f: _call_soon(loop, slots.release))
        return await asyncio.wrap_future(future)

    def close(self) -> None:
        """Stop the threads once the running reviews end (nothing new is accepted)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def _call_soon(loop: asyncio.AbstractEventLoop, callback: Callable[[], object]) -> None:
    with contextlib.suppress(RuntimeError):  # the loop closed while the thread ran
        loop.call_soon_threadsafe(callback)
