"""Puzzle identity: each puzzle's canonical (minlex) form, minimality, solving paths.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24 19:30:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0005'
down_revision: str | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CANONICAL = "The puzzle's canonical (minlex) form, written like givens: equal for two puzzles exactly when one is the other under a symmetry and a relabelling of the digits (README, Puzzle identity). Set at import."
MINIMAL = 'True when every given is needed for a unique solution (removing any one leaves several); NULL unless status is solved.'
KEEPS_PATHS = "True when imported with --paths: its solved puzzles' solving paths are kept in solving_paths."
BACKFILL_PAGE = 10_000  # puzzles read, given their form and written back at a time

VIEW = """
CREATE VIEW puzzle_results AS
SELECT c.id AS collection_id, c.name AS collection, cp.line, cp.is_duplicate, cp.batch_id,
       b.status AS batch_status, b.error AS batch_error, p.id AS puzzle_id, p.givens AS puzzle, p.givens_count,
       r.status, r.solution, r.reason, r.solved_by_elimination, r.hardest_technique,
       r.technique_counts, r.recursion_depth, r.guesses, r.backtracks, r.nodes,
       r.difficulty, r.difficulty_score, r.ep, r.ed, r.solver_version, r.solve_ms, r.solved_at,
       r.rating_exact, r.rating_profile{extra}
FROM collection_puzzles AS cp
JOIN collections AS c ON c.id = cp.collection_id
JOIN puzzles AS p ON p.id = cp.puzzle_id
LEFT JOIN results AS r ON r.puzzle_id = cp.puzzle_id
LEFT JOIN batches AS b ON b.id = cp.batch_id
"""
IDENTITY = """,
       p.canonical, (SELECT min(q.id) FROM puzzles AS q
                     WHERE q.canonical = p.canonical AND q.id < p.id) AS isomorph_of,
       r.is_minimal"""
VIEW_COMMENT = (
    "One row per accepted line of every collection: its puzzle and, once solved, its "
    "result (status and metrics are NULL until then; batch_status says whether its batch is "
    "pending, done or failed, and batch_error why it failed). isomorph_of: the "
    "earliest-imported puzzle of the same canonical form when that is another puzzle (this one "
    "is an isomorph of it), else NULL."
)


def _view(extra: str) -> None:
    op.execute('DROP VIEW puzzle_results')
    op.execute(VIEW.format(extra=extra))
    if op.get_bind().dialect.supports_comments:
        op.execute(f"COMMENT ON VIEW puzzle_results IS '{VIEW_COMMENT}'")


def _backfill() -> None:
    """Every stored puzzle's form, a page at a time (the solver computes it, as at import)."""
    from solver import canonical_many

    bind = op.get_bind()
    puzzles = sa.table('puzzles', sa.column('id', sa.Integer), sa.column('givens', sa.String), sa.column('canonical', sa.String))
    last = 0
    while True:
        page = bind.execute(sa.select(puzzles.c.id, puzzles.c.givens).where(puzzles.c.id > last).order_by(puzzles.c.id).limit(BACKFILL_PAGE)).all()
        if not page:
            return
        forms = canonical_many([givens for _, givens in page])
        update = sa.update(puzzles).where(puzzles.c.id == sa.bindparam('pid')).values(canonical=sa.bindparam('form'))
        bind.execute(update, [{'pid': pid, 'form': form} for (pid, _), form in zip(page, forms, strict=True)])
        last = page[-1][0]


def upgrade() -> None:
    # Plain ADD COLUMNs (a batch copy on SQLite would have to remake the view).
    op.add_column('puzzles', sa.Column('canonical', sa.String(length=81), nullable=True, comment=CANONICAL))
    op.create_index(op.f('ix_puzzles_canonical'), 'puzzles', ['canonical'], unique=False)
    op.add_column('results', sa.Column('is_minimal', sa.Boolean(), nullable=True, comment=MINIMAL))
    op.add_column('collections', sa.Column('keeps_paths', sa.Boolean(), server_default=sa.false(), nullable=False, comment=KEEPS_PATHS))
    op.create_table('solving_paths',
    sa.Column('puzzle_id', sa.Integer() if op.get_bind().dialect.name == 'sqlite' else sa.BigInteger(), nullable=False, comment='The puzzle.'),
    sa.Column('steps', sa.JSON().with_variant(sa.dialects.postgresql.JSONB(), 'postgresql'), nullable=False, comment='JSON array, a step each: technique, value (its SE value), estimated (its rung is rated by estimate), placed and removed (lists of {cell, name, digit}, e.g. {"cell": 4, "name": "r1c5", "digit": 7}).'),
    sa.Column('stalled', sa.Boolean(), nullable=False, comment='True when the ladder stalled before the grid was full (the rest needs search).'),
    sa.Column('rating_profile', sa.String(length=16), nullable=False, comment='The ladder the path climbed (as results.rating_profile).'),
    sa.ForeignKeyConstraint(['puzzle_id'], ['puzzles.id'], name=op.f('fk_solving_paths_puzzle_id_puzzles')),
    sa.PrimaryKeyConstraint('puzzle_id', name=op.f('pk_solving_paths')),
    comment='The solving path of a solved puzzle of a collection imported with --paths: the ladder\'s steps, easiest first, as sudoku-batch explain --json prints them.'
    )
    _backfill()
    _view(IDENTITY)


def downgrade() -> None:
    _view('')
    op.drop_table('solving_paths')
    if op.get_bind().dialect.name == 'sqlite':
        # SQLite drops a column only from a table no view reads: the view is put back after.
        view = op.get_bind().exec_driver_sql("SELECT sql FROM sqlite_master WHERE name = 'puzzle_results'").scalar_one()
        op.execute('DROP VIEW puzzle_results')
        op.drop_column('collections', 'keeps_paths')
        op.drop_column('results', 'is_minimal')
        op.drop_index(op.f('ix_puzzles_canonical'), table_name='puzzles')
        op.drop_column('puzzles', 'canonical')
        op.execute(view)
    else:
        op.drop_column('collections', 'keeps_paths')
        op.drop_column('results', 'is_minimal')
        op.drop_index(op.f('ix_puzzles_canonical'), table_name='puzzles')
        op.drop_column('puzzles', 'canonical')
