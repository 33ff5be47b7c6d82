"""`INSERT ... ON CONFLICT DO NOTHING RETURNING` for many rows, fast on both databases.

SQLite and small sets go through SQLAlchemy's executemany ("insertmanyvalues": multi-row
VALUES pages of up to 1,000 rows, RETURNING included, because psycopg 3 reports
rowcount -1 for executemany). Large sets on PostgreSQL are COPYed into a temporary table,
then moved with one `INSERT ... SELECT ... ON CONFLICT DO NOTHING RETURNING`.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from sqlalchemy import JSON, Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

COPY_THRESHOLD = 200  # below this, the temporary table costs more than it saves


def dialect_of(session: Session) -> str:
    return session.get_bind().dialect.name


def insert_ignore(
    session: Session,
    table: Table,
    rows: Sequence[dict[str, Any]],
    *,
    conflict: Sequence[str],
    returning: Sequence[str] = (),
) -> list[tuple[Any, ...]]:
    """Insert `rows`, skipping those that clash on `conflict`; the `returning` columns of
    the rows really inserted (an empty list when `returning` is empty)."""
    if not rows:
        return []
    dialect = dialect_of(session)
    if dialect == "postgresql" and len(rows) >= COPY_THRESHOLD:
        return _copy_insert_ignore(session, table, rows, conflict, returning)
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    stmt = insert(table).on_conflict_do_nothing(index_elements=list(conflict))
    if not returning:
        session.execute(stmt, list(rows))
        return []
    stmt_returning = stmt.returning(*(table.c[name] for name in returning))
    return [tuple(row) for row in session.execute(stmt_returning, list(rows))]


def _copy_insert_ignore(
    session: Session,
    table: Table,
    rows: Sequence[dict[str, Any]],
    conflict: Sequence[str],
    returning: Sequence[str],
) -> list[tuple[Any, ...]]:
    names = list(rows[0])
    values_of = itemgetter(*names)
    json_at = [i for i, name in enumerate(names) if isinstance(table.c[name].type, JSON)]
    stage = f"_stage_{table.name}_{zlib.crc32(' '.join(names).encode()):08x}"
    columns = ", ".join(f'"{name}"' for name in names)
    connection = session.connection()
    # Only the columns given, without defaults or constraints (no sequence value is spent).
    # Made once per connection and emptied (truncated) at each commit: no catalog churn and
    # no bloat per batch (autovacuum never visits temporary tables).
    connection.exec_driver_sql(
        f"CREATE TEMPORARY TABLE IF NOT EXISTS {stage} ON COMMIT DELETE ROWS "  # noqa: S608
        f"AS SELECT {columns} FROM {table.name} WITH NO DATA"
    )
    driver = connection.connection.driver_connection
    assert driver is not None
    with (
        driver.cursor() as cursor,
        cursor.copy(f"COPY {stage} ({columns}) FROM STDIN") as copy,
    ):
        for row in rows:
            values = list(values_of(row)) if len(names) > 1 else [row[names[0]]]
            for i in json_at:
                if values[i] is not None:
                    values[i] = json.dumps(values[i])
            copy.write_row(values)
    # Identifiers come from the Table, never from input; values travel only through COPY.
    move = (
        f"INSERT INTO {table.name} ({columns}) SELECT {columns} FROM {stage} "  # noqa: S608
        f"ON CONFLICT ({', '.join(conflict)}) DO NOTHING"
    )
    if returning:
        move += f" RETURNING {', '.join(returning)}"
    result = connection.exec_driver_sql(move)
    inserted = [tuple(row) for row in result.all()] if returning else []
    # Empty it now too, for a second call in the same transaction.
    connection.exec_driver_sql(f"DELETE FROM {stage}")  # noqa: S608
    return inserted
