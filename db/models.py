"""The schema, as typed SQLAlchemy models.

Alembic revisions in `migrations/versions` are what create and change the schema; these
models must match them (a test compares the two). Glossary: a *puzzle* is a distinct
81-character grid; a *collection* is one imported file; a *line* is the 1-based line of a
record in that file; a *batch* is the unit of work sent to a worker.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    SmallInteger,
    String,
    Text,
    UniqueConstraint,
    false,
    func,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB, ExcludeConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from db.raw_text import RAW_TEXT_LIMIT
from db.tiers import (
    BATCH_KINDS,
    BULK,
    DEEP,
    DEEP_BATCH,
    ESTIMATED,
    EXACT,
    FAST,
    IMPORT,
    RATING_STATES,
    RATING_TIERS,
    RERATE,
)
from db.tiers import PENDING as PENDING_RATING
from solver import LABELS, PROFILES, STATUSES

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# Result statuses and difficulty labels are the solver's (solver.STATUSES, solver.LABELS);
# batch kinds, rating states and tiers are db.tiers'.
BATCH_STATUSES = ("pending", "done", "failed")
PENDING, DONE, FAILED = BATCH_STATUSES
# Where a collection's lines come from: a file (`import`, `run`) or producers' messages.
ORIGINS = ("file", "producer")
FILE, PRODUCER = ORIGINS

NAME_LENGTH = 200  # characters of a collection name, or of a producer's reference
# SQLite only auto-increments a column declared exactly INTEGER PRIMARY KEY.
Id = BigInteger().with_variant(Integer(), "sqlite")
Json = JSON().with_variant(JSONB(), "postgresql")
Timestamp = DateTime(timezone=True)


# The tables written a row a puzzle (collection_puzzles, results, solving_paths, batch_puzzles)
# hold no FOREIGN KEY to puzzles, collections or batches: each would cost a check a row, and the
# code that writes them proves them (docs: Architecture, "References kept by the code"). A
# column's `info` names what it refers to, for the SQL reference.
REFERS_TO = "refers_to"


def _refers_to(target: str) -> dict[str, str]:
    return {REFERS_TO: target}


PENDING_INDEX = "ix_results_pending"
CANONICAL_INDEX = "ix_puzzles_canonical_key"
GIVENS_UNIQUE = "uq_puzzles_givens"  # SQLite: a B-tree of the givens
GIVENS_EXCLUSION = "ex_puzzles_givens"  # PostgreSQL: a hash index, no two rows equal
_PENDING = text(f"rating_state = '{PENDING_RATING}'")  # the rows PENDING_INDEX holds


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


def _one_of(values: tuple[str, ...]) -> str:
    """`a, b or c`: the values in a column's comment."""
    return f"{', '.join(values[:-1])} or {values[-1]}"


def made_on(obj: object, dialect: str) -> bool:
    """Whether a schema object of the models is made on `dialect`: not when declared for
    another one only (`ddl_if(dialect=...)`, which autogenerate does not read itself)."""
    only = getattr(obj, "_ddl_if", None)  # SQLAlchemy keeps ddl_if's arguments there
    return only is None or only.dialect in (None, dialect)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


def _counter(comment: str) -> Mapped[int]:
    return mapped_column(Integer, nullable=False, default=0, server_default="0", comment=comment)


class Puzzle(Base):
    __tablename__ = "puzzles"
    __table_args__ = (
        # Isomorphs are found by their forms' keys (8 bytes an entry where a form takes 81),
        # then their forms compared; equality is all a key is asked, so PostgreSQL keeps a
        # hash index. Cheaper entries, less of the import's CPU (docs: Benchmarks).
        Index(CANONICAL_INDEX, "canonical_key", postgresql_using="hash"),
        # No two puzzles have the same givens. PostgreSQL holds that by an exclusion constraint
        # on a hash index: a 4-byte code an entry, where a unique B-tree keeps the 81
        # characters and compares them by collation (a fifth of the server's import; docs:
        # Benchmarks). A hash index cannot be unique; SQLite has no exclusion constraint.
        UniqueConstraint("givens", name=GIVENS_UNIQUE).ddl_if(dialect="sqlite"),
        ExcludeConstraint(("givens", "="), name=GIVENS_EXCLUSION, using="hash").ddl_if(
            dialect="postgresql"
        ),
        {"comment": "Every distinct puzzle ever imported, whatever its collection."},
    )

    id: Mapped[int] = mapped_column(Id, primary_key=True, comment="Puzzle id.")
    givens: Mapped[str] = mapped_column(
        String(81),
        comment="The grid row by row, 81 characters: digits 1-9 for givens, '.' for empty cells.",
    )
    givens_count: Mapped[int] = mapped_column(SmallInteger, comment="Number of given digits.")
    canonical: Mapped[str | None] = mapped_column(
        String(81),
        comment="The puzzle's canonical (minlex) form, written like givens: equal for two "
        "puzzles exactly when one is the other under a symmetry and a relabelling of the digits "
        "(docs, Puzzle identity). Set at import.",
    )
    canonical_key: Mapped[int | None] = mapped_column(
        BigInteger,
        comment="A 64-bit digest of canonical (solver.canonical_key), indexed: isomorphs have "
        "equal keys, so join on it and on canonical to find them fast (docs, Puzzle identity). "
        "Set at import.",
    )
    first_seen: Mapped[datetime] = mapped_column(
        Timestamp, server_default=func.now(), comment="When the puzzle was first imported."
    )


class Collection(Base):
    __tablename__ = "collections"
    __table_args__ = (
        CheckConstraint(_in("origin", ORIGINS), name="origin"),
        {
            "comment": "One imported puzzle file, with its import counters and solving "
            "progress. lines_read = accepted + duplicates + rejected."
        },
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, comment="Collection id.")
    name: Mapped[str] = mapped_column(
        String(NAME_LENGTH), unique=True, comment="Name given at import."
    )
    source_file: Mapped[str] = mapped_column(
        Text, comment="Path of the file imported, made absolute (stdin for standard input)."
    )
    content_hash: Mapped[str] = mapped_column(
        String(64),
        comment="sha256 (hex) of the file's bytes: re-importing another file under "
        "the same name is refused (unless --replace).",
    )
    imported_at: Mapped[datetime] = mapped_column(
        Timestamp,
        server_default=func.now(),
        comment="When its file was imported, or last replaced (--replace).",
    )
    lines_read: Mapped[int] = _counter("Records read so far (accepted + duplicates + rejected).")
    accepted: Mapped[int] = _counter("Lines holding a puzzle not seen earlier in this file.")
    duplicates: Mapped[int] = _counter("Lines repeating a puzzle of an earlier line of the file.")
    rejected: Mapped[int] = _counter("Lines that are not a valid puzzle (see rejected_lines).")
    total: Mapped[int] = _counter("Distinct puzzles to solve (= accepted).")
    done: Mapped[int] = _counter("Distinct puzzles of this collection that have a result.")
    failed: Mapped[int] = _counter("Distinct puzzles of this collection in failed batches.")
    origin: Mapped[str] = mapped_column(
        String(16),
        default=FILE,
        server_default=FILE,
        comment=f"{FILE}: lines of an imported file; {PRODUCER}: puzzles pushed by producers "
        "(task sudoku.solve), a line per puzzle in the order they were stored.",
    )
    keeps_paths: Mapped[bool] = mapped_column(
        Boolean,
        default=False,
        server_default=false(),
        comment="True when imported with --paths: its solved puzzles' solving paths are kept "
        "in solving_paths.",
    )


class Batch(Base):
    __tablename__ = "batches"
    __table_args__ = (
        CheckConstraint(_in("status", BATCH_STATUSES), name="status"),
        CheckConstraint(_in("kind", BATCH_KINDS), name="kind"),
        Index(None, "collection_id", "status"),
        {
            "comment": "The unit of work: a group of distinct puzzles of one collection sent to a "
            "worker as one message."
        },
    )

    id: Mapped[int] = mapped_column(Id, primary_key=True, comment="Batch id.")
    collection_id: Mapped[int] = mapped_column(
        ForeignKey("collections.id", ondelete="CASCADE"),
        comment="The collection the batch belongs to.",
    )
    size: Mapped[int] = mapped_column(Integer, comment="Number of puzzles in the batch.")
    status: Mapped[str] = mapped_column(
        String(16),
        default=PENDING,
        server_default=PENDING,
        comment=f"{PENDING}, then {DONE} (results written) or {FAILED} (see error).",
    )
    attempts: Mapped[int] = _counter("Times a worker finished (done) or gave up on it (failed).")
    error: Mapped[str | None] = mapped_column(Text, comment="Why the batch failed.")
    kind: Mapped[str] = mapped_column(
        String(16),
        default=IMPORT,
        server_default=IMPORT,
        comment=f"{IMPORT}: lines of its collection (collection_puzzles.batch_id); {RERATE}: "
        f"puzzles rated again with today's settings (sudoku-batch rerate); {DEEP_BATCH}: a puzzle "
        "the bulk path left pending, rated within the deep budget (the puzzles of both in "
        "batch_puzzles).",
    )
    created_at: Mapped[datetime] = mapped_column(
        Timestamp, server_default=func.now(), comment="When the batch was created (at import)."
    )
    queued_at: Mapped[datetime | None] = mapped_column(
        Timestamp,
        comment="When the producer last sent it to the queue (NULL: never sent, e.g. the import "
        "was stopped first).",
    )
    finished_at: Mapped[datetime | None] = mapped_column(
        Timestamp, comment="When it became done or failed."
    )


class CollectionPuzzle(Base):
    __tablename__ = "collection_puzzles"
    __table_args__ = (
        Index(None, "collection_id", "puzzle_id"),
        {"comment": "Which puzzle each accepted line of a collection holds."},
    )

    collection_id: Mapped[int] = mapped_column(
        Integer,
        primary_key=True,
        info=_refers_to("collections.id"),
        comment="The collection.",
    )
    line: Mapped[int] = mapped_column(
        Integer, primary_key=True, comment="1-based line of the record in the file."
    )
    puzzle_id: Mapped[int] = mapped_column(
        Id, index=True, info=_refers_to("puzzles.id"), comment="The puzzle on that line."
    )
    batch_id: Mapped[int | None] = mapped_column(
        Id,
        index=True,
        info=_refers_to("batches.id"),
        comment="Batch that solves it; NULL for a duplicate line or a puzzle solved before.",
    )
    is_duplicate: Mapped[bool] = mapped_column(
        Boolean, comment="True when an earlier line of the same collection holds the same puzzle."
    )


class BatchPuzzle(Base):
    __tablename__ = "batch_puzzles"
    __table_args__ = (
        {
            "comment": "The puzzles of a rerate or deep batch (an import batch's puzzles are its "
            "lines, in collection_puzzles)."
        },
    )

    batch_id: Mapped[int] = mapped_column(
        ForeignKey("batches.id", ondelete="CASCADE"), primary_key=True, comment="The batch."
    )
    puzzle_id: Mapped[int] = mapped_column(
        Id,
        primary_key=True,
        index=True,
        info=_refers_to("puzzles.id"),
        comment="A puzzle it rates.",
    )


class RejectedLine(Base):
    __tablename__ = "rejected_lines"
    __table_args__ = ({"comment": "Lines of a collection that are not a valid puzzle, and why."},)

    collection_id: Mapped[int] = mapped_column(
        ForeignKey("collections.id", ondelete="CASCADE"),
        primary_key=True,
        comment="The collection.",
    )
    line: Mapped[int] = mapped_column(
        Integer, primary_key=True, comment="1-based line of the record in the file."
    )
    column: Mapped[int | None] = mapped_column(
        Integer, comment="1-based column of the first offending character, when known."
    )
    raw_text: Mapped[str] = mapped_column(
        Text,
        comment=f"The line as read, cut to {RAW_TEXT_LIMIT} characters, NUL bytes written as "
        "\\x00.",
    )
    reason: Mapped[str] = mapped_column(Text, comment="What is wrong with the line.")


class Result(Base):
    __tablename__ = "results"
    __table_args__ = (
        CheckConstraint(_in("status", STATUSES), name="status"),
        CheckConstraint(_in("rating_state", RATING_STATES), name="rating_state"),
        CheckConstraint(_in("rating_tier", RATING_TIERS), name="rating_tier"),
        # The pending ratings alone (the deep tier's work, few), for the queries that find them.
        # The columns holding a few values over the whole table (status, the label, ...) have
        # no index: a bulk import paid an entry in each a row, and a query reaches a collection's
        # results through its lines (docs: The tables).
        Index(PENDING_INDEX, "puzzle_id", postgresql_where=_PENDING, sqlite_where=_PENDING),
        {"comment": "The solver's verdict and difficulty metrics, one row per distinct puzzle."},
    )

    puzzle_id: Mapped[int] = mapped_column(
        Id,
        primary_key=True,
        autoincrement=False,
        info=_refers_to("puzzles.id"),
        comment="The puzzle.",
    )
    status: Mapped[str] = mapped_column(String(16), comment=f"{_one_of(STATUSES)}.")
    solution: Mapped[str | None] = mapped_column(
        String(81), comment="81 digits, checked valid; NULL unless status is solved."
    )
    reason: Mapped[str | None] = mapped_column(
        Text, comment="Why the puzzle is invalid or unsolvable."
    )
    solved_by_elimination: Mapped[bool | None] = mapped_column(
        Boolean, comment="True when logical techniques alone solved it, no guessing."
    )
    hardest_technique: Mapped[str | None] = mapped_column(
        String(32), comment="Hardest technique of the ladder that fired (e.g. x_wing)."
    )
    technique_counts: Mapped[dict[str, Any] | None] = mapped_column(
        Json, comment="JSON object: technique name -> times it fired."
    )
    recursion_depth: Mapped[int | None] = mapped_column(
        Integer, comment="Deepest level of search (guess) needed; 0 = no guessing."
    )
    guesses: Mapped[int | None] = mapped_column(Integer, comment="Guesses made by the search.")
    backtracks: Mapped[int | None] = mapped_column(
        Integer, comment="Guesses the search had to undo."
    )
    nodes: Mapped[int | None] = mapped_column(Integer, comment="Search nodes visited.")
    difficulty: Mapped[str | None] = mapped_column(String(16), comment=f"Label: {_one_of(LABELS)}.")
    difficulty_score: Mapped[float | None] = mapped_column(
        Float, index=True, comment="Numeric difficulty the label is cut from; higher is harder."
    )
    ep: Mapped[float | None] = mapped_column(
        Float, comment="Sudoku Explainer EP: the hardest step up to the first placement of a digit."
    )
    ed: Mapped[float | None] = mapped_column(
        Float, comment="Sudoku Explainer ED: the value of the first step."
    )
    rating_state: Mapped[str | None] = mapped_column(
        String(16),
        comment=f"{EXACT}: difficulty_score, ep and ed are Sudoku Explainer's own (every step "
        f"rated by its SE value); {PENDING_RATING}: an interim estimate, the puzzle needing more "
        f"work than the bulk path's budget, to be rated again within the deep budget; "
        f"{ESTIMATED}: an estimate that stays (SE's chains off, beyond the deep budget, or beyond "
        "the rungs of the profile). NULL unless status is solved.",
    )
    rating_tier: Mapped[str | None] = mapped_column(
        String(16),
        comment=f"The work budget the result was made within: {FAST} (SE's chains off, "
        f"SUDOKU_RATING=fast), {BULK} (SUDOKU_WORK_BUDGET) or {DEEP} (SUDOKU_DEEP_WORK_BUDGET). "
        "NULL for results of releases before solver 1.3.0.",
    )
    rating_profile: Mapped[str] = mapped_column(
        String(16),
        comment=f"The ladder the puzzle was rated on: {_one_of(PROFILES)} (SUDOKU_RATING_PROFILE).",
    )
    is_minimal: Mapped[bool | None] = mapped_column(
        Boolean,
        comment="True when every given is needed for a unique solution (removing any one "
        "leaves several); NULL unless status is solved.",
    )
    solver_version: Mapped[str] = mapped_column(String(32), comment="solver.SOLVER_VERSION.")
    solve_ms: Mapped[float | None] = mapped_column(Float, comment="Solver wall time, ms.")
    worker_host: Mapped[str | None] = mapped_column(String(255), comment="Host that solved it.")
    solved_at: Mapped[datetime] = mapped_column(Timestamp, comment="When the result was made.")


class Submission(Base):
    __tablename__ = "submissions"
    __table_args__ = (
        Index(None, "collection_id", "first_line"),
        {
            "comment": "Every message of puzzle strings a producer pushed (task sudoku.solve), "
            "stored once: its strings are lines first_line to first_line + size - 1 of its "
            "producer collection, in their order; each line holds the puzzle or, in "
            "rejected_lines, why it was refused."
        },
    )

    id: Mapped[int] = mapped_column(Id, primary_key=True, comment="Submission id.")
    task_id: Mapped[str] = mapped_column(
        String(155), unique=True, comment="Id of the Celery message (task) that carried them."
    )
    collection_id: Mapped[int] = mapped_column(
        ForeignKey("collections.id", ondelete="CASCADE"), comment="The producer collection."
    )
    first_line: Mapped[int] = mapped_column(
        Integer,
        comment="The collection's line of the message's first string: the string at 0-based "
        "position p of the message is on line first_line + p.",
    )
    size: Mapped[int] = mapped_column(Integer, comment="How many strings the message carried.")
    reference: Mapped[str | None] = mapped_column(
        String(NAME_LENGTH),
        index=True,
        comment="The producer's own reference sent with the message.",
    )
    stored_at: Mapped[datetime] = mapped_column(
        Timestamp, server_default=func.now(), comment="When the worker stored it."
    )


class SolvingPath(Base):
    __tablename__ = "solving_paths"
    __table_args__ = (
        {
            "comment": "The solving path of a solved puzzle of a collection imported with "
            "--paths: the ladder's steps, easiest first, as sudoku-batch explain --json "
            "prints them."
        },
    )

    puzzle_id: Mapped[int] = mapped_column(
        Id,
        primary_key=True,
        autoincrement=False,
        info=_refers_to("puzzles.id"),
        comment="The puzzle.",
    )
    steps: Mapped[list[Any]] = mapped_column(
        Json,
        comment="JSON array, a step each: technique, value (its SE value), estimated (its rung "
        "is rated by estimate), placed and removed (lists of {cell, name, digit}, e.g. "
        '{"cell": 4, "name": "r1c5", "digit": 7}).',
    )
    stalled: Mapped[bool] = mapped_column(
        Boolean,
        comment="True when the ladder stalled before the grid was full (the rest needs search).",
    )
    rating_profile: Mapped[str] = mapped_column(
        String(16), comment="The ladder the path climbed (as results.rating_profile)."
    )


RESULT_COLUMNS: tuple[str, ...] = tuple(c.name for c in Result.__table__.columns)
