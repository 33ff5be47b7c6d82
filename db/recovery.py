"""The database side of finding lost batch messages: what was sent and is still pending.

A batch is `pending` from its import until a worker stores it; `queued_at` says when its
message was last sent. The worker's lost-message check (worker/recovery.py) compares these
with what the broker holds and re-sends the difference, claiming each batch here first so
that two workers checking at once send it only once. Neither function commits.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from db.models import PENDING, Batch


def sent_pending_batches(session: Session, limit: int = 1_000) -> dict[int, datetime]:
    """`{batch_id: queued_at}` of pending batches that were sent to the queue, oldest first."""
    rows = session.execute(
        select(Batch.id, Batch.queued_at)
        .where(Batch.status == PENDING, Batch.queued_at.is_not(None))
        .order_by(Batch.queued_at, Batch.id)
        .limit(limit)
    )
    return {batch_id: queued_at for batch_id, queued_at in rows if queued_at is not None}


def claim_resend(session: Session, batch_id: int, queued_at: datetime) -> bool:
    """Stamp the batch as sent again now, if it is still pending and was last sent at
    `queued_at`; False when another worker (or `import --requeue`) got there first.

    (`<=`, not `==`: SQLite keeps `now()` to the second as text, and the value read back
    is written with microseconds, which compare as a longer string.)"""
    claimed = session.execute(
        update(Batch)
        .where(Batch.id == batch_id, Batch.status == PENDING, Batch.queued_at <= queued_at)
        .values(queued_at=func.now())
        .returning(Batch.id)
    ).first()
    return claimed is not None
