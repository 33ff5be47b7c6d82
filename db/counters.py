"""The counters of `collections`, advanced in SQL (never read-modify-write in Python)."""

from __future__ import annotations

from sqlalchemy import update
from sqlalchemy.orm import Session

from db.models import Collection

COUNTERS = ("lines_read", "accepted", "duplicates", "rejected", "total", "done", "failed")


def advance(session: Session, collection_id: int, **deltas: int) -> None:
    """Add `deltas` (counter name -> amount) to one collection's counters."""
    unknown = set(deltas) - set(COUNTERS)
    if unknown:
        raise ValueError(f"unknown counters {sorted(unknown)}; known: {', '.join(COUNTERS)}")
    changes = {name: getattr(Collection, name) + delta for name, delta in deltas.items() if delta}
    if changes:
        session.execute(
            update(Collection).where(Collection.id == collection_id).values(changes),
            execution_options={"synchronize_session": "fetch"},
        )
