"""PostgreSQL as the shared store (NBCRITIC_DATABASE_URL=postgresql://...): connections through
psycopg 3, the schema through Alembic migrations (services/migrations), run at start.

Rows come back addressable by position and by column name, as sqlite3.Row does, and `?`
placeholders are accepted: the journal's queries then run unchanged on either database.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

MIGRATIONS = Path(__file__).with_name("migrations")
_MIGRATING = threading.Lock()


class DatabaseUnavailable(RuntimeError):
    pass


def describe(url: str) -> str:
    """host:port/database of a URL, for messages (never the password)."""
    from psycopg.conninfo import conninfo_to_dict

    parts = conninfo_to_dict(url)
    return f"{parts.get('host', 'localhost')}:{parts.get('port', 5432)}/{parts.get('dbname', '')}"


def open_database(url: str) -> Connection:
    """Migrate, then connect; an unreachable or refusing server is one clear error."""
    try:
        migrate(url)
        return Connection(url)
    except Exception as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        raise DatabaseUnavailable(f"PostgreSQL at {describe(url)} (database_url): "
                                  f"{reason}") from exc


def migrate(url: str) -> None:
    """Bring the database to the newest schema (Alembic `upgrade head`). Processes take
    turns through an advisory lock (migrations/env.py); threads of one process through
    _MIGRATING, because Alembic's migration context is process-global."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["url"] = sqlalchemy_url(url)  # not via the ini: '%' in URLs
    with _MIGRATING:
        command.upgrade(config, "head")


def sqlalchemy_url(url: str) -> str:
    """Alembic connects through SQLAlchemy; name the psycopg 3 dialect explicitly."""
    return "postgresql+psycopg://" + url.split("://", 1)[1]


class Row(tuple[Any, ...]):
    """A result row readable as row[0] and row["name"], like sqlite3.Row."""

    names: Sequence[str] = ()

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self.names.index(key))
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self.names)


def _row_factory(cursor: Any) -> Any:
    names = [column.name for column in cursor.description or ()]

    def make(values: Sequence[Any]) -> Row:
        row = Row(values)
        row.names = names
        return row

    return make


class Connection:
    """A psycopg connection in autocommit mode (BEGIN and COMMIT are issued explicitly, as
    the SQLite code does) that takes `?` placeholders."""

    def __init__(self, url: str):
        import psycopg

        self.raw = psycopg.connect(url, autocommit=True, row_factory=_row_factory)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self.raw.execute(sql.replace("%", "%%").replace("?", "%s"), tuple(params))

    def close(self) -> None:
        self.raw.close()
