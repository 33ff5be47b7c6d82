"""`import --wait`: a live bar over the collections' progress until every batch is finished,
saying when no worker consumes the queue (and what to run) instead of an ETA that never moves.
"""

from __future__ import annotations

import time

from sqlalchemy.orm import Session, sessionmaker

from db.queries import progress
from worker.cli.common import console
from worker.consumers import QueueWatch
from worker.progress import Meter, bar

POLL = 0.5  # seconds between two reads of the progress counters


def wait_for(
    sessions: sessionmaker[Session], collection_ids: list[int], watch: QueueWatch
) -> Meter:
    """Return when every batch of the collections is done or failed, with the meter of the
    puzzles finished meanwhile. Waits on while no worker consumes the queue (one may start
    later), saying so in the progress line, and, when the line is not drawn (not a
    terminal), in a line of its own each time it changes."""

    def measure() -> tuple[int, int]:
        with sessions() as session:
            pairs = [progress(session, collection_id) for collection_id in collection_ids]
        return sum(d for d, _ in pairs), sum(t for _, t in pairs)

    finished, total = measure()
    shown = ""
    with bar(console, "solving", total, "puzzle", done=finished) as advance:
        while finished < total:
            if (note := watch.note()) != shown:
                advance(0, note=note)
                if not console.is_terminal:
                    console.print(
                        note or "a worker consumes the queue", markup=False, soft_wrap=True
                    )
                shown = note
            time.sleep(POLL)
            now, total = measure()
            advance(now - finished, total=total)
            finished = now
        advance(0, note="")  # done: whatever the note said no longer holds
    return advance.meter
