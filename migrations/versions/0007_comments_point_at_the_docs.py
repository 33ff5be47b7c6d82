"""Comments point at the documentation site, not the README; the view's comment is the one
db.views describes it with.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27 17:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = '0007'
down_revision: str | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CANONICAL = (
    "The puzzle's canonical (minlex) form, written like givens: equal for two puzzles exactly "
    "when one is the other under a symmetry and a relabelling of the digits (docs, Puzzle "
    "identity). Set at import."
)
CANONICAL_BEFORE = (
    "The puzzle's canonical (minlex) form, written like givens: equal for two puzzles exactly "
    "when one is the other under a symmetry and a relabelling of the digits (README, Puzzle "
    "identity). Set at import."
)
VIEW = (
    "One row per accepted line of every collection: its puzzle and, once solved, its result "
    "(the result's columns are NULL until then)."
)
VIEW_BEFORE = (
    "One row per accepted line of every collection: its puzzle and, once solved, its "
    "result (status and metrics are NULL until then; batch_status says whether its batch is "
    "pending, done or failed, and batch_error why it failed). isomorph_of: the "
    "earliest-imported puzzle of the same canonical form when that is another puzzle (this one "
    "is an isomorph of it), else NULL."
)


def _comment(on: str, text: str) -> None:
    if op.get_bind().dialect.supports_comments:  # SQLite keeps no comments
        op.execute(f"COMMENT ON {on} IS '{text.replace(chr(39), chr(39) * 2)}'")


def upgrade() -> None:
    _comment('COLUMN puzzles.canonical', CANONICAL)
    _comment('VIEW puzzle_results', VIEW)


def downgrade() -> None:
    _comment('COLUMN puzzles.canonical', CANONICAL_BEFORE)
    _comment('VIEW puzzle_results', VIEW_BEFORE)
