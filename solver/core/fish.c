/* Basic fish (solver/fish.py): X-Wing, swordfish, jellyfish. */
#include "core.h"

/* The fish of `size` for one digit, base lines being columns (transpose) or rows. */
static Found fish_one(Board *b, mask_t bit, int size, int transpose) {
    const uint16_t (*where)[9] = board_positions(b);
    unsigned spots[9];
    for (int n = 0; n < 9; n++) spots[n] = where[transpose ? 9 + n : n][digit_of(bit) - 1];
    int eligible[9], ne = 0, idx[4];
    Found found = NOTHING;
    for (int n = 0; n < 9; n++) {
        if (pop(spots[n]) > 1 && pop(spots[n]) <= size) eligible[ne++] = n;
    }
    for (int more = comb_first(idx, size, ne); more; more = comb_next(idx, size, ne)) {
        unsigned join = 0, group = 0;
        for (int k = 0; k < size; k++) {
            join |= spots[eligible[idx[k]]];
            group |= 1u << eligible[idx[k]];
        }
        if (pop(join) != size) continue;
        bb_t cells = 0;
        for (int k = 0; k < 9; k++) {
            if (!(join >> k & 1)) continue;
            for (int n = 0; n < 9; n++) {
                if (!(group >> n & 1)) cells |= bb_cell(transpose ? k * 9 + n : n * 9 + k);
            }
        }
        found = found_add(found, board_remove(b, cells, bit));
        if (found.why.kind) break;
    }
    return found;
}

static Found fish(Board *b, int size) {
    int placed[10] = {0};
    Found found = NOTHING;
    for (int i = 0; i < 81; i++) placed[b->values[i]]++;
    for (int d = 1; d <= 9; d++) {
        if (placed[d] + 2 * size <= 9) {
            for (int transpose = 1; transpose >= 0; transpose--) {
                found = found_add(found, fish_one(b, (mask_t)(1u << (d - 1)), size, transpose));
                if (found.why.kind) return found;
            }
        }
    }
    return found;
}

Found x_wing(Board *b) { return fish(b, 2); }
Found swordfish(Board *b) { return fish(b, 3); }
Found jellyfish(Board *b) { return fish(b, 4); }
