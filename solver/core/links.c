/* SukakuExplainer's strong-linked fishes of three links, and TurbotFish's grouped
 * chains of two (solver/links.py): every chain in SE's order, the first by (difficulty, most
 * eliminations, suffix) applied. */
#include <string.h>

#include "core.h"

enum { BOX, ROW, COL, MAX_N = 4 };  /* links in a chain, at most (room to spare: SE goes to 6) */

typedef struct {
    int cells[3], n;              /* the end's cell, then the rest of its group */
} End;

typedef struct {
    End end[2];
    int grouped;
} SLink;

static int unit_of(int kind, int index) { return kind == BOX ? 18 + index : kind == ROW ? index : 9 + index; }

static int same_line(int a, int b) { return ROW_OF[a] == ROW_OF[b] || COL_OF[a] == COL_OF[b]; }

static End end_of(const int *cells, int n) {
    End e = {{0, 0, 0}, 0};
    e.n = n > 3 ? 3 : n;
    for (int k = 0; k < e.n; k++) e.cells[k] = cells[k];
    return e;
}

/* The strong links SE reads in a unit whose candidate positions are `spots` (a box's two
 * parallel lines only if `parallel`). */
static int region_links(int kind, int index, unsigned spots, int parallel, SLink *out) {
    const uint8_t *cells = UNITS[unit_of(kind, index)];
    int n = pop(spots);
    if (n < 2 || n > 6) return 0;
    if (n == 2) {
        int a = cells[low_bit_index(spots)], b = cells[low_bit_index(spots & (spots - 1))];
        if (kind == BOX && same_line(a, b)) return 0;
        out[0].end[0] = end_of(&a, 1);
        out[0].end[1] = end_of(&b, 1);
        out[0].grouped = 0;
        return 1;
    }
    int e, found = 0;
    for (e = 0; e < (kind == BOX ? (parallel ? 15 : 9) : 3); e++) {
        if (e > 8 && n < 4) continue;
        int hit = 0;
        for (int k = 0; k < (kind == BOX ? 4 : 3); k++) {
            int p = kind == BOX ? T.box_empty[e][k] : T.segments[e][k];
            if (spots >> p & 1) hit = 1;  /* a padding position (9) is never a spot */
        }
        if (!hit) {
            found = 1;
            break;
        }
    }
    if (!found) return 0;
    int one[3], two[3], n1 = 0, n2 = 0;
    for (int k = 0; k < 3; k++) {
        int p = kind == BOX ? T.box_arms[e][0][k] : T.line_arms[e][0][k];
        if (spots >> p & 1) one[n1++] = cells[p];
        p = kind == BOX ? T.box_arms[e][1][k] : T.line_arms[e][1][k];
        if (spots >> p & 1) two[n2++] = cells[p];
    }
    if (!n1 || !n2) return 0;
    int heart = kind == BOX && e < 9 && (spots >> e & 1) ? cells[e] : -1;
    if (n1 == 1 || n2 == 1) {
        int lone = n2 == 1 ? two[0] : one[0];
        const int *group = n2 == 1 ? one : two;
        int ng = n2 == 1 ? n1 : n2, far[3], nf = 0;
        far[nf++] = group[0];
        if (kind == BOX) {
            far[nf++] = cells[e];
            if (ng > 1) far[nf++] = group[1];
        } else {
            for (int k = 1; k < ng; k++) far[nf++] = group[k];
        }
        out[0].end[0] = end_of(&lone, 1);
        out[0].end[1] = end_of(far, nf);
        out[0].grouped = 1;
        return 1;
    }
    if (e > 8 && n == 4 && same_line(one[1], two[1]) && same_line(one[0], two[0])) {
        int a[2] = {one[0], one[1]}, b[2] = {two[0], two[1]};
        int c[2] = {one[0], two[0]}, d[2] = {one[1], two[1]};
        out[0].end[0] = end_of(a, 2);
        out[0].end[1] = end_of(b, 2);
        out[1].end[0] = end_of(c, 2);
        out[1].end[1] = end_of(d, 2);
        out[0].grouped = out[1].grouped = 1;
        return 2;
    }
    out[0].end[0] = end_of(one, n1);
    out[0].end[1] = end_of(two, n2);
    if (heart >= 0) {
        if (n1 == 2) out[0].end[0].cells[out[0].end[0].n++] = heart;
        if (n2 == 2) out[0].end[1].cells[out[0].end[1].n++] = heart;
    }
    out[0].grouped = 1;
    return 1;
}

/* The cells of the unit (column, row, then box) holding both ends; 0 if none. */
static bb_t share(const End *x, const End *y) {
    int all[6] = {0}, n = 0;
    for (int k = 0; k < x->n; k++) all[n++] = x->cells[k];
    for (int k = 0; k < y->n; k++) all[n++] = y->cells[k];
    int a = all[0], col = 1, row = 1, box = 1;
    for (int k = 1; k < n; k++) {
        col &= COL_OF[all[k]] == COL_OF[a];
        row &= ROW_OF[all[k]] == ROW_OF[a];
        box &= BOX_OF[all[k]] == BOX_OF[a];
    }
    return col ? UNIT_BB[9 + COL_OF[a]] : row ? UNIT_BB[ROW_OF[a]] : box ? UNIT_BB[18 + BOX_OF[a]] : 0;
}

static bb_t seen_by(const End *e) {
    bb_t seen = ~(bb_t)0;
    for (int k = 0; k < e->n; k++) seen &= PEER_BB[e->cells[k]];
    return seen;
}

static int is_lex(const int *s, int n) {
    for (int k = 0; k < n; k++) {
        if (s[k] != s[n - 1 - k]) return s[k] < s[n - 1 - k];
    }
    return 1;
}

/* SE's orders, per number of links: kind sets and chain arrangements. */
typedef struct {
    int n_kinds, n_orders;
    int kinds[15][MAX_N], orders[12][MAX_N];
} Orders;
static void orders_of(int n, Orders *o) {
    /* Kind sets: never decreasing, ascending by the number with bit n*kind+i for link i. */
    int total = 1, masks[81];
    for (int k = 0; k < n; k++) total *= 3;
    o->n_kinds = 0;
    for (int x = 0; x < total; x++) {
        int s[MAX_N], v = x, ok = 1, mask = 0;
        for (int k = n - 1; k >= 0; k--) s[k] = v % 3, v /= 3;
        for (int k = 1; k < n; k++) ok &= s[k - 1] <= s[k];
        if (!ok) continue;
        for (int k = 0; k < n; k++) mask |= 1 << (n * s[k] + k);
        int at = o->n_kinds++;
        while (at > 0 && masks[at - 1] > mask) {
            masks[at] = masks[at - 1];
            memcpy(o->kinds[at], o->kinds[at - 1], sizeof o->kinds[at]);
            at--;
        }
        masks[at] = mask;
        memcpy(o->kinds[at], s, sizeof s);
    }
    /* Arrangements: QuickPerm's order, one of each permutation and its reverse (min-lex). */
    int q[MAX_N], r[MAX_N + 1];
    for (int k = 0; k < n; k++) q[k] = r[k] = k;
    r[n] = n;
    o->n_orders = 0;
    memcpy(o->orders[o->n_orders++], q, sizeof q);
    int s = 1;
    while (s < n) {
        r[s]--;
        int t = s % 2 * r[s], tmp = q[t];
        q[t] = q[s];
        q[s] = tmp;
        if (is_lex(q, n)) memcpy(o->orders[o->n_orders++], q, sizeof q);
        s = 1;
        while (r[s] == 0) {
            r[s] = s;
            s++;
        }
    }
}

/* SE's name suffix: grouped links, then the kinds read min-lex (rows and columns alike). */
static void suffix_of(const int *kinds_in, int n, int grouped, char *out) {
    int kinds[MAX_N];
    int lex = is_lex(kinds_in, n);
    for (int k = 0; k < n; k++) kinds[k] = lex ? kinds_in[k] : kinds_in[n - 1 - k];
    char original[MAX_N + 1], name[MAX_N + 1];
    int has_row = 0;
    for (int k = 0; k < n; k++) {
        original[k] = (char)('0' + kinds[k]);
        has_row |= kinds[k] == ROW;
    }
    original[n] = 0;
    if (has_row) {
        char swap[MAX_N + 1], back[MAX_N + 1];
        for (int k = 0; k < n; k++) swap[k] = (char)('0' + (kinds[k] ? 3 - kinds[k] : 0));
        for (int k = 0; k < n; k++) back[k] = swap[n - 1 - k];
        swap[n] = back[n] = 0;
        const char *best = strcmp(back, swap) > 0 ? swap : back;
        strcpy(name, strcmp(original, best) > 0 ? best : original);
    } else {
        for (int k = 0; k <= n; k++) name[k] = original[k] == '2' ? '1' : original[k];
    }
    out[0] = (char)('0' + grouped);
    strcpy(out + 1, name);
}

/* The chain's bonus from its suffix (solver/links.py _tenths). */
static int tenths_of(const char *suffix) {
    if (suffix[0] != '0') return T.link_bonus[3];
    return T.link_bonus[strchr(suffix + 1, '0') ? 1 : strchr(suffix + 1, '2') ? 2 : 0];
}

/* The units joining the ends of two of a digit's links ([2a + c]: end a of the first, end c
 * of the second), worked out on first use in a step: `gen` says which step's they are. */
enum { MAX_LINKS = 54 };          /* two links at most in each of the 27 units */
typedef struct {
    bb_t sh[4];
    unsigned gen;
    int joined;
} Pair;
static Pair PAIRS[9][MAX_LINKS][MAX_LINKS];
static unsigned GEN;

typedef struct {
    int n, digit, turbot;         /* turbot: TurbotFish's grouped chains of two links */
    const int *kinds;
    const Orders *orders;
    bb_t bb;
    SLink links[MAX_N];
    int ids[MAX_N];               /* the links' numbers among the digit's */
    bb_t regions[MAX_N];
    int nums[MAX_N];
    SLink (*table)[9][2];         /* the digit's links, per unit kind and index */
    const int (*n_table)[9];
    const int (*first_id)[9];
    const bb_t (*spots_bb)[9];
    Pair (*pairs)[MAX_LINKS];
    /* the best chain so far */
    int has, tenths, count, best_digit;
    char suffix[8];
    bb_t clear;
} LinkSearch;

static const Pair *pair_of(LinkSearch *S, int i, int j) {
    Pair *p = &S->pairs[S->ids[i]][S->ids[j]];
    if (p->gen != GEN) {
        Pair *q = &S->pairs[S->ids[j]][S->ids[i]];
        p->joined = 0;
        for (int a = 0; a < 2; a++) {
            for (int c = 0; c < 2; c++) {
                p->sh[2 * a + c] = q->sh[2 * c + a] = share(&S->links[i].end[a], &S->links[j].end[c]);
                p->joined |= p->sh[2 * a + c] != 0;
            }
        }
        q->joined = p->joined;
        p->gen = q->gen = GEN;
    }
    return p;
}

static void chains(LinkSearch *S) {
    int n = S->n, grouped = 0, first_region = 99;
    bb_t bases = 0;
    for (int k = 0; k < n; k++) {
        grouped += S->links[k].grouped;
        bases |= S->regions[k];
        if (S->nums[k] < first_region) first_region = S->nums[k];
    }
    if (S->turbot && !grouped) return;
    /* The units joining the links' ends, and which links join: only arrangements whose
     * neighbours all join can be chains. */
    bb_t sh[MAX_N][2][MAX_N][2];
    int adj[MAX_N] = {0};
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            if (i == j) continue;
            const Pair *p = pair_of(S, i, j);
            for (int a = 0; a < 2; a++)
                for (int c = 0; c < 2; c++) sh[i][a][j][c] = p->sh[2 * a + c];
            adj[i] |= p->joined << j;
        }
        if (!adj[i]) return;
    }
    for (int o = 0; o < S->orders->n_orders; o++) {
        const int *q = S->orders->orders[o];
        int path = 1;
        for (int k = 0; k + 1 < n; k++) path &= adj[q[k]] >> q[k + 1] & 1;
        if (!path) continue;
        const SLink *chain[MAX_N];
        int kinds[MAX_N];
        for (int k = 0; k < n; k++) chain[k] = &S->links[q[k]], kinds[k] = S->kinds[q[k]];
        char suffix[8];
        suffix_of(kinds, n, grouped, suffix);
        int tenths = tenths_of(suffix);
        if (S->has && tenths > S->tenths) continue;
        int ring_ok = S->nums[q[0]] == first_region;
        for (int dirs = 0; dirs < 1 << n; dirs++) {
            int u[MAX_N];
            for (int k = 0; k < n; k++) u[k] = dirs >> (n - 1 - k) & 1;
            bb_t shares[MAX_N] = {0};
            int w;
            for (w = 0; w < n - 1; w++) {
                shares[w] = sh[q[w]][1 - u[w]][q[w + 1]][u[w + 1]];
                if (!shares[w]) break;
            }
            if (w < n - 1) continue;
            const End *start = &chain[0]->end[u[0]], *end = &chain[n - 1]->end[1 - u[n - 1]];
            bb_t ring = sh[q[0]][u[0]][q[n - 1]][1 - u[n - 1]];
            if (ring && !(ring_ok && u[0] == 0)) continue;
            bb_t seen = PEER_BB[start->cells[0]] & PEER_BB[end->cells[0]];
            if (chain[0]->grouped) seen &= seen_by(start);
            if (chain[n - 1]->grouped) seen &= seen_by(end);
            seen &= ~bases;
            if (!ring) {
                for (w = 0; w < n - 1; w++) seen &= ~shares[w];
            }
            bb_t clear = seen & S->bb;
            int count = bb_pop(clear);
            if (ring) {
                for (w = 0; w < n - 1; w++) {
                    bb_t more = seen_by(&chain[w]->end[1 - u[w]]) &
                                seen_by(&chain[w + 1]->end[u[w + 1]]) & ~bases & S->bb;
                    count += bb_pop(more);
                    clear |= more;
                }
            }
            if (!clear) continue;
            int better = !S->has || tenths < S->tenths ||
                         (tenths == S->tenths &&
                          (count > S->count || (count == S->count && strcmp(suffix, S->suffix) < 0)));
            if (!better) continue;
            S->has = 1;
            S->tenths = tenths;
            S->count = count;
            strcpy(S->suffix, suffix);
            S->clear = clear;
            S->best_digit = S->digit;
        }
    }
}

static void build(LinkSearch *S, int depth, int after, bb_t used) {
    int kind = S->kinds[depth];
    int first = depth && S->kinds[depth - 1] == kind ? after + 1 : 0;
    for (int index = first; index < 9; index++) {
        int nt = S->n_table[kind][index];
        bb_t mine = S->spots_bb[kind][index];
        if (!nt || (mine & used)) continue;
        for (int t = 0; t < nt; t++) {
            S->links[depth] = S->table[kind][index][t];
            S->ids[depth] = S->first_id[kind][index] + t;
            S->regions[depth] = UNIT_BB[unit_of(kind, index)];
            S->nums[depth] = kind * 10 + index + 1;
            if (depth + 1 < S->n)
                build(S, depth + 1, index, used | mine);
            else
                chains(S);
        }
    }
}

static Found strong_links(Board *b, int n, int turbot) {
    bb_t digits[9];
    memcpy(digits, board_digits(b), sizeof digits);
    SLink table[9][3][9][2];
    int n_table[9][3][9], first_id[9][3][9];
    bb_t spots_bb[9][3][9];
    if (++GEN == 0) {  /* wrapped: forget every step's pairs */
        memset(PAIRS, 0, sizeof PAIRS);
        GEN = 1;
    }
    for (int d = 0; d < 9; d++) {
        int ids = 0;
        for (int kind = 0; kind < 3; kind++) {
            for (int index = 0; index < 9; index++) {
                int u = unit_of(kind, index);
                unsigned spots = 0;
                for (int p = 0; p < 9; p++) spots |= (unsigned)bb_has(digits[d], UNITS[u][p]) << p;
                spots_bb[d][kind][index] = digits[d] & UNIT_BB[u];
                n_table[d][kind][index] = region_links(kind, index, spots, !turbot, table[d][kind][index]);
                first_id[d][kind][index] = ids;
                ids += n_table[d][kind][index];
            }
        }
    }
    LinkSearch S;
    memset(&S, 0, sizeof S);
    S.n = n;
    S.turbot = turbot;
    static Orders orders[MAX_N + 1];  /* SE's orders never change: worked out once per n */
    static int ready[MAX_N + 1];
    if (!ready[n]) {
        orders_of(n, &orders[n]);
        ready[n] = 1;
    }
    S.orders = &orders[n];
    for (int k = 0; k < S.orders->n_kinds; k++) {
        S.kinds = S.orders->kinds[k];
        for (int d = 0; d < 9; d++) {
            if (!digits[d]) continue;
            S.digit = d + 1;
            S.bb = digits[d];
            S.table = table[d];
            S.n_table = (const int (*)[9])n_table[d];
            S.first_id = (const int (*)[9])first_id[d];
            S.pairs = PAIRS[d];
            S.spots_bb = (const bb_t (*)[9])spots_bb[d];
            build(&S, 0, 0, 0);
        }
    }
    if (!S.has) return NOTHING;
    Found found = board_remove(b, S.clear, (mask_t)(1u << (S.best_digit - 1)));
    return turbot ? found : with_bonus(found, S.tenths);
}

Found grouped_two_strong_links(Board *b) { return strong_links(b, 2, 1); }
Found three_strong_links(Board *b) { return strong_links(b, 3, 0); }
