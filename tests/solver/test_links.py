"""SukakuExplainer's strong-linked fishes of three links, and its grouped chains of two
(solver.links), on positions of SukakuExplainer's own solving paths: the rung applies SE's
chosen chain, at SE's value, and nothing else."""

from __future__ import annotations

from types import ModuleType

import pytest

from solver import engine, work
from solver.board import NOTHING, Board
from solver.grid import BIT, parse
from solver.ladder import LADDERS, VALUES, climb
from solver.links import grouped_two_strong_links, three_strong_links
from solver.search import DEFAULT_NODE_BUDGET
from solver.turbot import skyscraper
from tests.solver.parity import SMALL_WORK, fields
from tests.solver.test_techniques import changes

SUKAKU = LADDERS["sukaku"]
BASE = {"three_strong_links": 5.4}

# (rung, puzzle, SE's value for the step, SE's eliminations, SE's hint), from the steps
# SukakuExplainer printed for each puzzle; the values are those of its 1.15.12, the sukaku
# profile's build (its "3-String Kite 0112" is 5.6 there, 5.5 in later releases).
SE_STEPS = [
    (
        "three_strong_links",
        "38......2.2...6.....1..4..369....3..24.9.1.75..8....969..2..7.....7...3.4......29",
        5.4,
        {"r1c5-5", "r1c6-5", "r3c8-5"},
        "3 Skyscrapers 0111",
    ),
    (
        "three_strong_links",
        "3..1....8.9...831...17...94.....365...........432.....28...41...396...8.1....5..9",
        5.5,
        {"r5c1-7"},
        "3 Strong links 0011",
    ),
    (
        "three_strong_links",
        "6..1..9..41...3..5....4..1.....6.573.........578.9.....2..8....7..4...62..4..5..7",
        5.6,
        {"r5c7-8"},
        "3-String Kite 0112",
    ),
    (
        "three_strong_links",
        "5...1...7..........69.8.13..8.3.9.4.....5....32.....59.4..9..8..1.....2....764...",
        5.7,
        {"r2c1-2"},
        "Grouped 3 Strong links 1102",
    ),
    (
        "three_strong_links",
        "7.....81..4...82.....2.6..3...32.9..2..8.4..7..3.67...8..6.2.....95...8..51.....2",
        5.7,
        {"r8c9-6"},
        "Grouped 3-String Kite 1112",
    ),
    (
        "three_strong_links",
        "94.31...23.25.9.....1....3.....9.7.....745.....6.3.....1....3.....1.38.55...82.14",
        5.7,
        {"r3c7-6"},
        "Grouped 3 Skyscrapers 1111",
    ),
    (
        "three_strong_links",
        "5.4.2.8.77.......3...7.3.....8.3.9....5.9.4.....6.4...8..3.2..1.2..6..5.6...8...9",
        5.7,
        {"r2c4-1", "r2c6-1", "r2c8-1", "r3c8-1", "r6c1-1", "r6c2-1", "r6c3-1"},
        "(3 Strong Links) Grouped X-Loop 3012",
    ),
    (
        "three_strong_links",
        "5..8....1.....4.....46123...35...6.8..2...5..6.8...19...61259.....3.....1....8..2",
        5.5,
        {"r2c8-7", "r9c2-7"},
        "(3 Strong Links) X-Loop 0010",
    ),
]


# (puzzle, SE's candidates before the step (729 characters, a cell's nine digits or dots),
# SE's eliminations, SE's hint at 4.3), from SukakuExplainer's `serate --before=%m`: its
# TurbotFish's grouped chains of two links, where the project's path (which applies every
# skyscraper, kite and turbot fish of a step at once) reaches other candidates than SE's.
SE_GROUPED_TWO = [
    (
        "28..15.946...87..2...9.....57....4..92.....53..4....29.....4...8..59...779.82..45",
        (
            ".2..............8.......7....3..6...1............5......3..6...........9...4....."
            ".....6...1.3..............9...4............8.......7......5....1.3.......2......."
            "...4.....1.3..........5............9..3..6....2.......1.3....8.......7..1....6.8."
            "....5..........7..1.3....8..2.........3..6...........9...4.....1....6.8.1....6.8."
            "........9.2.......1......8.1....67.....4.....1....6...1....678.....5......3......"
            "1.3...........6......4.....1.3...7......5...........8.1.....7...2...............9"
            "1.3..........5.....2.......1....6.........7.....4.............91.3..6.8.1....6.8."
            ".......8....4.....1.3..6.......5............91.3..6....2.......1.3..6.........7.."
            "......7..........91.3..6..........8..2.......1.3..6...1.3..6......4.........5...."
        ),
        {"r9c7-6"},
        "Grouped Skyscraper 111",
    ),
    (
        "1...6...4..6...3...4..7..5...5.4.7..4..5.9..6..97265...2..9..3...73.48...........",
        (
            "1..........3.5..89.23....8..2.....89.....6....23.5..8..2......9......7.....4....."
            "......7......5..89.....6......4.....1...5..8.12..5..8...3......12.....8912.....89"
            ".23....89...4......23....8.12.....89......7..123....8......6.......5....12.....89"
            ".23..6.....3..6.......5....1......8....4.....1......8.......7...2......9.23.....9"
            "...4...........7..12.....8.....5......3..............912.......12.....8......6..."
            "..3....8.1.3....8.........9......7...2............6.......5.......4.....1.3....8."
            "....56.8..2.......1..4...8.1....6.8.........91...5.78.1..4.......3......1...5.7.."
            "....56..91....6..9......7....3......1...5.......4............8.12...6..912..5...9"
            "..3.56.891.3..6.891.34...8.12...6.8.1...5..8.12..5.78.1..4....91....6..91...5.7.9"
        ),
        {"r9c2-9"},
        "Grouped 2-String Kite 112",
    ),
]


def stalled(puzzle: str, name: str) -> Board:
    """The puzzle's board once every rung of the sukaku ladder easier than ``name`` stalls."""
    k = [rung.name for rung in SUKAKU].index(name)
    board = Board.from_grid(parse(puzzle))
    _, contradiction = climb(board, SUKAKU[:k])
    assert contradiction is None
    assert not board.solved()
    return board


@pytest.mark.parametrize(
    ("name", "puzzle", "value", "eliminations"),
    [step[:4] for step in SE_STEPS],
    ids=[step[4] for step in SE_STEPS],
)
def test_the_rung_applies_ses_chosen_chain_at_ses_value(
    name: str, puzzle: str, value: float, eliminations: set[str]
) -> None:
    """Where SE's path needs the chain, the rung fires once, at SE's value, making exactly
    SE's eliminations."""
    board = stalled(puzzle, name)
    before = board.copy()
    found = three_strong_links(board)
    assert found.fired == 1
    assert found.contradiction is None
    assert round(BASE[name] + found.bonus / 10, 1) == value
    assert changes(before, board) == eliminations


def at_candidates(puzzle: str, pencilmarks: str) -> Board:
    """The puzzle's board with SE's candidates."""
    board = Board.from_grid(parse(puzzle))
    for i in range(81):
        if not board.values[i]:
            digits = pencilmarks[9 * i : 9 * i + 9]
            board.cands[i] = sum(BIT[d + 1] for d in range(9) if digits[d] != ".")
    return board


@pytest.mark.parametrize(
    ("puzzle", "pencilmarks", "eliminations"),
    [step[:3] for step in SE_GROUPED_TWO],
    ids=[step[3] for step in SE_GROUPED_TWO],
)
def test_a_grouped_chain_of_two_links_makes_ses_eliminations_at_4_3(
    puzzle: str, pencilmarks: str, eliminations: set[str]
) -> None:
    """At SE's candidates, the rung fires once, at 4.3 with no extra, making exactly SE's
    eliminations."""
    board = at_candidates(puzzle, pencilmarks)
    before = board.copy()
    found = grouped_two_strong_links(board)
    assert found.fired == 1
    assert found.contradiction is None
    assert found.bonus == 0
    assert changes(before, board) == eliminations
    assert VALUES["grouped_two_strong_links"] == 4.3


def test_chains_of_two_links_without_a_group_are_left_to_the_turbot_rungs() -> None:
    """A plain skyscraper (no grouped link) is not this rung's: it is 4.0 in SE."""
    puzzle = ".459........71.2.5.2...3..9..83.1.26.1.....5.36.8.51..2..1...3.8.1.57........951."
    board = stalled(puzzle, "skyscraper")
    assert skyscraper(board.copy()).fired
    assert grouped_two_strong_links(board) == NOTHING


def test_a_board_without_candidates_has_no_chain() -> None:
    """A solved grid has no strong link, so neither rung finds anything."""
    solved = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
    board = Board.from_grid(parse(solved))
    assert three_strong_links(board) == NOTHING
    assert grouped_two_strong_links(board) == NOTHING


@pytest.mark.usefixtures("native")
@pytest.mark.parametrize(
    "puzzle", sorted({step[1] for step in SE_STEPS} | {step[0] for step in SE_GROUPED_TWO})
)
@pytest.mark.parametrize("chains", [0, SMALL_WORK, work.DEFAULT])
def test_the_core_and_the_reference_agree_on_puzzles_needing_the_chains(
    native: ModuleType, puzzle: str, chains: int
) -> None:
    """The compiled core rates and solves each puzzle exactly as the Python reference."""
    ((got, _),) = native.solve_many(
        [puzzle], node_budget=DEFAULT_NODE_BUDGET, profile="sukaku", work_budget=chains
    )
    expected = engine.solve(puzzle, profile="sukaku", work_budget=chains)
    assert fields(got) == fields(expected)
