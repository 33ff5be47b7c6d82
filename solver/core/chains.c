/* Forcing chains from a two-candidate cell (solver/chains.py). */
#include <string.h>

#include "core.h"

static void state_of(const Board *b, mask_t c[STATE]) {
    board_masks(b, c);
    for (int u = 0; u < 27; u++) {
        mask_t placed = 0;
        for (int k = 0; k < 9; k++) {
            int v = b->values[UNITS[u][k]];
            if (v) placed |= (mask_t)(1u << (v - 1));
        }
        c[81 + u] = placed;
    }
}

/* Assume `bit` in cell i and propagate: 1 and the state in `child`, or 0 on a contradiction;
 * `length` gets how many cells changed (the unsolved cells, on a contradiction). */
static int branch(const mask_t base[STATE], int i, mask_t bit, mask_t child[STATE], int *length) {
    int stack[96];
    memcpy(child, base, STATE * sizeof(mask_t));
    child[i] = bit;
    stack[0] = i;
    int n = 0;
    if (!propagate(child, stack, 1, CELL_UNITS[i])) {
        for (int k = 0; k < 81; k++) n += pop(base[k]) > 1;
        *length = n;
        return 0;
    }
    for (int k = 0; k < 81; k++) n += child[k] != base[k];
    *length = n;
    return 1;
}

static Found conclude(Board *b, int i, const mask_t base[STATE]) {
    mask_t lo = (mask_t)(base[i] & -base[i]), hi = (mask_t)(base[i] ^ lo);
    mask_t left[STATE], right[STATE];
    int n1, n2;
    int left_ok = branch(base, i, lo, left, &n1);
    int right_ok = branch(base, i, hi, right, &n2);
    if (!left_ok || !right_ok) {
        if (!left_ok && !right_ok) return broken(BOTH_BRANCHES, i, 0);
        Found found = board_place(b, i, !left_ok ? hi : lo);
        return with_bonus(found, T.length_bonus[!left_ok ? n1 : n2]);
    }
    Found found = NOTHING;
    for (int k = 0; k < 81; k++) {
        unsigned agreed = left[k] | right[k];
        if (b->cands[k] & ~agreed)
            found = found_add(found, board_remove(b, bb_cell(k), (mask_t)(~agreed & ALL_DIGITS)));
    }
    return found.fired ? with_bonus(found, T.length_bonus[n1 < n2 ? n1 : n2]) : found;
}

Found forcing_chain(Board *b) {
    mask_t base[STATE];
    state_of(b, base);
    for (int i = 0; i < 81; i++) {
        if (pop(b->cands[i]) == 2) {
            Found found = conclude(b, i, base);
            if (found.fired || found.why.kind) return found;
        }
    }
    return NOTHING;
}
