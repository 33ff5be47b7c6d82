"""results keeps the indexes queries use: difficulty_score's, and one of the pending ratings
alone (the deep tier's work). The five on status, solved_by_elimination, recursion_depth,
difficulty and rating_state go: each held a few values over the whole table, a query reaches a
collection's results through its lines, and a bulk import paid an entry in each a row
(PostgreSQL: a third of the server's CPU a result).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-29 05:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0009'
down_revision: str | None = '0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

DROPPED = ('status', 'solved_by_elimination', 'recursion_depth', 'difficulty', 'rating_state')
PENDING = "rating_state = 'pending'"


def upgrade() -> None:
    for column in DROPPED:
        op.drop_index(op.f(f'ix_results_{column}'), table_name='results')
    where = sa.text(PENDING)
    op.create_index('ix_results_pending', 'results', ['puzzle_id'], postgresql_where=where, sqlite_where=where)


def downgrade() -> None:
    op.drop_index('ix_results_pending', table_name='results')
    for column in DROPPED:
        op.create_index(op.f(f'ix_results_{column}'), 'results', [column], unique=False)
