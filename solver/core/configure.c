/* configure(tables): the reference's facts, handed over once by solver/native.py at import.
 *
 * The core keeps no copy of a name, a value or a wording the reference defines: the ladder
 * (names, order, values, flags), the labels and their cut-offs, the rating's constants, the
 * chains' length bonus, SE's order of the units, the empty-cell markers and the classes of the
 * result all come from here. What the core must recognise by name (its technique functions,
 * its statuses and kinds of contradiction, the fields it fills) is checked against the
 * reference's tables: any mismatch refuses the core with a ValueError that names it, and the
 * solver falls back to the reference (see solver/backends.py). SE's order of the units is
 * checked too: each order a permutation of its units. */
#include <string.h>

#include "module.h"

Tables T;
Glue G;

const char *const STATUS_NAMES[STATUS_KINDS] = {"solved", "multiple", "unsolvable", "invalid",
                                                "gave_up", "solver_bug"};
const char *const CONTRADICTION_NAMES[CONTRADICTION_KINDS] = {"", "no_candidate", "cannot_hold",
                                                              "no_place", "both_branches"};
static const char *const RESULT_FIELDS[RESULT_FIELD_COUNT] = {
    "puzzle", "status", "solution", "reason", "metrics", "difficulty_score", "difficulty", "ep", "ed",
    "rating_exact", "over_budget"};
static const char *const METRIC_FIELDS[METRIC_FIELD_COUNT] = {
    "solved_by_elimination", "hardest_technique", "technique_counts", "recursion_depth",
    "guesses", "backtracks", "givens", "nodes", "work"};

static int refuse(const char *key, const char *why) {
    PyErr_Format(PyExc_ValueError, "solver._core does not match the reference (table %s): %s; "
                 "rebuild it (pip install -e .)", key, why);
    return 0;
}

static PyObject *get(PyObject *tables, const char *key, int *used) {
    PyObject *value = PyDict_GetItemString(tables, key);  /* borrowed */
    if (!value) refuse(key, "missing");
    else (*used)++;
    return value;
}

/* The table as a tuple (a new reference), or NULL with the error set. */
static PyObject *sequence(PyObject *tables, const char *key, int *used, Py_ssize_t min,
                          Py_ssize_t max) {
    PyObject *value = get(tables, key, used);
    if (!value) return NULL;
    PyObject *items = PySequence_Tuple(value);
    if (!items) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(items);
    if (n < min || n > max) {
        Py_DECREF(items);
        refuse(key, "wrong length");
        return NULL;
    }
    return items;
}

static int number(PyObject *value, const char *key, double *out) {
    *out = PyFloat_AsDouble(value);
    return !(*out == -1.0 && PyErr_Occurred()) || refuse(key, "not a number");
}

static int integer(PyObject *value, const char *key, int *out) {
    long v = PyLong_Check(value) ? PyLong_AsLong(value) : -1;
    if (!PyLong_Check(value) || (v == -1 && PyErr_Occurred()) || v < 0 || v > 1000000) {
        PyErr_Clear();
        return refuse(key, "not a small non-negative int");
    }
    *out = (int)v;
    return 1;
}

static int text(PyObject *value, const char *key, PyObject **out) {
    if (!PyUnicode_Check(value)) return refuse(key, "not a str");
    Py_INCREF(value);
    PyUnicode_InternInPlace(&value);
    Py_XSETREF(*out, value);
    return 1;
}

/* A table of n numbers, read as ints (is_int) or doubles into out[0..n). */
static int numbers(PyObject *tables, const char *key, int *used, void *out, Py_ssize_t n,
                   int is_int) {
    PyObject *items = sequence(tables, key, used, n, n);
    int ok = items != NULL;
    for (Py_ssize_t k = 0; ok && k < n; k++) {
        PyObject *item = PyTuple_GET_ITEM(items, k);
        ok = is_int ? integer(item, key, (int *)out + k) : number(item, key, (double *)out + k);
    }
    Py_XDECREF(items);
    return ok;
}

/* Names the core knows (`expected`, from index `first`), found in the reference's table:
 * `out[k]` gets the reference's str for name k; every name of the table must be known. */
static int names(PyObject *tables, const char *key, int *used, const char *const *expected,
                 int first, int n, PyObject **out) {
    PyObject *items = sequence(tables, key, used, 0, 64);
    if (!items) return 0;
    int ok = 1;
    for (int k = first; ok && k < n; k++) {
        ok = 0;
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(items); j++) {
            PyObject *name = PyTuple_GET_ITEM(items, j);
            if (PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, expected[k]) == 0) {
                ok = text(name, key, &out[k]);
                break;
            }
        }
        if (!ok && !PyErr_Occurred()) {
            char why[160];
            snprintf(why, sizeof why, "the core's '%s' is not in the reference's table", expected[k]);
            refuse(key, why);
        }
    }
    if (ok && PyTuple_GET_SIZE(items) != n - first) ok = refuse(key, "it holds names the core does not know");
    Py_DECREF(items);
    return ok;
}

/* The reference's field names, in the order the core fills them. */
static int fields(PyObject *tables, const char *key, int *used, const char *const *expected, int n,
                  PyObject **out) {
    PyObject *items = sequence(tables, key, used, n, n);
    int ok = items != NULL;
    for (int k = 0; ok && k < n; k++) {
        PyObject *name = PyTuple_GET_ITEM(items, k);
        ok = PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, expected[k]) == 0;
        ok = ok ? text(name, key, &out[k]) : refuse(key, "the fields differ from the core's");
    }
    Py_XDECREF(items);
    return ok;
}

static int rung(PyObject *entry, int k) {
    const char *key = "ladder";
    PyObject *name, *function;
    int tenths, estimated, assumes, se_chain;
    if (!PyArg_ParseTuple(entry,
                          "UUippp;ladder entries are (name, function, tenths, estimated, assumes, "
                          "se_chain)",
                          &name, &function, &tenths, &estimated, &assumes, &se_chain))
        return 0;
    if (!text(name, key, &G.rung_names[k])) return 0;
    Rung *r = &T.rungs[k];
    r->name = PyUnicode_AsUTF8(G.rung_names[k]);
    const char *fn = PyUnicode_AsUTF8(function);
    r->apply = r->name && fn ? technique_named(fn) : NULL;
    if (!r->apply) {
        char why[160];
        snprintf(why, sizeof why, "the core has no technique '%.60s'", fn ? fn : "?");
        return refuse(key, why);
    }
    r->tenths = tenths;
    r->estimated = estimated;
    r->assumes_uniqueness = assumes;
    r->se_chain = se_chain;
    return 1;
}

static int ladder(PyObject *tables, int *used) {
    PyObject *items = sequence(tables, "ladder", used, 1, MAX_RUNGS);
    if (!items) return 0;
    int ok = 1;
    T.n = (int)PyTuple_GET_SIZE(items);
    for (int k = 0; ok && k < T.n; k++) ok = rung(PyTuple_GET_ITEM(items, k), k);
    Py_DECREF(items);
    for (int j = 0; ok && j < technique_count(); j++) {
        int found = 0;
        for (int k = 0; k < T.n; k++) found |= T.rungs[k].apply == technique_named(technique_name(j));
        if (!found) {
            char why[160];
            snprintf(why, sizeof why, "the core's technique '%s' is not on the ladder", technique_name(j));
            ok = refuse("ladder", why);
        }
    }
    return ok;
}

/* Each profile's ladder: rung indices in its order, each rung at most once. */
static int profiles(PyObject *tables, int *used) {
    PyObject *items = sequence(tables, "profiles", used, 1, MAX_PROFILES);
    if (!items) return 0;
    int ok = 1;
    T.n_profiles = (int)PyTuple_GET_SIZE(items);
    for (int p = 0; ok && p < T.n_profiles; p++) {
        PyObject *rungs = PySequence_Tuple(PyTuple_GET_ITEM(items, p));
        ok = rungs && PyTuple_GET_SIZE(rungs) <= T.n ? 1 : refuse("profiles", "not a list of rungs");
        int seen[MAX_RUNGS] = {0};
        T.n_all[p] = T.n_exact[p] = 0;
        for (Py_ssize_t j = 0; ok && j < PyTuple_GET_SIZE(rungs); j++) {
            long k = PyLong_AsLong(PyTuple_GET_ITEM(rungs, j));
            if (k < 0 || k >= T.n || seen[k]) {
                PyErr_Clear();
                ok = refuse("profiles", "a rung index out of the ladder, or twice");
                break;
            }
            seen[k] = 1;
            T.all[p][T.n_all[p]++] = (int)k;
            if (!T.rungs[k].estimated) T.exact[p][T.n_exact[p]++] = (int)k;
        }
        Py_XDECREF(rungs);
    }
    Py_DECREF(items);
    return ok;
}

static int labels(PyObject *tables, int *used) {
    PyObject *items = sequence(tables, "buckets", used, 0, MAX_LABELS - 2);
    if (!items) return 0;
    int ok = 1;
    T.n_buckets = (int)PyTuple_GET_SIZE(items);
    for (int k = 0; ok && k < T.n_buckets; k++) {
        PyObject *label;
        ok = PyArg_ParseTuple(PyTuple_GET_ITEM(items, k), "dU;buckets are (bound, label)",
                              &T.buckets[k], &label) &&
             text(label, "buckets", &G.labels[k]);
    }
    Py_DECREF(items);
    PyObject *top = ok ? get(tables, "top_bucket", used) : NULL;
    PyObject *search = top ? get(tables, "search_label", used) : NULL;
    return search && text(top, "top_bucket", &G.labels[T.n_buckets]) &&
           text(search, "search_label", &G.labels[T.n_buckets + 1]);
}

static int markers(PyObject *tables, int *used) {
    PyObject *chars = get(tables, "empty_chars", used);
    if (!chars) return 0;
    if (!PyUnicode_Check(chars) || !PyUnicode_IS_ASCII(chars)) return refuse("empty_chars", "not ASCII");
    memset(T.empty_char, 0, sizeof T.empty_char);
    const Py_UCS1 *s = PyUnicode_1BYTE_DATA(chars);
    for (Py_ssize_t k = 0; k < PyUnicode_GET_LENGTH(chars); k++) T.empty_char[s[k]] = 1;
    return 1;
}

static int classes(PyObject *tables, int *used) {
    PyObject *result = get(tables, "result_class", used), *metrics = get(tables, "metrics_class", used);
    PyObject *contradiction = get(tables, "contradiction_class", used);
    if (!result || !metrics || !contradiction) return 0;
    if (!PyType_Check(result) || !PyType_Check(metrics) || !PyCallable_Check(contradiction))
        return refuse("result_class", "not classes");
    Py_XSETREF(G.result_class, Py_NewRef(result));
    Py_XSETREF(G.metrics_class, Py_NewRef(metrics));
    Py_XSETREF(G.contradiction_class, Py_NewRef(contradiction));
    return 1;
}

/* A table that orders all 27 units, each once, into `out`. */
static int unit_permutation(PyObject *tables, const char *name, int *used, uint8_t out[27]) {
    int order[27];
    if (!numbers(tables, name, used, order, 27, 1)) return 0;
    uint32_t seen = 0;
    for (int k = 0; k < 27; k++) {
        if (order[k] >= 27 || (seen >> order[k] & 1)) return refuse(name, "not a permutation of the 27 units");
        seen |= 1u << order[k];
        out[k] = (uint8_t)order[k];
    }
    return 1;
}

/* SE's order of its direct pointing ([1]) and claiming ([0]): every crossing of a box and a
 * line once, as (source, target), the source a box when pointing, a line when claiming. */
static int direct_locks(PyObject *tables, int *used) {
    int pairs[2 * DIRECT_LOCKS * 2];
    if (!numbers(tables, "se_direct_locks", used, pairs, 2 * DIRECT_LOCKS * 2, 1)) return 0;
    for (int pointing = 0; pointing < 2; pointing++) {
        bb_t seen[27] = {0};
        for (int n = 0; n < DIRECT_LOCKS; n++) {
            int s = pairs[(pointing * DIRECT_LOCKS + n) * 2], t = pairs[(pointing * DIRECT_LOCKS + n) * 2 + 1];
            int box = pointing ? s : t, line = pointing ? t : s;
            if (box < 18 || box >= 27 || line < 0 || line >= 18 || !(UNIT_BB[box] & UNIT_BB[line]) ||
                (seen[box] >> line & 1))
                return refuse("se_direct_locks", "not each crossing of a box and a line once");
            seen[box] |= (bb_t)1 << line;
            T.se_direct_locks[pointing][n][0] = (uint8_t)s;
            T.se_direct_locks[pointing][n][1] = (uint8_t)t;
        }
    }
    return 1;
}

/* SE's order of the units: all 27, a permutation of them (and its direct hidden sets' own,
 * solver/subsets.py SE_DIRECT_UNITS); each cell's three (flattened), its own units in some
 * order. Its peers in that order follow (solver/cycles.py SE_PEERS). */
static int se_order(PyObject *tables, int *used) {
    int of[81 * 3];
    if (!unit_permutation(tables, "se_unit_order", used, T.se_unit_order) ||
        !unit_permutation(tables, "se_direct_units", used, T.se_direct_units) ||
        !numbers(tables, "se_units_of", used, of, 81 * 3, 1))
        return 0;
    uint32_t seen;
    for (int i = 0; i < 81; i++) {
        seen = 0;
        for (int k = 0; k < 3; k++) {
            int u = of[3 * i + k];
            if (u >= 27 || (seen >> u & 1)) break;
            seen |= 1u << u;
            T.se_units_of[i][k] = (uint8_t)u;
        }
        if (seen != CELL_UNITS[i]) return refuse("se_units_of", "not each cell's three units");
        bb_t taken = bb_cell(i);
        int n = 0;
        for (int k = 0; k < 3; k++) {
            T.se_peer_units[i][k] = UNIT_BB[T.se_units_of[i][k]] & ~taken;
            T.se_peer_places[i][k] = 0;
            for (int j = 0; j < 9; j++) {
                int c = UNITS[T.se_units_of[i][k]][j];
                if (c == i) T.se_unit_place[i][k] = (uint16_t)(1u << j);
                if (!bb_has(taken, c)) {
                    T.se_peer_places[i][k] |= (uint16_t)(1u << j);
                    taken |= bb_cell(c);
                    T.se_peers[i][n++] = (uint8_t)c;
                }
            }
        }
    }
    return 1;
}

/* solver/nested.py's tables: crossing units, the units of sets, fish lines and pairs. */
static int nested(PyObject *tables, int *used) {
    if (!numbers(tables, "nested_crossings", used, T.nested_crossings, 2 * 108, 1) ||
        !numbers(tables, "nested_set_units", used, T.nested_set_units, 27, 1) ||
        !numbers(tables, "nested_fish_lines", used, T.nested_fish_lines, 4, 1) ||
        !numbers(tables, "nested_pairs", used, T.nested_pairs, 72, 1) ||
        !numbers(tables, "nested_level_rules", used, T.nested_level_rules, NESTED_LEVELS, 1))
        return 0;
    for (int k = 0; k < NESTED_LEVELS; k++)
        if (T.nested_level_rules[k] < 0 || T.nested_level_rules[k] >= 1 << NESTED_RULES)
            return refuse("nested_level_rules", "more rules than the core has");
    for (int k = 0; k < 108; k++)
        for (int j = 0; j < 2; j++)
            if (T.nested_crossings[k][j] < 0 || T.nested_crossings[k][j] >= 27)
                return refuse("nested_crossings", "not units");
    for (int k = 0; k < 27; k++)
        if (T.nested_set_units[k] < 0 || T.nested_set_units[k] >= 27) return refuse("nested_set_units", "not units");
    for (int k = 0; k < 4; k++)
        if (T.nested_fish_lines[k / 2][k % 2] % 9 || T.nested_fish_lines[k / 2][k % 2] > 9)
            return refuse("nested_fish_lines", "not rows or columns");
    for (int k = 0; k < 72; k++)
        if (T.nested_pairs[k / 2][k % 2] < 0 || T.nested_pairs[k / 2][k % 2] >= 9)
            return refuse("nested_pairs", "not positions");
    return 1;
}

/* solver/work.py CHARGES, in enum work_kind's order; none negative. */
static int work_charges(PyObject *tables, int *used) {
    int charges[WORK_KINDS];
    if (!numbers(tables, "work_charges", used, charges, WORK_KINDS, 1)) return 0;
    for (int k = 0; k < WORK_KINDS; k++) {
        if (charges[k] < 0) return refuse("work_charges", "a negative charge");
        T.work_charges[k] = charges[k];
    }
    return 1;
}

static int read_tables(PyObject *tables) {
    int used = 0, copies[2], loops[4], bug3[2], estimate_ok;
    double scale[2], estimate[3], floors[2 * MAX_PROFILES];
    PyObject *no_solution;
    estimate_ok = numbers(tables, "scale", &used, scale, 2, 0) &&
                  numbers(tables, "estimate", &used, estimate, 3, 0) &&
                  numbers(tables, "copies", &used, copies, 2, 1);
    if (!estimate_ok || !ladder(tables, &used) || !profiles(tables, &used) ||
        !numbers(tables, "search_floors", &used, floors, 2 * T.n_profiles, 0) || !labels(tables, &used) ||
        !markers(tables, &used) ||
        !classes(tables, &used) ||
        !numbers(tables, "length_bonus", &used, T.length_bonus, MAX_HINT_LENGTH + 1, 1) ||
        !numbers(tables, "loop_bonus", &used, T.loop_bonus, 8, 1) ||
        !numbers(tables, "unique_loops", &used, loops, 4, 1) ||
        !numbers(tables, "bug_type_3", &used, bug3, 2, 1) ||
        !numbers(tables, "length_added", &used, T.length_added, MAX_HINT_LENGTH + 1, 0) ||
        !numbers(tables, "forcing_kinds", &used, T.forcing_kinds, 4, 1) ||
        !numbers(tables, "forcing_rules", &used, T.forcing_rules, (int)(sizeof T.forcing_rules / sizeof(int)), 1) ||
        !nested(tables, &used) || !work_charges(tables, &used) ||
        !numbers(tables, "link_bonus", &used, T.link_bonus, 4, 1) ||
        !numbers(tables, "box_empty", &used, T.box_empty, 15 * 4, 1) ||
        !numbers(tables, "box_arms", &used, T.box_arms, 15 * 2 * 3, 1) ||
        !numbers(tables, "segments", &used, T.segments, 3 * 3, 1) ||
        !numbers(tables, "line_arms", &used, T.line_arms, 3 * 2 * 3, 1) ||
        !numbers(tables, "wing_bonus", &used, T.wing_bonus, 16, 1) ||
        !se_order(tables, &used) ||
        !direct_locks(tables, &used) ||
        !names(tables, "statuses", &used, STATUS_NAMES, 0, SOLVER_BUG, G.statuses) ||
        !names(tables, "contradictions", &used, CONTRADICTION_NAMES, 1, CONTRADICTION_KINDS,
               G.contradictions) ||
        !fields(tables, "result_fields", &used, RESULT_FIELDS, RESULT_FIELD_COUNT, G.result_fields) ||
        !fields(tables, "metric_fields", &used, METRIC_FIELDS, METRIC_FIELD_COUNT, G.metric_fields) ||
        !(no_solution = get(tables, "no_solution", &used)) || !text(no_solution, "no_solution", &G.no_solution))
        return 0;
    if (copies[0] < 1 || copies[0] > MAX_COPIES) return refuse("copies", "between 1 and 16 copies");
    T.scale_bottom = scale[0];
    T.scale_top = scale[1];
    for (int p = 0; p < T.n_profiles; p++) {
        T.search_floor[p][0] = floors[2 * p];
        T.search_floor[p][1] = floors[2 * p + 1];
    }
    T.estimate_base = estimate[0];
    T.estimate_slope = estimate[1];
    T.candidate_weight = estimate[2];
    T.copies = copies[0];
    T.n_loop_bonus = 4;
    T.loop_naked_bonus = loops[0];
    T.loop_hidden_bonus = loops[1];
    T.loop_largest_set = loops[2];
    T.loop_max_extra_cells = loops[3];
    T.bug_type_3_bonus = bug3[0];
    T.bug_largest_set = bug3[1];
    if (T.loop_largest_set > 8 || T.bug_largest_set > 9) return refuse("unique_loops", "sets too large");
    T.copy_guess_limit = copies[1];
    if (used != PyDict_GET_SIZE(tables)) return refuse("(all)", "it holds tables the core does not use");
    return 1;
}

PyObject *configure(PyObject *self, PyObject *tables) {
    (void)self;
    if (!PyDict_Check(tables)) return PyErr_Format(PyExc_TypeError, "configure() takes a dict");
    G.configured = 0;
    chains_forget();
    if (!read_tables(tables)) return NULL;
    if (!G.statuses[SOLVER_BUG]) G.statuses[SOLVER_BUG] = PyUnicode_InternFromString(STATUS_NAMES[SOLVER_BUG]);
    if (!G.statuses[SOLVER_BUG]) return NULL;
    G.configured = 1;
    Py_RETURN_NONE;
}
