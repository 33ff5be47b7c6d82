/* What the Python face of the core (module.c) shares with configure.c: the Python objects the
 * reference handed over at import. Held for the life of the process. */
#ifndef SUDOKU_MODULE_H
#define SUDOKU_MODULE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "core.h"

#define RESULT_FIELD_COUNT 11
#define METRIC_FIELD_COUNT 9
#define MAX_LABELS 10

typedef struct {
    int configured;
    PyObject *statuses[STATUS_KINDS];           /* the reference's words; SOLVER_BUG's own */
    PyObject *labels[MAX_LABELS];               /* buckets, the top bucket, the search label */
    PyObject *rung_names[MAX_RUNGS];
    PyObject *contradictions[CONTRADICTION_KINDS];
    PyObject *contradiction_class;              /* solver.board.Contradiction */
    PyObject *no_solution;                      /* solver.engine.NO_SOLUTION */
    PyObject *result_class, *metrics_class;     /* solver.result.SolveResult, Metrics */
    PyObject *result_fields[RESULT_FIELD_COUNT], *metric_fields[METRIC_FIELD_COUNT];
} Glue;
extern Glue G;

PyObject *configure(PyObject *self, PyObject *tables);

#endif
