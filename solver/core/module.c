/* The Python face of the core: solver._core.configure(tables) once, then
 * solver._core.solve_many(puzzles, node_budget) -> list.
 *
 * Each puzzle must be a str. One in the plain form (ASCII whitespace around 81 cells of
 * digits and the reference's empty markers) gives (SolveResult, seconds it took); any other
 * gives None, for the reference parser to explain or normalise (see solver/native.py). An
 * invalid puzzle's reason is left None for the reference to word; status "solver_bug" means
 * the independent check refused an answer. The GIL is held throughout: the core keeps scratch
 * space in static storage and is called once per batch.
 */
#include <time.h>

#include "module.h"

static int is_space(Py_UCS1 c) { return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f); }

/* The grid of a plain puzzle; 0 when the text is not in the plain form. */
static int read_plain(PyObject *text, uint8_t grid[81]) {
    if (!PyUnicode_IS_ASCII(text)) return 0;
    const Py_UCS1 *s = PyUnicode_1BYTE_DATA(text);
    Py_ssize_t start = 0, end = PyUnicode_GET_LENGTH(text);
    while (start < end && is_space(s[start])) start++;
    while (end > start && is_space(s[end - 1])) end--;
    if (end - start != 81) return 0;
    for (int i = 0; i < 81; i++) {
        Py_UCS1 c = s[start + i];
        if (c >= '1' && c <= '9') grid[i] = (uint8_t)(c - '0');
        else if (T.empty_char[c]) grid[i] = 0;
        else return 0;
    }
    return 1;
}

/* Why an unsolvable puzzle has no solution, worded by the reference's Contradiction. */
static PyObject *reason_of(const Outcome *o) {
    if (o->why.kind) {
        PyObject *why = PyObject_CallFunction(G.contradiction_class, "Oii", G.contradictions[o->why.kind],
                                              o->why.at, o->why.digit);
        PyObject *words = why ? PyObject_Str(why) : NULL;
        Py_XDECREF(why);
        return words;
    }
    if (o->no_solution) return Py_NewRef(G.no_solution);
    Py_RETURN_NONE;
}

static PyObject *text_of(const uint8_t grid[81], int dots) {
    char buffer[81];
    for (int i = 0; i < 81; i++) buffer[i] = (char)(grid[i] ? '0' + grid[i] : (dots ? '.' : '0'));
    return PyUnicode_FromStringAndSize(buffer, 81);
}

static PyObject *counts_of(const Outcome *o) {
    PyObject *counts = PyDict_New();
    for (int k = 0; counts && k < T.n; k++) {
        if (!o->counts[k]) continue;
        PyObject *n = PyLong_FromLong(o->counts[k]);
        if (!n || PyDict_SetItem(counts, G.rung_names[k], n) < 0) Py_CLEAR(counts);
        Py_XDECREF(n);
    }
    return counts;
}

static PyObject *number_or_none(int rated, double x) {
    if (rated) return PyFloat_FromDouble(x);
    Py_RETURN_NONE;
}

/* The frozen dataclass instances, built as their own __init__ would leave them: a fresh
 * instance and its field dict (technique_counts read-only, as Metrics.__post_init__ makes it).
 * Five microseconds of Python per puzzle saved; the differential tests compare the objects. */
static PyObject *no_args;

static PyObject *instance(PyObject *cls, PyObject *const *names, PyObject **values, int n) {
    PyObject *fields = PyDict_New(), *obj = NULL;
    for (int k = 0; fields && k < n; k++) {
        if (!values[k] || PyDict_SetItem(fields, names[k], values[k]) < 0) Py_CLEAR(fields);
    }
    if (fields) obj = PyBaseObject_Type.tp_new((PyTypeObject *)cls, no_args, NULL);
    if (obj && PyObject_GenericSetDict(obj, fields, NULL) < 0) Py_CLEAR(obj);
    Py_XDECREF(fields);
    for (int k = 0; k < n; k++) Py_XDECREF(values[k]);
    return obj;
}

static PyObject *result_of(const uint8_t grid[81], const Outcome *o, double seconds) {
    PyObject *counts = counts_of(o);
    PyObject *metrics[METRIC_FIELD_COUNT] = {
        PyBool_FromLong(o->solved_by_elimination),
        Py_NewRef(o->hardest >= 0 ? G.rung_names[o->hardest] : Py_None),
        counts ? PyDictProxy_New(counts) : NULL,
        PyLong_FromLongLong(o->depth),
        PyLong_FromLongLong(o->guesses),
        PyLong_FromLongLong(o->backtracks),
        PyLong_FromLong(o->givens),
        PyLong_FromLongLong(o->nodes),
        PyLong_FromLongLong(o->work),
    };
    Py_XDECREF(counts);
    PyObject *result[RESULT_FIELD_COUNT] = {
        text_of(grid, 1),
        Py_NewRef(G.statuses[o->status]),
        o->status == SOLVED ? text_of(o->solution, 0) : Py_NewRef(Py_None),
        o->status == UNSOLVABLE ? reason_of(o) : Py_NewRef(Py_None),
        instance(G.metrics_class, G.metric_fields, metrics, METRIC_FIELD_COUNT),
        number_or_none(o->rated, o->score),
        Py_NewRef(o->rated ? G.labels[o->label] : Py_None),
        number_or_none(o->rated, o->ep),
        number_or_none(o->rated, o->ed),
        o->rated ? PyBool_FromLong(o->exact) : Py_NewRef(Py_None),
        PyBool_FromLong(o->over_budget),
    };
    return Py_BuildValue("(Nd)", instance(G.result_class, G.result_fields, result, RESULT_FIELD_COUNT),
                         seconds);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static int read_budget(PyObject *arg, int64_t *budget) {
    int overflow = 0;
    long long value = PyLong_AsLongLongAndOverflow(arg, &overflow);
    if (value == -1 && PyErr_Occurred()) return 0;
    if (overflow < 0 || (!overflow && value < 0)) {
        PyErr_SetString(PyExc_ValueError, "node_budget must not be negative");
        return 0;
    }
    /* Beyond 2**62 nodes no search ends in any case. */
    *budget = overflow > 0 || value > ((int64_t)1 << 62) ? ((int64_t)1 << 62) : value;
    return 1;
}

static PyObject *solve_many(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *puzzles, *budget_arg;
    int64_t budget;
    int profile = 0;
    long long work = 0, batch_work = -1;
    if (!G.configured) {
        PyErr_SetString(PyExc_RuntimeError, "solver._core.configure() was not called");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "O!O!|iLL:solve_many", &PyList_Type, &puzzles, &PyLong_Type, &budget_arg,
                          &profile, &work, &batch_work))
        return NULL;
    if (profile < 0 || profile >= T.n_profiles)
        return PyErr_Format(PyExc_ValueError, "profile %d: the core has %d profiles", profile, T.n_profiles);
    if (work < 0) return PyErr_Format(PyExc_ValueError, "work_budget must not be negative");
    if (!read_budget(budget_arg, &budget)) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(puzzles);
    PyObject *out = PyList_New(n);
    for (Py_ssize_t k = 0; out && k < n; k++) {
        PyObject *text = PyList_GET_ITEM(puzzles, k), *item;
        uint8_t grid[81];
        Outcome outcome;
        if (!PyUnicode_Check(text)) {
            PyErr_Format(PyExc_TypeError, "puzzle %zd is not a str but %.80s", k, Py_TYPE(text)->tp_name);
            Py_CLEAR(out);
            break;
        }
        if (!read_plain(text, grid)) {
            item = Py_NewRef(Py_None);
        } else {
            double started = now();
            Budget chains = work_budget(work, batch_work);
            solve_grid(grid, budget, profile, &chains, &outcome);
            if (batch_work >= 0) batch_work -= outcome.work;
            item = result_of(grid, &outcome, now() - started);
        }
        if (!item) Py_CLEAR(out);
        else PyList_SET_ITEM(out, k, item);
    }
    return out;
}

/* The masks of a board: a sequence of 81 ints. */
static int read_masks(PyObject *seq, mask_t out[81]) {
    PyObject *fast = PySequence_Fast(seq, "a board is a sequence of 81 masks");
    if (!fast) return 0;
    int ok = PySequence_Fast_GET_SIZE(fast) == 81;
    for (int k = 0; ok && k < 81; k++) {
        long m = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, k));
        ok = m >= 0 && m <= ALL_DIGITS;
        out[k] = (mask_t)m;
    }
    Py_DECREF(fast);
    if (!ok && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a board is 81 masks of 9 bits");
    return ok;
}

/* What a chain of `level` applies inside on `board`, from `source` (solver/nested.py
 * eliminations, without the chains' identities): [(potential, parents, chain complexity)]. */
static PyObject *nested_eliminations_of(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *board_arg, *source_arg;
    int level, hash_order;
    mask_t board[81], source[81];
    static Eliminations out;
    if (!PyArg_ParseTuple(args, "OOip", &board_arg, &source_arg, &level, &hash_order)) return NULL;
    if (!read_masks(board_arg, board) || !read_masks(source_arg, source)) return NULL;
    if (level < 1 || level >= NESTED_LEVELS) return PyErr_Format(PyExc_ValueError, "no level %d", level);
    nested_eliminations(board, source, hash_order, level, &out);
    PyObject *list = PyList_New((Py_ssize_t)out.n);
    for (uint32_t k = 0; list && k < out.n; k++) {
        PyObject *parents = PyTuple_New(out.count[k]);
        for (int j = 0; parents && j < out.count[k]; j++)
            PyTuple_SET_ITEM(parents, j, PyLong_FromLong(out.parents[out.first[k] + j]));
        PyObject *item = parents ? Py_BuildValue("iNi", out.key[k], parents, out.chain_complexity[k]) : NULL;
        if (!item) Py_CLEAR(list);
        else PyList_SET_ITEM(list, (Py_ssize_t)k, item);
    }
    return list;
}

static PyObject *masks_list(const mask_t *masks, int n) {
    PyObject *list = PyList_New(n);
    for (int k = 0; list && k < n; k++) {
        PyObject *m = PyLong_FromLong(masks[k]);
        if (!m) Py_CLEAR(list);
        else PyList_SET_ITEM(list, k, m);
    }
    return list;
}

/* One technique, by its name in the core's registry, on a board (values and candidates, as in
 * solver/board.py), its charges paid from `work_left` units of work: (fired, bonus, values,
 * candidates, work left) after it, the work left -1 when it ran out first (the board is then as
 * it was). For solver.path and the tests of rungs whose reference takes minutes a step. */
static PyObject *apply_technique(PyObject *self, PyObject *args) {
    (void)self;
    const char *name;
    PyObject *values_arg, *cands_arg;
    mask_t values[81], cands[81];
    long long work = (long long)1 << 40;
    static Board b;
    if (!PyArg_ParseTuple(args, "sOO|L", &name, &values_arg, &cands_arg, &work)) return NULL;
    technique_fn apply = technique_named(name);
    if (!apply) return PyErr_Format(PyExc_ValueError, "no technique named %s", name);
    if (work < 0) return PyErr_Format(PyExc_ValueError, "work_left must not be negative");
    if (!read_masks(values_arg, values) || !read_masks(cands_arg, cands)) return NULL;
    uint8_t grid[81];
    for (int k = 0; k < 81; k++) {
        if (values[k] > 9) return PyErr_Format(PyExc_ValueError, "cell %d holds %d, not a digit", k, values[k]);
        grid[k] = (uint8_t)values[k];
    }
    board_from_grid(&b, grid);
    for (int k = 0; k < 81; k++) {
        if (!grid[k]) b.cands[k] = cands[k];
    }
    Found found = {0, 0, {NO_CONTRADICTION, 0, 0}};
    Budget budget = work_budget(work > 0 ? work : 1, work);
    long long left = work_apply(apply, &b, &budget, &found) ? budget.left : -1;
    for (int k = 0; k < 81; k++) {
        values[k] = b.values[k];
        cands[k] = b.values[k] ? 0 : b.cands[k];
    }
    return Py_BuildValue("iiNNL", found.fired, found.bonus, masks_list(values, 81), masks_list(cands, 81),
                         left);
}

/* The charges of each kind of work made since the last call (benchmarks/work.py), and none
 * since. */
static PyObject *work_tally_of(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    PyObject *out = PyTuple_New(WORK_KINDS);
    for (int k = 0; out && k < WORK_KINDS; k++) {
        PyObject *n = PyLong_FromLongLong(work_tally[k]);
        if (!n) Py_CLEAR(out);
        else PyTuple_SET_ITEM(out, k, n);
        work_tally[k] = 0;
    }
    return out;
}

/* The names of the core's technique functions, in its registry's order (ladder.c), for the
 * test that it was built from the reference's ladder. */
static PyObject *techniques(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    PyObject *out = PyTuple_New(technique_count());
    for (int k = 0; out && k < technique_count(); k++) {
        PyObject *name = PyUnicode_FromString(technique_name(k));
        if (!name) Py_CLEAR(out);
        else PyTuple_SET_ITEM(out, k, name);
    }
    return out;
}

/* What each rung cost since the last call (benchmarks/profile.py): (asked, fired, CPU ns,
 * runs) by rung index; profiling goes on (or off) with `on`, and the costs start again. */
static PyObject *rung_profile(PyObject *self, PyObject *on) {
    (void)self;
    PyObject *out = PyList_New(T.n);
    for (int k = 0; out && k < T.n; k++) {
        const RungCost *c = &rung_cost[k];
        PyObject *row = Py_BuildValue("LLLL", (long long)c->asked, (long long)c->fired,
                                      (long long)c->ns, (long long)c->runs);
        if (!row) Py_CLEAR(out);
        else PyList_SET_ITEM(out, k, row);
    }
    memset(rung_cost, 0, sizeof rung_cost);
    rung_profile_on = PyObject_IsTrue(on);
    return out;
}

/* The canonical (minlex) form of each puzzle (solver/canon.py): a str, or None for a puzzle not
 * in the plain form, for the reference parser to explain or normalise. */
static PyObject *canonical_many(PyObject *self, PyObject *puzzles) {
    (void)self;
    if (!PyList_Check(puzzles)) return PyErr_Format(PyExc_TypeError, "canonical_many takes a list of str");
    Py_ssize_t n = PyList_GET_SIZE(puzzles);
    PyObject *out = PyList_New(n);
    for (Py_ssize_t k = 0; out && k < n; k++) {
        PyObject *text = PyList_GET_ITEM(puzzles, k);
        uint8_t grid[81], form[81];
        PyObject *item;
        if (!PyUnicode_Check(text)) {
            PyErr_Format(PyExc_TypeError, "puzzle %zd is not a str", k);
            item = NULL;
        } else if (!read_plain(text, grid)) {
            item = Py_NewRef(Py_None);
        } else if (!canonical_form(grid, form)) {
            item = PyErr_NoMemory();
        } else {
            item = text_of(form, 1);
        }
        if (!item) Py_CLEAR(out);
        else PyList_SET_ITEM(out, k, item);
    }
    return out;
}

/* The canonical form by brute force over every symmetry (canon.c), for the tests. */
static PyObject *canonical_exhaustive_of(PyObject *self, PyObject *text) {
    (void)self;
    uint8_t grid[81], form[81];
    if (!PyUnicode_Check(text) || !read_plain(text, grid))
        return PyErr_Format(PyExc_ValueError, "canonical_exhaustive takes a plain 81-cell puzzle");
    canonical_exhaustive(grid, form);
    return text_of(form, 1);
}

/* The grid of puzzle k of a list, which must be in the plain form (ValueError otherwise: the
 * caller normalises the batch with the reference parser and calls again). */
static int read_plain_at(PyObject *puzzles, Py_ssize_t k, uint8_t grid[81]) {
    PyObject *text = PyList_GET_ITEM(puzzles, k);
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "puzzle %zd is not a str but %.80s", k, Py_TYPE(text)->tp_name);
        return 0;
    }
    if (!read_plain(text, grid)) {
        PyErr_Format(PyExc_ValueError, "puzzle %zd is not in the plain form", k);
        return 0;
    }
    return 1;
}

/* Whether each puzzle is minimal (solver/minimal.py): True, False, or None when it does not
 * have exactly one solution. */
/* The solution a solve found for puzzle k (81 digits, checked a solution of its givens), read
 * into `solution`; 0 with ValueError otherwise. */
static int read_solution_at(PyObject *solutions, Py_ssize_t k, const uint8_t grid[81], uint8_t solution[81]) {
    PyObject *text = PyList_GET_ITEM(solutions, k);
    if (PyUnicode_Check(text) && PyUnicode_IS_ASCII(text) && PyUnicode_GET_LENGTH(text) == 81) {
        const Py_UCS1 *s = PyUnicode_1BYTE_DATA(text);
        for (int i = 0; i < 81; i++) solution[i] = (uint8_t)(s[i] >= '1' && s[i] <= '9' ? s[i] - '0' : 0);
        if (is_solution(grid, solution)) return 1;
    }
    PyErr_Format(PyExc_ValueError, "solution %zd is not a solution of its puzzle", k);
    return 0;
}

/* Whether each puzzle is minimal (solver/minimal.py): True, False, or None when it does not
 * have exactly one solution. With `solutions` (each the one solution a solve proved, or None),
 * the uniqueness search is not run again. */
static PyObject *minimal_many(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *puzzles, *solutions = Py_None;
    if (!PyArg_ParseTuple(args, "O!|O", &PyList_Type, &puzzles, &solutions)) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(puzzles);
    if (solutions != Py_None && (!PyList_Check(solutions) || PyList_GET_SIZE(solutions) != n))
        return PyErr_Format(PyExc_TypeError, "solutions must be a list as long as puzzles");
    PyObject *out = PyList_New(n);
    for (Py_ssize_t k = 0; out && k < n; k++) {
        uint8_t grid[81], solution[81];
        if (!read_plain_at(puzzles, k, grid)) {
            Py_CLEAR(out);
            break;
        }
        int minimal;
        if (solutions == Py_None || PyList_GET_ITEM(solutions, k) == Py_None) {
            minimal = minimal_grid(grid);
        } else if (read_solution_at(solutions, k, grid, solution)) {
            minimal = minimal_given_solution(grid, solution);
        } else {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, k, minimal < 0 ? Py_NewRef(Py_None) : PyBool_FromLong(minimal));
    }
    return out;
}

/* The solutions of each puzzle from its givens alone, counted to two (the uniqueness proof
 * minimal_many starts with, unbounded): 0, 1 or 2. For the benchmarks and tests. */
static PyObject *count_solutions(PyObject *self, PyObject *puzzles) {
    (void)self;
    if (!PyList_Check(puzzles)) return PyErr_Format(PyExc_TypeError, "count_solutions takes a list of str");
    Py_ssize_t n = PyList_GET_SIZE(puzzles);
    PyObject *out = PyList_New(n);
    for (Py_ssize_t k = 0; out && k < n; k++) {
        uint8_t grid[81];
        mask_t masks[81];
        Search run;
        if (!read_plain_at(puzzles, k, grid)) {
            Py_CLEAR(out);
            break;
        }
        for (int i = 0; i < 81; i++) masks[i] = grid[i] ? (mask_t)(1u << (grid[i] - 1)) : ALL_DIGITS;
        search_run(&run, (int64_t)1 << 62, masks);
        PyList_SET_ITEM(out, k, PyLong_FromLong(run.solutions));
    }
    return out;
}

static PyMethodDef methods[] = {
    {"minimal_many", minimal_many, METH_VARARGS,
     "minimal_many(puzzles: list[str], solutions: list[str | None] | None = None) -> "
     "list[bool | None]: solver.minimal.is_minimal of each (ValueError for a puzzle not in the "
     "plain form or a solution that is not one)"},
    {"count_solutions", count_solutions, METH_O,
     "count_solutions(puzzles: list[str]) -> list[int]: solutions from the givens, counted to 2"},
    {"canonical_exhaustive", canonical_exhaustive_of, METH_O,
     "canonical_exhaustive(puzzle: str) -> str: the canonical form by brute force, for the tests"},
    {"canonical_many", canonical_many, METH_O,
     "canonical_many(puzzles: list[str]) -> list[str | None]: solver.canon.canonical of each"},
    {"apply_technique", apply_technique, METH_VARARGS,
     "apply_technique(name, values, cands, work_left=2**40) -> (fired, bonus, values, cands, "
     "work left, or -1 when it ran out): one technique on a board"},
    {"nested_eliminations", nested_eliminations_of, METH_VARARGS,
     "nested_eliminations(board, source, level: int, hash_order: bool) -> "
     "list[(potential, parents, chain complexity)]: solver.nested.eliminations, for the parity tests"},
    {"work_tally", work_tally_of, METH_NOARGS,
     "work_tally() -> tuple[int, ...]: the charges of each kind of work (solver.work.CHARGES' "
     "order) made since the last call"},
    {"techniques", techniques, METH_NOARGS,
     "techniques() -> tuple[str, ...]: the names of the core's technique functions (the rungs' "
     "functions of the ladder it was built from), in its order"},
    {"rung_profile", rung_profile, METH_O,
     "rung_profile(on: bool) -> list[(asked, fired, cpu_ns, runs)]: each rung's costs (ladder "
     "index) since the last call; profiling on or off from now"},
    {"configure", configure, METH_O,
     "configure(tables: dict) -> None: the reference's tables (see solver/native.py)"},
    {"solve_many", solve_many, METH_VARARGS,
     "solve_many(puzzles: list[str], node_budget: int, profile: int = 0, work_budget: int = 0, "
     "batch_budget: int = -1) -> list[(SolveResult, float) | None]"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "solver._core",
                                    "The compiled solver core (see solver/native.py).", -1, methods};

PyMODINIT_FUNC PyInit__core(void) {
    core_init();
    no_args = PyTuple_New(0);
    if (!no_args) return NULL;
    return PyModule_Create(&module);
}
