"""Puzzle identity through the commands: `run` stores forms, minimality and (with --paths)
solving paths; `status`, `query --one-per-class` and `export --paths` read them."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import solver
from db.imports import BatchWork
from tests.conftest import ROOT
from tests.solver.grids import transformed
from tests.worker.cli.test_cli_pipeline import invoke, table_rows
from tests.worker.cli.test_cli_results import table_body
from worker.cli.summary import COUNT_HEADERS
from worker.errors import MessageError
from worker.messages import decode_batch

SAMPLE = ROOT / "samples" / "sample.txt"
PUZZLES = [line for line in SAMPLE.read_text().split("\n") if len(line) == 81][60:66]


@pytest.fixture
def disguised_file(tmp_path: Path) -> Path:
    """Six puzzles, then a disguise of each of the first two: eight lines, six classes; the
    last line adds a given from its solution to the third, so it is not minimal."""
    rng = random.Random(15)
    third = PUZZLES[2]
    solution = solver.solve(third).solution
    assert solution is not None
    empty = third.index(".")
    extra = third[:empty] + solution[empty] + third[empty + 1 :]
    lines = [*PUZZLES, transformed(PUZZLES[0], rng), transformed(PUZZLES[1], rng), extra]
    path = tmp_path / "disguised.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_run_stores_each_puzzles_form_and_minimality(
    env: dict[str, str], disguised_file: Path
) -> None:
    """Every puzzle keeps the solver's form and is_minimal; disguises name their original."""
    assert invoke("run", str(disguised_file)).exit_code == 0
    rows = table_rows(
        env["SUDOKU_DATABASE_URL"],
        "SELECT line, puzzle, canonical, isomorph_of, is_minimal, puzzle_id FROM puzzle_results "
        "ORDER BY line",
    )
    assert [r[2] for r in rows] == [solver.canonical(r[1]) for r in rows]
    assert [r[4] for r in rows] == [solver.is_minimal(r[1]) for r in rows]
    assert rows[8][4] in (0, False)
    ids = {r[0]: r[5] for r in rows}
    assert [r[3] for r in rows] == [None] * 6 + [ids[1], ids[2], None]


def test_status_counts_classes_and_minimal_puzzles(
    env: dict[str, str], disguised_file: Path
) -> None:
    """The summary and status show 9 accepted lines in 7 classes."""
    invoke("run", str(disguised_file))
    counts = table_body(invoke("status", "disguised").output, "disguised")[0]
    figures = dict(zip(("name", *COUNT_HEADERS), counts, strict=True))
    minimal = sum(bool(solver.is_minimal(p)) for p in disguised_file.read_text().split())
    assert (figures["accepted"], figures["classes"], figures["minimal"]) == ("9", "7", str(minimal))


def test_query_keeps_one_puzzle_per_class(env: dict[str, str], disguised_file: Path) -> None:
    """--one-per-class leaves out the later lines of a class."""
    invoke("run", str(disguised_file))
    result = invoke("query", "--one-per-class", "--format", "json", "-n", "100")
    lines = sorted(json.loads(row)["line"] for row in result.output.splitlines())
    assert lines == [1, 2, 3, 4, 5, 6, 9]


def test_run_with_paths_keeps_each_solved_puzzles_path_and_export_includes_it(
    env: dict[str, str], disguised_file: Path
) -> None:
    """run --paths fills solving_paths with solving_path's steps (rated fast, as `env` has it);
    export --paths writes them."""
    assert invoke("run", "--paths", str(disguised_file)).exit_code == 0
    url = env["SUDOKU_DATABASE_URL"]
    stored = dict(
        table_rows(
            url,
            "SELECT p.givens, s.steps FROM solving_paths s JOIN puzzles p ON p.id = s.puzzle_id",
        )
    )
    assert len(stored) == 9
    for givens, steps in stored.items():
        expected = [step.to_dict() for step in solver.solving_path(givens, work_budget=0).steps]
        assert json.loads(steps) == expected
    exported = invoke("export", "disguised", "--format", "json", "--paths").output.splitlines()
    first = json.loads(exported[0])
    assert first["path_steps"] == json.loads(stored[first["puzzle"]])
    assert first["path_stalled"] is False
    plain = json.loads(invoke("export", "disguised", "--format", "json").output.splitlines()[0])
    assert "path_steps" not in plain


def test_run_without_paths_keeps_none(env: dict[str, str], disguised_file: Path) -> None:
    """Paths cost time: a collection imported without --paths keeps none."""
    invoke("run", str(disguised_file))
    assert table_rows(env["SUDOKU_DATABASE_URL"], "SELECT count(*) FROM solving_paths") == [(0,)]


def test_a_batch_message_carries_keep_paths_only_when_true() -> None:
    """Messages without paths keep their old shape; a bad keep_paths is refused."""
    work = BatchWork(3, 1, [(1, PUZZLES[0])])
    assert "keep_paths" not in work.to_message()
    kept = BatchWork(3, 1, [(1, PUZZLES[0])], keep_paths=True)
    assert decode_batch(kept.to_message()) == kept
    with pytest.raises(MessageError, match="keep_paths"):
        decode_batch({**kept.to_message(), "keep_paths": "yes"})
