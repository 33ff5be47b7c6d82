"""SE's bidirectional cycles and forcing chains: SE's values, SE's choice among chains, and the
ratings of puzzles that need them, against classic Sudoku Explainer's own ratings."""

from __future__ import annotations

import pytest

import solver
from solver import chains, engine, rating, work
from solver.board import Board
from solver.cycles import best_hint
from solver.grid import parse
from solver.ladder import (
    LADDER,
    LADDERS,
    SE_CHAINS,
    VALUES,
    climb,
)
from tests.solver.se_rated import tuned

# Positions of classic SE's paths (``hints``) where its next step is a chain: the puzzle, and
# SE's step (its technique and its value with the length's extra).
SE_STEPS = [
    (
        ".163.......2.5.1.6.3.....29...2.5..8.7..6..5.2..8.4...68.....1.4.1.2.6.......184.",
        "bidirectional_x_cycle",
        6.5,
    ),
    (
        "..7..9....6..1.27..3.6....96.....1...5..8..9...8.....78....5.3..75.4..2....2..6..",
        "bidirectional_y_cycle",
        6.8,
    ),
    (
        "7.9.2.....3.9.6...2...4...317....5...9.7.5.8...6....249...7...2...2.1.9.....5.4.6",
        "forcing_x_chain",
        6.7,
    ),
    (
        "4.9...7.68...5...3.1.....9.2.47.86.5...9.2.....1...9..78.5.3.41............2.4...",
        "bidirectional_cycle",
        7.1,
    ),
    (
        "..7...5......8....9...7...1.251.893...3...6....9...2.....5.3...7.......6.1.2.7.4.",
        "forcing_xy_chain",
        7.2,
    ),
]


def test_se_length_extras_step_at_se_lengths() -> None:
    """SE adds 0.1 past each of the lengths 4, 6, 8, 12, 16, 24, ... (a chain of its
    complexity less two), and orders chains by its floating-point sum of those tenths."""
    steps = [n for n in range(1, 100) if chains.LENGTH_BONUS[n] > chains.LENGTH_BONUS[n - 1]]
    assert steps == [5, 7, 9, 13, 17, 25, 33, 49, 65, 97][: len(steps)]
    assert chains.LENGTH_ADDED[9] == 0.1 + 0.1 + 0.1
    # SE's order sees the last bit: a forcing X-chain of 6.6 + 0.3 precedes a cycle of 6.9.
    assert 6.6 + chains.LENGTH_ADDED[9] < 6.5 + chains.LENGTH_ADDED[13]


@pytest.mark.parametrize(("puzzle", "rung", "value"), SE_STEPS, ids=[s[1] for s in SE_STEPS])
def test_the_chain_chosen_is_ses_with_ses_value(puzzle: str, rung: str, value: float) -> None:
    """Where the easier rungs stall, the chain SE applies is of the same technique and worth
    the same value, length included."""
    ladder = LADDERS["classic"]
    first = min(k for k, r in enumerate(ladder) if r.name in SE_CHAINS)
    board = Board.from_grid(parse(puzzle))
    climb(board, ladder[:first])
    hint = best_hint(board.cands)
    assert hint is not None
    assert hint.rung.__name__ == rung
    rung_value = next(r for r in LADDER if r.name == rung)
    assert (rung_value.tenths + hint.bonus) / 10 == value


# SukakuExplainer rates it 6.7: its own rules (strong-linked fishes, wings) find nothing, and
# its step is SE's bidirectional Y-cycle (paths from its serate, `--after`).
SUKAKU_CYCLE = ".4.9.7...12.....7456...1........5.32..4.3.8..23.6........8...4589.....13...1.6.8."


def test_the_sukaku_profile_rates_ses_chains_exactly_after_its_own_rules() -> None:
    """On `sukaku` SE's chains come after SukakuExplainer's own rules, and a puzzle whose step
    is one of them gets SukakuExplainer's rating, flagged exact, within a work budget."""
    ladder = [rung.name for rung in LADDERS["sukaku"]]
    assert ladder.index("vwxyz_wing") < ladder.index("bidirectional_x_cycle")
    result = engine.solve(SUKAKU_CYCLE, profile="sukaku", work_budget=work.MAX_BUDGET)
    assert result.rating_exact
    assert result.difficulty_score == 6.7
    assert result.metrics.hardest_technique == "bidirectional_y_cycle"
    assert not engine.solve(SUKAKU_CYCLE, profile="sukaku", work_budget=0).rating_exact


def exact_work(puzzle: str) -> int:
    """The units of work the reference's exact rating of ``puzzle`` takes (no budget bound)."""
    result = engine.solve(puzzle, work_budget=work.MAX_BUDGET)
    assert result.rating_exact
    return result.metrics.work


def test_a_puzzle_se_rates_by_a_forcing_chain_is_rated_exactly_within_the_work_it_takes() -> None:
    """With a budget of just the work its one chain step takes, a puzzle whose SE step is a
    forcing XY-chain gets SE's value and is flagged exact, spending all of it and not over
    budget (in the core as in the reference)."""
    puzzle, rung, value = SE_STEPS[4]
    needed = exact_work(puzzle)
    for result in (
        engine.solve(puzzle, work_budget=needed),
        solver.solve(puzzle, work_budget=needed),
    ):
        assert result.rating_exact
        assert not result.over_budget
        assert result.difficulty_score == value
        assert result.metrics.technique_counts[rung] == 1
        assert result.metrics.work == needed


def test_with_work_budget_0_the_same_puzzle_keeps_an_estimate_from_the_lower_floor() -> None:
    """Budget 0 never tries SE's chains: the puzzle is rated by the estimate, from 0.1 above
    aligned pair exclusion, and not flagged exact (nor over budget: there was none to spend)."""
    puzzle = SE_STEPS[4][0]
    for result in (engine.solve(puzzle, work_budget=0), solver.solve(puzzle, work_budget=0)):
        assert not result.over_budget
        assert result.metrics.work == 0
        assert not result.rating_exact
        assert result.difficulty_score is not None
        assert result.difficulty_score >= rating.search_floor(0) == 6.3
        assert not SE_CHAINS & set(result.metrics.technique_counts)
        assert "forcing_chain" in result.metrics.technique_counts


def test_a_puzzle_given_less_work_than_its_chain_steps_take_keeps_an_estimate() -> None:
    """A puzzle whose path takes two chain steps, given one unit less than they take: the
    first step is taken, the second abandoned when the budget runs out, the rest left to the
    estimate, from 0.1 above SE's chaining rungs (nested forcing chains, level 4); the rating
    is not flagged exact but over budget, the whole budget spent."""
    puzzle = SE_STEPS[2][0]
    needed = exact_work(puzzle)
    result = engine.solve(puzzle, work_budget=needed - 1)
    counts = result.metrics.technique_counts
    assert sum(n for name, n in counts.items() if name in SE_CHAINS) == 1
    assert not result.rating_exact
    assert result.over_budget
    assert result.metrics.work == needed - 1
    assert result.difficulty_score is not None
    assert result.difficulty_score >= rating.search_floor(1) == rating.SEARCH_FLOOR == 10.6
    assert engine.solve(puzzle, work_budget=needed).rating_exact


def test_the_estimates_floor_is_that_of_the_ladder_the_climb_could_use() -> None:
    """0.1 above the top exact rung the climb could use: SE's chains within a budget (on the
    sukaku profile, up to nested chains of level 3), aligned pair exclusion otherwise."""
    assert rating.search_floor(0) == round(VALUES["aligned_pair_exclusion"] + 0.1, 1)
    assert rating.search_floor(1000) == round(rating.LADDER_CEILING + 0.1, 1)
    top = VALUES["nested_multiple_forcing_chain"]
    assert rating.search_floor(1000, "sukaku") == round(top + 0.1, 1)
    assert rating.search_floor(0, "sukaku") == rating.search_floor(0)


@pytest.mark.parametrize("work_budget", [-1, work.MAX_BUDGET + 1])
def test_a_work_budget_out_of_range_is_refused(work_budget: int) -> None:
    """Below 0 or above work.MAX_BUDGET: ValueError naming it, in both backends."""
    with pytest.raises(ValueError, match="work_budget"):
        engine.solve(SE_STEPS[0][0], work_budget=work_budget)
    with pytest.raises(ValueError, match="work_budget"):
        solver.solve_many([SE_STEPS[0][0]], work_budget=work_budget)


def test_puzzles_se_rates_by_x_chains_and_cycles_get_ses_rating_flagged_exact() -> None:
    """Puzzles rated 6.5-6.9 by classic SE (X-cycles and forcing X-chains, with their length)
    are rated exactly when SE's chains are within the budget, and at least 85% get SE's very
    rating (the rest take another path, where SE uses a rule this ladder lacks: a unique
    rectangle of type 3 or 4, say)."""
    puzzles = [(p, er) for p, er, _, _ in tuned(6.5, 6.9, 12)]
    results = [engine.solve(p, work_budget=work.MAX_BUDGET) for p, _ in puzzles]
    assert all(r.rating_exact for r in results)
    right = sum(r.difficulty_score == er for r, (_, er) in zip(results, puzzles, strict=True))
    assert right >= 0.85 * len(puzzles)


def test_puzzles_se_rates_by_bivalue_chains_get_ses_rating_flagged_exact() -> None:
    """Puzzles rated 7.0-7.3 by classic SE (cycles and forcing chains over bivalue and
    bilocation links) are mostly rated exactly when SE's chains are within the budget, at least
    85% of them at SE's very rating."""
    puzzles = [(p, er) for p, er, _, _ in tuned(7.0, 7.3, 10)]
    results = [engine.solve(p, work_budget=work.MAX_BUDGET) for p, _ in puzzles]
    right = sum(
        r.rating_exact and r.difficulty_score == er
        for r, (_, er) in zip(results, puzzles, strict=True)
    )
    assert right >= 0.85 * len(puzzles)
