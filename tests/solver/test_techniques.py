"""Each rung of the ladder, on a Sudoku Explainer rated puzzle where it is the next step."""

from __future__ import annotations

import pytest

from solver.board import Board
from solver.grid import digits_of, parse
from solver.ladder import LADDER, VALUES, climb, hardest
from solver.rating import LADDER_CEILING

# Puzzles of the Sudoku Exchange bank rated by Sudoku Explainer at exactly the rung's value.
# After the easier rungs stall, the rung makes exactly these changes in its first sweep:
# digits placed ("r9c2=7") or candidates removed ("r8c7-8").
CASES = {
    "hidden_single_box": (
        "...3......17....63.9..2.5....2..439.7.......8.516..4....8.7..3.63....27......5...",
        {"r9c2=7", "r9c5=3"},
    ),
    "hidden_single_line": (
        "....3.....92.4...8.168..2..5....37......8......87....9..1..497.4...2.16.....5....",
        {"r4c5=9"},
    ),
    "naked_single": (
        "..2...8....5.2.1..46.....2913..6..52..9.8.4.....3.2.....6.7.2..7.......8.2.519.7.",
        {"r3c5=5"},
    ),
    "pointing": (
        ".9...4.3.6.......1..853.9..1..6.34....6...1....54.8..6..4.957..5.......3.7.3...1.",
        {"r8c7-8"},
    ),
    "claiming": (
        "1.93.8..2.8.7.5.4.........832.....15....1....65.....944.........7.1.6.2.8..9.46.7",
        {"r7c3-5"},
    ),
    "naked_pair": (
        "...4.31..37..9....6...7...9......415..9...7..842......1...5...2....6..81..62.1...",
        {"r9c5-8"},
    ),
    "x_wing": (
        "..3...1..2.8.5.9.3.6.....5.7.......5..63.14..38.....19....3.....3.9.7.8.6.9.2.5.1",
        {"r3c4-1"},
    ),
    "hidden_pair": (
        "...4.8...8.5.6.2.3....1....9..7.5..16.4...9.5..3...7...3.....6.5.1...8.9....2....",
        {"r7c7-4"},
    ),
    "naked_triple": (
        "..8..5.4.4.2.69......4...3965....4...4..1..2...3....7182...6......37.8.2.1.8..7..",
        {"r4c4-9"},
    ),
    "hidden_triple": (
        "..41.52...........9..823..4.4.....6..3.218.7.7.8...5.3...5.1.............25...94.",
        {"r2c7-1", "r2c7-6", "r2c7-7", "r2c8-1", "r2c8-5"},
    ),
}


def changes(before: Board, after: Board) -> set[str]:
    """What a step did: placements as 'r1c2=5', removed candidates as 'r1c2-5'."""
    done = set()
    for i in range(81):
        name = f"r{i // 9 + 1}c{i % 9 + 1}"
        if after.values[i] != before.values[i]:
            done.add(f"{name}={after.values[i]}")
        elif not after.values[i]:
            done.update(f"{name}-{d}" for d in digits_of(before.cands[i] & ~after.cands[i]))
    return done


@pytest.mark.parametrize("k", range(len(LADDER)), ids=[rung.name for rung in LADDER])
def test_each_rung_is_the_needed_step_and_makes_its_deduction(k: int) -> None:
    """With easier rungs stalled (none fires), the rung fires and makes exactly its change."""
    rung = LADDER[k]
    puzzle, expected = CASES[rung.name]
    board = Board.from_grid(parse(puzzle))
    climb(board, LADDER[:k])
    assert not board.solved()
    assert board.contradiction is None
    for easier in LADDER[:k]:
        assert easier.apply(board.copy()) == 0, easier.name
    before = board.copy()
    assert rung.apply(board) >= 1
    assert board.contradiction is None
    if rung.name.startswith(("hidden_single", "naked_single")):
        placed = {c for c in changes(before, board) if "=" in c}
        assert placed == expected
    else:
        assert changes(before, board) == expected


@pytest.mark.parametrize("name", list(CASES))
def test_the_full_ladder_solves_each_case_using_its_technique(name: str) -> None:
    """Climbing the whole ladder solves each case, uses the rung, and rates it no lower.

    (Sudoku Explainer has steps we lack, such as full house at 1.0 and direct variants of
    pointing and pairs, so our hardest step can come out higher than SE's rating.)
    """
    board = Board.from_grid(parse(CASES[name][0]))
    counts = climb(board)
    assert board.solved()
    assert name in counts
    assert VALUES[hardest(counts) or name] >= VALUES[name]


def test_the_ladder_is_ordered_by_se_value_with_unique_names() -> None:
    """Rungs ascend in SE value, names are unique, and the ceiling is the top rung."""
    values = [rung.value for rung in LADDER]
    assert values == sorted(values)
    assert len({rung.name for rung in LADDER}) == len(LADDER)
    assert max(values) == LADDER_CEILING


def test_a_rung_that_finds_nothing_leaves_the_board_unchanged() -> None:
    """Applying a stalled rung again returns 0 and changes no cell."""
    board = Board.from_grid(parse(CASES["x_wing"][0]))
    climb(board, LADDER[:6])
    before = board.copy()
    for rung in LADDER[:6]:
        assert rung.apply(board) == 0
    assert board.values == before.values
    assert board.cands == before.cands
