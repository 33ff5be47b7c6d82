"""The solving path as data: every step of the ladder's climb, with what it placed and removed.

A path climbs exactly as ``solve`` does (``ladder.climb_profile``: the profile's exact ladder,
easiest rung first, back to the bottom after each step, SE's chains only within the work
budget, then the whole ladder if that stalls) and records each step by comparing the board
before and after it: the technique (the rung's name), its SE value (the rung's value plus the
instance's bonus, as the rating counts it), the digits placed and the candidates removed. A
removal that only follows from the step's own placements (the placed digit leaving the cell's
peers) is not listed, as Sudoku Explainer's hints do not list it.

Where the climb stops before the grid is full, the path says so: ``stalled`` lists the cells
still empty (the puzzle needs search, or has several solutions) and ``contradiction`` says why
the position cannot be completed, when the climb met one (or the givens conflict). A path never
searches: the solution, uniqueness and the rating come from ``solve``.

The step function is pluggable (``ladder.StepFn``): the reference applies the rung's own
function; ``solver.solving_path`` hands in the compiled core's when it is in use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from solver import work
from solver.board import Board, Found
from solver.engine import Proof
from solver.grid import PEERS, Mask, cell_name, check_grid, digits_of, find_conflict, parse, to_text
from solver.ladder import (
    DEFAULT_PROFILE,
    ESTIMATED,
    Rung,
    Step,
    StepFn,
    apply_rung,
    check_profile,
    climb_profile,
)
from solver.search import DEFAULT_NODE_BUDGET

Placement = tuple[int, int]  # (cell 0..80, digit 1..9): a digit placed, or a candidate removed
Change = tuple[tuple[Placement, ...], tuple[Placement, ...]]  # (placed, removed)


def _placements(pairs: Sequence[Placement]) -> list[dict[str, Any]]:
    """Cells and digits as JSON-ready objects, each cell also by its name (``r1c5``)."""
    return [{"cell": i, "name": cell_name(i), "digit": d} for i, d in pairs]


@dataclass(frozen=True)
class PathStep:
    """One step: the technique (rung name), its SE value, the digits it placed and the
    candidates it removed, each as (cell, digit) in cell order."""

    technique: str
    value: float
    placed: tuple[Placement, ...]
    removed: tuple[Placement, ...]

    @property
    def estimated(self) -> bool:
        """True for a step of a rung rated by estimate (``ladder.ESTIMATED``): its value is the
        rung's own, while the puzzle's score is the estimate."""
        return self.technique in ESTIMATED

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready values."""
        return {
            "technique": self.technique,
            "value": self.value,
            "estimated": self.estimated,
            "placed": _placements(self.placed),
            "removed": _placements(self.removed),
        }


@dataclass(frozen=True)
class SolvingPath:
    """A puzzle's steps on a profile's ladder, and where the climb stopped: ``stalled``, the
    cells still empty (none when the ladder filled the grid); ``contradiction``, why the
    position cannot be completed, if the climb met that (or the givens conflict);
    ``over_budget``, whether the work budget ran out before SE's chains found the next step
    (the steps after it are then those of the estimate's rungs)."""

    puzzle: str
    profile: str
    work_budget: int
    steps: tuple[PathStep, ...]
    stalled: tuple[int, ...]
    contradiction: str | None
    over_budget: bool = False

    @property
    def solved(self) -> bool:
        """True when the ladder alone filled the grid."""
        return not self.stalled and self.contradiction is None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready values; the stalled cells with their names."""
        return {
            "puzzle": self.puzzle,
            "profile": self.profile,
            "work_budget": self.work_budget,
            "steps": [step.to_dict() for step in self.steps],
            "stalled": [{"cell": i, "name": cell_name(i)} for i in self.stalled],
            "contradiction": self.contradiction,
            "over_budget": self.over_budget,
        }


def solving_path(
    puzzle: str | Sequence[int],
    *,
    profile: str = DEFAULT_PROFILE,
    work_budget: int = work.DEFAULT,
    step: StepFn = apply_rung,
) -> SolvingPath:
    """The path of ``puzzle`` (text, or 81 ints with 0 for empty) on the ladder of ``profile``,
    SE's chains doing at most ``work_budget`` units of work, each rung applied by ``step``.

    Raises PuzzleFormatError for malformed input, ValueError for an unknown profile or a
    work budget out of range.
    """
    check_profile(profile)
    chains = work.Budget(work_budget)
    grid = parse(puzzle) if isinstance(puzzle, str) else check_grid(puzzle)
    text = to_text(grid)
    conflict = find_conflict(grid)
    if conflict:
        empty = tuple(i for i, d in enumerate(grid) if not d)
        return SolvingPath(text, profile, work_budget, (), empty, conflict)
    board = Board.from_grid(grid)
    chains.gate = Proof(grid, DEFAULT_NODE_BUDGET).unique_or_unknown  # as `solve` asks
    climbed: list[Step] = []
    changes: list[Change] = []
    _, _, contradiction = climb_profile(board, profile, chains, climbed, _recording(step, changes))
    steps = tuple(
        PathStep(s.name, s.value, placed, removed)
        for s, (placed, removed) in zip(climbed, changes, strict=True)
    )
    empty = tuple(i for i, d in enumerate(board.values) if not d)
    why = None if contradiction is None else str(contradiction)
    return SolvingPath(text, profile, work_budget, steps, empty, why, chains.spent)


def _recording(step: StepFn, changes: list[Change]) -> StepFn:
    """``step``, appending what each application that fires changes to ``changes`` (the climb
    records the same steps' names and values, in the same order)."""

    def apply(rung: Rung, board: Board) -> Found:
        values, cands = board.values[:], board.cands[:]
        found = step(rung, board)
        if found.fired:
            changes.append(change(values, cands, board))
        return found

    return apply


def change(values: Sequence[int], cands: Sequence[Mask], after: Board) -> Change:
    """What turned the position (``values``, ``cands``) into ``after``: the digits placed, and
    the candidates removed from cells still empty, except the placed digits from their peers."""
    placed = tuple((i, d) for i, d in enumerate(after.values) if d and not values[i])
    implied = {(p, d) for i, d in placed for p in PEERS[i]}
    removed = tuple(
        (i, d)
        for i in range(81)
        if not after.values[i]
        for d in digits_of(cands[i] & ~after.cands[i])
        if (i, d) not in implied
    )
    return placed, removed
