"""A puzzle's canonical form: its minimal lexicographic ("minlex") form, the community's name
for a puzzle up to symmetry (Gordon Royle's 17-given list, the forum's hardest lists).

Definition, so that the form matches theirs:

* The transformations are every composition of the 3,359,232 geometric symmetries, generated
  by transposition, permutations of the three bands, of the three rows within each band, of
  the three stacks and of the three columns within each stack (rotations and reflections
  are among them), with the 9! relabellings of the digits.
* Each transformed grid is read row by row, an empty cell as ``0``; its digits are relabelled
  in order of first appearance (the first given read becomes 1, the next new digit 2, ...),
  which is the smallest relabelling of that grid.
* The canonical form is the smallest of these 81-character strings, written with ``.`` for
  an empty cell as every puzzle string here (``.`` sorts before ``1`` as ``0`` does). Two
  puzzles are isomorphs (one puzzle in disguise) exactly when their forms are equal.

The search goes row by row, keeping every partial transformation whose rows so far equal the
smallest rows so far (``_Partial``): the first output row is a source row of either
orientation, each later row one its band allows. The column order is left open while every
row so far is empty; at the first row with givens, only the column orders that give that row
its smallest pattern are kept (``_orders_for``). The compiled core (``solver/core/canon.c``)
runs the same search.

A form's *key* (``canonical_key``) is a 64-bit digest of it, for a database to index in eight
bytes where the form takes 81: equal forms have equal keys, and two different forms share one
with odds of about one in 2**64, so a lookup by key also compares the forms.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from hashlib import blake2b
from itertools import permutations, product

from solver.grid import Grid, check_grid, parse, to_text

TRIPLES = tuple(permutations(range(3)))  # the orders of three bands, rows, stacks or columns


@dataclass(frozen=True)
class _Partial:
    """A transformation whose first rows are fixed: the orientation's rows, the source rows
    placed so far, the column order (None while every row placed is empty) and the relabelling
    so far (``labels[d]``: the new label of digit ``d``, 0 while unseen)."""

    rows: tuple[Grid, ...]
    placed: tuple[int, ...]
    columns: tuple[int, ...] | None
    labels: tuple[int, ...]


def _orientations(grid: Grid) -> tuple[tuple[Grid, ...], tuple[Grid, ...]]:
    rows = tuple(grid[r * 9 : r * 9 + 9] for r in range(9))
    return rows, tuple(tuple(zip(*rows, strict=True)))


def _next_rows(placed: tuple[int, ...]) -> Iterator[int]:
    """The source rows that may come next: any row of an unused band at a band's start, else
    the rows of the current band not yet placed."""
    if len(placed) % 3 == 0:
        used = {r // 3 for r in placed}
        yield from (r for r in range(9) if r // 3 not in used)
    else:
        band = placed[-1] // 3
        yield from (r for r in range(band * 3, band * 3 + 3) if r not in placed)


def _orders_for(row: Grid) -> Iterator[tuple[int, ...]]:
    """Every column order giving ``row`` (its digits all new) its smallest pattern: stacks by
    ascending number of givens, and in each stack its empty cells first, in any order within
    ties."""
    count = [sum(1 for c in range(s * 3, s * 3 + 3) if row[c]) for s in range(3)]
    stack_orders = [o for o in TRIPLES if count[o[0]] <= count[o[1]] <= count[o[2]]]
    within = []
    for s in range(3):
        empty = [c for c in range(s * 3, s * 3 + 3) if not row[c]]
        given = [c for c in range(s * 3, s * 3 + 3) if row[c]]
        within.append([e + g for e in permutations(empty) for g in permutations(given)])
    for order in stack_orders:
        for parts in product(*(within[s] for s in order)):
            yield tuple(c for part in parts for c in part)


def _relabelled(
    row: Sequence[int], labels: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The row with its digits relabelled (new ones in order of appearance), and the labels."""
    new = list(labels)
    top = max(new)
    out = []
    for d in row:
        if d and not new[d]:
            top += 1
            new[d] = top
        out.append(new[d])
    return tuple(out), tuple(new)


def _extend(partial: _Partial, source: int) -> Iterator[tuple[tuple[int, ...], _Partial]]:
    """The next output row with ``source`` placed, and the partial transformation after it."""
    row = partial.rows[source]
    placed = (*partial.placed, source)
    if partial.columns is None and not any(row):
        yield row, _Partial(partial.rows, placed, None, partial.labels)
        return
    orders = _orders_for(row) if partial.columns is None else (partial.columns,)
    for columns in orders:
        out, labels = _relabelled([row[c] for c in columns], partial.labels)
        yield out, _Partial(partial.rows, placed, columns, labels)


def canonical_grid(grid: Grid) -> Grid:
    """The minlex form of a checked grid, as a grid."""
    partials = [_Partial(rows, (), None, (0,) * 10) for rows in _orientations(grid)]
    form: list[int] = []
    for _ in range(9):
        best: tuple[int, ...] | None = None
        kept: list[_Partial] = []
        for partial in partials:
            for source in _next_rows(partial.placed):
                for out, after in _extend(partial, source):
                    if best is None or out < best:
                        best, kept = out, [after]
                    elif out == best:
                        kept.append(after)
        assert best is not None
        form.extend(best)
        partials = kept
    return tuple(form)


def canonical(puzzle: str | Sequence[int]) -> str:
    """The canonical (minlex) form of a puzzle, 81 characters with ``.`` for an empty cell."""
    grid = parse(puzzle) if isinstance(puzzle, str) else check_grid(puzzle)
    return to_text(canonical_grid(grid))


def canonical_key(form: str) -> int:
    """The key of a canonical form: the first 8 bytes of its BLAKE2b digest, read as a signed
    big-endian integer (a SQL BIGINT)."""
    digest = blake2b(form.encode("ascii"), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)
