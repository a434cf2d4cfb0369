"""The service on either store: the embedded SQLite file and a real PostgreSQL server (a
fresh schema per test). The REST execution resource, its SSE events and Last-Event-ID
resumption, and durability across a service restart behave the same; PostgreSQL's schema
comes from Alembic migrations, which replicas starting together run one at a time."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from pydantic import ValidationError

from app.settings import Settings
from services.notebook_service import NotebookService
from services.postgres_store import DatabaseUnavailable
from tests.conftest import LiveServer, free_port, make_settings, new_notebook
from tests.databases import BACKENDS
from tests.test_api import _events

CODE = "import time\nfor i in range(6):\n    print('line', i, flush=True)\n    time.sleep(0.1)"


@pytest.mark.parametrize("database_url", BACKENDS, indirect=True)
def test_execution_events_resume_and_survive_a_restart(tmp_path: Path,
                                                       database_url: str | None) -> None:
    settings = make_settings(tmp_path, database_url=database_url)
    with LiveServer(settings) as server, server.client() as api:
        nb, (cell,) = new_notebook(api, CODE)
        location = api.post(f"/api/notebooks/{nb}/cells/{cell}/execute?wait=false"
                            ).headers["location"]
        first = _events(api, location + "/events", stop_after=3)
        rest = _events(api, location + "/events",
                       headers={"Last-Event-ID": str(first[-1]["id"])})
        ids = [e["id"] for e in first + rest]
        assert ids == sorted(set(ids)) and rest[-1]["event"] == "done"
        text = "".join(e["data"]["text"] for e in first + rest if e["event"] == "stream")
        assert text == "".join(f"line {i}\n" for i in range(6))
    # a new service process on the same store serves the finished execution and its events
    with LiveServer(make_settings(tmp_path, database_url=database_url)) as again, \
            again.client() as api:
        record = api.get(location).json()
        assert record["state"] == "done" and record["results"][0]["status"] == "ok"
        assert [e["id"] for e in _events(api, location + "/events")] == ids
        exported = api.get(f"/api/notebooks/{nb}/cells/{cell}").json()
        assert exported["outputs"][0]["text"] == text


def test_replicas_starting_together_migrate_once(pg_schema_url: str) -> None:
    """Four processes migrate one empty schema at once (as replicas starting together)."""
    code = "import sys; from services.postgres_store import migrate; migrate(sys.argv[1])"
    procs = [subprocess.Popen([sys.executable, "-c", code, pg_schema_url],
                              stderr=subprocess.PIPE) for _ in range(4)]
    failures = [p.stderr.read().decode() for p in procs if p.wait(120) != 0]  # type: ignore[union-attr]
    assert failures == []
    with psycopg.connect(pg_schema_url) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [
            ("0001_journal",)]
        tables = {row[0] for row in conn.execute(
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema()")}
    assert {"events", "executions"} <= tables


def test_a_database_url_that_is_not_postgresql_is_refused() -> None:
    with pytest.raises(ValidationError, match="database_url must be a postgresql:// URL"):
        Settings(database_url="sqlite:///journal.db")


def test_an_unreachable_database_is_a_clear_error(tmp_path: Path) -> None:
    url = f"postgresql://nbcritic:secret-pw@127.0.0.1:{free_port()}/nbcritic?connect_timeout=3"
    with pytest.raises(DatabaseUnavailable, match=r"127\.0\.0\.1") as caught:
        NotebookService(make_settings(tmp_path, database_url=url))
    assert "secret-pw" not in str(caught.value)
    assert "database_url" in str(caught.value)


def test_serve_on_an_unreachable_database_says_so_and_exits(tmp_path: Path) -> None:
    url = f"postgresql://nbcritic:secret-pw@127.0.0.1:{free_port()}/nbcritic?connect_timeout=3"
    env = {**os.environ, "NBCRITIC_DATABASE_URL": url}
    done = subprocess.run([sys.executable, "-m", "app.cli", "serve", "--port", str(free_port()),
                           "--data-dir", str(tmp_path), "--token", "t"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert "PostgreSQL at 127.0.0.1:" in done.stderr and "database_url" in done.stderr
    assert "Traceback" not in done.stderr and "secret-pw" not in done.stderr
