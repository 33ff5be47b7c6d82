"""Producers push puzzle strings: the submissions table and each collection's origin.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 20:57:18.712869
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0003'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('submissions',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False, comment='Submission id.'),
    sa.Column('task_id', sa.String(length=155), nullable=False, comment='Id of the Celery message (task) that carried them.'),
    sa.Column('collection_id', sa.Integer(), nullable=False, comment='The producer collection.'),
    sa.Column('first_line', sa.Integer(), nullable=False, comment="The collection's line of the message's first string: the string at 0-based position p of the message is on line first_line + p."),
    sa.Column('size', sa.Integer(), nullable=False, comment='How many strings the message carried.'),
    sa.Column('reference', sa.String(length=200), nullable=True, comment="The producer's own reference sent with the message."),
    sa.Column('stored_at', sa.DateTime(timezone=True), server_default=sa.text('(CURRENT_TIMESTAMP)'), nullable=False, comment='When the worker stored it.'),
    sa.ForeignKeyConstraint(['collection_id'], ['collections.id'], name=op.f('fk_submissions_collection_id_collections'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_submissions')),
    sa.UniqueConstraint('task_id', name=op.f('uq_submissions_task_id')),
    comment='Every message of puzzle strings a producer pushed (task sudoku.solve), stored once: its strings are lines first_line to first_line + size - 1 of its producer collection, in their order; each line holds the puzzle or, in rejected_lines, why it was refused.'
    )
    with op.batch_alter_table('submissions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_submissions_collection_id_first_line'), ['collection_id', 'first_line'], unique=False)
        batch_op.create_index(batch_op.f('ix_submissions_reference'), ['reference'], unique=False)

    # A plain ADD COLUMN on both databases: a batch (copy-and-move) of collections on SQLite
    # would have to drop and remake the puzzle_results view that reads it.
    op.add_column('collections', sa.Column('origin', sa.String(length=16), server_default='file', nullable=False, comment='file: lines of an imported file; producer: puzzles pushed by producers (task sudoku.solve), a line per puzzle in the order they were stored.'))
    if op.get_bind().dialect.name != 'sqlite':  # SQLite cannot add a constraint to a table
        op.create_check_constraint(op.f('ck_collections_origin'), 'collections', "origin IN ('file', 'producer')")


def downgrade() -> None:
    if op.get_bind().dialect.name == 'sqlite':
        # SQLite drops a column only from a table no view reads: the view is put back as it was.
        view = op.get_bind().exec_driver_sql("SELECT sql FROM sqlite_master WHERE name = 'puzzle_results'").scalar_one()
        op.execute('DROP VIEW puzzle_results')
        op.drop_column('collections', 'origin')
        op.execute(view)
    else:
        op.drop_column('collections', 'origin')  # its check constraint goes with it

    with op.batch_alter_table('submissions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_submissions_reference'))
        batch_op.drop_index(batch_op.f('ix_submissions_collection_id_first_line'))

    op.drop_table('submissions')
