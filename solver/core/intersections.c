/* Locked candidates (solver/intersections.py): pointing, claiming and their direct forms. */
#include "core.h"

/* The unit of the same kind as `unit` (row, column or box) that holds cell i. */
static int parallel(int unit, int i) {
    if (unit < 9) return ROW_OF[i];
    if (unit < 18) return 9 + COL_OF[i];
    return 18 + BOX_OF[i];
}

/* For each source unit, the units of the other kind crossing it (3 lines of a box, or 3 boxes
 * of a line), ascending as the reference lists them, with the cells they share as positions
 * in the source and in the target. */
typedef struct {
    int target;
    unsigned in_source, in_target;
} Crossing;

static Crossing crossing[27][6];
static int n_crossing[27];
/* by a source's positions of a digit (two or more): 1 + the crossing holding them all, else 0 */
static uint8_t crossing_holding[27][512];

static unsigned positions_of(int u, bb_t cells) {
    unsigned out = 0;
    for (int k = 0; k < 9; k++) {
        if (bb_has(cells, UNITS[u][k])) out |= 1u << k;
    }
    return out;
}

static void make_crossings(void) {
    for (int s = 0; s < 27; s++) {
        int first = s >= 18 ? 0 : 18, last = s >= 18 ? 18 : 27;
        for (int t = first; t < last; t++) {
            bb_t shared = UNIT_BB[s] & UNIT_BB[t];
            if (shared)
                crossing[s][n_crossing[s]++] = (Crossing){t, positions_of(s, shared), positions_of(t, shared)};
        }
        for (unsigned inside = 0; inside < 512; inside++) {
            if (!(inside & (inside - 1))) continue;
            for (int k = 0; k < n_crossing[s]; k++) {
                if (!(inside & ~crossing[s][k].in_source)) {
                    crossing_holding[s][inside] = (uint8_t)(k + 1);
                    break;
                }
            }
        }
    }
}

/* Every (digit, source, target): the digit's candidates in the source (a box when pointing,
 * a line when claiming) all lie in the target, and the target has others outside. */
const Lock *board_locks(Board *b, int is_pointing, int *count) {
    if (!n_crossing[0]) make_crossings();
    if (b->locks_at[is_pointing] != b->version) {
        const uint16_t (*where)[9] = board_positions(b);
        Lock *found = b->locks[is_pointing];
        int first = is_pointing ? 18 : 0, last = is_pointing ? 27 : 18, n = 0;
        for (int d = 0; d < 9; d++) {
            for (int s = first; s < last; s++) {
                int k = crossing_holding[s][where[s][d]];
                if (!k) continue;
                const Crossing *x = &crossing[s][k - 1];
                if (where[x->target][d] & ~x->in_target) found[n++] = (Lock){d, s, x->target};
            }
        }
        b->n_locks[is_pointing] = n;
        b->locks_at[is_pointing] = b->version;
    }
    *count = b->n_locks[is_pointing];
    return b->locks[is_pointing];
}

static Found locked(Board *b, int is_pointing) {
    int n;
    Found out = NOTHING;
    const Lock *found = board_locks(b, is_pointing, &n);
    for (int k = 0; k < n; k++) {
        mask_t bit = (mask_t)(1u << found[k].digit);
        bb_t cells = UNIT_BB[found[k].target] & ~UNIT_BB[found[k].source];
        out = found_add(out, board_remove(b, cells, bit));
        if (out.why.kind) break;
    }
    return out;
}

/* SE's first locked pattern leaving the digit a single place in another unit of the source's
 * kind: its removals, then that digit placed. The (source, target) pairs in SE's order come
 * from the reference (solver/intersections.py SE_DIRECT_LOCKS); digits ascending; the other
 * units of the source's kind crossing the target ascending. */
static Found direct(Board *b, int is_pointing) {
    int locks;
    /* kept for the position: the pattern is one of them, so only their (source, target)
     * pairs are visited, with the digits locked there */
    const Lock *lock = board_locks(b, is_pointing, &locks);
    if (!locks) return NOTHING;
    static uint16_t locked_digits[27][27];
    for (int k = 0; k < locks; k++) locked_digits[lock[k].source][lock[k].target] |= (uint16_t)(1u << lock[k].digit);
    const bb_t *boards = board_digits(b);
    Found out = NOTHING;
    int done = 0;
    for (int n = 0, left_to_see = locks; n < DIRECT_LOCKS && left_to_see && !done; n++) {
        int s = T.se_direct_locks[is_pointing][n][0], t = T.se_direct_locks[is_pointing][n][1];
        unsigned digits = locked_digits[s][t];
        if (!digits) continue;
        locked_digits[s][t] = 0;
        left_to_see -= pop(digits);
        uint32_t others = 0;
        for (int j = 0; j < 9; j++) others |= 1u << parallel(s, UNITS[t][j]);
        others &= ~(1u << s);
        for (; digits && !done; digits &= digits - 1) {
            int d = __builtin_ctz(digits);
            bb_t bb = boards[d];
            bb_t removed = bb & UNIT_BB[t] & ~UNIT_BB[s];
            for (uint32_t m = others; m; m &= m - 1) {
                bb_t spots = bb & UNIT_BB[__builtin_ctz(m)];
                bb_t left = spots & ~removed;
                if (bb_pop(spots) > 1 && bb_pop(left) == 1) {
                    out = removal_and_single(b, UNIT_BB[t] & ~UNIT_BB[s], (mask_t)(1u << d), bb_first(left),
                                             (mask_t)(1u << d));
                    done = 1;
                    break;
                }
            }
        }
    }
    for (int k = 0; k < locks; k++) locked_digits[lock[k].source][lock[k].target] = 0;
    return out;
}

/* SukakuExplainer's direct forms (Juillerat's SE's): every pattern's single placed, the
 * removals not applied (solver/intersections.py _sukaku_direct). */
static Found sukaku_direct(Board *b, int is_pointing) {
    int placements[2 * MAX_LOCKS][2];
    const bb_t *boards = board_digits(b);
    int n, count = 0;
    const Lock *found = board_locks(b, is_pointing, &n);
    for (int k = 0; k < n; k++) {
        bb_t bb = boards[found[k].digit];
        int source = found[k].source, target = found[k].target;
        bb_t removed = bb & UNIT_BB[target] & ~UNIT_BB[source];
        uint32_t seen = 0;
        for (int j = 0; j < 9; j++) {
            int other = parallel(source, UNITS[target][j]);
            if (other == source || (seen >> other & 1)) continue;
            seen |= 1u << other;
            bb_t spots = bb & UNIT_BB[other];
            bb_t left = spots & ~removed;
            if (bb_pop(spots) > 1 && bb_pop(left) == 1) {
                placements[count][0] = bb_first(left);
                placements[count][1] = 1 << found[k].digit;
                count++;
            }
        }
    }
    return place_all(b, (const int (*)[2])placements, count);
}

Found pointing(Board *b) { return locked(b, 1); }
Found claiming(Board *b) { return locked(b, 0); }
Found direct_pointing(Board *b) { return direct(b, 1); }
Found direct_claiming(Board *b) { return direct(b, 0); }
Found sukaku_direct_pointing(Board *b) { return sukaku_direct(b, 1); }
Found sukaku_direct_claiming(Board *b) { return sukaku_direct(b, 0); }
