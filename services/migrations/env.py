"""Alembic's environment for the PostgreSQL store: online migrations only, on the URL that
services.postgres_store passes in `config.attributes["url"]`. The migration runs in one
transaction under an advisory lock, so replicas starting together migrate one at a time."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

MIGRATION_LOCK = 23_0001  # pg_advisory_xact_lock key: one migrating replica at a time


def run_migrations_online() -> None:
    engine = create_engine(context.config.attributes["url"], poolclass=NullPool)
    try:
        with engine.begin() as connection:
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                               {"key": MIGRATION_LOCK})
            context.configure(connection=connection, target_metadata=None)
            with context.begin_transaction():
                context.run_migrations()
    finally:
        engine.dispose()


run_migrations_online()
