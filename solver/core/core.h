/* The compiled solver core: the same algorithms as the pure-Python reference, file by file
 * (board.c mirrors solver/board.py, singles.c solver/singles.py, ...), in the same order of
 * iteration, so both give identical results, metrics and ratings. See solver/grid.py for the
 * glossary: cell 0..80, unit 0..26 (rows, columns, boxes), candidates as a 9-bit mask.
 *
 * Pure C99 plus GCC/Clang builtins (popcount, count trailing zeros, 128-bit integers for
 * bitboards of 81 cells). No allocation, no I/O; Python is touched only in module.c.
 */
#ifndef SUDOKU_CORE_H
#define SUDOKU_CORE_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

typedef uint16_t mask_t;          /* candidates: bit d-1 for digit d */
typedef unsigned __int128 bb_t;   /* bitboard: bit i for cell i */

#define ALL_DIGITS 0x1FF
#define MAX_STEPS 1024            /* a step removes at least one of the <= 729 candidates */

/* ---- tables.c: the grid's geometry, filled once by core_init() ---- */
extern uint8_t ROW_OF[81], COL_OF[81], BOX_OF[81];
extern uint8_t BOX_PLACE[81];     /* the cell's place in its box (k of UNITS[18 + box][k]) */
extern uint8_t UNITS[27][9];
extern uint8_t PEERS[81][20];     /* ascending */
extern uint8_t BOX_REST[81][4];   /* the peers in the box but not the row or column */
extern uint32_t CELL_UNITS[81];   /* bit u for the three units of the cell */
extern bb_t UNIT_BB[27], PEER_BB[81];
void core_init(void);

/* Popcounts without the CPU's popcnt instruction (not in baseline x86-64, and a library call
 * when the compiler may not use it): a table for candidate masks, SWAR for bitboards. */
extern uint8_t POP9[512];
static inline int pop(unsigned x) { return POP9[x & 0x1FF]; }
static inline int pop64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((x * 0x0101010101010101ull) >> 56);
}
static inline int low_bit_index(unsigned x) { return __builtin_ctz(x); }
static inline int digit_of(mask_t bit) { return __builtin_ctz(bit) + 1; }
/* The other cell of unit u where a digit may go, its `places` there (bits by the unit's cells)
 * holding `cell` and one other; -1 when they are not two (a strong link by the unit). */
static inline int unit_twin(int u, unsigned places, int cell) {
    if (pop(places) != 2) return -1;
    int a = UNITS[u][low_bit_index(places)], b = UNITS[u][low_bit_index(places & (places - 1))];
    return a == cell ? b : a;
}
static inline bb_t bb_cell(int i) { return (bb_t)1 << i; }
static inline int bb_has(bb_t b, int i) { return (int)((b >> i) & 1); }
static inline int bb_pop(bb_t b) {
    return pop64((uint64_t)b) + pop64((uint64_t)(b >> 64));
}
static inline int bb_first(bb_t b) {
    uint64_t lo = (uint64_t)b;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(b >> 64));
}
/* itertools.combinations(range(n), size), in the same order: idx holds the current one. */
static inline int comb_first(int *idx, int size, int n) {
    for (int k = 0; k < size; k++) idx[k] = k;
    return n >= size;
}
static inline int comb_next(int *idx, int size, int n) {
    int k = size - 1;
    while (k >= 0 && idx[k] == n - size + k) k--;
    if (k < 0) return 0;
    idx[k]++;
    for (int j = k + 1; j < size; j++) idx[j] = idx[j - 1] + 1;
    return 1;
}
/* Iterate the cells of a bitboard, ascending: for (bb_t r = b; r; r &= r - 1) { i = bb_first(r); } */

/* ---- configure.c: the reference's tables, handed over by solver/native.py at import ---- */
/* Why a position cannot be completed (solver/board.py's CONTRADICTIONS, matched by name). */
enum contradiction_kind { NO_CONTRADICTION = 0, NO_CANDIDATE, CANNOT_HOLD, NO_PLACE, BOTH_BRANCHES,
                          CONTRADICTION_KINDS };
extern const char *const CONTRADICTION_NAMES[CONTRADICTION_KINDS];

/* RUNG_FUNCTIONS(X) calls X(name) for the function of each rung of the reference's ladder, once
 * each: the build writes it from solver.ladder.RUNGS into rungs.h (setup.py). */
#include "rungs.h"
#define ONE_MORE(fn) +1
#define MAX_RUNGS (0 RUNG_FUNCTIONS(ONE_MORE))  /* the ladder's rungs, a function each */
#define MAX_PROFILES 8            /* rating profiles: a ladder each (solver/ladder.py LADDERS) */
#define POTENTIALS (2 * 729)      /* a candidate on or off: (cell * 9 + digit - 1) * 2 + on */
#define MAX_LENGTH POTENTIALS     /* the longest chain: cells changed, or potentials (cycles.c) */
#define MAX_HINT_LENGTH (9 * MAX_LENGTH)  /* the most potentials of a hint's chains (forcing.c) */
#define MAX_COPIES 16             /* symmetric copies searched for the estimate */
#define NESTED_LEVELS 5           /* solver/nested.py LEVEL_RULES: levels 0 (none) to 4 */
#define NESTED_RULES 7            /* the rules nested.c has, in nested.RULE_ORDER */
#define DIRECT_LOCKS 54           /* a box and a line crossing: 9 boxes, 6 lines each */
typedef struct Board Board;
typedef struct Found Found;
typedef Found (*technique_fn)(Board *);
typedef struct {
    const char *name;             /* owned by the configured ladder (Python str, kept alive);
                                   * two rungs share a name where the profiles' Explainers
                                   * apply one rule their own way */
    int tenths;                   /* the SE value, in tenths */
    int estimated;                /* rated by the estimate above the exact ladder */
    int assumes_uniqueness;       /* a path using it proves nothing about uniqueness */
    int se_chain;                 /* one of SE's chains: tried within the work budget */
    technique_fn apply;
} Rung;
typedef struct {
    Rung rungs[MAX_RUNGS];
    int n;
    int n_profiles;                /* each profile's ladder, as rung indices in its order: */
    int all[MAX_PROFILES][MAX_RUNGS], n_all[MAX_PROFILES];       /* every rung */
    int exact[MAX_PROFILES][MAX_RUNGS], n_exact[MAX_PROFILES];   /* those not estimated */
    int length_bonus[MAX_HINT_LENGTH + 1];
    int loop_bonus[4][2], n_loop_bonus;  /* (length, tenths): solver/uniqueness.py LOOP_BONUS */
    int loop_naked_bonus, loop_hidden_bonus, loop_largest_set, loop_max_extra_cells;
    int bug_type_3_bonus, bug_largest_set;
    double length_added[MAX_HINT_LENGTH + 1];  /* SE's extra for a chain's length, as SE sums it */
    int forcing_kinds[4];         /* SE's order of the kinds of hint below */
    int forcing_rules[10][4];      /* solver/forcing.py RULES: (dynamic, nishio, level, hash_order) */
    /* solver/nested.py's CROSSINGS (unit pairs), SET_UNITS, FISH_LINES (first units), PAIRS */
    int nested_crossings[108][2], nested_set_units[27];  /* 4 kinds x 27 crossing pairs */
    int nested_fish_lines[2][2], nested_pairs[36][2];
    int nested_level_rules[NESTED_LEVELS];  /* LEVEL_RULES: each level's rules, a bit each */
    int link_bonus[4];            /* solver/links.py LINK_BONUS */
    /* solver/links.py's unit layouts (BOX_EMPTY, BOX_ARMS, SEGMENTS, LINE_ARMS), padded with
     * NO_POSITION (9, beyond a unit's positions) */
    int box_empty[15][4], box_arms[15][2][3], segments[3][3], line_arms[3][2][3];
    int wing_bonus[2][8];         /* solver/bigwings.py WING_BONUS: [size - 4][largest cell] */
    double buckets[8];            /* upper bounds of the labels below the top bucket */
    int n_buckets;                /* label n_buckets: the top bucket; n_buckets + 1: search */
    double scale_bottom, scale_top;
    double search_floor[MAX_PROFILES][2];  /* the estimate's floor: without, with SE's chains */
    int64_t work_charges[5];      /* solver/work.py CHARGES: the units of each kind of work */
    double estimate_base, estimate_slope, candidate_weight;
    int copies, copy_guess_limit;
    uint8_t empty_char[128];      /* 1 for the characters that mark an empty cell */
    /* SE's order of the units (solver/grid.py SE_UNIT_ORDER, SE_UNITS_OF): all 27 (boxes, rows,
     * columns), each cell's three (box, row, column), and its peers in that order: one by one,
     * and per unit those not in an earlier unit: as a bitboard, and as places of the unit. */
    uint8_t se_unit_order[27], se_direct_units[27], se_units_of[81][3], se_peers[81][20];
    uint8_t se_direct_locks[2][DIRECT_LOCKS][2]; /* [pointing]: (source, target), SE's order */
    bb_t se_peer_units[81][3];
    uint16_t se_peer_places[81][3];
    uint16_t se_unit_place[81][3];  /* the cell's own place in each of its units (a bit) */
} Tables;
extern Tables T;

/* ---- board.c: placed digits, candidates, and what a change finds ---- */
typedef struct {
    int kind, at, digit;          /* at: the cell, or the unit for NO_PLACE; digit 0 if none */
} Contradiction;

/* What applying a technique did (solver/board.py's Found). */
struct Found {
    int fired;                    /* instances (or changes) that changed the board */
    int bonus;                    /* tenths added to the rung's value by the instance */
    Contradiction why;            /* kind NO_CONTRADICTION when none was met */
};
static const Found NOTHING = {0, 0, {0, 0, 0}};
static const Found ONE = {1, 0, {0, 0, 0}};
static inline Found broken(int kind, int at, int digit) {
    Found f = {0, 0, {kind, at, digit}};
    return f;
}
/* Both findings together: changes added, the larger bonus, the first contradiction. */
static inline Found found_add(Found a, Found b) {
    a.fired += b.fired;
    if (b.bonus > a.bonus) a.bonus = b.bonus;
    if (!a.why.kind) a.why = b.why;
    return a;
}
static inline Found with_bonus(Found f, int bonus) {
    f.bonus = bonus;
    return f;
}

typedef struct {
    int unit, a, b;               /* a strong link: the digit's only two cells a < b in unit */
} Link;

typedef struct {
    int digit, source, target;    /* locked candidates: digit's cells of source all in target */
} Lock;

/* The kinds of a chain of several assumptions' hint, indices into T.forcing_kinds. */
enum { HINT_DOUBLE, HINT_CELL, HINT_REGION, HINT_CONTRADICTION };

#define MAX_LOCKS 256

/* The chain SE would apply (cycles.c): its rung, SE's order among chains, its extra tenths, the
 * candidates it removes, and the digit it places (place_cell -1: none). */
typedef struct {
    technique_fn rung;            /* NULL: no chain */
    double difficulty;
    int complexity, rank, bonus;
    mask_t removals[81];
    int place_cell;
    mask_t place_bit;
    int forcing_start;            /* a forcing chain of the search under way: its start (else -1) */
} ChainHint;

/* A position where a search found nothing: its candidates and the search's base cells then. */
typedef struct {
    mask_t cands[81];
    bb_t base;
} Nothing;

/* The pairs of digits whose unique loops' search met no loop with an extra cell on a position
 * (uniqueness.c): its candidates, whose search (SukakuExplainer's or SE's), and by pair (lower
 * digit, higher digit) the cells holding both digits then, 0 when the pair is not known quiet. */
typedef struct {
    mask_t cands[81];
    int sukaku;
    bb_t quiet[9][9];
} QuietPairs;

struct Board {
    uint8_t values[81];
    mask_t cands[81];
    uint8_t unit_empty[27];       /* empty cells per unit */
    int empty;
    /* Views of the candidates, each computed on demand and kept while the board does not
     * change (`version` moves with every change). A technique reads the views it needs
     * before changing anything, so what it reads is the state it started from. */
    uint32_t version, digits_at, positions_at, links_at, locks_at[2], loops_at, no_grave_at;
    uint32_t chain_at;
    int triplets_known;           /* aligned triplet exclusion found nothing on triplets.cands */
    int pairs_known;              /* aligned pair exclusion found nothing on pairs.cands */
    uint16_t x_quiet;             /* the digits whose X-cycles and chains found nothing, on */
    int loops_key[4];             /* the easiest unique loop hint: found, value, type, sukaku */
    int loops_known;              /* loops_quiet holds (uniqueness.c) */
    int no_grave_sukaku;          /* no_grave_at holds for SukakuExplainer's BUG search */
    bb_t digits[9];               /* cells allowing digit d+1 */
    uint16_t positions[27][9];    /* bit k: cell k of unit u allows digit d+1 */
    Link links[9][27];
    uint8_t n_links[9];
    Lock locks[2][MAX_LOCKS];     /* [0] claiming, [1] pointing */
    int n_locks[2];
    ChainHint chain;
    bb_t x_quiet_places[9];       /* ... these places (cycles.c) */
    Nothing triplets, pairs;      /* the positions where those found nothing (exclusion.c) */
    QuietPairs loops_quiet;       /* the pairs whose unique loops found nothing (uniqueness.c) */
};

void board_from_grid(Board *b, const uint8_t grid[81]);
Contradiction first_dead_cell(const Board *b);
Found board_place(Board *b, int i, mask_t bit);
Found board_remove(Board *b, bb_t cells, mask_t mask);
const bb_t *board_digits(Board *b);
const uint16_t (*board_positions(Board *b))[9];
const Link *board_links(Board *b, int digit, int *n);
const Lock *board_locks(Board *b, int is_pointing, int *n);
void board_masks(const Board *b, mask_t out[81]);
/* The cells whose candidates changed from `then` to `now`, into `changed`: 1, or 0 when a
 * candidate came back (a new position, not one a step made). */
int changed_since(const mask_t then[81], const mask_t now[81], bb_t *changed);
Found place_all(Board *b, const int (*placements)[2], int n);
/* SE's direct hint: remove `mask` from `cells`, then place `bit` in cell i; one change. */
Found removal_and_single(Board *b, bb_t cells, mask_t mask, int i, mask_t bit);

/* ---- techniques: (Board *) -> Found, one for each function on the reference's ladder ----
 * Declared from RUNG_FUNCTIONS (above), so a new rung needs only its function here; the
 * registry (ladder.c) gives them their names. */
#define DECLARE_TECHNIQUE(fn) Found fn(Board *);
RUNG_FUNCTIONS(DECLARE_TECHNIQUE)
#undef DECLARE_TECHNIQUE

/* Every hint of SE's "Forcing Chains & Cycles" on a board, as a chain nesting them sees them
 * (cycles.c, solver/cycles.py every_hint): in SE's order, each set of removals once. */
typedef struct {
    double difficulty;
    int complexity, rank, found;  /* found: its place in the order found */
    uint32_t removals, n_removals;  /* its removals, by cell: cell[], mask[] from `removals` */
    uint32_t causes, n_causes;    /* its "on" potentials' causes: code * 9 + digit, the code a
                                   * cell (0-80: a naked single) or 81 + a unit */
    uint64_t key;                 /* its chains' identity (SE's FullChain), hashed */
} NestedChain;
typedef struct {
    int n;                        /* the hints found, in the order found */
    uint32_t cap;
    NestedChain *hint;
    int *kept, n_kept;            /* those handed on, in SE's order */
    uint32_t cap_kept;
    uint32_t n_removals, cap_removals, cap_masks, n_causes, cap_causes;
    uint8_t *cell;
    mask_t *mask;
    uint16_t *cause;
} Chains;
/* chainlist.c: recording them, and what the producers share */
int grow_buffer(void **buf, uint32_t *cap, uint32_t need, size_t size);
int rung_tenths(technique_fn rung);  /* the ladder's SE value of the rung applying `rung` */
void board_views(const mask_t *cands, uint16_t places[27][9], bb_t digits[9]);
int chain_cause(const uint16_t (*places)[9], int p, int parent);  /* cause() in the reference */
uint64_t chains_key(int tag, const uint16_t *keys, int n, uint64_t h);  /* h: 0, or a key to extend */
void chains_reset(Chains *c);
void chains_add(Chains *c, double difficulty, int complexity, int rank, const mask_t *removals,
                const uint16_t *causes, int n_causes, uint64_t key);
void chains_hand_over(Chains *c);
/* every hint of cycles and forcing chains (cycles.c), of multiple forcing chains (multiple.c) */
const Chains *every_chain(const mask_t *cands);
const Chains *every_multiple_chain(const mask_t *cands);
/* every hint of dynamic forcing chains (forcing.c), for the chains of level 4 nesting them */
const Chains *every_dynamic_chain(const mask_t *cands);
/* chainlist.c: a producer's hints (producer 0-2: the three above, `make`), kept for its last
 * boards and given again, with the same work charged, when one recurs; chains_forget() drops
 * them (the tables change) */
const Chains *chains_of(int producer, const mask_t *board, const Chains *(*make)(const mask_t *));
void chains_forget(void);

/* forcing.c: what a potential implies in SE's runs (`y`: bivalue links too), shared by the runs
 * of multiple.c; an "off"'s implications come with their parents (itself, and what `source`
 * had that `board` lost and made them follow). */
#define MAX_PARENTS 9                /* the implying potential and up to 8 removed with it */
int on_to_off(const mask_t *board, int p, int y, int out[28]);
int off_to_on(const mask_t *board, const mask_t *source, int p, int y, int out[4],
              uint16_t par[4][MAX_PARENTS], int n_par[4], int why[4]);

/* closures.c: whether SE's Nishio run from `start` is absurd, on the places of its digit; if
 * not, the places it turned off [0] and on [1] */
int nishio_absurd(bb_t places, int start, bb_t reached[2]);
/* cycles.c: a run that is not dynamic reaches its start's reach in the graph of both links on
 * `cands`: words over the graph's components (the runs of one position compare), how many, and
 * whether the run is absurd */
int static_reach(const mask_t *cands, int p, const uint64_t **words, int *absurd);
/* whether such reaches (`words` words each) share a potential */
int reaches_meet(const uint64_t *const *reach, int n, int words);

/* ---- nested.c: the rules a chain of some level applies inside (solver/nested.py) ---- */
typedef struct {
    uint32_t n, cap;              /* eliminations, each an "off" key with its parents and the */
    uint32_t n_parents, cap_parents;  /* chain it comes from (0: a plain rule's) */
    uint16_t *key;
    uint32_t *first;
    uint16_t *count;
    uint64_t *chain;
    uint16_t *chain_complexity;
    uint16_t *parents;
} Eliminations;
void nested_eliminations(const mask_t *board, const mask_t *source, int hash_order, int level,
                         Eliminations *out);

/* ---- work.c: the work budget of SE's chains (solver/work.py) ----
 * A climb applies a chain rung with `work_out` set; each charge comes before the work it pays
 * for, and one the budget cannot pay jumps back there, out of the search under way (its state
 * is all scratch space, reset by the next search; the board is changed only after a search). */
typedef struct {
    int on;                       /* SE's chains may be tried (a budget of 0 never tries them) */
    int spent;                    /* the budget ran out: they are not tried again */
    int64_t start, left;          /* the units the climb began with, and those left */
    int (*gate)(void *);          /* asked once before the first chain rung: 0 turns them off */
    void *gate_ctx;
} Budget;
enum work_kind { WORK_RUN, WORK_STALL, WORK_CYCLES, WORK_EVERY_CYCLE, WORK_TRIPLET, WORK_KINDS };
extern int64_t work_left;         /* what the chain rung under way may still charge */
extern jmp_buf *work_out;         /* where a charge it cannot pay jumps (NULL: no limit) */
extern int64_t work_tally[WORK_KINDS];  /* the charges of each kind made (benchmarks/work.py) */
static inline void work_charge(enum work_kind kind) {
    work_tally[kind]++;
    if (!work_out) return;
    work_left -= T.work_charges[kind];
    if (work_left < 0) longjmp(*work_out, 1);
}
Budget work_budget(int64_t units, int64_t batch_left);  /* batch_left < 0: no batch bound */
/* Apply a chain rung within `budget`; 0 when it ran out (the board is as it was). */
int work_apply(technique_fn apply, Board *b, Budget *budget, Found *found);

/* ---- ladder.c ---- */
technique_fn technique_named(const char *name);
int technique_count(void);
const char *technique_name(int k);

typedef struct {
    uint8_t rung;
    uint8_t placed;
    int16_t tenths;
} Step;

typedef struct {
    Step steps[MAX_STEPS];
    int n;
} Path;

Contradiction climb(Board *b, const int *rungs, int n, Path *path, int counts[MAX_RUNGS],
                    Budget *chains);
/* What each rung cost while `rung_profile_on` (benchmarks/profile.py): the times it was asked
 * and fired, its thread CPU nanoseconds, and the runs of SE's chains it charged. */
typedef struct {
    int64_t asked, fired, ns, runs;
} RungCost;
extern int rung_profile_on;
extern RungCost rung_cost[MAX_RUNGS];

/* The independent check (engine.c): every unit holds 1-9 once, every given kept. */
int is_solution(const uint8_t grid[81], const uint8_t full[81]);

/* ---- canon.c ---- */
/* The minlex form of a grid (solver/canon.py); 0 when out of memory. */
int canonical_form(const uint8_t grid[81], uint8_t form[81]);
void canonical_exhaustive(const uint8_t grid[81], uint8_t form[81]);  /* for the tests */

/* ---- search.c ---- */
#define STATE 108                 /* 81 cell masks, then the digits placed in each unit */
typedef struct {
    int64_t budget, nodes, guesses, backtracks, depth;
    int gave_up;
    int solutions;
    int limit;                    /* the solutions to find before stopping: 1 or 2 */
    uint8_t solution[2][81];
} Search;

int propagate(mask_t c[STATE], int *stack, int sp, uint32_t dirty);
void search_run(Search *s, int64_t budget, const mask_t masks[81]);  /* limit 2: uniqueness */
void search_until(Search *s, int64_t budget, int limit, const mask_t masks[81]);
/* From a state whose singles not on the stack are propagated, `dirty` the units to check. */
void search_from(Search *s, int64_t budget, int limit, mask_t c[STATE], int *stack, int sp,
                 uint32_t dirty);

/* ---- minimal.c ---- */
int minimal_grid(const uint8_t grid[81]);
/* The same when the puzzle's one solution is known (a solve proved it): no uniqueness search. */
int minimal_given_solution(const uint8_t grid[81], const uint8_t solution[81]);  /* 1 minimal, 0 not, -1 not exactly one solution */

/* ---- effort.c and rating.c ---- */
double stalled_score(const mask_t masks[81], int64_t budget, int64_t first, int has_first,
                     double floor);
void rate(const Path *path, int has_beyond, double beyond, double *score, double *ep,
          double *ed);
int label_of(double score, int searched);

/* ---- engine.c ---- */
/* solver/result.py's STATUSES (matched by name), and the core's signal of a refused answer. */
enum status { SOLVED, MULTIPLE, UNSOLVABLE, INVALID, GAVE_UP, SOLVER_BUG, STATUS_KINDS };
extern const char *const STATUS_NAMES[STATUS_KINDS];
typedef struct {
    int status;
    int givens;
    int solved_by_elimination;
    int counts[MAX_RUNGS];
    int hardest;                  /* rung index, -1 if none fired */
    int64_t depth, guesses, backtracks, nodes;
    Contradiction why;            /* reason of unsolvable (kind 0: none) */
    int no_solution;              /* reason: solver.engine.NO_SOLUTION */
    uint8_t solution[81];
    int rated;
    int exact;                    /* rated by SE values only (no estimate) */
    int over_budget;              /* an estimate because the work budget ran out */
    int64_t work;                 /* the units of work SE's chains took */
    double score, ep, ed;
    int label;                    /* index into the configured labels */
} Outcome;

void solve_grid(const uint8_t grid[81], int64_t budget, int profile, Budget *chains, Outcome *out);

#endif
