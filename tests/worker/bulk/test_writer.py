"""worker.bulk.writer: a batch's parts, solved in different pool processes, are gathered
until the batch is whole; a part that failed fails its batch."""

from __future__ import annotations

from db.imports import BatchWork
from worker.batch import Solved
from worker.bulk.runner import split
from worker.bulk.writer import Gathering, Part

WORK = BatchWork(5, 1, [(10, "a"), (11, "b"), (12, "c")])
OTHER = BatchWork(6, 1, [(20, "d")])
SOLVED = Solved(rows=[], paths=[])


def parts_of(work: BatchWork, count: int) -> list[Part]:
    pieces = split(work, count)
    return [Part(piece, len(pieces), SOLVED) for piece in pieces]


def test_a_batch_is_whole_only_once_its_last_part_is_in_whatever_the_order() -> None:
    gathering = Gathering()
    first, second, third = parts_of(WORK, 3)
    [other] = parts_of(OTHER, 1)
    assert gathering.add([third, first]) == []
    [whole_other] = gathering.add([other])
    assert whole_other.work == OTHER
    [whole] = gathering.add([second])
    assert whole.work.batch_id == WORK.batch_id
    assert sorted(whole.work.puzzles) == WORK.puzzles
    assert len(whole.parts) == 3
    assert whole.failure is None


def test_a_part_that_failed_fails_its_whole_batch_with_its_reason() -> None:
    gathering = Gathering()
    good, bad = parts_of(WORK, 2)
    failed = Part(bad.work, bad.parts, None, "ValueError: no room")
    assert gathering.add([failed]) == []
    [whole] = gathering.add([good])
    assert whole.failure == "ValueError: no room"
    assert sorted(whole.work.puzzles) == WORK.puzzles
