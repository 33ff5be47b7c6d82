"""The work budget of SE's chains (solver.work), as a user meets it.

The same puzzle with the same budget gets the same answer in both backends, wherever the budget
runs out (in the middle of a step too) and whatever was solved before (the reference's caches
included). A budget that runs out leaves an estimate flagged ``over_budget``; one of at least the
work an exact rating takes gives that very rating. The puzzles of a batch share its batch budget
in order. Budgets at an edge (the work an exact rating takes, or a nested chain's step) are
found from the puzzles, not written down, so that new charges move them with the table.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

import pytest

import solver
from solver import cycles, engine, forcing, native, rating, work
from solver.board import Board
from solver.grid import parse
from solver.ladder import LADDERS, NESTED_CHAINS, SE_CHAINS, climb
from solver.path import solving_path
from solver.result import SolveResult
from tests.conftest import shared_file
from tests.solver.parity import fields, report, verdict

# Budgets that run out in the middle of a hard puzzle's climb: at its first charge, just past
# one search of SE's cycles, among the forcing chains, among the dynamic ones.
RUNNING_OUT = (1, work.CYCLES + 1, 333, 2000)
EXACT_WORK_LIMIT = 5000  # puzzles whose exact rating takes at most this: cheap in the reference
# A puzzle of forum_hardest_375 whose climb takes a step of SE's nested chains early.
NESTED = "5.......9.2.1...7...8...3...4.6.........5.......2.7.1...3...8...6...4.2.9.......5"
# A puzzle of forum_hardest_375 on which the ladder stalls without SE's chains (search needed).
HARD = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"


def top1465(count: int) -> list[str]:
    """A fixed-seed sample of magictour's top1465: most need SE's chains, a few do not."""
    with shared_file("top1465.txt").open(encoding="utf-8") as handle:
        puzzles = [line.split()[0] for line in handle if line.strip()]
    return random.Random("work").sample(puzzles, count)


@contextmanager
def backend(name: str) -> Iterator[None]:
    """The solver's API on the backend ``name``, the active one restored after."""
    active = solver.backend()
    solver.use_backend(name)
    try:
        yield
    finally:
        solver.use_backend(active)


def mismatches(
    puzzles: list[str], core: list[SolveResult], reference: list[SolveResult], where: str
) -> list[str]:
    """A readable paragraph for each puzzle whose results differ, field by field."""
    found = (
        report(where, p, fields(c), fields(r))
        for p, c, r in zip(puzzles, core, reference, strict=True)
    )
    return [f for f in found if f]


def exact_work(puzzle: str, profile: str = solver.DEFAULT_PROFILE) -> int:
    """The units of work the core's exact rating of ``puzzle`` takes (no budget bound)."""
    result = solver.solve(puzzle, profile=profile, work_budget=work.MAX_BUDGET)
    assert result.rating_exact, puzzle
    return result.metrics.work


# (work budget, profile, puzzles of the sample): fewer on `sukaku`, whose strong-linked fishes
# take the reference about 20 times as long a puzzle.
PARITY = [*((budget, "classic", 16) for budget in RUNNING_OUT), (RUNNING_OUT[2], "sukaku", 6)]


@pytest.mark.usefixtures("native")
@pytest.mark.parametrize(("budget", "profile", "count"), PARITY)
def test_the_core_gives_the_references_answer_where_the_budget_runs_out(
    budget: int, profile: str, count: int
) -> None:
    """A sample of top1465 at budgets that run out mid-climb: every field of every result the
    same in both backends (the work charged included), never more work than the budget."""
    puzzles = top1465(16)[:count]
    core = solver.solve_many(puzzles, profile=profile, work_budget=budget)
    reference = [engine.solve(p, profile=profile, work_budget=budget) for p in puzzles]
    found = mismatches(puzzles, core, reference, f"{profile}, work budget {budget}")
    if found:
        pytest.fail(verdict(found, len(puzzles)))
    assert all(r.metrics.work <= budget for r in core)
    assert any(r.over_budget for r in core), "no puzzle of the sample ran out"


@pytest.mark.usefixtures("native")
def test_the_work_an_exact_rating_takes_buys_it_and_one_unit_less_does_not() -> None:
    """Given the work its exact rating takes, or more, a puzzle gets that very result (the work
    charged the same); given one unit less, it ends on an estimate from above SE's chains,
    flagged over budget, the whole budget spent: alike in both backends."""
    needs = {p: exact_work(p) for p in top1465(16)}
    cheap = [p for p, n in needs.items() if 0 < n <= EXACT_WORK_LIMIT]
    assert len(cheap) >= 3, needs
    for puzzle in cheap:
        needed = needs[puzzle]
        exact = solver.solve(puzzle, work_budget=work.MAX_BUDGET)
        for budget in (needed, needed + 1, 2 * needed):
            for result in (
                solver.solve(puzzle, work_budget=budget),
                engine.solve(puzzle, work_budget=budget),
            ):
                assert result == exact, (puzzle, budget)
        short = solver.solve(puzzle, work_budget=needed - 1)
        assert short == engine.solve(puzzle, work_budget=needed - 1)
        assert (short.status, short.rating_exact, short.over_budget) == ("solved", False, True)
        assert short.metrics.work == needed - 1
        assert short.difficulty_score is not None
        assert short.difficulty_score >= rating.search_floor(needed - 1)


@pytest.mark.usefixtures("native")
def test_over_budget_flags_only_solved_puzzles_rated_by_an_estimate() -> None:
    """Over budget says that a larger budget may rate the puzzle exactly: never for a puzzle
    with several solutions, without one, invalid or given up on by search (no rating), nor for
    one rated exactly or whose budget did not run out, in either backend."""
    budget = RUNNING_OUT[2]
    multiple = "." * 54 + HARD[54:]  # its last three rows' givens only: several solutions
    unsolvable = "12345678." + "........9" + "." * 63
    puzzles = [*top1465(8), multiple, unsolvable, "55" + "." * 79]
    results = solver.solve_many(puzzles, work_budget=budget)
    assert results == [engine.solve(p, work_budget=budget) for p in puzzles]
    gave_up = solver.solve(HARD, node_budget=5, work_budget=budget)
    results.append(gave_up)
    assert gave_up == engine.solve(HARD, node_budget=5, work_budget=budget)
    for result in results:
        spent = result.metrics.work == budget
        rated = result.status == "solved" and result.rating_exact is False
        assert result.over_budget == (spent and rated), result
    statuses = {r.status for r in results if r.metrics.work == budget and not r.over_budget}
    assert "gave_up" in statuses  # it ran out too, yet is not over budget
    assert any(r.over_budget for r in results)
    assert any(r.rating_exact for r in results)


def test_a_puzzle_without_exactly_one_solution_never_tries_ses_chains() -> None:
    """Proved (from its givens, before the first chain) to have several solutions or none, a
    puzzle gets no rating SE's chains could make: they are not tried, nothing is charged, in
    both backends and on the solving path; one whose proof gives up keeps them."""
    multiple = "." * 54 + HARD[54:]
    several = shared_file("multi_solution_10k.txt").read_text().split()[:20]
    for puzzle in [multiple, *several]:
        result = solver.solve(puzzle)
        assert result == engine.solve(puzzle)
        assert (result.status, result.metrics.work) == ("multiple", 0), puzzle
        assert not SE_CHAINS & set(result.metrics.technique_counts)
    path = solving_path(multiple, step=native.apply_rung)
    assert not any(step.technique in SE_CHAINS for step in path.steps)
    assert path == solving_path(multiple)
    gave_up = solver.solve(HARD, node_budget=5)
    assert gave_up.status == "gave_up"
    assert gave_up.metrics.work > 0  # the proof gave up: whether it is unique is unknown


def test_budget_0_never_tries_ses_chains_and_is_never_over_budget(
    core: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Work budget 0: neither backend charges anything (no chain is even tried), no result is
    over budget, no chain is in the counts; the results are the same in both."""
    puzzles = top1465(8)
    core.work_tally()  # the count since the last call: none from here on
    results = solver.solve_many(puzzles, work_budget=0)
    assert core.work_tally() == (0,) * len(work.CHARGES)
    charges: list[int] = []
    monkeypatch.setattr(work, "charge", charges.append)
    assert [engine.solve(p, work_budget=0) for p in puzzles] == results
    assert charges == []
    for result in results:
        assert (result.metrics.work, result.over_budget) == (0, False)
        assert not SE_CHAINS & set(result.metrics.technique_counts)
    assert not all(r.rating_exact for r in results)


@pytest.mark.usefixtures("native")
def test_by_default_ses_chains_are_tried_within_the_default_budget() -> None:
    """A puzzle SE rates by a forcing chain is rated exactly without naming a budget, as with
    ``work.DEFAULT``, in both backends."""
    needs = {p: exact_work(p) for p in top1465(16)}
    puzzle = min((p for p, n in needs.items() if n), key=needs.__getitem__)
    expected = solver.solve(puzzle, work_budget=work.DEFAULT)
    assert expected.rating_exact
    assert expected.metrics.work > 0
    assert solver.solve(puzzle) == engine.solve(puzzle) == expected


@pytest.mark.usefixtures("native")
def test_a_later_puzzle_of_a_batch_gets_what_is_left_of_the_batch_budget() -> None:
    """Each puzzle of a batch may spend its own budget or what the puzzles before it left of
    the batch's, whichever is less (``engine.solve_within``): once the batch's is spent, a
    puzzle needing SE's chains ends over budget without work, while one that needs none is
    rated exactly."""
    puzzles = top1465(16)
    own, batch = RUNNING_OUT[-1], 3 * RUNNING_OUT[-1] + 1
    results = solver.solve_many(puzzles, work_budget=own, batch_budget=batch)
    left = batch
    for puzzle, result in zip(puzzles, results, strict=True):
        expected = engine.solve_within(puzzle, work.Budget(own, left))
        found = report(f"{left} left of the batch", puzzle, fields(result), fields(expected))
        if found:
            pytest.fail(found)
        left -= result.metrics.work
    assert left == 0
    starved = [r for r in results[-8:] if r.metrics.work == 0]
    assert any(r.over_budget for r in starved)
    assert any(r.rating_exact for r in starved)


@pytest.mark.usefixtures("native")
def test_the_reference_shares_a_batch_budget_as_the_core_does() -> None:
    """The same batch, puzzles in other written forms among them, with a batch budget that runs
    dry: the same results from either backend."""
    puzzles: list[Any] = top1465(12)
    puzzles[1] = puzzles[1].replace(".", "0")
    puzzles[3] = f"  {puzzles[3]}\n"
    puzzles[5] = tuple(parse(puzzles[5]))
    own, batch = RUNNING_OUT[-1], 2 * RUNNING_OUT[-1]
    core = solver.solve_many(puzzles, work_budget=own, batch_budget=batch)
    with backend("python"):
        reference = solver.solve_many(puzzles, work_budget=own, batch_budget=batch)
    found = mismatches([str(p) for p in puzzles], core, reference, "batch")
    if found:
        pytest.fail(verdict(found, len(puzzles)))
    assert sum(r.metrics.work for r in core) == batch


@pytest.mark.usefixtures("native")
def test_without_a_batch_budget_each_puzzle_is_independent_of_the_others() -> None:
    """No batch budget: each puzzle gets what it gets alone, in any order; a batch budget that
    does not run dry changes nothing either."""
    puzzles = top1465(12)
    budget = RUNNING_OUT[-1]
    results = solver.solve_many(puzzles, work_budget=budget)
    assert results == [solver.solve(p, work_budget=budget) for p in puzzles]
    assert solver.solve_many(puzzles[::-1], work_budget=budget) == results[::-1]
    total = sum(r.metrics.work for r in results)
    assert solver.solve_many(puzzles, work_budget=budget, batch_budget=total) == results
    assert solver.solve_many(puzzles, work_budget=budget, batch_budget=total - 1) != results


def least_budget(puzzle: str, reached: Callable[[SolveResult], bool]) -> int:
    """The least budget whose result in the core has ``reached`` (a larger budget climbs
    further the same way): doubling, then bisection."""
    low, high = 0, 1000
    while not reached(solver.solve(puzzle, work_budget=high)):
        low, high = high + 1, 2 * high
        assert high <= work.DEFAULT, "no budget reaches it"
    while low < high:
        middle = (low + high) // 2
        if reached(solver.solve(puzzle, work_budget=middle)):
            high = middle
        else:
            low = middle + 1
    return low


@pytest.mark.usefixtures("native")
def test_the_references_caches_never_change_what_a_budget_buys() -> None:
    """A puzzle given one unit less than its first nested chain step takes, solved twice in the
    reference, the second time with its caches warm (every hint of SE's cycles answered from
    the cache, which would otherwise pay for the step): the same result both times, the core's."""
    needed = least_budget(NESTED, lambda r: bool(NESTED_CHAINS & set(r.metrics.technique_counts)))
    expected = solver.solve(NESTED, work_budget=needed - 1)
    assert expected.over_budget
    assert engine.solve(NESTED, work_budget=needed - 1) == expected
    hits = cycles._every_hint.cache_info().hits
    assert engine.solve(NESTED, work_budget=needed - 1) == expected
    assert cycles._every_hint.cache_info().hits > hits


def test_the_cores_kept_hints_never_change_what_a_budget_buys(native: ModuleType) -> None:
    """The core keeps the hints its nested chains' producers made for the boards they met, and
    gives them again, charged as making them was, when a board comes back. A puzzle given one
    unit less than its first nested chain step takes, or just enough, gets the same result with
    every board of that step kept (from a full rating of it just before) as with none."""
    needed = least_budget(NESTED, lambda r: bool(NESTED_CHAINS & set(r.metrics.technique_counts)))
    cold: dict[int, SolveResult] = {}
    for budget in (needed - 1, needed):
        native._core.configure(native.core_tables())  # nothing kept
        cold[budget] = solver.solve(NESTED, work_budget=budget)
    assert cold[needed - 1].over_budget
    assert NESTED_CHAINS & set(cold[needed].metrics.technique_counts)
    for budget in (needed - 1, needed):
        solver.solve(NESTED, work_budget=work.MAX_BUDGET)  # the step's boards kept
        assert solver.solve(NESTED, work_budget=budget) == cold[budget]


def _position(puzzle: str) -> tuple[int, ...]:
    """The candidates where the classic ladder first needs SE's chains."""
    ladder = LADDERS["classic"]
    first = min(k for k, rung in enumerate(ladder) if rung.name in SE_CHAINS)
    board = Board.from_grid(parse(puzzle))
    climb(board, ladder[:first])
    return tuple(board.cands)


@pytest.mark.parametrize(
    "every", [forcing.every_multiple_hint, forcing.every_dynamic_hint], ids=["multiple", "dynamic"]
)
def test_a_cached_chain_search_charges_what_computing_it_charged(
    every: Callable[[tuple[int, ...]], object],
) -> None:
    """Answered from its cache or computed, every hint of SE's multiple or dynamic forcing
    chains costs the budget the same units, and a budget one unit short runs out either way."""
    cands = _position(NESTED)
    with work.charging(work.Budget(work.MAX_BUDGET)) as computing:
        expected = every.__wrapped__(cands)  # type: ignore[attr-defined]
    cost = computing.used
    assert cost > 0
    for _ in range(2):  # the first call may fill the cache, the second is answered from it
        with work.charging(work.Budget(cost)) as budget:
            assert every(cands) == expected
        assert (budget.left, budget.spent) == (0, False)
        with work.charging(work.Budget(cost - 1)) as budget, pytest.raises(work.WorkSpent):
            every(cands)
        assert (budget.left, budget.spent) == (0, True)


def test_every_hint_of_ses_cycles_charges_each_call_cached_or_not() -> None:
    """Every hint of SE's cycles and forcing chains costs ``work.EVERY_CYCLE`` a call, the same
    when its cache answers."""
    cands = _position(NESTED)
    with work.charging(work.Budget(work.MAX_BUDGET)) as budget:
        first = cycles.every_hint(cands)
        hits = cycles._every_hint.cache_info().hits
        assert cycles.every_hint(cands) == first
    assert cycles._every_hint.cache_info().hits == hits + 1
    assert budget.used == 2 * work.EVERY_CYCLE


@pytest.mark.parametrize("budget", RUNNING_OUT)
def test_the_path_in_the_core_is_the_references_where_the_budget_runs_out(
    budget: int, native: ModuleType
) -> None:
    """solving_path with the core's step gives the reference's path at budgets that run out
    mid-climb, says so as ``solve`` does, and records the budget."""
    puzzles = top1465(6)
    paths = [solving_path(p, work_budget=budget, step=native.apply_rung) for p in puzzles]
    assert paths == [solving_path(p, work_budget=budget) for p in puzzles]
    for puzzle, path in zip(puzzles, paths, strict=True):
        result = solver.solve(puzzle, work_budget=budget)
        assert path.work_budget == budget
        assert path.over_budget == result.over_budget
    assert any(path.over_budget for path in paths)


ENTRY_POINTS: dict[str, Callable[[str, int], object]] = {
    "engine.solve": lambda p, b: engine.solve(p, work_budget=b),
    "solve": lambda p, b: solver.solve(p, work_budget=b),
    "solve_many": lambda p, b: solver.solve_many([p], work_budget=b),
    "solve_many_timed": lambda p, b: solver.solve_many_timed([p], work_budget=b),
    "solving_path": lambda p, b: solver.solving_path(p, work_budget=b),
}


@pytest.mark.parametrize("backend_name", ["python", "native"])
@pytest.mark.parametrize("budget", [-1, work.MAX_BUDGET + 1])
@pytest.mark.parametrize("call", ENTRY_POINTS.values(), ids=ENTRY_POINTS.keys())
def test_a_work_budget_out_of_range_is_refused_naming_it(
    call: Callable[[str, int], object],
    budget: int,
    backend_name: str,
    request: pytest.FixtureRequest,
) -> None:
    """Below 0 or above work.MAX_BUDGET: ValueError naming ``work_budget``, wherever it is
    given, in either backend."""
    if backend_name == "native":
        request.getfixturevalue("native")
    with backend(backend_name), pytest.raises(ValueError, match="work_budget"):
        call(HARD, budget)


@pytest.mark.parametrize("backend_name", ["python", "native"])
@pytest.mark.parametrize("budget", [-1, work.MAX_BUDGET + 1])
def test_a_batch_budget_out_of_range_is_refused(
    budget: int, backend_name: str, request: pytest.FixtureRequest
) -> None:
    """A batch budget below 0 or above work.MAX_BUDGET: ValueError, before any puzzle is
    solved, in either backend."""
    if backend_name == "native":
        request.getfixturevalue("native")
    with backend(backend_name), pytest.raises(ValueError, match=f"between 0 and {work.MAX_BUDGET}"):
        solver.solve_many([HARD], work_budget=0, batch_budget=budget)
