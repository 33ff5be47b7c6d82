"""The tables written a row a puzzle lose their foreign keys: the code that writes them proves
them, and each cost a check a row (docs: Architecture, "References kept by the code").

collection_puzzles.collection_id, .puzzle_id and .batch_id, results.puzzle_id,
solving_paths.puzzle_id and batch_puzzles.puzzle_id keep their columns and indexes.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-29 04:30:00.000000
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0008'
down_revision: str | None = '0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# (table, column, referred table, ON DELETE), as of revision 0007
KEYS = (
    ('collection_puzzles', 'collection_id', 'collections', 'CASCADE'),
    ('collection_puzzles', 'puzzle_id', 'puzzles', None),
    ('collection_puzzles', 'batch_id', 'batches', 'SET NULL'),
    ('results', 'puzzle_id', 'puzzles', None),
    ('solving_paths', 'puzzle_id', 'puzzles', None),
    ('batch_puzzles', 'puzzle_id', 'puzzles', None),
)
VIEW = 'puzzle_results'


def _name(table: str, column: str, referred: str) -> str:
    return f'fk_{table}_{column}_{referred}'


def _clause(table: str, column: str, referred: str, ondelete: str | None) -> str:
    """The key as SQLite keeps it in its table's CREATE TABLE."""
    on = f' ON DELETE {ondelete}' if ondelete else ''
    return f'CONSTRAINT {_name(table, column, referred)} FOREIGN KEY({column}) REFERENCES {referred} (id){on}'


def _without(sql: str, key: tuple[str, str, str, str | None]) -> str:
    clause = re.escape(_clause(*key))
    out, found = re.subn(rf',\s*{clause}(?=\s*[,)])', '', sql)
    if found != 1:
        raise RuntimeError(f'{key[0]}: no foreign key {_name(*key[:3])} in {sql!r}')
    return out


def _with(sql: str, key: tuple[str, str, str, str | None]) -> str:
    end = sql.rstrip().rindex(')')
    return f'{sql[:end].rstrip()}, \n\t{_clause(*key)}\n{sql[end:]}'


def _sqlite(change) -> None:
    """SQLite changes a table's constraints only by making the table again (its documented
    procedure): the same CREATE TABLE, changed by `change(sql, key)` for each key, the rows
    copied, the indexes made again from their own SQL. It refuses while a view reads the table:
    the view is dropped first and made again from its own SQL."""
    bind = op.get_bind()

    def schema(kind: str, **where: str) -> list[str]:
        test = ' AND '.join(f'{column} = :{column}' for column in where)
        sql = f'SELECT sql FROM sqlite_master WHERE type = :kind AND {test} AND sql IS NOT NULL'  # noqa: S608
        return list(bind.execute(sa.text(sql), {'kind': kind, **where}).scalars())

    (view,) = schema('view', name=VIEW)
    op.execute(f'DROP VIEW {VIEW}')
    for table in dict.fromkeys(key[0] for key in KEYS):
        (sql,) = schema('table', name=table)
        indexes = schema('index', tbl_name=table)
        for key in KEYS:
            if key[0] == table:
                sql = change(sql, key)
        made = re.sub(rf'^CREATE TABLE "?{table}"?', f'CREATE TABLE _new_{table}', sql)
        op.execute(made)
        op.execute(f'INSERT INTO _new_{table} SELECT * FROM {table}')  # noqa: S608
        op.execute(f'DROP TABLE {table}')
        op.execute(f'ALTER TABLE _new_{table} RENAME TO {table}')
        for index in indexes:
            op.execute(index)
    op.execute(view)


def upgrade() -> None:
    if op.get_bind().dialect.name == 'sqlite':
        _sqlite(_without)
        return
    for table, column, referred, _ in KEYS:
        op.drop_constraint(op.f(_name(table, column, referred)), table, type_='foreignkey')


def downgrade() -> None:
    if op.get_bind().dialect.name == 'sqlite':
        _sqlite(_with)
        return
    for table, column, referred, ondelete in KEYS:
        op.create_foreign_key(op.f(_name(table, column, referred)), table, referred, [column], ['id'], ondelete=ondelete)
