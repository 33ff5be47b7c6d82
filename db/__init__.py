"""Storage: models, engine and sessions, bulk idempotent writes, read queries.

Modules: `models` (tables), `views` (the puzzle_results view), `engine` (engines,
sessions, `ensure_schema`), `migrate` (Alembic from code), `imports` and `results`
(idempotent bulk writes), `queries` (reads), `errors`.
"""
