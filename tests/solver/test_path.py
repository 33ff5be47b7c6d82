"""The solving path (solver.path): every step of the ladder's climb, as data, in both backends."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

import solver
from solver import engine, work
from solver.board import Board, eliminate, place
from solver.grid import BIT, parse
from solver.ladder import StepFn, apply_rung, climb_profile
from solver.path import PathStep, SolvingPath, solving_path
from solver.result import SolveResult

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "sample.txt"
PUZZLES = [line for line in SAMPLE.read_text().splitlines() if line and line[0] != "#"]
SINGLES = {"full_house", "hidden_single_box", "hidden_single_line", "naked_single"}

# (sample line among the puzzles, work budget): the hardest step of each, on the classic
# ladder (the sample's order is its sources' order, so these indices are stable).
CASES = {
    "singles": (0, 0),  # hidden singles, 1.2
    "pointing": (3, 0),  # 2.6
    "claiming": (142, 0),  # 2.8
    "naked_pair": (168, 0),  # 3.0
    "hidden_pair": (33, 0),  # 3.4
    "xy_wing": (148, 0),  # 4.2
    "forcing_x_chain": (97, work.DEFAULT),  # 6.6, one of SE's chains within the budget
    "forcing_xy_chain": (24, work.DEFAULT),  # 7.1
    "bidirectional_cycle": (14, work.DEFAULT),  # 7.2
    "estimated_forcing_chain": (14, 0),  # SE's chains never tried: our forcing chain
}
NEEDS_SEARCH = PUZZLES[8]  # singles, then the ladder stalls without SE's chains


def sample(name: str) -> tuple[str, int]:
    """The puzzle and work budget of a case."""
    line, budget = CASES[name]
    return PUZZLES[line], budget


def replay(puzzle: str, steps: tuple[PathStep, ...]) -> Board:
    """The board the steps' placements and removals make from the givens, each change checked
    to be possible where it is made (the cell empty, the digit still a candidate)."""
    board = Board.from_grid(parse(puzzle))
    for step in steps:
        for i, d in step.placed:
            assert place(board, i, BIT[d]).contradiction is None, (step, i, d)
        for i, d in step.removed:
            assert not board.values[i], (step, i)
            assert eliminate(board, i, BIT[d]), (step, i, d)
    return board


def climbed(puzzle: str, budget: int, step: StepFn = apply_rung) -> Board:
    """The board a plain climb (as ``solve`` does it) leaves."""
    board = Board.from_grid(parse(puzzle))
    climb_profile(board, solver.DEFAULT_PROFILE, work.Budget(budget), None, step)
    return board


def core_result(native: ModuleType, puzzle: str, budget: int) -> SolveResult:
    """``solve`` by the compiled core."""
    result: SolveResult = native.solve_many(
        [puzzle], node_budget=solver.DEFAULT_NODE_BUDGET, work_budget=budget
    )[0][0]
    return result


def test_a_singles_puzzle_places_every_empty_cell_exactly_once_and_ends_solved() -> None:
    """A puzzle of singles: only singles, each empty cell placed once with its solution's
    digit, no removal, and the path ends solved."""
    puzzle, budget = sample("singles")
    path = solving_path(puzzle, work_budget=budget)
    solution = engine.solve(puzzle).solution
    assert solution is not None
    placed = [cell for step in path.steps for cell, _ in step.placed]
    assert sorted(placed) == [i for i, c in enumerate(puzzle) if c == "."]
    assert all(solution[i] == str(d) for step in path.steps for i, d in step.placed)
    assert {step.technique for step in path.steps} <= SINGLES
    assert not any(step.removed for step in path.steps)
    assert path.solved
    assert path.stalled == ()


@pytest.mark.parametrize("name", list(CASES))
def test_each_steps_changes_replay_to_the_board_the_climb_leaves(name: str) -> None:
    """Making each step's placements and removals in turn is always possible and gives the
    board of a plain climb: values and candidates alike."""
    puzzle, budget = sample(name)
    path = solving_path(puzzle, work_budget=budget)
    board, expected = replay(puzzle, path.steps), climbed(puzzle, budget)
    assert (board.values, board.cands) == (expected.values, expected.cands)
    assert all(step.placed or step.removed for step in path.steps)


@pytest.mark.parametrize("name", list(CASES))
def test_the_hardest_step_first_step_and_ep_are_solves_rating(name: str) -> None:
    """The path's values are the rating's: its top is the score, its first ED, and its top
    up to the first placement EP, when the rating is exact (never above an estimate)."""
    puzzle, budget = sample(name)
    path = solving_path(puzzle, work_budget=budget)
    result = engine.solve(puzzle, work_budget=budget)
    values = [step.value for step in path.steps]
    assert result.difficulty_score is not None
    assert max(values) <= result.difficulty_score
    if result.rating_exact:
        first = next(k for k, step in enumerate(path.steps) if step.placed)
        assert max(values) == result.difficulty_score
        assert values[0] == result.ed
        assert max(values[: first + 1]) == result.ep


@pytest.mark.parametrize("name", list(CASES))
def test_the_core_gives_the_references_path(name: str, native: ModuleType) -> None:
    """Applied by the compiled core, the path is the reference's, step for step, and its top
    value is the core's own rating."""
    puzzle, budget = sample(name)
    core = solving_path(puzzle, work_budget=budget, step=native.apply_rung)
    assert core == solving_path(puzzle, work_budget=budget)
    result = core_result(native, puzzle, budget)
    if result.rating_exact:
        assert max(step.value for step in core.steps) == result.difficulty_score


@pytest.mark.parametrize("line", [4, 8, 72])
def test_the_cores_path_rates_hard_puzzles_as_the_core_does(line: int, native: ModuleType) -> None:
    """Puzzles of SE's dynamic and nested forcing chains (too slow for the reference): with
    the default work budget the core's path fills the grid and its values are the core's rating."""
    puzzle, budget = PUZZLES[line], work.DEFAULT
    path = solving_path(puzzle, work_budget=budget, step=native.apply_rung)
    result = core_result(native, puzzle, budget)
    assert path.solved
    assert result.rating_exact
    values = [step.value for step in path.steps]
    assert (max(values), values[0]) == (result.difficulty_score, result.ed)


@pytest.mark.parametrize("step", [apply_rung, None], ids=["reference", "core"])
def test_a_puzzle_needing_search_says_where_the_ladder_stalled(
    step: StepFn | None, request: pytest.FixtureRequest
) -> None:
    """Without SE's chains the ladder stalls: the path lists the cells still empty (those the
    steps did not fill), meets no contradiction, and is not solved."""
    if step is None:
        step = request.getfixturevalue("native").apply_rung
    path = solving_path(NEEDS_SEARCH, work_budget=0, step=step)
    placed = {i for s in path.steps for i, _ in s.placed}
    empty = {i for i, c in enumerate(NEEDS_SEARCH) if c == "."}
    assert not path.solved
    assert path.contradiction is None
    assert set(path.stalled) == empty - placed
    assert path.stalled == tuple(sorted(path.stalled))
    assert engine.solve(NEEDS_SEARCH, work_budget=0).metrics.solved_by_elimination is False


def test_conflicting_givens_give_no_step_and_the_conflict() -> None:
    """Givens that clash: no step is tried; the path names the conflict as solve does."""
    puzzle = "55" + "." * 79
    path = solving_path(puzzle)
    assert path.steps == ()
    assert path.contradiction == engine.solve(puzzle).reason
    assert len(path.stalled) == 79


def test_a_puzzle_with_several_solutions_stalls_at_once() -> None:
    """The empty grid: no technique of the ladder fires, every cell is left (SE's chains, which
    would try every assumption in vain, are not tried)."""
    path = solving_path("." * 81, work_budget=0)
    assert (path.steps, path.stalled, path.contradiction) == ((), tuple(range(81)), None)


def test_bad_input_raises_as_solve_does() -> None:
    """A malformed puzzle, an unknown profile or a negative budget are the errors solve
    raises."""
    with pytest.raises(solver.PuzzleFormatError, match="expected 81 cells, got 80"):
        solving_path(PUZZLES[0][:80])
    with pytest.raises(ValueError, match="unknown rating profile"):
        solving_path(PUZZLES[0], profile="nope")
    with pytest.raises(ValueError, match="work_budget"):
        solving_path(PUZZLES[0], work_budget=-1)


def test_a_step_is_json_ready_and_names_its_cells() -> None:
    """to_dict gives plain values: cells as indices and SE names, digits, the value."""
    step = PathStep("pointing", 2.6, ((4, 7),), ((11, 4), (15, 4)))
    assert json.loads(json.dumps(step.to_dict())) == {
        "technique": "pointing",
        "value": 2.6,
        "estimated": False,
        "placed": [{"cell": 4, "name": "r1c5", "digit": 7}],
        "removed": [
            {"cell": 11, "name": "r2c3", "digit": 4},
            {"cell": 15, "name": "r2c7", "digit": 4},
        ],
    }


def test_only_the_steps_of_a_rung_rated_by_estimate_are_marked_estimated() -> None:
    """With a work budget of 0 (SE's chains never tried), our forcing chain's steps say they
    are estimated; with the default budget, no step does."""
    puzzle, _ = sample("estimated_forcing_chain")
    marked = {
        step.technique for step in solving_path(puzzle, work_budget=0).steps if step.estimated
    }
    assert marked == {"forcing_chain"}
    assert not any(step.estimated for step in solving_path(puzzle).steps)


def test_the_path_is_json_ready() -> None:
    """A path's to_dict survives JSON: its steps' dicts, the stalled cells with names, its work
    budget and whether it ran out."""
    path = solving_path(NEEDS_SEARCH, work_budget=0)
    data = json.loads(json.dumps(path.to_dict()))
    assert (data["work_budget"], data["over_budget"]) == (0, False)
    assert data["steps"] == [step.to_dict() for step in path.steps]
    assert [cell["cell"] for cell in data["stalled"]] == list(path.stalled)
    assert data["stalled"][0]["name"] == "r1c1"


@pytest.mark.parametrize("backend", ["python", "native"])
def test_solver_solving_path_gives_the_same_path_in_either_backend(
    backend: str, request: pytest.FixtureRequest
) -> None:
    """``solver.solving_path`` gives the reference's path whichever backend is in use."""
    if backend == "native":
        request.getfixturevalue("native")
    puzzle, budget = sample("bidirectional_cycle")
    active = solver.backend()
    solver.use_backend(backend)
    try:
        path = solver.solving_path(puzzle, work_budget=budget)
    finally:
        solver.use_backend(active)
    assert isinstance(path, SolvingPath)
    assert path == solving_path(puzzle, work_budget=budget)
