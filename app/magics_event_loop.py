"""A private asyncio event loop in a daemon thread, for the IPython magics.

ipykernel runs every cell inside its own running event loop, so `asyncio.run` (or
`run_until_complete`) fails there; the code generator and the Claude critic are async. The
magics submit their coroutines to this loop and wait for the result in the kernel's thread.
An interrupt (Ctrl-C / the kernel's interrupt) cancels the coroutine and propagates.

A coroutine that must touch the shell (run the user's code, read its namespace, display)
hands those calls back to the waiting kernel thread through `MainThreadCalls`
(`BackgroundLoop.run_serving`): the shell is only ever used from its own thread.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import queue
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")
log = logging.getLogger(__name__)
_DONE = object()


class MainThreadCalls:
    """Calls a coroutine on the private loop hands to the thread that waits for it. One per
    run: what a cancelled run left queued is dropped with it."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()

    async def call(self, fn: Callable[[], T]) -> T:
        """Run `fn` on the waiting thread; its result (or exception) comes back here."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._queue.put((fn, loop, future))
        return await future

    def post(self, fn: Callable[[], object]) -> None:
        """Run `fn` on the waiting thread, in order with the calls; nothing comes back."""
        self._queue.put((fn, None, None))

    def serve(self, future: concurrent.futures.Future[T]) -> T:
        """Serve calls until `future` is done, then return its result."""
        future.add_done_callback(lambda _f: self._queue.put(_DONE))
        while (item := self._queue.get()) is not _DONE:
            self._serve_one(*item)
        return future.result()

    @staticmethod
    def _serve_one(fn: Callable[[], Any], loop: asyncio.AbstractEventLoop | None,
                   future: asyncio.Future[Any] | None) -> None:
        try:
            value, error = fn(), None
        except Exception as exc:  # KeyboardInterrupt propagates: the run is cancelled
            value, error = None, exc
        if loop is None or future is None:
            if error is not None:
                log.warning("nbcritic: a display failed: %s", error)
            return
        loop.call_soon_threadsafe(_settle, future, value, error)


def _settle(future: asyncio.Future[Any], value: Any, error: BaseException | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(value)


class BackgroundLoop:
    """One long-lived loop per magics instance, started on first use."""

    def __init__(self, name: str = "nbcritic-magics") -> None:
        self._name = name
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def _ensure(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._thread is None or not self._thread.is_alive():
                loop = asyncio.new_event_loop()
                started = threading.Event()

                def serve() -> None:
                    asyncio.set_event_loop(loop)
                    loop.call_soon(started.set)
                    loop.run_forever()

                thread = threading.Thread(target=serve, name=self._name, daemon=True)
                thread.start()
                started.wait(10)
                self._loop, self._thread = loop, thread
            return self._loop

    def run(self, coro: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        """Run `coro` on the private loop; block until it finishes (or `timeout`)."""
        future = asyncio.run_coroutine_threadsafe(coro, self._ensure())
        try:
            return future.result(timeout)
        except (KeyboardInterrupt, concurrent.futures.TimeoutError):
            future.cancel()
            raise

    def run_serving(self, coro: Coroutine[Any, Any, T], calls: MainThreadCalls) -> T:
        """Run `coro` on the private loop while this thread serves its `calls`."""
        future = asyncio.run_coroutine_threadsafe(coro, self._ensure())
        try:
            return calls.serve(future)
        except KeyboardInterrupt:
            future.cancel()
            raise

    def close(self) -> None:
        with self._lock:
            loop, thread = self._loop, self._thread
            self._loop = self._thread = None
        if loop is None or thread is None:
            return
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=5)
        if not thread.is_alive():
            loop.close()
