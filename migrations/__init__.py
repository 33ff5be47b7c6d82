"""Alembic revisions: the only way the schema is created or changed (see db.migrate)."""
