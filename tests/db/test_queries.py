"""Reading results: the query helpers and the example queries of the documentation (docs/)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.orm import Session

from db.imports import add_records, get_or_create_collection
from db.queries import (
    EXPORTED,
    Filters,
    collection_status,
    distribution,
    find_results,
    progress,
    rejected_lines,
    stream_results,
)
from db.results import record_batch
from tests.db.conftest import grid, result_row

DOCS = Path(__file__).resolve().parents[2] / "docs"
BLOCK = re.compile(r"```sql\n(.*?)```", re.DOTALL)

# my_collection, line by line: 1 easy by elimination, 2 hard with an X-Wing, 3 repeats 1,
# 4 has several solutions, 5 diabolical by elimination with two X-Wings, 6 is rejected,
# 7 is not solved yet. `other` holds line 2's puzzle again, solved before its import.
RESULTS = {
    1: {"difficulty": "easy", "difficulty_score": 1.0},
    2: {
        "difficulty": "hard",
        "difficulty_score": 6.5,
        "solved_by_elimination": False,
        "recursion_depth": 2,
        "hardest_technique": "x_wing",
        "technique_counts": {"naked_single": 20, "x_wing": 1},
    },
    4: {
        "status": "multiple",
        "solution": None,
        "rating_state": None,
        "difficulty": None,
        "difficulty_score": None,
        "solved_by_elimination": False,
        "recursion_depth": 1,
    },
    5: {
        "difficulty": "diabolical",
        "difficulty_score": 8.0,
        "hardest_technique": "x_wing",
        "technique_counts": {"pointing": 3, "x_wing": 2},
    },
}


@pytest.fixture
def fixture_collections(session: Session) -> int:
    """Import and solve the small collections above; the id of my_collection."""
    mine = get_or_create_collection(session, "my_collection", "mine.txt", "a" * 64)
    accepted = [(1, grid(1)), (2, grid(2)), (3, grid(1)), (4, grid(4)), (5, grid(5)), (7, grid(7))]
    work = add_records(session, mine.id, accepted, [(6, "12?", "too short", None)], 2)
    line_of = {grid(n): n for n in RESULTS}
    for batch in work:
        if all(g in line_of for _, g in batch.puzzles):
            rows = [result_row(pid, **RESULTS[line_of[g]]) for pid, g in batch.puzzles]
            record_batch(session, batch.batch_id, rows)
    other = get_or_create_collection(session, "other", "other.txt", "b" * 64)
    add_records(session, other.id, [(1, grid(2))], [], 2)
    session.commit()
    return mine.id


def example_queries(dialect: str) -> dict[str, str]:
    """The ```sql blocks of the documentation's pages, by name, as they apply to `dialect`."""
    found: dict[str, str] = {}
    pages = "".join(page.read_text(encoding="utf-8") for page in sorted(DOCS.rglob("*.md")))
    for block in BLOCK.findall(pages):
        name = re.search(r"^-- name: (\w+)$", block, re.MULTILINE)
        only = re.search(r"^-- dialect: (\w+)$", block, re.MULTILINE)
        assert name, f"an example query has no '-- name:' line:\n{block}"
        if only is None or only.group(1) == dialect:
            found[name.group(1)] = block
    return found


EXPECTED: dict[str, list[tuple[object, ...]]] = {
    "hardest": [(5, grid(5), "diabolical"), (2, grid(2), "hard"), (1, grid(1), "easy")],
    "elimination_share": [("my_collection", 3, 66.7), ("other", 1, 0.0)],
    "difficulty_distribution": [
        ("my_collection", "easy", 1),
        ("my_collection", "hard", 1),
        ("my_collection", "diabolical", 1),
        ("other", "hard", 1),
    ],
    "x_wing": [(2, grid(2), 1), (5, grid(5), 2)],
    "multiple_solutions": [("my_collection", 4, grid(4))],
}


# Documented queries on other tables, run by the tests of what they read.
TESTED_ELSEWHERE = {
    "by_reference",  # tests/db/test_submissions.py
    "isomorphs",  # tests/db/test_identity.py
}


def _plain(row: tuple[object, ...], width: int) -> tuple[object, ...]:
    return tuple(float(v) if not isinstance(v, int | str) else v for v in row[:width])


def test_the_documented_example_queries_return_what_they_should(
    session: Session, fixture_collections: int
) -> None:
    """Each of the five documented queries runs, as written, and answers the fixture right."""
    queries = example_queries(session.get_bind().dialect.name)
    assert set(queries) == set(EXPECTED) | TESTED_ELSEWHERE
    for name, sql in queries.items():
        if name in TESTED_ELSEWHERE:
            continue
        rows = session.execute(text(sql.strip().rstrip(";"))).all()
        width = len(EXPECTED[name][0])
        assert [_plain(tuple(r), width) for r in rows] == EXPECTED[name], name


def test_collection_status_reports_counters_and_difficulty(
    session: Session, fixture_collections: int
) -> None:
    """Per collection: totals, rejects, duplicates, what remains, the counts by status, label,
    minimality and rating state, and what made the results."""
    mine, other = collection_status(session)
    assert mine["id"] == fixture_collections
    assert {k: mine[k] for k in ("name", "lines_read", "total", "done", "failed")} == {
        "name": "my_collection",
        "lines_read": 7,
        "total": 5,
        "done": 4,
        "failed": 0,
    }
    assert (mine["rejected"], mine["duplicates"], mine["remaining"]) == (1, 1, 1)
    assert mine["difficulty"] == {"easy": 1, "hard": 1, "diabolical": 1}
    assert mine["statuses"] == {"solved": 3, "multiple": 1}  # they add up to done
    assert (mine["minimal"], mine["ratings"]) == (4, {"exact": 3})  # line 4's state is NULL
    assert mine["rated_with"] == [("classic", "test", "bulk", 4)]
    assert (other["total"], other["done"], other["remaining"]) == (1, 1, 0)
    assert [s["name"] for s in collection_status(session, "other")] == ["other"]
    assert collection_status(session, ids=[other["id"]]) == [other]
    assert progress(session, fixture_collections) == (4, 5)


def test_distributions_count_distinct_puzzles_with_a_result(
    session: Session, fixture_collections: int
) -> None:
    """Labels and depths of a collection, duplicates and unsolved puzzles left out."""
    assert distribution(session, "my_collection", "difficulty") == {
        "easy": 1,
        "hard": 1,
        "diabolical": 1,
        None: 1,
    }
    assert distribution(session, "my_collection", "recursion_depth") == {0: 2, 1: 1, 2: 1}
    assert distribution(session, "my_collection", "difficulty_score") == {
        1.0: 1,
        6.5: 1,
        8.0: 1,
        None: 1,
    }
    with pytest.raises(ValueError, match="allowed: difficulty"):
        distribution(session, "my_collection", "solution")


def test_rejected_lines_are_listed_in_line_order(
    session: Session, fixture_collections: int
) -> None:
    """The first rejected lines of a collection, with reason and text."""
    (line,) = rejected_lines(session, fixture_collections, limit=5)
    assert (line["line"], line["reason"], line["raw_text"], line["column"]) == (
        6,
        "too short",
        "12?",
        None,
    )


def test_find_results_filters_and_orders_over_the_view(
    session: Session, fixture_collections: int
) -> None:
    """Filters combine; ordering follows the whitelist; unsolved puzzles sort last."""
    rows = find_results(session, Filters(collection="my_collection"))
    assert [r["line"] for r in rows] == [5, 2, 1, 4, 7]
    assert rows[-1]["status"] is None
    by_elimination = find_results(session, Filters(elimination_only=True, status="solved"))
    assert [r["line"] for r in by_elimination] == [5, 1]
    deep = find_results(session, Filters(min_depth=1), order_by="recursion_depth", descending=False)
    assert [(r["collection"], r["line"]) for r in deep] == [
        ("my_collection", 4),
        ("my_collection", 2),
        ("other", 1),
    ]
    assert [r["line"] for r in find_results(session, Filters(difficulty="hard"), limit=1)] == [2]


def test_find_results_filters_by_score_range_technique_profile_and_state(
    session: Session, fixture_collections: int
) -> None:
    """A score range (ends included), a technique used anywhere on the path (a JSON key, on
    both databases), the rating profile and state each narrow the rows."""
    mine = Filters(collection="my_collection")
    in_range = find_results(session, replace(mine, min_score=1.5, max_score=8.0))
    assert [r["line"] for r in in_range] == [5, 2]
    pointing = find_results(session, replace(mine, technique="pointing"))
    assert [r["line"] for r in pointing] == [5]
    x_wing = find_results(session, replace(mine, technique="x_wing", max_score=7.0))
    assert [r["line"] for r in x_wing] == [2]
    assert find_results(session, replace(mine, rating_profile="sukaku")) == []
    exact = find_results(session, replace(mine, rating_state="exact"))
    assert [r["line"] for r in exact] == [5, 2, 1]
    by_ep = [r["ep"] for r in find_results(session, mine, order_by="ep")]
    assert by_ep == sorted(by_ep, key=lambda ep: (ep is None, -(ep or 0)))  # unrated last


def test_find_results_refuses_an_unknown_order(session: Session) -> None:
    """Ordering is by whitelisted columns only, and the error lists them."""
    with pytest.raises(ValueError, match="allowed: difficulty_score, recursion_depth"):
        find_results(session, order_by="status; DROP TABLE results")  # type: ignore[arg-type]


def test_stream_results_yields_every_line_in_order(
    session: Session, fixture_collections: int
) -> None:
    """Export sees every accepted line, duplicates flagged, in line order (rejected lines
    only when asked)."""
    rows = list(stream_results(session, "my_collection"))
    assert [(r["line"], r["is_duplicate"]) for r in rows] == [
        (1, False),
        (2, False),
        (3, True),
        (4, False),
        (5, False),
        (7, False),
    ]
    assert rows[1]["technique_counts"] == {"naked_single": 20, "x_wing": 1}


def test_stream_results_puts_the_rejected_lines_in_line_order_when_asked(
    session: Session, fixture_collections: int
) -> None:
    """With rejected=True line 6 comes between 5 and 7, with its reason and text, and NULL
    where a result would be; every row has the same columns."""
    rows = list(stream_results(session, "my_collection", rejected=True))
    assert [(r["line"], r["rejected"]) for r in rows] == [
        (1, False),
        (2, False),
        (3, False),
        (4, False),
        (5, False),
        (6, True),
        (7, False),
    ]
    bad = rows[5]
    assert (bad["collection"], bad["reason"], bad["raw_text"], bad["column"]) == (
        "my_collection",
        "too short",
        "12?",
        None,
    )
    assert (bad["puzzle"], bad["status"], bad["technique_counts"]) == (None, None, None)
    assert {tuple(r.keys()) for r in rows} == {tuple(name for name, _ in EXPORTED)}
    assert rows[1]["technique_counts"] == {"naked_single": 20, "x_wing": 1}
