"""Reading and writing files: puzzle collections in every format, read once and in chunks
(`sources`, `conflicts`, `inputs`, `reader`), and result rows written out (`export`).

No Celery and no command line here: the worker's push task, the client, the bulk path and
the commands all read puzzles through these modules (docs/architecture.md, Layers).
"""
