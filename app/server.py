"""`nbcritic serve`'s HTTP server: uvicorn, stopped in bounded time.

On SIGTERM or SIGINT the service first drains (new executions refused with 503, running and
queued ones ended `aborted` with a reason, which answers waiting clients and ends their event
streams); uvicorn then stops accepting, waits at most `shutdown_timeout` for connections still
open, and the app's shutdown stops the kernels.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from types import FrameType

import uvicorn
from fastapi import FastAPI

from services.notebook_service import NotebookService

from .gc_policy import freeze_startup_heap
from .settings import Settings


class DrainingServer(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, app: FastAPI) -> None:
        super().__init__(config)
        self.app = app
        self._drain: asyncio.Task[None] | None = None

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        service = getattr(self.app.state, "service", None)
        if service is None:
            return
        with contextlib.suppress(RuntimeError):  # no running loop: nothing to drain
            loop = asyncio.get_running_loop()
            # a signal handler interrupts the loop anywhere: start the drain from the loop
            loop.call_soon_threadsafe(self._start_drain, service)

    def _start_drain(self, service: NotebookService) -> None:
        if self._drain is None:
            self._drain = asyncio.create_task(service.drain("the service is stopping"))


class RedactToken(logging.Filter):
    """`?token=...` (accepted by the pages a browser opens) never reaches the access log."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(_TOKEN_QUERY.sub(r"\1[redacted]", a) if isinstance(a, str)
                                else a for a in record.args)
        return True


_TOKEN_QUERY = re.compile(r"([?&]token=)[^&\s]*")


def with_header_timeout(base: type[asyncio.Protocol], seconds: float) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol, closing a connection whose first request has not completed
    its headers within `seconds` (uvicorn has no header timeout: slow-header connections
    were held as long as the client liked). Idle keep-alive connections have uvicorn's own
    timeout."""

    class HeaderTimeout(base):  # type: ignore[valid-type, misc]  # a base chosen at run time
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)
            self.loop.call_later(seconds, self._headers_overdue)

        def _headers_overdue(self) -> None:
            if self.cycle is None and not self.transport.is_closing():
                self.transport.close()

    return HeaderTimeout


def serve(app: FastAPI, settings: Settings, log_level: str) -> None:
    # uvicorn annotates timeout_graceful_shutdown as int but waits with asyncio.wait_for,
    # which takes float seconds: a fractional setting is passed as it is
    config = uvicorn.Config(
        app, host=settings.host, port=settings.port, log_level=log_level,
        timeout_graceful_shutdown=settings.shutdown_timeout)  # type: ignore[arg-type]
    logging.getLogger("uvicorn.access").addFilter(RedactToken())  # after Config set logging up
    config.load()
    config.http_protocol_class = with_header_timeout(config.http_protocol_class,
                                                     settings.header_timeout)
    freeze_startup_heap()  # everything imported by now lives as long as the process
    DrainingServer(config, app).run()
