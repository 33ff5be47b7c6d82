"""Unique rectangles, unique loops and BUG types: SE's step, value and removals, per type.

Each case is a puzzle of se_rated_6k whose Sudoku Explainer path (its ``hints`` output, quoted)
takes that step before any chain: on the classic ladder, the rung's first step there has SE's
value (with the type's extra difficulty) and removes exactly SE's candidates.
"""

from __future__ import annotations

import pytest

import solver
from solver import work
from solver.board import Board
from solver.grid import digits_of, parse
from solver.ladder import LADDERS, PROFILES, VALUES
from solver.search import DEFAULT_NODE_BUDGET
from solver.uniqueness import LOOP_BONUS, loop_bonus
from tests.solver.parity import check_batch, verdict
from tests.solver.test_techniques import CASES

NEW_RUNGS = ("unique_loop", "bug_type_2", "bug_type_3", "bug_type_4", "aligned_pair_exclusion")

SE_STEPS = [
    # (puzzle, rung, SE value, SE removals, SE's name of the step)
    (
        ".8.926..45.9..8...........3..6.1.....7.4.9.8.....8.1..6...........2..6.19..361.7.",
        "unique_rectangle",
        4.5,
        {"r7c6-4", "r7c6-7"},
        "Unique Rectangle type 1",
    ),
    (
        "6...4...1.3...87....97.......3.96...9.6...1.3...12.5.......24....24...8.4...1...2",
        "unique_rectangle",
        4.5,
        {"r1c4-3", "r8c5-3"},
        "Unique Rectangle type 2",
    ),
    (
        "9.5..8..1.3...1.7....6....475.2.69.............41.9.563....4....2.8...6.4..3..1.5",
        "unique_rectangle",
        4.5,
        {"r7c8-8"},
        "Unique Rectangle type 3 (w/Hidden Pair)",
    ),
    (
        "7.6.8.1.3.4.1.3.7..3..4..5....9.2.....57.83..2...3...7..7...4....4.1.7..3.......2",
        "unique_rectangle",
        4.6,
        {"r4c1-8"},
        "Unique Rectangle type 3 (w/Naked Pair)",
    ),
    (
        "..31.85...6.....2.....2....63.....54.82...96...5...3..9.67341.28...5...9...9.6...",
        "unique_rectangle",
        4.6,
        {"r2c1-4", "r2c1-7", "r2c9-7"},
        "Unique Rectangle type 3 (w/Hidden Triplet)",
    ),
    (
        ".....7.5.1..5..3...37.891..4.9....1...6.2.4...1....5.7..169.83...3..2..5.6.8.....",
        "unique_rectangle",
        4.7,
        {"r6c4-3", "r6c8-2", "r6c8-8"},
        "Unique Rectangle type 3 (w/Naked Triplet)",
    ),
    (
        ".9...35..87..92.3...38....1....38...3.......4...76....7....93...3.58..27..83...1.",
        "unique_rectangle",
        4.5,
        {"r4c3-6", "r5c3-6"},
        "Unique Rectangle type 4",
    ),
    (
        ".........7.63.89.5..46758...97.3.65..589.271............9...1.....1.3....1..6..8.",
        "unique_loop",
        4.6,
        {"r7c9-6", "r7c9-7"},
        "Unique Loop type 1",
    ),
    (
        "....746.8.86..2..1.......72..79...1.5.......7.1...79..92.......4..2..85.6.849....",
        "unique_loop",
        4.6,
        {"r4c9-6", "r5c8-6"},
        "Unique Loop type 4",
    ),
    (
        "3.........4.5.9.2.26..139..7..8......249.158......4..9..316..92.1.3.2.4.........1",
        "unique_loop",
        4.8,
        {"r6c8-1"},
        "Unique Loop type 3 (w/Naked Triplet)",
    ),
    (
        "8..749..3.2.....1..3..8..9...1...2...79...83.2.......5..32.49...........7..6.3..1",
        "unique_loop",
        4.7,
        {"r7c1-5", "r7c1-6"},
        "Unique Loop 8 type 1",
    ),
    (
        "...9.5.7.7...18.....4..35..496.....8.1.....3.8.....259..31..9.....29...5.7.5.6...",
        "unique_loop",
        4.7,
        {"r1c2-2", "r1c2-8"},
        "Unique Loop 8 type 3 (w/Hidden Pair)",
    ),
    (
        "7..694..5..4...6..3.......9....8.....3.952.1..1.....7..53.7.82..........9.8.3.7.1",
        "unique_loop",
        4.8,
        {"r8c4-4", "r8c8-6", "r8c9-4"},
        "Unique Loop 8 type 3 (w/Naked Pair)",
    ),
    (
        "....5....7.......9.5.642.1.89.....27..2...6.....3.5...1.......5....8....32.5.1.86",
        "unique_loop",
        5.0,
        {"r8c1-4", "r9c7-4"},
        "Unique Loop 10 type 2",
    ),
    (
        ".7.48....4..7.......2...7.49.83...4..2..7..6..1...89.32.3...5.......9..8....45.3.",
        "bug_type_3",
        5.9,
        {"r2c2-3"},
        "BUG type 3 (w/Naked Triplet)",
    ),
    (
        "..5.......24..5.7...126.548.5..3.8....84713....9.5..1.473.186...1.7..48.......7..",
        "bug_type_3",
        6.0,
        {"r1c8-3"},
        "BUG type 3 (w/Naked Quad)",
    ),
    (
        "56........13..6....9.523...75.2....6.........1....4.93...978.5....6..81........62",
        "bug_type_3",
        6.1,
        {"r5c4-1"},
        "BUG type 3 (w/Naked Quintuplet)",
    ),
]


def first_step(puzzle: str, name: str, profile: str = "classic") -> tuple[float, set[str]]:
    """The value and removals of the first step of rung ``name`` on the profile's ladder."""
    rungs = LADDERS[profile]
    board = Board.from_grid(parse(puzzle))
    k = 0
    while k < len(rungs) and board.empty:
        before = board.copy()
        found = rungs[k].apply(board)
        if found.fired and rungs[k].name == name:
            removed = {
                f"r{i // 9 + 1}c{i % 9 + 1}-{d}"
                for i in range(81)
                for d in digits_of(before.cands[i] & ~board.cands[i])
            }
            return (rungs[k].tenths + found.bonus) / 10, removed
        k = 0 if found.fired else k + 1
    raise AssertionError(f"{name} never fired")


@pytest.mark.parametrize(
    ("puzzle", "name", "value", "removed"),
    [case[:4] for case in SE_STEPS],
    ids=[case[4] for case in SE_STEPS],
)
def test_the_rung_takes_se_step_with_se_value(
    puzzle: str, name: str, value: float, removed: set[str]
) -> None:
    """Where SE's step is this unique rectangle, loop or BUG type, the rung's first step has
    SE's value and removes exactly SE's candidates."""
    assert first_step(puzzle, name) == (value, removed)


def test_loop_values_follow_se_by_length() -> None:
    """SE: a rectangle 4.5, a loop of 6 cells 4.6, of 8 cells 4.7, of 10 or more 5.0."""
    assert [4.5 + loop_bonus(n) / 10 for n in (4, 6, 8, 10, 12)] == [4.5, 4.6, 4.7, 5.0, 5.0]
    assert VALUES["unique_loop"] == VALUES["unique_rectangle"] + loop_bonus(6) / 10
    assert [length for length, _ in LOOP_BONUS] == sorted((n for n, _ in LOOP_BONUS), reverse=True)


@pytest.mark.usefixtures("native")
@pytest.mark.parametrize("profile", PROFILES)
def test_the_core_takes_the_same_steps_as_the_reference_on_these_puzzles(profile: str) -> None:
    """The puzzles above and the rungs' cases: identical results from core and reference."""
    puzzles = [case[0] for case in SE_STEPS] + [CASES[name][0] for name in NEW_RUNGS]
    numbered = list(enumerate(puzzles, 1))
    found = check_batch(("SE steps", DEFAULT_NODE_BUDGET, numbered, profile, work.MAX_BUDGET))
    if found:
        pytest.fail(verdict(found, len(puzzles)))


def test_the_sukaku_profile_takes_sukakuexplainer_step_where_the_explainers_differ() -> None:
    """SukakuExplainer (serate --after) takes 'Unique Rectangle type 3: Cells r4c4,r6c4,r6c2,
    r4c2 on 2, 4' at 4.5, removing 5 from r5c2: a hidden pair smaller than the rectangle's
    three extra digits, which classic SE does not look for (it finds no unique rectangle)."""
    puzzle = "4.287..9..9...1......5..3....9.5....3..916..7....3.9....5..4......7...3..1..897.6"
    assert first_step(puzzle, "unique_rectangle", "sukaku") == (4.5, {"r5c2-5"})
    classic = solver.solve(puzzle, profile="classic")
    assert "unique_rectangle" not in classic.metrics.technique_counts
