"""Exact ratings by default: each result's rating state and budget tier, batch kinds, the
puzzles of rerate and deep batches.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27 16:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0006'
down_revision: str | None = '0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

RATING_STATE = "exact: difficulty_score, ep and ed are Sudoku Explainer's own (every step rated by its SE value); pending: an interim estimate, the puzzle needing more work than the bulk path's budget, to be rated again within the deep budget; estimated: an estimate that stays (SE's chains off, beyond the deep budget, or beyond the rungs of the profile). NULL unless status is solved."
RATING_TIER = "The work budget the result was made within: fast (SE's chains off, SUDOKU_RATING=fast), bulk (SUDOKU_WORK_BUDGET) or deep (SUDOKU_DEEP_WORK_BUDGET). NULL for results of releases before solver 1.3.0."
RATING_EXACT = "True when difficulty_score, ep and ed are Sudoku Explainer's own (every step rated by its SE value); false when estimated; NULL unless status is solved."
KIND = "import: lines of its collection (collection_puzzles.batch_id); rerate: puzzles rated again with today's settings (sudoku-batch rerate); deep: a puzzle the bulk path left pending, rated within the deep budget (the puzzles of both in batch_puzzles)."
CHECKS = {  # (table, column): its CHECK, as of this revision
    ('results', 'rating_state'): "rating_state IN ('exact', 'pending', 'estimated')",
    ('results', 'rating_tier'): "rating_tier IN ('fast', 'bulk', 'deep')",
    ('batches', 'kind'): "kind IN ('import', 'rerate', 'deep')",
}

VIEW = """
CREATE VIEW puzzle_results AS
SELECT c.id AS collection_id, c.name AS collection, cp.line, cp.is_duplicate, cp.batch_id,
       b.status AS batch_status, b.error AS batch_error, p.id AS puzzle_id, p.givens AS puzzle, p.givens_count,
       r.status, r.solution, r.reason, r.solved_by_elimination, r.hardest_technique,
       r.technique_counts, r.recursion_depth, r.guesses, r.backtracks, r.nodes,
       r.difficulty, r.difficulty_score, r.ep, r.ed, r.solver_version, r.solve_ms, r.solved_at,
       {rating}, r.rating_profile,
       p.canonical, (SELECT min(q.id) FROM puzzles AS q
                     WHERE q.canonical = p.canonical AND q.id < p.id) AS isomorph_of,
       r.is_minimal
FROM collection_puzzles AS cp
JOIN collections AS c ON c.id = cp.collection_id
JOIN puzzles AS p ON p.id = cp.puzzle_id
LEFT JOIN results AS r ON r.puzzle_id = cp.puzzle_id
LEFT JOIN batches AS b ON b.id = cp.batch_id
"""
VIEW_COMMENT = (
    "One row per accepted line of every collection: its puzzle and, once solved, its "
    "result (status and metrics are NULL until then; batch_status says whether its batch is "
    "pending, done or failed, and batch_error why it failed). isomorph_of: the "
    "earliest-imported puzzle of the same canonical form when that is another puzzle (this one "
    "is an isomorph of it), else NULL."
)


def _view(rating: str) -> None:
    op.execute(VIEW.format(rating=rating))
    if op.get_bind().dialect.supports_comments:
        op.execute(f"COMMENT ON VIEW puzzle_results IS '{VIEW_COMMENT}'")


def _add_checked(table: str, column: str, sql_type: str, comment: str, extra: str = '') -> None:
    """A column with its CHECK. SQLite adds a constraint only with the column itself (ALTER
    TABLE ... ADD COLUMN ... CHECK), not to a table that exists."""
    check, name = CHECKS[(table, column)], f'ck_{table}_{column}'
    if op.get_bind().dialect.name == 'sqlite':
        op.execute(f'ALTER TABLE {table} ADD COLUMN {column} {sql_type}{extra} CONSTRAINT {name} CHECK ({check})')
        return
    op.execute(f'ALTER TABLE {table} ADD COLUMN {column} {sql_type}{extra}')
    op.create_check_constraint(op.f(name), table, check)
    op.execute(f"COMMENT ON COLUMN {table}.{column} IS '{comment.replace(chr(39), chr(39) * 2)}'")


def upgrade() -> None:
    op.execute('DROP VIEW puzzle_results')  # SQLite drops a column only from a table no view reads
    _add_checked('results', 'rating_state', 'VARCHAR(16)', RATING_STATE)
    _add_checked('results', 'rating_tier', 'VARCHAR(16)', RATING_TIER)
    op.execute("UPDATE results SET rating_state = CASE WHEN rating_exact THEN 'exact' ELSE 'estimated' END WHERE rating_exact IS NOT NULL")
    op.create_index(op.f('ix_results_rating_state'), 'results', ['rating_state'], unique=False)
    op.drop_column('results', 'rating_exact')
    _add_checked('batches', 'kind', 'VARCHAR(16)', KIND, " DEFAULT 'import' NOT NULL")
    op.create_table('batch_puzzles',
    sa.Column('batch_id', sa.Integer() if op.get_bind().dialect.name == 'sqlite' else sa.BigInteger(), nullable=False, comment='The batch.'),
    sa.Column('puzzle_id', sa.Integer() if op.get_bind().dialect.name == 'sqlite' else sa.BigInteger(), nullable=False, comment='A puzzle it rates.'),
    sa.ForeignKeyConstraint(['batch_id'], ['batches.id'], name=op.f('fk_batch_puzzles_batch_id_batches'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['puzzle_id'], ['puzzles.id'], name=op.f('fk_batch_puzzles_puzzle_id_puzzles')),
    sa.PrimaryKeyConstraint('batch_id', 'puzzle_id', name=op.f('pk_batch_puzzles')),
    comment="The puzzles of a rerate or deep batch (an import batch's puzzles are its lines, in collection_puzzles)."
    )
    op.create_index(op.f('ix_batch_puzzles_puzzle_id'), 'batch_puzzles', ['puzzle_id'], unique=False)
    _view('r.rating_state, r.rating_tier')


def downgrade() -> None:
    op.execute('DROP VIEW puzzle_results')
    op.drop_index(op.f('ix_batch_puzzles_puzzle_id'), table_name='batch_puzzles')
    op.drop_table('batch_puzzles')
    op.execute("DELETE FROM batches WHERE kind <> 'import'")
    sqlite = op.get_bind().dialect.name == 'sqlite'
    if not sqlite:
        op.drop_constraint(op.f('ck_batches_kind'), 'batches', type_='check')
        op.drop_constraint(op.f('ck_results_rating_state'), 'results', type_='check')
        op.drop_constraint(op.f('ck_results_rating_tier'), 'results', type_='check')
    op.drop_column('batches', 'kind')
    op.add_column('results', sa.Column('rating_exact', sa.Boolean(), nullable=True, comment=RATING_EXACT))
    op.execute("UPDATE results SET rating_exact = (rating_state = 'exact') WHERE rating_state IS NOT NULL")
    op.drop_index(op.f('ix_results_rating_state'), table_name='results')
    op.drop_column('results', 'rating_tier')
    op.drop_column('results', 'rating_state')
    _view('r.rating_exact')
