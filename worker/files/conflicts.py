"""Conflicting givens, screened in bulk: thousands of normalised puzzles checked at once.

`solver.find_conflict` names the conflict in words, at about 13 microseconds a puzzle; an
import reads hundreds of thousands of puzzles and nearly none has a conflict. Here a whole
list is checked with a few big-integer additions (SIMD within a register), about one
microsecond a puzzle, and only the puzzles flagged go to the solver for their reason.

How: the puzzles are laid end to end as bytes, cell `i` of puzzle `p` at byte `81 * p + i`.
One pass per pair of digits maps each cell to 0x01 (the odd digit), 0x10 (the even one) or 0,
so every byte holds two 4-bit counters. Adding the integer to copies of itself shifted by
whole cells sums any nine cells into the byte of the last one: a row into its last cell, a
column into its cell on row 9, a box into its bottom-right cell. No sum of nine cells can
reach 16, so no counter spills into its neighbour, and a counter of 2 or more (a bit of
0xE set) at one of those bytes is a digit given twice in that unit.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

CELLS = 81
_BYTE = 8
_ROW, _STACK_ROWS = 9 * _BYTE, 27 * _BYTE  # shifts of one row and of three rows
_TWO_OR_MORE = 0xEE  # both counters of a byte: bits set only by counts of 2 to 15


def _pass_table(odd: str, even: str) -> bytes:
    """A bytes.translate table: `odd` -> 0x01, `even` -> 0x10, every other byte -> 0."""
    table = bytearray(256)
    table[ord(odd)] = 0x01
    if even:
        table[ord(even)] = 0x10
    return bytes(table)


_TABLES = tuple(_pass_table(str(d), str(d + 1) if d < 9 else "") for d in (1, 3, 5, 7, 9))
_ROW_ENDS = [9 * r + 8 for r in range(9)]
_COLUMN_ENDS = [72 + c for c in range(9)]
_BOX_ENDS = [27 * band + 3 * stack + 20 for band in range(3) for stack in range(3)]


def _pattern(ends: list[int]) -> bytes:
    return bytes(_TWO_OR_MORE if i in ends else 0 for i in range(CELLS))


@lru_cache(maxsize=4)
def _masks(count: int) -> tuple[int, int, int]:
    """The row, column and box masks of `count` puzzles laid end to end."""
    return tuple(  # type: ignore[return-value]
        int.from_bytes(_pattern(ends) * count, "little")
        for ends in (_ROW_ENDS, _COLUMN_ENDS, _BOX_ENDS)
    )


def conflicting(puzzles: Sequence[str]) -> list[int]:
    """The indices of the puzzles whose givens repeat a digit in a row, a column or a box.

    Every puzzle must be normalised: 81 characters, digits 1-9 and '.'.
    """
    data = "".join(puzzles).encode("ascii")
    if len(data) != CELLS * len(puzzles):
        raise ValueError("every puzzle must be 81 normalised characters")
    row_mask, column_mask, box_mask = _masks(len(puzzles))
    repeats = 0
    for table in _TABLES:
        cells = int.from_bytes(data.translate(table), "little")
        triples = cells + (cells << _BYTE) + (cells << 2 * _BYTE)  # 3 cells of a row
        rows = triples + (triples << 3 * _BYTE) + (triples << 6 * _BYTE)
        boxes = triples + (triples << _ROW) + (triples << 2 * _ROW)
        column_triples = cells + (cells << _ROW) + (cells << 2 * _ROW)
        columns = column_triples + (column_triples << _STACK_ROWS)
        columns += column_triples << 2 * _STACK_ROWS
        repeats |= (rows & row_mask) | (columns & column_mask) | (boxes & box_mask)
    if not repeats:
        return []
    flagged = repeats.to_bytes(len(data), "little")
    return sorted({i // CELLS for i, byte in enumerate(flagged) if byte})
