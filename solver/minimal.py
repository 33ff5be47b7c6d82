"""Minimality: is every given of a uniquely solvable puzzle needed for its uniqueness?

Vocabulary (besides solver.grid's): a given is *needed* when the puzzle without it has more
than one solution; a puzzle is *minimal* when every given is needed. With the puzzle's one
solution S known, the given c holding d is needed exactly when the *relaxed* puzzle (c emptied,
d forbidden there) has a solution: it is then a second solution of the puzzle without c. Such a
solution differs from S on an *unavoidable set* of S: cells that hold c and no other given.

Each given is proved needed by the cheapest witness found, in this order:

1. a two-digit unavoidable set (no search): the cells of S holding digits a or b, joined where
   a unit links them (each unit holds one a and one b); swapping a and b over a joined part
   keeps every unit whole, so a part holding no given but c proves c needed;
2. a solution of the relaxed puzzle that keeps S outside c's band, then outside c's stack: a
   search over 27 cells, the other 54 fixed;
3. a solution of the relaxed puzzle itself (search.Search stopping at the first); when it has
   none, the given is not needed and the puzzle not minimal (the answer, found at once).
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.grid import (
    ALL,
    BIT,
    BOX_OF,
    COL_OF,
    DIGITS,
    ROW_OF,
    UNITS,
    Grid,
    check_grid,
    is_solution,
    parse,
)
from solver.search import Search

UNBOUNDED = 1 << 62  # nodes: the answer must be exact, and every search here ends anyway
BANDS = tuple(frozenset(i for i in range(81) if ROW_OF[i] // 3 == b) for b in range(3))
STACKS = tuple(frozenset(i for i in range(81) if COL_OF[i] // 3 == s) for s in range(3))
CELL_UNITS = tuple((ROW_OF[i], 9 + COL_OF[i], 18 + BOX_OF[i]) for i in range(81))


def is_minimal(puzzle: str | Sequence[int], solution: str | None = None) -> bool | None:
    """True when every given is needed for uniqueness, False when one is not, None when the
    puzzle does not have exactly one solution (invalid, unsolvable or multiple). ``solution``:
    the puzzle's one solution when a solve proved it (the uniqueness search is then not run
    again; ValueError if it is not a solution of the puzzle). Raises PuzzleFormatError for
    malformed input."""
    grid = parse(puzzle) if isinstance(puzzle, str) else check_grid(puzzle)
    if solution is not None:
        if not is_solution(grid, solution):
            raise ValueError(f"{solution!r} is not a solution of the puzzle")
        return _all_needed(grid, tuple(int(ch) for ch in solution))
    masks = [BIT[d] if d else ALL for d in grid]
    proof = Search(node_budget=UNBOUNDED)
    proof.run(masks)  # givens that clash: a contradiction at once, no solution
    if len(proof.solutions) != 1:
        return None
    return _all_needed(grid, proof.solutions[0])


def _all_needed(grid: Grid, solution: Grid) -> bool:
    """Whether every given of ``grid`` is needed, ``solution`` its one solution."""
    where = [{solution[i]: i for i in unit} for unit in UNITS]
    return all(
        _two_digit_witness(grid, solution, where, i) or _needed(grid, solution, i)
        for i in range(81)
        if grid[i]
    )


def _two_digit_witness(grid: Grid, solution: Grid, where: list[dict[int, int]], given: int) -> bool:
    """Whether a two-digit unavoidable set of S holds ``given`` and no other given (step 1).
    ``where[u][d]``: the cell of unit u where S holds d."""
    d = grid[given]
    return any(_alone(grid, solution, where, given, d + b) for b in DIGITS if b != d)


def _alone(grid: Grid, solution: Grid, where: list[dict[int, int]], given: int, pair: int) -> bool:
    """Whether no other given is joined to ``given`` among the cells of S holding digits a or
    b (``pair``: a + b), each joined to the cells holding the other digit in its three units."""
    part, todo = {given}, [given]
    while todo:
        i = todo.pop()
        other = pair - solution[i]
        for u in CELL_UNITS[i]:
            j = where[u][other]
            if j not in part:
                if grid[j]:
                    return False
                part.add(j)
                todo.append(j)
    return True


def _needed(grid: Grid, solution: Grid, i: int) -> bool:
    """Whether the relaxed puzzle of given ``i`` has a solution (steps 2 and 3)."""
    relaxed = [BIT[d] if d else ALL for d in grid]
    relaxed[i] = ALL & ~BIT[grid[i]]
    for region in (BANDS[ROW_OF[i] // 3], STACKS[COL_OF[i] // 3]):
        kept = [m if j in region else BIT[solution[j]] for j, m in enumerate(relaxed)]
        if _has_solution(kept):
            return True
    return _has_solution(relaxed)


def _has_solution(masks: list[int]) -> bool:
    """Whether the position has a solution: a search stopping at the first."""
    run = Search(node_budget=UNBOUNDED, limit=1)
    run.run(masks)
    return bool(run.solutions)
