"""Minimality: every given needed for uniqueness, or None without exactly one solution; the
compiled core and the reference (``solver.minimal``) agree."""

from __future__ import annotations

import random
from collections.abc import Iterator
from types import ModuleType

import pytest

import solver
from solver.minimal import is_minimal
from tests.conftest import missing, shared_file

# The first puzzle of Royle's 17-given collection (every such puzzle is minimal), its solution.
SEVENTEEN = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
SOLUTION = "953168742862734951417952836746893125281645397395271468138529674574386219629417583"
MULTIPLE = "." * 81
INVALID = "11" + "." * 79
UNSOLVABLE = "12345678." + "." * 8 + "9" + "." * 63  # r1c9 can hold no digit
SAMPLED = {  # puzzles a collection gives the agreement test (the reference takes ~2-20 ms each)
    "seventeen_clue_49k.txt": 100,
    "kaggle_10k.txt": 100,
    "krazydad_graded_56k.tsv": 60,
    "qqwing_graded_4k.csv": 60,
    "top1465.txt": 30,
    "forum_hardest_375.txt": 10,
    "multi_solution_10k.txt": 30,
}


@pytest.fixture(params=["python", "native"])
def backend(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each test using it runs on the reference and on the compiled core (when built)."""
    if request.param not in solver.available():
        missing(f"the compiled core is not available: {solver.unavailable_reason()}")
    active = solver.backend()
    solver.use_backend(request.param)
    yield request.param
    solver.use_backend(active)


def puzzles_of(name: str) -> list[str]:
    """The puzzles of a shared collection: the first field of each line, a CSV header skipped."""
    with shared_file(name).open(encoding="utf-8") as handle:
        rows = [line.strip().split("\t")[0].split(",")[0] for line in handle]
    return [row for row in rows if len(row) == 81]


def with_extra_given(puzzle: str, solution: str, cell: int) -> str:
    """The puzzle with the solution's digit written in one more cell."""
    return puzzle[:cell] + solution[cell] + puzzle[cell + 1 :]


@pytest.mark.usefixtures("backend")
def test_a_seventeen_given_puzzle_is_minimal() -> None:
    """A puzzle of 17 givens (none can go) is minimal."""
    assert solver.is_minimal(SEVENTEEN) is True


@pytest.mark.usefixtures("backend")
@pytest.mark.parametrize("cell", [0, 44, 80])
def test_a_minimal_puzzle_with_one_more_given_from_its_solution_is_not_minimal(cell: int) -> None:
    """One more given from the solution makes some given unneeded."""
    assert SEVENTEEN[cell] == "."
    assert solver.is_minimal(with_extra_given(SEVENTEEN, SOLUTION, cell)) is False


@pytest.mark.usefixtures("backend")
@pytest.mark.parametrize(
    "puzzle", [MULTIPLE, INVALID, UNSOLVABLE], ids=["multiple", "invalid", "unsolvable"]
)
def test_a_puzzle_without_exactly_one_solution_gives_none(puzzle: str) -> None:
    """Several solutions, clashing givens or no solution: None, not an answer."""
    assert solver.is_minimal(puzzle) is None


@pytest.mark.usefixtures("backend")
def test_minimal_many_answers_each_puzzle_in_order_and_accepts_grids_and_other_forms() -> None:
    """A batch mixes texts (empty cells as 0, surrounding spaces) and grids of ints."""
    grid = [int(c) if c != "." else 0 for c in SEVENTEEN]
    puzzles = [f"  {SEVENTEEN.replace('.', '0')}\n", MULTIPLE, grid]
    assert solver.minimal_many(puzzles) == [True, None, True]


@pytest.mark.usefixtures("backend")
def test_a_malformed_puzzle_raises_naming_its_index() -> None:
    """A malformed puzzle of a batch raises PuzzleFormatError prefixed with its index."""
    with pytest.raises(solver.PuzzleFormatError, match=r"^puzzle 1: expected 81 cells"):
        solver.minimal_many([SEVENTEEN, "123"])


@pytest.mark.parametrize("name", SAMPLED)
def test_the_core_agrees_with_the_reference_on_a_sample_of_each_collection(
    name: str, core: ModuleType
) -> None:
    """A fixed-seed sample of each shared collection: the same answer, puzzle by puzzle."""
    sample = random.Random(name).sample(puzzles_of(name), SAMPLED[name])
    assert core.minimal_many(sample) == [is_minimal(p) for p in sample]


def test_every_puzzle_of_a_sample_of_seventeen_givens_is_minimal(backend: str) -> None:
    """Every 17-given puzzle is minimal: a fixed-seed sample of Royle's collection."""
    size = 300 if backend == "native" else 60
    sample = random.Random(17).sample(puzzles_of("seventeen_clue_49k.txt"), size)
    assert solver.minimal_many(sample) == [True] * size


@pytest.mark.slow
def test_every_puzzle_of_the_seventeen_given_collection_is_minimal_in_the_core(
    core: ModuleType,
) -> None:
    """All 49,158 puzzles of Royle's 17-given collection are minimal (the core: a few s)."""
    puzzles = puzzles_of("seventeen_clue_49k.txt")
    assert len(puzzles) == 49_158
    answers = core.minimal_many(puzzles)
    assert [p for p, a in zip(puzzles, answers, strict=True) if a is not True] == []


def test_the_core_counts_solutions_from_the_givens_to_two(core: ModuleType) -> None:
    """count_solutions, the uniqueness proof minimality starts with: 1, 2 (at most), 0."""
    assert core.count_solutions([SEVENTEEN, MULTIPLE, INVALID, UNSOLVABLE]) == [1, 2, 0, 0]
