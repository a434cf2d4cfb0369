"""A private asyncio event loop in a daemon thread, for the IPython magics.

ipykernel runs every cell inside its own running event loop, so `asyncio.run` (or
`run_until_complete`) fails there; the code generator and the Claude critic are async. The
magics submit their coroutines to this loop and wait for the result in the kernel's thread.
An interrupt (Ctrl-C / the kernel's interrupt) cancels the coroutine and propagates.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


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
