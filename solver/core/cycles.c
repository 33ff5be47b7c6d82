/* SE's bidirectional cycles and forcing chains of one assumption (solver/cycles.py): the same
 * searches in the same order, so the same hint is chosen. A potential is one int,
 * (cell * 9 + digit - 1) * 2 + on. Every buffer is static (the core runs under the GIL: one
 * caller at a time); stamps mark what belongs to the current search. */
#include <string.h>

#include "core.h"

#define MAX_IMPLIED 28                          /* 8 other candidates + 20 peers */
#define MAX_NODES (730 + 2 * 730 * MAX_IMPLIED) /* "on" once each, "off" per "on", cycle ends */
#define NO_LIMIT MAX_LENGTH
/* For the searches asked per start (cycles(), forcing(), through()): each is a loop of its
 * own, and inlined into best_hint() with the rest they made all of it slower (measured with
 * callgrind: some 3% of its instructions). */
#define SEARCH __attribute__((noinline))

typedef struct {
    int bivalue, bilocation;
    technique_fn cycle, forcing;  /* the rungs of what it finds (forcing NULL: none) */
    int rank;                     /* SE's order among hints of equal difficulty and length */
} Links;

static const Links SEARCHES[3] = {
    {0, 1, bidirectional_x_cycle, forcing_x_chain, 2},
    {1, 0, bidirectional_y_cycle, NULL, 3},
    {1, 1, bidirectional_cycle, forcing_xy_chain, 4},
};

/* ---- the implications of the searches, each computed once (Graph) ----
 * One graph, of both links; each search reads its part of a list (see implied()). What a
 * potential implies there is, in this order, through its cell (an "on": the cell's other
 * candidates "off"; an "off", of a bivalue cell: the other "on"), then through its units
 * (an "on": the peers allowing the digit "off"; an "off": the other place of each unit of
 * two "on"). The search of bivalue links alone takes what goes through the cell, and an
 * "on"'s peers too; the search of bilocation links alone all but what goes through the cell:
 * the same lists, in the same order, as if each had its own graph.
 * Kept from one position to the next: what a potential implies depends only on the candidates
 * of its cell and, for its digit, of its peers; where those lost none since the graph's last
 * position, its list holds (a candidate gained: a new puzzle, all go). */
typedef struct {
    uint16_t list[POTENTIALS][MAX_IMPLIED];
    uint8_t n[POTENTIALS];
    uint8_t through_cell[POTENTIALS];  /* the first of the list, those through the cell */
    uint8_t known[POTENTIALS];         /* the list holds for the candidates below */
    mask_t cands[81];
} Graph;
static Graph graph;
static const mask_t *g_cands;
static const uint16_t (*g_places)[9];  /* the board's positions: unit, digit -> cells (bits) */
static const bb_t *g_digits;           /* the board's cells allowing each digit */
static const Links *g_links;           /* the links of the search under way */
/* The part of each list the search under way reads (see implied()): from g_links, kept apart
 * to be read quickly. */
enum { BOTH_LINKS, BILOCATION_LINKS, BIVALUE_LINKS };
static int g_part;
/* the candidates of the components last made (see components()): they hold while the graph
 * keeps them */
static mask_t reach_cands[81];

static void new_graph(int k, const mask_t *cands, const uint16_t (*places)[9], const bb_t *digits) {
    Graph *g = &graph;
    g_cands = cands;
    g_places = places;
    g_digits = digits;
    g_links = &SEARCHES[k];
    g_part = !g_links->bivalue ? BILOCATION_LINKS : !g_links->bilocation ? BIVALUE_LINKS : BOTH_LINKS;
    unsigned gained = 0, gone = 0;
    for (int c = 0; c < 81; c++) {
        gained |= cands[c] & ~g->cands[c];
        gone |= g->cands[c] & ~cands[c];
    }
    if (!gained && !gone) return;  /* the same candidates: every list holds */
    reach_cands[0] = (mask_t)~0u;  /* no cell's candidates */
    int lost = 0;
    for (int c = 0; !gained && c < 81; c++) lost += pop(g->cands[c] & ~cands[c]);
    if (gained || lost > 40) {  /* a new puzzle, or many changes: all afresh */
        memset(g->known, 0, sizeof g->known);
    } else if (lost) {
        for (int c = 0; c < 81; c++) {
            unsigned gone = g->cands[c] & ~cands[c];
            if (!gone) continue;
            memset(&g->known[c * 18], 0, 18);  /* the cell's: their other candidates changed */
            for (; gone; gone &= gone - 1) {   /* the peers' of a digit gone: its places changed */
                int d = low_bit_index(gone);
                for (int j = 0; j < 20; j++) {
                    int v = (PEERS[c][j] * 9 + d) * 2;
                    g->known[v] = g->known[v + 1] = 0;
                }
            }
        }
    }
    memcpy(g->cands, cands, sizeof g->cands);
}

static int compute_implied(int p);

/* What p implies in the graph of both links: its whole list. */
static inline int all_implied(int p, const uint16_t **out) {
    *out = graph.list[p];
    return graph.known[p] ? graph.n[p] : compute_implied(p);
}

/* What p implies in the search under way: its part of the list (see Graph). */
static inline int implied(int p, const uint16_t **out) {
    int n = all_implied(p, out);
    if (g_part == BOTH_LINKS) return n;
    int cell = graph.through_cell[p];
    if (g_part == BILOCATION_LINKS) {  /* all but through the cell */
        *out += cell;
        return n - cell;
    }
    return p & 1 ? n : cell;  /* bivalue links: an "on" all, an "off" through its cell */
}

/* The list of p in the graph of both links (compute_implied() in the reference's terms, for
 * both kinds of link). */
static int compute_implied(int p) {
    uint16_t *list = graph.list[p];
    int cell = (p >> 1) / 9, d = (p >> 1) % 9, n = 0;
    mask_t here = g_cands[cell];
    if (p & 1) {
        for (unsigned m = here & ~(1u << d); m; m &= m - 1) list[n++] = (uint16_t)((cell * 9 + low_bit_index(m)) * 2);
        graph.through_cell[p] = (uint8_t)n;
        for (int k = 0; k < 3; k++) {  /* the peers allowing d, in SE's order (UNITS ascend) */
            const uint8_t *unit = UNITS[T.se_units_of[cell][k]];
            for (unsigned m = T.se_peer_places[cell][k] & g_places[T.se_units_of[cell][k]][d]; m; m &= m - 1)
                list[n++] = (uint16_t)((unit[low_bit_index(m)] * 9 + d) * 2);
        }
    } else {
        if (pop(here) == 2) list[n++] = (uint16_t)((cell * 9 + low_bit_index(here ^ (1u << d))) * 2 + 1);
        graph.through_cell[p] = (uint8_t)n;
        for (int k = 0; k < 3; k++) {
            int u = T.se_units_of[cell][k], other = unit_twin(u, g_places[u][d], cell);
            if (other < 0) continue;
            uint16_t q = (uint16_t)((other * 9 + d) * 2 + 1);
            int known = 0;
            for (int j = 0; j < n; j++) known |= list[j] == q;
            if (!known) list[n++] = q;
        }
    }
    graph.n[p] = (uint8_t)n;
    graph.known[p] = 1;
    return n;
}

/* ---- what can lead where: a shortcut of the core only, the reference has none ----
 * Strongly connected components of the graph of both links (Tarjan's, iteratively) and the
 * potentials reachable from each. It holds every implication of the other two searches (each
 * reads a part of its lists), so what cannot happen there cannot in them either. A forcing
 * chain from p exists only if p's negation is reachable from p; a cycle through p (of 4
 * potentials or more) only if p's component holds more than p and one other, and it passes
 * only through that component. Where a search would find nothing, it is skipped, and the hints
 * are the reference's. */
#define WORDS ((POTENTIALS + 63) / 64)
static int comp_of[POTENTIALS];    /* each potential's component */
static int comp_size[POTENTIALS];  /* each component's potentials */
/* whether a cycle in the component could remove something (see cycle_removals()): it holds
 * more than two potentials, and, of one digit, an "on" and an "off" whose cells a third
 * allowing the digit sees */
static uint8_t comp_removes[POTENTIALS];
static int pruned;  /* whether they prune the search under way */
/* Tarjan's state of a potential, t_index: 0 not visited; above 0, on the stack, its number
 * in the visit; below 0, closed, in component -1 - t_index (read in one load, as each edge
 * asks it). */
static int t_index[POTENTIALS], t_low[POTENTIALS];
static uint16_t t_stack[POTENTIALS], call_node[POTENTIALS], call_edge[POTENTIALS];
/* The components closed already that an edge out of a potential on the stack leads to, as
 * Tarjan's meets them (each such edge is met once: to a potential visited and closed, or to
 * one visited from it that closed its own component); out_mark[v]: their number when v was
 * put on the stack. When a component closes, those past its root's mark are its members':
 * the components it reaches directly, each edge of its members read once (see tarjan()). */
static uint16_t out_comp[POTENTIALS * MAX_IMPLIED];
static int out_mark[POTENTIALS];
/* Over the components, numbered as they close: a component reaches only those closed before it
 * (Tarjan's closes each after all it reaches), so the words of reach_of(c) past c's are 0.
 * The rows lie `stride` words apart, as many as the potentials present need (close together:
 * the union reads them at random). */
static uint64_t reach[POTENTIALS * WORDS];
static int stride;
static inline uint64_t *reach_of(int c) { return reach + (size_t)c * (size_t)stride; }
static int n_words;
static uint8_t reaches_out[POTENTIALS];  /* whether a component reaches one but itself */
/* A candidate without a strong link: its "off" implies nothing (a sink), and nothing implies
 * its "on" (a source). Each is a component alone, numbered without Tarjan's: the sinks first,
 * the sources last (nothing reaches them), and their rows are made only when asked (see
 * reach_row()). */
static uint16_t alone[POTENTIALS];   /* a sink's or source's potential */
static uint8_t row_made[POTENTIALS];
/* Whether a sink or source leads to its negation (see leads_to_negation()): asked of the same
 * potentials by the searches of X-links and of both links, the answer is kept while the
 * components it was found in are (absurd_at: their components() call, components_made). */
static uint32_t components_made, absurd_at[POTENTIALS];
static uint8_t absurd_is[POTENTIALS];

/* Component c's row, reaching c alone. */
static uint64_t *new_row(int c) {
    uint64_t *to = reach_of(c);
    memset(to, 0, (size_t)stride * sizeof *to);
    to[c >> 6] |= 1ull << (c & 63);
    return to;
}

/* Add to row `to` what component c reaches (its row made). */
static inline void add_component(uint64_t *to, int c) {
    /* reached already (it is this component, or of one reached): so is all it reaches */
    if (to[c >> 6] >> (c & 63) & 1) return;
    if (!reaches_out[c]) {  /* it reaches itself alone (an "off" implying nothing, mostly) */
        to[c >> 6] |= 1ull << (c & 63);
        return;
    }
    const uint64_t *from = reach_of(c);
    for (int w = 0; w <= c >> 6; w++) to[w] |= from[w];
}

/* Add to row `to` what the m potentials `next` reach (their rows made): whether they are of
 * other components. */
static inline int add_reach(uint64_t *to, const uint16_t *next, int m) {
    int out = 0;
    for (int j = 0; j < m; j++) {
        int c = comp_of[next[j]];
        out |= !(to[c >> 6] >> (c & 63) & 1);
        add_component(to, c);
    }
    return out;
}

/* Close the component of `root`, its potentials atop the stack and the components they lead to
 * atop out_comp, as number n_comp: its row from theirs. */
static void close_component(int root, int *sp, int *n_out, int n_comp) {
    int first = *sp;
    do first--; while (t_stack[first] != root);
    comp_size[n_comp] = *sp - first;
    comp_removes[n_comp] = 0;
    for (int k = first; k < *sp; k++) {
        t_index[t_stack[k]] = -1 - n_comp;
        comp_of[t_stack[k]] = n_comp;
    }
    if (comp_size[n_comp] > 2) {
        bb_t seen[2][9];
        unsigned digits = 0;
        for (int k = first; k < *sp; k++) {
            int v = t_stack[k], cell = (v >> 1) / 9, d = (v >> 1) % 9;
            if (!(digits >> d & 1)) seen[0][d] = seen[1][d] = 0;
            digits |= 1u << d;
            seen[v & 1][d] |= PEER_BB[cell];
        }
        for (; digits; digits &= digits - 1) {
            int d = low_bit_index(digits);
            if (seen[0][d] & seen[1][d] & g_digits[d]) comp_removes[n_comp] = 1;
        }
    }
    *sp = first;
    row_made[n_comp] = 1;
    uint64_t *to = new_row(n_comp);
    int mark = out_mark[root];
    for (int k = mark; k < *n_out; k++) add_component(to, out_comp[k]);
    reaches_out[n_comp] = *n_out > mark;
    *n_out = mark;
}

/* The components of the current graph reached from `roots`, with their reach, numbered from
 * n_closed (those closed already): how many. Each edge is read once, here: what a component
 * reaches directly is gathered as its members' edges are (out_comp), not read again. */
static int tarjan(const uint16_t *roots, int n_roots, int n_closed) {
    /* t_index: 0 for all, as left by the last call */
    int counter = 0, sp = 0, n_out = 0, n_comp = n_closed;
    for (int i = 0; i < n_roots; i++) {
        int v = roots[i];
        if (t_index[v]) continue;
        int depth = 0;
        call_node[0] = (uint16_t)v;
        call_edge[0] = 0;
        t_index[v] = t_low[v] = ++counter;
        t_stack[sp++] = (uint16_t)v;
        out_mark[v] = n_out;
        while (depth >= 0) {
            const uint16_t *next;
            int u = call_node[depth], m = all_implied(u, &next), e = call_edge[depth], w = -1;
            while (e < m) {  /* u's edges, up to a potential not visited yet */
                w = next[e++];
                int t = t_index[w];
                if (!t) break;
                if (t < 0) {  /* of a component closed: reached */
                    out_comp[n_out++] = (uint16_t)(-1 - t);
                } else if (t < t_low[u]) {
                    t_low[u] = t;
                }
                w = -1;
            }
            if (w >= 0) {  /* visit it */
                call_edge[depth] = (uint16_t)e;
                t_index[w] = t_low[w] = ++counter;
                t_stack[sp++] = (uint16_t)w;
                out_mark[w] = n_out;
                depth++;
                call_node[depth] = (uint16_t)w;
                call_edge[depth] = 0;
                continue;
            }
            if (t_low[u] == t_index[u]) close_component(u, &sp, &n_out, n_comp++);
            if (--depth < 0) break;
            if (t_index[u] < 0) {  /* it closed its component: reached from the one visiting it */
                out_comp[n_out++] = (uint16_t)(-1 - t_index[u]);
            } else if (t_low[u] < t_low[call_node[depth]]) {
                t_low[call_node[depth]] = t_low[u];
            }
        }
    }
    for (int i = 0; i < n_roots; i++) t_index[roots[i]] = 0;  /* all it visited are roots */
    return n_comp - n_closed;
}

/* Number the sink or source v as component c, alone, its row not made. */
static void alone_component(int v, int c) {
    comp_of[v] = c;
    comp_size[c] = 1;
    comp_removes[c] = 0;
    alone[c] = (uint16_t)v;
    row_made[c] = 0;
}

/* The components of the graph of both links, every potential present, and their reach (the
 * rows of sinks and sources made when asked). */
static void components(const mask_t *cands) {
    static uint16_t strong[POTENTIALS], sources[POTENTIALS];  /* ascending */
    int n_strong = 0, n_sources = 0, n_comp = 0;
    memcpy(reach_cands, cands, sizeof reach_cands);
    if (++components_made == 0) {  /* wrapped: every answer kept is stale */
        memset(absurd_at, 0, sizeof absurd_at);
        components_made = 1;
    }
    for (int cell = 0; cell < 81; cell++) {
        for (unsigned m = cands[cell]; m; m &= m - 1) {
            int v = (cell * 9 + low_bit_index(m)) * 2;
            const uint16_t *next;
            if (all_implied(v, &next)) {
                strong[n_strong++] = (uint16_t)v;
                strong[n_strong++] = (uint16_t)(v + 1);
                continue;
            }
            all_implied(v + 1, &next);  /* known to reach_row() */
            reaches_out[n_comp] = 0;
            t_index[v] = -1 - n_comp;  /* to tarjan(): closed */
            alone_component(v, n_comp++);
            sources[n_sources++] = (uint16_t)(v + 1);
        }
    }
    stride = (n_strong + 2 * n_sources + 63) / 64;  /* at most one component a potential */
    n_comp += tarjan(strong, n_strong, n_comp);
    for (int i = 0; i < n_sources; i++) {
        int v = sources[i];
        t_index[v - 1] = 0;
        alone_component(v, n_comp++);  /* nothing implies it: its reaches_out is never read */
    }
    n_words = (n_comp + 63) / 64;
}

/* Whether component a, its row made, reaches component b. */
static inline int reaches(int a, int b) { return (int)(reach_of(a)[b >> 6] >> (b & 63) & 1); }

/* Component c's row, made now for a sink or a source: from the rows of what it implies, all
 * made. The implications are the whole lists of the graph, known since components() (the
 * search under way may read only a part of them). */
static const uint64_t *reach_row(int c) {
    if (row_made[c]) return reach_of(c);
    row_made[c] = 1;
    uint64_t *to = new_row(c);
    add_reach(to, graph.list[alone[c]], graph.n[alone[c]]);
    return to;
}

/* Whether component a, a sink or a source whose row is not made, reaches component b: through
 * what it implies. */
SEARCH static int through(int a, int b) {
    const uint16_t *next = graph.list[alone[a]];
    for (int j = 0, m = graph.n[alone[a]]; j < m; j++) {
        int r = comp_of[next[j]];
        if (r == b || (reaches_out[r] && reaches(r, b))) return 1;
    }
    return 0;
}

/* The component a cycle from `start` stays in, -1 if not pruned (any). */
static inline int cycle_component(int start) { return pruned ? comp_of[start] : -1; }

/* Whether a cycle in component `comp` (see cycle_component()) could pass through `p`. */
static inline int may_cycle(int comp, int p) { return comp < 0 || comp_of[p] == comp; }

/* Whether a cycle through `start` could remove something: a cycle stays in the component,
 * and one of 4 potentials or more needs more than two there (a walk through two closes
 * after 2). */
static int cycle_possible(int start) { return !pruned || comp_removes[comp_of[start]]; }


/* What a run of SE's that is not dynamic reaches (closures.c): it follows the implications of
 * the graph of both links on the position, so from p it reaches p's reach, and it is absurd
 * (it holds a potential and its negation, q and not-q) exactly when it reaches not-p: p leads
 * to q, and not-q to not-p (the implications are symmetric under negation). The components are
 * made anew unless the last ones were made for these candidates (a cycle search of the same
 * position, mostly). */
int static_reach(const mask_t *cands, int p, const uint64_t **words, int *absurd) {
    if (memcmp(reach_cands, cands, sizeof reach_cands)) {
        static uint16_t places[27][9];
        static bb_t digits[9];
        board_views(cands, places, digits);
        new_graph(2, cands, (const uint16_t(*)[9])places, digits);
        components(cands);
    }
    *words = reach_row(comp_of[p]);
    *absurd = (int)((*words)[comp_of[p ^ 1] >> 6] >> (comp_of[p ^ 1] & 63) & 1);
    return n_words;
}

int reaches_meet(const uint64_t *const *reach, int n, int words) {
    for (int w = 0; w < words; w++) {
        uint64_t all = reach[0][w];
        for (int k = 1; k < n; k++) all &= reach[k][w];
        if (all) return 1;
    }
    return 0;
}

/* Whether p leads to its negation: a forcing chain from p may exist. */
static inline int leads_to_negation(int p) {
    if (!pruned) return 1;
    int a = comp_of[p], b = comp_of[p ^ 1];
    if (b >= a) return b == a;  /* a component reaches only those closed before it */
    if (row_made[a]) return reaches(a, b);
    if (absurd_at[p] != components_made) {  /* a sink or a source: through what it implies */
        absurd_at[p] = components_made;
        absurd_is[p] = (uint8_t)through(a, b);
    }
    return absurd_is[p];
}

/* ---- the tree of potentials reached from an assumption (Tree) ---- */
static uint16_t node_key[MAX_NODES];
static int32_t node_parent[MAX_NODES];
static int n_nodes;
static int layer_a[MAX_NODES], layer_b[MAX_NODES];
static uint32_t seen_at[POTENTIALS], seen_stamp;
/* the cycle search's "off" potentials followed, and those closing a cycle (see cycles()) */
static uint32_t followed_at[POTENTIALS], closes_at[POTENTIALS];

static void new_tree(int root) {
    node_key[0] = (uint16_t)root;
    node_parent[0] = -1;
    n_nodes = 1;
    if (++seen_stamp == 0) {
        memset(seen_at, 0, sizeof seen_at);
        memset(followed_at, 0, sizeof followed_at);
        memset(closes_at, 0, sizeof closes_at);
        seen_stamp = 1;
    }
    seen_at[root] = seen_stamp;
}

static int add_node(int p, int parent) {
    node_key[n_nodes] = (uint16_t)p;
    node_parent[n_nodes] = parent;
    return n_nodes++;
}

static int first_seen(int p) {
    if (seen_at[p] == seen_stamp) return 0;
    seen_at[p] = seen_stamp;
    return 1;
}

/* Whether the "off" potential p implied the "on" node n, directly or not: one of the "off"
 * nodes above n. Asked only of the few "off" potentials that close a cycle (see cycles()). */
static int implied_before(int n, int p) {
    for (int off = node_parent[n]; off >= 0; off = node_parent[node_parent[off]]) {
        if (node_key[off] == p) return 1;
    }
    return 0;
}

/* What the cycle ending at node `end` removes (cycle_removals() in the reference); 0 if
 * nothing. A digit goes from the cells out of the cycle that see both one of its "on" and one of
 * its "off" potentials: the peers that allow it, a bitboard each. */
static int cycle_removals(int end, mask_t removals[81]) {
    bb_t cells = 0, seen[2][9], gone[9];
    unsigned digits = 0, any = 0;  /* the digits of the cycle; those with something to remove */
    for (int n = end; node_parent[n] >= 0; n = node_parent[n]) {
        int p = node_key[n], cell = (p >> 1) / 9, d = (p >> 1) % 9;
        if (!(digits >> d & 1)) seen[0][d] = seen[1][d] = 0;
        digits |= 1u << d;
        cells |= bb_cell(cell);
        seen[p & 1][d] |= PEER_BB[cell] & g_digits[d];
    }
    for (unsigned m = digits; m; m &= m - 1) {
        int d = low_bit_index(m);
        gone[d] = seen[0][d] & seen[1][d] & ~cells;
        if (gone[d]) any |= 1u << d;
    }
    if (!any) return 0;
    memset(removals, 0, 81 * sizeof(mask_t));
    for (; any; any &= any - 1) {
        int d = low_bit_index(any);
        for (bb_t r = gone[d]; r; r &= r - 1) removals[bb_first(r)] |= (mask_t)(1u << d);
    }
    return 1;
}

/* SE's cycle search (cycles() in the reference), up to `limit` potentials: the length of the
 * first cycle found that removes something, what it removes in `removals`; 0 if none.
 *
 * The reference finds every cycle within the limit, then takes each one chosen over the best
 * so far: all are, until one removing something is taken. The cycles found after it are as
 * long or longer, of the same rung and rank (a length's extra never decreases), so none is
 * chosen over it: the first is the one kept, and the search stops there.
 *
 * The reference makes a layer of "off" nodes, then the "on" nodes they imply; here each "off"
 * is followed as it is made, in the same order, so the "on" nodes are seen in the same order.
 * Once an "off" potential has been followed, every "on" it implies has been seen: followed
 * again it only closes a cycle, if it implies the start (`closes`), and is otherwise skipped
 * without a node. An "off" node is made only when something hangs from it. */
SEARCH static int cycles(int start, int limit, mask_t removals[81]) {
    const int comp = cycle_component(start);
    new_tree(start);
    const uint16_t *into;
    /* what implies the start: the negations of what its negation implies (see forcing()) */
    for (int j = 0, m = implied(start ^ 1, &into); j < m; j++) closes_at[into[j] ^ 1] = seen_stamp;
    int *ons = layer_a, *next_ons = layer_b, n_ons = 1, length = 0;
    ons[0] = 0;
    while (n_ons && length + 2 <= limit) {
        length += 2;
        int n_next = 0;
        for (int k = 0; k < n_ons; k++) {
            const uint16_t *offs;
            int n = ons[k], m = implied(node_key[n], &offs);
            for (int j = 0; j < m; j++) {
                int q = offs[j];
                if (followed_at[q] == seen_stamp) {
                    if (length < 4 || closes_at[q] != seen_stamp || implied_before(n, q)) continue;
                    if (cycle_removals(add_node(start, add_node(q, n)), removals)) return length;
                    continue;
                }
                /* never followed, so not above n either (what is above was followed) */
                followed_at[q] = seen_stamp;
                if (!may_cycle(comp, q)) continue;
                const uint16_t *next;
                int off = -1, mq = implied(q, &next);
                for (int i = 0; i < mq; i++) {
                    if (next[i] == start) {
                        if (length < 4) continue;
                        if (off < 0) off = add_node(q, n);
                        if (cycle_removals(add_node(start, off), removals)) return length;
                    } else if (may_cycle(comp, next[i]) && first_seen(next[i])) {
                        if (off < 0) off = add_node(q, n);
                        next_ons[n_next++] = add_node(next[i], off);
                    }
                }
            }
        }
        int *t = ons;
        ons = next_ons;
        next_ons = t;
        n_ons = n_next;
    }
    return 0;
}

/* SE's forcing chain from `start` to its negation (forcing() in the reference): the chain's
 * complexity (its length in implications, plus one), or 0 if none is found within `limit`.
 *
 * SE's search is breadth-first, so the length is the distance from `start` to its negation.
 * The implications are symmetric under negation (p implies q exactly when not-q implies
 * not-p), so a chain through x is as long as dist(start, x) + dist(start, not-x): the search
 * meets in the middle, going only half as deep, and finds the same length. */
static int dist[POTENTIALS];

/* forcing()'s last layer, at `depth`, from the n potentials of `layer` (the one before): what
 * forcing() returns. The potentials met there are not followed, so they are neither marked
 * nor kept, only paired with their negations seen before. That finds the same chains: the
 * implications alternate "on" and "off", so a chain's two halves differ in length, and a
 * potential met there pairs only with one seen before; one met there and seen before has
 * been paired already, as shortly or more. */
static inline int last_layer(const int *layer, int n, int depth, int shortest, int limit) {
    for (int k = 0; k < n; k++) {
        const uint16_t *next;
        int m = implied(layer[k], &next);
        for (int j = 0; j < m; j++) {
            int x = next[j] ^ 1;
            if (seen_at[x] == seen_stamp && depth + dist[x] < shortest) shortest = depth + dist[x];
        }
    }
    return shortest <= 2 * depth && shortest + 1 <= limit ? shortest + 1 : 0;
}

SEARCH static int forcing(int start, int limit) {
    new_tree(start);
    dist[start] = 0;
    int *layer = layer_a, *next_layer = layer_b, n_layer = 1, depth = 0, shortest = MAX_NODES;
    layer[0] = start;
    for (;;) {
        /* every chain of length up to 2 * depth has been seen: the shortest is known, or longer */
        if (shortest <= 2 * depth) return shortest + 1 <= limit ? shortest + 1 : 0;
        if (!n_layer || 2 * depth + 2 > limit) return 0;
        depth++;
        if (2 * depth + 2 > limit) return last_layer(layer, n_layer, depth, shortest, limit);
        int n_next = 0;
        for (int k = 0; k < n_layer; k++) {
            const uint16_t *next;
            int m = implied(layer[k], &next);
            for (int j = 0; j < m; j++) {
                int x = next[j];
                if (!first_seen(x)) continue;
                dist[x] = depth;
                next_layer[n_next++] = x;
                if (seen_at[x ^ 1] == seen_stamp && depth + dist[x ^ 1] < shortest)
                    shortest = depth + dist[x ^ 1];
            }
        }
        int *t = layer;
        layer = next_layer;
        next_layer = t;
        n_layer = n_next;
    }
}

/* ---- hints and SE's choice among them ---- */
static void order_of(ChainHint *h, int tenths, int complexity, int rank) {
    h->difficulty = tenths / 10.0 + T.length_added[complexity - 2];
    h->complexity = complexity;
    h->rank = rank;
}

static int precedes(const ChainHint *a, const ChainHint *b) {
    if (a->difficulty != b->difficulty) return a->difficulty < b->difficulty;
    if (a->complexity != b->complexity) return a->complexity < b->complexity;
    return a->rank < b->rank;
}

static int same_order(const ChainHint *a, const ChainHint *b) {
    return a->difficulty == b->difficulty && a->complexity == b->complexity && a->rank == b->rank;
}

/* Whether `h` is chosen over `best`: it precedes it, or equals it and was found first (`tie`). */
static int beats(const ChainHint *h, const ChainHint *best, int tie) {
    return !best->rung || precedes(h, best) || (tie && same_order(h, best));
}

/* The largest complexity at which a hint of `tenths` and `rank` is still chosen over `best`.
 * Asked for every start, mostly of the same best: the last answer is kept (for one position:
 * best_hint() forgets it, so new tables are taken too). */
static struct {
    int tenths, rank, tie, complexity, best_rank, limit;
    double difficulty;
} last;

static int limit_of(int tenths, int rank, const ChainHint *best, int tie) {
    if (!best->rung) return NO_LIMIT;
    if (last.tenths == tenths && last.rank == rank && last.tie == tie &&
        last.difficulty == best->difficulty && last.complexity == best->complexity &&
        last.best_rank == best->rank)
        return last.limit;
    ChainHint h;
    int c = 1;
    while (c < NO_LIMIT) {
        order_of(&h, tenths, c + 1, rank);
        if (!beats(&h, best, tie)) break;
        c++;
    }
    last.tenths = tenths;
    last.rank = rank;
    last.tie = tie;
    last.difficulty = best->difficulty;
    last.complexity = best->complexity;
    last.best_rank = best->rank;
    last.limit = c;
    return c;
}

/* The forcing chains of one start (run "on", then "off"), each kept if chosen over the best
 * so far (found before it: strictly). The bound is asked only of an assumption that may lead
 * to its negation (most do not), after the best the "on" run may have found: a chain over it
 * would not be chosen anyway. */
static void start_forcing(const mask_t *cands, const Links *s, int tenths, int start,
                          ChainHint *best) {
    ChainHint h;
    for (int assumed = start; assumed >= start - 1; assumed--) {
        if (!leads_to_negation(assumed)) continue;
        int limit = limit_of(tenths, s->rank, best, 0);
        int complexity = limit < 4 ? 0 : forcing(assumed, limit);
        if (!complexity) continue;
        int cell = (start >> 1) / 9;
        mask_t bit = (mask_t)(1u << (start >> 1) % 9);
        h.rung = s->forcing;
        h.bonus = T.length_bonus[complexity - 2];
        h.forcing_start = start;
        order_of(&h, tenths, complexity, s->rank);
        if (!beats(&h, best, 0)) continue;
        memset(h.removals, 0, sizeof h.removals);
        if (assumed & 1) {  /* "on" implies "off": the digit goes */
            h.removals[cell] = bit;
            h.place_cell = -1;
        } else {  /* "off" implies "on": the digit is placed */
            h.removals[cell] = (mask_t)(cands[cell] ^ bit);
            h.place_cell = cell;
            h.place_bit = bit;
        }
        *best = h;
    }
}

/* The cycles of one start, the first kept if chosen over the best so far. SE finds a start's
 * cycles before its forcing chains, and earlier starts first: a cycle wins a tie against a
 * forcing chain of this search from its own start or a later one. Every length up to the
 * limit is chosen over the best (limit_of), so the first cycle found removing something is. */
static void start_cycles(const Links *s, int tenths, int start, ChainHint *best) {
    ChainHint h;
    if (!cycle_possible(start)) return;  /* first: it rules out most starts, and is quicker */
    int limit = limit_of(tenths, s->rank, best, best->forcing_start >= start);
    if (limit < 4) return;
    const uint16_t *into;
    if (!implied(start ^ 1, &into)) return;  /* nothing implies the start: no cycle closes */
    int length = cycles(start, limit, h.removals);  /* its potentials, start once */
    if (!length) return;
    order_of(&h, tenths, length, s->rank);
    h.rung = s->cycle;
    h.bonus = T.length_bonus[length - 2];
    h.place_cell = -1;
    h.forcing_start = -1;
    *best = h;
}

/* The starts of the searches, in SE's order (cell, then digit): of a search with bilocation
 * links, every candidate of a cell of two or more (`all`); of the one without, of a cell of two
 * (`bivalue`, *n_bivalue). Made once for the three searches: how many of all. */
static int all_starts(const mask_t *cands, int all[729], int bivalue[729], int *n_bivalue) {
    int n = 0, nb = 0;
    for (int cell = 0; cell < 81; cell++) {
        int m = pop(cands[cell]);
        if (m < 2) continue;
        for (unsigned ds = cands[cell]; ds; ds &= ds - 1) {
            int p = (cell * 9 + low_bit_index(ds)) * 2 + 1;
            all[n++] = p;
            if (m == 2) bivalue[nb++] = p;
        }
    }
    *n_bivalue = nb;
    return n;
}

/* Every start of a search, in SE's order. */
static int starts_of(const mask_t *cands, const Links *s, int out[729]) {
    static int bivalue[729];
    int n_bivalue, n = all_starts(cands, out, bivalue, &n_bivalue);
    if (s->bilocation) return n;
    memcpy(out, bivalue, (size_t)n_bivalue * sizeof *out);
    return n_bivalue;
}

/* The chain SE applies (best_hint() in the reference). The reference, like SE, takes each
 * start's cycles then its forcing chains; here a search's forcing chains come first, being
 * quick to find, and bound the length of the cycles worth searching for: with ties settled
 * by SE's order of finding, the chain chosen is the same.
 *
 * The first search's graph (X-links) is each digit's own: a digit whose places have not
 * changed since that search last found nothing at all finds nothing again, and its starts are
 * skipped (`b`: what the board remembers of it; a shortcut of the core). */
static void best_hint(Board *b, const mask_t *cands, const uint16_t (*places)[9], const bb_t *digits,
                      ChainHint *best) {
    static int all[729], bivalue[729], kept[729];
    last.tenths = -1;
    best->rung = NULL;
    best->forcing_start = -1;
    unsigned quiet = 0;  /* the digits skipped */
    for (int d = 0; d < 9; d++) {
        if ((b->x_quiet >> d & 1) && b->x_quiet_places[d] == digits[d]) quiet |= 1u << d;
    }
    int n_bivalue, n_all = all_starts(cands, all, bivalue, &n_bivalue);
    for (int k = 0; k < 3; k++) {
        const Links *s = &SEARCHES[k];
        int cycle_tenths = rung_tenths(s->cycle), forcing_tenths = s->forcing ? rung_tenths(s->forcing) : 0;
        int cycles_possible = limit_of(cycle_tenths, s->rank, best, 0) >= 4;
        int forcing_possible = s->forcing && limit_of(forcing_tenths, s->rank, best, 0) >= 4;
        if (!cycles_possible && !forcing_possible) continue;  /* nothing it finds could win */
        const int *starts = s->bilocation ? all : bivalue;
        int n = s->bilocation ? n_all : n_bivalue;
        if (k == 0 && quiet) {
            n = 0;
            for (int j = 0; j < n_all; j++) {
                if (!(quiet >> ((all[j] >> 1) % 9) & 1)) kept[n++] = all[j];
            }
            starts = kept;
        }
        /* The components of the graph of both links prune every search's starts and cycles. */
        pruned = n > 0;
        if (pruned && memcmp(reach_cands, cands, sizeof reach_cands)) {
            new_graph(2, cands, places, digits);
            components(cands);
        }
        new_graph(k, cands, places, digits);
        for (int j = 0; s->forcing && j < n; j++) start_forcing(cands, s, forcing_tenths, starts[j], best);
        for (int j = 0; j < n; j++) start_cycles(s, cycle_tenths, starts[j], best);
        best->forcing_start = -1;  /* what this search found comes before the next search's */
        if (k == 0) {  /* searched unbounded (the first search): nothing found is known */
            b->x_quiet = best->rung ? 0 : ALL_DIGITS;
            memcpy(b->x_quiet_places, digits, sizeof b->x_quiet_places);
        }
    }
}

/* Apply the hint SE would, if it is of `rung`: one instance, with its length's bonus. */
static Found apply(Board *b, technique_fn rung) {
    if (b->chain_at != b->version) {
        best_hint(b, b->cands, board_positions(b), board_digits(b), &b->chain);
        b->chain_at = b->version;
    }
    const ChainHint *h = &b->chain;
    if (h->rung != rung) return NOTHING;
    Found found = NOTHING;
    if (h->place_cell >= 0) {
        found = board_place(b, h->place_cell, h->place_bit);
    } else {
        mask_t removals[81];
        memcpy(removals, h->removals, sizeof removals);
        for (int c = 0; c < 81; c++) {
            if (removals[c]) found = found_add(found, board_remove(b, bb_cell(c), removals[c]));
        }
    }
    Found one = {1, h->bonus, found.why};
    return one;
}

/* The first of the five rungs to ask on a position: it pays for their one search. */
Found bidirectional_x_cycle(Board *b) {
    work_charge(WORK_CYCLES);
    return apply(b, bidirectional_x_cycle);
}
Found bidirectional_y_cycle(Board *b) { return apply(b, bidirectional_y_cycle); }
Found forcing_x_chain(Board *b) { return apply(b, forcing_x_chain); }
Found bidirectional_cycle(Board *b) { return apply(b, bidirectional_cycle); }
Found forcing_xy_chain(Board *b) { return apply(b, forcing_xy_chain); }

/* ---- every hint, for the chains nesting these (every_hint() in the reference) ----
 * Unlike the search above, every cycle and forcing chain of every start, found as the
 * reference finds them, no shortcut: a chain nesting them takes them all. */
static Chains found;
static int ends[MAX_NODES], via[POTENTIALS];
static uint16_t chain_keys[MAX_NODES], chain_causes[MAX_NODES];

/* Every cycle from `start` (cycles() in the reference, no limit): the nodes closing one. */
static int all_cycles(int start) {
    const int comp = cycle_component(start);
    new_tree(start);
    int *ons = layer_a, *offs = layer_b, n_ons = 1, n_ends = 0, length = 0;
    ons[0] = 0;
    while (n_ons) {
        length += 2;
        int n_offs = 0;
        for (int k = 0; k < n_ons; k++) {
            const uint16_t *next;
            int n = ons[k], m = implied(node_key[n], &next);
            for (int j = 0; j < m; j++) {
                if (may_cycle(comp, next[j]) && !implied_before(n, next[j]))
                    offs[n_offs++] = add_node(next[j], n);
            }
        }
        n_ons = 0;
        for (int k = 0; k < n_offs; k++) {
            const uint16_t *next;
            int n = offs[k], m = implied(node_key[n], &next);
            for (int j = 0; j < m; j++) {
                int p = next[j];
                if (p == start) {
                    if (length >= 4) ends[n_ends++] = add_node(p, n);
                } else if (may_cycle(comp, p) && first_seen(p)) {
                    ons[n_ons++] = add_node(p, n);
                }
            }
        }
    }
    return n_ends;
}

/* The forcing chain from `start` to its negation (forcing_path() in the reference), into
 * `out`, from the negation back to `start`: its length, 0 if none. */
static int forcing_path(int start, uint16_t *out) {
    new_tree(start);
    int *layer = layer_a, *next_layer = layer_b, n_layer = 1;
    layer[0] = start;
    via[start] = -1;
    while (n_layer) {
        int n_next = 0;
        for (int k = 0; k < n_layer; k++) {
            const uint16_t *next;
            int m = implied(layer[k], &next);
            for (int j = 0; j < m; j++) {
                int p = next[j];
                if (!first_seen(p)) continue;
                via[p] = layer[k];
                if (p == (start ^ 1)) {
                    int n = 0;
                    for (int q = p; q >= 0; q = via[q]) out[n++] = (uint16_t)q;
                    return n;
                }
                next_layer[n_next++] = p;
            }
        }
        int *t = layer;
        layer = next_layer;
        next_layer = t;
        n_layer = n_next;
    }
    return 0;
}

/* Record a hint of `chain` (each potential implied by the next): the causes of its potentials
 * "on" as found, then, for a cycle, those "on" reversed, last first. */
static void add_chain(int tenths, const Links *s, int complexity, const mask_t *removals,
                      const uint16_t *chain, int n, int cycle) {
    int n_causes = 0;
    for (int pass = 0; pass < (cycle ? 2 : 1); pass++) {
        for (int k = 0; k + 1 < n; k++) {
            int i = pass ? n - 2 - k : k;
            if ((chain[i] & 1) != !pass) continue;
            int code = chain_cause(g_places, chain[i], chain[i + 1]);
            chain_causes[n_causes++] = (uint16_t)(code * 9 + (chain[i] >> 1) % 9);
        }
    }
    chains_add(&found, tenths / 10.0 + T.length_added[complexity - 2], complexity, s->rank,
               removals, chain_causes, n_causes, chains_key(cycle, chain, n, 0));
}

const Chains *every_chain(const mask_t *cands) {
    static uint16_t places[27][9];
    static bb_t digits[9];
    static int starts[729];
    work_charge(WORK_EVERY_CYCLE);
    board_views(cands, places, digits);
    chains_reset(&found);
    /* The components of the graph of both links (it holds every implication of the other two):
     * a start alone in its component closes no cycle, and a forcing chain from a potential to
     * its negation exists only where that one is in its reach. Those searches, finding
     * nothing, are skipped. */
    if (memcmp(reach_cands, cands, sizeof reach_cands)) {
        new_graph(2, cands, (const uint16_t(*)[9])places, digits);
        components(cands);
    }
    pruned = 1;
    for (int k = 0; k < 3; k++) {
        const Links *s = &SEARCHES[k];
        int cycle_tenths = rung_tenths(s->cycle), forcing_tenths = s->forcing ? rung_tenths(s->forcing) : 0;
        new_graph(k, cands, (const uint16_t(*)[9])places, digits);
        int n_starts = starts_of(cands, s, starts);
        for (int j = 0; j < n_starts; j++) {
            int start = starts[j], n_ends = cycle_possible(start) ? all_cycles(start) : 0;
            for (int e = 0; e < n_ends; e++) {
                mask_t removals[81];
                if (!cycle_removals(ends[e], removals)) continue;
                int n = 0;
                for (int node = ends[e]; node_parent[node] >= 0; node = node_parent[node])
                    chain_keys[n++] = node_key[node];
                chain_keys[n] = (uint16_t)start;
                add_chain(cycle_tenths, s, n, removals, chain_keys, n + 1, 1);
            }
            if (!s->forcing) continue;
            int cell = (start >> 1) / 9;
            mask_t bit = (mask_t)(1u << (start >> 1) % 9);
            for (int assumed = start; assumed >= start - 1; assumed--) {
                int n = leads_to_negation(assumed) ? forcing_path(assumed, chain_keys) : 0;
                if (!n) continue;
                mask_t removals[81] = {0};
                removals[cell] = assumed & 1 ? bit : (mask_t)(cands[cell] ^ bit);
                if (!removals[cell]) continue;
                add_chain(forcing_tenths, s, n, removals, chain_keys, n, 0);
            }
        }
    }
    chains_hand_over(&found);
    return &found;
}
