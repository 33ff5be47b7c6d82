"""Hypothesis strategies for puzzles of every kind: valid ones with holes, near-valid ones,
digit soups, and the forms a caller may pass (text with any empty marker, tuples, lists).

A *grid* here is a tuple of 81 ints, 0 for an empty cell (as ``solver.grid.Grid``).
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

from solver.grid import EMPTY_CHARS, PEERS

Grid = tuple[int, ...]

BASE = tuple((3 * (r % 3) + r // 3 + c) % 9 + 1 for r in range(9) for c in range(9))
# Node budgets: the default, small ones that make the search give up, and the edges of int
# sizes a C core might truncate (2**31 does not fit an int, 2**63 - 1 is the largest int64);
# a negative budget is a ValueError, in both backends alike.
BUDGETS = (1, 10, 1000, 200_000)
EDGE_BUDGETS = (-(2**31), -1, 0, 2**31, 2**32 + 5, 2**63 - 1)
# Whitespace that str.strip() removes, ASCII and not: \x1c-\x1f are whitespace to Python.
WHITESPACE = (" ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1f", "\x85", "\xa0", "\u2003")


def _order(draw: st.DrawFn) -> list[int]:
    """A row (or column) order that keeps bands: shuffle bands, then rows inside each."""
    bands = draw(st.permutations(range(3)))
    return [3 * b + k for b in bands for k in draw(st.permutations(range(3)))]


@st.composite
def solved_grids(draw: st.DrawFn) -> Grid:
    """A valid complete grid: BASE relabelled, rows/columns permuted, maybe transposed."""
    relabel = [0, *draw(st.permutations(range(1, 10)))]
    rows, cols = _order(draw), _order(draw)
    flip = draw(st.booleans())
    cells = [(c, r) if flip else (r, c) for r in range(9) for c in range(9)]
    return tuple(relabel[BASE[rows[r] * 9 + cols[c]]] for r, c in cells)


@st.composite
def holed(draw: st.DrawFn, min_givens: int = 0, max_givens: int = 81) -> Grid:
    """A valid grid with random cells emptied, keeping ``min_givens..max_givens`` givens."""
    full = draw(solved_grids())
    keep = set(_cells(draw, min_givens, max_givens))
    return tuple(d if i in keep else 0 for i, d in enumerate(full))


def _cells(draw: st.DrawFn, least: int, most: int) -> list[int]:
    """Between ``least`` and ``most`` distinct cells, in random order (any count is as likely
    as any other, where hypothesis' own sets favour small ones)."""
    count = draw(st.integers(least, most))
    return list(draw(st.permutations(range(81))))[:count]


@st.composite
def conflicting(draw: st.DrawFn) -> Grid:
    """A valid puzzle plus one given that repeats a digit of one of its peers (invalid)."""
    grid = list(draw(holed(17)))
    cell = draw(st.integers(0, 80))
    peers = [p for p in PEERS[cell] if grid[p]]
    if peers:
        grid[cell] = grid[draw(st.sampled_from(peers))]
    return tuple(grid)


@st.composite
def wrong_given(draw: st.DrawFn) -> Grid:
    """A valid puzzle with one given changed to a digit none of its peers holds: no conflict
    in the givens, but usually no solution (the contradiction paths of ladder and search)."""
    grid = list(draw(holed(20)))
    cell = draw(st.sampled_from([i for i, d in enumerate(grid) if d] or [0]))
    free = [d for d in range(1, 10) if d != grid[cell] and all(grid[p] != d for p in PEERS[cell])]
    if free:
        grid[cell] = draw(st.sampled_from(free))
    return tuple(grid)


@st.composite
def soups(draw: st.DrawFn) -> Grid:
    """Random digits in random cells, any density: mostly invalid, unsolvable or multiple."""
    cells = _cells(draw, 0, 81)
    digits = draw(st.lists(st.integers(1, 9), min_size=len(cells), max_size=len(cells)))
    grid = [0] * 81
    for i, d in zip(cells, digits, strict=True):
        grid[i] = d
    return tuple(grid)


@st.composite
def consistent_soups(draw: st.DrawFn) -> Grid:
    """Random digits placed only where no peer holds them: never invalid, seldom solvable."""
    grid = [0] * 81
    for i in _cells(draw, 0, 40):
        free = [d for d in range(1, 10) if all(grid[p] != d for p in PEERS[i])]
        if free:
            grid[i] = draw(st.sampled_from(free))
    return tuple(grid)


@st.composite
def as_text(draw: st.DrawFn, grid: Grid) -> str:
    """The grid as one line: each empty cell any of ``.0-_*x``, maybe whitespace around."""
    markers = draw(st.sampled_from([*EMPTY_CHARS, "mixed"]))
    cells = []
    for d in grid:
        empty = draw(st.sampled_from(EMPTY_CHARS)) if markers == "mixed" else markers
        cells.append(str(d) if d else empty)
    pad = st.text(st.sampled_from(WHITESPACE), max_size=3)
    return draw(pad) + "".join(cells) + draw(pad)


@st.composite
def forms(draw: st.DrawFn, grid: Grid) -> str | Grid | list[int]:
    """The grid as a caller may pass it: text, a tuple of ints or a list of ints."""
    form = draw(st.sampled_from(["text", "text", "tuple", "list"]))
    if form == "text":
        return str(draw(as_text(grid)))
    return grid if form == "tuple" else list(grid)


def puzzles_of(grids: st.SearchStrategy[Grid]) -> st.SearchStrategy[str | Grid | list[int]]:
    """Puzzles drawn from ``grids``, in any of the forms."""
    return grids.flatmap(forms)


def any_puzzle() -> st.SearchStrategy[str | Grid | list[int]]:
    """A puzzle of any kind above, in any form."""
    kinds = [holed(17), holed(0, 16), conflicting(), wrong_given(), soups(), consistent_soups()]
    return puzzles_of(st.one_of(kinds))


def transformed(puzzle: str, rng: random.Random) -> str:
    """The puzzle under a random symmetry and relabelling, built independently of
    solver.canon: transposition, bands, rows in bands, stacks, columns in stacks, digits."""

    def order() -> list[int]:
        return [b * 3 + r for b in rng.sample(range(3), 3) for r in rng.sample(range(3), 3)]

    rows, cols = order(), order()
    digits = dict(zip("123456789", rng.sample("123456789", 9), strict=True))
    transpose = rng.random() < 0.5
    cells = [puzzle[c * 9 + r] if transpose else puzzle[r * 9 + c] for r in rows for c in cols]
    return "".join(digits.get(ch, ".") for ch in cells)
