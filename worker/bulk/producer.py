"""Import: stream a puzzle file into the database in chunks and hand out its batches.

The same code feeds both paths: the distributed `import` sends each batch to Celery as soon
as the transaction that created its rows has committed; the embedded `run` imports first and
then solves the collection's unfinished batches in a local pool. A re-run first re-sends
what an interrupted run left unfinished, so nothing is lost and, results being idempotent,
nothing is doubled.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from sqlalchemy.orm import Session, sessionmaker

from db.engine import sessions_at, shared_url
from db.imports import (
    BatchWork,
    add_records,
    get_or_create_collection,
    mark_queued,
    refresh_statistics,
    unfinished_batches,
)
from db.ratings import queue_pending
from db.removal import drop_if_empty
from db.tiers import BATCH_KINDS, DEEP_BATCH
from worker.files.inputs import Readable
from worker.files.reader import Chunk, read_chunks, reads_in_child

# Batches a transaction stores before they are handed out: the first chunk FIRST_CHUNK_BATCHES,
# each next twice the last, up to CHUNK_BATCHES. Large transactions cost SQLite less (a random
# index page written once for several puzzles); the small first ones start the pool soon.
CHUNK_BATCHES = 40
FIRST_CHUNK_BATCHES = 5


@dataclass(frozen=True)
class Import:
    """One input being imported as one collection."""

    collection_id: int
    collection: str
    path: Path  # the bytes to read: the file itself, or the copy of a pipe (worker.files.inputs)
    shown: str  # how messages name the input
    keep_paths: bool = False  # the collection keeps solving paths (--paths)


def open_import(
    sessions: sessionmaker[Session],
    source: Readable,
    collection: str,
    *,
    replace: bool = False,
    keep_paths: bool = False,
) -> Import:
    """Find or create the collection `collection` for this input (with `replace`, the input
    takes the place of the other file the collection holds; with `keep_paths`, the collection
    keeps its solving paths)."""
    with sessions() as session:
        found = get_or_create_collection(
            session,
            collection,
            source.input.source_file,
            source.content_hash,
            replace=replace,
            keep_paths=keep_paths,
        )
        session.commit()
        paths = found.keeps_paths
        return Import(found.id, collection, source.path, source.input.shown, paths)


def drop_if_nothing_stored(sessions: sessionmaker[Session], job: Import) -> bool:
    """Delete the import's collection if it holds no line (its name stays free); True if so."""
    with sessions() as session:
        dropped = drop_if_empty(session, job.collection_id)
        session.commit()
    return dropped


def import_chunks(
    sessions: sessionmaker[Session], job: Import, batch_size: int
) -> Iterator[list[BatchWork]]:
    """Store the file's records chunk by chunk; yield each chunk's new batches once committed.

    A large file is stored by a child process (`worker.files.reader`: the one that reads it,
    or from four cores one beside it), on its own connection to the same database, but for its
    first chunks, stored here while the child starts: this one hands out the batches (and, in
    `run` on SQLite, has the results stored beside it: `worker.bulk.runner`). A database only
    this process can open (SQLite in memory) is stored here. Once the file is stored,
    PostgreSQL's statistics of the lines are refreshed if it added many
    (`db.imports.refresh_statistics`)."""
    size, first = batch_size * CHUNK_BATCHES, batch_size * FIRST_CHUNK_BATCHES
    url = shared_url(sessions)
    if url is not None and reads_in_child(job.path):
        store_there = partial(_store_there, url, job, batch_size)
        yield from read_chunks(job.path, job.shown, size, store_there, first=first)
    else:
        for chunk in read_chunks(job.path, job.shown, size, first=first):
            yield _store(sessions, job, batch_size, chunk)
    with sessions() as session:  # the queries that follow (the summary) plan on its lines
        if refresh_statistics(session, job.collection_id):
            session.commit()


def _store(
    sessions: sessionmaker[Session], job: Import, batch_size: int, chunk: Chunk
) -> list[BatchWork]:
    """One chunk stored and committed: its new batches."""
    with sessions() as session:
        works = add_records(
            session,
            job.collection_id,
            chunk.accepted,
            chunk.rejected,
            batch_size,
            forms=chunk.forms,
            keep_paths=job.keep_paths,
        )
        session.commit()
    return works


def _store_there(url: str, job: Import, batch_size: int, chunk: Chunk) -> list[BatchWork]:
    """`_store` in a child process, on its own engine."""
    return _store(sessions_at(url), job, batch_size, chunk)


def leftover_batches(
    sessions: sessionmaker[Session],
    job: Import,
    *,
    requeue: bool = False,
    kinds: Iterable[str] = BATCH_KINDS,
) -> list[BatchWork]:
    """Unfinished batches of these `kinds` an earlier import never sent (all unfinished ones
    with `requeue`)."""
    with sessions() as session:
        return list(
            unfinished_batches(session, job.collection_id, never_queued=not requeue, kinds=kinds)
        )


def deep_leftovers(
    sessions: sessionmaker[Session], collection_ids: Iterable[int], *, unfinished: bool = True
) -> list[BatchWork]:
    """The deep tier's unfinished work on these collections: their unfinished deep batches
    (with `unfinished`), then new ones for pending ratings no pending deep batch holds (a deep
    batch given up on, a collection deleted that shared the puzzle, or results of a path that
    made none)."""
    works: list[BatchWork] = []
    with sessions() as session:
        for collection_id in collection_ids:
            if unfinished:
                works += unfinished_batches(session, collection_id, kinds=(DEEP_BATCH,))
            works += queue_pending(session, collection_id)
        session.commit()
    return works


def send_batches(
    sessions: sessionmaker[Session], works: list[BatchWork], send: Callable[[BatchWork], None]
) -> None:
    """Send committed batches to the queue, then record that they were sent."""
    if not works:
        return
    for work in works:
        send(work)
    with sessions() as session:
        mark_queued(session, [work.batch_id for work in works])
        session.commit()
