"""Rating profiles: each result says which ladder rated it and whether its rating is exact.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23 22:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0004'
down_revision: str | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

EXACT = "True when difficulty_score, ep and ed are Sudoku Explainer's own (every step rated by its SE value); false when estimated; NULL unless status is solved."
PROFILE = 'The ladder the puzzle was rated on: classic or sukaku (SUDOKU_RATING_PROFILE).'
# Results stored before this revision were rated on the whole ladder (SukakuExplainer's), and
# exactly unless the path used the estimated forcing chain or the puzzle needed search.
BACKFILL = """
UPDATE results SET rating_exact = (solved_by_elimination
                                   AND coalesce(hardest_technique, '') <> 'forcing_chain')
WHERE status = 'solved'
"""
VIEW = """
CREATE VIEW puzzle_results AS
SELECT c.id AS collection_id, c.name AS collection, cp.line, cp.is_duplicate, cp.batch_id,
       b.status AS batch_status, b.error AS batch_error, p.id AS puzzle_id, p.givens AS puzzle, p.givens_count,
       r.status, r.solution, r.reason, r.solved_by_elimination, r.hardest_technique,
       r.technique_counts, r.recursion_depth, r.guesses, r.backtracks, r.nodes,
       r.difficulty, r.difficulty_score, r.ep, r.ed, r.solver_version, r.solve_ms, r.solved_at{extra}
FROM collection_puzzles AS cp
JOIN collections AS c ON c.id = cp.collection_id
JOIN puzzles AS p ON p.id = cp.puzzle_id
LEFT JOIN results AS r ON r.puzzle_id = cp.puzzle_id
LEFT JOIN batches AS b ON b.id = cp.batch_id
"""
VIEW_COMMENT = (
    "One row per accepted line of every collection: its puzzle and, once solved, its "
    "result (status and metrics are NULL until then; batch_status says whether its batch is "
    "pending, done or failed, and batch_error why it failed)."
)


def _view(extra: str) -> None:
    op.execute('DROP VIEW puzzle_results')
    op.execute(VIEW.format(extra=extra))
    if op.get_bind().dialect.supports_comments:
        op.execute(f"COMMENT ON VIEW puzzle_results IS '{VIEW_COMMENT}'")


def upgrade() -> None:
    # Plain ADD COLUMNs (a batch copy of results on SQLite would have to remake the view).
    op.add_column('results', sa.Column('rating_exact', sa.Boolean(), nullable=True, comment=EXACT))
    op.add_column('results', sa.Column('rating_profile', sa.String(length=16), server_default='sukaku', nullable=False, comment=PROFILE))
    op.execute(BACKFILL)
    if op.get_bind().dialect.name != 'sqlite':  # new rows always name their profile
        op.alter_column('results', 'rating_profile', server_default=None, existing_type=sa.String(length=16), existing_nullable=False, existing_comment=PROFILE)
    _view(', r.rating_exact, r.rating_profile')


def downgrade() -> None:
    _view('')
    op.drop_column('results', 'rating_profile')
    op.drop_column('results', 'rating_exact')
