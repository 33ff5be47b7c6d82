"""The `report` figure: what each panel shows a reader, on collections easy and hard."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from solver import LABELS
from worker.report import figure

SOLVED_MIX = {
    "status": {"solved": 8},
    "difficulty": {"hard": 3, "extreme": 5},
    "difficulty_score": {3.2: 1, 3.24: 2, 8.37: 1, 8.41: 4},
    "recursion_depth": {0: 3, 1: 1, 4: 4},
}
NONE_SOLVED = {
    "status": {"multiple": 10},
    "difficulty": {None: 10},
    "difficulty_score": {None: 10},
    "recursion_depth": {40: 6, 47: 4},
}


@pytest.fixture
def panels() -> Iterator[Any]:
    """`panels(figures)`: the figure's axes by their title's first word (Difficulty score,
    Difficulty label, Recursion depth), closed after the test."""
    from matplotlib import pyplot

    drawn = []

    def draw(figures: dict[str, dict[Any, int]]) -> dict[str, Any]:
        fig = figure("test", figures)
        drawn.append(fig)
        return {" ".join(ax.get_title(loc="left").split()[:2]): ax for ax in fig.axes}

    yield draw
    for fig in drawn:
        pyplot.close(fig)


def bars(ax: Any) -> list[Any]:
    """The bars drawn on a panel (not its shaded bands)."""
    return [patch for container in ax.containers for patch in container]


def texts(ax: Any) -> str:
    return " ".join(t.get_text() for t in ax.texts)


def test_every_label_is_on_the_axis_in_order_even_at_zero(panels: Any) -> None:
    """Two collections' figures share one label axis: every label, easiest first."""
    labels = panels(SOLVED_MIX)["Difficulty label"]
    assert [t.get_text() for t in labels.get_xticklabels()] == list(LABELS)
    assert [p.get_height() for p in bars(labels)] == [0, 0, 3, 0, 5]


def test_scores_are_binned_in_steps_of_a_tenth_on_the_whole_scale(panels: Any) -> None:
    """3.2 and 3.24 share a bar, 8.37 and 8.41 another; the axis spans SE's scale."""
    scores = panels(SOLVED_MIX)["Difficulty score"]
    heights = {
        round(p.get_x() + p.get_width() / 2, 1): p.get_height()
        for p in bars(scores)
        if p.get_height()
    }
    assert heights == {3.2: 3, 8.4: 5}
    low, high = scores.get_xlim()
    assert low < 1.0
    assert high > 11.9


def test_the_depth_histogram_counts_on_a_log_axis(panels: Any) -> None:
    """One tall bar at depth 0 does not flatten the others: the count axis is logarithmic."""
    depths = panels(SOLVED_MIX)["Recursion depth"]
    assert depths.get_yscale() == "log"
    assert [p.get_height() for p in bars(depths)] == [3, 1, 0, 0, 4]


def test_a_collection_with_nothing_solved_says_so_instead_of_an_empty_panel(
    panels: Any,
) -> None:
    """No 'None' tick, no empty bars: the score and label panels say why they are empty,
    and the title gives the breakdown by status."""
    drawn = panels(NONE_SOLVED)
    for name in ("Difficulty score", "Difficulty label"):
        assert not bars(drawn[name])
        assert "No puzzle solved (10 multiple)" in texts(drawn[name])
        assert "None" not in [t.get_text() for t in drawn[name].get_xticklabels()]
    assert len(bars(drawn["Recursion depth"])) == 48


def test_the_title_breaks_the_puzzles_down_by_status() -> None:
    """`test: 8 puzzles, all solved`, or each status's count; one puzzle is singular."""
    from matplotlib import pyplot

    for figures, title in (
        (SOLVED_MIX, "test: 8 puzzles, all solved"),
        (NONE_SOLVED, "test: 10 puzzles, all multiple"),
        (
            {**SOLVED_MIX, "status": {"solved": 2, "gave_up": 1}},
            "test: 3 puzzles (2 solved, 1 gave_up)",
        ),
        ({**NONE_SOLVED, "status": {"solved": 1}}, "test: 1 puzzle, all solved"),
    ):
        fig = figure("test", figures)
        assert fig.get_suptitle() == title
        pyplot.close(fig)
