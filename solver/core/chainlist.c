/* The hints a producer hands to the chains nesting it (solver/cycles.py Chain, kept_once): each
 * with its order, removals, causes and identity, recorded as found, then sorted (stably) and
 * kept once per set of removals, as SE hands them on. */
#include <stdlib.h>
#include <string.h>

#include "core.h"

int grow_buffer(void **buf, uint32_t *cap, uint32_t need, size_t size) {
    if (need <= *cap) return 1;
    uint32_t next = *cap ? *cap : 4096;
    while (next < need) next *= 2;
    void *p = realloc(*buf, (size_t)next * size);
    if (!p) return 0;
    *buf = p;
    *cap = next;
    return 1;
}

int rung_tenths(technique_fn rung) {
    for (int k = 0; k < T.n; k++) {
        if (T.rungs[k].apply == rung) return T.rungs[k].tenths;
    }
    return 0;
}

void board_views(const mask_t *cands, uint16_t places[27][9], bb_t digits[9]) {
    /* the last board's, kept: a nested chain's rules ask for the same board's one after the
     * other */
    static mask_t last[81];
    static uint16_t last_places[27][9];
    static bb_t last_digits[9];
    static int kept;
    if (kept && !memcmp(last, cands, sizeof last)) {
        memcpy(places, last_places, sizeof last_places);
        memcpy(digits, last_digits, sizeof last_digits);
        return;
    }
    memset(places, 0, 27 * sizeof places[0]);
    memset(digits, 0, 9 * sizeof digits[0]);
    for (int c = 0; c < 81; c++) {  /* a cell's place in its row, column and box (tables.c) */
        int row = ROW_OF[c], col = COL_OF[c], box = 18 + BOX_OF[c];
        unsigned in_row = 1u << col, in_col = 1u << row, in_box = 1u << BOX_PLACE[c];
        for (unsigned m = cands[c]; m; m &= m - 1) {
            int d = low_bit_index(m);
            places[row][d] |= (uint16_t)in_row;
            places[9 + col][d] |= (uint16_t)in_col;
            places[box][d] |= (uint16_t)in_box;
            digits[d] |= bb_cell(c);
        }
    }
    kept = 1;
    memcpy(last, cands, sizeof last);
    memcpy(last_places, places, sizeof last_places);
    memcpy(last_digits, digits, sizeof last_digits);
}

int chain_cause(const uint16_t (*places)[9], int p, int parent) {
    int cell = (p >> 1) / 9, d = (p >> 1) % 9, from = (parent >> 1) / 9;
    if (cell == from) return cell;
    for (int k = 0; k < 3; k++) {
        int u = T.se_units_of[from][k];
        if (!((CELL_UNITS[cell] >> u) & 1)) continue;
        if ((p & 1) && pop(places[u][d]) != 2) continue;
        return 81 + u;
    }
    return 0;
}

uint64_t chains_key(int tag, const uint16_t *keys, int n, uint64_t h) {
    if (!h) h = 1469598103934665603ull ^ (uint64_t)tag;
    for (int k = 0; k < n; k++) h = (h ^ keys[k]) * 1099511628211ull;
    h = (h ^ 0xFFFFu) * 1099511628211ull;  /* the end of one chain */
    return h | 1;                            /* never 0: "no chain" */
}

void chains_reset(Chains *c) {
    c->n = 0;
    c->n_removals = c->n_causes = 0;
}

void chains_add(Chains *c, double difficulty, int complexity, int rank, const mask_t *removals,
                const uint16_t *causes, int n_causes, uint64_t key) {
    if (!grow_buffer((void **)&c->hint, &c->cap, (uint32_t)c->n + 1, sizeof *c->hint) ||
        !grow_buffer((void **)&c->cell, &c->cap_removals, c->n_removals + 81, sizeof *c->cell) ||
        !grow_buffer((void **)&c->mask, &c->cap_masks, c->n_removals + 81, sizeof *c->mask) ||
        !grow_buffer((void **)&c->cause, &c->cap_causes, c->n_causes + (uint32_t)n_causes,
                     sizeof *c->cause))
        abort();
    NestedChain *h = &c->hint[c->n];
    h->difficulty = difficulty;
    h->complexity = complexity;
    h->rank = rank;
    h->found = c->n++;
    h->removals = c->n_removals;
    for (int cell = 0; cell < 81; cell++) {
        if (!removals[cell]) continue;
        c->cell[c->n_removals] = (uint8_t)cell;
        c->mask[c->n_removals++] = removals[cell];
    }
    h->n_removals = c->n_removals - h->removals;
    h->causes = c->n_causes;
    memcpy(c->cause + c->n_causes, causes, (size_t)n_causes * sizeof *causes);
    c->n_causes += (uint32_t)n_causes;
    h->n_causes = (uint32_t)n_causes;
    h->key = key;
}

static const Chains *sorting;

static int by_order(const void *a, const void *b) {
    const NestedChain *x = &sorting->hint[*(const int *)a], *y = &sorting->hint[*(const int *)b];
    if (x->difficulty != y->difficulty) return x->difficulty < y->difficulty ? -1 : 1;
    if (x->complexity != y->complexity) return x->complexity - y->complexity;
    if (x->rank != y->rank) return x->rank - y->rank;
    return x->found - y->found;
}

static int same_removals(const Chains *c, const NestedChain *x, const NestedChain *y) {
    if (x->n_removals != y->n_removals) return 0;
    for (uint32_t k = 0; k < x->n_removals; k++) {
        if (c->cell[x->removals + k] != c->cell[y->removals + k] ||
            c->mask[x->removals + k] != c->mask[y->removals + k])
            return 0;
    }
    return 1;
}

void chains_hand_over(Chains *c) {
    static int *table;
    static uint32_t cap_table;
    uint32_t size = 64;
    while (size < 2u * (uint32_t)c->n) size *= 2;
    if (!grow_buffer((void **)&c->kept, &c->cap_kept, (uint32_t)c->n + 1, sizeof *c->kept) ||
        !grow_buffer((void **)&table, &cap_table, size, sizeof *table))
        abort();
    for (int k = 0; k < c->n; k++) c->kept[k] = k;
    sorting = c;
    qsort(c->kept, (size_t)c->n, sizeof *c->kept, by_order);
    memset(table, -1, size * sizeof *table);
    int n_kept = 0;
    for (int k = 0; k < c->n; k++) {  /* SE keeps the first hint of each set of removals */
        const NestedChain *h = &c->hint[c->kept[k]];
        uint64_t hash = 14695981039346656037ull;
        for (uint32_t r = 0; r < h->n_removals; r++)
            hash = (hash ^ (uint64_t)(c->cell[h->removals + r] << 9 | c->mask[h->removals + r])) * 1099511628211ull;
        uint32_t at = (uint32_t)(hash >> 20) & (size - 1);
        int seen = 0;
        for (; table[at] >= 0 && !seen; at = (at + 1) & (size - 1)) seen = same_removals(c, &c->hint[table[at]], h);
        if (seen) continue;
        table[at] = c->kept[k];
        c->kept[n_kept++] = c->kept[k];
    }
    c->n_kept = n_kept;
}

/* ---- the producers' hints kept for a board that recurs ----
 * A producer's hints depend on the board alone (its candidates; the tables are set once), and a
 * nested chain meets the same board again and again: the runs of one position at each level of
 * nesting, the runs of the same start at the next level, of the next position where the step
 * removed what the run removes anyway. Each producer keeps the hints it handed on for its last
 * boards (a slot each, by the board's hash), with the work they were charged: a board found
 * again is charged the same work (jumping out as the work would have) and given the same hints. */
#define KEPT_SLOTS 4096

typedef struct {
    int used;
    uint64_t hash;
    mask_t board[81];
    int64_t work[WORK_KINDS];     /* the charges of each kind the producer made */
    Chains hints;                 /* the hints handed on, in SE's order: kept[k] == k */
} Kept;

static Kept *kept_slots[3];

static uint64_t board_hash(const mask_t *board) {
    uint64_t w[21] = {0}, h = 14695981039346656037ull;
    memcpy(w, board, 81 * sizeof *board);  /* 81 masks in 21 words */
    for (int k = 0; k < 21; k++) h = (h ^ w[k]) * 1099511628211ull ^ (h >> 29);
    return h ^ (h >> 31);
}

/* Room for `need` in a kept buffer: no more than that (the slots are many, mostly small). */
static void fit(void **buf, uint32_t *cap, uint32_t need, size_t size) {
    if (need <= *cap) return;
    void *p = realloc(*buf, (size_t)need * size);
    if (!p) abort();
    *buf = p;
    *cap = need;
}

/* Copy the hints `c` hands on into `to`, in their order. */
static void keep_hints(const Chains *c, Chains *to) {
    chains_reset(to);
    uint32_t n = (uint32_t)c->n_kept;
    fit((void **)&to->hint, &to->cap, n + 1, sizeof *to->hint);
    fit((void **)&to->kept, &to->cap_kept, n + 1, sizeof *to->kept);
    uint32_t removals = 0, causes = 0;
    for (uint32_t k = 0; k < n; k++) {
        removals += c->hint[c->kept[k]].n_removals;
        causes += c->hint[c->kept[k]].n_causes;
    }
    fit((void **)&to->cell, &to->cap_removals, removals + 1, sizeof *to->cell);
    fit((void **)&to->mask, &to->cap_masks, removals + 1, sizeof *to->mask);
    fit((void **)&to->cause, &to->cap_causes, causes + 1, sizeof *to->cause);
    for (uint32_t k = 0; k < n; k++) {
        const NestedChain *h = &c->hint[c->kept[k]];
        NestedChain *g = &to->hint[k];
        *g = *h;
        g->found = (int)k;
        g->removals = to->n_removals;
        memcpy(to->cell + to->n_removals, c->cell + h->removals, h->n_removals * sizeof *c->cell);
        memcpy(to->mask + to->n_removals, c->mask + h->removals, h->n_removals * sizeof *c->mask);
        to->n_removals += h->n_removals;
        g->causes = to->n_causes;
        memcpy(to->cause + to->n_causes, c->cause + h->causes, h->n_causes * sizeof *c->cause);
        to->n_causes += h->n_causes;
        to->kept[k] = (int)k;
    }
    to->n = to->n_kept = (int)n;
}

const Chains *chains_of(int producer, const mask_t *board, const Chains *(*make)(const mask_t *)) {
    if (!kept_slots[producer]) {
        kept_slots[producer] = calloc(KEPT_SLOTS, sizeof(Kept));
        if (!kept_slots[producer]) abort();
    }
    uint64_t hash = board_hash(board);
    Kept *slot = &kept_slots[producer][hash & (KEPT_SLOTS - 1)];
    if (slot->used && slot->hash == hash && !memcmp(slot->board, board, sizeof slot->board)) {
        int64_t units = 0;
        for (int k = 0; k < WORK_KINDS; k++) {
            work_tally[k] += slot->work[k];
            units += slot->work[k] * T.work_charges[k];
        }
        if (work_out) {  /* charged at once: the work runs out here if it ran out in the making */
            work_left -= units;
            if (work_left < 0) longjmp(*work_out, 1);
        }
        return &slot->hints;
    }
    int64_t before[WORK_KINDS];
    memcpy(before, work_tally, sizeof before);
    const Chains *made = make(board);
    slot->used = 1;
    slot->hash = hash;
    memcpy(slot->board, board, sizeof slot->board);
    for (int k = 0; k < WORK_KINDS; k++) slot->work[k] = work_tally[k] - before[k];
    keep_hints(made, &slot->hints);
    return &slot->hints;
}

void chains_forget(void) {
    for (int p = 0; p < 3; p++) {
        if (!kept_slots[p]) continue;
        for (int k = 0; k < KEPT_SLOTS; k++) kept_slots[p][k].used = 0;
    }
}
