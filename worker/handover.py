"""Queues between a process and a child it started, each side watching that the other is
still there: a child stops handing over once its parent is gone (killed), and the parent
stops waiting once the child is gone with nothing left to give; a child that must not outlive
its parent whatever it is doing ends with it (`exit_with_parent`). And each child's name where
the system shows it (`show_name`)."""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Callable, Iterable
from contextlib import suppress
from pathlib import Path
from typing import Any

WAIT = 1.0  # seconds between checks that the other process is still there
SHOWN_NAME = 15  # characters of a process's name that Linux keeps (`ps -o comm`, `top`)


def show_name(name: str) -> None:
    """In a child: its name (at most `SHOWN_NAME` characters) where the system shows it, in
    place of its interpreter's, so that `top` or `ps -o comm` tells `run`'s processes apart
    (Linux; elsewhere nothing)."""
    if len(name) > SHOWN_NAME:
        raise ValueError(f"a process name keeps {SHOWN_NAME} characters, not {len(name)}: {name}")
    with suppress(OSError):
        Path("/proc/self/comm").write_text(name)


def exit_with_parent(parent: int) -> None:
    """In a child: end this process, whatever it is doing, within `WAIT` seconds of its parent
    (`parent`, its pid) being gone. A read from a sibling's queue can block for ever: a sibling
    that left mid-message leaves a message that never ends."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WAIT)
        os._exit(0)  # nobody is left to hand anything to: like a kill, nothing committed is lost

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def put_while_parent(ready: Any, item: object, parent: int) -> bool:
    """In a child: hand `item` over, waiting while `ready` is full; False once the parent
    (`parent`, its pid) is gone."""
    while os.getppid() == parent:
        try:
            ready.put(item, timeout=WAIT)
            return True
        except queue.Full:
            continue
    return False


def get_while_parent(ready: Any, parent: int, gone: object) -> Any:
    """In a child: the parent's next item, waiting for it; `gone` once the parent (`parent`,
    its pid) is gone."""
    while os.getppid() == parent:
        try:
            return ready.get(timeout=WAIT)
        except queue.Empty:
            continue
    return gone


def wait_while_parent(event: Any, parent: int) -> bool:
    """In a child: wait until the parent sets `event` (at once when it is set); False once the
    parent (`parent`, its pid) is gone."""
    while os.getppid() == parent:
        if event.wait(WAIT):
            return True
    return False


def get_from_child(
    ready: Any,
    child: Any,
    gone: Callable[[int | None], BaseException],
    feeding: Iterable[Any] = (),
) -> Any:
    """In a parent: the child's next item, however long it takes; `gone(exit code)` raised
    once the child is gone with nothing left to give (what it sent before it ended is read),
    or once one of the children `feeding` it has ended on a signal or an error (not once it
    ended well, its work handed over)."""
    while True:
        try:
            return ready.get(timeout=WAIT)
        except queue.Empty:
            if not child.is_alive() and ready.empty():
                raise gone(child.exitcode) from None
            if failed := [c.exitcode for c in feeding if c.exitcode not in (None, 0)]:
                raise gone(failed[0]) from None
