"""The execution journal: executions and their events (the SQLite schema of services.journal,
in PostgreSQL types). Event and result payloads stay JSON text, byte for byte what was written.

Revision ID: 0001_journal
"""

from __future__ import annotations

from alembic import op

revision = "0001_journal"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        CREATE TABLE executions (
            id TEXT PRIMARY KEY,
            notebook_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            cell_ids TEXT NOT NULL,
            state TEXT NOT NULL,
            created_at DOUBLE PRECISION NOT NULL,
            finished_at DOUBLE PRECISION,
            result TEXT
        )""")
    op.execute("CREATE INDEX executions_notebook ON executions (notebook_id, created_at)")
    op.execute("""
        CREATE TABLE events (
            seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            execution_id TEXT NOT NULL,
            notebook_id TEXT NOT NULL,
            cell_id TEXT,
            type TEXT NOT NULL,
            data TEXT NOT NULL,
            ts DOUBLE PRECISION NOT NULL
        )""")
    op.execute("CREATE INDEX events_execution ON events (execution_id, seq)")
    op.execute("CREATE INDEX events_notebook ON events (notebook_id, type, seq)")


def downgrade() -> None:
    op.execute("DROP TABLE events")
    op.execute("DROP TABLE executions")
