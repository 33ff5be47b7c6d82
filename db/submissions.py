"""Puzzle strings pushed by producers (task `sudoku.solve`), stored and read back by message.

A producer collection is a collection whose lines are pushed puzzles, one line per string in
the order the workers stored them; a string that is not a puzzle is a rejected line, with
its reason and column, as in a file. `submissions` holds a row per message: its task id, the
producer's reference and its lines (a message's strings are consecutive lines, in their
order: position p is line first_line + p), so a list of 500 strings costs one row, not 500.

A worker stores a group of messages in one transaction (`store_pushed`); a message whose
task id is already in `submissions` was stored before (a redelivery) and is skipped, and the
unique task_id makes a second store of it fail rather than double it. Every function takes
a Session and never commits.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, cast

from sqlalchemy import (
    ColumnElement,
    CompoundSelect,
    Select,
    Table,
    and_,
    null,
    select,
    union_all,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from db.bulk import dialect_of, driver_connection, insert_rows
from db.errors import CollectionConflict, DuplicateDelivery
from db.imports import BatchWork, add_records
from db.known import LOOKUP_PAGE, Known, stored_puzzles
from db.models import (
    FILE,
    PRODUCER,
    RESULT_COLUMNS,
    Collection,
    CollectionPuzzle,
    Puzzle,
    RejectedLine,
    Result,
    Submission,
)
from db.ratings import queue_pending
from db.results import ResultRow, insert_results
from db.tiers import PENDING as PENDING_RATING

DEFAULT_COLLECTION = "pushed"  # the producer collection of messages that name none
REJECTED = "rejected"  # the status of a pushed string that is not a puzzle (see its reason)
SOURCE = "(pushed by producers)"  # source_file of a producer collection

submissions_table = cast(Table, Submission.__table__)
SUBMISSION_COLUMNS = ("task_id", "collection_id", "first_line", "size", "reference")
# What a result says about one pushed string, in this order (the task's JSON result too).
# A result's own fields a producer reads (its puzzle is shown by id and givens; the host that
# solved it is the operators' business).
RESULT_FIELDS = tuple(name for name in RESULT_COLUMNS if name not in ("puzzle_id", "worker_host"))
SHOWN = (
    "id",
    "task_id",
    "position",
    "reference",
    "collection",
    "line",
    "puzzle_id",
    "puzzle",
    *RESULT_FIELDS,
    "column",
    "raw_text",
)


@dataclass(frozen=True)
class Pushed:
    """One message: its task id, its strings as sent, and where they go."""

    task_id: str
    strings: Sequence[str]
    collection: str = DEFAULT_COLLECTION
    reference: str | None = None
    one: bool = False  # sent as one string, not a list: its result is a dict, not a list


@dataclass(frozen=True)
class Parsed:
    """What the worker made of one pushed string: its normalised givens, or why it is not a
    puzzle (and the 1-based column of the offending character, when there is one)."""

    givens: str | None
    reason: str | None = None
    column: int | None = None


def receipt_id(task_id: str, position: int) -> str:
    """The id a producer holds for one pushed string: its message's task id and position."""
    return f"{task_id}:{position}"


def parse_receipt_id(text: str) -> tuple[str, int] | None:
    """(task id, position) of a receipt id (`receipt_id`), None when `text` is not one."""
    task_id, colon, position = text.strip().rpartition(":")
    if not (colon and position.isdigit() and task_id) or any(c.isspace() for c in task_id):
        return None
    return task_id, int(position)


# What to look up: a pushed string by (task id, position), or a puzzle by its givens.
Wanted = tuple[str, int] | str


def results_of(session: Session, wanted: Sequence[Wanted]) -> list[dict[str, Any] | None]:
    """The result of each wanted item, in order, None where there is none (yet)."""
    by_task = pushed_results(session, {item[0] for item in wanted if isinstance(item, tuple)})
    by_puzzle = results_by_puzzle(session, {item for item in wanted if isinstance(item, str)})
    found: list[dict[str, Any] | None] = []
    for item in wanted:
        if isinstance(item, str):
            found.append(by_puzzle.get(item))
            continue
        shown = by_task.get(item[0], [])
        found.append(shown[item[1]] if item[1] < len(shown) else None)
    return found


# On PostgreSQL each look-up below is one index probe a value (a LATERAL subquery with LIMIT
# 1, the values one array parameter): as `IN (...)`, with DISTINCT or a join, the planner
# reads whole tables (its statistics lag behind tables that grow during a run), which a
# group's look-up and a waiting Client's every POLL would pay, more as the tables grow.
# Identifiers are the models'.
STORED_TASKS = (
    "SELECT wanted.value FROM unnest(%s::text[]) AS wanted(value) CROSS JOIN LATERAL ("  # noqa: S608
    f"SELECT 1 FROM {Submission.__tablename__} "
    f"WHERE {Submission.__tablename__}.task_id = wanted.value LIMIT 1) AS found"
)


def _found(
    session: Session, values: Iterable[str], lateral: str, matching: Callable[[list[str]], Any]
) -> set[str]:
    """Those of `values` found: by `lateral` on PostgreSQL, else by the statement
    `matching(page)` a page of them at a time."""
    wanted = sorted(set(values))
    if dialect_of(session) == "postgresql":
        return {row[0] for row in driver_connection(session).execute(lateral, (wanted,))}
    found: set[str] = set()
    for start in range(0, len(wanted), LOOKUP_PAGE):
        found.update(session.scalars(matching(wanted[start : start + LOOKUP_PAGE])))
    return found


def stored_tasks(session: Session, task_ids: Iterable[str]) -> set[str]:
    """Those of these messages (task ids) already stored."""
    return _found(
        session,
        task_ids,
        STORED_TASKS,
        lambda page: select(Submission.task_id).where(Submission.task_id.in_(page)).distinct(),
    )


def producer_collection(session: Session, name: str) -> tuple[int, int]:
    """The producer collection called `name`, created if new, locked until commit (its lines
    are numbered in order); (its id, its last line). `CollectionConflict` if `name` is an
    imported file's."""
    values = {"name": name, "source_file": SOURCE, "content_hash": "", "origin": PRODUCER}
    dialect_insert = postgresql.insert if dialect_of(session) == "postgresql" else sqlite.insert
    session.execute(dialect_insert(Collection).values(values).on_conflict_do_nothing())
    # An UPDATE, not a SELECT: it takes the row's lock (the database's, on SQLite) at once.
    lock = (
        update(Collection)
        .where(Collection.name == name)
        .values(lines_read=Collection.lines_read)
        .returning(Collection.id, Collection.lines_read, Collection.origin)
    )
    collection_id, last_line, origin = session.execute(lock).one()
    if origin == FILE:
        raise CollectionConflict(_refusal(name))
    return collection_id, last_line


@dataclass(frozen=True)
class Stored:
    """What `store_pushed` did: the results it inserted, the messages it refused (task id ->
    why: their collection name is an imported file's), and the deep batches the pending
    ratings need (stamped sent: the caller sends them after commit)."""

    inserted: int
    refused: dict[str, str]
    deep: list[BatchWork] = field(default_factory=list)


def store_pushed(
    session: Session,
    messages: Sequence[Pushed],
    parsed: Mapping[str, Parsed],
    result_rows: Callable[[Sequence[tuple[int, str]]], list[ResultRow]],
) -> Stored:
    """Store the messages' strings on new lines of their producer collections, the results
    of their puzzles that have none yet (`result_rows` makes them from (puzzle id, givens),
    all at once) and a submission per message. `parsed` maps each string to what it is.

    Puzzles and results go first, in givens order (one lock order for every worker), with no
    collection locked: they are most of the writing, and workers storing into the same
    collection do it side by side. Each collection is then locked in name order, only to
    number its new lines and count them."""
    by_collection: dict[str, list[Pushed]] = defaultdict(list)
    for message in messages:
        by_collection[message.collection].append(message)
    refused = {
        message.task_id: _refusal(name)
        for name in _file_collections(session, by_collection)
        for message in by_collection.pop(name)
    }
    givens = sorted(
        {
            found.givens
            for batch in by_collection.values()
            for message in batch
            for text in message.strings
            if (found := parsed[text]).givens is not None
        }
    )
    known, earlier = stored_puzzles(session, list(enumerate(givens)))
    todo = sorted((puzzle_id, text) for text, puzzle_id in known.ids.items())
    todo = [(puzzle_id, text) for puzzle_id, text in todo if puzzle_id not in known.solved]
    rows = result_rows(todo) if todo else []
    inserted = insert_results(session, rows)
    known.solved.update(puzzle_id for puzzle_id, _ in todo)
    pending = {row.puzzle_id for row in rows if row.rating_state == PENDING_RATING}
    deep: list[BatchWork] = []
    for name in sorted(by_collection):
        try:
            held = _store_lines(session, name, by_collection[name], parsed, (known, earlier))
        except CollectionConflict as exc:  # an import took the name since the first look
            refused.update(dict.fromkeys((m.task_id for m in by_collection[name]), str(exc)))
            continue
        if mine := pending & held[1]:  # a deep batch each, in the first collection holding it
            deep += queue_pending(session, held[0], mine, queued=True)
    return Stored(inserted, refused, deep)


def _refusal(name: str) -> str:
    return f"collection {name!r} holds an imported file: push to another collection name"


def _file_collections(session: Session, names: Iterable[str]) -> list[str]:
    """Those of these collection names that hold an imported file."""
    stmt = select(Collection.name).where(
        Collection.name.in_(list(names)), Collection.origin == FILE
    )
    return sorted(session.scalars(stmt))


def _store_lines(
    session: Session,
    name: str,
    messages: Sequence[Pushed],
    parsed: Mapping[str, Parsed],
    puzzles: tuple[Known, list[int]],
) -> tuple[int, set[int]]:
    """Number the messages' strings as new lines of collection `name` (locked until commit)
    and store a submission for each; their puzzles and results are stored already. Returns
    the collection's id and the ids of the puzzles its new lines hold."""
    collection_id, last = producer_collection(session, name)
    accepted: list[tuple[int, str]] = []
    rejected: list[tuple[int, str, str, int | None]] = []
    rows: list[tuple[Any, ...]] = []
    line = last
    for message in messages:
        rows.append(
            (message.task_id, collection_id, line + 1, len(message.strings), message.reference)
        )
        for text in message.strings:
            line += 1
            found = parsed[text]
            if found.givens is None:
                rejected.append((line, text, found.reason or "", found.column))
            else:
                accepted.append((line, found.givens))
    one_batch = max(1, len(accepted))
    work = add_records(session, collection_id, accepted, rejected, one_batch, puzzles=puzzles)
    if work:  # pragma: no cover - every puzzle was given its result above
        raise AssertionError(f"collection {name!r}: {len(work)} batches left to solve")
    stored = insert_rows(
        session, submissions_table, SUBMISSION_COLUMNS, rows, conflict=("task_id",)
    )
    if stored != len(rows):  # another worker stored one of these messages meanwhile
        raise DuplicateDelivery(
            f"{len(rows) - stored} of {len(rows)} messages were stored by another worker meanwhile"
        )
    return collection_id, {puzzles[0].ids[givens] for _, givens in accepted}


def _shown_query(where: ColumnElement[bool]) -> CompoundSelect[Any]:
    """Each string of the messages `where` picks, with its line's puzzle and result or its
    rejected line, ordered by message (submission id) and position. A message's strings are
    a range of lines: one range scan of each line table's primary key a message."""

    def strings(lines: Any, *shown: Any) -> Select[Any]:
        return (
            select(
                Submission.id.label("submission"),
                Submission.task_id,
                (lines.line - Submission.first_line).label("position"),
                Submission.reference,
                Collection.name,
                lines.line,
                *shown,
            )
            .join(Collection, Collection.id == Submission.collection_id)
            .join(
                lines,
                and_(
                    lines.collection_id == Submission.collection_id,
                    lines.line >= Submission.first_line,
                    lines.line < Submission.first_line + Submission.size,
                ),
            )
            .where(where)
        )

    result_columns = [getattr(Result, name) for name in RESULT_FIELDS]
    solved = strings(
        CollectionPuzzle,
        CollectionPuzzle.puzzle_id,
        Puzzle.givens,
        *result_columns,
        null().label("column"),
        null().label("raw_text"),
        null().label("rejected_reason"),
    )
    solved = solved.join(Puzzle, Puzzle.id == CollectionPuzzle.puzzle_id).outerjoin(
        Result, Result.puzzle_id == CollectionPuzzle.puzzle_id
    )
    refused = strings(
        RejectedLine,
        null(),
        null(),
        *(null() for _ in result_columns),
        RejectedLine.column,
        RejectedLine.raw_text,
        RejectedLine.reason,
    )
    both = union_all(solved, refused)
    return both.order_by(both.selected_columns.submission, both.selected_columns.position)


_RENAMED = {"collection": "name", "puzzle": "givens"}  # a SHOWN name -> its column's


def _shown_rows(result: Any) -> Iterator[dict[str, Any]]:
    """Each row of `_shown_query` as what `SHOWN` says of it, in that order. Read straight
    from the Core rows, columns picked by position, each timestamp written out once (a
    Client waiting on 200,000 puzzles reads them all: the ORM's row objects cost 30% more)."""
    keys = list(result.keys())
    names = [name for name in SHOWN if _RENAMED.get(name, name) in keys]
    pick = itemgetter(*(keys.index(_RENAMED.get(name, name)) for name in names))
    task_at, position_at = keys.index("task_id"), keys.index("position")
    refusal_at = keys.index("rejected_reason")
    stamps: dict[Any, str] = {}
    for row in result:
        values: dict[str, Any] = {"id": receipt_id(row[task_at], row[position_at])}
        values.update(zip(names, pick(row), strict=True))
        if row[refusal_at] is not None:
            values["status"], values["reason"] = REJECTED, row[refusal_at]
        if (stamp := values["solved_at"]) is not None:
            if (text := stamps.get(stamp)) is None:
                text = stamps[stamp] = stamp.isoformat()
            values["solved_at"] = text
        yield values


def pushed_results(session: Session, task_ids: Iterable[str]) -> dict[str, list[dict[str, Any]]]:
    """task id -> what became of each string of that message, in position order (JSON-ready:
    `status` is the result's, `rejected` for a string that is not a puzzle, None while the
    puzzle waits for its result); a message not stored yet is absent."""
    ids = sorted(set(task_ids))
    found: dict[str, list[dict[str, Any]]] = {}
    for start in range(0, len(ids), LOOKUP_PAGE):
        page = ids[start : start + LOOKUP_PAGE]
        stmt = _shown_query(Submission.task_id.in_(page))
        for shown in _shown_rows(session.connection().execute(stmt)):
            found.setdefault(shown["task_id"], []).append(shown)
    return found


def results_by_puzzle(session: Session, givens: Iterable[str]) -> dict[str, dict[str, Any]]:
    """normalised givens -> the puzzle's result (JSON-ready, the columns of `SHOWN` a puzzle
    has), for those of these puzzles that have one, however they came."""
    wanted = sorted(set(givens))
    found: dict[str, dict[str, Any]] = {}
    for start in range(0, len(wanted), LOOKUP_PAGE):
        page = wanted[start : start + LOOKUP_PAGE]
        stmt = (
            select(Puzzle.id, Puzzle.givens, *(getattr(Result, name) for name in RESULT_FIELDS))
            .join(Result, Result.puzzle_id == Puzzle.id)
            .where(Puzzle.givens.in_(page))
        )
        for row in session.execute(stmt):
            values = dict(row._mapping)
            values["puzzle_id"] = values.pop("id")
            values["puzzle"] = values.pop("givens")
            values["solved_at"] = values["solved_at"].isoformat()
            found[values["puzzle"]] = values
    return found


def missing_tasks(session: Session, task_ids: Iterable[str]) -> list[str]:
    """Those of these messages not stored (yet): still queued, or lost with a broker."""
    ids = list(dict.fromkeys(task_ids))
    stored = stored_tasks(session, ids)
    return [task_id for task_id in ids if task_id not in stored]


def references(session: Session, reference: str) -> Iterator[dict[str, Any]]:
    """What became of every string pushed with this reference, in the order stored."""
    stmt = _shown_query(Submission.reference == reference)
    yield from _shown_rows(session.connection().execute(stmt))
