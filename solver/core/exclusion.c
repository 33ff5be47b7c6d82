/* Aligned pair and triplet exclusion (solver/exclusion.py). */
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

/* The candidates of base cells c[0..2] that belong to no possible triple of digits; 0 when none
 * goes. */
static int triplet_exclusions(const mask_t *cands, const int c[3], bb_t excluders,
                              mask_t out[3]) {
    int see_xy = bb_has(PEER_BB[c[0]], c[1]), see_xz = bb_has(PEER_BB[c[0]], c[2]);
    int see_yz = bb_has(PEER_BB[c[1]], c[2]);
    unsigned locks[20];
    int n = 0;
    for (bb_t r = excluders; r; r &= r - 1) locks[n++] = cands[bb_first(r)];
    unsigned full[3] = {cands[c[0]], cands[c[1]], cands[c[2]]}, allowed[3] = {0, 0, 0};
    for (unsigned mx = full[0]; mx; mx &= mx - 1) {
        unsigned dx = mx & -mx;
        for (unsigned my = full[1]; my; my &= my - 1) {
            unsigned dy = my & -my;
            if (dx == dy && see_xy) continue;
            for (unsigned mz = full[2]; mz; mz &= mz - 1) {
                unsigned dz = mz & -mz;
                if ((dz == dx && see_xz) || (dz == dy && see_yz)) continue;
                unsigned held = dx | dy | dz;
                int locked = 0;
                for (int k = 0; k < n && !locked; k++) locked = !(locks[k] & ~held);
                if (locked) continue;  /* an excluder would be left empty */
                allowed[0] |= dx;
                allowed[1] |= dy;
                allowed[2] |= dz;
            }
            if (allowed[0] == full[0] && allowed[1] == full[1] && allowed[2] == full[2]) return 0;
        }
    }
    int any = 0;
    for (int k = 0; k < 3; k++) {
        out[k] = (mask_t)(full[k] & ~allowed[k]);
        any |= out[k] != 0;
    }
    return any;
}

Found aligned_triplet_exclusion(Board *b) {
    work_charge(WORK_TRIPLET);
    const mask_t *cands = b->cands;
    bb_t few = 0, single = 0;
    for (int i = 0; i < 81; i++) {
        int n = pop(cands[i]);
        if (n == 2 || n == 3) few |= bb_cell(i);
        if (n == 1) single |= bb_cell(i);
    }
    int base[81], n = 0;
    bb_t thirds = 0;  /* base cells that can be a third: those of two or three candidates */
    for (int i = 0; i < 81; i++) {
        if (pop(cands[i]) >= 2 && (PEER_BB[i] & few) && !(PEER_BB[i] & single)) {
            base[n++] = i;
            if (bb_has(few, i)) thirds |= bb_cell(i);
        }
    }
    for (int k = 1; k < n; k++) {
        int y = base[k];
        for (int j = 0; j < k; j++) {
            int x = base[j];
            bb_t common = PEER_BB[x] & PEER_BB[y] & few;
            if (!(common & (common - 1))) continue;  /* fewer than two excluders, for any third */
            /* SE's twin area: the thirds among x's peers, then among y's, in SE's peer order */
            bb_t tried = bb_cell(x) | bb_cell(y);
            for (int t = 0; t < 40; t++) {
                int z = t < 20 ? T.se_peers[x][t] : T.se_peers[y][t - 20];
                if (!bb_has(thirds, z) || bb_has(tried, z)) continue;
                tried |= bb_cell(z);
                bb_t excluders = common & PEER_BB[z];
                if (!(excluders & (excluders - 1))) continue;
                int cells[3] = {x, y, z};
                mask_t out[3];
                if (!triplet_exclusions(cands, cells, excluders, out)) continue;
                for (int m = 0; m < 3; m++) {
                    Found found = board_remove(b, bb_cell(cells[m]), out[m]);
                    if (found.why.kind) return found;
                }
                return ONE;
            }
        }
    }
    return NOTHING;
}
