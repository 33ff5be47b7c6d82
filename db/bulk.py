"""Bulk writes below the ORM: thousands of rows a statement, on both databases.

Rows are plain tuples in a stated column order, holding the values the driver stores as they
are (JSON as text, a timestamp as the dialect's type processor renders it). Per row, Python
only hands a tuple to the driver:

- SQLite: a prepared multi-row `INSERT ... VALUES (...), (...) ... ON CONFLICT DO NOTHING`
  (100 rows a statement run: a run costs more than a row, and a CHECK's IN list is built
  once a run), run by the driver's executemany in the session's transaction (how many rows it
  inserted is its rowcount);
- PostgreSQL: COPY straight into the table, in a savepoint: the rows are new but for a
  redelivered batch or a puzzle two batches share. When one clashes with a stored row, the
  savepoint is rolled back and the rows go through a temporary stage table, then one `INSERT
  ... SELECT` of those not stored yet (its rowcount says how many were new): a plain insert
  behind an anti-join, which costs the server less than `ON CONFLICT DO NOTHING`'s
  speculative insertion (docs: Benchmarks). A row another transaction stored meanwhile makes
  that fail on the unique index (or exclusion constraint); it is then made again with
  `ON CONFLICT DO NOTHING` (`insert_new`).

Identifiers come from `Table` objects and constants of this package, never from input;
values travel only as bound parameters or through COPY.
"""

from __future__ import annotations

import functools
import weakref
import zlib
from collections.abc import Iterable, Sequence
from itertools import chain
from typing import Any

from sqlalchemy import Table
from sqlalchemy.orm import Session

Row = Sequence[Any]
ROWS_PER_STATEMENT = 100  # SQLite: 100 rows of a few dozen values stay far below 32,766 parameters
JSONB_VERSION = b"\x01"  # the first byte of jsonb's binary format, then the JSON text


def dialect_of(session: Session) -> str:
    return session.get_bind().dialect.name


def driver_connection(session: Session) -> Any:
    """The DB-API connection under the session's transaction (sqlite3 or psycopg)."""
    driver = session.connection().connection.driver_connection
    assert driver is not None
    return driver


def insert_rows(
    session: Session,
    table: Table,
    columns: Sequence[str],
    rows: Iterable[Row],
    *,
    conflict: Sequence[str],
) -> int:
    """Insert `rows` (values in `columns` order) into `table`, skipping those that clash on
    `conflict`; the number of rows really inserted."""
    names = ", ".join(f'"{table.c[name].name}"' for name in columns)
    target = ", ".join(table.c[name].name for name in conflict)
    on_conflict = f"ON CONFLICT ({target}) DO NOTHING"
    if dialect_of(session) == "postgresql":
        rows = rows if isinstance(rows, list) else list(rows)
        if copy_new(session, table.name, columns, rows):
            return len(rows)
        stage = stage_like(session, table, columns)
        copy_rows(session, stage, columns, rows)
        move = f"INSERT INTO {table.name} ({names}) SELECT {names} FROM {stage} AS s"  # noqa: S608
        unstored = not_stored(table.name, [table.c[name].name for name in conflict])
        with driver_connection(session).cursor() as cursor:
            insert_new(cursor, f"{move} WHERE {unstored}", f"{move} {on_conflict}")
            inserted: int = cursor.rowcount
            cursor.execute(f"DELETE FROM {stage}")  # noqa: S608  (a second call, same transaction)
        return inserted
    return _insert_values(session, f"INSERT INTO {table.name} ({names})", on_conflict, rows)


def copy_new(session: Session, table: str, columns: Sequence[str], rows: Sequence[Row]) -> bool:
    """COPY `rows` straight into `table`, in a savepoint: True unless one clashes with a row
    stored already, or being stored by another transaction (the savepoint is then rolled back
    and nothing is stored) (PostgreSQL)."""
    try:
        # SQLAlchemy's savepoint, not the driver's: as the transaction's first statement, the
        # driver's would be a transaction of its own, committed whatever follows
        with session.begin_nested():
            copy_rows(session, table, columns, rows)
    except _refusals():
        return False
    return True


def _refusals() -> tuple[type[Exception], ...]:
    """How PostgreSQL refuses rows whose keys are stored, or being stored by another
    transaction: a unique index's or an exclusion constraint's violation, or a deadlock (two
    inserts of the same keys waiting for each other, in crossed orders or, on an exclusion
    constraint, at the same instant: the server ends one)."""
    from psycopg.errors import (  # PostgreSQL only: SQLite never imports psycopg
        DeadlockDetected,
        ExclusionViolation,
        UniqueViolation,
    )

    return (UniqueViolation, ExclusionViolation, DeadlockDetected)


def not_stored(table: str, key: Sequence[str]) -> str:
    """The condition a staged row `s` meets when `table` holds no row with its `key`.

    `OFFSET 0` keeps it one probe of the unique index a staged row: as an anti-join, a plan
    made while the table was small (psycopg prepares a statement run five times, and the
    server keeps its generic plan) would go on reading the whole table a call."""
    match = " AND ".join(f"t.{column} = s.{column}" for column in key)
    return f"NOT EXISTS (SELECT FROM {table} AS t WHERE {match} OFFSET 0)"


def insert_new(cursor: Any, *attempts: str) -> None:
    """Run `attempts`, inserts of the same rows from the cheapest to the safest, each but the
    last in a savepoint, until one is not refused (`_refusals`) (PostgreSQL). Say, a plain
    insert behind an anti-join, which assumes no other transaction stores the same keys
    meanwhile, then the same with `ON CONFLICT DO NOTHING`. Called in a transaction already
    begun (its rows staged): before that, the driver's savepoint would be a transaction of its
    own."""
    *optimistic, safe = attempts
    for attempt in optimistic:
        try:
            with cursor.connection.transaction():
                cursor.execute(attempt)
            return
        except _refusals():
            continue
    cursor.execute(safe)


def _insert_values(session: Session, insert: str, suffix: str, rows: Iterable[Row]) -> int:
    """`{insert} VALUES (...), ... {suffix}` for every row, ROWS_PER_STATEMENT a statement run
    (SQLite); the number of rows it changed."""
    rows = rows if isinstance(rows, list) else list(rows)
    if not rows:
        return 0
    one = "(" + ", ".join("?" * len(rows[0])) + ")"
    driver = driver_connection(session)
    full = len(rows) - len(rows) % ROWS_PER_STATEMENT
    changed = 0
    if full:
        statement = f"{insert} VALUES {', '.join([one] * ROWS_PER_STATEMENT)} {suffix}"
        params = (
            list(chain.from_iterable(rows[start : start + ROWS_PER_STATEMENT]))
            for start in range(0, full, ROWS_PER_STATEMENT)
        )
        changed += driver.executemany(statement, params).rowcount
    if full < len(rows):
        statement = f"{insert} VALUES {', '.join([one] * (len(rows) - full))} {suffix}"
        changed += driver.execute(statement, list(chain.from_iterable(rows[full:]))).rowcount
    return changed


def stage_like(session: Session, table: Table, columns: Sequence[str]) -> str:
    """The name of this connection's temporary copy of `table` (these columns only, without
    defaults or constraints), created on first use and emptied at each commit."""
    stage = f"_stage_{table.name}_{zlib.crc32(' '.join(columns).encode()):08x}"
    names = ", ".join(f'"{table.c[name].name}"' for name in columns)
    # Made once per connection: no catalog churn per batch, and autovacuum never visits it.
    session.connection().exec_driver_sql(
        f"CREATE TEMPORARY TABLE IF NOT EXISTS {stage} ON COMMIT DELETE ROWS "  # noqa: S608
        f"AS SELECT {names} FROM {table.name} WITH NO DATA"
    )
    return stage


def copy_rows(session: Session, table: str, columns: Sequence[str], rows: Iterable[Row]) -> None:
    """COPY `rows` (values in `columns` order) into `table` (PostgreSQL), in COPY's binary
    format: the client sends each value as the server stores it, with no text to write and
    parse (a `results` row: 1.6 against 6.4 us of the client's CPU; docs: Benchmarks)."""
    driver = driver_connection(session)
    types = _column_types(driver, table, columns)
    names = ", ".join(f'"{name}"' for name in columns)
    with (
        driver.cursor() as cursor,
        cursor.copy(f"COPY {table} ({names}) FROM STDIN (FORMAT BINARY)") as copy,
    ):
        cursor.adapters.register_dumper(None, _json_text_dumper())
        copy.set_types(types)
        for row in rows:
            copy.write_row(row)


# Each connection's column types (oids) of the tables it COPies into, asked once.
_TYPES: weakref.WeakKeyDictionary[Any, dict[tuple[str, tuple[str, ...]], list[int]]] = (
    weakref.WeakKeyDictionary()
)
_TYPES_OF = (
    "SELECT a.atttypid FROM unnest(%s::text[]) WITH ORDINALITY AS c(name, k) "
    "JOIN pg_attribute AS a ON a.attname = c.name AND a.attrelid = %s::regclass ORDER BY c.k"
)


def _column_types(driver: Any, table: str, columns: Sequence[str]) -> list[int]:
    """The type (oid) of each of `columns` of `table`, as the server has it (PostgreSQL)."""
    known = _TYPES.setdefault(driver, {})
    key = (table, tuple(columns))
    if key not in known:
        with driver.cursor() as cursor:
            cursor.execute(_TYPES_OF, (list(columns), table))
            types = [oid for (oid,) in cursor]
        if len(types) != len(columns):
            raise ValueError(f"{table} lacks some of the columns {list(columns)}")
        known[key] = types
    return known[key]


@functools.cache
def _json_text_dumper() -> type:
    """A psycopg dumper writing JSON text, as a row holds it, in jsonb's binary format (a
    version byte, then the text): psycopg's own would write the text as a JSON string."""
    from psycopg import postgres  # PostgreSQL only: SQLite never imports psycopg
    from psycopg.adapt import Dumper
    from psycopg.pq import Format

    class JsonText(Dumper):
        format = Format.BINARY
        oid = postgres.types["jsonb"].oid  # a built-in type: the same oid on every server

        def dump(self, obj: str) -> bytes:
            return JSONB_VERSION + obj.encode()

    return JsonText


def stage_rows(session: Session, name: str, columns: dict[str, str], rows: Sequence[Row]) -> None:
    """Load `rows` into this connection's temporary table `name` (`columns`: name -> SQL type,
    made on first use), emptied first: COPY on PostgreSQL, executemany on SQLite."""
    definition = ", ".join(f"{column} {sql_type}" for column, sql_type in columns.items())
    postgresql = dialect_of(session) == "postgresql"
    connection = session.connection()
    connection.exec_driver_sql(
        f"CREATE TEMPORARY TABLE IF NOT EXISTS {name} ({definition})"
        + (" ON COMMIT DELETE ROWS" if postgresql else "")
    )
    connection.exec_driver_sql(f"DELETE FROM {name}")  # noqa: S608
    if postgresql:
        copy_rows(session, name, list(columns), rows)
    else:
        _insert_values(session, f"INSERT INTO {name} ({', '.join(columns)})", "", rows)
