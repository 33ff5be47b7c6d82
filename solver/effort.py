"""Search effort over several symmetric copies of a position, for rating above the ladder.

One search run's guess count depends on tie-breaking: which cell comes first, which digit is
tried first. Relabelling the digits and permuting rows and columns (within bands and stacks,
bands and stacks themselves, and transposing) gives an equivalent puzzle that breaks ties
differently. The mean of log2(1 + guesses) over a few such copies orders puzzles by search
effort more steadily than one run. The copies come from a seed derived from the position,
so the result is reproducible: the seed is a fixed hash of the position and the generator is
splitmix64, both spelled out here (not Python's ``hash`` or ``random``, whose algorithms may
change between Python versions), so every Python and the compiled core draw the same copies.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from solver.grid import BIT, BITS, DIGIT_OF, Mask
from solver.search import Search

COPIES = 4
# Copies are searched only while the runs so far made fewer guesses than this: they steady
# the order of moderate puzzles, while one run of a very hard one already ranks it well and
# further copies would cost several full searches.
COPY_GUESS_LIMIT = 100
MASK64 = (1 << 64) - 1


class SplitMix64:
    """The splitmix64 generator: a 64-bit state, one multiply-xorshift output per step."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A number in range(n); n <= 9 here, so the modulo bias is below 1e-18."""
        return self.next() % n

    def shuffle(self, items: list[int]) -> None:
        """Fisher-Yates, from the last item down."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def coin(self) -> bool:
        """A fair coin: the top bit of the next output."""
        return self.next() >> 63 == 1


def position_seed(masks: Sequence[Mask]) -> int:
    """FNV-1a (64-bit) over the 81 cell masks: the seed of a position's copies."""
    h = 0xCBF29CE484222325
    for m in masks:
        h = ((h ^ m) * 0x100000001B3) & MASK64
    return h


def _line_order(rng: SplitMix64) -> list[int]:
    """A random order of 9 lines that keeps bands (or stacks) together."""
    bands = [0, 1, 2]
    rng.shuffle(bands)
    order = []
    for band in bands:
        inner = [band * 3, band * 3 + 1, band * 3 + 2]
        rng.shuffle(inner)
        order += inner
    return order


def _relabel(mask: Mask, digits: list[int]) -> Mask:
    """The mask with each digit d renamed digits[d - 1]."""
    out = 0
    for bit in BITS[mask]:
        out |= BIT[digits[DIGIT_OF[bit] - 1]]
    return out


def transformed(masks: list[Mask], rng: SplitMix64) -> list[Mask]:
    """A random symmetric copy of a position (same search difficulty, different ties)."""
    rows, cols = _line_order(rng), _line_order(rng)
    digits = list(range(1, 10))
    rng.shuffle(digits)
    flip = rng.coin()
    out = [0] * 81
    for r in range(9):
        for c in range(9):
            source = rows[r] * 9 + cols[c]
            target = c * 9 + r if flip else r * 9 + c
            out[target] = _relabel(masks[source], digits)
    return out


def mean_log_guesses(masks: list[Mask], budget: int, first: int | None = None) -> float:
    """The mean of log2(1 + guesses) over the position and up to COPIES - 1 symmetric copies
    of it (while fewer than COPY_GUESS_LIMIT guesses in all); a run that exceeds ``budget``
    nodes counts as ``budget`` guesses. ``first``: the guesses of a search of the position
    itself already made, if any (it is not repeated)."""
    rng = SplitMix64(position_seed(masks))
    logs = []
    total = 0
    for k in range(COPIES):
        if total >= COPY_GUESS_LIMIT:
            break
        if k == 0 and first is not None:
            guesses = first
        else:
            run = Search(node_budget=budget)
            run.run(transformed(masks, rng) if k else masks)
            guesses = budget if run.gave_up else run.guesses
        total += guesses
        logs.append(math.log2(1 + guesses))
    mean = 0.0
    for value in logs:  # left to right, as the compiled core adds (sum() may compensate)
        mean += value
    return mean / len(logs)
