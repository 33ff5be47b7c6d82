"""Writing a solved batch: result rows, the batch's status and the collection's counters.

Both functions take a Session and never commit: the task commits, so the rows, the flip
of the batch and the counters land in one transaction. A redelivered batch changes
nothing: results are inserted `ON CONFLICT DO NOTHING`, the batch flips only from
`pending`, and the counters move only on that flip.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Self, cast

from sqlalchemy import Table, func, select, update
from sqlalchemy.orm import Session

from db.bulk import dialect_of, insert_rows
from db.counters import advance
from db.errors import UnknownBatch
from db.models import DONE, FAILED, PENDING, RESULT_COLUMNS, Batch, Result
from db.paths import PathRow, insert_paths

BATCH_ERROR_LIMIT = 2_000  # characters of a failed batch's error kept in batches.error

results_table = cast(Table, Result.__table__)
batches_table = cast(Table, Batch.__table__)


# One `results` row: a named tuple whose fields are the table's columns, made from the model
# (db.models.Result), so a column is declared there once. Build it by name
# (`ResultRow(puzzle_id=..., status=..., ...)`): a column missing or unknown is a TypeError,
# whatever the order. Its values are ready to store: `technique_counts` is JSON text, and a
# batch's rows usually share one `solved_at`. A tuple, not a dict a row: it goes to the driver
# as it is and travels small between the pool and the process that stores it. The type checker
# cannot read fields made at run time: to it, a row is a tuple whose fields are Any.
if TYPE_CHECKING:

    class ResultRow(tuple[Any, ...]):
        def __new__(cls, **columns: Any) -> Self: ...
        def __getattr__(self, column: str) -> Any: ...

else:
    ResultRow = namedtuple("ResultRow", RESULT_COLUMNS)

_SOLVED_AT = RESULT_COLUMNS.index("solved_at")


def _stored(session: Session, rows: Sequence[ResultRow]) -> Iterator[tuple[Any, ...]]:
    """The rows as the driver takes them: SQLite has no timestamp type, so `solved_at` goes
    as the text SQLAlchemy writes (rendered once per distinct value, i.e. once a batch)."""
    if dialect_of(session) != "sqlite":
        yield from rows
        return
    render = _timestamp_renderer(session)
    rendered: dict[datetime, Any] = {}
    for row in rows:
        stamp = rendered.get(row.solved_at)
        if stamp is None:
            stamp = rendered[row.solved_at] = render(row.solved_at)
        yield (*row[:_SOLVED_AT], stamp, *row[_SOLVED_AT + 1 :])


def _timestamp_renderer(session: Session) -> Callable[[datetime], Any]:
    dialect = session.get_bind().dialect
    render = results_table.c.solved_at.type.dialect_impl(dialect).bind_processor(dialect)
    return render or (lambda value: value)


def finish_batch(
    session: Session, batch_id: int, status: str, error: str | None
) -> tuple[int, int] | None:
    """Flip the batch from pending to `status` (recording `error`); (collection_id, size) when
    it flipped, None when it was not pending (UnknownBatch when there is no such batch)."""
    batch = batches_table.c
    stmt = (
        update(batches_table)
        .where(batch.id == batch_id, batch.status == PENDING)
        .values(status=status, error=error, attempts=batch.attempts + 1, finished_at=func.now())
        .returning(batch.collection_id, batch.size)
    )
    flipped = session.execute(stmt).first()
    if flipped is None:
        if session.scalar(select(batch.id).where(batch.id == batch_id)) is None:
            raise UnknownBatch(f"no batch has id {batch_id}")
        return None
    return flipped[0], flipped[1]


def insert_results(session: Session, rows: Sequence[ResultRow]) -> int:
    """Store these result rows (a puzzle's result is kept if it has one); how many were new."""
    return insert_rows(
        session, results_table, RESULT_COLUMNS, _stored(session, rows), conflict=("puzzle_id",)
    )


def record_batch(
    session: Session,
    batch_id: int,
    rows: Sequence[ResultRow],
    paths: Sequence[PathRow] = (),
) -> int:
    """Store a batch's result rows (and solving paths) and mark it done; the number of result
    rows really inserted."""
    inserted = insert_results(session, rows)
    insert_paths(session, paths)
    flipped = finish_batch(session, batch_id, DONE, None)
    if flipped is not None:
        collection_id, size = flipped
        advance(session, collection_id, done=size)
    return inserted


def failure_reason(error: BaseException | None) -> str:
    """How a batch's failure is worded in `batches.error`: the error's type and message."""
    return f"{type(error).__name__}: {error}"


def record_batch_failure(session: Session, batch_id: int, error: str) -> bool:
    """Mark a pending batch failed with `error` (cut to `BATCH_ERROR_LIMIT` characters);
    True when this call flipped it."""
    flipped = finish_batch(session, batch_id, FAILED, error[:BATCH_ERROR_LIMIT])
    if flipped is None:
        return False
    collection_id, size = flipped
    advance(session, collection_id, failed=size)
    return True
