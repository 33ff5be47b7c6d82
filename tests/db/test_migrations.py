"""The schema: Alembic revisions, their agreement with the models, and ensure_schema."""

from __future__ import annotations

import logging
import re

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, inspect, select, text
from sqlalchemy.exc import IntegrityError

from db import migrate
from db.engine import ensure_schema, make_engine
from db.errors import SchemaNotReady
from db.models import (
    BATCH_STATUSES,
    CANONICAL_INDEX,
    GIVENS_EXCLUSION,
    GIVENS_UNIQUE,
    PENDING_INDEX,
    Base,
)
from db.tiers import BATCH_KINDS, RATING_STATES, RATING_TIERS
from db.urls import normalize_url
from db.views import VIEW_NAME, create_view_sql, puzzle_results
from solver import STATUSES, canonical, canonical_key

TABLES = {
    "puzzles",
    "collections",
    "batches",
    "collection_puzzles",
    "rejected_lines",
    "results",
    "submissions",
    "solving_paths",
    "batch_puzzles",
}


def test_migrations_run_from_empty_to_head_and_back_to_base(database_url: str) -> None:
    """Upgrade creates every table and the view; downgrade to base removes them all."""
    migrate.upgrade(database_url)
    assert migrate.current(database_url) == migrate.head()
    engine = make_engine(database_url)
    with engine.connect() as connection:
        assert set(inspect(connection).get_table_names()) >= TABLES
        assert VIEW_NAME in inspect(connection).get_view_names()
    migrate.downgrade(database_url, "base")
    with engine.connect() as connection:
        assert set(inspect(connection).get_table_names()) <= {"alembic_version"}
        assert inspect(connection).get_view_names() == []
    assert migrate.current(database_url) is None
    engine.dispose()


def test_models_and_migrated_schema_do_not_drift(database_url: str) -> None:
    """Autogenerate finds nothing to change between the models and the migrated schema, and
    every table and column has the comment the SQL reference shows, in the models and (where
    the database keeps comments) in the migrated schema, and the view the one db.views gives
    it."""
    migrate.upgrade(database_url)
    engine = make_engine(database_url)
    with engine.connect() as connection:
        context = MigrationContext.configure(
            connection,
            opts={
                "compare_type": True,
                "include_object": migrate.compared_on(connection.dialect.name),
            },
        )
        assert compare_metadata(context, Base.metadata) == []
        schema = inspect(connection)
        stored = {
            (table, column["name"]): column.get("comment")
            for table in TABLES
            for column in schema.get_columns(table)
        }
        keeps_comments = connection.dialect.supports_comments
        view_comment = schema.get_table_comment(VIEW_NAME)["text"] if keeps_comments else None
    engine.dispose()
    assert [table.name for table in Base.metadata.sorted_tables if not table.comment] == []
    modelled = {(t.name, c.name): c.comment for t in Base.metadata.sorted_tables for c in t.c}
    assert [column for column, comment in modelled.items() if not comment] == []
    if keeps_comments:
        assert stored == modelled
        assert view_comment == puzzle_results.comment


def _definition(connection: Connection, name: str) -> str:
    """A view's SELECT as the database keeps it: PostgreSQL's own rendering of it; SQLite's
    text as written, its spacing aside."""
    if connection.dialect.name == "postgresql":
        query = "SELECT pg_get_viewdef(CAST(:name AS regclass))"
        return str(connection.scalar(text(query), {"name": name}))
    query = "SELECT sql FROM sqlite_master WHERE name = :name"
    sql = str(connection.scalar(text(query), {"name": name}))
    return " ".join(sql.split()).removeprefix(f"CREATE VIEW {name} AS ")


def test_the_migrated_view_is_the_one_db_views_writes_from_the_models(database_url: str) -> None:
    """The revisions keep frozen copies of the view's SQL; at head the database holds the view
    db.views writes from today's models, every column of results included but those it hides:
    a result column added to the model and to no revision's view fails here."""
    migrate.upgrade(database_url)
    engine = make_engine(database_url)
    with engine.connect() as connection:
        expected = create_view_sql().replace(VIEW_NAME, "expected_view", 1)
        connection.execute(text(expected))
        migrated, written = (_definition(connection, n) for n in (VIEW_NAME, "expected_view"))
        connection.rollback()
    engine.dispose()
    assert migrated == written


@pytest.mark.parametrize(
    ("table", "column", "allowed"),
    [
        ("results", "status", STATUSES),
        ("results", "rating_state", RATING_STATES),
        ("results", "rating_tier", RATING_TIERS),
        ("batches", "status", BATCH_STATUSES),
        ("batches", "kind", BATCH_KINDS),
    ],
)
def test_the_migrated_checks_allow_exactly_the_values_the_code_uses(
    database_url: str, table: str, column: str, allowed: tuple[str, ...]
) -> None:
    """The revisions' CHECK constraints (snapshots in time) still name the values that
    solver.STATUSES and db.models' BATCH_STATUSES, BATCH_KINDS, RATING_STATES and RATING_TIERS
    define."""
    migrate.upgrade(database_url)
    engine = make_engine(database_url)
    with engine.connect() as connection:
        checks = inspect(connection).get_check_constraints(table)
    engine.dispose()
    (check,) = [c for c in checks if c["name"] == f"ck_{table}_{column}"]
    assert re.findall(r"'(\w+)'", check["sqltext"]) == list(allowed)


def test_ensure_schema_creates_the_schema_in_an_empty_sqlite_file(sqlite_url: str) -> None:
    """An empty embedded database is migrated to head on first use."""
    engine = make_engine(sqlite_url)
    ensure_schema(engine)
    assert migrate.current(sqlite_url) == migrate.head()
    ensure_schema(engine)  # at head: nothing to do
    engine.dispose()


def test_ensure_schema_refuses_a_postgresql_database_not_migrated(postgres_url: str) -> None:
    """PostgreSQL is never migrated behind the user's back: the error says what to run."""
    engine = make_engine(postgres_url)
    with pytest.raises(SchemaNotReady, match=r"not migrated.*sudoku-batch db upgrade"):
        ensure_schema(engine)
    engine.dispose()


def test_ensure_schema_refuses_a_non_empty_sqlite_file_at_an_old_revision(sqlite_url: str) -> None:
    """A SQLite file holding data but no current revision is left alone, with the hint."""
    engine = make_engine(sqlite_url)
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE notes (body TEXT)"))
    with pytest.raises(SchemaNotReady, match="sudoku-batch db upgrade"):
        ensure_schema(engine)
    engine.dispose()


def test_postgresql_urls_are_pointed_at_psycopg_3() -> None:
    """A plain postgresql:// URL is rewritten to the psycopg 3 driver, password kept."""
    assert normalize_url("postgresql://u:pw@h/db") == "postgresql+psycopg://u:pw@h/db"
    assert normalize_url("sqlite:///x.db") == "sqlite:///x.db"


def test_logged_urls_have_their_password_masked(caplog: pytest.LogCaptureFixture) -> None:
    """Making an engine and refusing a schema log the URL with *** for the password."""
    caplog.set_level(logging.INFO, logger="db")
    engine = make_engine("postgresql://sudoku:s3cret-pw@127.0.0.1:1/nowhere")
    engine.dispose()
    assert "sudoku:***@127.0.0.1:1" in caplog.text
    assert "s3cret-pw" not in caplog.text


def test_schema_errors_mask_the_password(postgres_url: str) -> None:
    """The message telling the user to upgrade shows the URL without its password."""
    url = postgres_url.replace("postgres@", "postgres:hunter2@")
    engine = make_engine(url)
    with pytest.raises(SchemaNotReady) as raised:
        ensure_schema(engine)
    assert "hunter2" not in str(raised.value)
    assert "postgres:***@" in str(raised.value)
    engine.dispose()


def test_results_stored_before_profiles_say_how_they_were_rated(database_url: str) -> None:
    """Revision 0004 marks old results as rated on the whole ladder (sukaku), exact unless
    their path used the estimated forcing chain or the puzzle needed search."""
    migrate.upgrade(database_url, "0003")
    engine = make_engine(database_url)
    old = [  # (puzzle id, status, solved by elimination, hardest technique)
        (1, "solved", True, "x_wing"),
        (2, "solved", True, "forcing_chain"),
        (3, "solved", False, "naked_single"),
        (4, "multiple", False, None),
    ]
    with engine.begin() as connection:
        for pid, status, logic, hardest in old:
            connection.execute(
                text("INSERT INTO puzzles (id, givens, givens_count) VALUES (:id, :g, 1)"),
                {"id": pid, "g": str(pid).ljust(81, ".")},
            )
            connection.execute(
                text(
                    "INSERT INTO results (puzzle_id, status, solved_by_elimination, "
                    "hardest_technique, solver_version, solved_at) "
                    "VALUES (:id, :status, :logic, :hardest, 'old', CURRENT_TIMESTAMP)"
                ),
                {"id": pid, "status": status, "logic": logic, "hardest": hardest},
            )
    migrate.upgrade(database_url, "0005")
    with engine.connect() as connection:
        rows = connection.execute(
            text("SELECT puzzle_id, rating_exact, rating_profile FROM results ORDER BY 1")
        ).all()
    engine.dispose()
    assert [(pid, exact, profile) for pid, exact, profile in rows] == [
        (1, True, "sukaku"),
        (2, False, "sukaku"),
        (3, False, "sukaku"),
        (4, None, "sukaku"),
    ]


def test_puzzles_stored_before_identity_get_their_canonical_form_and_key(
    database_url: str,
) -> None:
    """Revision 0005 gives every stored puzzle its canonical form, and 0011 that form's key,
    as import would; downgrading removes the columns again."""
    migrate.upgrade(database_url, "0004")
    engine = make_engine(database_url)
    puzzles = {pid: str(pid % 9 + 1).rjust(pid % 70 + 1, ".").ljust(81, ".") for pid in (1, 5, 77)}
    with engine.begin() as connection:
        for pid, givens in puzzles.items():
            connection.execute(
                text("INSERT INTO puzzles (id, givens, givens_count) VALUES (:id, :g, 1)"),
                {"id": pid, "g": givens},
            )
    migrate.upgrade(database_url)
    with engine.connect() as connection:
        stored = {
            pid: (form, key)
            for pid, form, key in connection.execute(
                text("SELECT id, canonical, canonical_key FROM puzzles")
            )
        }
    assert stored == {
        pid: (canonical(givens), canonical_key(canonical(givens)))
        for pid, givens in puzzles.items()
    }
    migrate.downgrade(database_url, "0004")
    with engine.connect() as connection:
        columns = {c["name"] for c in inspect(connection).get_columns("puzzles")}
    engine.dispose()
    assert not {"canonical", "canonical_key"} & columns


def test_results_stored_before_tiers_keep_their_state_and_downgrade_gives_it_back(
    database_url: str,
) -> None:
    """Revision 0006 turns rating_exact into rating_state (exact, or estimated), leaves the tier
    unknown (NULL) for old results, and a downgrade turns the state back into rating_exact."""
    migrate.upgrade(database_url, "0005")
    engine = make_engine(database_url)
    with engine.begin() as connection:
        for pid, exact in ((1, True), (2, False), (3, None)):
            connection.execute(
                text("INSERT INTO puzzles (id, givens, givens_count) VALUES (:id, :g, 1)"),
                {"id": pid, "g": str(pid).ljust(81, ".")},
            )
            connection.execute(
                text(
                    "INSERT INTO results (puzzle_id, status, rating_exact, rating_profile, "
                    "solver_version, solved_at) VALUES (:id, 'solved', :exact, 'classic', "
                    "'1.2.0', CURRENT_TIMESTAMP)"
                ),
                {"id": pid, "exact": exact},
            )
    migrate.upgrade(database_url)
    with engine.connect() as connection:
        states = connection.execute(
            text("SELECT puzzle_id, rating_state, rating_tier FROM results ORDER BY 1")
        ).all()
        kinds = inspect(connection).get_columns("batches")
    assert [tuple(row) for row in states] == [
        (1, "exact", None),
        (2, "estimated", None),
        (3, None, None),
    ]
    assert "kind" in {column["name"] for column in kinds}
    migrate.downgrade(database_url, "0005")
    with engine.connect() as connection:
        exact = connection.execute(text("SELECT puzzle_id, rating_exact FROM results ORDER BY 1"))
        back = [tuple(row) for row in exact]
    engine.dispose()
    assert back == [(1, True), (2, False), (3, None)]


def test_the_tables_written_a_row_a_puzzle_lose_their_keys_and_keep_their_rows(
    database_url: str,
) -> None:
    """Revision 0008 drops the foreign keys of lines, results, paths and rating batches' puzzles
    (SQLite makes the tables again, with their indexes and the view): every row stays and the
    view shows it; a downgrade gives the keys back. At head, results keeps two indexes: the
    score's and the pending ratings'."""
    migrate.upgrade(database_url, "0007")
    engine = make_engine(database_url)
    with engine.begin() as connection:
        connection.execute(
            text("INSERT INTO puzzles (id, givens, givens_count) VALUES (7, :g, 1)"),
            {"g": "7".ljust(81, ".")},
        )
        connection.execute(
            text(
                "INSERT INTO collections (id, name, source_file, content_hash) "
                "VALUES (3, 'c', 'f', 'h')"
            )
        )
        connection.execute(text("INSERT INTO batches (id, collection_id, size) VALUES (5, 3, 1)"))
        connection.execute(
            text(
                "INSERT INTO collection_puzzles (collection_id, line, puzzle_id, batch_id, "
                "is_duplicate) VALUES (3, 1, 7, 5, false)"
            )
        )
        connection.execute(
            text(
                "INSERT INTO results (puzzle_id, status, rating_profile, solver_version, "
                "solved_at) VALUES (7, 'solved', 'classic', '1.4.0', CURRENT_TIMESTAMP)"
            )
        )

    def keys() -> dict[str, list[str]]:
        engine.dispose()  # a connection made before the migration may read the old keys
        with engine.connect() as connection:
            found = inspect(connection)
            return {
                table: sorted(key["referred_table"] for key in found.get_foreign_keys(table))
                for table in ("collection_puzzles", "results", "solving_paths", "batch_puzzles")
            }

    before = keys()
    migrate.upgrade(database_url)
    after = keys()
    with engine.connect() as connection:
        view = puzzle_results.c
        shown = connection.execute(
            select(view.collection, view.line, view.puzzle_id, view.batch_id, view.status)
        ).all()
        indexes = {index["name"] for index in inspect(connection).get_indexes("results")}
    migrate.downgrade(database_url, "0007")
    again = keys()
    engine.dispose()
    assert before == {
        "collection_puzzles": ["batches", "collections", "puzzles"],
        "results": ["puzzles"],
        "solving_paths": ["puzzles"],
        "batch_puzzles": ["batches", "puzzles"],
    }
    assert after == {
        "collection_puzzles": [],
        "results": [],
        "solving_paths": [],
        "batch_puzzles": ["batches"],
    }
    assert again == before
    assert [tuple(row) for row in shown] == [("c", 1, 7, 5, "solved")]
    assert indexes == {"ix_results_difficulty_score", PENDING_INDEX}


def test_an_isomorph_lookup_on_postgresql_uses_the_hash_index_of_canonical_keys(
    postgres_url: str,
) -> None:
    """Revision 0011 indexes canonical forms by their keys with a hash index on PostgreSQL, and
    the isomorph lookup (key, then form) reads it; a downgrade gives back 0010's hash index on
    the forms, and 0009's B-tree before it."""
    migrate.upgrade(postgres_url)
    engine = make_engine(postgres_url)
    form = canonical("1".ljust(81, "."))

    def lookup(index: str, where: str) -> tuple[str, str]:
        engine.dispose()
        with engine.connect() as connection:
            definition = connection.execute(
                text("SELECT indexdef FROM pg_indexes WHERE indexname = :name"), {"name": index}
            ).scalar_one()
            connection.execute(text("SET enable_seqscan = off"))  # an empty table's plan
            plan = connection.execute(
                text(f"EXPLAIN SELECT id FROM puzzles WHERE {where}"),  # noqa: S608 (ours)
                {"form": form, "key": canonical_key(form)},
            ).all()
        return definition, " ".join(row[0] for row in plan)

    definition, plan = lookup(CANONICAL_INDEX, "canonical_key = :key AND canonical = :form")
    migrate.downgrade(postgres_url, "0010")
    before, plan_before = lookup("ix_puzzles_canonical", "canonical = :form")
    migrate.downgrade(postgres_url, "0009")
    btree, _ = lookup("ix_puzzles_canonical", "canonical = :form")
    engine.dispose()
    assert "USING hash (canonical_key)" in definition
    assert CANONICAL_INDEX in plan  # an index scan, or a bitmap scan of it
    assert "USING hash (canonical)" in before
    assert "ix_puzzles_canonical" in plan_before
    assert "USING btree (canonical)" in btree


def test_postgresql_refuses_a_second_puzzle_with_the_same_givens_by_a_hash_exclusion(
    postgres_url: str,
) -> None:
    """Revision 0012 keeps the givens unique on PostgreSQL by an exclusion constraint on a hash
    index: a second row with the same givens is refused, and a lookup by givens reads that
    index; a downgrade gives back 0011's unique B-tree, the stored puzzle kept."""
    migrate.upgrade(postgres_url)
    engine = make_engine(postgres_url)
    givens = "1".ljust(81, ".")
    insert = text("INSERT INTO puzzles (givens, givens_count) VALUES (:givens, 1)")

    def constraint(name: str) -> str:
        query = "SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = :name"
        with engine.connect() as connection:
            return str(connection.execute(text(query), {"name": name}).scalar_one())

    with engine.begin() as connection:
        connection.execute(insert, {"givens": givens})
    with pytest.raises(IntegrityError, match=GIVENS_EXCLUSION), engine.begin() as connection:
        connection.execute(insert, {"givens": givens})
    with engine.connect() as connection:
        connection.execute(text("SET enable_seqscan = off"))  # a small table's plan
        plan = " ".join(
            row[0]
            for row in connection.execute(
                text("EXPLAIN SELECT id FROM puzzles WHERE givens = :givens"), {"givens": givens}
            )
        )
    exclusion = constraint(GIVENS_EXCLUSION)
    engine.dispose()
    migrate.downgrade(postgres_url, "0011")
    unique = constraint(GIVENS_UNIQUE)
    with engine.connect() as connection:
        kept = connection.scalars(text("SELECT givens FROM puzzles")).all()
    engine.dispose()
    assert exclusion == "EXCLUDE USING hash (givens WITH =)"
    assert GIVENS_EXCLUSION in plan  # an index scan, or a bitmap scan of it
    assert unique == "UNIQUE (givens)"
    assert kept == [givens]
