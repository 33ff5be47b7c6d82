"""The `report` figure (matplotlib): a collection's difficulty at a glance, to share as a PNG.

Top: the histogram of `difficulty_score` on Sudoku Explainer's scale, in SE's steps of 0.1,
the label bands shaded behind it and, when some rating is an estimate, where estimates start;
the title says how many ratings are exact, pending and estimated, and what made them. Below: every
difficulty label, in order, even when no puzzle has it (so two collections' figures compare
at a glance), and the recursion depth of every result on a log count axis (so one tall bar at
0 does not hide the rest). A panel with nothing to show says why instead of staying empty.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from db.tiers import EXACT, FAST, RATING_STATES
from solver import LABELS, STATUSES
from solver.rating import (
    BUCKETS,
    SCALE_BOTTOM,
    SCALE_TOP,
    SEARCH_LABEL,
    TOP_BUCKET,
    search_floor,
)
from worker.cli.progress import counted
from worker.errors import MissingExtra, OutputError

COLOURS = dict(zip(LABELS, ("#fdd049", "#f9a03f", "#f0643c", "#c0223b", "#5c0e3d"), strict=True))
STEP = 0.1  # SE rates in tenths
Distribution = Mapping[Any, int]


def draw_report(
    collection: str, figures: Mapping[str, Distribution], out: Path, rated_with: str = ""
) -> None:
    """The figure of one collection (see `figure`), saved as a PNG."""
    fig = figure(collection, figures, rated_with)
    try:
        fig.savefig(out, dpi=120, facecolor="white")
    except OSError as exc:  # the folder went away, the disk is full
        raise OutputError(out, exc.strerror or str(exc)) from exc
    finally:
        _pyplot().close(fig)


def figure(collection: str, figures: Mapping[str, Distribution], rated_with: str = "") -> Any:
    """The matplotlib figure of one collection, from its distributions of `status`,
    `difficulty`, `difficulty_score`, `recursion_depth` and `rating_state` (value -> distinct
    puzzles), and what made its ratings (`rated_with`, as the summaries word it)."""
    fig = _pyplot().figure(figsize=(12, 8), layout="constrained")
    grid = fig.add_gridspec(2, 2, height_ratios=(1.15, 1), width_ratios=(1, 1.3))
    statuses = figures["status"]
    unsolved = _unsolved(statuses)
    states = figures.get("rating_state", {})
    inexact = sum(n for state, n in states.items() if state != EXACT)
    floor = search_floor(0 if f"{FAST} " in rated_with else 1) if inexact else None
    scores = figures.get("score_label") or _by_band(figures["difficulty_score"])
    _scores(fig.add_subplot(grid[0, :]), scores, unsolved, floor)
    _labels(fig.add_subplot(grid[1, 0]), figures["difficulty"], unsolved)
    _depths(fig.add_subplot(grid[1, 1]), figures["recursion_depth"])
    title = f"{collection}: {_breakdown(statuses)}"
    if ratings := _ratings(states, rated_with):
        title += f"\n{ratings}"
    fig.suptitle(title, fontsize=14, fontweight="bold")
    return fig


def _ratings(states: Distribution, rated_with: str) -> str:
    """`ratings: 290 exact (classic, solver 1.3.0: bulk 271, deep 19)`; "" when none."""
    shown = [f"{states[state]:,} {state}" for state in RATING_STATES if states.get(state)]
    if not shown:
        return ""
    return f"ratings: {', '.join(shown)}" + (f" ({rated_with})" if rated_with else "")


def _pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend (files only, no window)."""
    try:
        import matplotlib
    except ImportError:
        raise MissingExtra("the report", "matplotlib", "report") from None
    matplotlib.use("Agg")
    from matplotlib import pyplot

    return pyplot


def _breakdown(statuses: Distribution) -> str:
    """`290 puzzles, all solved`; `9,994 puzzles (12 solved, 9,982 multiple)`."""
    total = sum(statuses.values())
    if not total:
        return "no results yet"
    present = [s for s in STATUSES if statuses.get(s)]
    if len(present) == 1:
        return f"{counted(total, 'puzzle')}, all {present[0]}"
    return f"{counted(total, 'puzzle')} ({', '.join(f'{statuses[s]:,} {s}' for s in present)})"


def _unsolved(statuses: Distribution) -> str | None:
    """Why there is no difficulty to draw, or None when some puzzle was solved."""
    if statuses.get("solved"):
        return None
    if not statuses:
        return "No results yet"
    others = ", ".join(f"{statuses[s]:,} {s}" for s in STATUSES if statuses.get(s))
    return f"No puzzle solved ({others}):\nonly a puzzle with one solution is rated"


def _note(ax: Any, text: str) -> None:
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, fontsize=12)
    ax.set_xticks([])
    ax.set_yticks([])


def _band(score: float) -> str:
    return next((name for limit, name in BUCKETS if score < limit), TOP_BUCKET)


def _by_band(scores: Distribution) -> dict[tuple[Any, str], int]:
    """Scores with the label their band gives them (no `extreme`: for lack of labels)."""
    return {(s, _band(float(s))): n for s, n in scores.items() if s is not None}


def _count_axis(ax: Any, counts: list[int], label: str = "puzzles") -> None:
    """Counts of puzzles, written alike on every panel (1,234); on a log axis when the tallest
    bar is 30 times the shortest or more, so that a tail of a few puzzles stays visible."""
    shown = [n for n in counts if n]
    if shown and max(shown) >= 30 * min(shown):
        ax.set_yscale("log")
        ax.set_ylim(0.7, max(shown) * 3)
        label += " (log scale)"
    ax.yaxis.set_major_formatter(lambda value, _pos: f"{value:,.0f}")
    ax.set_ylabel(label)


def _scores(
    ax: Any, scores: Mapping[tuple[Any, str], int], unsolved: str | None, floor: float | None
) -> None:
    """The histogram of scores, each bar in the colours of its puzzles' labels (`extreme`, the
    puzzles that needed search, in its own), with where estimates start (`floor`) when some
    are, and how many estimates the top of the scale holds."""
    ax.set_title("Difficulty score (Sudoku Explainer scale, steps of 0.1)", loc="left")
    if unsolved:
        _note(ax, unsolved)
        return
    bins: dict[str, Counter[float]] = {name: Counter() for name in LABELS}
    for (score, name), count in scores.items():
        if score is not None and name in bins:
            bins[name][round(round(float(score) / STEP) * STEP, 1)] += count
    low = SCALE_BOTTOM - STEP
    for bottom, (limit, name) in zip(
        (low, *(limit for limit, _ in BUCKETS)),
        (*BUCKETS, (SCALE_TOP + STEP, TOP_BUCKET)),
        strict=True,
    ):
        ax.axvspan(bottom - STEP / 2, limit - STEP / 2, color=COLOURS[name], alpha=0.13, lw=0)
        middle = (max(bottom, SCALE_BOTTOM) + min(limit, SCALE_TOP)) / 2
        ax.text(middle, 0.97, name, transform=ax.get_xaxis_transform(), ha="center", va="top")
    if floor is not None:  # some ratings are estimates (the title says how many)
        ax.axvline(floor - STEP / 2, color="#555555", ls="--", lw=1)
        ax.text(
            floor,
            0.88,
            f"estimates start at {floor}",
            transform=ax.get_xaxis_transform(),
            va="top",
            color="#555555",
        )
    xs = sorted({x for counts in bins.values() for x in counts})
    below = Counter[float]()
    for name in LABELS:  # stacked, easiest label at the bottom
        if not bins[name]:
            continue
        heights = [bins[name][x] for x in xs]
        ax.bar(xs, heights, width=STEP * 0.9, bottom=[below[x] for x in xs], color=COLOURS[name])
        below.update(bins[name])
    if bins[SEARCH_LABEL]:
        from matplotlib.patches import Patch

        ax.legend(
            handles=[Patch(color=COLOURS[SEARCH_LABEL])],
            labels=[f"{SEARCH_LABEL}: search was needed ({sum(bins[SEARCH_LABEL].values()):,})"],
            loc="upper left",
            bbox_to_anchor=(0.0, 0.9),
        )
    if floor is not None and below[SCALE_TOP]:
        ax.text(
            SCALE_TOP,
            0.78,
            f"{below[SCALE_TOP]:,} estimates\nclamped at {SCALE_TOP}",
            transform=ax.get_xaxis_transform(),
            ha="right",
            va="top",
            color="#555555",
        )
    ax.set_xlim(low, SCALE_TOP + STEP)
    ax.set_xticks(range(int(SCALE_BOTTOM), int(SCALE_TOP) + 1))
    ax.set_xlabel("difficulty_score (higher is harder)")
    _count_axis(ax, [below[x] for x in xs])
    ax.margins(y=0.2)


def _labels(ax: Any, labels: Distribution, unsolved: str | None) -> None:
    ax.set_title("Difficulty label", loc="left")
    if unsolved:
        _note(ax, unsolved)
        return
    counts = [labels.get(name, 0) for name in LABELS]
    bars = ax.bar(LABELS, counts, color=[COLOURS[name] for name in LABELS])
    ax.bar_label(bars, labels=[f"{n:,}" for n in counts], padding=2)
    ax.yaxis.set_major_formatter(lambda value, _pos: f"{value:,.0f}")
    ax.set_ylabel("puzzles")
    ax.margins(y=0.15)


def _depths(ax: Any, depths: Distribution) -> None:
    ax.set_title("Recursion depth of every result (0 = no guessing)", loc="left")
    levels = {int(k): n for k, n in depths.items() if k is not None}
    if not levels:
        _note(ax, "No results yet")
        return
    xs = list(range(max(levels) + 1))
    counts = [levels.get(x, 0) for x in xs]
    bars = ax.bar(xs, counts, color="#4c72b0")
    ax.bar_label(bars, labels=[f"{n:,}" if n else "" for n in counts], padding=2, fontsize=8)
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(lambda value, _pos: f"{value:,.0f}")
    ax.set_ylim(0.7, max(counts) * 3)
    ax.set_xticks(xs if len(xs) <= 25 else xs[:: len(xs) // 20 + 1])
    ax.set_xlabel("deepest level of nested guesses")
    ax.set_ylabel("puzzles (log scale)")
