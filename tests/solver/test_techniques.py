"""Each rung of the ladder, on a Sudoku Explainer rated puzzle where it is the next step."""

from __future__ import annotations

from dataclasses import replace
from types import ModuleType

import pytest

import solver
from solver import work
from solver.board import NOTHING, Board, Found
from solver.grid import ALL, BIT, digits_of, parse
from solver.intersections import direct_claiming, sukaku_direct_claiming
from solver.ladder import (
    ESTIMATED,
    EXACT_LADDER,
    LADDER,
    LADDERS,
    PROFILES,
    SE_CHAINS,
    VALUES,
    Rung,
    climb,
)
from solver.rating import LADDER_CEILING

# Puzzles of the Sudoku Exchange bank, rated by Sudoku Explainer at the rung's value where one
# was found (hidden quad and forcing chain: any puzzle that needs them). After the easier
# rungs stall, the rung makes exactly these changes in its first sweep: digits placed
# ("r9c2=7") or candidates removed ("r8c7-8"); a direct rung on the classic ladder: classic
# SE's first instance, its removals and its placement. Direct claiming, which no puzzle of the
# bank needs, is tested on a hand-made board below. For the uniqueness rungs and aligned pair
# exclusion, the changes are those of SE's own step on that puzzle (its `hints` output).
CASES = {
    "full_house": (
        "5.39..8.2.6...8.1.2.......4.4.283..6...1.6...6..794.8.3.......8.9.8...7.8.1..29.3",
        {"r5c5=5"},
    ),
    "hidden_single_box": (
        "...3......17....63.9..2.5....2..439.7.......8.516..4....8.7..3.63....27......5...",
        {"r9c2=7", "r9c5=3"},
    ),
    "hidden_single_line": (
        "....3.....92.4...8.168..2..5....37......8......87....9..1..497.4...2.16.....5....",
        {"r4c5=9"},
    ),
    "direct_pointing": (
        "1....957.798.4....6....2....12.....8.........5.....32....3....5....7.416.612....3",
        {"r3c8-9", "r3c9=9", "r4c8-9", "r5c8-9", "r5c9-9", "r6c9-9"},
    ),
    "direct_hidden_pair": (
        "1..8..57......921..9..4....3..9...5...7...3...2...6..8....2..4..714......64..7..3",
        {"r4c6-4", "r5c1-4", "r5c1-5", "r5c1-8", "r5c6=4", "r5c8-2"},
    ),
    "naked_single": (
        "..2...8....5.2.1..46.....2913..6..52..9.8.4.....3.2.....6.7.2..7.......8.2.519.7.",
        {"r3c5=5"},
    ),
    "direct_hidden_triple": (
        "57..6...3.3...5.6.6.1..7....53.....1....8....9.....27....8..4.2.8.1...3.2...4..19",
        {"r2c1-4", "r8c1=4", "r8c3-4", "r8c3-7", "r8c5-7"},
    ),
    "pointing": (
        ".9...4.3.6.......1..853.9..1..6.34....6...1....54.8..6..4.957..5.......3.7.3...1.",
        {"r8c7-8"},
    ),
    "claiming": (
        ".7.....2...3...7..1..8.5..9.5..3..1...2...4..4...6...2..46.75......1.....1.254.6.",
        {"r5c1-9", "r5c2-9"},
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
    "swordfish": (
        "..96.3..4.1.7...8.4...8...3......641..5...2..164......6...1...2.5...2.6.3..4.75..",
        {"r4c2-8", "r4c4-8", "r7c4-8", "r8c1-8", "r8c9-8"},
    ),
    "hidden_triple": (
        "..41.52...........9..823..4.4.....6..3.218.7.7.8...5.3...5.1.............25...94.",
        {"r2c7-1", "r2c7-6", "r2c7-7", "r2c8-1", "r2c8-5"},
    ),
    "skyscraper": (
        ".4........861...34..15..26....3.584.....4.....589.2....95..83..16...945........1.",
        {"r1c3-2"},
    ),
    "two_string_kite": (
        ".24...65.1.......7..8.1.9...........26..9..83.8.5.1.7.6..9.3..8..28547......7....",
        {"r9c3-5"},
    ),
    "turbot_fish": (
        "4..3...5825.4..31..8.1...........673....6....764...........4.8..13..5.6484...1..5",
        {"r9c7-7"},
    ),
    "empty_rectangle": (
        ".9......6..689....2.37.6.9.1...2.....549.832.....7...4.2.6.78.9....356..3......5.",
        {"r1c3-1"},
    ),
    # SukakuExplainer's step "Grouped Skyscraper 111: Cell r1c2,r9c2,r9c6,r2c6 on value 1".
    "grouped_two_strong_links": (
        "3...5.2.629.3.......6.4.......29..67..2.3.1..48..17.......2.6.......5.749.8.7...3",
        {"r2c3-1"},
    ),
    "xy_wing": (
        ".6..5..3....3.6.....7...4...3.....6..14.2.79.7.......1.........9..147..5.516.987.",
        {"r4c1-5"},
    ),
    "xyz_wing": (
        ".24..9.3....6..974....8..2...1.4....2.7.5.8.9....6.7...7..9....539..6....8.1..29.",
        {"r3c6-3"},
    ),
    "unique_rectangle": (
        "9..8.1..5...6.7...87.....6949.....57.8.....2....375....4.....7...8.6.9..1.9...6.3",
        {"r2c9-4", "r2c9-8"},
    ),
    "unique_loop": (
        "..4...39.12.........3.428.6....53.89...2.1...31.86....7.162.9.........38.45...2..",
        {"r2c9-7", "r5c8-7"},
    ),
    "naked_quad": (
        ".3.612.7....8.4.......5.....1.9.5.2...6.7.1...........3.4.6.7.15..7.8..42.......3",
        {"r1c7-8", "r1c7-9", "r2c7-6"},
    ),
    "jellyfish": (
        "..45..7...2.8...6..6..714..........6..64172..3..........713..9..8...6.5...3..41..",
        {"r2c9-9", "r4c4-9", "r8c1-9"},
    ),
    "hidden_quad": (
        ".....6....5.87..9...725.8..5.....18..63...94..21.....7..5.217...1..93.5....5.....",
        {"r6c5-8"},
    ),
    # SukakuExplainer's strong-linked fishes: its "3 Skyscrapers 0111" (5.4), the step of SE's
    # own path at this position.
    "three_strong_links": (
        "38......2.2...6.....1..4..369....3..24.9.1.75..8....969..2..7.....7...3.4......29",
        {"r1c5-5", "r1c6-5", "r3c8-5"},
    ),
    "wxyz_wing": (
        "..7...5......8....9...7...1.251.893...3...6....9...2.....5.3...7.......6.1.2.7.4.",
        {"r3c7-8"},
    ),
    "vwxyz_wing": (
        "2...59..8...8.26...8.1...5.49....1.7.........8.7....94.3...6.8...69.1...1..73...6",
        {"r7c7-4", "r8c2-5", "r8c2-7"},
    ),
    "bug": (
        "24.9....1..5.74..9.......8..1..2...5.3.4.5.6.8...1..4..2.......7..34.5..4....2.78",
        {"r2c4-1", "r3c1-1", "r3c4=1", "r3c6-1", "r9c4-1"},
    ),
    "bug_type_2": (
        ".....4.7.28..6195..1.23....69....7...45...39...2....85....72.6..2741..39.6.9.....",
        {"r6c7-1"},
    ),
    "bug_type_4": (
        "347....696.......8..87..4.1....7.6.....5.3.....4.8....4.3..91..7.......556....942",
        {"r8c5-6", "r8c6-4"},
    ),
    "bug_type_3": (
        "9.82576.4...9.6....63.1.25..3..9..6...9.6.4....53487...7.....8...4...3...........",
        {"r9c7-1", "r9c9-7"},
    ),
    "aligned_pair_exclusion": (
        "......82.5....2...9.2.514...647.5.....7.8.1.....2.374...543.2.8...5....7.26......",
        {"r1c2-3"},
    ),
    # The chains: puzzles whose first chain in classic SE's path (``hints``) is of the rung, at
    # the position this ladder reaches too; the removals are SE's.
    "bidirectional_x_cycle": (
        ".163.......2.5.1.6.3.....29...2.5..8.7..6..5.2..8.4...68.....1.4.1.2.6.......184.",
        {"r4c2-9", "r6c2-9"},
    ),
    "bidirectional_y_cycle": (
        "..7..9....6..1.27..3.6....96.....1...5..8..9...8.....78....5.3..75.4..2....2..6..",
        {"r9c6-3"},
    ),
    "forcing_x_chain": (
        "7.9.2.....3.9.6...2...4...317....5...9.7.5.8...6....249...7...2...2.1.9.....5.4.6",
        {"r2c3-8"},
    ),
    "bidirectional_cycle": (
        "4.9...7.68...5...3.1.....9.2.47.86.5...9.2.....1...9..78.5.3.41............2.4...",
        {"r1c2-3"},
    ),
    "forcing_xy_chain": (
        "..7...5......8....9...7...1.251.893...3...6....9...2.....5.3...7.......6.1.2.7.4.",
        {"r1c2-8"},
    ),
    # SE's step after its chains find none (its `hints`: "Aligned Triplet Exclusion: R7C7,R8C1,
    # R7C9: r7c7<>7,8").
    "aligned_triplet_exclusion": (
        "...8.4...82.....534.......9.9..7..1.7...1...2..1...5...6.5.1.4...96.21...4.....2.",
        {"r7c7-7", "r7c7-8"},
    ),
    # SE's chains of several assumptions (solver.forcing), each a puzzle classic SE rates by it
    # (ER 7.7, 8.3, 8.8, all reproduced); each change agrees with the puzzle's unique solution.
    "nishio_forcing_chain": (
        "..27.9.3.73....49..9..1...71..5.7..2..9.6.1..2..1.4..99...7..1..81....24.4.2.19..",
        {"r3c3-5"},
    ),
    "multiple_forcing_chain": (
        "....1...26..7...8..2..356.....9..3.1.4.....9.7.3..1.....635..2..3...6..98...4....",
        {"r8c7-1"},
    ),
    "dynamic_forcing_chain": (
        "...4.31......2.6..36.8.....1.....5.8.2.....1.7.9.....3.....8.49..7.3......52.4...",
        {"r9c1-6"},
    ),
    # magictour's top1465: SE's first "(+)" step is a region chain of 12 nodes, 9.3.
    "dynamic_forcing_chain_plus": (
        "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
        {"r5c6-7"},
    ),
    # The forum's hardest list: after a (+) step, SE's first nested step is a contradiction
    # chain of level 2 (NFC+FC, 9.5 + 0.8), r5c4<>9.
    "nested_forcing_chain": (
        "........5..6..87..3......9....1.7.4...7...8...4...6....9..8...3..16..4..5...2....",
        {"r5c4-9"},
    ),
    # The forum's hardest list: its first nested step of level 3 (NFC+MFC) is a region chain
    # of complexity 97, 10.9 (SE's ER for the puzzle, 11.0, is a later step's).
    "nested_multiple_forcing_chain": (
        "..4..3....7..8....2.81....6..3....9..8..2....1..7....3......45....8..9....9..5..8",
        {"r2c9-2"},
    ),
    # The forum's hardest list: its first nested step of level 4 (NFC+DFC) is SE's own (its
    # `hints`): a contradiction chain of 10.5 + 1.1, r1c5<>7, the puzzle's ER (11.6).
    "nested_dynamic_forcing_chain": (
        "1.3.....9..71.9....9.....4..1...7..3....2.8.....5...6.....6.5..6..8...2..7...4...",
        {"r1c5-7"},
    ),
    # The estimate's rung, where SE's chains are not tried (chain budget 0): the same puzzle as
    # SE's multiple forcing chains above; each change agrees with the unique solution.
    "forcing_chain": (
        "....1...26..7...8..2..356.....9..3.1.4.....9.7.3..1.....635..2..3...6..98...4....",
        {"r1c3=7", "r1c8-7", "r3c3-7"},
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


RUNGS = [k for k, rung in enumerate(LADDER) if rung.name in CASES]


def test_every_rung_has_a_case() -> None:
    """Each rung is tested on a puzzle here, except direct claiming (hand-made board)."""
    assert set(CASES) | {"direct_claiming"} == {rung.name for rung in LADDER}


# Rungs whose reference takes many minutes a step (SE's nested chains of level 4): their case
# is climbed and stepped by the compiled core, rung by rung (test_nested compares the core with
# the reference on the rule itself, and with SE on whole puzzles).
BY_CORE = frozenset({"nested_dynamic_forcing_chain"})


def _by_core(rung: Rung, core: ModuleType) -> Rung:
    """The rung applied by the compiled core."""

    def apply(board: Board) -> Found:
        fired, bonus, values, cands, _ = core.apply_technique(
            rung.apply.__name__, board.values, board.cands
        )
        board.values[:], board.cands[:] = values, cands
        board.empty, board.digit_cells = values.count(0), None
        return Found(fired, bonus)

    return replace(rung, apply=apply)


@pytest.mark.parametrize("k", RUNGS, ids=[LADDER[k].name for k in RUNGS])
def test_each_rung_is_the_needed_step_and_makes_its_deduction(
    k: int, request: pytest.FixtureRequest
) -> None:
    """With easier rungs stalled (none fires), the rung fires and makes exactly its change; a
    rung rated by estimate, with the easier rungs a climb tries outside SE's chains. The rungs
    are those of the first profile whose ladder has the rung: a classic case is never solved
    by SukakuExplainer's wings, which classic SE lacks."""
    name = LADDER[k].name
    ladder = next(LADDERS[p] for p in PROFILES if name in {r.name for r in LADDERS[p]})
    if name in BY_CORE:
        core = request.getfixturevalue("core")
        ladder = tuple(_by_core(rung, core) for rung in ladder)
    j = [r.name for r in ladder].index(name)
    rung = ladder[j]
    puzzle, expected = CASES[name]
    board = Board.from_grid(parse(puzzle))
    easier_rungs = [r for r in ladder[:j] if name not in ESTIMATED or r.name not in SE_CHAINS]
    _, contradiction = climb(board, easier_rungs)
    assert not board.solved()
    assert contradiction is None
    for easier in easier_rungs:
        assert easier.apply(board.copy()) == NOTHING, easier.name
    before = board.copy()
    found = rung.apply(board)
    assert found.fired >= 1
    assert found.contradiction is None
    if rung.name.startswith(("hidden_single", "naked_single", "full_house")):
        placed = {c for c in changes(before, board) if "=" in c}
        assert placed == expected
    else:
        assert changes(before, board) == expected


@pytest.mark.parametrize("name", list(CASES))
def test_each_case_is_solved_using_its_technique_and_rated_no_lower(name: str) -> None:
    """solve() solves each case, the rung fires on its path, and the score is at least the
    rung's value (rungs rated by estimate: at least the exact ladder's ceiling), on the first
    profile whose ladder has the rung, SE's chains tried whenever needed (never for a rung
    rated by estimate)."""
    profile = next(p for p in PROFILES if name in {rung.name for rung in LADDERS[p]})
    budget = 0 if name in ESTIMATED else work.MAX_BUDGET
    result = solver.solve(CASES[name][0], profile=profile, work_budget=budget)
    assert result.status == "solved"
    assert name in result.metrics.technique_counts
    assert result.difficulty_score is not None
    assert result.difficulty_score >= min(VALUES[name], LADDER_CEILING)


@pytest.mark.parametrize("name", [r.name for r in LADDER if "classic" not in r.profiles])
def test_the_classic_profile_solves_without_the_turbot_family_as_classic_se_does(
    name: str,
) -> None:
    """Classic Sudoku Explainer has no skyscraper, kite, turbot fish or empty rectangle: on
    the classic ladder a case of one is solved by other rungs, rated at least as hard."""
    classic = solver.solve(CASES[name][0], profile="classic", work_budget=0)
    sukaku = solver.solve(CASES[name][0], profile="sukaku", work_budget=0)
    assert classic.status == "solved"
    assert name not in classic.metrics.technique_counts
    assert classic.difficulty_score is not None
    assert sukaku.difficulty_score is not None
    assert classic.difficulty_score >= sukaku.difficulty_score


def test_direct_claiming_places_the_hidden_single_its_claim_leaves() -> None:
    """Digit 1 of row 1 lies in box 1 only; without r2c3 and r3c3, rows 2 and 3 have one
    place left each: r2c4 and r3c7. Classic SE (1to9only's build) applies one hint, the first
    (row 2's), with the claim's removals; SukakuExplainer, like Juillerat's SE, applies no
    removal, and the step places every single the claim leaves."""
    board = Board([0] * 81, [ALL & ~BIT[1]] * 81)
    for i in (0, 1, 11, 12, 20, 24):
        board.cands[i] |= BIT[1]
    sukaku = board.copy()
    assert direct_claiming(board) == Found(1)
    assert board.values[12] == 1
    assert board.empty == 80  # one placement: r3c7 is left to the next step
    assert not board.cands[20] & BIT[1]  # the claim's removal (r3c3 is no peer of r2c4)
    assert sukaku_direct_claiming(sukaku) == Found(2)
    assert sukaku.values[12] == sukaku.values[24] == 1
    assert sukaku.empty == 79


def test_direct_steps_take_ses_first_instance_with_its_removals() -> None:
    """Classic SE applies one direct hint at a time, the first in its order, with its
    removals; on this puzzle SE rates 2.6, while a step applying both direct hidden pairs
    found at once gives away removals SE never makes and rates 2.0."""
    puzzle = "27..6..389..4.3..6..41.79....95.16......4......3...8...1.....9...7...5.....736..."
    result = solver.solve(puzzle, profile="classic")
    assert (result.difficulty_score, result.ep, result.ed) == (2.6, 1.2, 1.2)


def test_the_ladder_follows_se_order_with_unique_names() -> None:
    """Exact rungs ascend in SE value (except that SE tries its whole turbot family, empty
    rectangle and grouped chains of two links 4.3 included, before XY-Wing 4.2), the
    estimated fallback comes last, names are unique, the ceiling is the top exact rung."""
    names = [rung.name for rung in LADDER]
    out_of_order = {"empty_rectangle", "grouped_two_strong_links"}
    values = [rung.value for rung in EXACT_LADDER if rung.name not in out_of_order]
    assert [rung.name for rung in LADDER if rung.name in ESTIMATED] == names[-len(ESTIMATED) :]
    assert values == sorted(values)
    assert names.index("turbot_fish") < names.index("empty_rectangle") < names.index("xy_wing")
    assert names.index("empty_rectangle") < names.index("grouped_two_strong_links")
    assert names.index("grouped_two_strong_links") < names.index("xy_wing")
    assert len(set(names)) == len(LADDER)
    assert max(rung.value for rung in EXACT_LADDER) == LADDER_CEILING


def test_a_rung_that_finds_nothing_leaves_the_board_unchanged() -> None:
    """Applying a stalled rung again finds nothing and changes no cell."""
    k = [rung.name for rung in LADDER].index("x_wing")
    board = Board.from_grid(parse(CASES["x_wing"][0]))
    climb(board, LADDER[:k])
    before = board.copy()
    for rung in LADDER[:k]:
        assert rung.apply(board) == NOTHING
    assert board.values == before.values
    assert board.cands == before.cands


def test_a_rung_of_a_profile_that_does_not_exist_is_refused() -> None:
    """A misspelt profile in a rung's entry fails where the ladder is declared, naming it,
    instead of leaving the rung off every ladder."""
    with pytest.raises(ValueError, match="clasic"):
        Rung("never_fires", 1.1, lambda board: NOTHING, "never fires", profiles=("clasic",))
