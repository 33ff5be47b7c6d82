/* Naked and hidden subsets and SE's direct hidden pair/triple (solver/subsets.py). */
#include "core.h"

static int naked_subsets(Board *b, int size) {
    mask_t *cands = b->cands;
    int fired = 0, idx[4];
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
            int hit = 0;
            for (int k = 0; k < ne; k++) {
                if (!bb_has(group, empty[k])) hit |= board_eliminate(b, empty[k], (mask_t)join);
            }
            fired += hit;
        }
    }
    return fired;
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

static int hidden_subsets(Board *b, int size) {
    static HiddenSet found[MAX_HIDDEN];  /* the core runs under the GIL: one caller at a time */
    int n = hidden_sets(b, size, 0, found), fired = 0;
    for (int k = 0; k < n; k++) {
        int hit = 0;
        for (unsigned m = found[k].spots; m; m &= m - 1) {
            int i = UNITS[found[k].unit][low_bit_index(m)];
            hit |= board_eliminate(b, i, (mask_t)(ALL_DIGITS & ~found[k].keep));
        }
        fired += hit;
    }
    return fired;
}

static int direct_hidden_subsets(Board *b, int size) {
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

int naked_pair(Board *b) { return naked_subsets(b, 2); }
int naked_triple(Board *b) { return naked_subsets(b, 3); }
int naked_quad(Board *b) { return naked_subsets(b, 4); }
int hidden_pair(Board *b) { return hidden_subsets(b, 2); }
int hidden_triple(Board *b) { return hidden_subsets(b, 3); }
int hidden_quad(Board *b) { return hidden_subsets(b, 4); }
int direct_hidden_pair(Board *b) { return direct_hidden_subsets(b, 2); }
int direct_hidden_triple(Board *b) { return direct_hidden_subsets(b, 3); }
