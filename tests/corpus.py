"""Generated corpora of bad input mixed into good files, each line with what the reader must say.

Vocabulary: a *sample* is the content of one line (bytes, without its end) and what reading it
must give: the puzzle it holds (good), a fragment of the reason it is rejected with and the
column of the bad character (bad), or nothing (skipped: blank or a `#` comment). A *corpus* is
a file written from samples, with the expected sample at each line number.

Everything is drawn from a `random.Random` seeded by the caller, so a corpus is the same on
every run. Good puzzles come from `samples/sample.txt`, which the project ships.
"""

from __future__ import annotations

import bz2
import gzip
import random
import re
import string
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "sample.txt"
BOM = b"\xef\xbb\xbf"
ENDINGS = (b"\n", b"\r\n")  # a lone CR ends no line: it is a character of its line
TRUNCATED = "compressed stream is truncated or corrupt"

# Characters that are not a cell. Left out on purpose: digits and the empty markers `.0-_*x`,
# `,` and whitespace: both end the first field, so the line reads as a short puzzle instead.
LETTERS = [c for c in string.ascii_letters if c != "x"]
PUNCTUATION = [c for c in string.punctuation if c not in ".-_*,"]
CONTROLS = [chr(c) for c in (*range(1, 32), *range(127, 160)) if not chr(c).isspace()]
UNICODE_DIGITS = [*"٣۳३৩੩૩୩௩౩೩൩๓໓༣၃３①²³¹Ⅲ", "\U0001d7d1"]  # the last: bold 3
UNICODE_OTHER = [*"éßΩя中ä", "\u200b", "\u00ad", "\u2060", "\U0001f600"]  # zero-width, emoji
INVALID_UTF8 = [b"\xff", b"\xfe", b"\xe9", b"\x80", b"\xc0\xb1", b"\xed\xa0\x80", b"\xf5\x80"]


@dataclass(frozen=True)
class Sample:
    """One line's content and what reading it must give (see the module's vocabulary)."""

    kind: str
    data: bytes
    puzzle: str | None = None  # normalised, for a good line
    reason: str | None = None  # a fragment of the rejection reason, for a bad line
    column: int | None = None  # 1-based column of the bad character, when there is one

    @property
    def good(self) -> bool:
        return self.puzzle is not None

    @property
    def bad(self) -> bool:
        return self.reason is not None

    def after(self, prefix: str) -> Sample:
        """The same sample with `prefix` written before it: a bad character's column moves."""
        data = prefix.encode() + self.data
        if self.column is None:
            return replace(self, data=data)
        column = self.column + len(prefix)
        char = self.data.decode()[self.column - 1]
        return replace(self, data=data, reason=illegal(char, column), column=column)


@dataclass
class Corpus:
    """A written file and the expected sample at each of its line numbers (skipped lines too)."""

    path: Path
    lines: dict[int, Sample] = field(default_factory=dict)

    @property
    def good(self) -> dict[int, Sample]:
        return {n: s for n, s in self.lines.items() if s.good}

    @property
    def bad(self) -> dict[int, Sample]:
        return {n: s for n, s in self.lines.items() if s.bad}

    @property
    def records(self) -> int:
        return len(self.good) + len(self.bad)


def illegal(char: str, column: int) -> str:
    """The reason the reader gives for an illegal character (the exact words)."""
    return f"illegal character {char!r} (U+{ord(char):04X}) at column {column}"


@cache
def good_puzzles() -> tuple[str, ...]:
    """The 81-character puzzles of the bundled sample (its comments and bad lines left out)."""
    lines = (line.strip() for line in SAMPLE.read_text().splitlines())
    return tuple(line for line in lines if re.fullmatch(r"[1-9.]{81}", line))


# --- good, skipped and bad samples --------------------------------------------------------


def good(rng: random.Random) -> Sample:
    """A sample puzzle, sometimes written with `0` for empty, indented or with a note after it."""
    puzzle = rng.choice(good_puzzles())
    text = puzzle.replace(".", "0") if rng.random() < 0.2 else puzzle
    text = rng.choice(["", "", "", "  ", "\t"]) + text
    text += rng.choice(["", "", "", "\t# from the sample", " 4.5", ",extra"])
    return Sample("good", text.encode(), puzzle=puzzle)


def skipped(rng: random.Random) -> Sample:
    return Sample("skipped", rng.choice([b"", b"   ", b"# a comment", b"  # indented comment"]))


def wrong_length(rng: random.Random) -> Sample:
    puzzle = rng.choice(good_puzzles())
    if rng.random() < 0.5:
        text = puzzle[: rng.randint(1, 80)]
    else:
        extra = rng.randint(1, 9_900) if rng.random() < 0.1 else rng.randint(1, 120)
        text = puzzle + "".join(rng.choices("123456789.", k=extra))
    return Sample("wrong length", text.encode(), reason=f"expected 81 cells, got {len(text)}")


def _with_char(kind: str, chars: list[str]) -> Callable[[random.Random], Sample]:
    def make(rng: random.Random) -> Sample:
        char = rng.choice(chars)
        at = rng.randint(1 if char == "#" else 0, 80)  # `#` first would make a comment
        puzzle = rng.choice(good_puzzles())
        text = puzzle[:at] + char + puzzle[at + 1 :]
        return Sample(kind, text.encode(), reason=illegal(char, at + 1), column=at + 1)

    return make


def conflicting(rng: random.Random) -> Sample:
    """A digit put in an empty cell of a row that already holds it."""
    cells = list(rng.choice(good_puzzles()))
    rows = [[cells[r * 9 + c] for c in range(9)] for r in range(9)]
    row = rng.choice([r for r in range(9) if "." in rows[r] and set(rows[r]) != {"."}])
    empty = [row * 9 + c for c in range(9) if rows[row][c] == "."]
    cells[rng.choice(empty)] = rng.choice([d for d in rows[row] if d != "."])
    text = "".join(cells)
    return Sample("conflicting givens", text.encode(), reason=f"appears twice in row {row + 1}")


def not_utf8(rng: random.Random) -> Sample:
    """A puzzle with one byte sequence that is not UTF-8 (a Latin-1 `é`, a surrogate...)."""
    puzzle = rng.choice(good_puzzles()).encode()
    bad = rng.choice(INVALID_UTF8)
    at = rng.randint(0, 80)
    data = puzzle[:at] + bad + puzzle[at + 1 :]
    return Sample("not UTF-8", data, reason=f"not valid UTF-8 at byte {at + 1} (0x{bad[0]:02x})")


def binary_junk(rng: random.Random) -> Sample:
    """Random bytes that do not decode as UTF-8, with a lone CR inside (part of the line)."""
    while True:
        data = bytes(rng.choice([b for b in range(256) if b not in b"\r\n"]) for _ in range(40))
        at = rng.randint(1, 39)
        data = data[:at] + b"\r" + data[at:]
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            reason = f"not valid UTF-8 at byte {exc.start + 1} (0x{data[exc.start]:02x})"
            return Sample("binary junk", data, reason=reason)


def very_long(rng: random.Random) -> Sample:
    """Over 10,000 characters; past 40,000 bytes the reader stops decoding and counts bytes."""
    size = rng.choice([rng.randint(10_001, 39_000), rng.randint(40_001, 120_000)])
    data = (rng.choice(good_puzzles()).encode() * (size // 81 + 1))[:size]
    unit = "bytes" if size > 40_000 else "characters"
    return Sample("very long", data, reason=f"line is too long: {size:,} {unit}")


def stray_cr(rng: random.Random) -> Sample:
    """A lone CR inside a puzzle: whitespace, so it ends the first field (and no line)."""
    puzzle = rng.choice(good_puzzles())
    at = rng.randint(1, 79)
    text = puzzle[:at] + "\r" + puzzle[at + 1 :]
    return Sample("stray CR", text.encode(), reason=f"expected 81 cells, got {at}")


def stray_bom(rng: random.Random) -> Sample:
    """A BOM anywhere but at the start of the file is a character like any other."""
    text = "\ufeff" + rng.choice(good_puzzles())
    return Sample("stray BOM", text.encode(), reason=illegal("\ufeff", 1), column=1)


BAD: dict[str, Callable[[random.Random], Sample]] = {
    "wrong length": wrong_length,
    "letter": _with_char("letter", LETTERS),
    "punctuation": _with_char("punctuation", PUNCTUATION),
    "control character": _with_char("control character", CONTROLS),
    "NUL": _with_char("NUL", ["\x00"]),
    "unicode digit": _with_char("unicode digit", UNICODE_DIGITS),
    "other unicode": _with_char("other unicode", UNICODE_OTHER),
    "conflicting givens": conflicting,
    "not UTF-8": not_utf8,
    "binary junk": binary_junk,
    "very long": very_long,
    "stray BOM": stray_bom,
    "stray CR": stray_cr,
}


def bad(rng: random.Random, count: int, kinds: Iterable[str] = BAD) -> list[Sample]:
    """`count` bad samples of `kinds`, taken in turn (so each kind has its share)."""
    makers = [BAD[kind] for kind in kinds]
    return [makers[i % len(makers)](rng) for i in range(count)]


def indented(rng: random.Random, samples: list[Sample]) -> list[Sample]:
    """Some bad characters moved right by a space or a tab before the puzzle."""
    return [s.after(rng.choice(["", "", "", " ", "\t"])) if s.column else s for s in samples]


def mixed(
    rng: random.Random, good_count: int, bad_count: int, skipped_count: int = 0
) -> list[Sample]:
    """Good, bad and skipped samples shuffled, a plain good puzzle first (it picks the format)."""
    rest = [good(rng) for _ in range(good_count - 1)] + indented(rng, bad(rng, bad_count))
    rest += [skipped(rng) for _ in range(skipped_count)]
    rng.shuffle(rest)
    puzzle = rng.choice(good_puzzles())
    return [Sample("good", puzzle.encode(), puzzle=puzzle), *rest]


# --- writers ------------------------------------------------------------------------------


def join(rng: random.Random, samples: Iterable[Sample], endings: tuple[bytes, ...]) -> bytes:
    """The samples as lines, each ended by one of `endings` drawn at random."""
    return b"".join(sample.data + rng.choice(endings) for sample in samples)


def write_text(
    path: Path, rng: random.Random, samples: list[Sample], *, bom: bool = True
) -> Corpus:
    """A plain file with a BOM and mixed LF and CRLF ends (the last line has none)."""
    data = join(rng, samples, ENDINGS)
    data = data.removesuffix(b"\n").removesuffix(b"\r") if samples[-1].data else data
    path.write_bytes((BOM if bom else b"") + data)
    return Corpus(path, dict(enumerate(samples, 1)))


def write_compressed(
    path: Path, rng: random.Random, samples: list[Sample], *, truncate: float | None = None
) -> Corpus:
    """A gzip (`.gz`) or bzip2 (`.bz2`) file of the samples, LF ended.

    With `truncate`, a gzip file is cut to that fraction of its bytes: the lines that can be
    decompressed whole are expected as usual, then one rejection at the next line, then
    nothing.
    """
    data = join(rng, samples, (b"\n",))
    packed = bz2.compress(data) if path.suffix == ".bz2" else gzip.compress(data, mtime=0)
    if truncate is None:
        path.write_bytes(packed)
        return Corpus(path, dict(enumerate(samples, 1)))
    cut = packed[: int(len(packed) * truncate)]
    path.write_bytes(cut)
    whole = zlib.decompressobj(wbits=31).decompress(cut).count(b"\n")
    lines = dict(enumerate(samples[:whole], 1))
    lines[whole + 1] = Sample("truncated", b"", reason=TRUNCATED)
    return Corpus(path, lines)


CSV_BAD = ("wrong length", "letter", "unicode digit", "other unicode", "NUL", "conflicting givens")


def write_csv(path: Path, rng: random.Random, good_count: int, bad_count: int) -> Corpus:
    """`id,puzzle,rating` rows; a bad row misses the puzzle column or holds a bad puzzle.

    A quoted puzzle is read without its quotes; a bad character's column counts from the start
    of the row.
    """
    samples = [good(rng) for _ in range(good_count)] + bad(rng, bad_count, CSV_BAD)
    rng.shuffle(samples)
    lines = {1: Sample("header", b"id,puzzle,rating")}
    for number, sample in enumerate(samples, 2):
        if sample.bad and rng.random() < 0.3:
            reason = "row has 1 field(s), no 'puzzle' column (field 2)"
            lines[number] = Sample("missing column", str(number).encode(), reason=reason)
            continue
        if sample.good:  # the plain puzzle: a variant's note would be another field
            sample = Sample("good", str(sample.puzzle).encode(), puzzle=sample.puzzle)
        quote = '"' if rng.random() < 0.3 else ""
        row = sample.after(f"{number},{quote}")
        lines[number] = replace(row, data=row.data + f"{quote},1.5".encode())
    path.write_bytes(b"\n".join(s.data for s in lines.values()) + b"\n")
    return Corpus(path, lines)


def write_headless_csv(path: Path, rng: random.Random, rows: int) -> tuple[Path, str]:
    """A CSV whose header has no puzzle column; returns it and the error words expected."""
    body = "".join(f"{n},{rng.choice(good_puzzles())},x\n" for n in range(rows))
    path.write_text("id,grid_text,source\n" + body)
    return path, "CSV header has no puzzle column (found 'id', 'grid_text', 'source'"
