"""Streaming readers of puzzle collections: every format, with line numbers and reasons.

Vocabulary: a *line* is a physical line of the (decompressed) file, numbered from 1, ended by
LF or CRLF, as `wc -l` and `grep -n` count them (a lone CR belongs to its line; CR-only files
are the exception, see `_physical_lines`). A *record* is one puzzle: one line (plain, TSV, CSV)
or nine rows of a printed grid. Every record comes out, in file order, as `Accepted`
(normalised by `solver.normalize`) or `Rejected` (a reason in plain words, naming what and
where).

Files are never loaded whole: bytes are read in chunks and split into lines here, so a line
with no end, a stray byte or a truncated archive costs one record, never the whole file.
The format is detected from the first line that is not blank, a `#` comment or unreadable:

- a CSV header (names only; `id,Puzzle` is not a grid row): its puzzle column of every row;
- a printed grid row (9 cells, `|` and spaces ignored) or a ruling line: the grid format;
- anything else: one puzzle per line, the first field before whitespace or a comma.
"""

from __future__ import annotations

import bz2
import csv
import gzip
import hashlib
import lzma
import re
import zlib
from collections.abc import Callable, Iterable, Iterator
from io import BufferedIOBase
from itertools import chain
from pathlib import Path
from typing import NamedTuple

import solver
from db.raw_text import RAW_TEXT_LIMIT, clean_raw_text
from solver.grid import to_text
from worker.errors import SourceError
from worker.files.conflicts import conflicting

MAX_LINE_CHARS = 10_000
PUZZLE_COLUMNS = ("puzzle", "quizzes", "quiz", "puzzles", "givens", "grid", "sudoku")

_CHUNK = 1 << 16
_KEEP_BYTES = 4 * MAX_LINE_CHARS  # a UTF-8 character takes at most 4 bytes
_BOM = b"\xef\xbb\xbf"
_FIRST_FIELD = re.compile(r"\s*([^\s,]*)")
# The common case, an ASCII line whose first field is exactly 81 cell characters: read from the
# bytes without the solver (conflicting givens are screened in bulk, `_SCREEN_EVERY` records at
# a time). Any other line takes the general path, which also names what is wrong.
_EMPTY = solver.EMPTY_CHARS.encode("ascii")  # every way a file may write an empty cell
_CELLS = rb"[1-9" + re.escape(_EMPTY) + rb"]{81}"  # a plain puzzle: 81 cell characters
_PLAIN_FIELD = re.compile(rb"[ \t\n\r\f\v]*(" + _CELLS + rb")(?![^ \t\n\r\f\v,])")
_PLAIN_CELLS = re.compile(_CELLS)
_CELL_TEXT = to_text(range(10))  # a parsed cell (0 = empty) as normalised text: ".12...9"
_TO_DOTS = bytes.maketrans(_EMPTY, _CELL_TEXT[0].encode("ascii") * len(_EMPTY))
_SCREEN_EVERY = 256
_HEADER_NAME = re.compile(r"[A-Za-z_][\w .-]{0,63}")
_RULING = frozenset("-+=|* \t")
_DAMAGE = (EOFError, OSError, zlib.error, lzma.LZMAError)
_LIMIT = f"over the limit of {MAX_LINE_CHARS:,} characters"


class Accepted(NamedTuple):
    """A puzzle that passed: its record's first line and the normalised 81 characters."""

    line: int
    puzzle: str


class Rejected(NamedTuple):
    """A record that did not: its first line, its text (`db.raw_text.clean_raw_text`) and why.

    `column` is 1-based within the line holding the bad character (for a grid, the line the
    reason names), or None when the fault is not one character.
    """

    line: int
    raw: str
    reason: str
    column: int | None = None


Record = Accepted | Rejected
# A line as read: (number, its first `_KEEP_BYTES` bytes, its full length, why the archive is
# damaged at this point or None).
_Raw = tuple[int, bytes, int, str | None]
_Locate = Callable[[int], tuple[str, int]]  # cell index (1-81) -> ("where" words, column)
_Row = tuple["_Line", list[tuple[str, int]]]  # a grid row: its line, its cells and columns


def _reject(number: int, text: str, reason: str, column: int | None = None) -> Rejected:
    """A Rejected whose raw is the text as it will be stored (cut, NUL escaped)."""
    return Rejected(number, clean_raw_text(text), reason, column)


class _Line(NamedTuple):
    """One decoded line; `error` says why it cannot be a record, `fatal` that reading stops."""

    number: int
    text: str
    error: str | None = None
    fatal: bool = False

    @property
    def skipped(self) -> bool:
        """Blank or a `#` comment: not a record at all."""
        stripped = self.text.strip()
        return self.error is None and (not stripped or stripped.startswith("#"))

    def rejected(self) -> Rejected:
        return _reject(self.number, self.text, self.error or "unreadable line")


def read_puzzles(path: Path, shown: str | None = None) -> Iterator[Accepted | Rejected]:
    """Every record of the file at `path`, in order; compression and format are detected.

    Raises `SourceError` only for a fault of the whole file (not text, or a CSV header without
    a puzzle column), naming the file `shown` (default: `path`); everything else, a truncated
    archive included, becomes a `Rejected` record.
    """
    named = Path(shown) if shown else path
    with _open(path) as stream:
        _refuse_binary(stream, named)
        yield from _records(_raw_lines(stream), named)


# A file whose first bytes are more than this share not text (ASCII controls but tab, CR, LF
# and form feed, or bytes that are not UTF-8) is not text: a program, an image or an archive
# of another kind, refused as a whole rather than read as thousands of bad lines. A text file
# with a few bad bytes in a few lines is read: those lines are rejected, the rest goes on.
_SNIFF = 8192
_BINARY_SHARE = 0.3
_CONTROLS = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f\ufffd]")


def _refuse_binary(stream: BufferedIOBase, path: Path) -> None:
    """SourceError when the stream's first bytes are not text (they stay to be read). A
    damaged archive is left to the reading, which records where it breaks."""
    try:
        head = stream.peek(_SNIFF)[:_SNIFF] if hasattr(stream, "peek") else b""
    except (OSError, EOFError, lzma.LZMAError, zlib.error):
        return
    odd = len(_CONTROLS.findall(head.decode("utf-8", "replace")))
    if odd > _BINARY_SHARE * len(head):
        raise SourceError(
            path,
            None,
            f"not a text file of puzzles ({odd:,} of its first {len(head):,} bytes are not "
            "text: a program, an image, an archive other than gzip, bzip2 or xz?)",
        )


def content_hash(path: Path) -> str:
    """The SHA-256 of the file's raw bytes (compressed as stored), in hex, read in chunks."""
    with path.open("rb") as stream:
        return hashlib.file_digest(stream, "sha256").hexdigest()


def _open(path: Path) -> BufferedIOBase:
    """The file's bytes, decompressed when its magic bytes say gzip, bzip2 or xz."""
    with path.open("rb") as probe:
        magic = probe.read(6)
    if magic.startswith(b"\x1f\x8b"):
        return gzip.open(path, "rb")
    if magic.startswith(b"BZh"):
        return bz2.open(path, "rb")
    if magic.startswith(b"\xfd7zXZ\x00"):
        return lzma.open(path, "rb")
    return path.open("rb")


# --- bytes to lines ---------------------------------------------------------------------


def _physical_lines(stream: BufferedIOBase) -> Iterator[tuple[bytes, int]]:
    """(the line's first `_KEEP_BYTES` bytes, its full length) for each line, without EOL.

    A line ends at LF, a CR just before it dropped (CRLF); a lone CR is a character of its
    line, so lines are numbered as `wc -l`, `grep -n` and `sed -n` number them. Only a file
    with CRs but no LF in its first `_CHUNK` bytes is read as classic Mac OS text, its lines
    ended by CR (as vim's `fileformats` decides).
    """
    first, damage = _first_chunk(stream)
    eol = b"\r" if b"\r" in first and b"\n" not in first else b"\n"
    head, size, carry = b"", 0, b""
    for chunk in chain([first], _more_chunks(stream, damage)):
        if carry:
            chunk, carry = carry + chunk, b""
        if eol == b"\n" and b"\r" in chunk:
            if chunk.endswith(b"\r"):  # maybe a CRLF split across two chunks
                chunk, carry = chunk[:-1], b"\r"
            chunk = chunk.replace(b"\r\n", b"\n")
        pieces = chunk.split(eol)
        rest = pieces.pop()
        for piece in pieces:
            yield head + piece[: _KEEP_BYTES - len(head)], size + len(piece)
            head, size = b"", 0
        head += rest[: _KEEP_BYTES - len(head)]
        size += len(rest)
    head += carry[: _KEEP_BYTES - len(head)]  # a lone CR ending the file is the line's
    size += len(carry)
    if size:
        yield head, size


def _first_chunk(stream: BufferedIOBase) -> tuple[bytes, BaseException | None]:
    """The first `_CHUNK` bytes (fewer when an LF or the end comes first), and the damage met
    reading them, if any: the bytes before it are still lines."""
    first = b""
    try:
        # read1, not read: read() drops the bytes it gathered when a damaged archive raises
        while len(first) < _CHUNK and b"\n" not in first and (chunk := stream.read1(_CHUNK)):
            first += chunk
    except _DAMAGE as exc:
        return first, exc
    return first, None


def _more_chunks(stream: BufferedIOBase, damage: BaseException | None) -> Iterator[bytes]:
    """The rest of the stream in chunks; the damage met before, if any, raised first."""
    if damage is not None:
        raise damage
    while chunk := stream.read1(_CHUNK):
        yield chunk


def _raw_lines(stream: BufferedIOBase) -> Iterator[_Raw]:
    """Numbered lines as bytes; a damaged archive ends them with one line saying so."""
    number = 0
    try:
        for data, size in _physical_lines(stream):
            number += 1
            if number == 1 and data.startswith(_BOM):
                data, size = data[len(_BOM) :], size - len(_BOM)
            yield number, data, size, None
    except _DAMAGE as exc:
        yield number + 1, b"", 0, f"compressed stream is truncated or corrupt: {exc}"


def _lines(raw: Iterable[_Raw]) -> Iterator[_Line]:
    """The lines decoded; a damaged archive's line is fatal."""
    for number, data, size, damage in raw:
        yield _decode(number, data, size) if damage is None else _Line(number, "", damage, True)


def _decode(number: int, data: bytes, size: int) -> _Line:
    """The line as text, or as an error: too long, or not UTF-8."""
    if size > _KEEP_BYTES:
        return _Line(number, _shown(data), f"line is too long: {size:,} bytes, {_LIMIT}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = data[exc.start]
        return _Line(number, _shown(data), f"not valid UTF-8 at byte {exc.start + 1} (0x{bad:02x})")
    if len(text) > MAX_LINE_CHARS:
        return _Line(number, text, f"line is too long: {len(text):,} characters, {_LIMIT}")
    return _Line(number, text)


def _shown(data: bytes) -> str:
    """Enough of undecodable bytes to show (a character takes at most 4 bytes)."""
    return data[: 4 * RAW_TEXT_LIMIT].decode("utf-8", "backslashreplace")


# --- lines to records -------------------------------------------------------------------


def _records(raw: Iterator[_Raw], path: Path) -> Iterator[Record]:
    """Rejects unreadable lines up to the first real one, which picks the format."""
    lines = _lines(raw)
    for line in lines:
        if line.error is not None:
            yield line.rejected()
            if line.fatal:
                return
        elif not line.skipped:
            if (header := _csv_header(line.text)) is not None:
                yield from _csv_rows(lines, line, *header, path)
            elif is_ruling(line.text) or len(row_cells(line.text)) == 9:
                yield from _grids(chain([line], lines))
            else:
                yield _judge_line(line)
                yield from _one_per_line(raw)  # `lines` reads `raw`: it goes on from here
            return


def _one_per_line(raw: Iterable[_Raw]) -> Iterator[Record]:
    """Records in file order; fast-path puzzles are screened `_SCREEN_EVERY` records at a time."""
    records: list[Record] = []
    fast: list[tuple[int, _Raw, str]] = []  # (index in records, line, puzzle) to screen
    for number, data, size, damage in raw:
        plain = None if size > MAX_LINE_CHARS or not data.isascii() else _PLAIN_FIELD.match(data)
        if plain is not None:
            puzzle = plain[1].translate(_TO_DOTS).decode("ascii")
            fast.append((len(records), (number, data, size, damage), puzzle))
            records.append(Accepted(number, puzzle))
        elif damage is not None:
            records.append(_Line(number, "", damage).rejected())
        elif not (line := _decode(number, data, size)).skipped:
            records.append(line.rejected() if line.error is not None else _judge_line(line))
        if len(records) >= _SCREEN_EVERY or damage is not None:
            yield from _screened(records, fast)
            records, fast = [], []
            if damage is not None:
                return
    yield from _screened(records, fast)


def _screened(records: list[Record], fast: list[tuple[int, _Raw, str]]) -> list[Record]:
    """The records, each fast-path puzzle with conflicting givens judged again for its reason."""
    for k in conflicting([puzzle for _, _, puzzle in fast]):
        index, (number, data, size, _), _ = fast[k]
        records[index] = _judge_line(_decode(number, data, size))
    return records


def _judge_line(line: _Line) -> Record:
    """The first field of the line (before whitespace or a comma) as a puzzle."""
    field = _FIRST_FIELD.match(line.text)
    assert field is not None  # the pattern matches every string
    offset = field.start(1)
    return _judge(line.number, line.text, field[1], lambda i: (f"column {offset + i}", offset + i))


def _judge(number: int, raw: str, cells: str, locate: _Locate) -> Record:
    """Accepted if the solver can normalise the cells and no two givens conflict."""
    try:
        grid = solver.parse(cells)
    except solver.PuzzleFormatError as exc:
        return _format_rejection(number, raw, cells, exc, locate)
    conflict = solver.find_conflict(grid)
    if conflict is not None:
        return _reject(number, raw, f"conflicting givens: {conflict}")
    return Accepted(number, "".join([_CELL_TEXT[d] for d in grid]))


def _format_rejection(
    number: int, raw: str, cells: str, exc: solver.PuzzleFormatError, locate: _Locate
) -> Rejected:
    """The solver's reason, with an illegal character shown by repr and code point."""
    index = getattr(exc, "column", None)
    if not isinstance(index, int) or not 1 <= index <= len(cells):
        return _reject(number, raw, str(exc))
    char = cells[index - 1]
    where, column = locate(index)
    reason = f"illegal character {char!r} (U+{ord(char):04X}) at {where}"
    return _reject(number, raw, reason, column)


# --- CSV --------------------------------------------------------------------------------


def _split(text: str, delimiter: str) -> list[str]:
    return next(csv.reader([text], delimiter=delimiter), [])


def _csv_header(text: str) -> tuple[str, list[str]] | None:
    """(delimiter, column names) if the line reads as a CSV header, else None."""
    delimiter = "," if "," in text else "\t" if "\t" in text else ""
    names = _split(text, delimiter) if delimiter else [text.strip()]
    if not names or not all(_HEADER_NAME.fullmatch(name.strip()) for name in names):
        return None
    if not delimiter and names[0].lower() not in PUZZLE_COLUMNS:
        return None
    return delimiter or ",", names


def _csv_rows(
    lines: Iterable[_Line], header: _Line, delimiter: str, names: list[str], path: Path
) -> Iterator[Record]:
    """The puzzle column of every row after the header."""
    lowered = [name.strip().lower() for name in names]
    index = next((i for i, name in enumerate(lowered) if name in PUZZLE_COLUMNS), None)
    if index is None:
        found = ", ".join(repr(name) for name in names)
        wanted = ", ".join(PUZZLE_COLUMNS)
        message = f"CSV header has no puzzle column (found {found}; expected one of {wanted})"
        raise SourceError(path, header.number, message)
    for line in lines:
        if line.error is not None:
            yield line.rejected()
            if line.fatal:
                return
        elif not line.skipped:
            yield _judge_row(line, delimiter, index, names[index])


def _judge_row(line: _Line, delimiter: str, index: int, name: str) -> Record:
    try:
        fields = _split(line.text, delimiter)
    except csv.Error as exc:
        return _reject(line.number, line.text, f"unreadable CSV row: {exc}")
    if len(fields) <= index:
        reason = f"row has {len(fields)} field(s), no {name!r} column (field {index + 1})"
        return _reject(line.number, line.text, reason)
    field = fields[index]
    offset = sum(len(f) + 1 for f in fields[:index]) + len(field) - len(field.lstrip())
    if line.text[offset : offset + 1] == '"':  # quoted fields before it are not counted
        offset += 1
    cells = field.strip()
    return _judge(line.number, line.text, cells, lambda i: (f"column {offset + i}", offset + i))


# --- printed grids ----------------------------------------------------------------------


def row_cells(text: str) -> list[tuple[str, int]]:
    """The cells of a printed grid row with their 1-based columns: `|` and spaces dropped."""
    return [(char, i) for i, char in enumerate(text, 1) if char != "|" and not char.isspace()]


def is_ruling(text: str) -> bool:
    """A separator line such as `---+---+---`, `-----------` or `*-----------*`.

    Nine dashes and nothing else (`---|---|---`) is a row of nine empty cells instead.
    """
    stripped = text.strip()
    if not stripped or not set(stripped) <= _RULING:
        return False
    return "+" in stripped or "=" in stripped or len(row_cells(stripped)) != 9


def _grids(lines: Iterable[_Line]) -> Iterator[Record]:
    """Grids of nine rows; a short grid is rejected, a stray line read as one puzzle."""
    rows: list[_Row] = []
    for line in lines:
        if line.fatal:
            yield line.rejected()
            return
        if line.error is None and (line.text.lstrip().startswith("#") or is_ruling(line.text)):
            continue
        cells = row_cells(line.text) if line.error is None else []
        if len(cells) == 9:
            rows.append((line, cells))
            if len(rows) == 9:
                yield _judge_grid(rows)
                rows = []
            continue
        if rows:
            yield _interrupted(rows, line)
            rows = []
        if line.error is not None:
            yield line.rejected()
        elif line.text.strip():
            yield _judge_line(line)
    if rows:
        yield _interrupted(rows, None)


def _grid_raw(rows: list[_Row]) -> str:
    return "\n".join(line.text for line, _ in rows)


def _judge_grid(rows: list[_Row]) -> Record:
    def locate(index: int) -> tuple[str, int]:
        line, cells = rows[(index - 1) // 9]
        column = cells[(index - 1) % 9][1]
        return f"row {(index - 1) // 9 + 1} (line {line.number}, column {column})", column

    cells = "".join(char for _, row in rows for char, _ in row)
    return _judge(rows[0][0].number, _grid_raw(rows), cells, locate)


def _interrupted(rows: list[_Row], by: _Line | None) -> Rejected:
    if by is None:
        what = "the end of the file"
    elif by.error is None and not by.text.strip():
        what = f"a blank line (line {by.number})"
    else:
        what = f"line {by.number}"
    reason = f"grid interrupted: {len(rows)} of 9 rows, then {what}"
    return _reject(rows[0][0].number, _grid_raw(rows), reason)


# --- Pushed strings ---------------------------------------------------------------------


def judge_all_pushed(texts: Iterable[str]) -> dict[str, Record]:
    """`judge_pushed` of each string, a string given twice judged once. A plain string (81
    ASCII cell characters) takes the fast path of a plain file line: normalised from its
    bytes, conflicting givens screened in bulk (and judged again, for their reason)."""
    judged: dict[str, Record] = {}
    fast: list[str] = []  # the plain strings, in order
    puzzles: list[str] = []  # their normalised givens
    for text in texts:
        if text in judged:
            continue
        data = text.encode("ascii") if text.isascii() else b""
        if _PLAIN_CELLS.fullmatch(data):
            puzzles.append(data.translate(_TO_DOTS).decode("ascii"))
            judged[text] = Accepted(0, puzzles[-1])
            fast.append(text)
        else:
            judged[text] = judge_pushed(text)
    for k in conflicting(puzzles):
        judged[fast[k]] = judge_pushed(fast[k])
    return judged


def pushed_puzzle(text: str) -> str | None:
    """The normalised givens of a pushed string (`judge_pushed`), None if it is no puzzle."""
    judged = judge_pushed(text)
    return judged.puzzle if isinstance(judged, Accepted) else None


def judge_pushed(text: str) -> Record:
    """A string a producer pushed, as a puzzle: its 81 cells, written on one line or several,
    whitespace anywhere ignored; a column in a reason counts from 1 in the string as sent."""
    kept = [k for k, char in enumerate(text) if not char.isspace()]
    cells = "".join([text[k] for k in kept])
    return _judge(0, text, cells, lambda i: (f"column {kept[i - 1] + 1}", kept[i - 1] + 1))
