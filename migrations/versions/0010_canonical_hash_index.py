"""puzzles.canonical is indexed by a hash index on PostgreSQL: equality is all a canonical
form is asked (isomorphs), and a hash index answers it from a few bytes an entry where the
B-tree kept all 81 characters: the import's server CPU a puzzle went from 20.6 to 17.6 us
(docs: Benchmarks). SQLite has only B-trees: nothing changes there.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-29 07:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = '0010'
down_revision: str | None = '0009'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEX = 'ix_puzzles_canonical'


def upgrade() -> None:
    if op.get_bind().dialect.name == 'postgresql':
        op.drop_index(INDEX, table_name='puzzles')
        op.create_index(INDEX, 'puzzles', ['canonical'], postgresql_using='hash')


def downgrade() -> None:
    if op.get_bind().dialect.name == 'postgresql':
        op.drop_index(INDEX, table_name='puzzles')
        op.create_index(INDEX, 'puzzles', ['canonical'])
