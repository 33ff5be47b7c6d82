/* Unique rectangle types 1 and 2, and BUG type 1 (solver/uniqueness.py). */
#include "core.h"

/* The rectangles of four cells spread over exactly two boxes that may hold a common pair, in
 * the reference's order (rows r1 < r2, then columns c1 < c2): columns where the two rows'
 * cells share fewer than two candidates are skipped, as no rectangle on them can fire. Read
 * before any removal, the list can only hold too many (each is checked afresh), never miss. */
static int rectangles(const mask_t *cands, int found[][4]) {
    int n = 0;
    for (int r1 = 0; r1 < 9; r1++) {
        for (int r2 = r1 + 1; r2 < 9; r2++) {
            unsigned cols = 0;
            for (int c = 0; c < 9; c++)
                cols |= (unsigned)(pop(cands[r1 * 9 + c] & cands[r2 * 9 + c]) >= 2) << c;
            for (unsigned m1 = cols; m1 & (m1 - 1); m1 &= m1 - 1) {
                int c1 = low_bit_index(m1);
                for (unsigned m2 = m1 & (m1 - 1); m2; m2 &= m2 - 1) {
                    int c2 = low_bit_index(m2);
                    if ((r1 / 3 == r2 / 3) == (c1 / 3 == c2 / 3)) continue;
                    int *rect = found[n++];
                    rect[0] = r1 * 9 + c1;
                    rect[1] = r1 * 9 + c2;
                    rect[2] = r2 * 9 + c1;
                    rect[3] = r2 * 9 + c2;
                }
            }
        }
    }
    return n;
}

static int found_rectangles[486][4];  /* the core runs under the GIL: one caller at a time */

static Found type1(Board *b) {
    const mask_t *cands = b->cands;
    Found found = NOTHING;
    int n = rectangles(cands, found_rectangles);
    for (int k = 0; k < n; k++) {
        const int *rect = found_rectangles[k];
        unsigned a = cands[rect[0]], bb = cands[rect[1]], c = cands[rect[2]], d = cands[rect[3]];
        unsigned common = a & bb & c & d;
        if (pop(common) < 2 || !(a && bb && c && d)) continue;
        for (unsigned mx = common; mx; mx &= mx - 1) {
            for (unsigned my = mx & (mx - 1); my; my &= my - 1) {
                mask_t pair = (mask_t)((mx & -mx) | (my & -my));
                int other = -1, others = 0;
                for (int j = 0; j < 4; j++) {
                    if (cands[rect[j]] != pair) {
                        other = rect[j];
                        others++;
                    }
                }
                if (others == 1) {
                    found = found_add(found, board_remove(b, bb_cell(other), pair));
                    if (found.why.kind) return found;
                }
            }
        }
    }
    return found;
}

static Found type2(Board *b) {
    const mask_t *cands = b->cands;
    Found found = NOTHING;
    int n = rectangles(cands, found_rectangles);
    for (int k = 0; k < n; k++) {
        const int *rect = found_rectangles[k];
        unsigned common = cands[rect[0]] & cands[rect[1]] & cands[rect[2]] & cands[rect[3]];
        int same = 0, extra[4], ne = 0;
        for (int j = 0; j < 4; j++) {
            if (cands[rect[j]] == common) same++;
            else extra[ne++] = rect[j];
        }
        if (pop(common) != 2 || same != 2) continue;
        if (cands[extra[0]] != cands[extra[1]] || pop(cands[extra[0]]) != 3) continue;
        mask_t z = (mask_t)(cands[extra[0]] & ~common);
        found = found_add(found, board_remove(b, PEER_BB[extra[0]] & PEER_BB[extra[1]], z));
        if (found.why.kind) break;
    }
    return found;
}

Found unique_rectangle(Board *b) {
    Found found = type1(b);
    if (found.fired || found.why.kind) return found;
    found = type2(b);
    return found.fired ? with_bonus(found, T.ur_type_2_bonus) : found;
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
