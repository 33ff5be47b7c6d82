"""worker.handover: each side of a queue stops waiting once the other process is gone."""

from __future__ import annotations

import multiprocessing
import os
import queue
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from worker.handover import (
    SHOWN_NAME,
    exit_with_parent,
    get_from_child,
    get_while_parent,
    put_while_parent,
    show_name,
    wait_while_parent,
)

COMM = Path("/proc/self/comm")  # where Linux shows a process's name


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


def test_a_child_waits_for_its_parent_s_signal_while_the_parent_is_there() -> None:
    signal = threading.Event()
    threading.Timer(0.2, signal.set).start()
    assert wait_while_parent(signal, os.getppid())
    assert not wait_while_parent(threading.Event(), os.getpid() + 1_000_000)


def blocked_for_ever(parent: int) -> None:
    """A child that would never end by itself, but for `exit_with_parent`."""
    exit_with_parent(parent)
    time.sleep(600)


def test_a_child_blocked_for_ever_ends_once_its_parent_is_gone() -> None:
    """Here its "parent" is a pid that is not its parent: gone, as seen from the child."""
    context = multiprocessing.get_context("spawn")
    child = context.Process(target=blocked_for_ever, args=(os.getpid() + 1_000_000,))
    child.start()
    child.join(timeout=30)
    assert child.exitcode == 0


def test_a_feeding_child_that_died_raises_while_the_child_it_fed_still_waits() -> None:
    context = multiprocessing.get_context("spawn")
    feeder = context.Process(target=os._exit, args=(9,))
    feeder.start()
    feeder.join()
    fed = context.Process(target=time.sleep, args=(60,))  # alive, with nothing to give
    fed.start()
    try:
        with pytest.raises(ChildProcessError, match=r"^9$"):
            get_from_child(
                context.Queue(), fed, lambda code: ChildProcessError(str(code)), [feeder]
            )
    finally:
        fed.terminate()
        fed.join()


def tell_name(name: str, told: Any) -> None:
    show_name(name)
    told.put(COMM.read_text().strip())


@pytest.mark.skipif(not COMM.exists(), reason="no /proc/self/comm: not Linux")
def test_a_child_shows_its_name_where_the_system_shows_it() -> None:
    context = multiprocessing.get_context("spawn")
    told = context.Queue()
    child = context.Process(target=tell_name, args=("sudoku-test", told))
    child.start()
    assert told.get(timeout=60) == "sudoku-test"
    child.join()


def test_a_name_longer_than_the_system_keeps_is_refused() -> None:
    with pytest.raises(ValueError, match=rf"keeps {SHOWN_NAME} characters, not 16"):
        show_name("x" * 16)
