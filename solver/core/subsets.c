/* Naked and hidden subsets and SE's direct hidden pair/triple (solver/subsets.py). */
#include "core.h"

static Found naked_subsets(Board *b, int size) {
    mask_t *cands = b->cands;
    Found found = NOTHING;
    int idx[4];
    for (int u = 0; u < 27; u++) {
        int empty[9], small[9], ne = 0, ns = 0;
        for (int k = 0; k < 9; k++) {
            int i = UNITS[u][k];
            if (cands[i]) empty[ne++] = i;
        }
        if (ne < 2 * size) continue;
        for (int k = 0; k < ne; k++) {
            if (pop(cands[empty[k]]) <= size) small[ns++] = empty[k];
        }
        for (int more = comb_first(idx, size, ns); more; more = comb_next(idx, size, ns)) {
            unsigned join = 0;
            bb_t group = 0;
            for (int k = 0; k < size; k++) {
                join |= cands[small[idx[k]]];
                group |= bb_cell(small[idx[k]]);
            }
            if (pop(join) != size) continue;
            bb_t others = 0;
            for (int k = 0; k < ne; k++) others |= bb_cell(empty[k]);
            found = found_add(found, board_remove(b, others & ~group, (mask_t)join));
            if (found.why.kind) return found;
        }
    }
    return found;
}

typedef struct {
    int unit;
    unsigned keep;   /* the subset's digits (bit d for digit d+1) */
    unsigned spots;  /* its cells, as positions 0-8 along the unit */
} HiddenSet;

#define MAX_HIDDEN (27 * 126)

static int hidden_sets(Board *b, int size, int is_direct, HiddenSet *found) {
    const uint16_t (*where)[9] = board_positions(b);
    int n = 0, idx[4];
    for (int u = 0; u < 27; u++) {
        if (b->unit_empty[u] <= (is_direct ? size : 2 * size)) continue;
        int digits[9], nd = 0;
        for (int d = 0; d < 9; d++) {
            int count = pop(where[u][d]);
            if (count > 1 && count <= size) digits[nd++] = d;
        }
        for (int more = comb_first(idx, size, nd); more; more = comb_next(idx, size, nd)) {
            unsigned spots = 0, keep = 0;
            for (int k = 0; k < size; k++) {
                spots |= where[u][digits[idx[k]]];
                keep |= 1u << digits[idx[k]];
            }
            if (pop(spots) == size) found[n++] = (HiddenSet){u, keep, spots};
        }
    }
    return n;
}

static Found hidden_subsets(Board *b, int size) {
    static HiddenSet found[MAX_HIDDEN];  /* the core runs under the GIL: one caller at a time */
    int n = hidden_sets(b, size, 0, found);
    Found out = NOTHING;
    for (int k = 0; k < n; k++) {
        bb_t cells = 0;
        for (unsigned m = found[k].spots; m; m &= m - 1)
            cells |= bb_cell(UNITS[found[k].unit][low_bit_index(m)]);
        out = found_add(out, board_remove(b, cells, (mask_t)(ALL_DIGITS & ~found[k].keep)));
        if (out.why.kind) break;
    }
    return out;
}

/* SE's first hidden subset of `size` leaving another digit a single place in its unit: its
 * removals, then that digit placed; digit sets by ascending mask, as the reference. */
static Found direct_hidden_subsets(Board *b, int size) {
    const uint16_t (*positions)[9] = board_positions(b);
    for (int n = 0; n < 27; n++) {
        int u = T.se_direct_units[n];  /* SE's order: solver/subsets.py SE_DIRECT_UNITS */
        if (b->unit_empty[u] <= size) continue;
        const uint16_t *where = positions[u];
        unsigned eligible = 0;
        for (int d = 0; d < 9; d++) {
            int count = pop(where[d]);
            if (count > 1 && count <= size) eligible |= 1u << d;
        }
        /* the subsets of `eligible` in ascending order */
        for (unsigned keep = (0u - eligible) & eligible; keep; keep = (keep - eligible) & eligible) {
            if (pop(keep) != size) continue;
            unsigned spots = 0;
            for (unsigned m = keep; m; m &= m - 1) spots |= where[low_bit_index(m)];
            if (pop(spots) != size) continue;
            for (int d = 0; d < 9; d++) {
                if ((keep >> d & 1) || pop(where[d]) < 2) continue;
                unsigned left = where[d] & ~spots;
                if (pop(left) == 1) {
                    bb_t cells = 0;
                    for (unsigned m = spots; m; m &= m - 1)
                        cells |= bb_cell(UNITS[u][low_bit_index(m)]);
                    return removal_and_single(b, cells, (mask_t)(ALL_DIGITS & ~keep),
                                              UNITS[u][low_bit_index(left)], (mask_t)(1u << d));
                }
            }
        }
    }
    return NOTHING;
}

/* SukakuExplainer's direct hidden sets (Juillerat's SE's): each one's single placed, the
 * removals not applied (solver/subsets.py sukaku_direct_hidden_subsets). */
static Found sukaku_direct_hidden_subsets(Board *b, int size) {
    static HiddenSet found[MAX_HIDDEN];
    static int placements[MAX_HIDDEN][2];
    int n = hidden_sets(b, size, 1, found), count = 0;
    const uint16_t (*positions)[9] = board_positions(b);
    for (int k = 0; k < n; k++) {
        const uint8_t *unit = UNITS[found[k].unit];
        const uint16_t *where = positions[found[k].unit];
        for (int d = 0; d < 9; d++) {
            if ((found[k].keep >> d & 1) || pop(where[d]) < 2) continue;
            unsigned left = where[d] & ~found[k].spots;
            if (pop(left) == 1) {
                placements[count][0] = unit[low_bit_index(left)];
                placements[count][1] = 1 << d;
                count++;
                break;
            }
        }
    }
    return place_all(b, (const int (*)[2])placements, count);
}

Found naked_pair(Board *b) { return naked_subsets(b, 2); }
Found naked_triple(Board *b) { return naked_subsets(b, 3); }
Found naked_quad(Board *b) { return naked_subsets(b, 4); }
Found hidden_pair(Board *b) { return hidden_subsets(b, 2); }
Found hidden_triple(Board *b) { return hidden_subsets(b, 3); }
Found hidden_quad(Board *b) { return hidden_subsets(b, 4); }
Found direct_hidden_pair(Board *b) { return direct_hidden_subsets(b, 2); }
Found direct_hidden_triple(Board *b) { return direct_hidden_subsets(b, 3); }
Found sukaku_direct_hidden_pair(Board *b) { return sukaku_direct_hidden_subsets(b, 2); }
Found sukaku_direct_hidden_triple(Board *b) { return sukaku_direct_hidden_subsets(b, 3); }
