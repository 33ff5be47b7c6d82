"""The initial schema: puzzles, collections, batches, results and the puzzle_results view.

Revision ID: 0001
Revises:
Create Date: 2026-11-22 05:06:00.059341
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = '0001'
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


# The view is written by hand (autogenerate ignores it); db/views.py mirrors its columns.
PUZZLE_RESULTS = """
CREATE VIEW puzzle_results AS
SELECT c.id AS collection_id, c.name AS collection, cp.line, cp.is_duplicate, cp.batch_id,
       b.status AS batch_status, b.error AS batch_error, p.id AS puzzle_id, p.givens AS puzzle, p.givens_count,
       r.status, r.solution, r.reason, r.solved_by_elimination, r.hardest_technique,
       r.technique_counts, r.recursion_depth, r.guesses, r.backtracks, r.nodes,
       r.difficulty, r.difficulty_score, r.ep, r.ed, r.solver_version, r.solve_ms, r.solved_at
FROM collection_puzzles AS cp
JOIN collections AS c ON c.id = cp.collection_id
JOIN puzzles AS p ON p.id = cp.puzzle_id
LEFT JOIN results AS r ON r.puzzle_id = cp.puzzle_id
LEFT JOIN batches AS b ON b.id = cp.batch_id
"""
PUZZLE_RESULTS_COMMENT = (
    "One row per accepted line of every collection: its puzzle and, once solved, its "
    "result (status and metrics are NULL until then; batch_status says whether its batch is "
    "pending, done or failed, and batch_error why it failed)."
)


def upgrade() -> None:
    op.create_table('collections',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False, comment='Name given at import.'),
    sa.Column('source_file', sa.Text(), nullable=False, comment='Path of the file imported.'),
    sa.Column('content_hash', sa.String(length=64), nullable=False, comment="sha256 (hex) of the file's bytes: re-importing another file under the same name is refused."),
    sa.Column('imported_at', sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    sa.Column('lines_read', sa.Integer(), server_default='0', nullable=False, comment='Records read so far (accepted + duplicates + rejected).'),
    sa.Column('accepted', sa.Integer(), server_default='0', nullable=False, comment='Lines holding a puzzle not seen earlier in this file.'),
    sa.Column('duplicates', sa.Integer(), server_default='0', nullable=False, comment='Lines repeating a puzzle of an earlier line of the file.'),
    sa.Column('rejected', sa.Integer(), server_default='0', nullable=False, comment='Lines that are not a valid puzzle (see rejected_lines).'),
    sa.Column('total', sa.Integer(), server_default='0', nullable=False, comment='Distinct puzzles to solve (= accepted).'),
    sa.Column('done', sa.Integer(), server_default='0', nullable=False, comment='Distinct puzzles of this collection that have a result.'),
    sa.Column('failed', sa.Integer(), server_default='0', nullable=False, comment='Distinct puzzles of this collection in failed batches.'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_collections')),
    sa.UniqueConstraint('name', name=op.f('uq_collections_name')),
    comment='One imported puzzle file, with its import counters and solving progress. lines_read = accepted + duplicates + rejected.'
    )
    op.create_table('puzzles',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('givens', sa.String(length=81), nullable=False, comment="The grid row by row, 81 characters: digits 1-9 for givens, '.' for empty cells."),
    sa.Column('givens_count', sa.SmallInteger(), nullable=False, comment='Number of given digits.'),
    sa.Column('first_seen', sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False, comment='When the puzzle was first imported.'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_puzzles')),
    sa.UniqueConstraint('givens', name=op.f('uq_puzzles_givens')),
    comment='Every distinct puzzle ever imported, whatever its collection.'
    )
    op.create_table('batches',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('collection_id', sa.Integer(), nullable=False),
    sa.Column('size', sa.Integer(), nullable=False, comment='Number of puzzles in the batch.'),
    sa.Column('status', sa.String(length=16), server_default='pending', nullable=False, comment='pending, then done (results written) or failed (see error).'),
    sa.Column('attempts', sa.Integer(), server_default='0', nullable=False, comment='Times a worker finished (done) or gave up on it (failed).'),
    sa.Column('error', sa.Text(), nullable=True, comment='Why the batch failed.'),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    sa.Column('queued_at', sa.DateTime(timezone=True), nullable=True, comment='When the producer last sent it to the queue (NULL: never sent, e.g. the import was stopped first).'),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("status IN ('pending', 'done', 'failed')", name=op.f('ck_batches_status')),
    sa.ForeignKeyConstraint(['collection_id'], ['collections.id'], name=op.f('fk_batches_collection_id_collections'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_batches')),
    comment='The unit of work: a group of distinct puzzles of one collection sent to a worker as one message.'
    )
    op.create_index(op.f('ix_batches_collection_id_status'), 'batches', ['collection_id', 'status'], unique=False)
    op.create_table('rejected_lines',
    sa.Column('collection_id', sa.Integer(), nullable=False),
    sa.Column('line', sa.Integer(), nullable=False, comment='1-based line of the record in the file.'),
    sa.Column('column', sa.Integer(), nullable=True, comment='1-based column of the first offending character, when known.'),
    sa.Column('raw_text', sa.Text(), nullable=False, comment='The line as read, cut to 200 characters, NUL bytes written as \\x00.'),
    sa.Column('reason', sa.Text(), nullable=False, comment='What is wrong with the line.'),
    sa.ForeignKeyConstraint(['collection_id'], ['collections.id'], name=op.f('fk_rejected_lines_collection_id_collections'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('collection_id', 'line', name=op.f('pk_rejected_lines')),
    comment='Lines of a collection that are not a valid puzzle, and why.'
    )
    op.create_table('results',
    sa.Column('puzzle_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False, comment='solved, multiple, unsolvable, invalid or gave_up.'),
    sa.Column('solution', sa.String(length=81), nullable=True, comment='81 digits, checked valid; NULL unless status is solved.'),
    sa.Column('reason', sa.Text(), nullable=True, comment='Why the puzzle is invalid or unsolvable.'),
    sa.Column('solved_by_elimination', sa.Boolean(), nullable=True, comment='True when logical techniques alone solved it, no guessing.'),
    sa.Column('hardest_technique', sa.String(length=32), nullable=True, comment='Hardest technique of the ladder that fired (e.g. x_wing).'),
    sa.Column('technique_counts', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=True, comment='JSON object: technique name -> times it fired.'),
    sa.Column('recursion_depth', sa.Integer(), nullable=True, comment='Deepest level of search (guess) needed; 0 = no guessing.'),
    sa.Column('guesses', sa.Integer(), nullable=True, comment='Guesses made by the search.'),
    sa.Column('backtracks', sa.Integer(), nullable=True, comment='Guesses the search had to undo.'),
    sa.Column('nodes', sa.Integer(), nullable=True, comment='Search nodes visited.'),
    sa.Column('difficulty', sa.String(length=16), nullable=True, comment='Label: easy, medium, hard, diabolical or extreme.'),
    sa.Column('difficulty_score', sa.Float(), nullable=True, comment='Numeric difficulty the label is cut from; higher is harder.'),
    sa.Column('ep', sa.Float(), nullable=True, comment='Sudoku Explainer EP: the hardest step up to the first placement of a digit.'),
    sa.Column('ed', sa.Float(), nullable=True, comment='Sudoku Explainer ED: the value of the first step.'),
    sa.Column('solver_version', sa.String(length=32), nullable=False, comment='solver.SOLVER_VERSION.'),
    sa.Column('solve_ms', sa.Float(), nullable=True, comment='Solver wall time, ms.'),
    sa.Column('worker_host', sa.String(length=255), nullable=True, comment='Host that solved it.'),
    sa.Column('solved_at', sa.DateTime(timezone=True), nullable=False, comment='When the result was made.'),
    sa.CheckConstraint("status IN ('solved', 'multiple', 'unsolvable', 'invalid', 'gave_up')", name=op.f('ck_results_status')),
    sa.ForeignKeyConstraint(['puzzle_id'], ['puzzles.id'], name=op.f('fk_results_puzzle_id_puzzles')),
    sa.PrimaryKeyConstraint('puzzle_id', name=op.f('pk_results')),
    comment="The solver's verdict and difficulty metrics, one row per distinct puzzle."
    )
    op.create_index(op.f('ix_results_difficulty'), 'results', ['difficulty'], unique=False)
    op.create_index(op.f('ix_results_difficulty_score'), 'results', ['difficulty_score'], unique=False)
    op.create_index(op.f('ix_results_recursion_depth'), 'results', ['recursion_depth'], unique=False)
    op.create_index(op.f('ix_results_solved_by_elimination'), 'results', ['solved_by_elimination'], unique=False)
    op.create_index(op.f('ix_results_status'), 'results', ['status'], unique=False)
    op.create_table('collection_puzzles',
    sa.Column('collection_id', sa.Integer(), nullable=False),
    sa.Column('line', sa.Integer(), nullable=False, comment='1-based line of the record in the file.'),
    sa.Column('puzzle_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('batch_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True, comment='Batch that solves it; NULL for a duplicate line or a puzzle solved before.'),
    sa.Column('is_duplicate', sa.Boolean(), nullable=False, comment='True when an earlier line of the same collection holds the same puzzle.'),
    sa.ForeignKeyConstraint(['batch_id'], ['batches.id'], name=op.f('fk_collection_puzzles_batch_id_batches'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['collection_id'], ['collections.id'], name=op.f('fk_collection_puzzles_collection_id_collections'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['puzzle_id'], ['puzzles.id'], name=op.f('fk_collection_puzzles_puzzle_id_puzzles')),
    sa.PrimaryKeyConstraint('collection_id', 'line', name=op.f('pk_collection_puzzles')),
    comment='Which puzzle each accepted line of a collection holds.'
    )
    op.create_index(op.f('ix_collection_puzzles_batch_id'), 'collection_puzzles', ['batch_id'], unique=False)
    op.create_index(op.f('ix_collection_puzzles_collection_id_puzzle_id'), 'collection_puzzles', ['collection_id', 'puzzle_id'], unique=False)
    op.create_index(op.f('ix_collection_puzzles_puzzle_id'), 'collection_puzzles', ['puzzle_id'], unique=False)
    op.execute(PUZZLE_RESULTS)
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"COMMENT ON VIEW puzzle_results IS '{PUZZLE_RESULTS_COMMENT}'")


def downgrade() -> None:
    op.execute("DROP VIEW puzzle_results")
    op.drop_index(op.f('ix_collection_puzzles_puzzle_id'), table_name='collection_puzzles')
    op.drop_index(op.f('ix_collection_puzzles_collection_id_puzzle_id'), table_name='collection_puzzles')
    op.drop_index(op.f('ix_collection_puzzles_batch_id'), table_name='collection_puzzles')
    op.drop_table('collection_puzzles')
    op.drop_index(op.f('ix_results_status'), table_name='results')
    op.drop_index(op.f('ix_results_solved_by_elimination'), table_name='results')
    op.drop_index(op.f('ix_results_recursion_depth'), table_name='results')
    op.drop_index(op.f('ix_results_difficulty_score'), table_name='results')
    op.drop_index(op.f('ix_results_difficulty'), table_name='results')
    op.drop_table('results')
    op.drop_table('rejected_lines')
    op.drop_index(op.f('ix_batches_collection_id_status'), table_name='batches')
    op.drop_table('batches')
    op.drop_table('puzzles')
    op.drop_table('collections')
