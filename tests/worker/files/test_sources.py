"""worker.files.sources: every format, every compression, every broken line, bounded memory."""

from __future__ import annotations

import bz2
import gzip
import hashlib
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

import solver
from tests.conftest import ROOT, shared_file
from worker.errors import SourceError
from worker.files.sources import Accepted, Rejected, content_hash, read_puzzles

# Three valid puzzles (Kaggle set, Royle's 17-clue collection, the forum's hardest list).
EASY = "..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3.."
SEVENTEEN = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
HARDEST = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"
EASY_SOLUTION = "864371259325849761971265843436192587198657432257483916689734125713528694542916378"
# EASY with a second 4 in row 1, column 5 (the givens conflict, the length is right).
CONFLICTING = EASY[:4] + "4" + EASY[5:]

Write = Callable[..., Path]


@pytest.fixture
def write(tmp_path: Path) -> Write:
    """Writes text or bytes into tmp_path, optionally gzip- or bzip2-compressed."""

    def _write(content: str | bytes, name: str = "puzzles.txt", compress: str = "") -> Path:
        data = content.encode() if isinstance(content, str) else content
        if compress == "gz":
            data = gzip.compress(data)
        elif compress == "bz2":
            data = bz2.compress(data)
        path = tmp_path / name
        path.write_bytes(data)
        return path

    return _write


def records(path: Path) -> list[Accepted | Rejected]:
    return list(read_puzzles(path))


def grid_rows(puzzle: str, *, ruled: bool) -> list[str]:
    """The puzzle printed as nine rows, with `|` and `---+---+---` rulings if `ruled`."""
    rows = [puzzle[r * 9 : r * 9 + 9] for r in range(9)]
    if not ruled:
        return rows
    out = []
    for r, row in enumerate(rows):
        if r in (3, 6):
            out.append("---+---+---")
        out.append(f"{row[:3]}|{row[3:6]}|{row[6:]}")
    return out


# --- every format, plain and compressed ----------------------------------------------------

PLAIN = f"# a comment\n{EASY}\n\n{SEVENTEEN.replace('.', '0')}\n{HARDEST}\n"
TSV = f"{EASY}\tEZ\n{SEVENTEEN}\tNO\n# graded\n{HARDEST}\tIN\n"
SDK = "\n".join([*grid_rows(EASY, ruled=False), *grid_rows(SEVENTEEN, ruled=False)]) + "\n"
SDK_RULED = "\n".join(
    ["# from a book", *grid_rows(EASY, ruled=True), "", *grid_rows(HARDEST, ruled=True)]
)
KAGGLE_CSV = f"quizzes,solutions\n{EASY.replace('.', '0')},{EASY_SOLUTION}\n{HARDEST},x\n"
SE_CSV = f"puzzle,rating,bucket\n{EASY},1.2,easy\n{HARDEST},11.9,diabolical\n"

FORMATS = {
    "plain, comments and blank lines": (PLAIN, [(2, EASY), (4, SEVENTEEN), (5, HARDEST)]),
    "tsv with a grade": (TSV, [(1, EASY), (2, SEVENTEEN), (4, HARDEST)]),
    "sdk grids, consecutive": (SDK, [(1, EASY), (10, SEVENTEEN)]),
    "sdk grids, ruled": (SDK_RULED, [(2, EASY), (14, HARDEST)]),
    "csv, kaggle layout": (KAGGLE_CSV, [(2, EASY), (3, HARDEST)]),
    "csv, rated layout": (SE_CSV, [(2, EASY), (3, HARDEST)]),
}


@pytest.mark.parametrize("compress", ["", "gz", "bz2"])
@pytest.mark.parametrize("name", list(FORMATS))
def test_every_format_reads_every_puzzle_with_its_line(
    write: Write, name: str, compress: str
) -> None:
    """Each format, plain, gzip or bzip2, gives each puzzle normalised with its first line."""
    content, expected = FORMATS[name]
    path = write(content, compress=compress)
    assert records(path) == [Accepted(line, puzzle) for line, puzzle in expected]


def test_compression_is_detected_by_magic_bytes_not_extension(write: Write) -> None:
    """A gzip file named .txt and a plain file named .gz are both read correctly."""
    assert records(write(PLAIN, name="a.txt", compress="gz"))[0] == Accepted(2, EASY)
    assert records(write(PLAIN, name="b.gz"))[0] == Accepted(2, EASY)


def test_comma_separated_trailing_fields_are_ignored_without_a_header(write: Write) -> None:
    """`puzzle,extra` lines without a header take the first field."""
    assert records(write(f"{EASY},1.2,easy\n")) == [Accepted(1, EASY)]


def test_every_empty_marker_is_normalised_to_a_dot(write: Write) -> None:
    """`0 - _ * x` all mean an empty cell."""
    lines = [EASY.replace(".", marker) for marker in "0-_*x"]
    assert {r.puzzle for r in records(write("\n".join(lines))) if isinstance(r, Accepted)} == {EASY}


def test_grid_with_spaces_and_a_box_border_is_read(write: Write) -> None:
    """Spaced cells, `|` borders and `*-----*` ruling lines are all accepted."""
    rows = [" ".join(EASY[r * 9 : r * 9 + 9]) for r in range(9)]
    text = "*-----------------*\n" + "\n".join(f"|{row}|" for row in rows) + "\n*---*\n"
    assert records(write(text)) == [Accepted(2, EASY)]


def test_a_last_line_without_newline_is_read(write: Write) -> None:
    """The final line counts even when the file does not end with a newline."""
    assert records(write(f"{EASY}\n{HARDEST}")) == [Accepted(1, EASY), Accepted(2, HARDEST)]


def test_empty_and_comment_only_files_have_no_records(write: Write) -> None:
    """Nothing to read is not an error."""
    assert records(write("")) == []
    assert records(write("# only a comment\n\n\n", name="c.txt")) == []


# --- broken lines --------------------------------------------------------------------------

# (the line, what must come out: None = accepted, else (reason fragment, column))
BROKEN: list[tuple[bytes, tuple[str, int | None] | None]] = [
    (EASY.encode(), None),
    (EASY[:80].encode(), ("expected 81 cells, got 80", None)),
    (EASY.encode() + b".", ("expected 81 cells, got 82", None)),
    ((EASY[:4] + "a" + EASY[5:]).encode(), ("illegal character 'a' (U+0061) at column 5", 5)),
    (b"  " + (EASY[:9] + "Z" + EASY[10:]).encode(), ("illegal character 'Z'", 12)),
    (SEVENTEEN.encode(), None),
    (CONFLICTING.encode(), ("conflicting givens: digit 4 appears", None)),
    ((EASY[:2] + "\x00" + EASY[3:]).encode(), ("illegal character '\\x00' (U+0000)", 3)),
    ((EASY[:7] + "\x07" + EASY[8:]).encode(), ("illegal character '\\x07' (U+0007)", 8)),
    ((EASY[:1] + "\u0663" + EASY[2:]).encode(), ("illegal character '\u0663' (U+0663)", 2)),
    ((EASY[:1] + "\uff15" + EASY[2:]).encode(), ("illegal character '\uff15' (U+FF15)", 2)),
    (HARDEST.encode(), None),
    (b"\xff\xfe\x00\x81junk" + HARDEST.encode(), ("not valid UTF-8 at byte 1 (0xff)", None)),
    (EASY[:40].encode() + b"\xc3(" + EASY[42:].encode(), ("not valid UTF-8 at byte 41", None)),
    (b"1" * 20_000, ("line is too long: 20,000 characters", None)),
    ("\u00e9".encode() * 30_000, ("line is too long: 60,000 bytes", None)),
    (EASY.encode(), None),
]


def test_broken_lines_are_rejected_with_reason_and_line_and_good_ones_kept(
    write: Write,
) -> None:
    """Every broken line becomes one Rejected at its line number; the good ones around pass."""
    path = write(b"\n".join(line for line, _ in BROKEN) + b"\n")
    got = records(path)
    assert len(got) == len(BROKEN)
    for number, (record, (line, expected)) in enumerate(zip(got, BROKEN, strict=True), 1):
        assert record.line == number
        if expected is None:
            assert isinstance(record, Accepted), record
            continue
        fragment, column = expected
        assert isinstance(record, Rejected), record
        assert fragment in record.reason
        assert record.column == column
        assert len(record.raw) <= 200
        shown = line.decode("utf-8", "backslashreplace")[:200].replace("\x00", "\\x00")
        assert record.raw == shown[:200]  # NUL escaped: PostgreSQL text cannot hold it


def test_conflict_reason_names_the_digit_the_unit_and_the_cells(write: Write) -> None:
    """The solver's plain-words reason for conflicting givens is kept."""
    (record,) = records(write(CONFLICTING))
    assert isinstance(record, Rejected)
    assert record.reason == "conflicting givens: digit 4 appears twice in row 1 (columns 3 and 5)"


@pytest.mark.parametrize("eol", [b"\r\n", b"\r", b"\n"])
def test_crlf_and_cr_only_line_endings_give_the_same_records(write: Write, eol: bytes) -> None:
    """2,000 lines ended by CRLF, LF or (classic Mac OS: no LF at all) CR, spanning read
    chunks, keep their numbers."""
    lines = [EASY.encode()] * 1999 + [(EASY[:80] + "a").encode()]
    got = records(write(eol.join(lines) + eol))
    assert len(got) == 2000
    assert all(r == Accepted(n, EASY) for n, r in enumerate(got[:-1], 1))
    assert isinstance(got[-1], Rejected)
    assert got[-1].line == 2000


def test_a_lone_cr_inside_a_line_does_not_shift_the_line_numbers(write: Write) -> None:
    """Lines end at LF only (as `wc -l` and `grep -n` count): a stray CR in a binary line
    is part of it, and every later line keeps its number."""
    lines = [EASY.encode(), b"\x80junk\rmore junk", EASY[:80].encode(), b"", HARDEST.encode()]
    got = records(write(b"\n".join(lines) + b"\r\n"))
    assert [(type(r), r.line) for r in got] == [
        (Accepted, 1),
        (Rejected, 2),
        (Rejected, 3),
        (Accepted, 5),
    ]
    assert got[1].raw == "\\x80junk\rmore junk"
    assert got[2].reason == "expected 81 cells, got 80"


def test_a_utf8_bom_at_the_start_is_stripped(write: Write) -> None:
    """A BOM is not part of the first puzzle, nor of a CSV header."""
    assert records(write(b"\xef\xbb\xbf" + EASY.encode())) == [Accepted(1, EASY)]
    csv_path = write(b"\xef\xbb\xbf" + SE_CSV.encode(), name="se.csv")
    assert records(csv_path)[0] == Accepted(2, EASY)


def test_a_huge_line_is_rejected_without_being_held_in_memory(write: Write) -> None:
    """A 5 MB line costs one Rejected with a 200-char raw, and far less than 5 MB of memory."""
    path = write(b"1" * 5_000_000 + b"\n" + EASY.encode())
    tracemalloc.start()
    got = records(path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert isinstance(got[0], Rejected)
    assert got[0].reason.startswith("line is too long: 5,000,000 bytes")
    assert got[0].raw == "1" * 200
    assert got[1] == Accepted(2, EASY)
    assert peak < 1_000_000


def test_a_truncated_gzip_keeps_what_came_before_then_stops_with_one_rejection(
    write: Write,
) -> None:
    """Complete records before the damage are yielded, then one Rejected at the next line."""
    data = gzip.compress(("\n".join([EASY, SEVENTEEN, HARDEST] * 3000) + "\n").encode())
    got = records(write(data[: len(data) // 2]))
    *good, last = got
    assert good
    assert all(isinstance(r, Accepted) for r in good)
    assert [r.line for r in good] == list(range(1, len(good) + 1))
    assert isinstance(last, Rejected)
    assert last.line == len(good) + 1
    assert last.reason.startswith("compressed stream is truncated or corrupt: ")


@pytest.mark.parametrize("cut", [10, -10])
def test_a_truncated_or_damaged_bz2_ends_with_one_rejection_and_no_exception(
    write: Write, cut: int
) -> None:
    """A cut bzip2 file is reported as a record, never raised."""
    data = bz2.compress(("\n".join([EASY] * 100) + "\n").encode())
    got = records(write(data[:cut]))
    assert isinstance(got[-1], Rejected)
    assert got[-1].reason.startswith("compressed stream is truncated or corrupt: ")
    assert all(isinstance(r, Accepted) for r in got[:-1])


def test_a_gzip_file_with_a_broken_header_is_one_rejection(write: Write) -> None:
    """Gzip magic followed by garbage is reported at line 1."""
    (record,) = records(write(b"\x1f\x8b" + b"garbage" * 10))
    assert isinstance(record, Rejected)
    assert record.line == 1
    assert "compressed stream is truncated or corrupt" in record.reason


# --- CSV -----------------------------------------------------------------------------------


def test_a_csv_row_without_the_puzzle_column_is_rejected(write: Write) -> None:
    """Too few fields is a rejected row; the rows around it are read."""
    text = f"rating,puzzle\n1.2,{EASY}\n3.4\n2.0,{HARDEST}\n"
    got = records(write(text, name="rated.csv"))
    assert got[0] == Accepted(2, EASY)
    assert got[1] == Rejected(3, "3.4", "row has 1 field(s), no 'puzzle' column (field 2)")
    assert got[2] == Accepted(4, HARDEST)


def test_a_csv_column_is_reported_relative_to_the_line(write: Write) -> None:
    """An illegal character in the second field is located in the whole line."""
    text = f"rating,Puzzle\n1.2,{EASY[:4]}q{EASY[5:]}\n"
    (record,) = records(write(text))
    assert isinstance(record, Rejected)
    assert record.column == 9
    assert "at column 9" in record.reason


@pytest.mark.parametrize("name", ["Puzzle", "QUIZZES", "quiz", "puzzles", "givens", "grid"])
def test_every_known_header_name_picks_the_puzzle_column(write: Write, name: str) -> None:
    """Header names are matched case-insensitively."""
    assert records(write(f"id,{name}\n7,{EASY}\n")) == [Accepted(2, EASY)]


def test_a_csv_header_without_a_puzzle_column_fails_naming_what_it_found(
    write: Write,
) -> None:
    """No puzzle column is an error for the whole file, with file, line and the columns."""
    path = write(f"# rated\nid,rating,level\n1,{EASY},2\n", name="odd.csv")
    with pytest.raises(SourceError, match=r"odd\.csv:2: .*'id', 'rating', 'level'") as err:
        records(path)
    assert err.value.line == 2


# --- grids ---------------------------------------------------------------------------------


def test_an_interrupted_grid_is_rejected_at_its_first_line(write: Write) -> None:
    """A grid cut short by a blank line or the end of the file is one Rejected each."""
    rows = grid_rows(EASY, ruled=False)
    text = "\n".join([*rows[:5], "", *rows, "", *rows[:3]])
    got = records(write(text))
    assert [type(r) for r in got] == [Rejected, Accepted, Rejected]
    first, _, last = got
    assert isinstance(first, Rejected)
    assert isinstance(last, Rejected)
    assert (first.line, last.line) == (1, 17)
    assert first.reason == "grid interrupted: 5 of 9 rows, then a blank line (line 6)"
    assert last.reason == "grid interrupted: 3 of 9 rows, then the end of the file"
    assert got[1] == Accepted(7, EASY)


def test_a_bad_cell_in_a_grid_names_its_row_line_and_column(write: Write) -> None:
    """The reason locates the bad cell; the record's line is the grid's first row."""
    rows = grid_rows(EASY, ruled=True)
    rows[5] = rows[5][:4] + "?" + rows[5][5:]  # row 5 of the grid, on line 6
    (record,) = records(write("\n".join(rows)))
    assert isinstance(record, Rejected)
    assert record.line == 1
    assert record.reason == "illegal character '?' (U+003F) at row 5 (line 6, column 5)"
    assert record.column == 5


# --- content hash, the bundled sample, streaming and the shared corpora --------------------


def test_content_hash_is_the_sha256_of_the_raw_bytes(write: Write) -> None:
    """The hash is of the bytes as stored, so compressed and plain files differ."""
    plain, packed = write(PLAIN), write(PLAIN, name="p.gz", compress="gz")
    assert content_hash(plain) == hashlib.sha256(PLAIN.encode()).hexdigest()
    assert content_hash(packed) == hashlib.sha256(packed.read_bytes()).hexdigest()


def test_the_bundled_sample_is_all_good_and_the_broken_one_shows_each_mistake() -> None:
    """samples/sample.txt: about 300 distinct puzzles, all accepted; broken.txt: 3 rejected."""
    sample = records(ROOT / "samples" / "sample.txt")
    assert all(isinstance(r, Accepted) for r in sample)
    assert 250 <= len(sample) <= 350
    assert len({r.puzzle for r in sample if isinstance(r, Accepted)}) == len(sample)
    broken = records(ROOT / "samples" / "broken.txt")
    reasons = [r.reason for r in broken if isinstance(r, Rejected)]
    assert len(reasons) == 3
    assert "expected 81 cells, got 80" in reasons[0]
    assert "illegal character 'a'" in reasons[1]
    assert "appears twice" in reasons[2]


@pytest.mark.slow
def test_a_200k_line_file_streams_in_bounded_memory(
    write: Write, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading 200,000 lines (16 MB) never holds more than a small, fixed amount.

    The solver's checks are stubbed: the reader's memory is under test, and tracemalloc
    would make the real ones take minutes.
    """

    def parse(text: str) -> tuple[int, ...]:
        if len(text) != 81:
            raise solver.PuzzleFormatError(f"expected 81 cells, got {len(text)}")
        return (0,) * 81

    monkeypatch.setattr(solver, "parse", parse)
    monkeypatch.setattr(solver, "find_conflict", lambda grid: None)
    path = write("\n".join([EASY, SEVENTEEN, HARDEST, EASY[:80]] * 50_000) + "\n")
    tracemalloc.start()
    counts = {Accepted: 0, Rejected: 0}
    for record in read_puzzles(path):
        counts[type(record)] += 1
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert counts == {Accepted: 150_000, Rejected: 50_000}
    assert peak < 1_000_000


SHARED_COUNTS = {
    "kaggle_10k.txt": 9_999,
    "kaggle_10k.solutions.txt": 9_999,
    "krazydad_graded_56k.tsv": 56_000,
    "seventeen_clue_49k.txt": 49_158,
    "top1465.txt": 1_465,
    "forum_hardest_375.txt": 375,
    "multi_solution_10k.txt": 10_000,
    "se_rated_6k.csv": 6_008,
    "qqwing_graded_4k.csv": 4_115,
}


@pytest.mark.slow
@pytest.mark.parametrize(("name", "count"), SHARED_COUNTS.items())
def test_the_shared_corpora_read_completely(name: str, count: int) -> None:
    """Every puzzle of each shared collection is accepted, none rejected."""
    got = list(read_puzzles(shared_file(name)))
    assert all(isinstance(r, Accepted) for r in got)
    assert len(got) == count
