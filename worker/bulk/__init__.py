"""The bulk path that `run` and `import` drive: a file's puzzles stored in chunks and handed
out as batches (`producer`), and solved in a local process pool (`runner`).

No Celery here: `import` hands the batches to the queue, `run` to the pool; both are commands
(`worker.cli.pipeline`), and the batches' solving is the worker's own (`worker.batch`).
"""
