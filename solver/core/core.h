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

#include <stdint.h>

typedef uint16_t mask_t;          /* candidates: bit d-1 for digit d */
typedef unsigned __int128 bb_t;   /* bitboard: bit i for cell i */

#define ALL_DIGITS 0x1FF
#define MAX_STEPS 1024            /* a step removes at least one of the <= 729 candidates */

/* ---- tables.c: the grid's geometry, filled once by core_init() ---- */
extern uint8_t ROW_OF[81], COL_OF[81], BOX_OF[81];
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

/* ---- board.c: placed digits, candidates, the first contradiction met ---- */
enum contradiction {
    NO_CONTRADICTION = 0,
    NO_CANDIDATE,     /* "cell {a} has no candidate left" */
    CANNOT_HOLD,      /* "cell {a} cannot hold {b}" */
    NO_PLACE,         /* "digit {b} has no place left in {unit a}" */
    BOTH_BRANCHES,    /* "both candidates of a cell lead to a contradiction" */
};

typedef struct {
    int unit, a, b;               /* a strong link: the digit's only two cells a < b in unit */
} Link;

typedef struct {
    int digit, source, target;    /* locked candidates: digit's cells of source all in target */
} Lock;

#define MAX_LOCKS 256

typedef struct {
    uint8_t values[81];
    mask_t cands[81];
    uint8_t unit_empty[27];       /* empty cells per unit */
    int empty;
    int contradiction, contra_a, contra_b;
    int bonus;                    /* tenths added to the rung's value by this instance */
    /* Views of the candidates, each computed on demand and kept while the board does not
     * change (`version` moves with every change). A technique reads the views it needs
     * before changing anything, so what it reads is the state it started from. */
    uint32_t version, digits_at, positions_at, links_at, locks_at[2];
    bb_t digits[9];               /* cells allowing digit d+1 */
    uint16_t positions[27][9];    /* bit k: cell k of unit u allows digit d+1 */
    Link links[9][27];
    uint8_t n_links[9];
    Lock locks[2][MAX_LOCKS];     /* [0] claiming, [1] pointing */
    int n_locks[2];
} Board;

void board_from_grid(Board *b, const uint8_t grid[81]);
int board_place(Board *b, int i, mask_t bit);
int board_eliminate(Board *b, int i, mask_t mask);
const bb_t *board_digits(Board *b);
const uint16_t (*board_positions(Board *b))[9];
const Link *board_links(Board *b, int digit, int *n);
const Lock *board_locks(Board *b, int is_pointing, int *n);
void board_masks(const Board *b, mask_t out[81]);
void contradict(Board *b, int kind, int a, int bval);
int place_all(Board *b, const int (*placements)[2], int n);

/* ---- techniques: (Board *) -> times fired ---- */
typedef int (*technique_fn)(Board *);
int full_house(Board *), hidden_single_box(Board *), hidden_single_line(Board *);
int naked_single(Board *);
int direct_pointing(Board *), direct_claiming(Board *), pointing(Board *), claiming(Board *);
int direct_hidden_pair(Board *), direct_hidden_triple(Board *);
int naked_pair(Board *), naked_triple(Board *), naked_quad(Board *);
int hidden_pair(Board *), hidden_triple(Board *), hidden_quad(Board *);
int x_wing(Board *), swordfish(Board *), jellyfish(Board *);
int skyscraper(Board *), two_string_kite(Board *), turbot_fish(Board *);
int empty_rectangle(Board *);
int xy_wing(Board *), xyz_wing(Board *);
int unique_rectangle(Board *), bug(Board *);
int forcing_chain(Board *);

/* ---- ladder.c ---- */
#define RUNGS 28
#define EXACT_RUNGS 27            /* every rung but the forcing chain (rated by estimate) */
#define RUNG_FORCING_CHAIN 27
#define RUNG_UNIQUE_RECTANGLE 22
#define RUNG_BUG 26
typedef struct {
    const char *name;
    int tenths;                   /* the SE value, in tenths */
    technique_fn apply;
} Rung;
extern const Rung LADDER[RUNGS];

typedef struct {
    uint8_t rung;
    uint8_t placed;
    int16_t tenths;
} Step;

typedef struct {
    Step steps[MAX_STEPS];
    int n;
} Path;

void climb(Board *b, int rungs, Path *path, int counts[RUNGS]);

/* ---- search.c ---- */
#define STATE 108                 /* 81 cell masks, then the digits placed in each unit */
typedef struct {
    int64_t budget, nodes, guesses, backtracks, depth;
    int gave_up;
    int solutions;
    uint8_t solution[2][81];
} Search;

int propagate(mask_t c[STATE], int *stack, int sp, uint32_t dirty);
void search_run(Search *s, int64_t budget, const mask_t masks[81]);

/* ---- effort.c and rating.c ---- */
double stalled_score(const mask_t masks[81], int64_t budget, int64_t first, int has_first);
void rate(const Path *path, int has_beyond, double beyond, double *score, double *ep,
          double *ed);
int label_of(double score, int searched);

/* ---- engine.c ---- */
enum status { SOLVED, MULTIPLE, UNSOLVABLE, INVALID, GAVE_UP, SOLVER_BUG };
typedef struct {
    int status;
    int givens;
    int solved_by_elimination;
    int counts[RUNGS];
    int hardest;                  /* rung index, -1 if none fired */
    int64_t depth, guesses, backtracks, nodes;
    int contradiction, contra_a, contra_b;   /* reason of unsolvable (kind 0: none) */
    int no_solution;              /* reason: "no solution: every branch of the search fails" */
    uint8_t solution[81];
    int rated;
    double score, ep, ed;
    int label;                    /* index into LABELS */
} Outcome;

void solve_grid(const uint8_t grid[81], int64_t budget, Outcome *out);

#endif
