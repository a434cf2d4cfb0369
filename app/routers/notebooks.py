"""Notebooks and their cells."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, File, Form, Response, UploadFile, status
from fastapi.responses import JSONResponse
from nbformat.v4 import nbjson

from app.deps import Service
from app.json_limits import check_upload_depth
from app.schemas import CellCreate, CellMove, CellUpdate, NotebookCreate

router = APIRouter(prefix="/api/notebooks", tags=["notebooks"])


def _created(notebook_id: str, body: Any, location: str) -> JSONResponse:
    return JSONResponse(body, status_code=201, headers={"Location": location})


def _notebook_body(service: Service, notebook_id: str) -> dict[str, Any]:
    return {"id": notebook_id, "content": service.get_notebook(notebook_id),
            "kernel": service.kernel_state(notebook_id)}


@router.get("")
async def list_notebooks(service: Service) -> dict[str, Any]:
    return {"notebooks": service.list_notebooks()}


@router.post("", status_code=201)
async def create_notebook(body: NotebookCreate, service: Service) -> JSONResponse:
    """Create an empty notebook, or one from an nbformat 4.x document in `content`."""
    notebook_id = await service.create_notebook(body.id, body.content)
    return _created(notebook_id, _notebook_body(service, notebook_id),
                    f"/api/notebooks/{notebook_id}")


@router.post("/upload", status_code=201)
async def upload_notebook(
    service: Service,
    file: Annotated[UploadFile, File(description="An .ipynb file (nbformat 4.x)")],
    id: Annotated[str | None, Form(description="Notebook id; the file name stem if absent")] = None,
) -> JSONResponse:
    data = await file.read()
    check_upload_depth(data)
    notebook_id = id or _stem(file.filename)
    notebook_id = await service.create_notebook(notebook_id, data)
    return _created(notebook_id, _notebook_body(service, notebook_id),
                    f"/api/notebooks/{notebook_id}")


def _stem(filename: str | None) -> str | None:
    if not filename:
        return None
    name = filename.rsplit("/", 1)[-1]
    return name[:-6] if name.endswith(".ipynb") else name


@router.get("/{notebook_id}")
async def get_notebook(notebook_id: str, service: Service) -> dict[str, Any]:
    return _notebook_body(service, notebook_id)


@router.get("/{notebook_id}/ipynb", response_class=Response,
            responses={200: {"content": {"application/x-ipynb+json": {}}}})
async def download_notebook(notebook_id: str, service: Service) -> Response:
    text = nbjson.writes(service.get_notebook(notebook_id)) + "\n"
    return Response(text, media_type="application/x-ipynb+json", headers={
        "Content-Disposition": f'attachment; filename="{notebook_id}.ipynb"'})


@router.delete("/{notebook_id}", status_code=204)
async def delete_notebook(notebook_id: str, service: Service) -> Response:
    await service.delete_notebook(notebook_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post("/{notebook_id}/cells", status_code=201)
async def add_cell(notebook_id: str, body: CellCreate, service: Service) -> JSONResponse:
    cell = await service.add_cell(notebook_id, source=body.source, prompt=body.prompt,
                                  cell_type=body.cell_type, position=body.position,
                                  metadata=body.metadata)
    return _created(notebook_id, cell, f"/api/notebooks/{notebook_id}/cells/{cell.id}")


@router.get("/{notebook_id}/cells/{cell_id}")
async def get_cell(notebook_id: str, cell_id: str, service: Service) -> dict[str, Any]:
    return service.get_cell(notebook_id, cell_id)


@router.patch("/{notebook_id}/cells/{cell_id}")
async def update_cell(notebook_id: str, cell_id: str, body: CellUpdate,
                      service: Service) -> dict[str, Any]:
    return await service.update_cell(notebook_id, cell_id, source=body.source,
                                     prompt=body.prompt, metadata=body.metadata)


@router.delete("/{notebook_id}/cells/{cell_id}", status_code=204)
async def delete_cell(notebook_id: str, cell_id: str, service: Service) -> Response:
    await service.delete_cell(notebook_id, cell_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post("/{notebook_id}/cells/{cell_id}/move")
async def move_cell(notebook_id: str, cell_id: str, body: CellMove,
                    service: Service) -> dict[str, Any]:
    return await service.move_cell(notebook_id, cell_id, body.position)
