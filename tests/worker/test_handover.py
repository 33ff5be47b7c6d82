"""worker.handover: each side of a queue stops waiting once the other process is gone."""

from __future__ import annotations

import multiprocessing
import os
import queue

import pytest

from worker.handover import get_from_child, get_while_parent, put_while_parent


def test_a_child_whose_parent_is_gone_stops_handing_over() -> None:
    full: queue.Queue[object] = queue.Queue(maxsize=1)
    full.put("unread")
    assert not put_while_parent(full, "more", parent=os.getpid() + 1_000_000)
    assert full.get_nowait() == "unread"


def test_a_parent_reads_what_a_child_sent_before_it_ended() -> None:
    context = multiprocessing.get_context("spawn")
    sent = context.Queue()
    child = context.Process(target=sent.put, args=("last words",))
    child.start()
    child.join()
    assert get_from_child(sent, child, ChildProcessError) == "last words"


def test_a_child_gone_with_nothing_to_give_raises_the_parents_error_with_its_exit_code() -> None:
    context = multiprocessing.get_context("spawn")
    child = context.Process(target=os._exit, args=(7,))
    child.start()
    child.join()
    with pytest.raises(ChildProcessError, match=r"^7$"):
        get_from_child(context.Queue(), child, lambda code: ChildProcessError(str(code)))


def test_a_child_waiting_for_a_parent_that_is_gone_gets_the_callers_token() -> None:
    assert get_while_parent(queue.Queue(), os.getpid() + 1_000_000, "gone") == "gone"
