"""The errors the storage layer raises on purpose, all under the project's root."""

from __future__ import annotations

from solver.errors import SudokuBatchError


class StorageError(SudokuBatchError):
    """Base of the storage layer's errors."""


class DatabaseUnavailable(StorageError):
    """The database cannot be reached (the message shows its URL with the password masked)."""


class MigrationError(StorageError):
    """Alembic refused a migration step, say to an unknown revision."""


class SchemaNotReady(StorageError):
    """The database schema is missing or older than the code: run `sudoku-batch db upgrade`."""


class CollectionConflict(StorageError):
    """A collection of that name exists and was imported from a different file."""


class UnknownCollection(StorageError, LookupError):
    """No collection has that name."""


class UnknownBatch(StorageError, LookupError):
    """No batch has that id."""


class DuplicateDelivery(StorageError):
    """A pushed message was being stored by two workers at once (the broker delivered it twice):
    the second one's transaction is rolled back, and the message is found stored on its retry."""
