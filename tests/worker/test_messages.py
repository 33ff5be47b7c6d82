"""The batch message: what the producer sends is what the task accepts, and nothing else."""

from __future__ import annotations

from typing import Any

import pytest

from db.imports import BatchWork
from worker.errors import MessageError
from worker.messages import decode_batch

GIVENS = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_a_sent_batch_decodes_to_the_same_batch() -> None:
    """encode then decode gives back the batch id, collection and puzzles."""
    work = BatchWork(7, 3, [(11, GIVENS), (12, "." * 81)])
    assert decode_batch(work.to_message()) == work


@pytest.mark.parametrize(
    ("message", "named"),
    [
        ({"batch_id": 1, "collection_id": 1}, "fields"),
        ({"batch_id": 1, "collection_id": 1, "puzzles": [], "x": 1}, "fields"),
        ({"batch_id": "1", "collection_id": 1, "puzzles": [[1, GIVENS]]}, "batch_id"),
        ({"batch_id": True, "collection_id": 1, "puzzles": [[1, GIVENS]]}, "batch_id"),
        ({"batch_id": 1, "collection_id": -4, "puzzles": [[1, GIVENS]]}, "collection_id"),
        ({"batch_id": 1, "collection_id": 1, "puzzles": []}, "non-empty"),
        ({"batch_id": 1, "collection_id": 1, "puzzles": "abc"}, "non-empty"),
        ({"batch_id": 1, "collection_id": 1, "puzzles": [[1]]}, "puzzles[0]"),
        ({"batch_id": 1, "collection_id": 1, "puzzles": [[0, GIVENS]]}, "puzzle id"),
        ({"batch_id": 1, "collection_id": 1, "puzzles": [[1, GIVENS[:80]]]}, "givens"),
        ({"batch_id": 1, "collection_id": 1, "puzzles": [[1, GIVENS[:80] + "0"]]}, "givens"),
        ({"batch_id": 1, "collection_id": 1, "puzzles": [[1, None]]}, "givens"),
    ],
)
def test_a_malformed_message_is_refused_with_the_field_named(
    message: dict[str, Any], named: str
) -> None:
    """Wrong, missing or extra fields raise MessageError saying which."""
    with pytest.raises(MessageError, match=named.replace("[", r"\[").replace("]", r"\]")):
        decode_batch(message)
