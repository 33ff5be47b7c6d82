"""Aligned triplet exclusion: SE's step, its removals and value, where SE tries it (after all its
cycles and forcing chains of one assumption), and the ratings it makes exact.

Each case is a puzzle of se_rated_6k whose classic Sudoku Explainer path (its ``hints``
output, quoted) takes an aligned triplet exclusion, its ER 7.5.
"""

from __future__ import annotations

import pytest

import solver
from solver import engine, rating, work
from solver.cycles import SEARCHES
from solver.ladder import (
    LADDERS,
    PROFILES,
    SE_CHAINS,
    VALUES,
)
from solver.search import DEFAULT_NODE_BUDGET
from tests.solver.parity import check_batch, verdict
from tests.solver.test_uniqueness import first_step

SE_STEPS = [
    # (puzzle, SE's removals, SE's step)
    (
        "...8.4...82.....534.......9.9..7..1.7...1...2..1...5...6.5.1.4...96.21...4.....2.",
        {"r7c7-7", "r7c7-8"},
        "Aligned Triplet Exclusion: R7C7,R8C1,R7C9: r7c7<>7,8",
    ),
    (
        "7..1..2...2.7...8...9.4...7....9.1.5.3.....4.1.4.7....2...8.6...9...3.2...6..1..9",
        {"r7c8-1", "r7c9-3"},
        "Aligned Triplet Exclusion: R7C8,R8C1,R7C9: r7c8<>1, r7c9<>3",
    ),
]


@pytest.mark.parametrize(("puzzle", "removed"), [c[:2] for c in SE_STEPS], ids=["1", "2"])
def test_the_rung_takes_se_step_with_se_value(puzzle: str, removed: set[str]) -> None:
    """The rung's first step is SE's: worth 7.5, removing exactly SE's candidates."""
    assert first_step(puzzle, "aligned_triplet_exclusion") == (7.5, removed)


def test_it_follows_every_chain_of_one_assumption_as_in_se() -> None:
    """SE tries it among its chaining producers, after "Forcing Chains & Cycles" and taking
    the first hint: on the ladder it comes after those chains, whatever their value, and
    is tried only with them (within the work budget, on `classic` only)."""
    names = [rung.name for rung in LADDERS["classic"]]
    k = names.index("aligned_triplet_exclusion")
    assert set(names[k - 5 : k]) == {
        rung.__name__ for s in SEARCHES for rung in (s.cycle, s.forcing) if rung
    }
    assert set(names[k - 5 : k]) < SE_CHAINS
    assert VALUES["aligned_triplet_exclusion"] == 7.5
    assert "aligned_triplet_exclusion" in SE_CHAINS
    sukaku = [rung.name for rung in LADDERS["sukaku"]]
    assert sukaku.index("forcing_xy_chain") + 1 == sukaku.index("aligned_triplet_exclusion")


@pytest.mark.parametrize("puzzle", [c[0] for c in SE_STEPS], ids=["1", "2"])
def test_a_puzzle_se_rates_by_it_is_rated_exactly_within_a_work_budget(puzzle: str) -> None:
    """ER 7.5, EP and ED 1.2 in classic SE: the same, flagged exact, core and reference."""
    for result in (
        engine.solve(puzzle, work_budget=work.MAX_BUDGET),
        solver.solve(puzzle, work_budget=work.MAX_BUDGET),
    ):
        assert result.rating_exact
        assert (result.difficulty_score, result.ep, result.ed) == (7.5, 1.2, 1.2)
        assert result.metrics.technique_counts["aligned_triplet_exclusion"] >= 1


def test_with_work_budget_0_it_is_never_tried() -> None:
    """Budget 0 skips it with the chains: the puzzle keeps an estimate, not flagged exact."""
    result = solver.solve(SE_STEPS[0][0], work_budget=0)
    assert not result.rating_exact
    assert "aligned_triplet_exclusion" not in result.metrics.technique_counts
    assert result.difficulty_score is not None
    assert result.difficulty_score >= rating.search_floor(0)


@pytest.mark.usefixtures("native")
@pytest.mark.parametrize("profile", PROFILES)
def test_the_core_takes_the_same_steps_as_the_reference_on_these_puzzles(profile: str) -> None:
    """The puzzles above: identical results from core and reference."""
    numbered = list(enumerate((case[0] for case in SE_STEPS), 1))
    found = check_batch(("SE steps", DEFAULT_NODE_BUDGET, numbered, profile, work.MAX_BUDGET))
    if found:
        pytest.fail(verdict(found, len(numbered)))
