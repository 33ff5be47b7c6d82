"""`python -m worker ...` is `sudoku-batch ...`."""

from worker.cli import main

main()
