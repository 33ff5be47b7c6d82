"""The counters of `collections`, advanced in SQL (never read-modify-write in Python)."""

from __future__ import annotations

from typing import cast

from sqlalchemy import Table, update
from sqlalchemy.orm import Session

from db.models import Collection

COUNTERS = ("lines_read", "accepted", "duplicates", "rejected", "total", "done", "failed")
collections_table = cast(Table, Collection.__table__)


def advance(session: Session, collection_id: int, **deltas: int) -> None:
    """Add `deltas` (counter name -> amount) to one collection's counters."""
    unknown = set(deltas) - set(COUNTERS)
    if unknown:
        raise ValueError(f"unknown counters {sorted(unknown)}; known: {', '.join(COUNTERS)}")
    table = collections_table.c
    changes = {name: table[name] + delta for name, delta in deltas.items() if delta}
    if changes:  # a Core statement: loaded Collection objects are not refreshed (no ORM cost)
        session.execute(update(collections_table).where(table.id == collection_id).values(changes))
