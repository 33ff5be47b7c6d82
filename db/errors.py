"""The errors the storage layer raises on purpose."""

from __future__ import annotations


class StorageError(Exception):
    """Base of the storage layer's errors."""


class SchemaNotReady(StorageError):
    """The database schema is missing or older than the code: run `sudoku-batch db upgrade`."""


class CollectionConflict(StorageError):
    """A collection of that name exists and was imported from a different file."""


class UnknownBatch(StorageError, LookupError):
    """No batch has that id."""
