"""Deleting and replacing collections: what goes with them, what stays, which names free up."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from db.engine import make_engine, session_factory
from db.errors import UnknownCollection
from db.imports import add_records, get_or_create_collection
from db.migrate import upgrade
from db.models import (
    Batch,
    BatchPuzzle,
    Collection,
    CollectionPuzzle,
    Puzzle,
    RejectedLine,
    Result,
    SolvingPath,
)
from db.paths import PathRow, insert_paths
from db.ratings import new_batches
from db.removal import Pruned, Removed, delete_collection, drop_if_empty, prune_orphans
from db.results import record_batch
from tests.db.conftest import grid, result_row

OLD, NEW = "a" * 64, "b" * 64
REJECTED = [(9, "12345", "expected 81 cells, got 5", None)]


def count(session: Session, model: type, **where: object) -> int:
    stmt = select(func.count()).select_from(model).filter_by(**where)
    return session.scalar(stmt) or 0


def solved_collection(session: Session, name: str, numbers: range) -> int:
    """A collection holding one line per puzzle grid(n), one rejected line, every batch solved."""
    c = get_or_create_collection(session, name, f"/data/{name}.txt", OLD)
    lines = [(line, grid(n)) for line, n in enumerate(numbers, 1)]
    for work in add_records(session, c.id, lines, REJECTED, batch_size=2):
        record_batch(session, work.batch_id, [result_row(pid) for pid, _ in work.puzzles])
    return c.id


def test_delete_removes_the_lines_rejections_and_batches_and_keeps_puzzles_and_results(
    session: Session,
) -> None:
    """The collection and everything it owns go; the puzzles and their results stay, so the
    other collection sharing some of them is untouched and nothing needs solving again."""
    gone = solved_collection(session, "gone", range(1, 6))
    kept = solved_collection(session, "kept", range(4, 8))
    before = {m: count(session, m) for m in (Puzzle, Result)}
    kept_lines = count(session, CollectionPuzzle, collection_id=kept)

    assert delete_collection(session, "gone") == Removed(lines=5, rejected=1, batches=3)

    assert session.get(Collection, gone) is None
    for model in (CollectionPuzzle, RejectedLine, Batch):
        assert count(session, model, collection_id=gone) == 0
    assert count(session, CollectionPuzzle, collection_id=kept) == kept_lines
    assert {m: count(session, m) for m in (Puzzle, Result)} == before


def test_deleting_an_unknown_collection_says_so(session: Session) -> None:
    """No such name: UnknownCollection, naming it."""
    with pytest.raises(UnknownCollection, match="no collection named 'nope'"):
        delete_collection(session, "nope")


def test_replace_takes_the_new_file_and_keeps_the_results_of_puzzles_it_shares(
    session: Session,
) -> None:
    """--replace: the old lines, rejections and batches go, counters restart from zero, and a
    puzzle of the new file solved under the old one is not batched again."""
    old = solved_collection(session, "c", range(1, 4))
    c = get_or_create_collection(session, "c", "/data/c2.txt", NEW, replace=True)
    assert (c.id, c.source_file, c.content_hash) == (old, "/data/c2.txt", NEW)
    assert (c.lines_read, c.rejected, c.done) == (0, 0, 0)
    assert count(session, RejectedLine, collection_id=c.id) == 0
    work = add_records(session, c.id, [(1, grid(3)), (2, grid(4))], [], batch_size=10)
    assert [givens for w in work for _, givens in w.puzzles] == [grid(4)]
    session.refresh(c)
    assert (c.lines_read, c.total, c.done) == (2, 2, 1)


def test_replace_with_the_same_content_resumes_instead(session: Session) -> None:
    """Replacing a collection by the file it already holds removes nothing."""
    old = solved_collection(session, "c", range(1, 4))
    again = get_or_create_collection(session, "c", "/data/c.txt", OLD, replace=True)
    assert again.id == old
    assert count(session, CollectionPuzzle, collection_id=old) == 3


def test_a_collection_holding_no_line_takes_another_file_without_replace(
    session: Session,
) -> None:
    """A name left by an import that stored nothing (empty, failed, stopped at once) is free."""
    first = get_or_create_collection(session, "c", "/data/bad.csv", OLD)
    fixed = get_or_create_collection(session, "c", "/data/fixed.csv", NEW)
    assert (fixed.id, fixed.source_file, fixed.content_hash) == (first.id, "/data/fixed.csv", NEW)


def test_drop_if_empty_drops_only_a_collection_that_holds_nothing(session: Session) -> None:
    """An empty collection is dropped; one holding a single rejected line is kept."""
    empty = get_or_create_collection(session, "empty", "/data/empty.txt", OLD)
    rejected = get_or_create_collection(session, "rejected", "/data/rejected.txt", OLD)
    add_records(session, rejected.id, [], REJECTED, batch_size=10)
    assert drop_if_empty(session, empty.id)
    assert not drop_if_empty(session, rejected.id)
    assert session.scalars(select(Collection.name)).all() == ["rejected"]


def test_pruning_removes_the_puzzles_no_collection_holds_with_what_refers_to_them(
    session: Session,
) -> None:
    """After a delete, the puzzles only it held go with their results, solving paths and
    places in rating batches; the puzzles another collection holds stay, with theirs."""
    solved_collection(session, "gone", range(1, 6))
    kept = solved_collection(session, "kept", range(4, 8))
    held = {pid for (pid,) in session.execute(select(CollectionPuzzle.puzzle_id))}
    insert_paths(session, [PathRow(pid, "[]", False, "classic") for pid in held])
    (deep,) = new_batches(session, kept, "deep", [[(min(held), grid(0))]])
    session.commit()
    delete_collection(session, "gone")
    session.commit()
    assert prune_orphans(session) == Pruned(puzzles=3, results=3, paths=3)
    session.commit()
    left = {pid for (pid,) in session.execute(select(Puzzle.id))}
    assert left == {pid for (pid,) in session.execute(select(CollectionPuzzle.puzzle_id))}
    assert count(session, Result) == count(session, SolvingPath) == len(left) == 4
    assert count(session, BatchPuzzle, batch_id=deep.batch_id) == 0  # its puzzle only "gone" held
    assert prune_orphans(session) == Pruned(0, 0, 0)


def test_pruning_on_postgresql_waits_for_an_import_storing_puzzles(postgres_url: str) -> None:
    """No foreign key keeps a line from naming a pruned puzzle, so a prune does not run beside
    an import that stores puzzles: it waits for the import's commit (here, past its lock
    timeout), then prunes what no line holds, and the import's puzzles stay."""
    upgrade(postgres_url)
    engine = make_engine(postgres_url)
    sessions = session_factory(engine)
    with sessions() as importing, sessions() as pruning:
        solved_collection(importing, "gone", range(1, 4))
        importing.commit()
        delete_collection(importing, "gone")
        importing.commit()
        c = get_or_create_collection(importing, "new", "/data/new.txt", NEW)
        add_records(importing, c.id, [(1, grid(2)), (2, grid(9))], [], batch_size=10)
        pruning.execute(text("SET lock_timeout = '200ms'"))
        with pytest.raises(OperationalError, match="lock timeout"):
            prune_orphans(pruning)
        pruning.rollback()
        importing.commit()
        assert prune_orphans(pruning) == Pruned(puzzles=2, results=2, paths=0)
        pruning.commit()
        left = {pid for (pid,) in pruning.execute(select(Puzzle.id))}
        held = {pid for (pid,) in pruning.execute(select(CollectionPuzzle.puzzle_id))}
    engine.dispose()
    assert left == held
    assert len(left) == 2
