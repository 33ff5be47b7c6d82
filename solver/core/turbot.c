/* Two-strong-link chains and the empty rectangle (solver/turbot.py). */
#include <string.h>

#include "core.h"

enum { SKYSCRAPER, KITE, TURBOT };

/* Remove the digit from each bitboard in turn, stopping at a contradiction. */
static Found clear_all(Board *b, Found found, const bb_t *clears, int n, mask_t bit) {
    for (int k = 0; k < n && !found.why.kind; k++) found = found_add(found, board_remove(b, clears[k], bit));
    return found;
}

static inline int sees(int a, int b) {
    return ROW_OF[a] == ROW_OF[b] || COL_OF[a] == COL_OF[b] || BOX_OF[a] == BOX_OF[b];
}

/* The second links y that make a chain of `kind` with link x, as the range [*from, *to) of
 * the links (sorted by unit: rows, then columns, then boxes), in the reference's order. */
static void partners(const Link *l, int nl, int rows, int lines, int x, int kind, int *from,
                     int *to) {
    int u = l[x].unit;
    if (kind == SKYSCRAPER) {
        *from = x + 1;
        *to = u < 9 ? rows : u < 18 ? lines : 0;
    } else if (kind == KITE) {
        *from = rows;
        *to = u < 9 ? lines : 0;
    } else {
        *from = x + 1 > lines ? x + 1 : lines;
        *to = nl;
    }
}

static int pairs(bb_t bb, const Link *l, int nl, int kind, bb_t *found) {
    int n = 0, rows = 0, lines;
    while (rows < nl && l[rows].unit < 9) rows++;  /* links of rows: [0, rows) */
    for (lines = rows; lines < nl && l[lines].unit < 18;) lines++;  /* of columns: [rows, lines) */
    for (int x = 0; x < nl; x++) {
        int from, to;
        partners(l, nl, rows, lines, x, kind, &from, &to);
        for (int y = from; y < to; y++) {
            int a1 = l[x].a, a2 = l[x].b, b1 = l[y].a, b2 = l[y].b;
            if (a1 == b1 || a1 == b2 || a2 == b1 || a2 == b2) continue;
            int ends_a[2][2] = {{a1, a2}, {a2, a1}}, ends_b[2][2] = {{b1, b2}, {b2, b1}};
            for (int s = 0; s < 2; s++) {
                for (int t = 0; t < 2; t++) {
                    int outer = ends_a[s][0], inner_a = ends_a[s][1];
                    int inner_b = ends_b[t][0], z = ends_b[t][1];
                    if (sees(inner_a, inner_b)) found[n++] = PEER_BB[outer] & PEER_BB[z] & bb;
                }
            }
        }
    }
    return n;
}

static Found chains(Board *b, int kind) {
    bb_t boards[9], found[27 * 26 * 2];
    memcpy(boards, board_digits(b), sizeof boards);
    Found out = NOTHING;
    for (int d = 0; d < 9 && !out.why.kind; d++) {
        int nl;
        const Link *l = board_links(b, d, &nl);  /* digit d's links: unchanged so far */
        int n = pairs(boards[d], l, nl, kind, found);
        out = clear_all(b, out, found, n, (mask_t)(1u << d));
    }
    return out;
}

Found skyscraper(Board *b) { return chains(b, SKYSCRAPER); }
Found two_string_kite(Board *b) { return chains(b, KITE); }
Found turbot_fish(Board *b) { return chains(b, TURBOT); }

static bb_t seen_by_all(bb_t cells) {
    bb_t seen = ~(bb_t)0;
    for (bb_t r = cells; r; r &= r - 1) seen &= PEER_BB[bb_first(r)];
    return seen;
}

/* The rectangle of cross (r, c) in the box: the bitboards to clear. */
static int er_targets(bb_t bb, const Link *l, int nl, int box, int r, int c, bb_t *found) {
    bb_t inside = bb & UNIT_BB[18 + box];
    bb_t arm_row = inside & UNIT_BB[r] & ~UNIT_BB[9 + c];
    bb_t arm_col = inside & UNIT_BB[9 + c] & ~UNIT_BB[r];
    int n = 0;
    for (int k = 0; k < nl; k++) {
        if (l[k].unit >= 18 || (UNIT_BB[l[k].unit] & UNIT_BB[18 + box])) continue;
        int ends[2][2] = {{l[k].a, l[k].b}, {l[k].b, l[k].a}};
        for (int s = 0; s < 2; s++) {
            int p = ends[s][0], q = ends[s][1];
            if (ROW_OF[p] == r && arm_col) found[n++] = PEER_BB[q] & seen_by_all(arm_col) & bb;
            if (COL_OF[p] == c && arm_row) found[n++] = PEER_BB[q] & seen_by_all(arm_row) & bb;
        }
    }
    return n;
}

Found empty_rectangle(Board *b) {
    bb_t boards[9], found[27 * 4];
    memcpy(boards, board_digits(b), sizeof boards);
    Found out = NOTHING;
    for (int d = 0; d < 9 && !out.why.kind; d++) {
        bb_t bb = boards[d];
        int nl;
        const Link *l = board_links(b, d, &nl);  /* read once: the digit's state at its start */
        for (int box = 0; box < 9; box++) {
            bb_t spots = bb & UNIT_BB[18 + box];
            if (bb_pop(spots) < 2) continue;
            unsigned rows = 0, cols = 0;  /* bit sets: iterated ascending, like sorted() */
            for (bb_t t = spots; t; t &= t - 1) {
                rows |= 1u << ROW_OF[bb_first(t)];
                cols |= 1u << COL_OF[bb_first(t)];
            }
            if (pop(rows) == 1 || pop(cols) == 1) continue;
            for (unsigned mr = rows; mr; mr &= mr - 1) {
                int r = low_bit_index(mr);
                for (unsigned mc = cols; mc; mc &= mc - 1) {
                    int c = low_bit_index(mc);
                    if (spots & ~(UNIT_BB[r] | UNIT_BB[9 + c])) continue;
                    int n = er_targets(bb, l, nl, box, r, c, found);
                    out = clear_all(b, out, found, n, (mask_t)(1u << d));
                }
            }
        }
    }
    return out;
}
