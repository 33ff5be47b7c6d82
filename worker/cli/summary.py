"""The closing summary of `run` and `import`, and the `status` tables (the same numbers).

Per collection: what its lines became (accepted, duplicates, rejected) and how far solving
got (done, failed, remaining: they add up to accepted); the results by status (they add up
to done); the solved puzzles by difficulty label (they add up to solved); their ratings by
state (exact, pending, estimated: they add up to solved) and what made them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from db.queries import collection_status, rejected_lines
from db.tiers import RATING_STATES
from solver import LABELS, STATUSES
from worker.cli.common import show
from worker.cli.progress import counted
from worker.cli.tables import table
from worker.errors import where
from worker.exits import EXIT_EMPTY, EXIT_FAILED, EXIT_OK, EXIT_REJECTED

SHOWN_REJECTIONS = 10
COUNTS = (
    "lines_read",
    "accepted",
    "duplicates",
    "rejected",
    "done",
    "failed",
    "remaining",
    "classes",
    "minimal",
)
COUNT_HEADERS = tuple("lines" if name == "lines_read" else name for name in COUNTS)


NO_COLLECTION = "no collection: import a file with `sudoku-batch run FILE` (or `import FILE`)"


def status_tables(stats: Sequence[Mapping[str, Any]], title: str) -> list[Any]:
    """Four tables per set of collections: the counts (classes: the accepted puzzles distinct
    up to symmetry; minimal: the solved puzzles that are minimal), the results by status, the
    solved puzzles by difficulty label (every status and label, in order, even when 0) and their
    ratings; with no collection, a line saying so instead of tables of headers only."""
    if not stats:
        return [f"{title}: {NO_COLLECTION}"]
    counts = [[s["name"], *(s[name] for name in COUNTS)] for s in stats]
    statuses = [[s["name"], *(s["statuses"].get(name, 0) for name in STATUSES)] for s in stats]
    labels = [[s["name"], *(s["difficulty"].get(label, 0) for label in LABELS)] for s in stats]
    ratings = [
        [s["name"], *(s["ratings"].get(state, 0) for state in RATING_STATES), rated_with(s)]
        for s in stats
    ]
    return [
        table(title, ["collection", *COUNT_HEADERS], counts),
        table("Results by status (they add up to done)", ["collection", *STATUSES], statuses),
        table("Difficulty of the solved puzzles", ["collection", *LABELS], labels),
        table(
            "Ratings of the solved puzzles (docs: Exact ratings and their cost)",
            ["collection", *RATING_STATES, "rated with"],
            ratings,
        ),
    ]


def rated_with(stats: Mapping[str, Any]) -> str:
    """`classic, solver 1.3.0: bulk 262, deep 28`: what made a collection's results."""
    groups: dict[tuple[str, str], list[str]] = {}
    for profile, version, tier, count in stats["rated_with"]:
        groups.setdefault((profile, version), []).append(f"{tier} {count:,}")
    return (
        "; ".join(
            f"{profile}, solver {version}: {', '.join(tiers)}"
            for (profile, version), tiers in groups.items()
        )
        or "-"
    )


def print_summary(
    sessions: sessionmaker[Session],
    collection_ids: Sequence[int],
    heading: str,
    solved: int | None = None,
) -> list[dict[str, Any]]:
    """Print the summary tables, titled `Summary: <heading>` (which says how many of the done
    puzzles were solved before, when `solved`, those this command solved, counts fewer), and
    the first rejected lines; return the figures."""
    with sessions() as session:
        stats = [dict(s) for s in collection_status(session, ids=collection_ids)]
        shown = {s["id"]: rejected_lines(session, s["id"], SHOWN_REJECTIONS) for s in stats}
    before = sum(s["done"] for s in stats) - (solved or 0)
    if solved is not None and before > 0:
        heading += f" ({before:,} more solved before: by an earlier run, or in another collection)"
    if not stats:  # the input was empty, unreadable or refused (said above): no tables
        show(f"Summary: {heading}; nothing was stored")
        return stats
    show(*status_tables(stats, f"Summary: {heading}"))
    for s in stats:
        if not s["rejected"]:
            continue
        show(
            f"[yellow]{counted(s['rejected'], 'rejected line')}[/] in {s['name']}"
            f" ({s['source_file']}):"
        )
        for line in shown[s["id"]]:
            place = where(s["source_file"], line["line"], line["column"])
            show(f"  {place}: {line['reason']}")
        if s["rejected"] > SHOWN_REJECTIONS:
            show(f"  ... and {s['rejected'] - SHOWN_REJECTIONS:,} more (table rejected_lines)")
    return stats


def exit_code(stats: Sequence[Mapping[str, Any]], unread_files: int, empty_files: int = 0) -> int:
    """0 all good; 1 a file unread or batches failed; 4 a file held no puzzle line; 3 some
    lines rejected."""
    if unread_files or any(s["failed"] for s in stats):
        return EXIT_FAILED
    if empty_files:
        return EXIT_EMPTY
    if any(s["rejected"] for s in stats):
        return EXIT_REJECTED
    return EXIT_OK
