"""Executing cells: synchronously, or as an execution resource whose events stream as SSE."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query
from fastapi.responses import JSONResponse, StreamingResponse

from app.deps import Async, Service
from app.errors import ApiError
from app.schemas import ExecuteRequest, RunAllRequest
from services.journal import Event, ExecutionRecord
from services.notebook_service import ExecuteOptions

router = APIRouter(prefix="/api", tags=["executions"])
MAX_EVENT_ID = 2 ** 63 - 1  # SQLite's integers


def _accepted(execution_id: str) -> JSONResponse:
    location = f"/api/executions/{execution_id}"
    return JSONResponse(
        {"id": execution_id, "state": "queued", "links": {
            "self": location, "events": f"{location}/events"}},
        status_code=202, headers={"Location": location})


@router.post("/notebooks/{notebook_id}/cells/{cell_id}/execute",
             responses={202: {"description": "Accepted; follow the Location header"}})
async def execute_cell(notebook_id: str, cell_id: str, service: Service, run_async: Async,
                       body: ExecuteRequest | None = None) -> Any:
    """Execute one cell. Waits for the final result unless `Prefer: respond-async` or
    `?wait=false` asks for an execution resource (202 + Location)."""
    body = body or ExecuteRequest()
    options = ExecuteOptions(timeout=body.timeout, **body.retry_options())
    execution_id = service.start_execution(notebook_id, [cell_id], options)
    if run_async:
        return _accepted(execution_id)
    results = await service.wait(execution_id)
    if not results:  # aborted before the cell ran (e.g. deleted while queued)
        record = service.journal.execution(execution_id)
        raise ApiError(409, (record.result or {}).get("reason", "execution aborted")
                       if record else "execution aborted", "execution_aborted")
    # a JSONResponse skips FastAPI's jsonable_encoder walk over the outputs (hot path)
    return JSONResponse(results[0].as_dict())


@router.post("/notebooks/{notebook_id}/run",
             responses={202: {"description": "Accepted; follow the Location header"}})
async def run_all(notebook_id: str, service: Service, run_async: Async,
                  body: RunAllRequest | None = None) -> Any:
    """Run every code cell in order (stopping at the first failure unless told otherwise)."""
    body = body or RunAllRequest()
    if body.checks:
        cells = {c.get("id") for c in service.get_notebook(notebook_id).cells}
        unknown = [cell_id for cell_id in body.checks if cell_id not in cells]
        if unknown:
            raise ApiError(422, f"checks.{unknown[0]}: no such cell in this notebook",
                           "validation_error")
    options = ExecuteOptions(timeout=body.timeout, stop_on_error=body.stop_on_error,
                             **body.retry_options())
    execution_id = service.start_execution(notebook_id, None, options)
    if run_async:
        return _accepted(execution_id)
    await service.wait(execution_id)
    return _execution_body(_record(service, execution_id))


@router.get("/notebooks/{notebook_id}/executions")
async def list_executions(notebook_id: str, service: Service,
                          limit: Annotated[int, Query(ge=1, le=500)] = 50) -> dict[str, Any]:
    service.get_notebook(notebook_id)
    return {"executions": [_execution_body(r) for r in
                           service.journal.executions(notebook_id, limit)]}


@router.get("/executions/{execution_id}")
async def get_execution(execution_id: str, service: Service) -> dict[str, Any]:
    return _execution_body(_record(service, execution_id))


@router.get("/executions/{execution_id}/events",
            responses={200: {"content": {"text/event-stream": {}}}})
async def execution_events(
    execution_id: str,
    service: Service,
    last_event_id: Annotated[str | None, Header(description="Resume after this event id")] = None,
    after: Annotated[int | None, Query(ge=0, le=MAX_EVENT_ID,
                                       description="Resume after this event id")] = None,
) -> StreamingResponse:
    """The execution's events as Server-Sent Events; `Last-Event-ID` resumes after a drop.
    The stream ends after the `done` event."""
    _record(service, execution_id)
    start = after if after is not None else _parse_event_id(last_event_id)

    async def stream() -> AsyncIterator[str]:
        yield "retry: 1000\n\n"
        async for event in service.hub.follow(execution_id, start):
            yield ": keep-alive\n\n" if event is None else _sse(event)

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def _parse_event_id(value: str | None) -> int:
    if value is None or not value.strip():
        return 0
    try:
        parsed = int(value)
    except ValueError:
        raise ApiError(422, "header Last-Event-ID: must be an integer event id",
                       "validation_error") from None
    if parsed < 0:
        raise ApiError(422, "header Last-Event-ID: must not be negative", "validation_error")
    if parsed > MAX_EVENT_ID:
        raise ApiError(422, "header Last-Event-ID: beyond any event id (at most 2^63 - 1)",
                       "validation_error")
    return parsed


def _sse(event: Event) -> str:
    data = json.dumps({**event.data, "cell_id": event.cell_id} if event.cell_id else event.data,
                      ensure_ascii=False, default=str)
    return f"id: {event.seq}\nevent: {event.type}\ndata: {data}\n\n"


def _record(service: Service, execution_id: str) -> ExecutionRecord:
    record = service.journal.execution(execution_id)
    if record is None:
        raise ApiError(404, f"execution {execution_id} not found", "execution_not_found")
    return record


def _execution_body(record: ExecutionRecord) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": record.id, "notebook_id": record.notebook_id, "kind": record.kind,
        "cells": record.cell_ids, "state": record.state, "created_at": record.created_at,
        "finished_at": record.finished_at,
        "links": {"events": f"/api/executions/{record.id}/events"},
    }
    if record.result is not None:
        body["status"] = record.result.get("status")
        body["results"] = record.result.get("results", [])
        body["not_run"] = record.result.get("not_run", [])
        body["blocked"] = record.result.get("blocked", [])
        if "reason" in record.result:
            body["reason"] = record.result["reason"]
    return body
