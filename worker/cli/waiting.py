"""`import --wait`: a live bar over the collections' progress until every batch is finished,
then one over the deep tier until no rating is pending, saying when no worker consumes the
queue (and what to run) instead of an ETA that never moves. The workers are asked only while
nothing gets finished (`worker.consumers.QueueWatch`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from sqlalchemy.orm import Session, sessionmaker

from db.queries import pending_ratings, progress, rerate_left
from worker.cli.common import console
from worker.cli.progress import Meter, bar
from worker.consumers import QueueWatch

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
    shown, progressed = "", False
    with bar(console, "solving", total, "puzzle", done=finished) as advance:
        while finished < total:
            if (note := watch.note(finished=progressed)) != shown:
                advance(0, note=note)
                if not console.is_terminal:
                    console.print(
                        note or "a worker consumes the queue", markup=False, soft_wrap=True
                    )
                shown = note
            time.sleep(POLL)
            now, total = measure()
            advance(now - finished, total=total)
            finished, progressed = now, now > finished
        advance(0, note="")  # done: whatever the note said no longer holds
    return advance.meter


def wait_for_deep(
    sessions: sessionmaker[Session], collection_ids: list[int], watch: QueueWatch
) -> Meter | None:
    """Return when no rating of the collections' puzzles is pending, with the meter of those
    rated meanwhile (None when none was pending)."""
    return _count_down(
        sessions, lambda session: pending_ratings(session, collection_ids), "deep ratings", watch
    )


def wait_for_rerate(
    sessions: sessionmaker[Session], collection_ids: list[int], watch: QueueWatch
) -> Meter | None:
    """Return when no rerate batch of the collections is pending, with the meter of the
    puzzles rated meanwhile (None when none was pending)."""
    return _count_down(
        sessions, lambda session: rerate_left(session, collection_ids), "rating again", watch
    )


def _count_down(
    sessions: sessionmaker[Session],
    count: Callable[[Session], int],
    description: str,
    watch: QueueWatch,
) -> Meter | None:
    """A bar over what `count` says is left, until nothing is, with the meter of what was
    done meanwhile (None when nothing was left). What is left may grow while other work goes
    on (bulk batches leaving puzzles pending): the total is the most seen."""

    def measure() -> int:
        with sessions() as session:
            return count(session)

    left = measure()
    if not left:
        return None
    shown, progressed = "", False
    with bar(console, description, left, "puzzle") as advance:
        total = left
        while left:
            if (note := watch.note(finished=progressed)) != shown:
                advance(0, note=note)
                if not console.is_terminal:
                    console.print(
                        note or f"a worker consumes queue {watch.queue}",
                        markup=False,
                        soft_wrap=True,
                    )
                shown = note
            time.sleep(POLL)
            now = measure()
            total = max(total, now + advance.meter.count)
            advance(max(0, left - now), total=total)
            left, progressed = now, now < left
        advance(0, note="")
    return advance.meter
