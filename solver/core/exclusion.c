/* Aligned pair and triplet exclusion (solver/exclusion.py). */
#include <string.h>

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

/* The cells that changed since a search (`then`, if `known`) last found nothing, with the base
 * cells that were not base cells then (`fresh`), and those that changed (`changed`); 0 when that
 * search is not known (a shortcut of the core, see aligned_triplet_exclusion). */
static int since_nothing(const Board *b, int known, const Nothing *then, bb_t base, bb_t *fresh,
                         bb_t *changed) {
    if (!known || !changed_since(then->cands, b->cands, changed)) return 0;
    *fresh = (base & ~then->base) | *changed;
    return 1;
}

/* Whether the pair of base cells x, y may find something it did not find then: one of them
 * changed or became a base cell, or an excluder both see changed (see aligned_triplet_exclusion;
 * a cell that lost its excluding leaves less excluded). */
static int stirred(int x, int y, bb_t fresh, bb_t changed_excluders) {
    return ((bb_cell(x) | bb_cell(y)) & fresh) || (PEER_BB[x] & PEER_BB[y] & changed_excluders);
}

/* The cells that see two of `cells` at least. */
static bb_t seeing_two(bb_t cells) {
    bb_t once = 0, twice = 0;
    for (bb_t r = cells; r; r &= r - 1) {
        bb_t peers = PEER_BB[bb_first(r)];
        twice |= once & peers;
        once |= peers;
    }
    return twice;
}

/* The cells that see one of `cells` at least. */
static bb_t peers_of(bb_t cells) {
    bb_t seeing = 0;
    for (bb_t r = cells; r; r &= r - 1) seeing |= PEER_BB[bb_first(r)];
    return seeing;
}

/* Where the pairs or triples stirred since a search found nothing lie, when their cells are not
 * `fresh`: each group of cells holds some of them, and a pair of cells neither fresh is stirred
 * only within a group holding both (see stirred_pairs, stirred_triples). */
typedef struct {
    bb_t fresh, group[2 * 81];    /* a changed excluder's, a fresh third's: two a cell at most */
    int n;
} Stirred;

/* The cells that may make a stirred pair or triple with y, y not fresh: the fresh cells, and
 * those sharing a group with y. */
static bb_t stirring(const Stirred *st, int y) {
    bb_t with = st->fresh;
    for (int k = 0; k < st->n; k++) {
        if (bb_has(st->group[k], y)) with |= st->group[k];
    }
    return with;
}

/* A pair is tried again when one of its cells is fresh, or a changed excluder sees both (see
 * stirred): the groups are the changed excluders' peers. */
static void stirred_pairs(bb_t bivalue, bb_t fresh, bb_t changed, Stirred *st) {
    st->fresh = fresh;
    st->n = 0;
    for (bb_t r = changed & bivalue; r; r &= r - 1) st->group[st->n++] = PEER_BB[bb_first(r)];
}

/* Remember that a search found nothing on this position. */
static void found_nothing(const Board *b, int *known, Nothing *now, bb_t base) {
    *known = 1;
    memcpy(now->cands, b->cands, sizeof now->cands);
    now->base = base;
}

/* The digits that may go from a base cell paired with cell c: for a digit d of it to go, every
 * digit of c but d must be barred with d, each by an excluder {d, digit} (a bivalue cell seeing
 * both cells, so a bivalue peer of c); d itself is barred only when the cells see each other.
 * These are the digits d with which every other digit of c shares a bivalue peer of c. */
static unsigned going_with(const mask_t *cands, int c, bb_t bivalue) {
    unsigned shares[9] = {0};  /* shares[d]: the other digits of c's bivalue peers holding d */
    for (bb_t r = PEER_BB[c] & bivalue; r; r &= r - 1) {
        unsigned m = cands[bb_first(r)];
        int lo = low_bit_index(m), hi = low_bit_index(m & (m - 1));
        shares[lo] |= 1u << hi;
        shares[hi] |= 1u << lo;
    }
    unsigned going = 0;
    for (int d = 0; d < 9; d++) {
        if (!(cands[c] & ~(1u << d) & ~shares[d])) going |= 1u << d;
    }
    return going;
}

/* going_with by cell, for the cells `known`. */
typedef struct {
    bb_t known;
    unsigned going[81];
} Going;

static unsigned going_of(Going *g, const mask_t *cands, int c, bb_t bivalue) {
    if (!bb_has(g->known, c)) {
        g->going[c] = going_with(cands, c, bivalue);
        g->known |= bb_cell(c);
    }
    return g->going[c];
}

Found aligned_pair_exclusion(Board *b) {
    const mask_t *cands = b->cands;
    bb_t bivalue = 0, single = 0, several = 0;  /* several: two candidates or more */
    for (int i = 0; i < 81; i++) {
        int n = pop(cands[i]);
        if (n == 2) bivalue |= bb_cell(i);
        if (n == 1) single |= bb_cell(i);
        if (n >= 2) several |= bb_cell(i);
    }
    /* SE's base cells, but those seeing one bivalue cell only: they pair with none, and the
     * pairs of the others keep their order */
    bb_t based = several & seeing_two(bivalue) & ~peers_of(single);
    /* As for triplets (see aligned_triplet_exclusion): a pair finds what it found last time
     * when its cells, their being base cells and the cells both see are as they were. */
    bb_t fresh = 0, changed = 0;
    int known = since_nothing(b, b->pairs_known, &b->pairs, based, &fresh, &changed);
    Stirred st;  /* read only when known */
    st.n = 0;
    if (known) stirred_pairs(bivalue, fresh, changed, &st);
    /* a pair x, y removes something only if a digit of x may go with y, or one of y with x
     * (going_with, found for a cell when first asked) */
    Going going = {.known = 0};
    for (bb_t ry = based; ry; ry &= ry - 1) {
        int y = bb_first(ry);
        bb_t xs = based & (bb_cell(y) - 1);
        if (known && !bb_has(fresh, y)) xs &= stirring(&st, y);
        /* the x's that share two excluders with y at least */
        if (xs) xs &= seeing_two(PEER_BB[y] & bivalue);
        for (bb_t rx = xs; rx; rx &= rx - 1) {
            int x = bb_first(rx);
            bb_t common = PEER_BB[x] & PEER_BB[y] & bivalue;
            if (known && !stirred(x, y, fresh, changed & bivalue)) continue;
            if (!(cands[x] & going_of(&going, cands, y, bivalue)) &&
                !(cands[y] & going_of(&going, cands, x, bivalue)))
                continue;
            /* A digit of x goes only if every digit of y but one is an excluder's, and the
             * other way round: without that, nothing goes (the reference tries them all). */
            unsigned held = 0;
            for (bb_t r = common; r; r &= r - 1) held |= cands[bb_first(r)];
            if (pop(cands[y] & ~held) > 1 && pop(cands[x] & ~held) > 1) continue;
            mask_t out_x, out_y;
            exclusions(cands, x, y, common, &out_x, &out_y);
            if (out_x || out_y) {
                b->pairs_known = 0;
                Found first = board_remove(b, bb_cell(x), out_x);
                if (first.why.kind) return first;
                Found second = board_remove(b, bb_cell(y), out_y);
                return second.why.kind ? second : ONE;
            }
        }
    }
    found_nothing(b, &b->pairs_known, &b->pairs, based);
    return NOTHING;
}

/* What the excluders lock. An excluder has two candidates or three: {a, b} locks the triples
 * holding both, and {a, b, c} the one of exactly those three. */
typedef struct {
    unsigned pair_of[9];          /* pair_of[a]: the b of the excluders {a, b} */
    uint16_t third_of[9][9];      /* third_of[a][b]: the c of the excluders {a, b, c} */
} Locks;

static void locks_of(const mask_t *cands, bb_t excluders, Locks *l) {
    memset(l, 0, sizeof *l);
    for (bb_t r = excluders; r; r &= r - 1) {
        unsigned m = cands[bb_first(r)];
        unsigned rest = m & (m - 1);
        int a = low_bit_index(m), b = low_bit_index(rest);
        rest &= rest - 1;
        if (!rest) {
            l->pair_of[a] |= 1u << b;
            l->pair_of[b] |= 1u << a;
        } else {
            int d = low_bit_index(rest);
            l->third_of[a][b] |= 1u << d;
            l->third_of[b][a] |= 1u << d;
            l->third_of[a][d] |= 1u << b;
            l->third_of[d][a] |= 1u << b;
            l->third_of[b][d] |= 1u << a;
            l->third_of[d][b] |= 1u << a;
        }
    }
}

/* The third's digits locked with digits x, y of the first two cells. */
static unsigned locked(const Locks *l, int x, int y) {
    if (l->pair_of[x] >> y & 1) return ALL_DIGITS;
    return l->pair_of[x] | l->pair_of[y] | l->third_of[x][y];
}

/* The candidates of base cells c[0..2] that belong to no possible triple of digits; 0 when none
 * goes. For the digits dx, dy of the first two cells, the third's digits locked are known at
 * once (see Locks), so the triples are met by pairs (a shortcut of the core: the reference
 * tries every triple, with the same result). */
static int triplet_exclusions(const mask_t *cands, const int c[3], bb_t excluders,
                              mask_t out[3]) {
    int see_xy = bb_has(PEER_BB[c[0]], c[1]), see_xz = bb_has(PEER_BB[c[0]], c[2]);
    int see_yz = bb_has(PEER_BB[c[1]], c[2]);
    Locks l;
    locks_of(cands, excluders, &l);
    unsigned full[3] = {cands[c[0]], cands[c[1]], cands[c[2]]}, allowed[3] = {0, 0, 0};
    for (unsigned mx = full[0]; mx; mx &= mx - 1) {
        int x = low_bit_index(mx);
        unsigned dx = 1u << x;
        for (unsigned my = full[1]; my; my &= my - 1) {
            int y = low_bit_index(my);
            unsigned dy = 1u << y;
            if (dx == dy && see_xy) continue;
            unsigned free_z =
                full[2] & ~(see_xz ? dx : 0) & ~(see_yz ? dy : 0) & ~locked(&l, x, y);
            if (!free_z) continue;
            allowed[0] |= dx;
            allowed[1] |= dy;
            allowed[2] |= free_z;
            /* the other y's can add nothing: every digit of y and z is allowed already */
            if (allowed[1] == full[1] && allowed[2] == full[2]) break;
        }
    }
    int any = 0;
    for (int k = 0; k < 3; k++) {
        out[k] = (mask_t)(full[k] & ~allowed[k]);
        any |= out[k] != 0;
    }
    return any;
}

/* For base cells x, y and all their excluders, the third's digits left free by a pair of digits
 * of x and y, by how the third sees them (`sees`: 2 if it sees x, plus 1 if it sees y): `z`
 * by any pair, `x[sees][dx]` by the pairs of dx, `y[sees][dy]` by those of dy. */
typedef struct {
    unsigned z[4], x[4][9], y[4][9];
} Free;

static void free_digits(const mask_t *cands, int cx, int cy, bb_t excluders, Free *f) {
    int see_xy = bb_has(PEER_BB[cx], cy);
    Locks l;
    locks_of(cands, excluders, &l);
    memset(f, 0, sizeof *f);
    for (unsigned mx = cands[cx]; mx; mx &= mx - 1) {
        int x = low_bit_index(mx);
        for (unsigned my = cands[cy]; my; my &= my - 1) {
            int y = low_bit_index(my);
            if (x == y && see_xy) continue;
            unsigned open = ALL_DIGITS & ~locked(&l, x, y);
            for (int sees = 1; sees < 4; sees++) {
                unsigned free_z = open & ~(sees & 2 ? 1u << x : 0) & ~(sees & 1 ? 1u << y : 0);
                f->z[sees] |= free_z;
                f->x[sees][x] |= free_z;
                f->y[sees][y] |= free_z;
            }
        }
    }
}

/* Whether the third z surely removes nothing: every digit of x, y and z is allowed with all the
 * excluders of x and y, and z's excluders are some of them (fewer lock less). */
static int frees_all(const mask_t *cands, int cx, int cy, int cz, const Free *f) {
    int sees = 2 * bb_has(PEER_BB[cx], cz) + bb_has(PEER_BB[cy], cz);
    unsigned z = cands[cz];
    if (z & ~f->z[sees]) return 0;
    for (unsigned m = cands[cx]; m; m &= m - 1) {
        if (!(z & f->x[sees][low_bit_index(m)])) return 0;
    }
    for (unsigned m = cands[cy]; m; m &= m - 1) {
        if (!(z & f->y[sees][low_bit_index(m)])) return 0;
    }
    return 1;
}

/* A triple is tried again when one of its cells is fresh, or when a changed cell of two or three
 * candidates sees all three (see aligned_triplet_exclusion). So a triple stirred by a fresh
 * third s lies in the cells seeing two of s's excluders (its two excluders are s's), and one
 * stirred by a changed excluder e in e's peers: those are the groups. */
static void stirred_triples(bb_t few, bb_t thirds, bb_t fresh, bb_t changed, Stirred *st) {
    st->fresh = fresh;
    st->n = 0;
    for (bb_t r = changed & few; r; r &= r - 1) st->group[st->n++] = PEER_BB[bb_first(r)];
    for (bb_t r = fresh & thirds; r; r &= r - 1)
        st->group[st->n++] = seeing_two(PEER_BB[bb_first(r)] & few);
}

/* The thirds z of base cells x < y whose triple {x, y, z} the search met already, at an earlier
 * pair of its cells (pairs come by the later cell, then the earlier one): as (x, z) with third
 * y when x < z < y, as (z, x) with third y or (z, y) with third x when z < x, each where that
 * third is one (of two or three candidates, seeing one of the pair). What a triple removes does
 * not depend on the order of its cells (the rule is the same for each), and a triple met before
 * removed nothing, else the search would have stopped there. */
static bb_t met_before(bb_t thirds, int x, int y) {
    int aligned = bb_has(PEER_BB[x], y);
    bb_t before_x = bb_cell(x) - 1, before_y = bb_cell(y) - 1, met = 0;
    if (bb_has(thirds, y)) met |= (aligned ? ~(bb_t)0 : PEER_BB[y]) & before_y;
    if (bb_has(thirds, x)) met |= (aligned ? ~(bb_t)0 : PEER_BB[x]) & before_x;
    return met;
}

/* SE's aligned triplet exclusion: the first triple of base cells, in SE's order, that removes
 * something. A triple finds what it found last time when its cells, their being base cells, and
 * the cells all three see are as they were: so when the last search found nothing and only
 * candidates went since, only the triples touching what changed are tried (a shortcut of the
 * core: the reference tries them all, and finds the same). */
Found aligned_triplet_exclusion(Board *b) {
    work_charge(WORK_TRIPLET);
    const mask_t *cands = b->cands;
    bb_t few = 0, single = 0, several = 0;  /* several: two candidates or more */
    for (int i = 0; i < 81; i++) {
        int n = pop(cands[i]);
        if (n == 2 || n == 3) few |= bb_cell(i);
        if (n == 1) single |= bb_cell(i);
        if (n >= 2) several |= bb_cell(i);
    }
    bb_t based = several & peers_of(few) & ~peers_of(single);
    bb_t thirds = based & few;  /* base cells of two or three candidates */
    bb_t fresh = 0, changed = 0;
    int known = since_nothing(b, b->triplets_known, &b->triplets, based, &fresh, &changed);
    Stirred st;  /* read only when known */
    st.n = 0;
    if (known) stirred_triples(few, thirds, fresh, changed, &st);
    for (bb_t ry = based; ry; ry &= ry - 1) {
        int y = bb_first(ry);
        int y_fresh = !known || bb_has(fresh, y);  /* every triple of y is stirred */
        bb_t xs = based & (bb_cell(y) - 1);
        if (!y_fresh) xs &= stirring(&st, y);
        if (!xs) continue;
        /* the x's that share two excluders with y at least (for any third, fewer exclude
         * nothing) */
        bb_t y_few = PEER_BB[y] & few, others = thirds & ~bb_cell(y);
        bb_t y_thirds = PEER_BB[y] & others, y_changed = y_few & changed;
        xs &= seeing_two(y_few);
        for (bb_t rx = xs; rx; rx &= rx - 1) {
            int x = bb_first(rx);
            bb_t x_peers = PEER_BB[x];
            /* Whether some third removes something, the thirds taken in any order: the first in
             * SE's order is looked for only then (most pairs have none). */
            bb_t thirds_here = ((x_peers & others) | y_thirds) & ~bb_cell(x);
            if (!y_fresh && !bb_has(fresh, x)) {  /* not stirred by x or y */
                /* the thirds that see a changed excluder of x and y (a cell of more candidates
                 * excludes nothing, and one that lost its excluding leaves less excluded) */
                bb_t near = 0;
                for (bb_t r = x_peers & y_changed; r; r &= r - 1) near |= PEER_BB[bb_first(r)];
                thirds_here &= fresh | near;
            }
            if (!thirds_here) continue;
            thirds_here &= ~met_before(thirds, x, y);
            if (!thirds_here) continue;
            bb_t common = x_peers & y_few;
            thirds_here &= seeing_two(common);  /* a third needs two excluders too */
            if (!thirds_here) continue;
            /* with two thirds or more, most are cleared at once by what all the excluders allow */
            int any = 0, screened = (thirds_here & (thirds_here - 1)) != 0;
            Free free;
            if (screened) free_digits(cands, x, y, common, &free);
            for (bb_t r = thirds_here; r && !any; r &= r - 1) {
                int z = bb_first(r);
                if (screened && frees_all(cands, x, y, z, &free)) continue;
                bb_t excluders = common & PEER_BB[z];
                int cells[3] = {x, y, z};
                mask_t out[3];
                any = triplet_exclusions(cands, cells, excluders, out);
            }
            if (!any) continue;
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
                b->triplets_known = 0;
                for (int m = 0; m < 3; m++) {
                    Found found = board_remove(b, bb_cell(cells[m]), out[m]);
                    if (found.why.kind) return found;
                }
                return ONE;
            }
        }
    }
    found_nothing(b, &b->triplets_known, &b->triplets, based);
    return NOTHING;
}
