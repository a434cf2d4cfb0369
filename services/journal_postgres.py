"""The execution journal in PostgreSQL, for replicas that share one database.

The journal's queries run unchanged (services.postgres_store adapts placeholders and rows);
what SQLite spells its own way is written here: the new event's seq (RETURNING) and the JSON
edits of retention (jsonb). Writes made in one event-loop iteration share one commit, as on
SQLite. psycopg 3 is used through its synchronous connection because the journal is called
synchronously from the event loop, as the SQLite journal is; each call is one round trip.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

from .journal import OUTPUT_EVENTS, Event, Journal, _event, _without_outputs
from .postgres_store import Connection, open_database
from .status import ExecutionState


class PostgresJournal(Journal):
    def __init__(self, url: str):
        self.url = url
        self.path = Path("postgresql")  # no file; read_events goes through the database
        self._conn = open_database(url)  # type: ignore[assignment]
        self._write_lock = threading.Lock()
        self._commit_pending = False

    def append(self, execution_id: str, notebook_id: str, cell_id: str | None,
               type_: str, data: dict[str, Any]) -> Event:
        ts = time.time()
        payload = json.dumps(data, ensure_ascii=False, default=str)
        with self._write_lock:
            self._begin()
            seq = self._conn.execute(
                "INSERT INTO events (execution_id, notebook_id, cell_id, type, data, ts)"
                " VALUES (?, ?, ?, ?, ?, ?) RETURNING seq",
                (execution_id, notebook_id, cell_id, type_, payload, ts),
            ).fetchone()[0]
        return Event(seq, execution_id, notebook_id, cell_id, type_, data, ts)

    def create_execution(self, execution_id: str, notebook_id: str, kind: str,
                         cell_ids: list[str]) -> None:
        """Committed at once: the 202 naming it may reach a client, and that client another
        replica, before this loop iteration's batched commit."""
        super().create_execution(execution_id, notebook_id, kind, cell_ids)
        self.commit()

    def compact_outputs(self, notebook_id: str, keep: int, written_seq: int) -> list[str]:
        """As Journal.compact_outputs (retention), in PostgreSQL's JSON functions."""
        rows = self._conn.execute(
            "SELECT id, result FROM executions WHERE notebook_id = ? AND state = ?"
            " AND (coalesce(result, '{}')::jsonb -> 'outputs_pruned') IS NULL"
            " AND id NOT IN (SELECT id FROM executions WHERE notebook_id = ?"
            "  ORDER BY created_at DESC LIMIT ?)",
            (notebook_id, ExecutionState.DONE.value, notebook_id, keep)).fetchall()
        done: list[str] = []
        for row in rows:
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
                "UPDATE events SET data = jsonb_set(jsonb_set(data::jsonb, '{outputs}', '[]'),"
                " '{outputs_pruned}', 'true')::text WHERE execution_id = ? AND type = 'final'",
                (execution_id,))
            summary = json.dumps(_without_outputs(result or {}), default=str)
            self._conn.execute("UPDATE events SET data = ? WHERE execution_id = ? AND type = ?",
                               (summary, execution_id, "done"))
            self._conn.execute("UPDATE executions SET result = ? WHERE id = ?",
                               (summary, execution_id))

    def read_events(self, execution_ids: list[str], *, skip_types: tuple[str, ...] = (),
                    drop_outputs: bool = False) -> list[Event]:
        """As services.journal.read_events, through a connection of its own (safe from a
        worker thread while the service appends)."""
        if not execution_ids:
            return []
        conn = Connection(self.url)
        try:
            data = ("CASE WHEN type = 'final' THEN (data::jsonb - 'outputs')::text ELSE data END"
                    if drop_outputs else "data")
            query = (f"SELECT seq, execution_id, notebook_id, cell_id, type, {data} AS data, ts"
                     " FROM events WHERE execution_id = ANY(?)")
            params: list[Any] = [list(execution_ids)]
            if skip_types:
                query += " AND NOT (type = ANY(?))"
                params.append(list(skip_types))
            rows = conn.execute(query + " ORDER BY seq", params).fetchall()
            return [_event(row) for row in rows]
        finally:
            conn.close()


def open_journal(data_dir: Path, database_url: str | None) -> Journal:
    """The journal of this configuration: PostgreSQL when a database URL is set, else the
    embedded SQLite file in the data dir."""
    if database_url:
        return PostgresJournal(database_url)
    return Journal(data_dir / "journal.sqlite3")
