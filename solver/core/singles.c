/* Singles (solver/singles.py): full house, hidden single in a box or a line, naked single. */
#include "core.h"

static Found hidden_singles(Board *b, int first_unit, int last_unit, int alone) {
    mask_t *cands = b->cands;
    Found found = NOTHING;
    for (int u = first_unit; u < last_unit; u++) {
        /* Only units with one empty cell (alone) or with several can fire: skip the rest. */
        if (alone ? b->unit_empty[u] != 1 : b->unit_empty[u] < 2) continue;
        const uint8_t *unit = UNITS[u];
        unsigned once = 0, twice = 0;
        int empty = 0;
        for (int k = 0; k < 9; k++) {
            unsigned c = cands[unit[k]];
            if (c) empty++;
            twice |= once & c;
            once |= c;
        }
        if (!once || (empty == 1) != alone) continue;
        for (unsigned m = once & ~twice; m; m &= m - 1) {
            mask_t bit = (mask_t)(m & -m);
            int cell = -1;
            for (int k = 0; k < 9; k++) {
                if (cands[unit[k]] & bit) {
                    cell = unit[k];
                    break;
                }
            }
            /* none left: an earlier placement of this sweep took the digit's last place */
            if (cell < 0) return found_add(found, broken(NO_PLACE, u, digit_of(bit)));
            found = found_add(found, board_place(b, cell, bit));
            if (found.why.kind) return found;
        }
    }
    return found;
}

Found full_house(Board *b) { return hidden_singles(b, 0, 27, 1); }
Found hidden_single_box(Board *b) { return hidden_singles(b, 18, 27, 0); }
Found hidden_single_line(Board *b) { return hidden_singles(b, 0, 18, 0); }

Found naked_single(Board *b) {
    Found found = NOTHING;
    for (int i = 0; i < 81; i++) {
        unsigned c = b->cands[i];
        if (c && !(c & (c - 1))) {
            found = found_add(found, board_place(b, i, (mask_t)c));
            if (found.why.kind) return found;
        }
    }
    return found;
}

/* SE's direct hint (solver/singles.py removal_and_single): remove `mask` from `cells`, then
 * place `bit` in cell i; one change, or the contradiction met. */
Found removal_and_single(Board *b, bb_t cells, mask_t mask, int i, mask_t bit) {
    Found found = board_remove(b, cells, mask);
    if (found.why.kind) return found;
    Found placed = board_place(b, i, bit);
    Found out = {1, 0, placed.why};
    return out;
}
