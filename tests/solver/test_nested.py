"""SE's dynamic forcing chains "(+)" (dynamic chains that apply pointing, claiming, hidden and
naked pairs and X-wings inside each assumption's run) and its nested forcing chains of level 2
(which also apply its forcing chains and cycles there). Where SE tries them, what they add to a
run, and the ratings they make exact, against classic Sudoku Explainer and SukakuExplainer.
"""

from __future__ import annotations

import random
from types import ModuleType

import pytest

import solver
from solver import cycles, engine, forcing, nested, work
from solver.board import Board
from solver.forcing import DYNAMIC, DYNAMIC_PLUS, NESTED, best_hint, implications
from solver.grid import parse
from solver.ladder import LADDERS, PROFILES, SE_CHAINS, VALUES, climb
from tests.solver.test_techniques import CASES

# Puzzles whose hardest step in SE is a dynamic forcing chain (+), with classic SE's ER, EP and
# ED (serate 1.2.1.3, run on this machine): three of magictour's top 1465, three of the forum's
# hardest list. SukakuExplainer 1.15.12 rates the first three the same.
SE_PLUS = [
    (
        "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
        9.5,
        1.2,
        1.2,
    ),
    (
        "7.8...3.....6.1...5.........4.....263...8.......1...9..9.2....4....7.5...........",
        9.6,
        1.2,
        1.2,
    ),
    (
        "7.....4...2..7..8...3..8..9...5..3...6..2..9...1..7..6...3..9...3..4..6...9..1..5",
        9.8,
        1.2,
        1.2,
    ),
    (
        ".....1.....7.2.....9.6.8..5..1..7....6.9....42.9.........8...59.8....4....6.3...8",
        10.1,
        10.1,
        9.8,
    ),
    (
        "1.......2....1..3...5..34....2..1..4....8.7..6..9.......1..5.4.8.....5..9...6....",
        10.0,
        1.2,
        1.2,
    ),
    (
        "..3.9....1...4..36..8..21...4..8..73...9................4.7..686........7.....5.4",
        9.7,
        9.7,
        2.6,
    ),
]


def test_it_follows_dynamic_forcing_chains_at_ses_value_on_both_profiles() -> None:
    """SE's next producer after dynamic forcing chains, at 9.0, within the chain budget."""
    for profile in PROFILES:
        names = [rung.name for rung in LADDERS[profile]]
        k = names.index("dynamic_forcing_chain")
        assert names[k + 1] == "dynamic_forcing_chain_plus"
    assert VALUES["dynamic_forcing_chain_plus"] == 9.0
    assert "dynamic_forcing_chain_plus" in SE_CHAINS


def _plus_position(puzzle: str) -> Board:
    """The puzzle's board where SE first needs a dynamic forcing chain (+)."""
    ladder = LADDERS["classic"]
    k = [rung.name for rung in ladder].index("dynamic_forcing_chain_plus")
    board = Board.from_grid(parse(puzzle))
    climb(board, ladder[:k])
    assert not board.solved()
    return board


def test_where_dynamic_chains_find_nothing_the_plus_form_finds_a_true_conclusion() -> None:
    board = _plus_position(SE_PLUS[0][0])
    solution = solver.solve(SE_PLUS[0][0], work_budget=0).solution
    assert solution is not None
    assert best_hint(board.cands, DYNAMIC) is None
    hint = best_hint(board.cands, DYNAMIC_PLUS)
    assert hint is not None
    cell, d = divmod(hint.target >> 1, 9)
    assert (int(solution[cell]) == d + 1) == bool(hint.target & 1)


def test_a_run_gains_eliminations_resting_only_on_candidates_it_removed() -> None:
    """From each candidate of the position, the (+) run implies all the dynamic one does, and
    more: the rules' eliminations, whose parents are all "off" potentials of the run (an
    ordinary "off" has one parent, an "on")."""
    board = _plus_position(SE_PLUS[0][0])
    by_rules = 0
    for cell in range(81):
        for d in range(9):
            start = (cell * 9 + d) * 2 + 1
            if not board.cands[cell] >> d & 1:
                continue
            plain = implications(board.cands, start, DYNAMIC)
            plus = implications(board.cands, start, DYNAMIC_PLUS)
            if plain.absurd or plus.absurd:
                continue
            assert set(plain.off) <= set(plus.off)
            for parents in plus.off.values():
                if all(not p & 1 for p in parents):
                    assert parents
                    assert all(p in plus.off for p in parents)
                    by_rules += 1
                else:
                    assert len(parents) == 1
    assert by_rules > 0


def test_a_rule_instance_already_on_the_starting_board_is_not_the_chains() -> None:
    """Without removals by the chain no instance has parents: the rules add nothing."""
    board = _plus_position(SE_PLUS[0][0])
    assert nested.eliminations(board.cands, board.cands) == []


def test_sukakuexplainer_takes_eliminations_in_java_hash_map_order() -> None:
    """Cells by index modulo the table's size (16 up to 12 cells), then as built."""
    assert nested.by_hash([(3, 1), (20, 1), (17, 1)]) == [(17, 1), (3, 1), (20, 1)]
    assert nested.by_cell([(3, 1), (20, 1), (17, 1)]) == [(3, 1), (17, 1), (20, 1)]
    many = [(c, 1) for c in range(13)] + [(16, 1)]  # 14 cells: a table of 32
    assert nested.by_hash(many) == sorted(many)


def test_puzzles_se_rates_by_it_get_ses_er_ep_and_ed_flagged_exact() -> None:
    results = solver.solve_many([p for p, *_ in SE_PLUS], work_budget=work.MAX_BUDGET)
    for result, (_, er, ep, ed) in zip(results, SE_PLUS, strict=True):
        assert result.rating_exact
        assert result.metrics.hardest_technique == "dynamic_forcing_chain_plus"
        assert (result.difficulty_score, result.ep, result.ed) == (er, ep, ed)


def test_sukaku_gets_sukakuexplainers_er_for_them() -> None:
    puzzles = SE_PLUS[:3]
    results = solver.solve_many(
        [p for p, *_ in puzzles], work_budget=work.MAX_BUDGET, profile="sukaku"
    )
    assert [(r.rating_exact, r.difficulty_score) for r in results] == [
        (True, er) for _, er, *_ in puzzles
    ]


@pytest.mark.usefixtures("native")
@pytest.mark.parametrize("profile", PROFILES)
def test_the_core_takes_the_same_steps_as_the_reference(profile: str) -> None:
    puzzle = SE_PLUS[1][0]
    core = solver.solve(puzzle, work_budget=work.MAX_BUDGET, profile=profile)
    assert core == engine.solve(puzzle, work_budget=work.MAX_BUDGET, profile=profile)


# Puzzles of the forum's hardest list whose hardest step in SE is a nested forcing chain of
# level 2 (9.5 and SE's extra for its complexity, nested chains included), with classic SE's
# ER, EP and ED (serate 1.2.1.3, run on this machine).
SE_NESTED = [
    (
        "........5..6..87..3......9....1.7.4...7...8...4...6....9..8...3..16..4..5...2....",
        10.3,
        1.2,
        1.2,
    ),
    (
        "........2..8..91..5......4....9.7.....7.3.8.....8.1.3..4..6...5..97..3..2........",
        10.2,
        1.2,
        1.2,
    ),
    (
        "........7..2...6...8..1..9....9.1.3.3...8...4.9...5....3..9..4...7...2..6..5.....",
        10.2,
        1.2,
        1.2,
    ),
    (
        "........91......35..9.3.8....3.5...67....2......4.......6.8..9..2.7..6..4.....1..",
        10.3,
        10.3,
        10.2,
    ),
    (
        ".......39.8......5..9.6.8....5.9...67....2......4.......3.8..5..2.7..6..4.....1..",
        10.2,
        1.2,
        1.2,
    ),
]


def test_nested_forcing_chains_follow_the_plus_form_level_by_level_at_ses_values() -> None:
    """Levels 2 and 3 (9.5 and 10.0, SE's base) right after the (+) form, on both profiles,
    and level 4 (10.5) after them on the classic one (SukakuExplainer nests deeper chains its
    own way), all within the chain budget."""
    levels = ["nested_forcing_chain", "nested_multiple_forcing_chain"]
    expected = {"classic": [*levels, "nested_dynamic_forcing_chain"], "sukaku": levels}
    for profile, rungs in expected.items():
        names = [rung.name for rung in LADDERS[profile]]
        k = names.index("dynamic_forcing_chain_plus")
        assert names[k + 1 : k + 2 + len(rungs)] == [*rungs, "forcing_chain"]
    assert VALUES["nested_forcing_chain"] == 9.5
    assert VALUES["nested_multiple_forcing_chain"] == 10.0
    assert VALUES["nested_dynamic_forcing_chain"] == 10.5
    assert {*levels, "nested_dynamic_forcing_chain"} <= SE_CHAINS


def _position(puzzle: str, rung: str) -> Board:
    """The puzzle's board where classic SE first needs ``rung``."""
    ladder = LADDERS["classic"]
    k = [r.name for r in ladder].index(rung)
    board = Board.from_grid(parse(puzzle))
    climb(board, ladder[:k])
    assert not board.solved()
    return board


def _check_handed_on(puzzle: str, hints: tuple[cycles.Chain, ...]) -> None:
    """The hints a producer hands a nesting chain on a position of ``puzzle``: more than one,
    each set of removals once, none removing a candidate of the solution."""
    solution = solver.solve(puzzle, work_budget=0).solution
    assert solution is not None
    assert len(hints) > 1
    assert len({h.removals for h in hints}) == len(hints)
    for h in hints:
        for cell, mask in h.removals:
            assert not mask >> (int(solution[cell]) - 1) & 1


def test_every_forcing_chain_and_cycle_handed_on_is_true_and_the_first_is_ses_choice() -> None:
    """On a position where SE applies a forcing chain or cycle, the hints a nesting chain takes
    remove no candidate of the solution, each set of removals comes once, and the first is the
    hint SE applies there."""
    puzzle = "..7...5......8....9...7...1.251.893...3...6....9...2.....5.3...7.......6.1.2.7.4."
    ladder = LADDERS["classic"]
    board = Board.from_grid(parse(puzzle))
    climb(board, ladder[: [r.name for r in ladder].index("bidirectional_x_cycle")])
    hints = cycles.every_hint(tuple(board.cands))
    _check_handed_on(puzzle, hints)
    best = cycles.best_hint(board.cands)
    assert best is not None
    assert (hints[0].order, hints[0].removals) == (best.order, best.removals)


def test_every_dynamic_forcing_chain_handed_on_is_true_and_the_first_is_ses_choice() -> None:
    """On a position where SE applies a dynamic forcing chain, the hints a chain of level 4
    takes there remove no candidate of the solution, each set of removals comes once, and the
    first is the hint SE applies."""
    puzzle, _ = CASES["dynamic_forcing_chain"]
    board = _position(puzzle, "dynamic_forcing_chain")
    hints = forcing.every_dynamic_hint(tuple(board.cands))
    _check_handed_on(puzzle, hints)
    best = best_hint(board.cands, DYNAMIC)
    assert best is not None
    cell, d = divmod(best.target >> 1, 9)
    assert hints[0].complexity == best.complexity
    removed = board.cands[cell] & ~(1 << d) if best.target & 1 else 1 << d
    assert hints[0].removals == ((cell, removed),)


def test_a_nested_run_rests_the_chains_it_applies_on_candidates_it_removed() -> None:
    """Where the (+) form finds nothing, a level-2 run applies forcing chains and cycles on the
    board it leaves: every such "off" rests on "off"s of the run and carries its chain; the
    hint SE applies there is true."""
    board = _position(SE_NESTED[2][0], "nested_forcing_chain")
    assert best_hint(board.cands, DYNAMIC_PLUS) is None
    hint = best_hint(board.cands, NESTED)
    solution = solver.solve(SE_NESTED[2][0], work_budget=0).solution
    assert hint is not None
    assert solution is not None
    cell, d = divmod(hint.target >> 1, 9)
    assert (int(solution[cell]) == d + 1) == bool(hint.target & 1)  # a true conclusion
    nested_offs = 0
    for cell in range(81):
        for d in range(9):
            if board.cands[cell] >> d & 1:
                run = implications(board.cands, (cell * 9 + d) * 2 + 1, NESTED)
                for q, (key, complexity) in run.nested.items():
                    assert run.off[q]
                    assert all(p in run.off for p in run.off[q])
                    assert complexity == len(set(key[0]))  # its potentials
                    nested_offs += 1
    assert nested_offs > 0


# The same for level 3 (NFC+MFC, 10.0 and SE's extra), three of the forum's hardest list.
SE_NESTED_3 = [
    (
        "........7..2..96..8...6...3....92.....46..5...1..54.....5.4.9...3.....7.1.......8",
        11.2,
        11.2,
        2.6,
    ),
    (
        ".....5..4.9.....2...6.7.3.....7..8....86.....13..8......3.1.6...2......54......9.",
        11.5,
        11.5,
        2.6,
    ),
    (
        "..6..1....5..3....9..4....7..1....2..3..9....4..5....13.....68....3..2....2..8..3",
        11.0,
        1.2,
        1.2,
    ),
]


# The same for level 4 (NFC+DFC, 10.5 and SE's extra), of the forum's hardest list (drawn at
# random among those levels 2 and 3 left estimated).
SE_NESTED_4 = [
    (
        "1.3.....9..71.9....9.....4..1...7..3....2.8.....5...6.....6.5..6..8...2..7...4...",
        11.6,
        11.6,
        10.7,
    ),
    (
        ".2.4.....4...8...6..9..31..2..5...7..95.......7....3....29...4......1..3....6.8..",
        11.6,
        1.2,
        1.2,
    ),
    (
        "2.......6.5..8..1...4...9...7.3.1......82.......7.5.3...9...4...8..1..5.6.......2",
        11.8,
        11.8,
        11.4,
    ),
]


@pytest.mark.parametrize(
    ("puzzles", "rung"),
    [
        (SE_NESTED, "nested_forcing_chain"),
        (SE_NESTED_3, "nested_multiple_forcing_chain"),
        (SE_NESTED_4, "nested_dynamic_forcing_chain"),
    ],
    ids=["level 2", "level 3", "level 4"],
)
def test_nested_puzzles_get_ses_er_ep_and_ed_flagged_exact(
    puzzles: list[tuple[str, float, float, float]], rung: str
) -> None:
    results = solver.solve_many([p for p, *_ in puzzles], work_budget=work.MAX_BUDGET)
    for result, (_, er, ep, ed) in zip(results, puzzles, strict=True):
        assert result.rating_exact
        assert result.metrics.hardest_technique == rung
        assert (result.difficulty_score, result.ep, result.ed) == (er, ep, ed)


@pytest.mark.usefixtures("native")
def test_the_core_nests_chains_as_the_reference_does() -> None:
    puzzle = SE_NESTED[2][0]
    core = solver.solve(puzzle, work_budget=work.MAX_BUDGET)
    assert core == engine.solve(puzzle, work_budget=work.MAX_BUDGET)


def _boards_inside_runs(puzzle: str, rung: str, count: int) -> list[tuple[list[int], list[int]]]:
    """(board, source): ``count`` boards where a (+) run from the position where SE needs
    ``rung`` ran dry (its "off"s removed; starts drawn with a fixed seed): the boards on which a
    nested chain applies its chains."""
    source = list(_position(puzzle, rung).cands)
    starts = [(c * 9 + d) * 2 + 1 for c in range(81) for d in range(9) if source[c] >> d & 1]
    out = []
    for start in random.Random(puzzle).sample(starts, len(starts)):
        run = implications(source, start, DYNAMIC_PLUS)
        board = source[:]
        for q in run.off:
            board[(q >> 1) // 9] &= ~(1 << (q >> 1) % 9)
        if not run.absurd and all(board[c] or not source[c] for c in range(81)):
            out.append((board, source))
        if len(out) == count:
            break
    return out


@pytest.mark.parametrize("level", [2, 3, 4])
@pytest.mark.parametrize("hash_order", [False, True])
def test_the_core_applies_the_same_nested_chains_with_the_same_parents(
    core: ModuleType, level: int, hash_order: bool
) -> None:
    """On boards where a run ran dry, the core's nested rules give the reference's eliminations,
    in its order, each with the same parents and the same nested chain's complexity; at level 3
    on boards where forcing chains and cycles give nothing, so that multiple forcing chains do;
    at level 4, dynamic forcing chains (whose chains' "on"s also rest on what their runs
    removed)."""
    order = nested.by_hash if hash_order else nested.by_cell
    boards = _boards_inside_runs(SE_NESTED[2][0], "nested_forcing_chain", 40)
    if level == 3:
        boards = [(b, s) for b, s in boards if not nested.eliminations(b, s, order, 2)]
    chained = 0
    for board, source in boards[:12]:
        reference = [
            (q, parents, 0 if chain is None else chain[1])
            for q, parents, chain in nested.eliminations(board, source, order, level)
        ]
        assert core.nested_eliminations(board, source, level, hash_order) == reference
        chained += sum(1 for *_, complexity in reference if complexity)
    assert chained > 0


def test_sukaku_keeps_an_estimate_flagged_inexact_where_classic_nests_level_4() -> None:
    """SukakuExplainer nests its chains beyond level 3 its own way, which the sukaku profile
    does not follow: a puzzle classic SE rates by level 4 is estimated there, from 10.1."""
    puzzle, *_ = SE_NESTED_4[0]
    result = solver.solve(puzzle, work_budget=work.MAX_BUDGET, profile="sukaku")
    assert not result.rating_exact
    assert result.difficulty_score is not None
    assert result.difficulty_score >= 10.1
    assert "nested_dynamic_forcing_chain" not in result.metrics.technique_counts


def test_sukaku_gets_sukakuexplainers_er_for_nested_chains() -> None:
    """SukakuExplainer 1.15.12 rates these (three of level 2, one of level 3) as classic SE
    does."""
    puzzles = [*SE_NESTED[:3], SE_NESTED_3[0]]
    results = solver.solve_many(
        [p for p, *_ in puzzles], work_budget=work.MAX_BUDGET, profile="sukaku"
    )
    assert [(r.rating_exact, r.difficulty_score) for r in results] == [
        (True, er) for _, er, *_ in puzzles
    ]
