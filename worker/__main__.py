"""`python -m worker ...` is `sudoku-batch ...`."""

from worker.cli import main

if __name__ == "__main__":  # not when a child process of `run` imports it
    main()
