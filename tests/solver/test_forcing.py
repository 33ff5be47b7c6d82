"""SE's chains of several assumptions (Nishio, multiple and dynamic forcing chains): where SE
tries them, what a run from an assumption finds, and the ratings they make exact.

The ratings are classic Sudoku Explainer's (se_rated_6k, tuned split); the core and the
reference are compared on the same puzzles.
"""

from __future__ import annotations

import pytest

import solver
from solver import engine, rating, work
from solver.board import Board
from solver.forcing import DYNAMIC, MULTIPLE, NISHIO, best_hint, complexity, implications
from solver.grid import parse
from solver.ladder import (
    LADDERS,
    PROFILES,
    SE_CHAINS,
    VALUES,
    climb,
)
from tests.solver.se_rated import tuned

BANDS = [(7.6, 7.9), (8.0, 8.4), (8.5, 9.0)]  # classic SE's ER of each rule's puzzles
FORCING = ("nishio_forcing_chain", "multiple_forcing_chain", "dynamic_forcing_chain")
# A puzzle classic SE rates 7.7 by a Nishio forcing chain; in its first Nishio position,
# r3c3 cannot be 5.
NISHIO_PUZZLE = "..27.9.3.73....49..9..1...71..5.7..2..9.6.1..2..1.4..99...7..1..81....24.4.2.19.."


def test_they_follow_aligned_triplet_exclusion_in_ses_order_with_ses_values() -> None:
    """SE's producers after aligned triplet exclusion: Nishio 7.5, multiple 8.0, dynamic 8.5;
    tried within the work budget, on both profiles (SukakuExplainer's chains are SE's)."""
    for profile in PROFILES:
        names = [rung.name for rung in LADDERS[profile]]
        k = names.index("aligned_triplet_exclusion")
        assert tuple(names[k + 1 : k + 4]) == FORCING
    assert [VALUES[name] for name in FORCING] == [7.5, 8.0, 8.5]
    assert set(FORCING) <= SE_CHAINS


def test_within_a_budget_the_estimates_floor_is_above_nested_forcing_chains() -> None:
    """The top exact rung is now SE's nested forcing chains of level 4: an estimate starts at
    10.6; on the sukaku profile, whose nested chains stop at level 3, at 10.1."""
    assert VALUES["nested_dynamic_forcing_chain"] == rating.LADDER_CEILING
    assert rating.search_floor(1) == rating.SEARCH_FLOOR == 10.6
    assert rating.search_floor(1, "sukaku") == 10.1


def _nishio_position() -> Board:
    """The puzzle's board where SE's first Nishio step applies (its easier rungs stalled)."""
    ladder = LADDERS["classic"]
    k = [rung.name for rung in ladder].index("nishio_forcing_chain")
    board = Board.from_grid(parse(NISHIO_PUZZLE))
    climb(board, ladder[:k])
    return board


def test_a_false_assumption_runs_into_a_contradiction_and_a_true_one_does_not() -> None:
    """From r3c3=5 (false) the run stops at a potential both on and off; from the solution's
    digit there it finds none, and every potential it sets on is the solution's."""
    board = _nishio_position()
    solution = solver.solve(NISHIO_PUZZLE).solution
    assert solution is not None
    cell = 2 * 9 + 2
    false_run = implications(board.cands, (cell * 9 + 4) * 2 + 1, NISHIO)
    assert false_run.absurd is not None
    assert complexity(false_run.absurd_chains()) >= 4
    true_digit = int(solution[cell])
    true_run = implications(board.cands, (cell * 9 + true_digit - 1) * 2 + 1, DYNAMIC)
    assert true_run.absurd is None
    for p in true_run.on:
        assert int(solution[(p >> 1) // 9]) == (p >> 1) % 9 + 1


def test_the_hint_is_the_least_complex_and_agrees_with_the_solution() -> None:
    """Each rule's hint on that board removes a false candidate or places a true digit, and
    its complexity is at least that of the two chains of a contradiction."""
    board = _nishio_position()
    solution = solver.solve(NISHIO_PUZZLE).solution
    assert solution is not None
    for rule in (NISHIO, MULTIPLE, DYNAMIC):
        hint = best_hint(board.cands, rule)
        if hint is None:
            continue
        cell, d = divmod(hint.target >> 1, 9)
        assert (int(solution[cell]) == d + 1) == bool(hint.target & 1)
        assert hint.complexity >= 2
    assert best_hint(board.cands, NISHIO) is not None


@pytest.mark.parametrize(("lo", "hi"), BANDS, ids=["nishio", "multiple", "dynamic"])
def test_puzzles_se_rates_by_them_get_ses_er_ep_and_ed_flagged_exact(lo: float, hi: float) -> None:
    """Puzzles classic SE rates in the band (its chains of several assumptions, with their
    lengths): SE's very ER, EP and ED, flagged exact, within the work budget."""
    puzzles = tuned(lo, hi, 6)
    results = solver.solve_many([p for p, *_ in puzzles], work_budget=work.MAX_BUDGET)
    for result, (_, er, ep, ed) in zip(results, puzzles, strict=True):
        assert result.rating_exact
        assert (result.difficulty_score, result.ep, result.ed) == (er, ep, ed)


def test_with_work_budget_0_they_are_never_tried() -> None:
    """Budget 0 skips them with the other chains: the puzzle keeps an estimate."""
    result = solver.solve(NISHIO_PUZZLE, work_budget=0)
    assert not result.rating_exact
    assert not set(FORCING) & set(result.metrics.technique_counts)


@pytest.mark.usefixtures("native")
def test_the_core_takes_the_same_steps_as_the_reference() -> None:
    """Two puzzles of each band: identical results from the core and the reference."""
    puzzles = [
        p for lo, hi in [(7.6, 7.9), (8.0, 8.4), (8.5, 9.0)] for p, *_ in tuned(lo, hi, 1)[:2]
    ]
    core = solver.solve_many(puzzles, work_budget=work.MAX_BUDGET)
    reference = [engine.solve(p, work_budget=work.MAX_BUDGET) for p in puzzles]
    assert core == reference
