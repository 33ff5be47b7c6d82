# sudoku-batch: the CLI, the Celery worker and the migrations, in one image.
#   docker build -t sudoku-batch .
#   docker run --rm sudoku-batch --help
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /src
# Only what the package needs: a local .venv, databases or caches never reach the image.
# setup.py builds the compiled core when the image has a C compiler (slim has none: the
# pure-Python solver is used, same results). migrations/ installs as db.migrations.
COPY pyproject.toml setup.py MANIFEST.in README.md ./
COPY solver ./solver
COPY db ./db
COPY migrations ./migrations
COPY worker ./worker
RUN pip install . && rm -rf /src/build

# The bundled sample: `docker-compose run --rm worker import samples/sample.txt` works.
COPY samples /app/samples

RUN useradd --create-home --uid 10001 --user-group sudoku \
    && chown sudoku:sudoku /app
USER sudoku
WORKDIR /app

ENTRYPOINT ["sudoku-batch"]
CMD ["--help"]
