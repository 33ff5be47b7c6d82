"""Search effort over several symmetric copies of a position, for rating above the ladder.

One search run's guess count depends on tie-breaking: which cell comes first, which digit is
tried first. Relabelling the digits and permuting rows and columns (within bands and stacks,
bands and stacks themselves, and transposing) gives an equivalent puzzle that breaks ties
differently. The mean of log2(1 + guesses) over a few such copies orders puzzles by search
effort more steadily than one run. The copies come from a seed derived from the position,
so the result is reproducible.
"""

from __future__ import annotations

import math
import random

from solver.grid import BIT, BITS, DIGIT_OF, Mask
from solver.search import Search

COPIES = 4
# Copies are searched only while the runs so far made fewer guesses than this: they steady
# the order of moderate puzzles, while one run of a very hard one already ranks it well and
# further copies would cost several full searches.
COPY_GUESS_LIMIT = 100


def _line_order(rng: random.Random) -> list[int]:
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


def transformed(masks: list[Mask], rng: random.Random) -> list[Mask]:
    """A random symmetric copy of a position (same search difficulty, different ties)."""
    rows, cols = _line_order(rng), _line_order(rng)
    digits = list(range(1, 10))
    rng.shuffle(digits)
    flip = rng.random() < 0.5
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
    rng = random.Random(hash(tuple(masks)) & 0xFFFFFFFF)
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
    return sum(logs) / len(logs)
