/* SE's chains of several assumptions (solver/forcing.py): Nishio, multiple and dynamic forcing
 * chains, the same runs in the same order, so the same hint is chosen. A potential is one int,
 * (cell * 9 + digit - 1) * 2 + on, as in cycles.c.
 *
 * A run's potentials are its nodes, in the order found; the nodes of each kind are also its
 * queues (SE follows them first in, first out, every "on" before the next "off"). The runs of
 * one position live in an arena that grows as needed (reused from call to call); a run from an
 * "on" is kept for the position (a region's chains reuse the cells' own). */
#include <stdlib.h>
#include <string.h>

#include "core.h"



typedef struct {
    int dynamic, nishio;             /* multiple: not nishio (both other rules) */
    int level, hash_order;           /* "(+)": other rules inside the chain (nested.c) */
} Rule;

/* The rule of the k-th of SE's producers (solver/forcing.py RULES), as the reference defines
 * it (T.forcing_rules). */
static Rule rule_of(int k) {
    const int *f = T.forcing_rules[k];
    return (Rule){f[0], f[1], f[2], f[3]};
}

static Eliminations eliminations;

typedef struct {
    uint16_t key;
    uint16_t n_parents;
    uint32_t parents;                /* first in the parent arena */
    uint16_t chain_complexity;       /* the chain nested in it (a rule's "off"), if any: */
    uint64_t chain;                  /* its identity (0: none) */
} Node;

typedef struct {
    uint16_t node_of[POTENTIALS];    /* 1 + the potential's node (of this run), 0: not implied */
    uint32_t first;                  /* its first node in the node arena */
    int n;
    int absurd;                      /* a contradiction stopped it: */
    uint16_t absurd_key[2];          /* [0] "on", [1] "off" */
    uint32_t absurd_parents[2];      /* for a potential not recorded: its parents */
    uint16_t absurd_n[2];
    int absurd_fresh;                /* which of the two is not a node (its parents above) */
} Run;

/* The arenas (grown with realloc, indices only) and the runs of the current position. */
static Node *nodes;
static uint32_t n_nodes, cap_nodes;
static uint16_t *parents;
static uint32_t n_parents, cap_parents;
static Run runs[729 + 1];            /* the run from each "on", and one from an "off" */
static uint32_t run_stamp[729], position;


static uint32_t store_parents(const uint16_t *keys, int n) {
    if (!n) return n_parents;
    if (!grow_buffer((void **)&parents, &cap_parents, n_parents + (uint32_t)n, sizeof *parents)) abort();
    uint32_t at = n_parents;
    memcpy(parents + at, keys, (size_t)n * sizeof *keys);
    n_parents += (uint32_t)n;
    return at;
}

static void add_node(Run *r, int key, const uint16_t *keys, int n) {
    if (!grow_buffer((void **)&nodes, &cap_nodes, n_nodes + 1, sizeof *nodes)) abort();
    Node *node = &nodes[n_nodes++];
    node->key = (uint16_t)key;
    node->n_parents = (uint16_t)n;
    node->chain = 0;
    node->chain_complexity = 0;
    node->parents = store_parents(keys, n);
    r->node_of[key] = (uint16_t)(++r->n);
}

static void stop(Run *r, int on, const uint16_t *keys, int n, int fresh) {
    r->absurd = 1;
    r->absurd_key[0] = (uint16_t)on;
    r->absurd_key[1] = (uint16_t)(on ^ 1);
    r->absurd_fresh = fresh;
    r->absurd_parents[fresh] = store_parents(keys, n);
    r->absurd_n[fresh] = (uint16_t)n;
}

/* What an "on" turns off: the cell's other candidates (with `y`), the digit in its peers. */
int on_to_off(const mask_t *board, int p, int y, int out[28]) {
    int cell = (p >> 1) / 9, d = (p >> 1) % 9, n = 0;
    if (y) {
        for (unsigned m = board[cell] & ~(1u << d); m; m &= m - 1) out[n++] = (cell * 9 + low_bit_index(m)) * 2;
    }
    for (int j = 0; j < 20; j++) {
        int c = T.se_peers[cell][j];
        if (board[c] >> d & 1) out[n++] = (c * 9 + d) * 2;
    }
    return n;
}

/* What an "off" turns on (at most the cell's other candidate and one per unit), each with its
 * parents: p and the candidates removed (dynamic runs) that made it follow. */
int off_to_on(const mask_t *board, const mask_t *source, int p, int y, int out[4],
              uint16_t par[4][MAX_PARENTS], int n_par[4]) {
    int cell = (p >> 1) / 9, d = (p >> 1) % 9, n = 0;
    mask_t bit = (mask_t)(1u << d);
    if (y && pop(board[cell]) == 2) {
        int other = low_bit_index(board[cell] ^ bit);
        out[n] = (cell * 9 + other) * 2 + 1;
        n_par[n] = 0;
        par[n][n_par[n]++] = (uint16_t)p;
        for (unsigned gone = source[cell] & ~board[cell]; gone; gone &= gone - 1)
            par[n][n_par[n]++] = (uint16_t)((cell * 9 + low_bit_index(gone)) * 2);
        n++;
    }
    for (int k = 0; k < 3; k++) {
        const uint8_t *unit = UNITS[T.se_units_of[cell][k]];
        int places = 0, other = -1;
        for (int j = 0; j < 9; j++) {
            if (board[unit[j]] & bit) {
                places++;
                if (unit[j] != cell) other = unit[j];
            }
        }
        if (places != 2) continue;
        int q = (other * 9 + d) * 2 + 1, seen = 0;
        for (int m = 0; m < n; m++) seen |= out[m] == q;
        if (seen) continue;
        out[n] = q;
        n_par[n] = 0;
        par[n][n_par[n]++] = (uint16_t)p;
        for (int j = 0; j < 9; j++) {
            int c = unit[j];
            if (source[c] & ~board[c] & bit) par[n][n_par[n]++] = (uint16_t)((c * 9 + d) * 2);
        }
        n++;
    }
    return n;
}

/* SE's run from the assumption `start` on the board of `cands`. */
static void implications(Run *r, const mask_t *cands, int start, Rule rule) {
    mask_t board[81];
    memcpy(board, cands, sizeof board);
    memset(r->node_of, 0, sizeof r->node_of);
    r->first = n_nodes;
    r->n = 0;
    r->absurd = 0;
    add_node(r, start, NULL, 0);
    int y = !rule.nishio, next_on = 0, next_off = 0;
    for (;;) {
        while (next_on < r->n && !(nodes[r->first + next_on].key & 1)) next_on++;
        if (next_on < r->n) {
            int p = nodes[r->first + next_on++].key;
            uint16_t from = (uint16_t)p;
            int offs[28], n = on_to_off(board, p, y, offs);
            for (int k = 0; k < n; k++) {
                int q = offs[k];
                if (r->node_of[q | 1]) {
                    stop(r, q | 1, &from, 1, 1);
                    return;
                }
                if (!r->node_of[q]) add_node(r, q, &from, 1);
            }
            continue;
        }
        while (next_off < r->n && (nodes[r->first + next_off].key & 1)) next_off++;
        if (next_off >= r->n) {
            if (!rule.level) return;
            int before = r->n;
            nested_eliminations(board, cands, rule.hash_order, rule.level, &eliminations);
            for (uint32_t k = 0; k < eliminations.n; k++) {
                int q = eliminations.key[k];
                if (r->node_of[q]) continue;
                add_node(r, q, eliminations.parents + eliminations.first[k], eliminations.count[k]);
                nodes[n_nodes - 1].chain = eliminations.chain[k];
                nodes[n_nodes - 1].chain_complexity = eliminations.chain_complexity[k];
            }
            if (r->n == before) return;
            continue;
        }
        int p = nodes[r->first + next_off++].key;
        int made[4], n_par[4];
        uint16_t par[4][MAX_PARENTS];
        int n = off_to_on(board, cands, p, y, made, par, n_par);
        if (rule.dynamic) board[(p >> 1) / 9] &= (mask_t) ~(1u << (p >> 1) % 9);
        for (int k = 0; k < n; k++) {
            int q = made[k];
            if (r->node_of[q ^ 1]) {
                stop(r, q, par[k], n_par[k], 0);
                return;
            }
            if (!r->node_of[q]) add_node(r, q, par[k], n_par[k]);
        }
    }
}

/* The chains nested in a hint's chains, each once (SE's getNestedComplexity): begun for each
 * hint, added to by complexity() as it meets them. */
static struct {
    int n;
    uint64_t key[MAX_HINT_LENGTH];
    int complexity[MAX_HINT_LENGTH];
} nest;

static void nest_add(const Node *node) {
    if (!node->chain) return;
    for (int k = 0; k < nest.n; k++) {
        if (nest.key[k] == node->chain) return;
    }
    nest.key[nest.n] = node->chain;
    nest.complexity[nest.n++] = node->chain_complexity;
}

/* Begin a hint's complexity; its total: its chains' potentials (`flat`) and every nested chain's
 * complexity. */
static void nest_begin(void) { nest.n = 0; }

static int nest_total(int flat) {
    for (int k = 0; k < nest.n; k++) flat += nest.complexity[k];
    return flat;
}

/* The potentials `key` rests on in run r, itself included (`from`/`n`: its parents, when it is
 * not a node of the run); the chains nested in them go to `nest`. */
static uint32_t seen_stamp[POTENTIALS], seen_now;

static int complexity(const Run *r, int key, const uint16_t *from, int n) {
    static uint16_t stack[POTENTIALS];
    if (++seen_now == 0) {
        memset(seen_stamp, 0, sizeof seen_stamp);
        seen_now = 1;
    }
    seen_stamp[key] = seen_now;
    if (!from) {
        const Node *node = &nodes[r->first + r->node_of[key] - 1];
        nest_add(node);
        from = parents + node->parents;
        n = node->n_parents;
    }
    int count = 1, sp = 0;
    for (;;) {
        for (int k = 0; k < n; k++) {
            int a = from[k];
            if (seen_stamp[a] != seen_now) {
                seen_stamp[a] = seen_now;
                stack[sp++] = (uint16_t)a;
                count++;
            }
        }
        if (!sp) return count;
        const Node *node = &nodes[r->first + r->node_of[stack[--sp]] - 1];
        nest_add(node);
        from = parents + node->parents;
        n = node->n_parents;
    }
}

static int absurd_complexity(const Run *r) {
    int total = 0;
    nest_begin();
    for (int side = 0; side < 2; side++) {
        int fresh = r->absurd_fresh == side;
        total += complexity(r, r->absurd_key[side], fresh ? parents + r->absurd_parents[side] : NULL,
                            fresh ? r->absurd_n[side] : 0);
    }
    return nest_total(total);
}

/* ---- the hint: least complexity, then kind, then first found ---- */
typedef struct {
    int found, complexity, kind, target;
} Hint;

static void offer(Hint *best, int complexity, int which, int target) {
    int kind = T.forcing_kinds[which];
    if (!best->found || complexity < best->complexity ||
        (complexity == best->complexity && kind < best->kind)) {
        best->found = 1;
        best->complexity = complexity;
        best->kind = kind;
        best->target = target;
    }
}

static Run *run_from(const mask_t *cands, int p, Rule rule) {
    Run *r = &runs[p >> 1];
    if (run_stamp[p >> 1] != position) {
        implications(r, cands, p, rule);
        run_stamp[p >> 1] = position;
    }
    return r;
}

/* Offer what every run of `outcomes` implies (in the first's order), "on"s then "off"s. */
static void common(Run *const *outcomes, int n, int kind, Hint *best) {
    for (int on = 1; on >= 0; on--) {
        const Run *first = outcomes[0];
        for (int k = 0; k < first->n; k++) {
            int q = nodes[first->first + k].key;
            if ((q & 1) != on) continue;
            int all = 1;
            for (int m = 1; m < n && all; m++) all = outcomes[m]->node_of[q] != 0;
            if (!all) continue;
            int total = 0;
            nest_begin();
            for (int m = 0; m < n; m++) total += complexity(outcomes[m], q, NULL, 0);
            offer(best, nest_total(total), kind, q);
        }
    }
}

static void regions(const mask_t *cands, int cell, int d, Run *if_on, Rule rule, Hint *best) {
    for (int k = 0; k < 3; k++) {
        const uint8_t *unit = UNITS[T.se_units_of[cell][k]];
        Run *outcomes[9];
        int n = 0;
        for (int j = 0; j < 9; j++) {
            int c = unit[j];
            if (!(cands[c] >> d & 1)) continue;
            if (n == 0 && c != cell) break;  /* the unit was met at its first place */
            outcomes[n++] = c == cell ? if_on : run_from(cands, (c * 9 + d) * 2 + 1, rule);
        }
        if (n >= 2) common(outcomes, n, HINT_REGION, best);
    }
}

static Hint best_hint(const mask_t *cands, Rule rule) {
    Hint best = {0, 0, 0, 0};
    if (++position == 0) {
        memset(run_stamp, 0, sizeof run_stamp);
        position = 1;
    }
    n_nodes = n_parents = 0;
    int contradictions = rule.dynamic || rule.nishio;
    Run *if_off = &runs[729];
    for (int cell = 0; cell < 81; cell++) {
        int n = pop(cands[cell]);
        if (!(n > 2 || (n > 1 && rule.dynamic))) continue;
        int doubles = n >= 3 && rule.dynamic && !rule.nishio;
        Run *outcomes[9];
        int n_out = 0;
        for (unsigned m = cands[cell]; m; m &= m - 1) {
            int d = low_bit_index(m), p = (cell * 9 + d) * 2 + 1;
            Run *if_on = run_from(cands, p, rule);
            if (contradictions || doubles) {
                uint32_t mark_nodes = n_nodes, mark_parents = n_parents;
                implications(if_off, cands, p ^ 1, rule);
                if (contradictions && if_on->absurd)
                    offer(&best, absurd_complexity(if_on), HINT_CONTRADICTION, p ^ 1);
                if (contradictions && if_off->absurd)
                    offer(&best, absurd_complexity(if_off), HINT_CONTRADICTION, p);
                if (doubles) {
                    for (int on = 1; on >= 0; on--) {
                        for (int k = 0; k < if_on->n; k++) {
                            int q = nodes[if_on->first + k].key;
                            if ((q & 1) != on || !if_off->node_of[q]) continue;
                            nest_begin();
                            int flat = complexity(if_on, q, NULL, 0) + complexity(if_off, q, NULL, 0);
                            offer(&best, nest_total(flat), HINT_DOUBLE, q);
                        }
                    }
                }
                n_nodes = mark_nodes;  /* the run from "off" is used once: its space goes back */
                n_parents = mark_parents;
            }
            if (!rule.nishio) {
                regions(cands, cell, d, if_on, rule, &best);
                outcomes[n_out++] = if_on;
            }
        }
        if (n_out) common(outcomes, n_out, HINT_CELL, &best);
    }
    return best;
}

static Found apply(Board *b, Rule rule) {
    Hint hint = best_hint(b->cands, rule);
    if (!hint.found) return NOTHING;
    int cell = (hint.target >> 1) / 9;
    mask_t bit = (mask_t)(1u << (hint.target >> 1) % 9);
    Found found = hint.target & 1 ? board_place(b, cell, bit) : board_remove(b, bb_cell(cell), bit);
    Found out = {1, T.length_bonus[hint.complexity - 2], found.why};
    return out;
}

Found nishio_forcing_chain(Board *b) { return apply(b, rule_of(0)); }
Found multiple_forcing_chain(Board *b) { return apply(b, rule_of(1)); }
Found dynamic_forcing_chain(Board *b) { return apply(b, rule_of(2)); }
Found dynamic_forcing_chain_plus(Board *b) { return apply(b, rule_of(3)); }
Found sukaku_dynamic_forcing_chain_plus(Board *b) { return apply(b, rule_of(4)); }
Found nested_forcing_chain(Board *b) { return apply(b, rule_of(5)); }
Found sukaku_nested_forcing_chain(Board *b) { return apply(b, rule_of(6)); }
Found nested_multiple_forcing_chain(Board *b) { return apply(b, rule_of(7)); }
Found sukaku_nested_multiple_forcing_chain(Board *b) { return apply(b, rule_of(8)); }
