/* XY-Wing and XYZ-Wing (solver/wings.py). */
#include "core.h"

typedef struct {
    bb_t sees;
    mask_t z;
} Wing;

static int find_wings(const Board *b, int xyz, Wing *found) {
    const mask_t *cands = b->cands;
    int n = 0;
    for (int pivot = 0; pivot < 81; pivot++) {
        unsigned pm = cands[pivot];
        if (pop(pm) != (xyz ? 3 : 2)) continue;
        int wings[20], nw = 0;
        for (int k = 0; k < 20; k++) {
            int p = PEERS[pivot][k];
            if (pop(cands[p]) == 2 && (cands[p] & pm)) wings[nw++] = p;
        }
        for (int x = 0; x < nw; x++) {
            unsigned m1 = cands[wings[x]];
            for (int y = x + 1; y < nw; y++) {
                unsigned m2 = cands[wings[y]], z = m1 & m2;
                if (m1 == m2 || pop(z) != 1) continue;
                int ok;
                bb_t sees = PEER_BB[wings[x]] & PEER_BB[wings[y]];
                if (xyz) {
                    ok = (m1 | m2) == pm;
                    sees &= PEER_BB[pivot];
                } else {
                    ok = ((m1 | m2) & ~z) == pm && !(pm & z);
                }
                if (ok) found[n++] = (Wing){sees, (mask_t)z};
            }
        }
    }
    return n;
}

static Found apply_wings(Board *b, int xyz) {
    static Wing found[81 * 190];  /* the core runs under the GIL: one caller at a time */
    int n = find_wings(b, xyz, found);
    Found out = NOTHING;
    for (int k = 0; k < n; k++) {
        out = found_add(out, board_remove(b, found[k].sees, found[k].z));
        if (out.why.kind) break;
    }
    return out;
}

Found xy_wing(Board *b) { return apply_wings(b, 0); }
Found xyz_wing(Board *b) { return apply_wings(b, 1); }
