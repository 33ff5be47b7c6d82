/* Unique rectangles and unique loops, types 1 to 4 (solver/uniqueness.py). The hints of every
 * loop are generated in the reference's order from a snapshot of the candidates: once to find
 * the easiest (value, type), then again up to the first hint of that value and type. */
#include <stddef.h>
#include <string.h>

#include "core.h"

#define MAX_WEIGHED 64 /* the loops a search remembers as weighed (see weighed()) */

typedef struct {
    const mask_t *cands;          /* the snapshot the hints are read from */
    const uint8_t *values;
    Board *b;
    int apply;                    /* 0: find the easiest key; 1: apply the first hint with it */
    int key_bonus, key_kind, has_key;
    int rectangle;                /* apply a rectangle's hint (1) or a longer loop's (0) */
    int sukaku;                   /* SukakuExplainer's search (solver/uniqueness.py) */
    Found found;
    int stop;                     /* the step's hint was met */
    bb_t holding[9];              /* the cells holding each digit in the snapshot */
    /* while finding the easiest key: the pairs known quiet before (NULL: none) and the cells
     * changed since, and the pairs quiet now (see every_hint) */
    bb_t (*was_quiet)[9], changed, (*quiet)[9];
    uint8_t hinted[9][9];         /* by pair, a loop with extra cells was met (see quiet_of) */
    /* the loop being searched */
    int start;
    mask_t pair;
    int path[81], len;
    uint32_t seen[2];             /* units touched at even and at odd places */
    uint8_t on_path[81];          /* by cell */
    const uint16_t *with_pair;    /* by unit, the places of the cells holding the pair */
    const uint16_t *open;         /* by unit, the places of those that may be on a loop */
    /* the loops whose hints were weighed (see weighed): the last fields, left uncleared */
    int n_weighed;
    struct {
        bb_t cells;
        mask_t pair;
        int first;
    } weighed[MAX_WEIGHED];
} Ctx;

/* The cell's unit of `kind` in SE's order (0 box, 1 row, 2 column). */
static int se_unit_of(int i, int kind) { return T.se_units_of[i][kind]; }

int loop_bonus(int size) {
    for (int k = 0; k < T.n_loop_bonus; k++) {
        if (size >= T.loop_bonus[k][0]) return T.loop_bonus[k][1];
    }
    return 0;
}

/* A pair's place in the tables by pair (QuietPairs): its lower digit, its higher digit. */
static bb_t *quiet_of(bb_t quiet[9][9], mask_t pair) {
    return &quiet[low_bit_index(pair)][low_bit_index(pair & (pair - 1))];
}

static uint8_t *hinted_of(Ctx *c, mask_t pair) {
    return &c->hinted[low_bit_index(pair)][low_bit_index(pair & (pair - 1))];
}

/* One hint: its value above 4.5 (tenths), type, loop size, removals (cell, digits). */
static void emit(Ctx *c, int bonus, int kind, int size, const int *cells, const mask_t *digits,
                 int n) {
    if (c->stop) return;
    if (!c->apply) {
        if (!c->has_key || bonus < c->key_bonus || (bonus == c->key_bonus && kind < c->key_kind)) {
            c->key_bonus = bonus;
            c->key_kind = kind;
            c->has_key = 1;
        }
        return;
    }
    if (bonus != c->key_bonus || kind != c->key_kind) return;
    c->stop = 1;                  /* SE's step: the first hint of the easiest kind */
    if ((size == 4) != c->rectangle) return;
    int fired = 0;
    Contradiction why = {NO_CONTRADICTION, 0, 0};
    for (int k = 0; k < n; k++) {
        Found f = board_remove(c->b, bb_cell(cells[k]), digits[k]);
        fired |= f.fired;
        if (f.why.kind) {
            why = f.why;
            break;
        }
    }
    if (fired) c->found = (Found){1, 0, why};
}

static int shared_units(int a, int b, int out[3]) {
    int n = 0;
    for (int kind = 0; kind < 3; kind++) {
        int u = se_unit_of(a, kind);
        if (bb_has(UNIT_BB[u], b)) out[n++] = u;
    }
    return n;
}

static void hidden(Ctx *c, int size, int u, int a, int b, mask_t digits, int base) {
    const mask_t *cands = c->cands;
    int rest[9], nr = 0, idx[9];
    for (int d = 0; d < 9; d++) {
        if (!((c->pair | digits) >> d & 1)) rest[nr++] = d;
    }
    for (int more = comb_first(idx, size - 2, nr); more; more = comb_next(idx, size - 2, nr)) {
        unsigned hide = c->pair, places = 0;
        int ok = 1;
        for (int k = 0; k < size - 2; k++) hide |= 1u << rest[idx[k]];
        for (unsigned m = hide; m && ok; m &= m - 1) {
            unsigned bit = m & -m, where = 0;
            for (int k = 0; k < 9; k++) {
                int i = UNITS[u][k];
                if ((cands[i] & bit) && i != b) where |= 1u << k;
            }
            if (!where) ok = 0;
            places |= where;
        }
        if (!ok || pop(places) != size) continue;
        int cells[9], n = 0, ncells = 0;
        mask_t drop[9];
        for (int k = 0; k < 9; k++) {
            int i = UNITS[u][k];
            if (!(places >> k & 1) || i == a) continue;
            ncells++;
            if (cands[i] & ~hide) {
                cells[n] = i;
                drop[n++] = (mask_t)(cands[i] & ~hide);
            }
        }
        if (n) emit(c, base + T.loop_hidden_bonus * (ncells - 1), 3, c->len, cells, drop, n);
    }
}

static void type3(Ctx *c, int a, int b, mask_t digits, int base) {
    const mask_t *cands = c->cands;
    int units[3], nu = shared_units(a, b, units), idx[9];
    for (int size = c->sukaku ? 2 : pop(digits); size <= T.loop_largest_set; size++) {
        for (int t = 0; t < nu; t++) {
            int u = units[t], empty = 0, others[9], no = 0;
            for (int k = 0; k < 9; k++) {
                int i = UNITS[u][k];
                empty += !c->values[i];
                if (i != a && i != b) others[no++] = i;
            }
            if (size * 2 <= empty && size >= pop(digits)) {
                unsigned core = digits & cands[a] & cands[b];
                for (int more = comb_first(idx, size - 1, no); more;
                     more = comb_next(idx, size - 1, no)) {
                    unsigned join = 0;
                    int narrow = 0, in[9] = {0};
                    for (int k = 0; k < size - 1; k++) {
                        int i = others[idx[k]];
                        narrow |= pop(cands[i]) < 2;
                        join |= cands[i];
                        in[idx[k]] = 1;
                    }
                    if (narrow || pop(join | core) != size || pop(join | digits) != size) continue;
                    mask_t naked = (mask_t)(join | digits), drop[9];
                    int cells[9], n = 0;
                    for (int k = 0; k < no; k++) {
                        if (!in[k] && (cands[others[k]] & naked)) {
                            cells[n] = others[k];
                            drop[n++] = (mask_t)(cands[others[k]] & naked);
                        }
                    }
                    if (n) emit(c, base + T.loop_naked_bonus * (size - 1), 3, c->len, cells, drop, n);
                }
            }
            if (size * 2 < empty) hidden(c, size, u, a, b, digits, base);
            if (c->stop) return;
        }
    }
}

static void type4(Ctx *c, int a, int b, int base) {
    const mask_t *cands = c->cands;
    int units[3], nu = shared_units(a, b, units), locked[2] = {0, 0};
    mask_t lo = (mask_t)(c->pair & -c->pair), hi = (mask_t)(c->pair & ~lo);
    for (int t = 0; t < nu; t++) {
        unsigned seen = 0;
        for (int k = 0; k < 9; k++) {
            int i = UNITS[units[t]][k];
            if (i != a && i != b) seen |= cands[i];
        }
        if (!(seen & lo)) locked[0] = 1;
        if (!(seen & hi)) locked[1] = 1;
    }
    if (locked[0] || locked[1]) {
        mask_t drop = locked[0] ? hi : lo;
        int cells[2] = {a, b};
        mask_t digits[2] = {drop, drop};
        emit(c, base, 4, c->len, cells, digits, 2);
    }
}

/* Whether the loop's hints were weighed already while finding the easiest key: the search meets
 * a loop from each of its cells and both ways, and its hints depend only on its cells and, for
 * types 3 and 4, on which of the two extra cells comes first (a shortcut of the core). */
static int weighed(Ctx *c, int first) {
    if (c->apply) return 0;
    bb_t cells = 0;
    for (int k = 0; k < c->len; k++) cells |= bb_cell(c->path[k]);
    for (int k = 0; k < c->n_weighed; k++) {
        if (c->weighed[k].cells == cells && c->weighed[k].pair == c->pair &&
            c->weighed[k].first == first)
            return 1;
    }
    if (c->n_weighed < MAX_WEIGHED) {  /* beyond, a loop is only weighed again */
        c->weighed[c->n_weighed].cells = cells;
        c->weighed[c->n_weighed].pair = c->pair;
        c->weighed[c->n_weighed++].first = first;
    }
    return 0;
}

static void loop_hints(Ctx *c) {
    const mask_t *cands = c->cands;
    int base = loop_bonus(c->len), extra[81], ne = 0;
    mask_t pair = c->pair, digits = 0;
    for (int k = 0; k < c->len; k++) {
        if (pop(cands[c->path[k]]) > 2) extra[ne++] = c->path[k];
    }
    if (!ne) return;
    *hinted_of(c, pair) = 1;  /* its hints read more than the cells holding the pair */
    if (ne == 1) {
        emit(c, base, 1, c->len, extra, &pair, 1);
        return;
    }
    if (weighed(c, ne == 2 ? extra[0] : -1)) return;
    bb_t seeing = ~(bb_t)0;
    for (int k = 0; k < ne; k++) {
        digits |= cands[extra[k]] & ~pair;
        seeing &= PEER_BB[extra[k]];
    }
    if (pop(digits) == 1) {
        int cells[81], n = 0;
        mask_t drop[81];
        for (bb_t r = seeing; r; r &= r - 1) {
            int i = bb_first(r);
            if (cands[i] & digits) {
                cells[n] = i;
                drop[n++] = digits;
            }
        }
        if (n) emit(c, base, 2, c->len, cells, drop, n);
    }
    if (ne != 2) return;
    if (pop(digits) >= 2) type3(c, extra[0], extra[1], digits, base);
    type4(c, extra[0], extra[1], base);
}

/* The search from `cell` (SE's: units by type, cells in order; the extra digits gathered over
 * every cell of the pair tried from it). It goes on only through cells of `c->open`, the cells
 * of the pair that can be on a loop at all; the others still count for the extra digits. */
static void extend(Ctx *c, int cell, int allowed, unsigned extra, int came) {
    const mask_t *cands = c->cands;
    for (int kind = 0; kind < 3; kind++) {
        if (kind == came) continue;
        int u = se_unit_of(cell, kind);
        for (unsigned r = c->with_pair[u]; r; r &= r - 1) {
            int place = low_bit_index(r), nxt = UNITS[u][place];
            if (nxt == c->start && c->len >= 4) {
                /* a loop without extra cells has no hint */
                if (c->seen[0] == c->seen[1] && allowed < T.loop_max_extra_cells) loop_hints(c);
                if (c->stop) return;
                continue;
            }
            if (c->on_path[nxt]) continue;
            mask_t m = cands[nxt];
            unsigned mine = extra | (m & ~c->pair);
            if (!c->sukaku) extra = mine;
            int wide = pop(m) > 2;
            if (!(c->open[u] >> place & 1)) continue;
            if (!wide || pop(mine) == 1 || allowed > 0) {
                int parity = c->len & 1;
                uint32_t um = CELL_UNITS[nxt];
                if (c->seen[parity] & um) continue;
                c->path[c->len++] = nxt;
                c->on_path[nxt] = 1;
                c->seen[parity] |= um;
                extend(c, nxt, allowed - wide, mine, kind);
                c->seen[parity] &= ~um;
                c->on_path[nxt] = 0;
                c->len--;
                if (c->stop) return;
            }
        }
    }
}

/* The cells of `with` that may lie on a loop: a loop cell shares each of its units with
 * another loop cell, so cells alone in a unit are dropped, until none is. */
static bb_t open_cells(bb_t with) {
    for (int changed = 1; changed;) {
        changed = 0;
        for (bb_t r = with; r; r &= r - 1) {
            int i = bb_first(r);
            bb_t others = with & ~bb_cell(i);
            const uint8_t *u = T.se_units_of[i];
            if (!(UNIT_BB[u[0]] & others) || !(UNIT_BB[u[1]] & others) ||
                !(UNIT_BB[u[2]] & others)) {
                with &= ~bb_cell(i);
                changed = 1;
            }
        }
    }
    return with;
}

/* The places of the cells in each unit (k of UNITS[u][k], in the order of cells): the search
 * meets a unit's cells by their places, with small masks instead of bitboards. */
static void by_unit(bb_t cells, uint16_t out[27]) {
    memset(out, 0, 27 * sizeof *out);
    for (bb_t r = cells; r; r &= r - 1) {
        int i = bb_first(r);
        out[ROW_OF[i]] |= (uint16_t)(1u << COL_OF[i]);
        out[9 + COL_OF[i]] |= (uint16_t)(1u << ROW_OF[i]);
        out[18 + BOX_OF[i]] |= (uint16_t)(1u << BOX_PLACE[i]);
    }
}

/* Whether the search on the pair, holding `with` now, finds what it found on the position where
 * it was quiet: then the cells holding the pair were `with`, and none of them changed since (a
 * shortcut of the core; see every_hint). */
static int still_quiet(const Ctx *c, mask_t pair, bb_t with) {
    if (!c->was_quiet) return 0;
    bb_t was = *quiet_of(c->was_quiet, pair);
    return was && was == with && !(was & c->changed);
}

/* Every hint of every loop, from each start in turn. While finding the easiest key, a pair
 * whose search met no loop with an extra cell (`quiet`) read only the candidates of the cells
 * holding the pair: its starts, the cells its paths go through and their extra digits, all
 * among those. When none of those cells changed since (candidates only went), they are the
 * cells holding it still, and its search is the same, met no loop with an extra cell again and
 * gives no hint: it is not searched again. */
static void every_hint(Ctx *c) {
    const mask_t *cands = c->cands;
    bb_t with_pair[512], open[512];  /* by pair, computed for the first start on it */
    uint16_t with_pair_in[512][27], open_in[512][27];
    uint8_t known[512] = {0}, quiet[512] = {0};
    mask_t met[81];  /* the pairs met, in turn */
    int n_met = 0;
    const bb_t *holding = c->holding;
    for (int start = 0; start < 81 && !c->stop; start++) {
        if (pop(cands[start]) != 2) continue;
        mask_t pair = cands[start];
        if (!known[pair]) {
            known[pair] = 1;
            met[n_met++] = pair;
            with_pair[pair] = holding[low_bit_index(pair)] &
                              holding[low_bit_index(pair & (pair - 1))];
            quiet[pair] = still_quiet(c, pair, with_pair[pair]);
            if (quiet[pair]) continue;
            open[pair] = open_cells(with_pair[pair]);
            by_unit(with_pair[pair], with_pair_in[pair]);
            by_unit(open[pair], open_in[pair]);
        }
        if (quiet[pair] || !bb_has(open[pair], start)) continue;
        c->pair = pair;
        c->with_pair = with_pair_in[pair];
        c->open = open_in[pair];
        c->start = start;
        c->path[0] = start;
        c->len = 1;
        c->on_path[start] = 1;
        c->seen[0] = CELL_UNITS[start];
        c->seen[1] = 0;
        extend(c, start, T.loop_max_extra_cells, 0, -1);
        c->on_path[start] = 0;
    }
    for (int k = 0; c->quiet && k < n_met; k++) {
        mask_t pair = met[k];
        *quiet_of(c->quiet, pair) = *hinted_of(c, pair) ? 0 : with_pair[pair];
    }
}

/* The easiest hint's (value, type) is kept on the board while it does not change: the
 * rectangles' rung and the loops' rung, tried in turn, share one search. */
static Found easiest(Board *b, int rectangle, int base, int sukaku) {
    static Ctx c;                 /* the core runs under the GIL: one caller at a time */
    mask_t snapshot[81];
    memcpy(snapshot, b->cands, sizeof snapshot);
    memset(&c, 0, offsetof(Ctx, weighed));
    c.cands = snapshot;
    c.values = b->values;
    c.b = b;
    c.sukaku = sukaku;
    memcpy(c.holding, board_digits(b), sizeof c.holding);  /* the board's, as the snapshot */
    if (b->loops_at != b->version || b->loops_key[3] != sukaku) {
        QuietPairs *q = &b->loops_quiet;
        bb_t quiet[9][9] = {{0}};
        if (b->loops_known && q->sukaku == sukaku && changed_since(q->cands, snapshot, &c.changed))
            c.was_quiet = q->quiet;
        c.quiet = quiet;
        every_hint(&c);
        c.was_quiet = c.quiet = NULL;
        memcpy(q->cands, snapshot, sizeof q->cands);
        memcpy(q->quiet, quiet, sizeof q->quiet);
        q->sukaku = sukaku;
        b->loops_known = 1;
        b->loops_key[0] = c.has_key;
        b->loops_key[1] = c.key_bonus;
        b->loops_key[2] = c.key_kind;
        b->loops_key[3] = sukaku;
        b->loops_at = b->version;
    }
    if (!b->loops_key[0]) return NOTHING;
    c.key_bonus = b->loops_key[1];
    c.key_kind = b->loops_key[2];
    c.apply = 1;
    c.rectangle = rectangle;
    c.found = NOTHING;
    every_hint(&c);
    return c.found.fired ? with_bonus(c.found, c.key_bonus - base) : c.found;
}

Found unique_rectangle(Board *b) { return easiest(b, 1, loop_bonus(4), 0); }
Found unique_loop(Board *b) { return easiest(b, 0, loop_bonus(6), 0); }
Found sukaku_unique_rectangle(Board *b) { return easiest(b, 1, loop_bonus(4), 1); }
Found sukaku_unique_loop(Board *b) { return easiest(b, 0, loop_bonus(6), 1); }
