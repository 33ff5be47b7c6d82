"""The difficulty scale: ladder scores, the search score above the ladder, and the labels."""

from __future__ import annotations

import pytest

from solver import rating
from solver.ladder import LADDER


def test_the_ladder_score_is_the_se_value_of_the_hardest_technique() -> None:
    """Counts of singles and an X-Wing rate 3.2."""
    counts = {"hidden_single_box": 30, "naked_single": 4, "x_wing": 1}
    assert rating.ladder_score(counts) == 3.2


def test_search_scores_sit_strictly_above_every_ladder_value() -> None:
    """Even one guess rates above the top rung, which is where the ceiling comes from."""
    assert max(rung.value for rung in LADDER) == rating.LADDER_CEILING
    assert rating.search_score(1) > rating.LADDER_CEILING
    assert rating.search_score(0) > rating.LADDER_CEILING


def test_the_search_score_grows_with_effort_and_is_capped() -> None:
    """More guesses never lower the score, and it never passes 11.9."""
    scores = [rating.search_score(g) for g in (0, 1, 2, 10, 100, 1000, 10**6, 10**12)]
    assert scores == sorted(scores)
    assert scores[-1] == rating.SCALE_TOP == 11.9


@pytest.mark.parametrize(
    ("score", "label"),
    [
        (1.2, "easy"),
        (1.49, "easy"),
        (1.5, "medium"),
        (2.3, "medium"),
        (2.5, "hard"),
        (4.0, "hard"),
        (5.0, "diabolical"),
        (7.0, "diabolical"),
    ],
)
def test_labels_follow_the_sudoku_exchange_buckets(score: float, label: str) -> None:
    """easy < 1.5 <= medium < 2.5 <= hard < 5.0 <= diabolical."""
    assert rating.label(score, searched=False) == label


def test_any_puzzle_that_needs_search_is_extreme() -> None:
    """Search overrides the bucket."""
    assert rating.label(4.1, searched=True) == "extreme"
