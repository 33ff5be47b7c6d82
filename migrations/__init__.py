"""Alembic revisions: the only way the schema is created or changed (see db.migrate).

Kept at the top of the repository, where `alembic` run from its root finds it; installed as
the package `db.migrations`, so nothing named `migrations` lands in site-packages.
"""
