"""Difficulty on the Sudoku Explainer (SE) scale, and its Sudoku Exchange label.

* Solved by the ladder: the SE value of the hardest technique on the easiest-first path
  (``1.0``, the bottom of the scale, when the puzzle has no empty cell).
* Needs search: ``SEARCH_FLOOR + SEARCH_SLOPE * log2(1 + guesses)``, capped at ``SCALE_TOP``.
  ``SEARCH_FLOOR`` is 0.1 above ``LADDER_CEILING`` (the highest rung of the ladder), so every
  searched puzzle rates strictly above every puzzle the ladder solves, and the score grows with
  the search effort. ``guesses`` counts the whole search, the proof of uniqueness included.
* Labels: easy < 1.5 <= medium < 2.5 <= hard < 5.0 <= diabolical; ``extreme`` for every
  puzzle that needs search, whatever its score.

The slope is a first guess; a later issue calibrates it against rated collections.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from solver.ladder import LADDER, VALUES

LADDER_CEILING = max(rung.value for rung in LADDER)
SEARCH_FLOOR = round(LADDER_CEILING + 0.1, 1)
SEARCH_SLOPE = 0.7
SCALE_TOP = 11.9
SCALE_BOTTOM = 1.0
BUCKETS = ((1.5, "easy"), (2.5, "medium"), (5.0, "hard"))
TOP_BUCKET = "diabolical"
SEARCH_LABEL = "extreme"


def ladder_score(counts: Mapping[str, int]) -> float:
    """The SE value of the hardest technique that fired (SCALE_BOTTOM if none did)."""
    return max((VALUES[name] for name in counts), default=SCALE_BOTTOM)


def search_score(guesses: int) -> float:
    """The score of a puzzle that needed search: monotone in ``guesses``, within the scale."""
    return round(min(SCALE_TOP, SEARCH_FLOOR + SEARCH_SLOPE * math.log2(1 + guesses)), 2)


def label(score: float, searched: bool) -> str:
    """The Sudoku Exchange bucket of a score, or ``extreme`` when search was needed."""
    if searched:
        return SEARCH_LABEL
    return next((name for limit, name in BUCKETS if score < limit), TOP_BUCKET)
