"""The compiled core gives the reference's answers exactly: every field of every result, on
the shared collections, the bundled samples and generated puzzles of every kind.

Results are compared field by field (see ``tests/solver/parity.py``): floats with ``==``,
technique counts as ordered items, types included; a malformed puzzle must raise the same
PuzzleFormatError (message and column) in both. The shared collections are sampled with a
fixed seed by default and read whole under the ``slow`` marker, in a pool of processes.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import random
import re
import threading
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context

import solver
from solver import engine
from solver.grid import to_text
from tests.conftest import UNDER_CI, shared_file
from tests.solver import grids
from tests.solver.parity import (
    WORK_BUDGETS,
    check_batch,
    fields,
    native_outcome,
    reference_outcome,
    report,
    verdict,
)

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
# Puzzles per collection in the default run, fewer where the reference is slow (its mean
# time a puzzle in brackets, SE's cycles and forcing chains included): about 15 s of reference
# time in all, split over the pool.
SAMPLE_SIZES = {
    "kaggle_10k.txt": 300,  # (1 ms)
    "krazydad_graded_56k.tsv": 60,  # (56 ms)
    "seventeen_clue_49k.txt": 200,  # (8 ms)
    "top1465.txt": 20,  # (97 ms)
    "forum_hardest_375.txt": 30,  # (40 ms)
    "multi_solution_10k.txt": 60,  # (23 ms)
    "se_rated_6k.csv": 60,  # (47 ms)
    "qqwing_graded_4k.csv": 150,  # (9 ms)
}
CHUNK = 250  # puzzles per batch handed to the core, and per job of the pool
PROCESSES = 2
BUDGET = solver.DEFAULT_NODE_BUDGET
# Hypothesis examples per property: CI digs deeper; SUDOKU_TEST_EXAMPLES overrides both.
EXAMPLES = int(os.environ.get("SUDOKU_TEST_EXAMPLES", 300 if UNDER_CI else 60))
PROPERTY = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def numbered_puzzles(name: str) -> list[tuple[int, str]]:
    """(line number, puzzle) for each puzzle of a shared collection: the first field of each
    line (tab or comma separated), the header of a CSV file skipped."""
    with shared_file(name).open(encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    first = 2 if name.endswith(".csv") else 1
    rows = enumerate(lines[first - 1 :], first)
    return [(n, re.split(r"[\t,]", line, maxsplit=1)[0]) for n, line in rows if line.strip()]


def mismatches(
    name: str,
    numbered: list[tuple[int, str]],
    work_budgets: tuple[int, ...] = WORK_BUDGETS,
    profiles: tuple[str, ...] = solver.PROFILES,
) -> list[str]:
    """Every mismatch over ``numbered``, solved in chunks by a pool of processes (at least
    four chunks a process, so a small sample keeps both busy)."""
    size = max(1, min(CHUNK, -(-len(numbered) // (4 * PROCESSES))))
    # Chunks alternate between the rating profiles and the work budgets: each profile's ladder
    # is checked too, with SE's chains never tried, cut short mid-climb, and tried throughout.
    starts = range(0, len(numbered), size)
    settings = list(itertools.product(profiles, work_budgets))
    jobs = [
        (name, BUDGET, numbered[k : k + size], *settings[n % len(settings)])
        for n, k in enumerate(starts)
    ]
    # A process that dies (a crash in the core) breaks the pool at once, rather than hang it.
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(PROCESSES, mp_context=context) as pool:
        return [m for chunk in pool.map(check_batch, jobs) for m in chunk]


@pytest.mark.usefixtures("native")
@pytest.mark.parametrize("name", SAMPLE_SIZES)
def test_the_core_matches_the_reference_on_a_sample_of_each_shared_collection(name: str) -> None:
    """A fixed-seed sample of each shared collection: identical results, field by field."""
    numbered = numbered_puzzles(name)
    sample = sorted(random.Random(name).sample(numbered, SAMPLE_SIZES[name]))
    found = mismatches(name, sample)
    if found:
        pytest.fail(verdict(found, len(sample)))


@pytest.mark.slow
@pytest.mark.usefixtures("native")
@pytest.mark.parametrize("name", SAMPLE_SIZES)
def test_the_core_matches_the_reference_on_every_puzzle_of_each_shared_collection(
    name: str,
) -> None:
    """Every puzzle of each shared collection: identical results, field by field, on the
    classic ladder with SE's chains never tried (with them, or on `sukaku`, whose strong-linked
    fishes take the reference about 90 ms a puzzle of krazydad's against 4 on `classic`, it
    would take hours: the samples above, the SE-rated puzzles below and
    tests/solver/test_links.py compare those)."""
    numbered = numbered_puzzles(name)
    found = mismatches(name, numbered, (0,), ("classic",))
    if found:
        pytest.fail(verdict(found, len(numbered)))


@pytest.mark.usefixtures("native")
def test_the_core_matches_the_reference_where_ses_cycles_and_forcing_chains_decide() -> None:
    """Puzzles classic SE rates 6.5 to 7.4 (its cycles and forcing chains of one assumption,
    with their lengths), a fixed-seed sample: identical results, chosen chains included."""
    name = "se_rated_6k.csv"
    with shared_file(name).open(encoding="utf-8") as handle:
        rated = {row.split(",")[0]: row.split(",")[5] for row in handle.read().splitlines()[1:]}
    chains = [
        (n, p) for n, p in numbered_puzzles(name) if rated[p] and 6.5 <= float(rated[p]) < 7.5
    ]
    sample = sorted(random.Random("chains").sample(chains, 60))
    found = mismatches(name, sample)
    if found:
        pytest.fail(verdict(found, len(sample)))


def sample_lines(path: Path) -> list[tuple[int, str]]:
    """(line number, line) of a bundled sample file, comments and blank lines left out."""
    lines = enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
    return [(n, line) for n, line in lines if line.strip() and not line.startswith("#")]


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.txt")), ids=lambda p: p.name)
@pytest.mark.usefixtures("native")
def test_the_core_matches_the_reference_on_every_line_of_the_bundled_samples(path: Path) -> None:
    """Each puzzle line of samples/*.txt, bad ones too: the same result or the same error."""
    lines = sample_lines(path)
    found = mismatches(path.name, lines)
    if found:
        pytest.fail(verdict(found, len(lines)))


def test_a_batch_with_a_bad_line_names_its_index_as_the_reference_does(
    native: ModuleType,
) -> None:
    """solve_many on samples/broken.txt raises the first bad line's error, prefixed
    ``puzzle K:``, exactly as the reference backend does."""
    puzzles = [line for _, line in sample_lines(SAMPLES / "broken.txt")]
    with pytest.raises(solver.PuzzleFormatError) as reference:
        _python_solve_many(puzzles)
    with pytest.raises(solver.PuzzleFormatError) as compiled:
        native.solve_many(puzzles, node_budget=BUDGET, work_budget=0)
    assert str(compiled.value).startswith("puzzle ")
    assert (str(compiled.value), compiled.value.column) == (
        str(reference.value),
        reference.value.column,
    )


def _python_solve_many(puzzles: list[str]) -> list[solver.SolveResult]:
    """solver.solve_many with the reference backend, the active backend restored after."""
    active = solver.backend()
    solver.use_backend("python")
    try:
        return solver.solve_many(puzzles, node_budget=BUDGET, work_budget=0)
    finally:
        solver.use_backend(active)


def assert_same(native: ModuleType, puzzle: object, budget: int) -> None:
    """The core and the reference give the same outcome for ``puzzle`` (result or error)."""
    got = native_outcome(native, puzzle, budget)  # type: ignore[arg-type]
    expected = reference_outcome(puzzle, budget)  # type: ignore[arg-type]
    if currently_in_test_context():  # what was generated: --hypothesis-show-statistics
        event(f"outcome: {expected.get('status') or expected.get('raises')}")
    found = report(f"node_budget={budget}", puzzle, got, expected)
    if found:
        pytest.fail(found)


@PROPERTY
@given(grids.puzzles_of(grids.holed(17)), st.sampled_from(grids.BUDGETS))
def test_valid_puzzles_with_random_holes_match(
    native: ModuleType, puzzle: object, budget: int
) -> None:
    """Valid grids with random cells emptied (17 givens and up): identical results."""
    assert_same(native, puzzle, budget)


@PROPERTY
@given(grids.puzzles_of(grids.holed(0, 16)), st.sampled_from((0, *grids.BUDGETS)))
def test_puzzles_with_few_givens_match_even_when_the_search_gives_up(
    native: ModuleType, puzzle: object, budget: int
) -> None:
    """0 to 16 givens, search heavy, small budgets too (gave_up): identical results."""
    assert_same(native, puzzle, budget)


@PROPERTY
@given(grids.puzzles_of(grids.soups()), st.sampled_from(grids.BUDGETS))
def test_random_digit_soups_match(native: ModuleType, puzzle: object, budget: int) -> None:
    """Random digits anywhere (mostly invalid, unsolvable or multiple): identical results."""
    assert_same(native, puzzle, budget)


@PROPERTY
@given(grids.puzzles_of(grids.consistent_soups()), st.sampled_from(grids.BUDGETS))
def test_conflict_free_soups_match_on_their_contradictions(
    native: ModuleType, puzzle: object, budget: int
) -> None:
    """Digits placed where no peer holds them (often unsolvable): the same reasons, the
    same partial technique counts."""
    assert_same(native, puzzle, budget)


@PROPERTY
@given(grids.puzzles_of(st.one_of(grids.conflicting(), grids.wrong_given())))
def test_near_valid_puzzles_match(native: ModuleType, puzzle: object) -> None:
    """One given repeating a peer's digit (invalid), or one given changed: identical results."""
    assert_same(native, puzzle, BUDGET)


@PROPERTY
@given(grids.any_puzzle(), st.sampled_from(grids.EDGE_BUDGETS))
def test_node_budgets_at_the_edges_of_integer_sizes_match(
    native: ModuleType, puzzle: object, budget: int
) -> None:
    """Negative, zero and budgets past 32 bits (up to the largest int64): identical results."""
    assert_same(native, puzzle, budget)


@settings(PROPERTY, max_examples=max(EXAMPLES // 4, 10))
@given(st.lists(grids.any_puzzle(), min_size=1, max_size=12), st.sampled_from(grids.BUDGETS))
def test_a_batch_gives_each_puzzle_the_result_it_gets_alone(
    native: ModuleType, puzzles: list[object], budget: int
) -> None:
    """One call into the core for a mixed batch: each result equals the reference's for that
    puzzle solved on its own (no state leaks from one puzzle to the next)."""
    got = [fields(r) for r, _ in native.solve_many(puzzles, node_budget=budget, work_budget=0)]
    for k, puzzle in enumerate(puzzles):
        found = report(f"batch item {k}", puzzle, got[k], reference_outcome(puzzle, budget))
        if found:
            pytest.fail(found)


FULL = grids.BASE
SPECIAL = {
    "empty grid": (0,) * 81,
    "full grid": FULL,
    "full grid but one cell": (0, *FULL[1:]),
    "full grid but one row": (0,) * 9 + FULL[9:],
    "one given": (5,) + (0,) * 80,
}


@pytest.mark.parametrize("budget", [0, *grids.BUDGETS])
@pytest.mark.parametrize("form", ["text", "tuple", "list"])
@pytest.mark.parametrize("grid", SPECIAL.values(), ids=SPECIAL.keys())
def test_empty_full_and_nearly_full_grids_match(
    native: ModuleType, grid: tuple[int, ...], form: str, budget: int
) -> None:
    """The empty grid, the full grid and their neighbours, as text, tuple or list."""
    puzzle = {"text": to_text(grid), "tuple": grid, "list": list(grid)}[form]
    assert_same(native, puzzle, budget)


@pytest.mark.parametrize("cell", [True, False])
def test_a_grid_holding_a_boolean_gets_the_same_outcome(native: ModuleType, cell: bool) -> None:
    """A bool is an int to Python: the grid is refused, or solved, alike in both."""
    grid = list(FULL)
    grid[FULL.index(1, 9)] = cell  # True: the cell's own digit; False: an empty cell
    assert_same(native, grid, BUDGET)


def test_solve_dispatches_to_the_core_and_matches_the_reference(native: ModuleType) -> None:
    """With the native backend active, solver.solve gives the reference's result."""
    assert solver.backend() == "native"
    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    got, expected = fields(solver.solve(puzzle)), fields(engine.solve(puzzle))
    found = report("solver.solve", puzzle, got, expected)
    if found:
        pytest.fail(found)


def test_batches_solved_from_several_threads_at_once_give_the_same_results(
    native: ModuleType,
) -> None:
    """Threads calling the core together do not mix their state (it keeps scratch space in
    static storage: safe only while it holds the GIL throughout)."""
    puzzles = [line for _, line in sample_lines(SAMPLES / "sample.txt")][:60]
    expected = {p: reference_outcome(p, BUDGET) for p in puzzles}
    results: dict[int, list[tuple[str, dict[str, object]]]] = {}

    def work(k: int) -> None:
        order = puzzles[k:] + puzzles[:k]  # each thread starts somewhere else
        solved = native.solve_many(order, node_budget=BUDGET, work_budget=0)
        results[k] = [(p, fields(r)) for p, (r, _) in zip(order, solved, strict=True)]

    threads = [threading.Thread(target=work, args=(k * 7,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [0, 7, 14, 21]
    found = [
        report(f"thread {k}", p, got, expected[p]) for k, rows in results.items() for p, got in rows
    ]
    failures = [f for f in found if f]
    if failures:
        pytest.fail(verdict(failures, len(found)))
