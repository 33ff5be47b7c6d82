/* BUG types 1 to 4 (solver/bug.py). */
#include "core.h"

typedef struct {
    int cells[81], n;             /* the BUG cells, in the order SE finds them */
    mask_t values[81];            /* the BUG values of each */
    mask_t every;                 /* all BUG values */
    bb_t common;                  /* the other cells that see every BUG cell */
} Grave;

/* Add BUG value `bit` of `cell`; the cells that see every BUG cell, updated. */
static void add(Grave *g, int cell, mask_t bit, bb_t *bug) {
    int at = 0;
    while (at < g->n && g->cells[at] != cell) at++;
    if (at == g->n) {
        g->cells[g->n] = cell;
        g->values[g->n++] = 0;
    }
    g->values[at] |= bit;
    *bug |= bb_cell(cell);
    g->common &= PEER_BB[cell] & ~*bug;
}

/* The BUG cells and values SE finds (0: not one away from a grave, or no type can use it);
 * SukakuExplainer's (`sukaku`) with the wide cells of a single breaking digit too. */
static int bug_cells(const mask_t *cands, const uint16_t (*where)[9], Grave *g, int sukaku) {
    g->n = 0;
    g->every = 0;
    g->common = ~(bb_t)0;
    bb_t bug = 0, wide_cells = 0;
    int tracking = 0, one_digit = 1;
    mask_t only = 0;
    for (int k = 0; k < 27; k++) {
        int u = T.se_unit_order[k];  /* SE's order: boxes, rows, columns */
        for (int d = 0; d < 9; d++) {
            mask_t bit = (mask_t)(1u << d);
            unsigned places = where[u][d];
            if (places == 0 || pop(places) == 2) continue;
            int wide = 0, cell = -1;
            bb_t these = 0;
            for (; places; places &= places - 1) {
                int i = UNITS[u][__builtin_ctz(places)];
                if (pop(cands[i]) >= 3) {
                    wide++;
                    cell = i;
                    these |= bb_cell(i);
                }
            }
            if (sukaku) {
                if (!tracking) {
                    tracking = 1;
                    wide_cells = these;
                    only = bit;
                } else if (one_digit && bit == only) {
                    wide_cells |= these;
                } else {
                    one_digit = 0;
                }
            }
            if (!wide) return 0;
            if (wide > 1) continue;
            add(g, cell, bit, &bug);
            g->every |= bit;
            if (g->n > 1 && pop(g->every) > 1 && !g->common) return 0;
        }
    }
    if (one_digit && tracking && bb_pop(wide_cells) > g->n) {
        for (bb_t r = wide_cells & ~bug; r; r &= r - 1) {
            add(g, bb_first(r), only, &bug);
            if (g->n > 1 && pop(g->every) > 1 && !g->common) return 0;
        }
    }
    return g->n > 0;
}

/* The BUG cells and values when removing the BUG values leaves a grave (else 0). */
static int grave(Board *b, Grave *g, int sukaku) {
    /* the BUG rungs are tried in turn on one board: a board without a grave is marked */
    if (b->no_grave_at == b->version && b->no_grave_sukaku == sukaku) return 0;
    b->no_grave_at = b->version;
    b->no_grave_sukaku = sukaku;
    if (!bug_cells(b->cands, board_positions(b), g, sukaku)) return 0;
    mask_t rest[81];
    for (int i = 0; i < 81; i++) rest[i] = b->cands[i];
    for (int k = 0; k < g->n; k++) rest[g->cells[k]] &= (mask_t)~g->values[k];
    for (int i = 0; i < 81; i++) {
        if (!b->values[i] && pop(rest[i]) != 2) return 0;
    }
    for (int u = 0; u < 27; u++) {
        for (int d = 0; d < 9; d++) {
            int places = 0;
            for (int j = 0; j < 9; j++) places += (rest[UNITS[u][j]] >> d) & 1;
            if (places != 0 && places != 2) return 0;
        }
    }
    b->no_grave_at = 0;
    return 1;
}

Found bug(Board *b) {
    const mask_t *cands = b->cands;
    int triple = -1;
    for (int i = 0; i < 81; i++) {
        int n = pop(cands[i]);
        if (n > 3 || (n == 3 && triple >= 0)) return NOTHING;
        if (n == 3) triple = i;
    }
    if (triple < 0) return NOTHING;
    for (unsigned m = cands[triple]; m; m &= m - 1) {
        mask_t bit = (mask_t)(m & -m);
        int in_row = 0, in_col = 0;
        for (int k = 0; k < 9; k++) {
            in_row += (cands[UNITS[ROW_OF[triple]][k]] & bit) != 0;
            in_col += (cands[UNITS[9 + COL_OF[triple]][k]] & bit) != 0;
        }
        if (in_row == 3 && in_col == 3) return board_place(b, triple, bit);
    }
    return NOTHING;
}

static Found type_2(Board *b, int sukaku) {
    Grave g;
    if (!grave(b, &g, sukaku) || g.n < 2 || pop(g.every) != 1) return NOTHING;
    return board_remove(b, g.common, g.every);
}

static Found type_4(Board *b, int sukaku) {
    Grave g;
    if (!grave(b, &g, sukaku) || g.n != 2) return NOTHING;
    if (pop(g.every) != 1 && !g.common) return NOTHING;
    int x = g.cells[0], y = g.cells[1];
    const mask_t *cands = b->cands;
    unsigned shared = cands[x] & cands[y] & ~g.every;
    if (pop(shared) != 1 || !bb_has(PEER_BB[x], y)) return NOTHING;
    Found first = board_remove(b, bb_cell(x), (mask_t)(cands[x] & ~g.values[0] & ~shared));
    if (first.why.kind) return first;
    Found second = board_remove(b, bb_cell(y), (mask_t)(cands[y] & ~g.values[1] & ~shared));
    return second.why.kind ? second : ONE;
}

/* The first naked set of `size` digits in unit u that the BUG values complete, its digits
 * removed from the unit's other cells that see every BUG cell. */
static Found naked_set(Board *b, const Grave *g, int u, int size) {
    const mask_t *cands = b->cands;
    int others[9], n = 0, idx[8];
    for (bb_t r = g->common & UNIT_BB[u]; r; r &= r - 1) others[n++] = bb_first(r);
    if (n < size) return NOTHING;
    for (int more = comb_first(idx, size - 1, n); more; more = comb_next(idx, size - 1, n)) {
        unsigned join = 0;
        int narrow = 0;
        bb_t naked = 0;
        for (int k = 0; k < size - 1; k++) {
            int i = others[idx[k]];
            join |= cands[i];
            narrow |= pop(cands[i]) < 2;
            naked |= bb_cell(i);
        }
        if (pop(join) != size || (g->every & ~join) || narrow) continue;
        bb_t rest = 0;
        for (int k = 0; k < n; k++) rest |= bb_cell(others[k]);
        Found found = board_remove(b, rest & ~naked, (mask_t)join);
        if (found.fired) return found;
    }
    return NOTHING;
}

static Found type_3(Board *b, int sukaku) {
    Grave g;
    if (!grave(b, &g, sukaku) || g.n < 2 || pop(g.every) < 2 || !g.common) return NOTHING;
    int first = g.cells[0], units[3], nu = 0;
    const uint8_t *mine = T.se_units_of[first];  /* its box, row, column */
    for (int t = 0; t < 3; t++) {
        int shared = 1;
        for (int k = 0; k < g.n; k++) shared &= bb_has(UNIT_BB[mine[t]], g.cells[k]);
        if (shared) units[nu++] = mine[t];
    }
    int sizes = T.bug_largest_set - 1;  /* sizes 2 .. largest */
    for (int k = 0; k < nu * sizes; k++) {
        /* classic SE: unit, then size; SukakuExplainer: size, then unit */
        int u = sukaku ? units[k % nu] : units[k / sizes];
        int size = 2 + (sukaku ? k / nu : k % sizes);
        Found found = naked_set(b, &g, u, size);
        if (found.fired) return with_bonus(found, T.bug_type_3_bonus * (size - 1));
    }
    return NOTHING;
}

Found bug_type_2(Board *b) { return type_2(b, 0); }
Found bug_type_3(Board *b) { return type_3(b, 0); }
Found bug_type_4(Board *b) { return type_4(b, 0); }
Found sukaku_bug_type_2(Board *b) { return type_2(b, 1); }
Found sukaku_bug_type_3(Board *b) { return type_3(b, 1); }
Found sukaku_bug_type_4(Board *b) { return type_4(b, 1); }
