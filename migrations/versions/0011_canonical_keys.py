"""puzzles.canonical_key: a 64-bit digest of the canonical form (solver.canonical_key), indexed
in place of the form. An index entry of 8 bytes where the form took 81 costs the import less
(SQLite's B-tree above all; PostgreSQL keeps a hash index, on the key now). The form stays, for
reading and for joins; isomorphs are found by key, then their forms compared (the view's
isomorph_of, which shows the key too). Stored puzzles get their keys here.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-30 02:30:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0011'
down_revision: str | None = '0010'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

KEY = (
    "A 64-bit digest of canonical (solver.canonical_key), indexed: isomorphs have equal keys, so "
    "join on it and on canonical to find them fast (docs, Puzzle identity). Set at import."
)
INDEX = 'ix_puzzles_canonical_key'
INDEX_BEFORE = 'ix_puzzles_canonical'
VIEW_COMMENT = (
    "One row per accepted line of every collection: its puzzle and, once solved, its result "
    "(the result's columns are NULL until then)."
)
BACKFILL_PAGE = 10_000  # puzzles read, given their key and written back at a time

VIEW = """
CREATE VIEW puzzle_results AS
SELECT c.id AS collection_id,
       c.name AS collection,
       cp.line,
       cp.is_duplicate,
       cp.batch_id,
       b.status AS batch_status,
       b.error AS batch_error,
       p.id AS puzzle_id,
       p.givens AS puzzle,
       p.givens_count,
       r.status,
       r.solution,
       r.reason,
       r.solved_by_elimination,
       r.hardest_technique,
       r.technique_counts,
       r.recursion_depth,
       r.guesses,
       r.backtracks,
       r.nodes,
       r.difficulty,
       r.difficulty_score,
       r.ep,
       r.ed,
       r.solver_version,
       r.solve_ms,
       r.solved_at,
       r.rating_state,
       r.rating_tier,
       r.rating_profile,
       p.canonical,
       p.canonical_key,
       (SELECT min(q.id) FROM puzzles AS q WHERE q.canonical_key = p.canonical_key AND q.canonical = p.canonical AND q.id < p.id) AS isomorph_of,
       r.is_minimal
FROM collection_puzzles AS cp
JOIN collections AS c ON c.id = cp.collection_id
JOIN puzzles AS p ON p.id = cp.puzzle_id
LEFT JOIN results AS r ON r.puzzle_id = cp.puzzle_id
LEFT JOIN batches AS b ON b.id = cp.batch_id
"""
# The view before: the same but the key's column, and isomorph_of by the form alone.
KEY_COLUMN = '       p.canonical_key,\n'
KEY_MATCH = 'q.canonical_key = p.canonical_key AND '
VIEW_BEFORE = VIEW.replace(KEY_COLUMN, '', 1).replace(KEY_MATCH, '', 1)


def _view(sql: str) -> None:
    op.execute('DROP VIEW puzzle_results')
    op.execute(sql)
    if op.get_bind().dialect.supports_comments:  # SQLite keeps no comments
        op.execute(f"COMMENT ON VIEW puzzle_results IS '{VIEW_COMMENT.replace(chr(39), chr(39) * 2)}'")


def _backfill() -> None:
    """Every stored puzzle's key, from its form, a page at a time."""
    from solver import canonical_key

    bind = op.get_bind()
    puzzles = sa.table('puzzles', sa.column('id', sa.BigInteger), sa.column('canonical', sa.String), sa.column('canonical_key', sa.BigInteger))
    update = sa.update(puzzles).where(puzzles.c.id == sa.bindparam('pid')).values(canonical_key=sa.bindparam('key'))
    last = 0
    while True:
        page = bind.execute(
            sa.select(puzzles.c.id, puzzles.c.canonical).where(puzzles.c.id > last, puzzles.c.canonical.is_not(None)).order_by(puzzles.c.id).limit(BACKFILL_PAGE)
        ).all()
        if not page:
            return
        bind.execute(update, [{'pid': pid, 'key': canonical_key(form)} for pid, form in page])
        last = page[-1][0]


def upgrade() -> None:
    op.add_column('puzzles', sa.Column('canonical_key', sa.BigInteger(), nullable=True, comment=KEY))
    _backfill()
    op.drop_index(INDEX_BEFORE, table_name='puzzles')
    op.create_index(INDEX, 'puzzles', ['canonical_key'], postgresql_using='hash')
    _view(VIEW)


def downgrade() -> None:
    _view(VIEW_BEFORE)
    op.drop_index(INDEX, table_name='puzzles')
    if op.get_bind().dialect.name == 'postgresql':
        op.create_index(INDEX_BEFORE, 'puzzles', ['canonical'], postgresql_using='hash')
        op.drop_column('puzzles', 'canonical_key')
        return
    # SQLite drops a column only from a table no view reads: the view is put back after.
    op.create_index(INDEX_BEFORE, 'puzzles', ['canonical'])
    op.execute('DROP VIEW puzzle_results')
    op.drop_column('puzzles', 'canonical_key')
    op.execute(VIEW_BEFORE)
