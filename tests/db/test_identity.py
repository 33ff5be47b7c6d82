"""Puzzle identity in SQL: canonical forms stored at import, isomorphs across collections."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from sqlalchemy import select, text
from sqlalchemy.orm import Session

import solver
from db.imports import add_records, get_or_create_collection
from db.models import Puzzle
from db.paths import PathRow
from db.queries import Filters, collection_status, find_results, stream_results
from db.queries import exported as exported_columns
from db.results import record_batch
from db.views import puzzle_results
from tests.db.conftest import result_row
from tests.db.test_queries import example_queries
from tests.solver.grids import transformed

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "sample.txt"
P1, P2, P3 = [line for line in SAMPLE.read_text().split("\n") if line[:1] not in "#"][100:103]
RNG = random.Random(15)
P1_DISGUISED, P2_DISGUISED = transformed(P1, RNG), transformed(P2, RNG)


@pytest.fixture
def isomorphs(session: Session) -> dict[str, int]:
    """Collection `a` holds P1, P2 and a disguise of P1; `b` holds a disguise of P2 and P3.
    Every puzzle is solved, the disguise of P2 marked not minimal."""
    ids = {}
    for name, puzzles in (("a", [P1, P2, P1_DISGUISED]), ("b", [P2_DISGUISED, P3])):
        collection = get_or_create_collection(session, name, f"{name}.txt", name * 64)
        work = add_records(session, collection.id, list(enumerate(puzzles, 1)), [], 10)
        for batch in work:
            rows = [result_row(pid, is_minimal=g != P2_DISGUISED) for pid, g in batch.puzzles]
            record_batch(session, batch.batch_id, rows)
        ids[name] = collection.id
    session.commit()
    return ids


def test_every_imported_puzzle_is_stored_with_its_canonical_form_and_key(
    session: Session, isomorphs: dict[str, int]
) -> None:
    """The stored form and key are the solver's, and a puzzle and its disguise share them."""
    rows = session.execute(select(Puzzle.givens, Puzzle.canonical, Puzzle.canonical_key)).all()
    stored = {givens: (form, key) for givens, form, key in rows}
    puzzles = (P1, P2, P3, P1_DISGUISED, P2_DISGUISED)
    forms = {p: solver.canonical(p) for p in puzzles}
    assert stored == {p: (forms[p], solver.canonical_key(forms[p])) for p in puzzles}
    assert stored[P1] == stored[P1_DISGUISED] != stored[P2] == stored[P2_DISGUISED]


def test_puzzles_whose_keys_collide_are_not_taken_for_isomorphs(
    session: Session, isomorphs: dict[str, int]
) -> None:
    """Two forms may share a key (odds of one in 2**64): P3 given P2's key is still no
    isomorph of P2, in the view and in the documented query."""
    key = session.scalar(select(Puzzle.canonical_key).where(Puzzle.givens == P2))
    session.execute(
        text("UPDATE puzzles SET canonical_key = :key WHERE givens = :p3"), {"key": key, "p3": P3}
    )
    view = puzzle_results.c
    first = session.scalar(select(view.isomorph_of).where(view.puzzle == P3))
    sql = example_queries(session.get_bind().dialect.name)["isomorphs"]
    sql = sql.replace("collection_a", "a").replace("collection_b", "b")
    rows = session.execute(text(sql.strip().rstrip(";"))).all()
    assert first is None
    assert [tuple(row) for row in rows] == [(2, P2, 1, P2_DISGUISED)]


def test_the_view_names_the_earlier_puzzle_an_isomorph_repeats(
    session: Session, isomorphs: dict[str, int]
) -> None:
    """isomorph_of is NULL for the first puzzle of a class and the first one's id after it."""
    view = puzzle_results.c
    rows = session.execute(select(view.puzzle, view.puzzle_id, view.isomorph_of)).all()
    by_puzzle = {puzzle: (pid, first) for puzzle, pid, first in rows}
    assert [by_puzzle[p][1] for p in (P1, P2, P3)] == [None, None, None]
    assert by_puzzle[P1_DISGUISED][1] == by_puzzle[P1][0]
    assert by_puzzle[P2_DISGUISED][1] == by_puzzle[P2][0]


def test_status_counts_classes_and_minimal_puzzles_per_collection(
    session: Session, isomorphs: dict[str, int]
) -> None:
    """`a` has three puzzles in two classes; `b` two in two; minimal counts the solved ones
    that are."""
    a, b = collection_status(session)
    assert (a["accepted"], a["classes"], a["minimal"]) == (3, 2, 3)
    assert (b["accepted"], b["classes"], b["minimal"]) == (2, 2, 1)


def test_a_query_can_keep_one_puzzle_per_class(session: Session, isomorphs: dict[str, int]) -> None:
    """One per class keeps the first line of each class, within the filters."""
    rows = find_results(session, Filters(collection="a"), one_per_class=True, order_by="line")
    assert sorted(row["line"] for row in rows) == [1, 2]
    everywhere = find_results(session, one_per_class=True, limit=10)
    assert {(row["collection"], row["line"]) for row in everywhere} == {
        ("a", 1),
        ("a", 2),
        ("b", 2),
    }


def test_the_readme_query_finds_the_puzzles_of_a_that_are_isomorphs_of_puzzles_in_b(
    session: Session, isomorphs: dict[str, int]
) -> None:
    """The documented isomorph query, as written, pairs a's P2 with b's disguise of it."""
    sql = example_queries(session.get_bind().dialect.name)["isomorphs"]
    sql = sql.replace("collection_a", "a").replace("collection_b", "b")
    rows = session.execute(text(sql.strip().rstrip(";"))).all()
    assert [tuple(row) for row in rows] == [(2, P2, 1, P2_DISGUISED)]


def test_solving_paths_are_stored_once_and_exported_with_their_lines(session: Session) -> None:
    """A batch's paths land with its results; a redelivered batch adds none; export --paths
    reads them back as JSON, NULL for a line without one."""
    collection = get_or_create_collection(session, "kept", "kept.txt", "k" * 64, keep_paths=True)
    (work,) = add_records(session, collection.id, [(1, P1), (2, P2)], [], 10, keep_paths=True)
    assert work.keep_paths
    (pid, _), _ = work.puzzles
    steps = [{"technique": "full_house", "value": 1.0, "placed": [], "removed": []}]
    path = PathRow(pid, json.dumps(steps), False, "classic")
    rows = [result_row(p) for p, _ in work.puzzles]
    record_batch(session, work.batch_id, rows, [path])
    record_batch(session, work.batch_id, rows, [path._replace(stalled=True)])
    session.commit()
    exported = list(stream_results(session, "kept", paths=True))
    assert [(row["line"], row["path_steps"], row["path_stalled"]) for row in exported] == [
        (1, steps, False),
        (2, None, None),
    ]
    assert [name for name, _ in exported_columns(paths=True)] == list(exported[0].keys())
