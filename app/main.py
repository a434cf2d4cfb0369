"""The FastAPI application: wiring of settings, auth, limits, errors and routers."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.metadata import PackageNotFoundError, version
from typing import Any
from urllib.parse import quote

from fastapi import Depends, FastAPI, Request
from fastapi.middleware.cors import CORSMiddleware
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse

from services.cell_plan import Planner
from services.cell_review import CellReviewer
from services.code_generator import CodeGenerator
from services.notebook_service import NotebookService

from .auth import require_token, require_token_or_query
from .auth_gate import TokenGateMiddleware
from .body_limit import BodyLimitMiddleware
from .errors import install_error_handlers
from .routers import critic, executions, kernels, learning, notebooks
from .settings import Settings
from .web import install as install_web_page

try:
    VERSION = version("nbcritic")
except PackageNotFoundError:  # running from a source tree
    VERSION = "0.0.0+source"


def create_app(settings: Settings | None = None, *, generator: CodeGenerator | None = None,
               reviewer: CellReviewer | None = None, planner: Planner | None = None) -> FastAPI:
    """The app. `generator`, `reviewer` and `planner` replace the ones the settings would
    build (tests and the pytest plugin inject scripted ones or their own rules)."""
    settings = settings or Settings()
    settings.build_sinks()  # a sink that cannot deliver: SinkConfigError now, not at startup
    token = settings.ensure_token()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        service = NotebookService(settings, reviewer=reviewer or settings.build_reviewer(),
                                  generator=generator or settings.build_generator(),
                                  planner=planner or settings.build_planner(),
                                  learning=settings.build_learning())
        await service.start()
        app.state.service = service
        try:
            yield
        finally:
            await service.stop()

    app = FastAPI(title="nbcritic", version=VERSION, lifespan=lifespan,
                  docs_url=None, redoc_url=None, openapi_url=None,  # served below, with auth
                  description="Notebook execution with an analysis critic. Authenticate with "
                              "`Authorization: Bearer <token>` (all routes but /health).")
    app.state.settings = settings
    app.state.token = token
    install_error_handlers(app)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    app.add_middleware(TokenGateMiddleware, token=token)  # runs first: before any body read
    if settings.cors_origins:
        app.add_middleware(CORSMiddleware, allow_origins=settings.cors_origins,
                           allow_methods=["*"], allow_headers=["*"],
                           expose_headers=["Location"])

    @app.get("/health", tags=["health"])
    async def health() -> dict[str, Any]:
        service: NotebookService | None = getattr(app.state, "service", None)
        return {"status": "ok" if service else "starting", "version": VERSION,
                "warm_kernels": service.pool.warm_count if service else 0}

    @app.get("/openapi.json", include_in_schema=False,
             dependencies=[Depends(require_token_or_query)])
    async def openapi() -> JSONResponse:
        return JSONResponse(app.openapi())

    @app.get("/docs", include_in_schema=False, dependencies=[Depends(require_token_or_query)])
    async def docs(request: Request) -> HTMLResponse:
        """Swagger UI; open it as /docs?token=<token>."""
        supplied = request.query_params.get("token", "")
        return get_swagger_ui_html(openapi_url=f"/openapi.json?token={quote(supplied)}",
                                   title="nbcritic API")

    auth = [Depends(require_token)]
    for router in (notebooks.router, executions.router, kernels.router, critic.router,
                   learning.router):
        app.include_router(router, dependencies=auth)
    install_web_page(app)  # `/` and /static: the page holds no data, the API needs the token
    return app
