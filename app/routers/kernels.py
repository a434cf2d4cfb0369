"""A notebook's kernel: state, start, interrupt, restart, shut down (jupyter_server style)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response

from app.deps import Service

router = APIRouter(prefix="/api/notebooks/{notebook_id}/kernel", tags=["kernels"])


@router.get("")
async def kernel_state(notebook_id: str, service: Service) -> dict[str, Any]:
    service.get_notebook(notebook_id)
    return {"kernel": service.kernel_state(notebook_id)}


@router.post("")
async def start_kernel(notebook_id: str, service: Service) -> dict[str, Any]:
    """Give the notebook its kernel now (from the warm pool) instead of at the first cell."""
    return {"kernel": await service.ensure_kernel(notebook_id)}


@router.post("/interrupt", status_code=204)
async def interrupt(notebook_id: str, service: Service) -> Response:
    await service.interrupt(notebook_id)
    return Response(status_code=204)


@router.post("/restart")
async def restart(notebook_id: str, service: Service) -> dict[str, Any]:
    """A fresh kernel (empty namespace); a cell running now ends `aborted`."""
    return {"kernel": await service.restart(notebook_id)}


@router.delete("", status_code=204)
async def shutdown(notebook_id: str, service: Service) -> Response:
    service.get_notebook(notebook_id)
    await service.shutdown_kernel(notebook_id)
    return Response(status_code=204)
