"""The vocabulary of the solver, parsing, and the independent checks.

Glossary (these words mean the same everywhere: code, docs, SQL columns, CLI output):

cell        one of the 81 squares, numbered 0..80 row by row; named ``r3c7`` (1-based) in text.
unit        a row, a column or a box: nine cells that must hold the digits 1-9 once each.
            There are 27 units; boxes are numbered 1..9 row by row.
peers       the 20 other cells that share a unit with a cell.
given       a digit printed in the puzzle.
grid        the puzzle as a tuple of 81 ints, 0 for an empty cell (type ``Grid``).
candidates  the digits still possible in an empty cell, as a 9-bit mask: bit ``d - 1`` is set
            when digit ``d`` is possible (type ``Mask``). Zero candidates is a contradiction.
technique   a named, sound deduction that places a digit or removes candidates; techniques form
            the ladder (``solver.ladder``), each with its Sudoku Explainer (SE) value.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from solver.errors import PuzzleFormatError

Grid = tuple[int, ...]
Mask = int

DIGITS = range(1, 10)
ALL: Mask = 0x1FF
EMPTY_CHARS = ".0-_*x"

ROWS = tuple(tuple(r * 9 + c for c in range(9)) for r in range(9))
COLS = tuple(tuple(r * 9 + c for r in range(9)) for c in range(9))
BOXES = tuple(
    tuple((br + r) * 9 + bc + c for r in range(3) for c in range(3))
    for br in (0, 3, 6)
    for bc in (0, 3, 6)
)
UNITS = ROWS + COLS + BOXES

ROW_OF = tuple(i // 9 for i in range(81))
COL_OF = tuple(i % 9 for i in range(81))
BOX_OF = tuple((i // 27) * 3 + (i % 9) // 3 for i in range(81))
# Sudoku Explainer goes through the units by region type, boxes first, then rows, then
# columns; its first hint, and so its step, follows that order. As indices into UNITS: the
# order of all 27, and each cell's own three (its box, row, column).
SE_UNIT_ORDER = (*range(18, 27), *range(9), *range(9, 18))
SE_UNITS_OF = tuple((18 + BOX_OF[i], ROW_OF[i], 9 + COL_OF[i]) for i in range(81))
# Each cell's units as cell tuples in that order, and its peers in that order, each once (SE's
# ``Cell.getHouseCells``).
SE_UNITS = tuple(tuple(UNITS[u] for u in SE_UNITS_OF[i]) for i in range(81))
SE_PEERS = tuple(
    tuple(dict.fromkeys(c for unit in SE_UNITS[i] for c in unit if c != i)) for i in range(81)
)
PEERS = tuple(
    tuple(sorted(set(ROWS[ROW_OF[i]] + COLS[COL_OF[i]] + BOXES[BOX_OF[i]]) - {i}))
    for i in range(81)
)

BIT = (0, *(1 << (d - 1) for d in DIGITS))  # BIT[d]: the mask of digit d
DIGIT_OF = {1 << (d - 1): d for d in DIGITS}  # DIGIT_OF[single-bit mask]: its digit
POPCOUNT = tuple(m.bit_count() for m in range(512))
BITS = tuple(tuple(1 << k for k in range(9) if m >> k & 1) for m in range(512))


def cell_name(i: int) -> str:
    """The cell's name in text: ``r3c7``."""
    return f"r{ROW_OF[i] + 1}c{COL_OF[i] + 1}"


def unit_name(u: int) -> str:
    """The unit's name in text: ``row 3``, ``column 3`` or ``box 3`` (u indexes UNITS)."""
    return f"{('row', 'column', 'box')[u // 9]} {u % 9 + 1}"


def digits_of(mask: Mask) -> list[int]:
    """The digits of a candidate mask, ascending."""
    return [DIGIT_OF[b] for b in BITS[mask]]


_ALLOWED = frozenset("123456789" + EMPTY_CHARS)
_TO_DIGITS = str.maketrans({c: "0" for c in EMPTY_CHARS})


def parse(text: str) -> Grid:
    """The grid of a one-line puzzle; raises PuzzleFormatError saying what is wrong and where."""
    body = text.strip()
    if not _ALLOWED.issuperset(body):
        offset = len(text) - len(text.lstrip())
        for k, ch in enumerate(body):
            if ch not in _ALLOWED:
                column = offset + k + 1
                raise PuzzleFormatError(
                    f"illegal character {ch!r} (U+{ord(ch):04X}) at column {column}", column
                )
    if len(body) != 81:
        raise PuzzleFormatError(f"expected 81 cells, got {len(body)}")
    return tuple(map(int, body.translate(_TO_DIGITS)))


def normalize(text: str) -> str:
    """The puzzle as 81 characters, digits and '.' for an empty cell."""
    return to_text(parse(text))


def to_text(grid: Sequence[int]) -> str:
    """The one-line form of a grid, '.' for an empty cell."""
    return "".join(str(d) if d else "." for d in grid)


def check_grid(grid: Sequence[int]) -> Grid:
    """The grid as a tuple, after checking it is 81 ints 0..9 (PuzzleFormatError otherwise)."""
    if len(grid) != 81:
        raise PuzzleFormatError(f"expected 81 cells, got {len(grid)}")
    for k, d in enumerate(grid):
        if not isinstance(d, int) or isinstance(d, bool) or not 0 <= d <= 9:
            raise PuzzleFormatError(f"illegal cell value {d!r} at column {k + 1}", k + 1)
    return tuple(grid)


def _unit_label(kind: int, index: int, cells: Sequence[int]) -> tuple[str, str]:
    """The unit's name and how to name its cells: ('row 3', 'columns 2 and 7')."""

    def _join(words: list[str]) -> str:
        return ", ".join(words[:-1]) + " and " + words[-1]

    if kind == 0:
        return f"row {index + 1}", "columns " + _join([str(COL_OF[i] + 1) for i in cells])
    if kind == 1:
        return f"column {index + 1}", "rows " + _join([str(ROW_OF[i] + 1) for i in cells])
    return f"box {index + 1}", _join([cell_name(i) for i in cells])


def find_conflict(grid: Sequence[int]) -> str | None:
    """Why the givens already break the rules (first offence found), or None if they do not."""
    if not _any_repeat(grid):
        return None  # the common case, checked with bitmasks; the words are built only if needed
    for n, unit in enumerate(UNITS):
        seen = Counter(grid[i] for i in unit if grid[i])
        for digit, times in seen.items():
            if times > 1:
                cells = [i for i in unit if grid[i] == digit]
                where, which = _unit_label(n // 9, n % 9, cells)
                count = "twice" if times == 2 else f"{times} times"
                return f"digit {digit} appears {count} in {where} ({which})"
    return None


def _any_repeat(grid: Sequence[int]) -> bool:
    """True when some digit is given twice in a row, column or box."""
    seen = [0] * 27
    for i, d in enumerate(grid):
        if d:
            bit = 1 << d
            row, col, box = ROW_OF[i], 9 + COL_OF[i], 18 + BOX_OF[i]
            if (seen[row] | seen[col] | seen[box]) & bit:
                return True
            seen[row] |= bit
            seen[col] |= bit
            seen[box] |= bit
    return False


def is_solution(puzzle: str | Sequence[int], solution: str | Sequence[int]) -> bool:
    """True when ``solution`` is a complete valid grid that keeps every given of ``puzzle``.

    Written independently of the bitmask machinery: plain sets over the 27 units.
    """
    try:
        given = parse(puzzle) if isinstance(puzzle, str) else check_grid(puzzle)
        full = parse(solution) if isinstance(solution, str) else check_grid(solution)
    except PuzzleFormatError:
        return False
    if any(g and g != s for g, s in zip(given, full, strict=True)):
        return False
    return all({full[i] for i in unit} == set(DIGITS) for unit in UNITS)
