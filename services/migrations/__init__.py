"""Alembic migrations of the PostgreSQL store (services.postgres_store runs them at start)."""
