"""The execution journal: every execution step as an event with a sequence number (SQLite).

Streaming (SSE with Last-Event-ID) and post-mortems read it; the sequence number is the event id.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .database import open_sqlite
from .status import ExecutionState

SCHEMA = """
CREATE TABLE IF NOT EXISTS executions (
    id TEXT PRIMARY KEY,
    notebook_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    cell_ids TEXT NOT NULL,
    state TEXT NOT NULL,
    created_at REAL NOT NULL,
    finished_at REAL,
    result TEXT
);
CREATE INDEX IF NOT EXISTS executions_notebook ON executions(notebook_id, created_at);
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    execution_id TEXT NOT NULL,
    notebook_id TEXT NOT NULL,
    cell_id TEXT,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    ts REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS events_execution ON events(execution_id, seq);
CREATE INDEX IF NOT EXISTS events_notebook ON events(notebook_id, type, seq);
"""


COMPACT_WINDOW = 64  # executions past the newest `keep` that retention looks at
# events that carry a cell's output as it came (SSE replays them); retention drops them
OUTPUT_EVENTS = ("stream", "display_data", "execute_result", "error", "clear_output",
                 "update_display_data", "output_truncated")


@dataclass(frozen=True)
class Event:
    seq: int
    execution_id: str
    notebook_id: str
    cell_id: str | None
    type: str
    data: dict[str, Any]
    ts: float

    def as_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "execution_id": self.execution_id,
                "notebook_id": self.notebook_id, "cell_id": self.cell_id,
                "type": self.type, "data": self.data, "ts": self.ts}


@dataclass(frozen=True)
class ExecutionRecord:
    id: str
    notebook_id: str
    kind: str
    cell_ids: list[str]
    state: str
    created_at: float
    finished_at: float | None
    result: dict[str, Any] | None


class Journal:
    """Inside a running event loop, writes made in one loop iteration share one commit (done
    by a call_soon callback, so before anything the loop sends out in a later iteration).
    Without a loop every write commits at once."""

    def __init__(self, path: Path):
        self.path = path
        self._conn = open_sqlite(path)
        self._conn.executescript(SCHEMA)
        self._write_lock = threading.Lock()
        self._commit_pending = False

    def close(self) -> None:
        self.commit()
        self._conn.close()

    def commit(self) -> None:
        with self._write_lock:
            if self._commit_pending:
                self._commit_pending = False
                self._conn.execute("COMMIT")

    def _begin(self) -> None:
        """Called with the write lock held, before a write."""
        if self._commit_pending:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # autocommit
        self._conn.execute("BEGIN")
        self._commit_pending = True
        loop.call_soon(self.commit)

    def append(self, execution_id: str, notebook_id: str, cell_id: str | None,
               type_: str, data: dict[str, Any]) -> Event:
        ts = time.time()
        payload = json.dumps(data, ensure_ascii=False, default=str)
        with self._write_lock:
            self._begin()
            cur = self._conn.execute(
                "INSERT INTO events (execution_id, notebook_id, cell_id, type, data, ts)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (execution_id, notebook_id, cell_id, type_, payload, ts),
            )
        return Event(cur.lastrowid or 0, execution_id, notebook_id, cell_id, type_, data, ts)

    def events(self, execution_id: str, after_seq: int = 0, limit: int = 1000) -> list[Event]:
        rows = self._conn.execute(
            "SELECT * FROM events WHERE execution_id = ? AND seq > ? ORDER BY seq LIMIT ?",
            (execution_id, after_seq, limit),
        ).fetchall()
        return [_event(row) for row in rows]

    def events_of_type(self, execution_id: str, type_: str) -> list[Event]:
        """Every event of one type of an execution, in order (e.g. its `final` results)."""
        rows = self._conn.execute(
            "SELECT * FROM events WHERE execution_id = ? AND type = ? ORDER BY seq",
            (execution_id, type_),
        ).fetchall()
        return [_event(row) for row in rows]

    def notebook_events(self, notebook_id: str, after_seq: int = 0, limit: int = 1000,
                        types: tuple[str, ...] | None = None) -> list[Event]:
        query = "SELECT * FROM events WHERE notebook_id = ? AND seq > ?"
        params: list[Any] = [notebook_id, after_seq]
        if types:
            query += f" AND type IN ({', '.join('?' * len(types))})"
            params.extend(types)
        rows = self._conn.execute(query + " ORDER BY seq LIMIT ?", (*params, limit)).fetchall()
        return [_event(row) for row in rows]

    def create_execution(self, execution_id: str, notebook_id: str, kind: str,
                         cell_ids: list[str]) -> None:
        with self._write_lock:
            self._begin()
            self._conn.execute(
                "INSERT INTO executions (id, notebook_id, kind, cell_ids, state, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (execution_id, notebook_id, kind, json.dumps(cell_ids),
                 ExecutionState.QUEUED.value, time.time()),
            )

    def set_state(self, execution_id: str, state: ExecutionState,
                  result: dict[str, Any] | None = None) -> None:
        with self._write_lock:
            self._begin()
            if state is ExecutionState.DONE:
                self._conn.execute(
                    "UPDATE executions SET state = ?, finished_at = ?, result = ? WHERE id = ?",
                    (state.value, time.time(), json.dumps(result, default=str), execution_id),
                )
            else:
                self._conn.execute("UPDATE executions SET state = ? WHERE id = ?",
                                   (state.value, execution_id))

    def execution(self, execution_id: str) -> ExecutionRecord | None:
        row = self._conn.execute("SELECT * FROM executions WHERE id = ?",
                                 (execution_id,)).fetchone()
        return _execution(row) if row else None

    def executions(self, notebook_id: str, limit: int = 50) -> list[ExecutionRecord]:
        rows = self._conn.execute(
            "SELECT * FROM executions WHERE notebook_id = ? ORDER BY created_at DESC LIMIT ?",
            (notebook_id, limit),
        ).fetchall()
        return [_execution(row) for row in rows]

    def compact_outputs(self, notebook_id: str, keep: int, written_seq: int) -> list[str]:
        """Retention: the notebook's finished executions older than its newest `keep` lose
        their bulky part (`OUTPUT_EVENTS` rows; `outputs` in `final`, `done` and the stored
        result become `[]` with `outputs_pruned: true`). Statuses, errors, critiques and
        attempts stay. Only executions whose results the notebook file already holds
        (`final` seq <= `written_seq`) are touched: replay after a crash needs the others.
        Returns the ids compacted.

        It runs after every execution, so only the `COMPACT_WINDOW` executions just past the
        newest `keep` are looked at (a notebook's whole history would make each execution
        cost more than the last); one skipped because its file was not yet written is
        caught by a later run while it is still in that window."""
        rows = self._conn.execute(
            "SELECT id, result FROM (SELECT id, state, result FROM executions"
            "  WHERE notebook_id = ? ORDER BY created_at DESC LIMIT ? OFFSET ?)"
            " WHERE state = ?"
            " AND json_extract(coalesce(result, '{}'), '$.outputs_pruned') IS NULL",
            (notebook_id, COMPACT_WINDOW, keep, ExecutionState.DONE.value)).fetchall()
        done: list[str] = []
        for row in reversed(rows):  # oldest first
            last_final = self._conn.execute(
                "SELECT max(seq) FROM events WHERE execution_id = ? AND type = 'final'",
                (row["id"],)).fetchone()[0]
            if last_final is not None and last_final > written_seq:
                continue
            self._compact_one(row["id"], json.loads(row["result"] or "null"))
            done.append(row["id"])
        return done

    def _compact_one(self, execution_id: str, result: dict[str, Any] | None) -> None:
        marks = ", ".join("?" * len(OUTPUT_EVENTS))
        with self._write_lock:
            self._begin()
            self._conn.execute(f"DELETE FROM events WHERE execution_id = ? AND type IN ({marks})",
                               (execution_id, *OUTPUT_EVENTS))
            self._conn.execute(
                "UPDATE events SET data = json_set(data, '$.outputs', json('[]'),"
                " '$.outputs_pruned', json('true')) WHERE execution_id = ? AND type = 'final'",
                (execution_id,))
            summary = json.dumps(_without_outputs(result or {}), default=str)
            self._conn.execute("UPDATE events SET data = ? WHERE execution_id = ? AND type = ?",
                               (summary, execution_id, "done"))
            self._conn.execute("UPDATE executions SET result = ? WHERE id = ?",
                               (summary, execution_id))

    def read_events(self, execution_ids: list[str], *, skip_types: tuple[str, ...] = (),
                    drop_outputs: bool = False) -> list[Event]:
        """`read_events` of this journal (PostgresJournal reads its database instead)."""
        return read_events(self.path, execution_ids, skip_types=skip_types,
                           drop_outputs=drop_outputs)

    def unfinished(self) -> list[ExecutionRecord]:
        rows = self._conn.execute(
            "SELECT * FROM executions WHERE state != ?", (ExecutionState.DONE.value,)
        ).fetchall()
        return [_execution(row) for row in rows]


def _without_outputs(summary: dict[str, Any]) -> dict[str, Any]:
    results = [{**r, "outputs": [], "outputs_pruned": True} if isinstance(r, dict) else r
               for r in summary.get("results", [])]
    return {**summary, "results": results, "outputs_pruned": True}


def _event(row: sqlite3.Row) -> Event:
    return Event(row["seq"], row["execution_id"], row["notebook_id"], row["cell_id"],
                 row["type"], json.loads(row["data"]), row["ts"])


def _execution(row: sqlite3.Row) -> ExecutionRecord:
    return ExecutionRecord(
        id=row["id"], notebook_id=row["notebook_id"], kind=row["kind"],
        cell_ids=json.loads(row["cell_ids"]), state=row["state"],
        created_at=row["created_at"], finished_at=row["finished_at"],
        result=json.loads(row["result"]) if row["result"] else None,
    )


def read_events(path: Path, execution_ids: list[str], *,
                skip_types: tuple[str, ...] = (), drop_outputs: bool = False) -> list[Event]:
    """Events of these executions, in order, through a connection of its own (safe to call
    from a worker thread while the service appends). `drop_outputs` leaves the `outputs` of
    `final` events out (a post-mortem needs statuses and attempts, not megabytes of output)."""
    if not execution_ids:
        return []
    conn = open_sqlite(path)
    try:
        data = ("CASE WHEN type = 'final' THEN json_remove(data, '$.outputs') ELSE data END"
                if drop_outputs else "data")
        marks = ", ".join("?" * len(execution_ids))
        query = (f"SELECT seq, execution_id, notebook_id, cell_id, type, {data} AS data, ts "
                 f"FROM events WHERE execution_id IN ({marks})")
        params: list[Any] = list(execution_ids)
        if skip_types:
            query += f" AND type NOT IN ({', '.join('?' * len(skip_types))})"
            params.extend(skip_types)
        rows = conn.execute(query + " ORDER BY seq", params).fetchall()
        return [_event(row) for row in rows]
    finally:
        conn.close()
