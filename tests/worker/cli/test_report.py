"""The `report` figure: what each panel shows a reader, on collections easy and hard."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from solver import LABELS
from worker.cli.report import figure

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


def test_puzzles_that_needed_search_have_their_own_colour_in_the_score_histogram(
    panels: Any,
) -> None:
    """`extreme` is a label for any score: its puzzles are drawn in its colour, stacked on the
    others of their score, and a legend names them with their count."""
    from matplotlib.colors import to_hex

    from worker.cli.report import COLOURS

    mixed = {
        **SOLVED_MIX,
        "score_label": {(3.2, "hard"): 1, (3.24, "hard"): 2, (8.41, "diabolical"): 1},
    }
    mixed["score_label"] |= {(8.41, "extreme"): 4}
    scores = panels(mixed)["Difficulty score"]
    colours = {to_hex(p.get_facecolor()) for p in bars(scores) if p.get_height()}
    assert COLOURS["extreme"] in colours
    stacked = [p for p in bars(scores) if round(p.get_x() + p.get_width() / 2, 1) == 8.4]
    assert sorted((p.get_y(), p.get_height()) for p in stacked if p.get_height()) == [
        (0, 1),
        (1, 4),
    ]
    legend = scores.get_legend()
    assert [t.get_text() for t in legend.get_texts()] == ["extreme: search was needed (4)"]


def test_a_long_tail_stays_visible_on_a_log_axis_and_counts_read_alike(panels: Any) -> None:
    """100,000 easy puzzles and a tail of 12 hard ones: the score axis turns logarithmic (the
    tail would vanish on a linear one), and every count axis writes 1,000 the same way."""
    tail = {
        **SOLVED_MIX,
        "score_label": {(1.2, "easy"): 100_000, (9.0, "diabolical"): 12},
        "difficulty": {"easy": 100_000, "diabolical": 12},
    }
    drawn = panels(tail)
    scores = drawn["Difficulty score"]
    assert scores.get_yscale() == "log"
    assert "log scale" in scores.get_ylabel()
    for name in ("Difficulty score", "Difficulty label", "Recursion depth"):
        assert drawn[name].yaxis.get_major_formatter()(100_000, 0) == "100,000"
    assert panels(SOLVED_MIX)["Difficulty score"].get_yscale() == "linear"


def test_estimates_held_at_the_top_of_the_scale_are_counted_where_they_pile_up() -> None:
    """With estimates among the ratings, the bar at 11.9 (the scale's top, where estimates are
    clamped) says how many are there and why."""
    from matplotlib import pyplot

    clamped = {
        **SOLVED_MIX,
        "score_label": {(11.9, "extreme"): 28, (2.6, "hard"): 10},
        "rating_state": {"estimated": 28, "exact": 10},
    }
    fig = figure("test", clamped, "classic, solver 1.3.0: fast 38")
    (scores,) = [ax for ax in fig.axes if ax.get_title(loc="left").startswith("Difficulty score")]
    assert "28 estimates clamped at 11.9" in " ".join(texts(scores).split())
    assert "estimates start at 6.3" in texts(scores)
    assert fig.get_suptitle().endswith(
        "ratings: 10 exact, 28 estimated (classic, solver 1.3.0: fast 38)"
    )
    pyplot.close(fig)
