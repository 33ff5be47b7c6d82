/* Aligned pair exclusion (solver/exclusion.py). */
#include "core.h"

/* The candidates of base cells a and b that belong to no possible pair of digits. */
static void exclusions(const mask_t *cands, int a, int b, bb_t excluders, mask_t *out_a,
                       mask_t *out_b) {
    int aligned = bb_has(PEER_BB[a], b);
    unsigned allowed_a = 0, allowed_b = 0;
    for (unsigned m = cands[a]; m; m &= m - 1) {
        unsigned bit = m & -m, banned = aligned ? bit : 0;
        for (bb_t r = excluders; r; r &= r - 1) {
            int e = bb_first(r);
            if (cands[e] & bit) banned |= cands[e] & ~bit;
        }
        unsigned left = cands[b] & ~banned;
        if (left) {
            allowed_a |= bit;
            allowed_b |= left;
        }
    }
    *out_a = (mask_t)(cands[a] & ~allowed_a);
    *out_b = (mask_t)(cands[b] & ~allowed_b);
}

Found aligned_pair_exclusion(Board *b) {
    const mask_t *cands = b->cands;
    bb_t bivalue = 0, single = 0;
    for (int i = 0; i < 81; i++) {
        if (pop(cands[i]) == 2) bivalue |= bb_cell(i);
        if (pop(cands[i]) == 1) single |= bb_cell(i);
    }
    /* SE's base cells, but those seeing one bivalue cell only: they pair with none, and the
     * pairs of the others keep their order */
    int base[81], n = 0;
    for (int i = 0; i < 81; i++) {
        bb_t seen = PEER_BB[i] & bivalue;
        if (pop(cands[i]) >= 2 && (seen & (seen - 1)) && !(PEER_BB[i] & single)) base[n++] = i;
    }
    for (int k = 1; k < n; k++) {
        int y = base[k];
        for (int j = 0; j < k; j++) {
            int x = base[j];
            bb_t common = PEER_BB[x] & PEER_BB[y] & bivalue;
            if (!(common & (common - 1))) continue;  /* fewer than two excluders */
            /* A digit of x goes only if every digit of y but one is an excluder's, and the
             * other way round: without that, nothing goes (the reference tries them all). */
            unsigned held = 0;
            for (bb_t r = common; r; r &= r - 1) held |= cands[bb_first(r)];
            if (pop(cands[y] & ~held) > 1 && pop(cands[x] & ~held) > 1) continue;
            mask_t out_x, out_y;
            exclusions(cands, x, y, common, &out_x, &out_y);
            if (out_x || out_y) {
                Found first = board_remove(b, bb_cell(x), out_x);
                if (first.why.kind) return first;
                Found second = board_remove(b, bb_cell(y), out_y);
                return second.why.kind ? second : ONE;
            }
        }
    }
    return NOTHING;
}
