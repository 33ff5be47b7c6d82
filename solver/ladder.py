"""The ladder: the techniques as rungs ordered by Sudoku Explainer value, applied easiest first.

After every step that changes the board the climb restarts from the bottom rung, as Sudoku
Explainer does, so the hardest rung used is the hardest step of an easiest-first path. One
step applies every instance a rung finds in one sweep. To add a technique, write a function
``(Board) -> int`` in ``solver.techniques`` and insert a ``Rung`` at its SE value; nothing else
changes (the rating's ceiling follows the table).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from solver import techniques as t
from solver.board import Board


@dataclass(frozen=True)
class Rung:
    """A technique on the ladder: its stable name, its SE value and the function applying it."""

    name: str
    value: float
    apply: Callable[[Board], int]


LADDER: tuple[Rung, ...] = (
    Rung("hidden_single_box", 1.2, t.hidden_single_box),
    Rung("hidden_single_line", 1.5, t.hidden_single_line),
    Rung("naked_single", 2.3, t.naked_single),
    Rung("pointing", 2.6, t.pointing),
    Rung("claiming", 2.8, t.claiming),
    Rung("naked_pair", 3.0, t.naked_pair),
    Rung("x_wing", 3.2, t.x_wing),
    Rung("hidden_pair", 3.4, t.hidden_pair),
    Rung("naked_triple", 3.6, t.naked_triple),
    Rung("hidden_triple", 4.0, t.hidden_triple),
)
VALUES = {rung.name: rung.value for rung in LADDER}


def climb(board: Board, rungs: Sequence[Rung] = LADDER) -> dict[str, int]:
    """Apply the easiest rung that fires until the board is solved, stuck or contradictory.

    Returns how often each rung fired (only rungs that fired, in ladder order).
    """
    counts = [0] * len(rungs)
    k = 0
    while k < len(rungs) and board.empty and board.contradiction is None:
        fired = rungs[k].apply(board)
        if fired:
            counts[k] += fired
            k = 0
        else:
            k += 1
    return {rung.name: n for rung, n in zip(rungs, counts, strict=True) if n}


def hardest(counts: dict[str, int]) -> str | None:
    """The technique with the highest SE value among those that fired, or None."""
    return max(counts, key=VALUES.__getitem__, default=None)
