"""The ladder: the techniques as rungs in Sudoku Explainer's order, applied easiest first.

After every step that changes the board the climb restarts from the bottom rung, as Sudoku
Explainer does, so the hardest rung used is the hardest step of an easiest-first path. One
step applies every instance a rung finds in one sweep, and is recorded on the path (``Step``).
The order is SE's: ascending value, except that SE tries its whole turbot family (empty
rectangle) before XY-Wing. To add a technique, write a function ``(Board) -> Found`` in its
module, export it from ``solver.techniques``, insert a ``Rung`` where SE tries it, and give the
compiled core the same function under the same name (``solver/core``: the core refuses to load
while a rung has none); the rating's ceiling follows the table.

This table is the one home of the techniques' names and SE values: the compiled core, the
database's documentation and the README read them from here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from solver import techniques as t
from solver.board import Board, Contradiction, Found


@dataclass(frozen=True)
class Rung:
    """A technique on the ladder: its stable name, its SE value and the function applying it."""

    name: str
    value: float
    apply: Callable[[Board], Found]

    @property
    def tenths(self) -> int:
        """The SE value in tenths (an instance's bonus is added in tenths)."""
        return round(self.value * 10)


# In Sudoku Explainer's order (easiest first; SE also tries its direct variants, which place a
# digit, before the naked single).
LADDER: tuple[Rung, ...] = (
    Rung("full_house", 1.0, t.full_house),
    Rung("hidden_single_box", 1.2, t.hidden_single_box),
    Rung("hidden_single_line", 1.5, t.hidden_single_line),
    Rung("direct_pointing", 1.7, t.direct_pointing),
    Rung("direct_claiming", 1.9, t.direct_claiming),
    Rung("direct_hidden_pair", 2.0, t.direct_hidden_pair),
    Rung("naked_single", 2.3, t.naked_single),
    Rung("direct_hidden_triple", 2.5, t.direct_hidden_triple),
    Rung("pointing", 2.6, t.pointing),
    Rung("claiming", 2.8, t.claiming),
    Rung("naked_pair", 3.0, t.naked_pair),
    Rung("x_wing", 3.2, t.x_wing),
    Rung("hidden_pair", 3.4, t.hidden_pair),
    Rung("naked_triple", 3.6, t.naked_triple),
    Rung("swordfish", 3.8, t.swordfish),
    Rung("hidden_triple", 4.0, t.hidden_triple),
    Rung("skyscraper", 4.0, t.skyscraper),
    Rung("two_string_kite", 4.1, t.two_string_kite),
    Rung("turbot_fish", 4.2, t.turbot_fish),
    Rung("empty_rectangle", 4.3, t.empty_rectangle),
    Rung("xy_wing", 4.2, t.xy_wing),
    Rung("xyz_wing", 4.4, t.xyz_wing),
    Rung("unique_rectangle", 4.5, t.unique_rectangle),
    Rung("naked_quad", 5.0, t.naked_quad),
    Rung("jellyfish", 5.2, t.jellyfish),
    Rung("hidden_quad", 5.4, t.hidden_quad),
    Rung("bug", 5.6, t.bug),
    Rung("forcing_chain", 6.6, t.forcing_chain),
)
VALUES = {rung.name: rung.value for rung in LADDER}
# Rungs rated by an estimate rather than their own value (see solver.rating): our forcing
# chains propagate singles dynamically, so they also solve what SE needs much harder chains for.
ESTIMATED = frozenset({"forcing_chain"})
EXACT_LADDER = tuple(rung for rung in LADDER if rung.name not in ESTIMATED)
# Rungs that assume a unique solution: a path using one proves nothing about uniqueness.
ASSUMES_UNIQUENESS = frozenset({"unique_rectangle", "bug"})


@dataclass(frozen=True)
class Step:
    """One step of the path: the rung, its SE value (with the instance's bonus), and whether
    it placed a digit (else it only removed candidates)."""

    name: str
    value: float
    placed: bool


def climb(
    board: Board, rungs: Sequence[Rung] = LADDER, path: list[Step] | None = None
) -> tuple[dict[str, int], Contradiction | None]:
    """Apply the easiest rung that fires until the board is solved, stuck or contradictory.

    Returns how often each rung fired (only rungs that fired, in ladder order) and the
    contradiction that stopped the climb (None if none did); each step is appended to
    ``path`` when one is given.
    """
    counts = [0] * len(rungs)
    k = 0
    while k < len(rungs) and board.empty:
        empty = board.empty
        found = rungs[k].apply(board)
        if found.fired:
            counts[k] += found.fired
            if path is not None:
                value = (rungs[k].tenths + found.bonus) / 10
                path.append(Step(rungs[k].name, value, board.empty < empty))
            k = 0
        else:
            k += 1
        if found.contradiction:
            return _fired(rungs, counts), found.contradiction
    return _fired(rungs, counts), None


def _fired(rungs: Sequence[Rung], counts: list[int]) -> dict[str, int]:
    """The rungs that fired, by name, in ladder order."""
    return {rung.name: n for rung, n in zip(rungs, counts, strict=True) if n}


def merge(*counts: dict[str, int]) -> dict[str, int]:
    """Technique counts of several climbs added up, in ladder order."""
    return {
        rung.name: total for rung in LADDER if (total := sum(c.get(rung.name, 0) for c in counts))
    }


def hardest(counts: dict[str, int]) -> str | None:
    """The technique with the highest SE value among those that fired, or None."""
    return max(counts, key=VALUES.__getitem__, default=None)
