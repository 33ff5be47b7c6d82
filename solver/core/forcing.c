/* SE's chains of several assumptions (solver/forcing.py): Nishio, multiple and dynamic forcing
 * chains, the same runs in the same order, so the same hint is chosen. A potential is one int,
 * (cell * 9 + digit - 1) * 2 + on, as in cycles.c.
 *
 * A run's potentials are its nodes, in the order found; the nodes of each kind are also its
 * queues (SE follows them first in, first out, every "on" before the next "off"). The runs of
 * one position live in an arena that grows as needed (reused from call to call); a run from an
 * "on" is kept for the position (a region's chains reuse the cells' own).
 *
 * The same runs give every hint of dynamic forcing chains, for SE's nested chains of level 4
 * (every_dynamic_chain; solver/forcing.py every_dynamic_hint). Those runs go on while the
 * nesting chain's own are under way: each depth of nesting has its own space. */
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

#define NO_CAUSE 0xFF

typedef struct {
    uint16_t key;
    uint16_t n_parents;
    uint32_t parents;                /* first in the parent arena */
    uint16_t depth;                  /* 0 for the start, else 1 + its deepest parent's: the
                                      * potentials its chain rests on are at least depth + 1 */
    uint8_t cause;                   /* an "on" but the start: its cell, or 81 + the unit */
    uint8_t nested;                  /* a chain nested in it (a rule's "off"): in Nested */
} Node;

/* A node's nested chain, at the node's index in its depth's arena: its identity (0: none) and
 * complexity; written only for a node marked `nested`. */
typedef struct {
    uint64_t chain;
    uint16_t complexity;
} Nested;

#define WORDS ((POTENTIALS + 63) / 64)

typedef struct {
    uint64_t has[WORDS];             /* the potentials implied (a bit each) */
    uint16_t node_of[POTENTIALS];    /* each one's node (of this run), where `has` says so */
    uint32_t first;                  /* its first node in the node arena */
    int n;
    int absurd;                      /* a contradiction stopped it: */
    uint16_t absurd_key[2];          /* [0] "on", [1] "off" */
    uint32_t absurd_parents[2];      /* for a potential not recorded: its parents */
    uint16_t absurd_n[2];
    int absurd_fresh;                /* which of the two is not a node (its parents above) */
    uint8_t absurd_cause;            /* the "on"'s cause, when it is that one */
} Run;

/* What a run reaches, without its nodes: whether it is absurd, and a static run's reach. */
typedef struct {
    const uint64_t *reach;
    int absurd;
} Reached;

/* The hint SE applies: least complexity, then kind, then first found. */
typedef struct {
    int found, complexity, kind, target;
} Hint;

#define REMOVALS (ALL_DIGITS + 1)  /* the sets of digits a hint may remove from one cell */

/* Whether a hint of this complexity and kind comes before one of `complexity` and `kind` in SE's
 * order (least complexity, then kind; a tie goes to the one found first). */
static int comes_before(int c, int rank, int complexity, int kind) {
    return c < complexity || (c == complexity && rank < kind);
}

/* What an "off" turns on in a run that is not dynamic, whose board is the position's: the cell's
 * other candidate (of two), then the other place of each unit (of two) in SE's order, each with
 * its cause (the cell, or 81 + the unit). */
typedef struct {
    uint8_t n, cell[4], digit[4], cause[4];
    uint16_t on[4];
} StaticOns;

/* One depth's arenas (grown with realloc, indices only), the runs of its current position, and
 * where its hints go: the best one, or (`every`) all of them. */
typedef struct {
    Node *nodes;
    uint32_t n_nodes, cap_nodes;
    Nested *nested;
    uint32_t cap_nested;
    uint16_t *parents;
    uint32_t n_parents, cap_parents;
    Run runs[729 + 1];               /* the run from each "on", and one from an "off" */
    uint32_t run_stamp[729], position;
    /* The shortcut, for Nishio and multiple forcing chains: what each run from an "on" of the
     * position reaches, and the run from an "off" under way; `words`: a static reach's. */
    Reached reached[729 + 1];
    uint32_t reached_stamp[729];
    /* a run that is not dynamic: what each "off" turns on, the same for all runs of a position
     * (found once, valid where its stamp is the position) */
    StaticOns static_ons[729];
    uint32_t static_stamp[729];
    int words;
    /* Nishio: a run keeps to its digit's places, so what is known of its runs holds while they
     * are the same (from position to position): the places whose "off" [0] / "on" [1] a run not
     * absurd reached (closures.c), so not absurd, and those whose run is absurd. */
    bb_t nishio_places[9], calm[2][9], absurd[2][9];
    Eliminations eliminations;       /* what the rules inside a run give */
    const mask_t *cands;
    bb_t planes[9];                  /* the cells of `cands` allowing each digit */
    uint16_t places[27][9];          /* and each unit's places of each digit (board_views) */
    Hint best;
    int every, tenths;
    Chains found;
    /* every: the least (complexity, kind) recorded so far for each set of removals (a cell and
     * its digits), valid where its stamp is this call's: only the first of each is handed on */
    uint32_t least_stamp[81 * REMOVALS], call;
    uint16_t least_complexity[81 * REMOVALS];
    uint8_t least_kind[81 * REMOVALS];
} Space;

#define DEPTHS 2                     /* a level-4 chain's runs, and the dynamic ones it nests */
static Space *spaces[DEPTHS], *S;

static void use_depth(int d) {
    if (!spaces[d]) {
        spaces[d] = calloc(1, sizeof(Space));
        if (!spaces[d]) abort();
    }
    S = spaces[d];
}

/* Begin a position of the current depth: its runs are made anew. */
static void begin_position(const mask_t *cands) {
    if (++S->position == 0) {
        memset(S->run_stamp, 0, sizeof S->run_stamp);
        memset(S->reached_stamp, 0, sizeof S->reached_stamp);
        memset(S->static_stamp, 0, sizeof S->static_stamp);
        S->position = 1;
    }
    S->n_nodes = S->n_parents = 0;
    S->cands = cands;
    board_views(cands, S->places, S->planes);
    for (int d = 0; d < 9; d++) {
        if (S->nishio_places[d] == S->planes[d]) continue;
        S->nishio_places[d] = S->planes[d];
        S->calm[0][d] = S->calm[1][d] = S->absurd[0][d] = S->absurd[1][d] = 0;
    }
}

static inline int in_run(const Run *r, int key) { return (int)(r->has[key >> 6] >> (key & 63) & 1); }

static uint32_t store_parents(const uint16_t *keys, int n) {
    if (!n) return S->n_parents;
    if (S->n_parents + (uint32_t)n > S->cap_parents &&
        !grow_buffer((void **)&S->parents, &S->cap_parents, S->n_parents + (uint32_t)n, sizeof *S->parents))
        abort();
    uint32_t at = S->n_parents;
    memcpy(S->parents + at, keys, (size_t)n * sizeof *keys);
    S->n_parents += (uint32_t)n;
    return at;
}

static const Node *node_of(const Run *r, int key);

/* 0 without parents, else 1 + the deepest parent's depth (the parents are nodes of r). */
static uint16_t depth_over(const Run *r, const uint16_t *keys, int n) {
    if (!n) return 0;
    int deepest = 0;
    for (int k = 0; k < n; k++) {
        int d = node_of(r, keys[k])->depth;
        if (d > deepest) deepest = d;
    }
    return (uint16_t)(deepest + 1);
}

static Node *add_node(Run *r, int key, const uint16_t *keys, int n, int cause) {
    if (S->n_nodes >= S->cap_nodes &&
        !grow_buffer((void **)&S->nodes, &S->cap_nodes, S->n_nodes + 1, sizeof *S->nodes))
        abort();
    Node *node = &S->nodes[S->n_nodes++];
    node->key = (uint16_t)key;
    node->n_parents = (uint16_t)n;
    node->nested = 0;
    node->cause = (uint8_t)cause;
    node->depth = depth_over(r, keys, n);
    node->parents = store_parents(keys, n);
    r->has[key >> 6] |= 1ull << (key & 63);
    r->node_of[key] = (uint16_t)r->n++;
    return node;
}

static const Node *node_of(const Run *r, int key) { return &S->nodes[r->first + r->node_of[key]]; }

static void stop(Run *r, int on, const uint16_t *keys, int n, int fresh, int cause) {
    r->absurd = 1;
    r->absurd_key[0] = (uint16_t)on;
    r->absurd_key[1] = (uint16_t)(on ^ 1);
    r->absurd_fresh = fresh;
    r->absurd_parents[fresh] = store_parents(keys, n);
    r->absurd_n[fresh] = (uint16_t)n;
    r->absurd_cause = (uint8_t)cause;
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
 * parents: p and the candidates removed (dynamic runs) that made it follow; and its cause (the
 * cell, or 81 + the unit), into `why` unless NULL. */
int off_to_on(const mask_t *board, const mask_t *source, int p, int y, int out[4],
              uint16_t par[4][MAX_PARENTS], int n_par[4], int why[4]) {
    int cell = (p >> 1) / 9, d = (p >> 1) % 9, n = 0;
    mask_t bit = (mask_t)(1u << d);
    if (y && pop(board[cell]) == 2) {
        int other = low_bit_index(board[cell] ^ bit);
        out[n] = (cell * 9 + other) * 2 + 1;
        n_par[n] = 0;
        par[n][n_par[n]++] = (uint16_t)p;
        for (unsigned gone = source[cell] & ~board[cell]; gone; gone &= gone - 1)
            par[n][n_par[n]++] = (uint16_t)((cell * 9 + low_bit_index(gone)) * 2);
        if (why) why[n] = cell;
        n++;
    }
    for (int k = 0; k < 3; k++) {
        int u = T.se_units_of[cell][k];
        const uint8_t *unit = UNITS[u];
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
        if (why) why[n] = 81 + u;
        n++;
    }
    return n;
}

/* Room for `nodes` more nodes and `parents` more parents in the current depth's arenas. */
static inline void reserve(uint32_t nodes, uint32_t parents) {
    if (S->n_nodes + nodes > S->cap_nodes &&
        !grow_buffer((void **)&S->nodes, &S->cap_nodes, S->n_nodes + nodes, sizeof *S->nodes))
        abort();
    if (S->n_parents + parents > S->cap_parents &&
        !grow_buffer((void **)&S->parents, &S->cap_parents, S->n_parents + parents, sizeof *S->parents))
        abort();
}

/* Room for a whole run: each potential once, an "on" with its parents and one shared by the
 * "off"s it turns off (729 "on"s at most). */
static inline void reserve_run(void) { reserve(POTENTIALS, POTENTIALS * MAX_PARENTS); }

/* A run's queues while it is made: each "off" [0] and "on" [1] node, in the order found (its
 * potential, and an "on"'s depth beside it: an "off"'s is not read), and the cells of each digit
 * whose "off" / "on" is a node (`has` on bitboards). */
typedef struct {
    uint16_t at[2][POTENTIALS / 2], depth[2][POTENTIALS / 2];
    int head[2], tail[2];
    bb_t in[2][9];
} Queues;

/* Queue the potential `key` of `cell` and digit d (known to the caller: no division). */
static inline void enqueue(Queues *Q, int key, int cell, int d, int depth) {
    int on = key & 1;
    Q->depth[on][Q->tail[on]] = (uint16_t)depth;
    Q->at[on][Q->tail[on]++] = (uint16_t)key;
    Q->in[on][d] |= bb_cell(cell);
}

/* add_node for a potential whose `n` parents are in the parent arena at `at`, with room
 * reserved, not queued. */
static inline void push_node(Run *r, int key, uint32_t at, int n, int cause, int depth) {
    uint32_t k = S->n_nodes;
    int index = r->n;
    S->nodes[k] = (Node){(uint16_t)key, (uint16_t)n, at, (uint16_t)depth, (uint8_t)cause, 0};
    S->n_nodes = k + 1;
    r->has[key >> 6] |= 1ull << (key & 63);
    r->node_of[key] = (uint16_t)index;
    r->n = index + 1;
}

/* A node and its queue's place for the "off" of `cell` and digit d that an "on" (in the parent
 * arena at `from`) turns off in its peers, its bit in `in` set by the caller (all at once). */
static inline void push_off(Run *r, Queues *Q, int cell, int d, uint32_t from, int depth) {
    int q = (cell * 9 + d) * 2;
    Q->at[0][Q->tail[0]++] = (uint16_t)q;
    push_node(r, q, from, 1, NO_CAUSE, depth);
}

/* The "off" q that the "on" p (a node of depth - 1, in the parent arena at `from`) turns off: a
 * contradiction when q's "on" is in r (r stops: 1), else a node unless it is one already. */
static inline int turn_off(Run *r, Queues *Q, int q, int cell, int d, int p, uint32_t from, int depth) {
    if (in_run(r, q | 1)) {
        uint16_t parent = (uint16_t)p;
        stop(r, q | 1, &parent, 1, 1, NO_CAUSE);
        return 1;
    }
    if (!in_run(r, q)) {
        enqueue(Q, q, cell, d, depth);
        push_node(r, q, from, 1, NO_CAUSE, depth);
    }
    return 0;
}

/* The "on" q, not in r, that an "off" turns on, its `n` parents just written at the parent
 * arena's end: a contradiction when q's "off" is in r (r stops, those parents its own: 1), else
 * a node. */
static inline int turn_on(Run *r, Queues *Q, int q, int cell, int d, int n, int cause) {
    if (in_run(r, q ^ 1)) {
        stop(r, q, NULL, 0, 0, cause);
        r->absurd_parents[0] = S->n_parents;
        r->absurd_n[0] = (uint16_t)n;
        S->n_parents += (uint32_t)n;
        return 1;
    }
    int depth = depth_over(r, S->parents + S->n_parents, n);
    enqueue(Q, q, cell, d, depth);
    push_node(r, q, S->n_parents, n, cause, depth);
    S->n_parents += (uint32_t)n;
    return 0;
}

/* What the "off" p turns on in a run that is not dynamic (found once a position). */
static const StaticOns *static_ons(int p) {
    int candidate = p >> 1, cell = candidate / 9, d = candidate % 9;
    StaticOns *o = &S->static_ons[candidate];
    if (S->static_stamp[candidate] == S->position) return o;
    S->static_stamp[candidate] = S->position;
    o->n = 0;
    mask_t here = S->cands[cell];
    if (pop(here) == 2) {
        int e = low_bit_index(here & ~(1u << d));
        o->cell[o->n] = (uint8_t)cell, o->digit[o->n] = (uint8_t)e, o->cause[o->n] = (uint8_t)cell;
        o->on[o->n++] = (uint16_t)((cell * 9 + e) * 2 + 1);
    }
    for (int k = 0; k < 3; k++) {
        int u = T.se_units_of[cell][k], other = unit_twin(u, S->places[u][d], cell);
        if (other < 0) continue;
        o->cell[o->n] = (uint8_t)other, o->digit[o->n] = (uint8_t)d, o->cause[o->n] = (uint8_t)(81 + u);
        o->on[o->n++] = (uint16_t)((other * 9 + d) * 2 + 1);
    }
    return o;
}

/* SE's run from the assumption `start` on the board of `cands` (charged a run unless the
 * shortcut charged it already). on_to_off and off_to_on, on the run's board and places: the same
 * potentials, parents and causes, in the same order (the cells of a unit, or of a peer unit of
 * SE's order, ascending), counted on bitboards. A potential met again is skipped before its
 * parents are written (off_to_on gives each once: a repeat finds it in the run, or the run
 * stopped at it). An "on" turns off its digit in the peers allowing it on the position: those a
 * dynamic run removed are its "off"s already, none of them "on" (it would have stopped), so they
 * give nothing new, as on the run's board. `dynamic`: the rule's; `y`: not Nishio (an "on" turns
 * off its cell's other candidates, an "off" turns on a cell's last one). */
static inline __attribute__((always_inline)) void follow(Run *r, const mask_t *cands, int start, Rule rule,
                                                         int charged, int dynamic, int y) {
    if (!charged) work_charge(WORK_RUN);
    mask_t board[81];
    memcpy(board, cands, sizeof board);
    uint16_t places[27][9];
    memcpy(places, S->places, sizeof places);
    memset(r->has, 0, sizeof r->has);
    reserve_run();
    r->first = S->n_nodes;
    r->n = 0;
    r->absurd = 0;
    Queues Q;
    Q.head[0] = Q.head[1] = Q.tail[0] = Q.tail[1] = 0;
    memset(Q.in, 0, sizeof Q.in);
    enqueue(&Q, start, (start >> 1) / 9, (start >> 1) % 9, 0);
    add_node(r, start, NULL, 0, NO_CAUSE);
    int fixed = !dynamic && y;  /* the board is the position's */
    for (;;) {
        if (Q.head[1] < Q.tail[1]) {
            int p = Q.at[1][Q.head[1]], depth = Q.depth[1][Q.head[1]++] + 1, cell = (p >> 1) / 9, d = (p >> 1) % 9;
            uint32_t from = S->n_parents;  /* p: the one parent of each "off" it turns off */
            S->parents[S->n_parents++] = (uint16_t)p;
            if (y) {  /* the cell's other candidates */
                for (unsigned m = board[cell] & ~(1u << d); m; m &= m - 1) {
                    int e = low_bit_index(m);
                    if (turn_off(r, &Q, (cell * 9 + e) * 2, cell, e, p, from, depth)) return;
                }
            }
            /* The digit in the peers: new "offs", unit by unit; where none has its "on" in the run
             * (most often), all of them at once. */
            bb_t peers = PEER_BB[cell] & S->planes[d], fresh = peers & ~Q.in[0][d];
            if (!(peers & Q.in[1][d])) {
                Q.in[0][d] |= fresh;
                for (int k = 0; fresh && k < 3; k++) {
                    bb_t f = fresh & T.se_peer_units[cell][k];
                    fresh &= ~f;
                    for (uint64_t b = (uint64_t)f; b; b &= b - 1)  /* ascending, by halves */
                        push_off(r, &Q, __builtin_ctzll(b), d, from, depth);
                    for (uint64_t b = (uint64_t)(f >> 64); b; b &= b - 1)
                        push_off(r, &Q, 64 + __builtin_ctzll(b), d, from, depth);
                }
                continue;
            }
            for (int k = 0; k < 3; k++) {  /* else up to the first whose "on" is in the run */
                bb_t m = T.se_peer_units[cell][k] & S->planes[d], bad = m & Q.in[1][d];
                if (bad) m &= (bad & (~bad + 1)) - 1;
                bb_t offs = m & ~Q.in[0][d];
                Q.in[0][d] |= offs;
                for (bb_t f = offs; f; f &= f - 1) push_off(r, &Q, bb_first(f), d, from, depth);
                if (bad) {
                    uint16_t parent = (uint16_t)p;
                    stop(r, (bb_first(bad) * 9 + d) * 2 + 1, &parent, 1, 1, NO_CAUSE);
                    return;
                }
            }
            continue;
        }
        if (Q.head[0] >= Q.tail[0]) {
            if (!rule.level) return;
            int before = r->n;
            Eliminations *e = &S->eliminations;
            nested_eliminations(board, cands, rule.hash_order, rule.level, e);
            for (uint32_t k = 0; k < e->n; k++) {
                int q = e->key[k];
                if (in_run(r, q)) continue;
                Node *node = add_node(r, q, e->parents + e->first[k], e->count[k], NO_CAUSE);
                enqueue(&Q, q, (q >> 1) / 9, (q >> 1) % 9, node->depth);
                uint32_t at = (uint32_t)(node - S->nodes);
                if (at >= S->cap_nested &&
                    !grow_buffer((void **)&S->nested, &S->cap_nested, at + 1, sizeof *S->nested))
                    abort();
                node->nested = 1;
                S->nested[at] = (Nested){e->chain[k], (uint16_t)e->chain_complexity[k]};
            }
            if (r->n == before) return;
            reserve_run();  /* theirs may have taken the room */
            continue;
        }
        int p = Q.at[0][Q.head[0]++];
        if (fixed) {  /* what the position says, p the one parent of each */
            const StaticOns *o = static_ons(p);
            for (int k = 0; k < o->n; k++) {
                if (in_run(r, o->on[k])) continue;
                S->parents[S->n_parents] = (uint16_t)p;
                if (turn_on(r, &Q, o->on[k], o->cell[k], o->digit[k], 1, o->cause[k])) return;
            }
            continue;
        }
        /* p is a candidate of its cell and a place of its units on the run's board (a dynamic run
         * removes it from there once followed): two of them are p and one other */
        unsigned candidate = (unsigned)p >> 1, rest = board[candidate / 9] & ~(1u << candidate % 9);
        int cell = (int)(candidate / 9), d = (int)(candidate % 9);
        if (y && rest && !(rest & (rest - 1))) {  /* the cell's other candidate: p and the cell's removed */
            int e = low_bit_index(rest), q = (cell * 9 + e) * 2 + 1;
            if (!in_run(r, q)) {
                uint16_t *par = S->parents + S->n_parents;
                int n = 0;
                par[n++] = (uint16_t)p;
                for (unsigned gone = cands[cell] & ~board[cell]; gone; gone &= gone - 1)
                    par[n++] = (uint16_t)((cell * 9 + low_bit_index(gone)) * 2);
                if (turn_on(r, &Q, q, cell, e, n, cell)) return;
            }
        }
        if (dynamic) board[cell] = (mask_t)rest;
        for (int k = 0; k < 3; k++) {  /* the other place of a unit: p and the unit's removed */
            int u = T.se_units_of[cell][k];
            unsigned at = places[u][d], others = at & ~T.se_unit_place[cell][k];
            if (dynamic) places[u][d] = (uint16_t)others;
            if (!others || (others & (others - 1))) continue;
            int other = UNITS[u][low_bit_index(others)];
            int q = (other * 9 + d) * 2 + 1;
            if (in_run(r, q)) continue;
            uint16_t *par = S->parents + S->n_parents;
            int n = 0;
            par[n++] = (uint16_t)p;
            for (unsigned m = S->places[u][d] & ~at; m; m &= m - 1)
                par[n++] = (uint16_t)((UNITS[u][low_bit_index(m)] * 9 + d) * 2);
            if (turn_on(r, &Q, q, other, d, n, 81 + u)) return;
        }
    }
}

/* SE's run from `start` (follow, above), with a body of its own for dynamic runs and for runs
 * that are not (multiple forcing chains): what each never does is not even asked there. */
static void implications(Run *r, const mask_t *cands, int start, Rule rule, int charged) {
    if (rule.dynamic && !rule.nishio) follow(r, cands, start, rule, charged, 1, 1);
    else if (!rule.dynamic && !rule.nishio) follow(r, cands, start, rule, charged, 0, 1);
    else follow(r, cands, start, rule, charged, rule.dynamic, 0);
}

/* One of a hint's chains: the run, the potential it leads to, and that one's parents when it
 * is not a node of the run (a contradiction's second potential; `from` NULL otherwise). */
typedef struct {
    const Run *run;
    int key;
    const uint16_t *from;
    int n, cause;
} Leg;

static Leg leg(const Run *r, int key) { return (Leg){r, key, NULL, 0, NO_CAUSE}; }

/* The two chains of the contradiction that stopped r. */
static void absurd_legs(const Run *r, Leg out[2]) {
    for (int side = 0; side < 2; side++) {
        out[side] = leg(r, r->absurd_key[side]);
        if (r->absurd_fresh == side) {
            out[side].from = S->parents + r->absurd_parents[side];
            out[side].n = r->absurd_n[side];
            out[side].cause = r->absurd_cause;
        }
    }
}

/* The chains nested in a hint's chains, each once (SE's getNestedComplexity): begun for each
 * hint, added to as its chains' potentials are met. */
static struct {
    int n;
    uint64_t key[MAX_HINT_LENGTH];
    int complexity[MAX_HINT_LENGTH];
} nest;

static void nest_add(const Node *node) {
    if (!node->nested) return;
    const Nested *x = &S->nested[node - S->nodes];
    if (!x->chain) return;
    for (int k = 0; k < nest.n; k++) {
        if (nest.key[k] == x->chain) return;
    }
    nest.key[nest.n] = x->chain;
    nest.complexity[nest.n++] = x->complexity;
}

static int nest_total(int flat) {
    for (int k = 0; k < nest.n; k++) flat += nest.complexity[k];
    return flat;
}

/* SE's getChain: the potentials a leg rests on, its own first, breadth first through each one's
 * parents in order, each once, into `out` (the chains nested in them go to `nest`); how many. */
static uint32_t seen_stamp[POTENTIALS], seen_now;

static int walk(const Leg *g, uint16_t *out) {
    if (++seen_now == 0) {
        memset(seen_stamp, 0, sizeof seen_stamp);
        seen_now = 1;
    }
    /* Each potential is queued once, when first met: the queue is `out` itself (the order of
     * first meeting is the order of first leaving a queue that took every repeat). */
    uint32_t head = 0, tail = 0;
    seen_stamp[g->key] = seen_now;
    out[tail++] = (uint16_t)g->key;
    while (head < tail) {
        int p = out[head++];
        const uint16_t *from = g->from;
        int count = g->n;
        if (!(from && p == g->key)) {
            const Node *node = node_of(g->run, p);
            nest_add(node);
            from = S->parents + node->parents;
            count = node->n_parents;
        }
        for (int k = 0; k < count; k++) {
            int q = from[k];
            if (seen_stamp[q] == seen_now) continue;
            seen_stamp[q] = seen_now;
            out[tail++] = (uint16_t)q;
        }
    }
    return (int)tail;
}

/* The cause SE gives the "on" p of a leg: its node's, the leg's own for its fresh potential, or
 * `root` for the run's start. */
static int cause_of(const Leg *g, int p, int root) {
    if (g->from && p == g->key) return g->cause;
    const Node *node = node_of(g->run, p);
    return node->n_parents ? node->cause : root;
}

/* A hint's complexity: the potentials each chain rests on, and every nested chain's once. */
static int complexity(const Leg *legs, int n) {
    static uint16_t list[POTENTIALS];
    int flat = 0;
    nest.n = 0;
    for (int k = 0; k < n; k++) flat += walk(&legs[k], list);
    return nest_total(flat);
}

/* Record a hint of every_dynamic_chain: its removals (`gone` in `cell`), order, causes and
 * identity; its complexity. */
static int record(int kind, int cell, mask_t gone, const Leg *legs, int n, int root) {
    static uint16_t list[POTENTIALS], causes[9 * POTENTIALS];
    mask_t removals[81] = {0};
    removals[cell] = gone;
    int flat = 0, n_causes = 0;
    uint64_t key = 0;
    nest.n = 0;
    for (int k = 0; k < n; k++) {
        int len = walk(&legs[k], list);
        for (int i = 0; i < len; i++) {
            if (!(list[i] & 1)) continue;
            int why = cause_of(&legs[k], list[i], root);
            if (why != NO_CAUSE) causes[n_causes++] = (uint16_t)(why * 9 + (list[i] >> 1) % 9);
        }
        flat += len;
        key = chains_key(0, list, len, key);
    }
    int total = nest_total(flat);
    chains_add(&S->found, S->tenths / 10.0 + T.length_added[total - 2], total, T.forcing_kinds[kind],
               removals, causes, n_causes, key);
    return total;
}

/* No more than a hint's complexity: each chain rests on at least its potential's depth + 1 (a
 * path to the start through each one's deepest parent), the chains nested add to it. */
static int lower_bound(const Leg *legs, int n) {
    int low = 0;
    for (int k = 0; k < n; k++) {
        const Leg *g = &legs[k];
        low += 1 + (g->from ? depth_over(g->run, g->from, g->n) : node_of(g->run, g->key)->depth);
    }
    return low;
}

/* A hint found: offered as the best so far, or recorded. */
static void found(int kind, int target, const Leg *legs, int n, int root) {
    int rank = T.forcing_kinds[kind];
    if (S->every) {
        /* Of the hints of one set of removals only the first in SE's order is handed on (its
         * difficulty grows with complexity; then complexity, kind, the order found): a later
         * one that cannot come before the least so far is not walked nor recorded. */
        int cell = (target >> 1) / 9;
        mask_t bit = (mask_t)(1u << (target >> 1) % 9);
        mask_t gone = target & 1 ? (mask_t)(S->cands[cell] & ~bit) : bit;
        if (!gone) return;  /* SE's hint removes nothing: not worth it */
        uint32_t at = (uint32_t)cell * REMOVALS + gone;
        int seen = S->least_stamp[at] == S->call;
        if (seen && !comes_before(lower_bound(legs, n), rank, S->least_complexity[at], S->least_kind[at]))
            return;
        int c = record(kind, cell, gone, legs, n, root);
        if (!seen || comes_before(c, rank, S->least_complexity[at], S->least_kind[at])) {
            S->least_stamp[at] = S->call;
            S->least_complexity[at] = (uint16_t)c;
            S->least_kind[at] = (uint8_t)rank;
        }
        return;
    }
    Hint *best = &S->best;
    /* a hint that cannot beat the best is not walked */
    if (best->found && !comes_before(lower_bound(legs, n), rank, best->complexity, best->kind)) return;
    int c = complexity(legs, n);
    if (!best->found || comes_before(c, rank, best->complexity, best->kind)) *best = (Hint){1, c, rank, target};
}

static Run *run_from(const mask_t *cands, int p, Rule rule) {
    Run *r = &S->runs[p >> 1];
    if (S->run_stamp[p >> 1] != S->position) {
        implications(r, cands, p, rule, 0);
        S->run_stamp[p >> 1] = S->position;
    }
    return r;
}

/* The potentials of one kind (`on`) among `shared` (a bit each, all of them r's), in the order
 * r found them, into `out`; how many. Their nodes are marked in a bitmap of r's nodes, read
 * in order. */
static int in_order(const Run *r, const uint64_t *shared, int on, uint16_t *out) {
    uint64_t kind = on ? 0xAAAAAAAAAAAAAAAAull : 0x5555555555555555ull, picked[WORDS] = {0};
    int any = 0;
    for (int w = 0; w < WORDS; w++) {
        for (uint64_t bits = shared[w] & kind; bits; bits &= bits - 1) {
            int k = r->node_of[w * 64 + __builtin_ctzll(bits)];
            picked[k >> 6] |= 1ull << (k & 63);
            any = 1;
        }
    }
    if (!any) return 0;
    int n = 0;
    for (int w = 0; w <= (r->n - 1) >> 6; w++) {
        for (uint64_t bits = picked[w]; bits; bits &= bits - 1)
            out[n++] = S->nodes[r->first + w * 64 + __builtin_ctzll(bits)].key;
    }
    return n;
}

/* What every run of `outcomes` implies (in the first's order), "on"s then "off"s. */
static void common(Run *const *outcomes, int n, int kind, int root) {
    uint64_t shared[WORDS], any = 0;
    for (int w = 0; w < WORDS; w++) {
        shared[w] = outcomes[0]->has[w];
        for (int m = 1; m < n; m++) shared[w] &= outcomes[m]->has[w];
        any |= shared[w];
    }
    if (!any) return;
    Leg legs[9];
    uint16_t keys[POTENTIALS];
    for (int on = 1; on >= 0; on--) {
        int count = in_order(outcomes[0], shared, on, keys);
        for (int k = 0; k < count; k++) {
            for (int m = 0; m < n; m++) legs[m] = leg(outcomes[m], keys[k]);
            found(kind, keys[k], legs, n, root);
        }
    }
}

static void regions(const mask_t *cands, int cell, int d, Run *if_on, Rule rule) {
    for (int k = 0; k < 3; k++) {
        int u = T.se_units_of[cell][k];
        const uint8_t *unit = UNITS[u];
        Run *outcomes[9];
        int n = 0;
        for (int j = 0; j < 9; j++) {
            int c = unit[j];
            if (!(cands[c] >> d & 1)) continue;
            if (n == 0 && c != cell) break;  /* the unit was met at its first place */
            outcomes[n++] = c == cell ? if_on : run_from(cands, (c * 9 + d) * 2 + 1, rule);
        }
        if (n >= 2) common(outcomes, n, HINT_REGION, 81 + u);
    }
}

/* Whether the run from the "off" of the candidate p (dynamic, nesting no rule) is known without
 * being made: where that "off" turns on at once the cell's other candidate (of two) or the
 * digit's other place in a unit (of two), by `twin`, the run from that "on", one search() makes
 * anyway (its cell has two candidates or more); where it turns on nothing, by itself alone (not
 * absurd, p's "off" only, which the run from p's "on" never holds: it would stop there), `twin`
 * NULL.
 *
 * A dynamic run's rules only add (an "on" turns off its cell's other candidates and its digit in
 * the peers, an "off" turns on the last candidate of a cell or place of a unit), so a run reaches
 * their least fixed point in any order, and stops exactly when that fixed point holds a
 * potential and its negation (a cell or unit left with nothing turned its last one on first).
 * The "off" of p turns the twin's "on" on, whose run turns p off: both runs reach the same fixed
 * point, absurd or not alike, and when not absurd they imply the same potentials. */
static int off_known(const mask_t *cands, int p, Rule rule, const Run **twin) {
    *twin = NULL;
    if (!rule.dynamic || rule.nishio || rule.level) return 0;
    int cell = (p >> 1) / 9, d = (p >> 1) % 9;
    if (pop(cands[cell]) == 2) {
        *twin = run_from(cands, (cell * 9 + low_bit_index(cands[cell] & ~(1u << d))) * 2 + 1, rule);
        return 1;
    }
    for (int k = 0; k < 3; k++) {
        int u = T.se_units_of[cell][k], other = unit_twin(u, S->places[u][d], cell);
        if (other < 0) continue;
        if (pop(cands[other]) < 2) return 0;
        *twin = run_from(cands, (other * 9 + d) * 2 + 1, rule);
        return 1;
    }
    return 1;
}

/* Whether two runs imply a potential in common. */
static int runs_meet(const Run *a, const Run *b) {
    uint64_t any = 0;
    for (int w = 0; w < WORDS; w++) any |= a->has[w] & b->has[w];
    return any != 0;
}

/* Contradictions of the candidate p, on then off, and (`doubles`) what follows from both (the
 * run from "off" charged already when `charged`). A run from "off" known (above) not to be absurd
 * nor to meet the run from "on" has no hint: it is not made (but charged). */
static void binary(const mask_t *cands, int p, Run *if_on, int doubles, Rule rule, int charged) {
    int contradictions = rule.dynamic || rule.nishio;
    if (!contradictions && !doubles) return;
    Leg legs[2];
    const Run *twin;
    if (off_known(cands, p, rule, &twin) && !(twin && (twin->absurd || (doubles && runs_meet(if_on, twin))))) {
        if (!charged) work_charge(WORK_RUN);
        if (if_on->absurd) {
            absurd_legs(if_on, legs);
            found(HINT_CONTRADICTION, p ^ 1, legs, 2, NO_CAUSE);
        }
        return;
    }
    uint32_t mark_nodes = S->n_nodes, mark_parents = S->n_parents;
    Run *if_off = &S->runs[729];
    implications(if_off, cands, p ^ 1, rule, charged);
    if (contradictions && if_on->absurd) {
        absurd_legs(if_on, legs);
        found(HINT_CONTRADICTION, p ^ 1, legs, 2, NO_CAUSE);
    }
    if (contradictions && if_off->absurd) {
        absurd_legs(if_off, legs);
        found(HINT_CONTRADICTION, p, legs, 2, NO_CAUSE);
    }
    if (doubles) {
        Run *both[2] = {if_on, if_off};
        common(both, 2, HINT_DOUBLE, NO_CAUSE);
    }
    S->n_nodes = mark_nodes;  /* the run from "off" is used once: its space goes back */
    S->n_parents = mark_parents;
}

/* Every hint of `rule` on the board of `cands`, in the order found, to found(). */
static void search(const mask_t *cands, Rule rule) {
    begin_position(cands);
    for (int cell = 0; cell < 81; cell++) {
        int n = pop(cands[cell]);
        if (!(n > 2 || (n > 1 && rule.dynamic))) continue;
        Run *outcomes[9];
        int n_out = 0;
        for (unsigned m = cands[cell]; m; m &= m - 1) {
            int d = low_bit_index(m), p = (cell * 9 + d) * 2 + 1;
            Run *if_on = run_from(cands, p, rule);
            binary(cands, p, if_on, n >= 3 && rule.dynamic && !rule.nishio, rule, 0);
            if (!rule.nishio) {
                regions(cands, cell, d, if_on, rule);
                outcomes[n_out++] = if_on;
            }
        }
        if (n_out) common(outcomes, n_out, HINT_CELL, cell);
    }
}

/* ---- the shortcut: the same search, where each run is first known by what it reaches ----
 * For Nishio and multiple forcing chains, a run is first known by whether it is absurd and,
 * not dynamic, by what it implies (closures.c; cycles.c static_reach); a hint needs a run
 * absurd, or a potential the runs of a cell, a region or both sides of a candidate all imply.
 * Only the runs of such hints are made node by node, and their hints are found as search()
 * finds them, in the same order: the others have none. The runs are charged as search()
 * charges them, where it makes them. (Dynamic runs are mostly all needed: made at once.) */
static void reach(const mask_t *cands, int p, Rule rule, Reached *o) {
    if (rule.nishio) {
        int d = (p >> 1) % 9, cell = (p >> 1) / 9;
        bb_t reached[2];
        if (bb_has(S->calm[p & 1][d], cell) || bb_has(S->absurd[p & 1][d], cell)) {
            o->absurd = bb_has(S->absurd[p & 1][d], cell);
            return;
        }
        o->absurd = nishio_absurd(S->planes[d], p, reached);
        if (o->absurd) {
            S->absurd[p & 1][d] |= bb_cell(cell);
        } else {
            S->calm[0][d] |= reached[0];
            S->calm[1][d] |= reached[1];
        }
        return;
    }
    S->words = static_reach(cands, p, &o->reach, &o->absurd);
}

static const Reached *outcome_from(const mask_t *cands, int p, Rule rule) {
    Reached *o = &S->reached[p >> 1];
    if (S->reached_stamp[p >> 1] != S->position) {
        work_charge(WORK_RUN);
        reach(cands, p, rule, o);
        S->reached_stamp[p >> 1] = S->position;
    }
    return o;
}

/* The run from p, made node by node, already charged. */
static Run *made_run(const mask_t *cands, int p, Rule rule) {
    Run *r = &S->runs[p >> 1];
    if (S->run_stamp[p >> 1] != S->position) {
        implications(r, cands, p, rule, 1);
        S->run_stamp[p >> 1] = S->position;
    }
    return r;
}

/* Whether the runs of these outcomes may give a hint: one is absurd, or all share a potential. */
static int may_meet(const Reached *const *o, int n, Rule rule) {
    const uint64_t *reach[9];
    for (int k = 0; k < n; k++) {
        if (o[k]->absurd) return 1;
        reach[k] = o[k]->reach;
    }
    return reaches_meet(reach, n, S->words);
}

static void common_of(const mask_t *cands, const int *starts, int n, Rule rule, int kind, int root) {
    Run *runs[9];
    for (int k = 0; k < n; k++) runs[k] = made_run(cands, starts[k], rule);
    common(runs, n, kind, root);
}

static void quick_regions(const mask_t *cands, int cell, int d, const Reached *if_on, Rule rule) {
    for (int k = 0; k < 3; k++) {
        int u = T.se_units_of[cell][k];
        const uint8_t *unit = UNITS[u];
        const Reached *outcomes[9];
        int starts[9], n = 0;
        for (int j = 0; j < 9; j++) {
            int c = unit[j];
            if (!(cands[c] >> d & 1)) continue;
            if (n == 0 && c != cell) break;  /* the unit was met at its first place */
            starts[n] = (c * 9 + d) * 2 + 1;
            outcomes[n] = c == cell ? if_on : outcome_from(cands, starts[n], rule);
            n++;
        }
        if (n >= 2 && may_meet(outcomes, n, rule)) common_of(cands, starts, n, rule, HINT_REGION, 81 + u);
    }
}

static void quick_binary(const mask_t *cands, int p, const Reached *if_on, int doubles, Rule rule) {
    int contradictions = rule.dynamic || rule.nishio;
    if (!contradictions && !doubles) return;
    work_charge(WORK_RUN);
    Reached *if_off = &S->reached[729];
    reach(cands, p ^ 1, rule, if_off);
    const Reached *both[2] = {if_on, if_off};
    if ((contradictions && (if_on->absurd || if_off->absurd)) || (doubles && may_meet(both, 2, rule)))
        binary(cands, p, made_run(cands, p, rule), doubles, rule, 1);
}

static void quick_search(const mask_t *cands, Rule rule) {
    begin_position(cands);
    for (int cell = 0; cell < 81; cell++) {
        int n = pop(cands[cell]);
        if (!(n > 2 || (n > 1 && rule.dynamic))) continue;
        const Reached *outcomes[9];
        int starts[9], n_out = 0;
        for (unsigned m = cands[cell]; m; m &= m - 1) {
            int d = low_bit_index(m), p = (cell * 9 + d) * 2 + 1;
            const Reached *if_on = outcome_from(cands, p, rule);
            quick_binary(cands, p, if_on, n >= 3 && rule.dynamic && !rule.nishio, rule);
            if (!rule.nishio) {
                quick_regions(cands, cell, d, if_on, rule);
                outcomes[n_out] = if_on;
                starts[n_out++] = p;
            }
        }
        if (n_out && may_meet(outcomes, n_out, rule)) common_of(cands, starts, n_out, rule, HINT_CELL, cell);
    }
}

/* Every hint of `rule`, in the order found: by the shortcut where it nests nothing. */
static void every_hint(const mask_t *cands, Rule rule) {
    if (rule.nishio || !rule.dynamic) quick_search(cands, rule);
    else search(cands, rule);
}

const Chains *every_dynamic_chain(const mask_t *cands) {
    Space *outer = S;
    use_depth(1);
    S->every = 1;
    if (++S->call == 0) {
        memset(S->least_stamp, 0, sizeof S->least_stamp);
        S->call = 1;
    }
    S->tenths = rung_tenths(dynamic_forcing_chain);
    chains_reset(&S->found);
    every_hint(cands, rule_of(2));
    chains_hand_over(&S->found);
    const Chains *out = &S->found;
    S = outer;
    return out;
}

static Found apply(Board *b, Rule rule) {
    use_depth(0);
    S->every = 0;
    S->best = (Hint){0, 0, 0, 0};
    every_hint(b->cands, rule);
    Hint hint = S->best;
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
Found nested_dynamic_forcing_chain(Board *b) { return apply(b, rule_of(9)); }
