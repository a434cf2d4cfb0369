"""The storage backends the same tests run on: SQLite in a temp dir, and a real PostgreSQL
server (a fresh schema per test). `.ci/run` starts Debian's PostgreSQL and sets
NBCRITIC_TEST_DATABASE_URL; without it the PostgreSQL variants fail in CI and are skipped on a
developer's machine that has no server."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from services.journal import Journal
from services.journal_postgres import open_journal

DATABASE_ENV = "NBCRITIC_TEST_DATABASE_URL"
BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(scope="session")
def postgres_url() -> str:
    url = os.environ.get(DATABASE_ENV)
    if not url:
        message = f"{DATABASE_ENV} is not set (a postgresql:// URL of a test database)"
        if os.environ.get("CI"):
            pytest.fail(f"{message}: .ci/run installs and starts PostgreSQL and sets it")
        pytest.skip(message)
    return url


@pytest.fixture
def pg_schema_url(postgres_url: str) -> Iterator[str]:
    """A URL whose connections work in a new, empty schema (dropped afterwards)."""
    import psycopg

    schema = f"t_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield with_search_path(postgres_url, schema)
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def with_search_path(url: str, schema: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"


@pytest.fixture
def database_url(request: pytest.FixtureRequest) -> str | None:
    """None for SQLite, a fresh schema's URL for PostgreSQL (parametrise with BACKENDS)."""
    if request.param == "postgresql":
        return str(request.getfixturevalue("pg_schema_url"))
    return None


@pytest.fixture(params=BACKENDS)
def journal_store(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], Journal]:
    """Opens this test's journal (again: the same store each call) on either backend."""
    url = (str(request.getfixturevalue("pg_schema_url")) if request.param == "postgresql"
           else None)
    return lambda: open_journal(tmp_path, url)
