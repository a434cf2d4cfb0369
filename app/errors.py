"""Every error leaves as `{"detail": ..., "code": ...}`; never a service traceback."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from services.cell_metadata import CellMetadataError
from services.improvement_queue import ImprovementError, ImprovementNotFound
from services.kernel_session import KernelStartError
from services.lessons import LessonError, LessonNotFound
from services.notebook_service import CellNotExecutable, ExecutionNotFound, ServiceStopping
from services.notebook_store import (
    CellNotFound,
    InvalidNotebook,
    InvalidNotebookId,
    NotebookExists,
    NotebookNotFound,
)
from services.self_checks import CheckSpecError

log = logging.getLogger("nbcritic.api")

_HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
               405: "method_not_allowed", 409: "conflict", 413: "payload_too_large",
               415: "unsupported_media_type", 422: "validation_error"}


def error_response(status: int, detail: object, code: str,
                   headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"detail": detail, "code": code}, status_code=status, headers=headers)


def _field(loc: tuple[object, ...]) -> str:
    return ".".join(str(part) for part in loc)


def install_error_handlers(app: FastAPI) -> None:
    mapping: list[tuple[type[Exception], int, str, str]] = [
        (NotebookNotFound, 404, "notebook_not_found", "notebook {} not found"),
        (CellNotFound, 404, "cell_not_found", "cell {} not found"),
        (NotebookExists, 409, "notebook_exists", "notebook {} already exists"),
        (InvalidNotebookId, 400, "invalid_notebook_id", "{}"),
        (InvalidNotebook, 422, "invalid_notebook", "invalid notebook: {}"),
        (CellNotExecutable, 409, "cell_not_executable", "{}"),
        (KernelStartError, 503, "kernel_unavailable", "{}"),
        (ServiceStopping, 503, "service_stopping", "{}"),
        (ExecutionNotFound, 404, "execution_not_found", "execution {} not found"),
        (LessonNotFound, 404, "lesson_not_found", "lesson {} not found"),
        (ImprovementNotFound, 404, "improvement_not_found", "improvement request {} not found"),
        (LessonError, 422, "validation_error", "{}"),
        (ImprovementError, 422, "validation_error", "{}"),
        (CheckSpecError, 422, "validation_error", "{}"),
        (CellMetadataError, 422, "validation_error", "{}"),
    ]
    for exc_type, status, code, template in mapping:
        def handler(_request: Request, exc: Exception, status: int = status, code: str = code,
                    template: str = template) -> JSONResponse:
            text = exc.args[0] if exc.args else ""
            return error_response(status, template.format(text), code)

        app.add_exception_handler(exc_type, handler)

    @app.exception_handler(RequestValidationError)
    async def validation(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [{"field": _field(e["loc"]), "message": e["msg"]} for e in exc.errors()]
        detail = "; ".join(f"{e['field']}: {e['message']}" for e in errors)
        return JSONResponse({"detail": detail, "code": "validation_error", "errors": errors},
                            status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if isinstance(exc.__cause__, RecursionError):  # the JSON parser gave up on the depth
            return error_response(422, "body: JSON nested too deeply (metadata and notebook "
                                  "content nest at most 64 levels)", "validation_error")
        code = getattr(exc, "code", None) or _HTTP_CODES.get(exc.status_code, "error")
        return error_response(exc.status_code, exc.detail, code, headers=exc.headers)

    @app.exception_handler(Exception)
    async def internal(_request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error", exc_info=exc)
        return error_response(500, "internal error; see the service log", "internal_error")


class ApiError(StarletteHTTPException):
    """An HTTP error with an explicit machine-readable code."""

    def __init__(self, status: int, detail: str, code: str,
                 headers: dict[str, str] | None = None):
        super().__init__(status, detail, headers)
        self.code = code
