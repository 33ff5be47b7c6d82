/* A puzzle's canonical (minlex) form: solver/canon.py's search, row by row, keeping every partial
 * transformation whose rows so far are the smallest rows so far. Its definition (the
 * transformations, the relabelling in order of first appearance, empty cells as 0) is there. */
#include <stdlib.h>
#include <string.h>

#include "core.h"

#define COLUMN_ORDERS 1296 /* 6 orders of the stacks, times 6 within each of the three */
static const uint8_t TRIPLES[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

/* A transformation whose first rows are fixed (solver.canon._Partial): its orientation, the
 * source rows placed, the column order (OPEN while every row placed is empty), the labels.
 * Unlike the reference, the core leaves the column order open one row longer: the first row
 * with givens is kept `pending` (its digits unlabelled) until a later row with givens comes,
 * and only then are the column orders giving that row its smallest pattern tried, each
 * abandoned at the first cell of the later row larger than the smallest so far. The form is
 * the same: rows in between are empty under every order. */
#define OPEN 0xFF
#define NONE 0xFF
typedef struct {
    uint8_t orientation, n, used_bands, pending;
    uint8_t placed[9];
    uint8_t columns[9];
    uint8_t labels[10], top;
} Partial;

typedef struct {
    Partial *at;
    size_t n, cap;
} Partials;

static Partials buffers[2];

static Partial *push(Partials *list) {
    if (list->n == list->cap) {
        size_t cap = list->cap ? list->cap * 2 : 1024;
        Partial *grown = realloc(list->at, cap * sizeof(Partial));
        if (!grown) return NULL;
        list->at = grown, list->cap = cap;
    }
    return &list->at[list->n++];
}

/* The row with these columns and the labels so far (``from``, ``from_top``), compared with
 * ``best``: -1 (smaller, then written to ``best``), 0 (equal) or 1 (larger, abandoned).
 * ``labels`` and ``top`` receive the labels after it. */
static int compare_row(const uint8_t row[9], const uint8_t columns[9], const uint8_t from[10], uint8_t from_top,
                       uint8_t best[9], uint8_t labels[10], uint8_t *top) {
    memcpy(labels, from, 10);
    *top = from_top;
    uint8_t out[9];
    int smaller = 0;
    for (int j = 0; j < 9; j++) {
        uint8_t d = row[columns[j]];
        if (d && !labels[d]) labels[d] = ++*top;
        out[j] = labels[d];
        if (!smaller) {
            if (out[j] > best[j]) return 1;
            if (out[j] < best[j]) smaller = 1;
        }
    }
    if (smaller) memcpy(best, out, 9);
    return -smaller;
}

/* Every column order giving ``row`` (its digits all new) its smallest pattern: stacks by
 * ascending number of givens, empty cells first within each stack. Returns how many. */
static int orders_for(const uint8_t row[9], uint8_t orders[COLUMN_ORDERS][9]) {
    int count[3] = {0, 0, 0};
    for (int c = 0; c < 9; c++) count[c / 3] += row[c] != 0;
    uint8_t within[3][6][3];
    int n_within[3] = {0, 0, 0};
    for (int s = 0; s < 3; s++) {
        for (int p = 0; p < 6; p++) {
            const uint8_t *o = TRIPLES[p];
            int a = row[s * 3 + o[0]] != 0, b = row[s * 3 + o[1]] != 0, c = row[s * 3 + o[2]] != 0;
            if (a <= b && b <= c) {
                for (int k = 0; k < 3; k++) within[s][n_within[s]][k] = (uint8_t)(s * 3 + o[k]);
                n_within[s]++;
            }
        }
    }
    int n = 0;
    for (int p = 0; p < 6; p++) {
        const uint8_t *st = TRIPLES[p];
        if (count[st[0]] > count[st[1]] || count[st[1]] > count[st[2]]) continue;
        for (int a = 0; a < n_within[st[0]]; a++)
            for (int b = 0; b < n_within[st[1]]; b++)
                for (int c = 0; c < n_within[st[2]]; c++) {
                    memcpy(orders[n], within[st[0]][a], 3);
                    memcpy(orders[n] + 3, within[st[1]][b], 3);
                    memcpy(orders[n] + 6, within[st[2]][c], 3);
                    n++;
                }
    }
    return n;
}

/* Keep ``partial`` with ``source`` placed, columns and labels as given, in ``kept``. */
static int keep(Partials *kept, const Partial *partial, int source, const uint8_t columns[9], const uint8_t labels[10],
                uint8_t top) {
    Partial *next = push(kept);
    if (!next) return 0;
    *next = *partial;
    if (columns) next->pending = NONE;
    next->placed[next->n++] = (uint8_t)source;
    next->used_bands |= (uint8_t)(1 << (source / 3));
    if (columns) memcpy(next->columns, columns, 9);
    memcpy(next->labels, labels, 10);
    next->top = top;
    return 1;
}

/* The smallest pattern of a row whose digits are all new: stacks by ascending number of givens,
 * empty cells first, the givens labelled 1, 2, ... in order. */
static void pattern_of(const uint8_t row[9], uint8_t out[9]) {
    int count[3] = {0, 0, 0};
    for (int c = 0; c < 9; c++) count[c / 3] += row[c] != 0;
    for (int a = 1; a < 3; a++)  /* three counts, sorted */
        for (int b = a; b > 0 && count[b - 1] > count[b]; b--) {
            int t = count[b];
            count[b] = count[b - 1], count[b - 1] = t;
        }
    uint8_t label = 0;
    for (int s = 0; s < 3; s++)
        for (int k = 0; k < 3; k++) out[s * 3 + k] = k < 3 - count[s] ? 0 : ++label;
}

/* ``verdict`` of a row against ``best`` applied to the kept list: 0 when the row is larger
 * (nothing kept), else 1 (the list emptied first when the row is smaller). */
static int admit(int verdict, Partials *kept) {
    if (verdict > 0) return 0;
    if (verdict < 0) kept->n = 0;
    return 1;
}

/* The column orders of a pending row (``orders_for``), each with the labels it gives the row's
 * digits: made once a puzzle for each row and orientation, then tried with every later row. */
typedef struct {
    int n;
    uint8_t orders[COLUMN_ORDERS][9];
    uint8_t labels[COLUMN_ORDERS][10];
    uint8_t top[COLUMN_ORDERS];
} Orders;

static Orders order_cache[2][9];
static unsigned made_for[2][9], puzzle_number;  /* which puzzle each entry was made for */

static const Orders *orders_of(const uint8_t rows[2][81], int orientation, int source) {
    Orders *o = &order_cache[orientation][source];
    if (made_for[orientation][source] == puzzle_number) return o;
    made_for[orientation][source] = puzzle_number;
    const uint8_t *row = &rows[orientation][source * 9];
    o->n = orders_for(row, o->orders);
    for (int k = 0; k < o->n; k++) {
        memset(o->labels[k], 0, 10);
        o->top[k] = 0;
        for (int j = 0; j < 9; j++) {
            uint8_t d = row[o->orders[k][j]];
            if (d) o->labels[k][d] = ++o->top[k];
        }
    }
    return o;
}

/* Try ``source`` as the next row of ``partial``; 0 when out of memory. */
static int try_row(const uint8_t rows[2][81], const Partial *partial, int source, uint8_t best[9], Partials *kept) {
    static const uint8_t identity[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    static const uint8_t empty_row[9] = {0};
    const uint8_t *row = &rows[partial->orientation][source * 9];
    uint8_t labels[10], top;
    if (partial->columns[0] != OPEN) {
        int verdict = compare_row(row, partial->columns, partial->labels, partial->top, best, labels, &top);
        return !admit(verdict, kept) || keep(kept, partial, source, NULL, labels, top);
    }
    int givens = 0;
    for (int c = 0; c < 9; c++) givens += row[c] != 0;
    if (!givens || partial->pending == NONE) {  /* empty under every order, or all digits new */
        uint8_t shown[9];
        if (givens) pattern_of(row, shown);
        int verdict = compare_row(givens ? shown : empty_row, identity, partial->labels, 0, best, labels, &top);
        if (!admit(verdict, kept)) return 1;
        if (!keep(kept, partial, source, NULL, partial->labels, 0)) return 0;
        if (givens) kept->at[kept->n - 1].pending = (uint8_t)source;
        return 1;
    }
    /* a second row with givens: the orders of the pending row, each with this row */
    const Orders *o = orders_of(rows, partial->orientation, partial->pending);
    for (int k = 0; k < o->n; k++) {
        int verdict = compare_row(row, o->orders[k], o->labels[k], o->top[k], best, labels, &top);
        if (admit(verdict, kept) && !keep(kept, partial, source, o->orders[k], labels, top)) return 0;
    }
    return 1;
}

int canonical_form(const uint8_t grid[81], uint8_t form[81]) {
    uint8_t rows[2][81];
    if (++puzzle_number == 0) memset(made_for, 0, sizeof made_for), puzzle_number = 1;
    for (int i = 0; i < 81; i++) rows[0][i] = grid[i], rows[1][(i % 9) * 9 + i / 9] = grid[i];
    Partials *now = &buffers[0], *kept = &buffers[1];
    now->n = 0;
    for (int o = 0; o < 2; o++) {
        Partial *p = push(now);
        if (!p) return 0;
        memset(p, 0, sizeof *p);
        p->orientation = (uint8_t)o;
        p->columns[0] = OPEN;
        p->pending = NONE;
    }
    for (int level = 0; level < 9; level++) {
        uint8_t best[9];
        memset(best, 0xFF, 9);
        kept->n = 0;
        for (size_t k = 0; k < now->n; k++) {
            const Partial *partial = &now->at[k];
            if (level % 3 == 0) {
                for (int r = 0; r < 9; r++)
                    if (!(partial->used_bands >> (r / 3) & 1) && !try_row(rows, partial, r, best, kept)) return 0;
            } else {
                int band = partial->placed[level - 1] / 3;
                for (int r = band * 3; r < band * 3 + 3; r++) {
                    int placed = 0;
                    for (int j = level - level % 3; j < level; j++) placed |= partial->placed[j] == r;
                    if (!placed && !try_row(rows, partial, r, best, kept)) return 0;
                }
            }
        }
        memcpy(form + level * 9, best, 9);
        Partials *swap = now;
        now = kept, kept = swap;
    }
    return 1;
}

/* The same form by brute force, for the tests: every one of the 3,359,232 geometric symmetries,
 * each relabelled in order of first appearance, the smallest kept (about 0.03 s a puzzle). */
void canonical_exhaustive(const uint8_t grid[81], uint8_t form[81]) {
    static uint8_t orders[COLUMN_ORDERS][9];
    int n = 0;
    for (int s = 0; s < 6; s++)
        for (int a = 0; a < 6; a++)
            for (int b = 0; b < 6; b++)
                for (int c = 0; c < 6; c++) {
                    const int within[3] = {a, b, c};
                    for (int j = 0; j < 9; j++) {
                        int stack = TRIPLES[s][j / 3];
                        orders[n][j] = (uint8_t)(stack * 3 + TRIPLES[within[stack]][j % 3]);
                    }
                    n++;
                }
    uint8_t rows[2][81];
    for (int i = 0; i < 81; i++) rows[0][i] = grid[i], rows[1][(i % 9) * 9 + i / 9] = grid[i];
    memset(form, 0xFF, 81);
    for (int o = 0; o < 2; o++)
        for (int r = 0; r < COLUMN_ORDERS; r++)
            for (int c = 0; c < COLUMN_ORDERS; c++) {
                uint8_t labels[10] = {0}, top = 0, out[81];
                int smaller = 0, k;
                for (k = 0; k < 81; k++) {
                    uint8_t d = rows[o][orders[r][k / 9] * 9 + orders[c][k % 9]];
                    if (d && !labels[d]) labels[d] = ++top;
                    out[k] = labels[d];
                    if (!smaller) {
                        if (out[k] > form[k]) break;
                        smaller = out[k] < form[k];
                    }
                }
                if (smaller) memcpy(form, out, 81);
            }
}
