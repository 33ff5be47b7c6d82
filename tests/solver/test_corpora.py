"""The shared corpora: every answer right, uniqueness right, ratings ordered by grade.

Each check runs on the first 200 puzzles by default and on the whole file under --runslow, with
SE's chains not tried (work budget 0): with them a puzzle of forum_hardest takes the core
seconds, and one with several solutions tries them all in vain (tests/solver/test_backends.py
and tests/solver/test_work.py solve these collections with the chains).
"""

from __future__ import annotations

import statistics
from collections import defaultdict

import pytest

import solver
from tests.conftest import shared_file

SAMPLE = 200
GRADES = ("EZ", "NO", "IM", "CH", "TF", "ST", "IN")
ALL = pytest.param(None, marks=pytest.mark.slow, id="all")
SIZES = [pytest.param(SAMPLE, id="sample"), ALL]


def lines(name: str, limit: int | None) -> list[str]:
    """The first ``limit`` non-empty lines of a shared corpus (all when None)."""
    with shared_file(name).open(encoding="utf-8") as handle:
        rows = [line.rstrip("\n") for line in handle if line.strip()]
    return rows[:limit]


@pytest.mark.parametrize("limit", SIZES)
def test_kaggle_puzzles_solve_by_elimination_to_the_published_solutions(
    limit: int | None,
) -> None:
    """Each Kaggle puzzle is solved by the ladder alone, to its line in the solutions file."""
    puzzles = lines("kaggle_10k.txt", limit)
    answers = lines("kaggle_10k.solutions.txt", limit)
    for puzzle, answer in zip(puzzles, answers, strict=True):
        result = solver.solve(puzzle, work_budget=0)
        assert (result.status, result.solution) == ("solved", answer), puzzle
        assert result.metrics.solved_by_elimination, puzzle


@pytest.mark.parametrize("limit", SIZES)
@pytest.mark.parametrize("name", ["top1465.txt", "forum_hardest_375.txt"])
def test_hard_collections_are_solved_with_valid_unique_solutions(
    name: str, limit: int | None
) -> None:
    """Each puzzle of the hard collections is solved, uniquely, with a valid solution."""
    for puzzle in lines(name, limit):
        result = solver.solve(puzzle, work_budget=0)
        assert result.status == "solved", puzzle
        assert solver.is_solution(puzzle, result.solution or ""), puzzle


@pytest.mark.parametrize("limit", SIZES)
def test_multi_solution_puzzles_are_reported_as_multiple(limit: int | None) -> None:
    """Each puzzle of the multi-solution benchmark comes back multiple."""
    for puzzle in lines("multi_solution_10k.txt", limit):
        assert solver.solve(puzzle, work_budget=0).status == "multiple", puzzle


@pytest.mark.parametrize("per_grade", [pytest.param(40, id="sample"), ALL])
def test_mean_score_rises_with_the_krazydad_grade(per_grade: int | None) -> None:
    """Mean difficulty_score strictly increases EZ < NO < IM < CH < TF < ST < IN."""
    scores: dict[str, list[float]] = defaultdict(list)
    for row in lines("krazydad_graded_56k.tsv", None):
        puzzle, grade = row.split("\t")
        if per_grade is None or len(scores[grade]) < per_grade:
            result = solver.solve(puzzle, work_budget=0)
            assert result.difficulty_score is not None, puzzle
            scores[grade].append(result.difficulty_score)
    means = [statistics.fmean(scores[g]) for g in GRADES]
    assert means == sorted(means)
    assert len(set(means)) == len(means)
