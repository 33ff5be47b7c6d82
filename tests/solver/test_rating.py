"""The difficulty scale: the path's score, the estimate above the ladder, and the labels."""

from __future__ import annotations

import math

import pytest

import solver
from solver import rating
from solver.ladder import EXACT_LADDER, Step


def test_the_score_is_the_se_value_of_the_hardest_step() -> None:
    """A path of singles and an X-Wing rates 3.2."""
    path = [Step("hidden_single_box", 1.2, True), Step("x_wing", 3.2, False)]
    path.append(Step("naked_single", 2.3, True))
    assert rating.rate(path, None)[0] == 3.2


def test_estimates_sit_strictly_above_every_exact_ladder_value() -> None:
    """Even no effort rates above the top exact rung, which is where the ceiling comes from."""
    assert max(rung.value for rung in EXACT_LADDER) == rating.LADDER_CEILING
    assert rating.estimate(0.0, 0) > rating.LADDER_CEILING
    assert rating.estimate(1.0, 0) > rating.LADDER_CEILING


def test_the_estimate_grows_with_effort_and_candidates() -> None:
    """More search effort or more candidates left never lower the estimate."""
    for n in (0, 40, 120):
        by_effort = [rating.estimate(e, n) for e in (0, 2, 5, 9, 30)]
        assert by_effort == sorted(by_effort)
    for e in (0, 2, 5, 9):
        by_candidates = [rating.estimate(e, n) for n in (0, 40, 120, 400)]
        assert by_candidates == sorted(by_candidates)
    assert rating.estimate(0, 0) == rating.SEARCH_FLOOR


def test_ep_and_ed_follow_sudoku_explainer() -> None:
    """ED: the first step; EP: the hardest step up to the first placement; ER: the hardest."""
    path = [
        Step("pointing", 2.6, False),
        Step("x_wing", 3.2, False),
        Step("hidden_single_box", 1.2, True),
        Step("xy_wing", 4.2, False),
    ]
    assert rating.rate(path, None) == (4.2, 3.2, 2.6)


def test_a_searched_puzzle_rates_at_least_its_hardest_exact_step() -> None:
    """The estimate never undercuts a step the exact ladder took before stalling."""
    path = [
        Step("bug", 5.6, True),
        Step("nested_dynamic_forcing_chain", 10.9, False),
        Step("forcing_chain", 6.6, False),
    ]
    score, ep, ed = rating.rate(path, rating.SEARCH_FLOOR)
    assert rating.SEARCH_FLOOR < 10.9
    assert score == 10.9
    assert (ep, ed) == (5.6, 5.6)


def test_the_result_carries_ep_and_ed() -> None:
    """A solved puzzle reports ER >= EP >= ED... as floats; an unsolved one None."""
    result = solver.solve(
        "...4.31..37..9....6...7...9......415..9...7..842......1...5...2....6..81..62.1..."
    )
    assert result.difficulty_score == 3.0
    assert result.ep is not None
    assert result.ed is not None
    assert result.difficulty_score >= result.ep >= result.ed
    assert solver.solve("." * 81, work_budget=0).ep is None


def test_the_estimate_grows_with_effort_and_is_capped() -> None:
    """More effort never lowers the estimate, and it never passes the top of SE's scale."""
    scores = [rating.estimate(math.log2(1 + g)) for g in (0, 1, 2, 10, 100, 1000, 10**12)]
    assert scores == sorted(scores)
    assert rating.estimate(1e6) == rating.SCALE_TOP == 11.9


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
