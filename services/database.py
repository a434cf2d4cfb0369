"""The one small SQLite layer the journal (and later stores) share.

WAL lets readers (SSE streams, post-mortems) run while the executor appends; synchronous=NORMAL
keeps each commit off fsync in WAL mode while still surviving a killed process.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def open_sqlite(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA busy_timeout=5000")
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


@contextmanager
def immediate(conn: sqlite3.Connection) -> Iterator[None]:
    """A write transaction taken at once (BEGIN IMMEDIATE): a read-then-write sequence that
    another process sharing the file cannot interleave with (it waits on busy_timeout)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
