"""Shared request dependencies (async: a plain `def` one costs a thread-pool hop)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Query, Request

from services.notebook_service import NotebookService


async def get_service(request: Request) -> NotebookService:
    return request.app.state.service


Service = Annotated[NotebookService, Depends(get_service)]


async def wants_async(
    prefer: Annotated[str | None, Header(description="`respond-async` for 202 + Location")] = None,
    wait: Annotated[bool, Query(description="false: return 202 + Location at once")] = True,
) -> bool:
    """RFC 7240 `Prefer: respond-async`, or `?wait=false`."""
    return not wait or (prefer is not None and "respond-async" in prefer.lower())


Async = Annotated[bool, Depends(wants_async)]
