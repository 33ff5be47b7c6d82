"""The `sudoku.solve` contract: what a producer may send, and how its strings are judged."""

from __future__ import annotations

import pytest

from worker.errors import MessageError
from worker.files.sources import Accepted, Rejected, judge_all_pushed, judge_pushed
from worker.messages import decode_push
from worker.settings import MAX_BATCH_SIZE

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def test_one_string_is_a_message_of_one_puzzle_answered_alone() -> None:
    pushed = decode_push("t1", [EASY], {})
    assert (list(pushed.strings), pushed.one, pushed.collection) == ([EASY], True, "pushed")


def test_a_list_goes_by_position_with_its_collection_and_reference() -> None:
    pushed = decode_push("t1", [], {"puzzles": [EASY, EASY], "collection": "web", "reference": "r"})
    assert (len(pushed.strings), pushed.one, pushed.collection, pushed.reference) == (
        2,
        False,
        "web",
        "r",
    )


def test_an_item_that_is_not_a_string_is_kept_as_json_to_be_rejected() -> None:
    assert list(decode_push("t1", [[EASY, 42, None]], {}).strings) == [EASY, "42", "null"]


@pytest.mark.parametrize(
    ("args", "kwargs", "words"),
    [
        ([], {}, "no puzzles"),
        ([[]], {}, "list of 1 to"),
        ([EASY], {"puzzles": [EASY]}, "once"),
        ([EASY, EASY], {}, "once"),
        ([EASY], {"colection": "x"}, "unknown arguments ['colection']"),
        ([{"a": 1}], {}, "must be a string or a list"),
        ([EASY], {"collection": ""}, "collection must be a string of 1 to 200"),
        ([EASY], {"reference": "x" * 201}, "reference must be a string of 1 to 200"),
        ([EASY], {"collection": "a\nb"}, "control characters"),
        ("not a list", {}, "args must be a list"),
    ],
)
def test_a_malformed_message_is_refused_saying_what_is_wrong(
    args: object, kwargs: dict[str, object], words: str
) -> None:
    with pytest.raises(MessageError, match=words.replace("[", r"\[").replace("]", r"\]")):
        decode_push("t1", args, kwargs)


def test_a_message_of_more_puzzles_than_a_batch_may_hold_is_refused() -> None:
    with pytest.raises(MessageError, match=f"{MAX_BATCH_SIZE:,}"):
        decode_push("t1", [[EASY] * (MAX_BATCH_SIZE + 1)], {})


def test_a_pushed_grid_may_be_written_on_nine_lines_with_spaces() -> None:
    rows = [" ".join(EASY[r * 9 : r * 9 + 9]) for r in range(9)]
    assert judge_pushed("\n".join(rows)) == Accepted(0, EASY)


def test_a_bad_character_is_reported_at_its_column_in_the_string_as_sent() -> None:
    judged = judge_pushed("  " + EASY[:10] + "g" + EASY[11:])
    assert isinstance(judged, Rejected)
    assert (judged.column, judged.reason) == (13, "illegal character 'g' (U+0067) at column 13")


def test_conflicting_givens_are_rejected_with_where_they_clash() -> None:
    judged = judge_pushed("11" + EASY[2:])
    assert isinstance(judged, Rejected)
    assert judged.reason.startswith("conflicting givens")


def test_judging_many_strings_at_once_says_what_judging_each_says() -> None:
    texts = [EASY, EASY.replace(".", "0"), "11" + EASY[2:], " " + EASY, "g" + EASY[1:], EASY]
    assert judge_all_pushed(texts) == {text: judge_pushed(text) for text in texts}
