"""Comments on the eleven columns 0001 left without one; source_file is absolute, and --replace.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23 18:40:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0002'
down_revision: str | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

Id = sa.BigInteger().with_variant(sa.Integer(), 'sqlite')
Timestamp = sa.DateTime(timezone=True)

# (table, column, type, nullable, comment before, comment after): a snapshot in time.
COMMENTS = [
    ('collections', 'id', sa.Integer(), False, None, 'Collection id.'),
    ('collections', 'source_file', sa.Text(), False, 'Path of the file imported.', 'Path of the file imported, made absolute (stdin for standard input).'),
    ('collections', 'content_hash', sa.String(length=64), False, "sha256 (hex) of the file's bytes: re-importing another file under the same name is refused.", "sha256 (hex) of the file's bytes: re-importing another file under the same name is refused (unless --replace)."),
    ('collections', 'imported_at', Timestamp, False, None, 'When its file was imported, or last replaced (--replace).'),
    ('puzzles', 'id', Id, False, None, 'Puzzle id.'),
    ('batches', 'id', Id, False, None, 'Batch id.'),
    ('batches', 'collection_id', sa.Integer(), False, None, 'The collection the batch belongs to.'),
    ('batches', 'created_at', Timestamp, False, None, 'When the batch was created (at import).'),
    ('batches', 'finished_at', Timestamp, True, None, 'When it became done or failed.'),
    ('collection_puzzles', 'collection_id', sa.Integer(), False, None, 'The collection.'),
    ('collection_puzzles', 'puzzle_id', Id, False, None, 'The puzzle on that line.'),
    ('rejected_lines', 'collection_id', sa.Integer(), False, None, 'The collection.'),
    ('results', 'puzzle_id', Id, False, None, 'The puzzle.'),
]


def _comment(before: int, after: int) -> None:
    """Set each column's comment from field `before` to field `after` of its row.

    SQLite keeps no comments (and would rebuild each table to alter a column): nothing to do.
    """
    if not op.get_bind().dialect.supports_comments:
        return
    for table, column, type_, nullable, *comments in COMMENTS:
        op.alter_column(
            table,
            column,
            existing_type=type_,
            existing_nullable=nullable,
            existing_comment=comments[before],
            comment=comments[after],
        )


def upgrade() -> None:
    _comment(0, 1)


def downgrade() -> None:
    _comment(1, 0)
