/* SukakuExplainer's big wings: WXYZ- and VWXYZ-Wing (solver/bigwings.py).
 *
 * A set of n - 1 mutually seeing cells holding n digits, and a two-candidate pincer cell whose
 * digits are both in the set; SE keeps the first hint of its sorted list, and so does this. */
#include <string.h>
#include "core.h"

typedef struct {
    int found, bonus, eliminations;
    char suffix[8];
    mask_t removals[81];
} Wing;

typedef struct {
    const mask_t *cands;
    const bb_t *digits;
    int size;                     /* digits of the set; its cells: size - 1 */
    int als[6], n_als;
    Wing best;
} WingSearch;

static const bb_t ALL_CELLS = (((bb_t)1) << 81) - 1;

static inline bb_t forward(int c) { return PEER_BB[c] & (~(bb_t)0 << (c + 1)); }

/* True if SE's sort puts (bonus, eliminations, suffix) strictly before the best so far. */
static int beats(const Wing *best, int bonus, int eliminations, const char *suffix) {
    if (!best->found) return 1;
    if (bonus != best->bonus) return bonus < best->bonus;
    if (eliminations != best->eliminations) return eliminations > best->eliminations;
    return strcmp(suffix, best->suffix) > 0;
}

/* The wings of the full set (digits `uni`) with each pincer, in SE's order. */
static void pincers(WingSearch *s, unsigned uni) {
    const mask_t *cands = s->cands;
    bb_t als_bb = 0, reach = 0;
    int biggest = 0, total = 0;
    for (int k = 0; k < s->n_als; k++) {
        int c = s->als[k], p = pop(cands[c]);
        als_bb |= bb_cell(c);
        reach |= PEER_BB[c];
        if (p > biggest) biggest = p;
        total += p;
    }
    int bonus = T.wing_bonus[s->size - 4][biggest];  /* SE's extra for the largest cell */
    bb_t holders[9], seen_by_all[9];
    for (int d = 0; d < 9; d++) {
        holders[d] = 0;
        seen_by_all[d] = ALL_CELLS;
        if (!(uni >> d & 1)) continue;
        for (int k = 0; k < s->n_als; k++) {
            int c = s->als[k];
            if (cands[c] >> d & 1) {
                holders[d] |= bb_cell(c);
                seen_by_all[d] &= PEER_BB[c];
            }
        }
    }
    for (bb_t r = reach & ~als_bb; r; r &= r - 1) {
        int yz = bb_first(r);
        unsigned m = cands[yz];
        if (pop(m) != 2 || (m & ~uni)) continue;
        int x = __builtin_ctz(m), z = __builtin_ctz(m & (m - 1));
        int x_restricted = !(holders[x] & ~PEER_BB[yz]);
        int z_restricted = !(holders[z] & ~PEER_BB[yz]);
        if (!x_restricted && !z_restricted) continue;
        bb_t outside = ~(als_bb | bb_cell(yz));
        bb_t victims[9] = {0};
        int doubly = 0;
        if (x_restricted && z_restricted) {
            int weak = 0;
            for (int d = 0; d < 9; d++) {
                if (!(uni >> d & 1)) continue;
                victims[d] = seen_by_all[d] & outside & s->digits[d];
                if (d == x || d == z) victims[d] &= PEER_BB[yz];
                else if (victims[d]) weak = 1;
            }
            doubly = weak || (victims[x] && victims[z]);
        } else {
            int gone = x_restricted ? z : x;
            victims[gone] = seen_by_all[gone] & outside & s->digits[gone] & PEER_BB[yz];
        }
        int eliminations = 0;
        for (int d = 0; d < 9; d++) eliminations += bb_pop(victims[d]);
        if (!eliminations) continue;
        char suffix[8];
        suffix[0] = doubly ? '2' : '1';
        suffix[1] = (char)('0' + biggest);
        if (total >= 10) {
            suffix[2] = (char)('0' + total / 10);
            suffix[3] = (char)('0' + total % 10);
            suffix[4] = 0;
        } else {
            suffix[2] = (char)('0' + total);
            suffix[3] = 0;
        }
        if (!beats(&s->best, bonus, eliminations, suffix)) continue;
        Wing *w = &s->best;
        w->found = 1;
        w->bonus = bonus;
        w->eliminations = eliminations;
        memcpy(w->suffix, suffix, sizeof suffix);
        memset(w->removals, 0, sizeof w->removals);
        for (int d = 0; d < 9; d++) {
            for (bb_t v = victims[d]; v; v &= v - 1) w->removals[bb_first(v)] |= (mask_t)(1u << d);
        }
    }
}

/* Grow the set by one cell of `options` (ascending), keeping at most `size` digits. */
static void extend(WingSearch *s, bb_t options, unsigned uni) {
    if (s->n_als == s->size - 1) {
        if (pop(uni) == s->size) pincers(s, uni);
        return;
    }
    for (bb_t r = options; r; r &= r - 1) {
        int c = bb_first(r);
        unsigned m = s->cands[c], joined = uni | m;
        if (pop(m) < 2 || pop(joined) > s->size) continue;
        s->als[s->n_als++] = c;
        extend(s, s->n_als > 1 ? options & forward(c) : forward(c), joined);
        s->n_als--;
    }
}

/* Apply SE's first wing of `size` digits: its removals, cell by cell, with its bonus. */
static Found apply(Board *b, int size) {
    static WingSearch s;  /* the core runs under the GIL: one caller at a time */
    s.cands = b->cands;
    s.digits = board_digits(b);
    s.size = size;
    s.n_als = 0;
    s.best.found = 0;
    extend(&s, ALL_CELLS, 0);
    if (!s.best.found) return NOTHING;
    Found found = NOTHING;
    for (int c = 0; c < 81; c++) {
        if (s.best.removals[c]) found = found_add(found, board_remove(b, bb_cell(c), s.best.removals[c]));
    }
    Found one = {1, s.best.bonus, found.why};
    return one;
}

Found wxyz_wing(Board *b) { return apply(b, 4); }
Found vwxyz_wing(Board *b) { return apply(b, 5); }
