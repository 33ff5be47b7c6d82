/* The rules SE's dynamic forcing chains "(+)" apply inside a chain (solver/nested.py): pointing
 * and claiming, hidden pairs, naked pairs and X-wings, in that order, on the board the chain
 * leaves, and at level 2 SE's forcing chains and cycles (cycles.c every_chain), at level 3
 * also its multiple forcing chains, at level 4 its dynamic forcing chains in their place; the
 * eliminations of the first that gives any, each with its parents (the removed candidates the
 * instance needed) and its chain, in SE's order. Units, pairs and lines come from the
 * reference's tables (T.nested_*). */
#include <stdlib.h>
#include <string.h>

#include "core.h"


/* An instance's eliminations as built, then put in the profile's order and emitted. */
typedef struct {
    int n;
    uint8_t cell[81];
    mask_t digits[81];
} Removals;

/* Emit the removals (classic: by cell; SukakuExplainer: as a Java HashMap keyed by cell
 * index orders them) with the instance's parents; returns the eliminations now in `out`. */
static void add_removal(Removals *rm, int cell, unsigned digits) {
    rm->cell[rm->n] = (uint8_t)cell;
    rm->digits[rm->n++] = (mask_t)digits;
}

/* Room for `need` eliminations. */
static void reserve(Eliminations *out, uint32_t need) {
    if (need <= out->cap) return;
    uint32_t cap = out->cap ? out->cap : 1024;
    while (cap < need) cap *= 2;
    void *key = realloc(out->key, cap * sizeof *out->key);
    if (key) out->key = key;
    void *first = realloc(out->first, cap * sizeof *out->first);
    if (first) out->first = first;
    void *count = realloc(out->count, cap * sizeof *out->count);
    if (count) out->count = count;
    void *chain = realloc(out->chain, cap * sizeof *out->chain);
    if (chain) out->chain = chain;
    void *complexity = realloc(out->chain_complexity, cap * sizeof *out->chain_complexity);
    if (complexity) out->chain_complexity = complexity;
    if (!key || !first || !count || !chain || !complexity) abort();
    out->cap = cap;
}

static void emit_chain(Removals *rm, const uint16_t *par, int n_par, int hash_order, Eliminations *out,
                       uint64_t chain, int chain_complexity) {
    if (!n_par || !rm->n) return;
    uint32_t digits = 0;
    for (int k = 0; k < rm->n; k++) digits += (uint32_t)pop(rm->digits[k]);
    if (!grow_buffer((void **)&out->parents, &out->cap_parents, out->n_parents + (uint32_t)n_par,
                     sizeof *out->parents))
        abort();
    reserve(out, out->n + digits);
    int size = 16;
    while (rm->n > size * 3 / 4) size *= 2;
    int order[81], key[81];
    for (int k = 0; k < rm->n; k++) {       /* a stable insertion sort by the order's key */
        key[k] = hash_order ? rm->cell[k] & (size - 1) : rm->cell[k];
        int j = k;
        for (; j > 0 && key[order[j - 1]] > key[k]; j--) order[j] = order[j - 1];
        order[j] = k;
    }
    uint32_t first = out->n_parents;
    for (int k = 0; k < n_par; k++) out->parents[out->n_parents++] = par[k];
    for (int k = 0; k < rm->n; k++) {
        int cell = rm->cell[order[k]];
        for (unsigned m = rm->digits[order[k]]; m; m &= m - 1) {
            uint32_t at = out->n++;
            out->key[at] = (uint16_t)((cell * 9 + low_bit_index(m)) * 2);
            out->first[at] = first;
            out->count[at] = (uint16_t)n_par;
            out->chain[at] = chain;
            out->chain_complexity[at] = (uint16_t)chain_complexity;
        }
    }
}

static void emit(Removals *rm, const uint16_t *par, int n_par, int hash_order, Eliminations *out) {
    emit_chain(rm, par, n_par, hash_order, out, 0, 0);
}

/* The board and the position's candidates as the plain rules see them: each unit's places of
 * each digit (bit j: its j-th cell), and how many of its cells the position leaves open. */
typedef struct {
    uint16_t at[27][9];             /* the board's places */
    const uint16_t (*had)[9];       /* the position's (`source`) */
    const int *open;
} Views;

/* within[u][v]: the places of unit u (bit j) whose cell lies in unit v. */
static uint16_t within[27][27];

/* The 54 segments, the three cells a line and a box share (rows' first, then columns'), and for
 * each of locking()'s crossings, units u and w: their segment, and the other two segments of u
 * and of w that run the same way. */
static bb_t segment_bb[54];
static uint8_t segment_cells[54][3], crossing_segments[108][5];

static int segment_of(bb_t cells) {
    for (int s = 0; s < 54; s++) {
        if (segment_bb[s] == cells) return s;
    }
    return -1;
}

static void make_segments(void) {
    for (int b = 0; b < 9; b++) {
        for (int k = 0; k < 3; k++) {
            segment_bb[b * 3 + k] = UNIT_BB[18 + b] & UNIT_BB[(b / 3) * 3 + k];        /* rows */
            segment_bb[27 + b * 3 + k] = UNIT_BB[18 + b] & UNIT_BB[9 + (b % 3) * 3 + k];  /* columns */
        }
    }
    for (int s = 0; s < 54; s++) {
        int n = 0;
        for (bb_t r = segment_bb[s]; r; r &= r - 1) segment_cells[s][n++] = (uint8_t)bb_first(r);
    }
    for (int k = 0; k < 108; k++) {
        int u = T.nested_crossings[k][0], w = T.nested_crossings[k][1];
        int in = segment_of(UNIT_BB[u] & UNIT_BB[w]), n_u = 1, n_w = 3;
        crossing_segments[k][0] = (uint8_t)in;
        for (int s = in < 27 ? 0 : 27, end = s + 27; s < end; s++) {
            if (s == in) continue;
            if ((segment_bb[s] & UNIT_BB[u]) == segment_bb[s]) crossing_segments[k][n_u++] = (uint8_t)s;
            if ((segment_bb[s] & UNIT_BB[w]) == segment_bb[s]) crossing_segments[k][n_w++] = (uint8_t)s;
        }
    }
}

static void make_views(const mask_t *board, const mask_t *source, Views *v) {
    if (!within[0][0]) {
        for (int u = 0; u < 27; u++) {
            for (int w = 0; w < 27; w++) {
                for (int j = 0; j < 9; j++) {
                    if (CELL_UNITS[UNITS[u][j]] >> w & 1) within[u][w] |= (uint16_t)(1u << j);
                }
            }
        }
        make_segments();
    }
    bb_t digits[9];  /* not read here */
    board_views(board, v->at, digits);
    /* the position's: the same for every board of a nested search, made once for it */
    static mask_t had_of[81];
    static uint16_t had[27][9];
    static int open[27], made;
    if (!made || memcmp(had_of, source, sizeof had_of)) {
        made = 1;
        memcpy(had_of, source, sizeof had_of);
        board_views(source, had, digits);
        for (int u = 0; u < 27; u++) {
            unsigned any = 0;
            for (int d = 0; d < 9; d++) any |= had[u][d];
            open[u] = pop(any);
        }
    }
    v->had = (const uint16_t(*)[9])had;
    v->open = open;
}

static void locking(const mask_t *board, const mask_t *source, const Views *v, int hash_order, Eliminations *out) {
    unsigned digits[54];  /* each segment's candidates */
    for (int s = 0; s < 54; s++) {
        const uint8_t *c = segment_cells[s];
        digits[s] = board[c[0]] | board[c[1]] | board[c[2]];
    }
    for (int k = 0; k < 108; k++) {
        int u = T.nested_crossings[k][0], w = T.nested_crossings[k][1];
        unsigned inside = within[u][w], rest = within[w][u];
        const uint8_t *seg = crossing_segments[k];
        /* the digits of the segment not elsewhere in u, and elsewhere in w */
        unsigned locked = digits[seg[0]] & ~digits[seg[1]] & ~digits[seg[2]];
        for (unsigned ds = locked & (digits[seg[3]] | digits[seg[4]]); ds; ds &= ds - 1) {
            int d = low_bit_index(ds);
            unsigned places = v->at[u][d];
            if (pop(places) < 2) continue;
            unsigned gone = v->at[w][d] & ~rest;  /* the digit's places in w, outside u */
            mask_t bit = (mask_t)(1u << d);
            Removals rm = {0};
            for (; gone; gone &= gone - 1) add_removal(&rm, UNITS[w][low_bit_index(gone)], bit);
            uint16_t par[9];
            int n_par = 0;
            for (unsigned m = v->had[u][d] & ~v->at[u][d] & ~inside; m; m &= m - 1)
                par[n_par++] = (uint16_t)((UNITS[u][low_bit_index(m)] * 9 + d) * 2);
            emit(&rm, par, n_par, hash_order, out);
        }
    }
    (void)board, (void)source;
}

static void hidden_pairs(const mask_t *board, const mask_t *source, const Views *v, int hash_order, Eliminations *out) {
    for (int k = 0; k < 27; k++) {
        int u = T.nested_set_units[k];
        if (v->open[u] <= 4) continue;
        unsigned two = 0;  /* the digits of two places here: a pair's two have the same two */
        for (int d = 0; d < 9; d++) two |= (unsigned)(pop(v->at[u][d]) == 2) << d;
        if (!(two & (two - 1))) continue;
        for (int p = 0; p < 36; p++) {
            int a = T.nested_pairs[p][0], b = T.nested_pairs[p][1];
            if (!(two >> a & two >> b & 1) || v->at[u][a] != v->at[u][b]) continue;
            unsigned cells = v->at[u][a];  /* the positions of both */
            mask_t pair = (mask_t)(1u << a | 1u << b);
            Removals rm = {0};
            uint16_t par[14];
            int n_par = 0;
            for (int j = 0; j < 9; j++) {
                int c = UNITS[u][j];
                if (cells >> j & 1) {
                    if (board[c] & ~pair) {
                        add_removal(&rm, c, board[c] & ~pair);
                    }
                } else {
                    if (source[c] >> a & 1) par[n_par++] = (uint16_t)((c * 9 + a) * 2);
                    if (source[c] >> b & 1) par[n_par++] = (uint16_t)((c * 9 + b) * 2);
                }
            }
            emit(&rm, par, n_par, hash_order, out);
        }
    }
}

static void naked_pairs(const mask_t *board, const mask_t *source, const Views *v, int hash_order, Eliminations *out) {
    for (int k = 0; k < 27; k++) {
        int u = T.nested_set_units[k];
        if (v->open[u] < 4) continue;
        unsigned two = 0;  /* the places of cells of two candidates: a pair's have the same */
        for (int j = 0; j < 9; j++) two |= (unsigned)(pop(board[UNITS[u][j]]) == 2) << j;
        if (!(two & (two - 1))) continue;
        for (int p = 0; p < 36; p++) {
            int i = T.nested_pairs[p][0], j = T.nested_pairs[p][1];
            if (!(two >> i & two >> j & 1)) continue;
            int x = UNITS[u][i], y = UNITS[u][j];
            mask_t pair = board[x];
            if (board[y] != pair) continue;
            Removals rm = {0};
            for (int j = 0; j < 9; j++) {
                int c = UNITS[u][j];
                if (c != x && c != y && (board[c] & pair)) {
                    add_removal(&rm, c, board[c] & pair);
                }
            }
            if (!rm.n) continue;
            uint16_t par[14];
            int n_par = 0;
            for (int m = 0; m < 2; m++) {
                int c = m ? y : x;
                for (unsigned g = source[c] & ~pair & ALL_DIGITS; g; g &= g - 1)
                    par[n_par++] = (uint16_t)((c * 9 + low_bit_index(g)) * 2);
            }
            emit(&rm, par, n_par, hash_order, out);
        }
    }
}

static void x_wings(const mask_t *board, const mask_t *source, const Views *v, int hash_order, Eliminations *out) {
    int placed[9];
    for (int d = 0; d < 9; d++) {
        placed[d] = 0;
        for (int r = 0; r < 9; r++) placed[d] += !v->had[r][d];
    }
    for (int f = 0; f < 2; f++) {
        int base = T.nested_fish_lines[f][0], cover = T.nested_fish_lines[f][1];
        unsigned two[9];  /* a line's digits of two places (a wing's two lines have the same) */
        for (int i = 0; i < 9; i++) {
            two[i] = 0;
            for (int d = 0; d < 9; d++) two[i] |= (unsigned)(placed[d] + 4 <= 9 && pop(v->at[base + i][d]) == 2) << d;
        }
        for (int p = 0; p < 36; p++) {
            int i = T.nested_pairs[p][0], j = T.nested_pairs[p][1];
            for (unsigned ds = two[i] & two[j]; ds; ds &= ds - 1) {
                int d = low_bit_index(ds);
                unsigned crossing = v->at[base + i][d];
                if (crossing != v->at[base + j][d]) continue;
                mask_t bit = (mask_t)(1u << d);
                Removals rm = {0};
                for (int k = 0; k < 9; k++) {
                    if (!(crossing >> k & 1)) continue;
                    for (unsigned m = v->at[cover + k][d] & ~(1u << i | 1u << j); m; m &= m - 1)
                        add_removal(&rm, UNITS[cover + k][low_bit_index(m)], bit);
                }
                if (!rm.n) continue;
                uint16_t par[14];
                int n_par = 0;
                for (int b = 0; b < 2; b++) {
                    int line = base + (b ? j : i);
                    for (unsigned m = v->had[line][d] & ~v->at[line][d] & ~crossing; m; m &= m - 1)
                        par[n_par++] = (uint16_t)((UNITS[line][low_bit_index(m)] * 9 + d) * 2);
                }
                emit(&rm, par, n_par, hash_order, out);
            }
        }
    }
    (void)board, (void)source;
}

/* The hints of a producer a nested chain applies, every one in SE's order: parents, the
 * candidates gone from the cells and units that made its chains' "on"s follow (rule_parents()
 * in the reference). */
static void chain_rule(const Chains *all, const mask_t *board, const mask_t *source, int hash_order,
                       Eliminations *out) {
    static uint32_t stamp[POTENTIALS], now;
    static uint16_t par[POTENTIALS];
    for (int h = 0; h < all->n_kept; h++) {
        const NestedChain *chain = &all->hint[all->kept[h]];
        if (++now == 0) {
            memset(stamp, 0, sizeof stamp);
            now = 1;
        }
        int n_par = 0;
        for (uint32_t k = 0; k < chain->n_causes; k++) {
            int code = all->cause[chain->causes + k] / 9, d = all->cause[chain->causes + k] % 9;
            for (int j = 0; j < 9; j++) {
                int c = code < 81 ? code : UNITS[code - 81][j], e = code < 81 ? j : d;
                if (!((source[c] & ~board[c]) >> e & 1)) continue;
                int p = (c * 9 + e) * 2;
                if (stamp[p] == now) continue;
                stamp[p] = now;
                par[n_par++] = (uint16_t)p;
            }
        }
        Removals rm = {0};
        for (uint32_t k = 0; k < chain->n_removals; k++) {
            add_removal(&rm, all->cell[chain->removals + k], all->mask[chain->removals + k]);
        }
        emit_chain(&rm, par, n_par, hash_order, out, chain->key, chain->complexity);
    }
}

/* SE's forcing chains and cycles (level 2 and up). */
static void forcing_chains(const mask_t *board, const mask_t *source, const Views *v, int hash_order, Eliminations *out) {
    (void)v;
    chain_rule(chains_of(0, board, every_chain), board, source, hash_order, out);
}

/* SE's multiple forcing chains (level 3). */
static void multiple_chains(const mask_t *board, const mask_t *source, const Views *v, int hash_order, Eliminations *out) {
    (void)v;
    chain_rule(chains_of(1, board, every_multiple_chain), board, source, hash_order, out);
}

/* SE's dynamic forcing chains (level 4). */
static void dynamic_chains(const mask_t *board, const mask_t *source, const Views *v, int hash_order, Eliminations *out) {
    (void)v;
    chain_rule(chains_of(2, board, every_dynamic_chain), board, source, hash_order, out);
}

void nested_eliminations(const mask_t *board, const mask_t *source, int hash_order, int level,
                         Eliminations *out) {
    static void (*const rules[])(const mask_t *, const mask_t *, const Views *, int, Eliminations *) = {
        locking, hidden_pairs, naked_pairs, x_wings, forcing_chains, multiple_chains, dynamic_chains,
    };
    work_charge(WORK_STALL);
    int level_rules = T.nested_level_rules[level];
    Views views;
    make_views(board, source, &views);
    out->n = 0;
    out->n_parents = 0;
    for (int k = 0; k < NESTED_RULES && !out->n; k++) {
        if (level_rules >> k & 1) rules[k](board, source, &views, hash_order, out);
    }
}
