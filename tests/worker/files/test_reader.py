"""worker.files.reader: a file's chunks, alike whether a child process or the reader makes them."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import pytest

import solver
from db.errors import StorageError
from tests.conftest import alive
from tests.worker.files.test_sources import EASY, HARDEST, SEVENTEEN
from worker.errors import SourceError
from worker.files import reader
from worker.files.reader import Chunk, read_chunks

LINES = [EASY, "not a puzzle", SEVENTEEN, EASY, HARDEST, "", "# a comment", "12345"]


@pytest.fixture
def puzzles(tmp_path: Path) -> Path:
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(LINES * 5) + "\n")
    return path


@pytest.fixture(params=["one child", "two children"])
def in_child(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every file, however small, is read in a child process, every chunk of it; what the
    caller does with each chunk, in that child, or (as on four cores and more) in a second one
    it feeds."""
    every_chunk_in_a_child(monkeypatch)
    apart = request.param == "two children"
    monkeypatch.setattr(reader, "APART_FROM_CORES", 0 if apart else 10**6)
    return str(request.param)


def every_chunk_in_a_child(monkeypatch: pytest.MonkeyPatch) -> None:
    """However small the file, a child reads it, and the calling process makes no chunk of it
    while the child starts."""
    monkeypatch.setattr(reader, "READ_AHEAD_FROM", 0)
    monkeypatch.setattr(reader, "HEAD_START", 0)


def chunks(path: Path, size: int = 7) -> list[Chunk]:
    return list(read_chunks(path, str(path), size))


def test_a_chunk_holds_its_lines_rejections_and_canonical_forms_with_keys(puzzles: Path) -> None:
    found = chunks(puzzles)
    accepted = [pair for chunk in found for pair in chunk.accepted]
    rejected = [row for chunk in found for row in chunk.rejected]
    assert [givens for _, givens in accepted] == [EASY, SEVENTEEN, EASY, HARDEST] * 5
    assert [line for line, *_ in rejected][:2] == [2, 8]
    assert rejected[1][2] == "expected 81 cells, got 5"
    for chunk in found:
        givens = sorted(chunk.forms)
        assert givens == sorted({g for _, g in chunk.accepted})
        forms = solver.canonical_many(givens)
        assert [chunk.forms[g] for g in givens] == [(f, solver.canonical_key(f)) for f in forms]


@pytest.mark.parametrize("where", ["here", "in a child"])
def test_chunks_grow_from_the_first_size_to_the_largest_and_lose_no_line(
    where: str, puzzles: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """5 records, then 10, then 15 at most: the 30 records of the 40 lines (blank lines and
    comments are none) all read once."""
    if where == "in a child":
        every_chunk_in_a_child(monkeypatch)
    found = list(read_chunks(puzzles, str(puzzles), 15, first=5))
    sizes = [len(chunk.accepted) + len(chunk.rejected) for chunk in found]
    assert sizes == [5, 10, 15]
    lines = sorted(
        [line for chunk in found for line, _ in chunk.accepted]
        + [line for chunk in found for line, *_ in chunk.rejected]
    )
    assert lines == [n for n in range(1, 41) if LINES[(n - 1) % 8] not in ("", "# a comment")]


@pytest.mark.usefixtures("in_child")
def test_a_child_process_gives_the_chunks_the_reader_would_make(
    puzzles: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from_child = chunks(puzzles)
    monkeypatch.setattr(reader, "READ_AHEAD_FROM", 10**12)
    assert from_child == chunks(puzzles)
    assert len(from_child) == 5  # 40 lines, 30 records (blank lines and comments are none)


@pytest.mark.usefixtures("in_child")
def test_a_fault_of_the_whole_file_is_raised_by_the_reader_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "header.csv"
    path.write_text("id,name\n1,x\n")
    with pytest.raises(SourceError) as raised:
        chunks(path)
    assert raised.value.path == Path(str(path))
    assert raised.value.line == 1
    assert "puzzle" in str(raised.value)


def where_made(chunk: Chunk) -> tuple[int, int]:
    """What `then` returns: the process that ran it, and the chunk's accepted lines."""
    return os.getpid(), len(chunk.accepted)


def refuse(chunk: Chunk) -> None:
    raise StorageError(f"refused a chunk of {len(chunk.accepted)} accepted lines")


def crash(_chunk: Chunk) -> None:
    raise KeyError("a bug")


@pytest.mark.usefixtures("in_child")
def test_what_a_large_file_s_chunks_go_through_runs_in_the_reading_process(
    puzzles: Path,
) -> None:
    made = list(read_chunks(puzzles, str(puzzles), 7, where_made))
    assert sum(n for _, n in made) == 20
    assert {pid for pid, _ in made} != {os.getpid()}


def test_what_a_small_file_s_chunks_go_through_runs_in_the_calling_process(
    puzzles: Path,
) -> None:
    made = list(read_chunks(puzzles, str(puzzles), 7, where_made))
    assert [pid for pid, _ in made] == [os.getpid()] * 5


@pytest.mark.usefixtures("in_child")
def test_a_large_file_s_first_chunks_are_made_here_while_its_child_starts(
    puzzles: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first chunks up to HEAD_START records (here 7 and 7, for 10) are made and passed
    through `then` by the calling process, the rest by the child: the same chunks, in order."""
    monkeypatch.setattr(reader, "HEAD_START", 10)
    made = list(read_chunks(puzzles, str(puzzles), 7, where_made))
    assert [pid == os.getpid() for pid, _ in made] == [True, True, False, False, False]
    assert [n for _, n in made] == [len(chunk.accepted) for chunk in chunks(puzzles)]


def first_line(log: Path, slow_in: int, chunk: Chunk) -> None:
    """Append the chunk's first line number to `log`; the file's first chunk a second late, in
    the process `slow_in`."""
    if os.getpid() == slow_in and chunk.accepted[0][0] == 1:
        time.sleep(1.0)
    with log.open("a") as out:
        out.write(f"{chunk.accepted[0][0]}\n")


@pytest.mark.usefixtures("in_child")
def test_the_child_passes_no_chunk_on_before_the_calling_process_has_passed_its_own(
    puzzles: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store that takes the calling process a second does not let the child's first chunk
    (ready before) be stored ahead of it: chunks are stored in file order."""
    monkeypatch.setattr(reader, "HEAD_START", 10)
    log = tmp_path / "stored.txt"
    list(read_chunks(puzzles, str(puzzles), 7, partial(first_line, log, os.getpid())))
    stored = [int(line) for line in log.read_text().split()]
    assert len(stored) == 5
    assert stored == sorted(stored)


@pytest.mark.usefixtures("in_child")
def test_the_project_s_error_in_the_reading_process_is_raised_as_it_is(puzzles: Path) -> None:
    with pytest.raises(StorageError, match=r"refused a chunk of \d+ accepted lines"):
        list(read_chunks(puzzles, str(puzzles), 7, refuse))


@pytest.mark.usefixtures("in_child")
def test_a_bug_in_the_reading_process_is_raised_with_its_traceback(puzzles: Path) -> None:
    with pytest.raises(RuntimeError, match=r"(?s)in crash.*KeyError: 'a bug'"):
        list(read_chunks(puzzles, str(puzzles), 7, crash))


def named(name: str) -> list[int]:
    """The pids of this process's children of that name (`reader.READER`, `reader.THEN`)."""
    return [child.pid for child in multiprocessing.active_children() if child.name == name]


@pytest.mark.parametrize(
    ("cores", "storing", "beside"), [(2, reader.READER, 0), (4, reader.THEN, 1)]
)
def test_chunks_are_stored_by_the_reader_on_two_cores_and_beside_it_from_four(
    cores: int, storing: str, beside: int, puzzles: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    every_chunk_in_a_child(monkeypatch)
    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    made = read_chunks(puzzles, str(puzzles), 7, where_made)
    pid, first = next(made)
    assert named(storing) == [pid]
    assert len(named(reader.READER)) == 1
    assert len(named(reader.THEN)) == beside
    if Path("/proc/self/comm").exists():  # Linux: each shows its name, not its interpreter's
        assert Path(f"/proc/{pid}/comm").read_text().strip() == storing
    assert first + sum(n for _, n in made) == 20


def test_a_reading_child_killed_mid_file_is_an_error_naming_the_file_not_a_wait(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The child storing the chunks waits for the next; the parent sees its feeder gone."""
    every_chunk_in_a_child(monkeypatch)
    monkeypatch.setattr(reader, "APART_FROM_CORES", 0)
    big = tmp_path / "big.txt"
    big.write_text("\n".join(LINES * 2000))
    made = read_chunks(big, "big.txt", 1, where_made)
    next(made)
    (reading,) = named(reader.READER)
    os.kill(reading, signal.SIGKILL)
    started = time.monotonic()
    with pytest.raises(ChildProcessError, match=r"big\.txt: the process reading it stopped"):
        for _ in made:
            pass
    assert time.monotonic() - started < 30
    assert multiprocessing.active_children() == []


@pytest.mark.usefixtures("in_child")
def test_a_reader_that_stops_early_stops_its_child(puzzles: Path) -> None:
    read = read_chunks(puzzles, str(puzzles), 1)
    assert next(read).accepted == [(1, EASY)]
    read.close()
    assert multiprocessing.active_children() == []


def test_a_child_that_died_is_an_error_naming_the_file() -> None:
    context = multiprocessing.get_context("spawn")
    child = context.Process(target=os.getpid)  # ends at once, having sent nothing
    child.start()
    child.join()
    with pytest.raises(ChildProcessError, match=r"big\.txt: the process reading it stopped"):
        reader._next(context.Queue(), [child], "big.txt")


ORPHAN = """
import os, sys
from pathlib import Path
from worker.files import reader
reader.READ_AHEAD_FROM = reader.HEAD_START = 0
os.cpu_count = lambda: int(sys.argv[3])
chunks = reader.read_chunks(Path(sys.argv[1]), sys.argv[1], 1000, repr)
next(chunks)
import multiprocessing
pids = [str(child.pid) for child in multiprocessing.active_children()]
Path(sys.argv[2]).write_text(" ".join(pids))
os._exit(9)  # killed: no clean-up runs
"""


@pytest.mark.parametrize("cores", [2, 4])
def test_a_reader_killed_mid_file_leaves_no_process_behind(tmp_path: Path, cores: int) -> None:
    """The children, their parent gone, stop within seconds, with chunks left unread (more
    than a pipe holds): the one reading, and on four cores the one storing beside it."""
    big = tmp_path / "big.txt"
    big.write_text("\n".join(LINES * 2000))
    pid = tmp_path / "child.pid"
    # no pipe to the child: it would hold it open, and the run wait for it
    done = subprocess.run(
        [sys.executable, "-c", ORPHAN, str(big), str(pid), str(cores)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
        timeout=60,
    )
    assert done.returncode == 9
    children = [int(child) for child in pid.read_text().split()]
    assert len(children) == cores // 2
    deadline = time.monotonic() + 30
    while any(map(alive, children)):
        assert time.monotonic() < deadline, "a child outlived its parent by 30 s"
        time.sleep(0.1)
