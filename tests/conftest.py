"""Shared fixtures: a started NotebookService on a temp dir (real kernels), and a real HTTP
server (uvicorn on a loopback port, in its own thread) for the API tests."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from app.main import create_app
from app.settings import Settings
from services.notebook_service import NotebookService
from tests.databases import database_url, journal_store, pg_schema_url, postgres_url  # noqa: F401

TOKEN = "test-token"


def make_settings(data_dir: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "data_dir": data_dir, "pool_size": 1, "cell_timeout": 20.0, "interrupt_grace": 3.0,
        "token": TOKEN, "fsync_writes": False,
    }
    values.update(overrides)
    return Settings(**values)


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[NotebookService]:
    svc = NotebookService(make_settings(tmp_path))
    await svc.start()
    try:
        yield svc
    finally:
        await svc.stop()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LiveServer:
    """uvicorn serving the app on 127.0.0.1 in a background thread."""

    def __init__(self, settings: Settings, **app_kwargs: Any):
        self.settings = settings
        self.app = create_app(settings, **app_kwargs)
        self.port = free_port()
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.url = f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("test server did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)

    @property
    def service(self) -> NotebookService:
        return self.app.state.service

    def client(self, token: str | None = TOKEN, **kwargs: Any) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=60, **kwargs)


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    settings = make_settings(tmp_path_factory.mktemp("server"), pool_size=2,
                             max_body_bytes=256 * 1024, cell_timeout=20.0)
    with LiveServer(settings) as server:
        yield server


@pytest.fixture
def api(live_server: LiveServer) -> Iterator[httpx.Client]:
    with live_server.client() as client:
        yield client


def new_notebook(client: httpx.Client, *sources: str) -> tuple[str, list[str]]:
    """Create a notebook with code cells; return its id and the cell ids."""
    notebook_id = client.post("/api/notebooks", json={}).json()["id"]
    cell_ids = [client.post(f"/api/notebooks/{notebook_id}/cells", json={"source": s}).json()["id"]
                for s in sources]
    return notebook_id, cell_ids
