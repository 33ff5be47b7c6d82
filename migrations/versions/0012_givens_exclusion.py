"""No two puzzles have the same givens: on PostgreSQL an exclusion constraint on a hash index
holds that now, in place of the unique B-tree. An entry is a 4-byte hash code where the B-tree
kept the 81 characters and compared them by collation: less of the server's CPU a new puzzle
(docs: Benchmarks). Lookups by givens read the hash index. SQLite keeps its unique B-tree.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-30 13:30:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = '0012'
down_revision: str | None = '0011'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UNIQUE = 'uq_puzzles_givens'
EXCLUSION = 'ex_puzzles_givens'


def upgrade() -> None:
    if op.get_bind().dialect.name == 'postgresql':
        op.drop_constraint(UNIQUE, 'puzzles', type_='unique')
        op.create_exclude_constraint(EXCLUSION, 'puzzles', ('givens', '='), using='hash')


def downgrade() -> None:
    if op.get_bind().dialect.name == 'postgresql':
        op.drop_constraint(EXCLUSION, 'puzzles')
        op.create_unique_constraint(UNIQUE, 'puzzles', ['givens'])
