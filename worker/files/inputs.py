"""Where an import's bytes come from: a file, standard input, a pipe or a FIFO, read once each.

An import needs the SHA-256 of its input before it stores a line: a collection holds one
content, so the same content resumes an interrupted import and other content is refused (or
replaced, with `--replace`). A regular file is hashed, then read: it holds the same bytes
both times. Anything else can be read only once: standard input (`-`), a pipe
(`/dev/stdin`, a process substitution's `/dev/fd/63`), a named FIFO. Such an input is copied
to a temporary file (in `TMPDIR`) as it is read, and hashed on the way; the import reads the
copy, deleted when the import ends. Either way, nothing is held in memory.

Names: a collection is named after its file, without its compression suffix (`.gz`, `.bz2`,
`.xz`) and then its format suffix (`.txt`, `.tsv`, `.csv`, `.sdk`, `.ss`). Standard input is
`stdin`; a pipe with no name of its own (`/dev/fd/N`, `/proc/<pid>/fd/N`) has none, so its
collection must be named with `--collection`.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from worker.errors import SourceError
from worker.files.sources import content_hash

STDIN = "-"
STDIN_NAME = "stdin"  # the default collection name and the `source_file` of standard input
COMPRESSION_SUFFIXES = (".gz", ".bz2", ".xz")
FORMAT_SUFFIXES = (".txt", ".tsv", ".csv", ".sdk", ".ss")

_STDIN_PATHS = frozenset({"/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})
_NAMELESS = re.compile(r"/(dev|proc/[^/]+)/fd/\d+")  # a descriptor: a pipe, not a file name
_COPY_CHUNK = 1 << 20


def collection_name(path: Path) -> str:
    """The default collection name of a file: its name without compression and format
    suffixes (`puzzles.txt.xz` -> `puzzles`), compared case-insensitively."""
    name = path.name
    for suffixes in (COMPRESSION_SUFFIXES, FORMAT_SUFFIXES):
        suffix = next((s for s in suffixes if name.lower().endswith(s)), "")
        name = name[: len(name) - len(suffix)]
    return name or path.name


@dataclass(frozen=True)
class Input:
    """One FILE argument of `run` or `import`, as the user gave it (`-`: standard input)."""

    given: str

    @property
    def is_stdin(self) -> bool:
        return self.given == STDIN or self.given in _STDIN_PATHS

    @property
    def shown(self) -> str:
        """How messages name it: the path as given, or `stdin`."""
        return STDIN_NAME if self.given == STDIN else self.given

    @property
    def source_file(self) -> str:
        """What `collections.source_file` records: the path made absolute, or `stdin`."""
        return STDIN_NAME if self.is_stdin else os.path.abspath(self.given)

    @property
    def default_name(self) -> str | None:
        """The collection name when `--collection` gives none; None for a nameless pipe."""
        if self.is_stdin:
            return STDIN_NAME
        if _NAMELESS.fullmatch(os.path.abspath(self.given)):
            return None
        return collection_name(Path(self.given))

    def is_terminal(self) -> bool:
        """True when reading it means reading what the user types."""
        return self.is_stdin and sys.stdin is not None and sys.stdin.isatty()

    def check(self) -> None:
        """SourceError, in one line naming it, unless it is something to read puzzles from."""
        if self.is_stdin:
            return
        path = Path(self.given)
        if path.is_dir():
            raise SourceError(
                path, None, f"a folder, not a file of puzzles: give the files in it ({path}/*)"
            )
        if not path.exists():
            raise SourceError(path, None, "no such file")


@dataclass(frozen=True)
class Readable:
    """An input ready to import: the file to read (the input or its copy) and its hash."""

    input: Input
    path: Path
    content_hash: str


@contextmanager
def readable(source: Input) -> Iterator[Readable]:
    """The input, hashed; anything but a regular file copied first, and the copy deleted on
    leaving."""
    if source.given != STDIN and stat.S_ISREG(os.stat(source.given).st_mode):
        path = Path(source.given)
        yield Readable(source, path, content_hash(path))
        return
    descriptor, name = tempfile.mkstemp(prefix="sudoku-batch-", suffix=".input")
    copy = Path(name)
    try:
        with os.fdopen(descriptor, "wb") as out:
            if source.given == STDIN:
                digest = _copy(sys.stdin.buffer, out)
            else:
                with open(source.given, "rb") as stream:
                    digest = _copy(stream, out)
        yield Readable(source, copy, digest)
    finally:
        copy.unlink(missing_ok=True)


def _copy(stream: BinaryIO, out: BinaryIO) -> str:
    """Copy the stream to `out` to its end; the SHA-256 of what was copied, in hex."""
    digest = hashlib.sha256()
    while chunk := stream.read(_COPY_CHUNK):
        digest.update(chunk)
        out.write(chunk)
    return digest.hexdigest()
