"""Writing a solved batch: result rows, the batch's status and the collection's counters.

Both functions take a Session and never commit: the task commits, so the rows, the flip
of the batch and the counters land in one transaction. A redelivered batch changes
nothing: results are inserted `ON CONFLICT DO NOTHING`, the batch flips only from
`pending`, and the counters move only on that flip.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import Table, select, update
from sqlalchemy.orm import Session

from db.bulk import insert_ignore
from db.counters import advance
from db.errors import UnknownBatch
from db.models import RESULT_COLUMNS, Batch, Result

results_table = cast(Table, Result.__table__)
_COLUMNS = frozenset(RESULT_COLUMNS)


def _result_row(row: dict[str, Any]) -> dict[str, Any]:
    """The row checked against the contract (keys = the results columns), timestamps parsed."""
    if row.keys() != _COLUMNS:
        missing = sorted(_COLUMNS - row.keys())
        extra = sorted(row.keys() - _COLUMNS)
        raise ValueError(
            f"result row keys differ from the results columns: "
            f"missing {missing}, unexpected {extra}"
        )
    solved_at = row["solved_at"]
    if isinstance(solved_at, str):
        return {**row, "solved_at": datetime.fromisoformat(solved_at)}
    return row


def _finish(
    session: Session, batch_id: int, status: str, error: str | None
) -> tuple[int, int] | None:
    """Flip the batch from pending to `status`; (collection_id, size) when it flipped."""
    stmt = (
        update(Batch)
        .where(Batch.id == batch_id, Batch.status == "pending")
        .values(
            status=status, error=error, attempts=Batch.attempts + 1, finished_at=datetime.now(UTC)
        )
        .returning(Batch.collection_id, Batch.size)
    )
    flipped = session.execute(stmt, execution_options={"synchronize_session": False}).first()
    if flipped is None:
        if session.scalar(select(Batch.id).where(Batch.id == batch_id)) is None:
            raise UnknownBatch(f"no batch has id {batch_id}")
        return None
    return flipped[0], flipped[1]


def record_batch(session: Session, batch_id: int, rows: list[dict[str, Any]]) -> int:
    """Store a batch's result rows and mark it done; the number of rows really inserted."""
    checked = [_result_row(row) for row in rows]
    inserted = insert_ignore(
        session, results_table, checked, conflict=("puzzle_id",), returning=("puzzle_id",)
    )
    flipped = _finish(session, batch_id, "done", None)
    if flipped is not None:
        collection_id, size = flipped
        advance(session, collection_id, done=size)
    return len(inserted)


def record_batch_failure(session: Session, batch_id: int, error: str) -> bool:
    """Mark a pending batch failed with `error`; True when this call flipped it."""
    flipped = _finish(session, batch_id, "failed", error)
    if flipped is None:
        return False
    collection_id, size = flipped
    advance(session, collection_id, failed=size)
    return True
