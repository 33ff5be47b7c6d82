/* Every hint of SE's multiple forcing chains on a board, for the chains nesting them at level 3
 * (solver/forcing.py every_multiple_hint): from each candidate of the cells of three candidates
 * or more, SE's run, not dynamic (one parent a potential); each cell's region chains, then its
 * cell chains, as forcing.c finds them. Runs live here, apart from forcing.c's, whose runs are
 * under way when these are asked for. */
#include <string.h>

#include "core.h"

#define NONE 0xFFFF

typedef struct {
    uint32_t mark[POTENTIALS];    /* == id: the potential is implied */
    uint16_t parent[POTENTIALS];  /* what implied it (NONE: the start) */
    uint16_t order[POTENTIALS];   /* the potentials in the order found */
    uint32_t id;
    int n;
} Run;

static Run runs[729];
static uint32_t made[729], charged[729], position, next_id;
static const mask_t *cands;
static uint16_t places[27][9];
static bb_t digits[9];
static Chains found;

/* What each potential implies on the board (on_to_off, off_to_on), the same for every run of
 * one board: found once, when a run first needs it (`known` == position). */
static uint16_t implied[POTENTIALS][28];
static uint8_t n_implied[POTENTIALS];
static uint32_t known[POTENTIALS];

static int implied_by(int p, const uint16_t **out) {
    *out = implied[p];
    if (known[p] == position) return n_implied[p];
    int found[28], n;
    if (p & 1) {
        n = on_to_off(cands, p, 1, found);
    } else {
        int n_par[4];
        uint16_t par[4][MAX_PARENTS];
        n = off_to_on(cands, cands, p, 1, found, par, n_par, NULL);  /* not dynamic: p the parent */
    }
    for (int k = 0; k < n; k++) implied[p][k] = (uint16_t)found[k];
    n_implied[p] = (uint8_t)n;
    known[p] = position;
    return n;
}

static inline int has(const Run *r, int p) { return r->mark[p] == r->id; }

static void add(Run *r, int p, int parent) {
    r->mark[p] = r->id;
    r->parent[p] = (uint16_t)parent;
    r->order[r->n++] = (uint16_t)p;
}

/* SE's run from the "on" `start` (implications() in the reference), stopped at its first
 * contradiction. */
static void run(Run *r, int start) {
    r->id = ++next_id;
    r->n = 0;
    add(r, start, NONE);
    int next_on = 0, next_off = 0;
    for (;;) {
        while (next_on < r->n && !(r->order[next_on] & 1)) next_on++;
        if (next_on < r->n) {
            const uint16_t *offs;
            int p = r->order[next_on++], n = implied_by(p, &offs);
            for (int k = 0; k < n; k++) {
                if (has(r, offs[k] | 1)) return;
                if (!has(r, offs[k])) add(r, offs[k], p);
            }
            continue;
        }
        while (next_off < r->n && (r->order[next_off] & 1)) next_off++;
        if (next_off >= r->n) return;
        const uint16_t *ons;
        int p = r->order[next_off++], n = implied_by(p, &ons);
        for (int k = 0; k < n; k++) {
            if (has(r, ons[k] ^ 1)) return;
            if (!has(r, ons[k])) add(r, ons[k], p);
        }
    }
}

/* The run from p is asked for: charged once a board, made or not. */
static void charge(int p) {
    if (charged[p >> 1] != position) {
        work_charge(WORK_RUN);
        charged[p >> 1] = position;
    }
}

static Run *run_from(int p) {
    Run *r = &runs[p >> 1];
    if (made[p >> 1] != position) {
        run(r, p);
        made[p >> 1] = position;
    }
    return r;
}

/* Whether the runs from these "on"s may have a hint in common: one is absurd, or all reach a
 * potential (the reach of the graph of both links, cycles.c static_reach: a run that is not
 * absurd reaches all of it). The runs of the others are not made (a shortcut of the core, as
 * forcing.c's quick_search). */
static int may_share(const int *starts, int n) {
    const uint64_t *reach[9];
    int words = 0;
    for (int k = 0; k < n; k++) {
        int absurd;
        words = static_reach(cands, starts[k], &reach[k], &absurd);
        if (absurd) return 1;
    }
    return reaches_meet(reach, n, words);
}

/* common() of the runs from `starts`, made only if they may share a hint. */
static void common_of(const int *starts, int n, int kind, int root, int tenths);

/* The hints of `kind` from what every one of `outcomes` implies (in the first's order), "on"s
 * then "off"s; `root`: the cause SE gives each chain's start (its cell, or 81 + the unit). */
static void common(Run *const *outcomes, int n, int kind, int root, int tenths) {
    static uint16_t path[POTENTIALS], causes[9 * POTENTIALS];
    for (int on = 1; on >= 0; on--) {
        const Run *first = outcomes[0];
        for (int k = 0; k < first->n; k++) {
            int q = first->order[k];
            if ((q & 1) != on) continue;
            int all = 1;
            for (int m = 1; m < n && all; m++) all = has(outcomes[m], q);
            if (!all) continue;
            int cell = (q >> 1) / 9;
            mask_t bit = (mask_t)(1u << (q >> 1) % 9);
            mask_t removals[81] = {0};
            removals[cell] = q & 1 ? (mask_t)(cands[cell] & ~bit) : bit;
            if (!removals[cell]) continue;  /* SE's hint removes nothing: not worth it */
            int complexity = 0, n_causes = 0;
            uint64_t key = 0;
            for (int m = 0; m < n; m++) {
                int len = 0;
                for (int p = q; p != NONE; p = outcomes[m]->parent[p]) path[len++] = (uint16_t)p;
                for (int i = 0; i + 1 < len; i++) {
                    if (path[i] & 1)
                        causes[n_causes++] = (uint16_t)(chain_cause((const uint16_t(*)[9])places, path[i], path[i + 1]) * 9 + (path[i] >> 1) % 9);
                }
                causes[n_causes++] = (uint16_t)(root * 9 + (path[len - 1] >> 1) % 9);
                complexity += len;
                key = chains_key(0, path, len, key);
            }
            chains_add(&found, tenths / 10.0 + T.length_added[complexity - 2], complexity,
                       T.forcing_kinds[kind], removals, causes, n_causes, key);
        }
    }
}

static void common_of(const int *starts, int n, int kind, int root, int tenths) {
    for (int k = 0; k < n; k++) charge(starts[k]);
    if (!may_share(starts, n)) return;
    Run *outcomes[9];
    for (int k = 0; k < n; k++) outcomes[k] = run_from(starts[k]);
    common(outcomes, n, kind, root, tenths);
}

const Chains *every_multiple_chain(const mask_t *board) {
    cands = board;
    board_views(board, places, digits);
    if (++position == 0) {
        memset(made, 0, sizeof made);
        memset(charged, 0, sizeof charged);
        memset(known, 0, sizeof known);
        position = 1;
    }
    chains_reset(&found);
    int tenths = rung_tenths(multiple_forcing_chain);
    for (int cell = 0; cell < 81; cell++) {
        if (pop(cands[cell]) <= 2) continue;
        int outcomes[9], n_out = 0;
        for (unsigned m = cands[cell]; m; m &= m - 1) {
            int d = low_bit_index(m), if_on = (cell * 9 + d) * 2 + 1;
            charge(if_on);
            for (int k = 0; k < 3; k++) {
                int u = T.se_units_of[cell][k];
                unsigned at = places[u][d];
                if (pop(at) < 2 || UNITS[u][low_bit_index(at)] != cell) continue;
                int region[9], n = 0;
                for (; at; at &= at - 1) region[n++] = (UNITS[u][low_bit_index(at)] * 9 + d) * 2 + 1;
                common_of(region, n, HINT_REGION, 81 + u, tenths);
            }
            outcomes[n_out++] = if_on;
        }
        common_of(outcomes, n_out, HINT_CELL, cell, tenths);
    }
    chains_hand_over(&found);
    return &found;
}
