/* solve: check the givens, climb the ladder, search if it stalls, verify, rate
 * (solver/engine.py, step for step). */
#include <string.h>

#include "core.h"

/* True when some digit is given twice in a row, column or box. */
static int any_repeat(const uint8_t grid[81]) {
    unsigned seen[27] = {0};
    for (int i = 0; i < 81; i++) {
        if (!grid[i]) continue;
        unsigned bit = 1u << grid[i];
        int row = ROW_OF[i], col = 9 + COL_OF[i], box = 18 + BOX_OF[i];
        if ((seen[row] | seen[col] | seen[box]) & bit) return 1;
        seen[row] |= bit;
        seen[col] |= bit;
        seen[box] |= bit;
    }
    return 0;
}

/* The independent check: every unit holds 1-9 once, every given kept. */
int is_solution(const uint8_t grid[81], const uint8_t full[81]) {
    for (int i = 0; i < 81; i++) {
        if (full[i] < 1 || full[i] > 9 || (grid[i] && grid[i] != full[i])) return 0;
    }
    for (int u = 0; u < 27; u++) {
        unsigned seen = 0;
        for (int k = 0; k < 9; k++) seen |= 1u << full[UNITS[u][k]];
        if (seen != 0x3FE) return 0;
    }
    return 1;
}

static int hardest_rung(const int counts[MAX_RUNGS]) {
    int best = -1;
    for (int k = 0; k < T.n; k++) {
        if (counts[k] && (best < 0 || T.rungs[k].tenths > T.rungs[best].tenths)) best = k;
    }
    return best;
}

static void unrated(Outcome *out, int status) { out->status = status; }

/* What a finished search says (solver/engine.py's verdict): 1 when it settles the result
 * (not uniquely solvable, or the search gave up), 0 when there is exactly one solution. */
static int verdict(const uint8_t grid[81], const Search *run, Outcome *out) {
    if (run->gave_up) {
        unrated(out, GAVE_UP);
        return 1;
    }
    int found = run->solutions < 2 ? run->solutions : 2;
    for (int k = 0; k < found; k++) {
        if (!is_solution(grid, run->solution[k])) {
            unrated(out, SOLVER_BUG);
            return 1;
        }
    }
    if (!run->solutions) {
        out->no_solution = 1;
        unrated(out, UNSOLVABLE);
    } else if (run->solutions > 1) {
        unrated(out, MULTIPLE);
    } else {
        return 0;
    }
    return 1;
}

static void solved(const uint8_t grid[81], const uint8_t solution[81], const Path *path,
                   int has_beyond, double beyond, int searched, Outcome *out) {
    if (!is_solution(grid, solution)) {
        unrated(out, SOLVER_BUG);
        return;
    }
    out->status = SOLVED;
    memcpy(out->solution, solution, 81);
    out->rated = 1;
    out->exact = !has_beyond;
    rate(path, has_beyond, beyond, &out->score, &out->ep, &out->ed);
    out->label = label_of(out->score, searched);
}

static Path path;  /* the core runs under the GIL: one caller at a time */

/* Climb the exact ladder, then the whole ladder if it stalls, within the one work budget
 * `chains` (solver.ladder.climb_profile);
 * `stall` gets the pencil marks where the exact ladder stalled, `stalled` says if it did. */
static Contradiction climb_all(Board *board, int profile, Budget *chains, Outcome *out,
                               mask_t stall[81], int *stalled) {
    Contradiction why = first_dead_cell(board);
    *stalled = 0;
    if (why.kind) return why;
    why = climb(board, T.exact[profile], T.n_exact[profile], &path, out->counts, chains);
    if (!board->empty || why.kind) return why;
    board_masks(board, stall);
    *stalled = 1;
    return climb(board, T.all[profile], T.n_all[profile], &path, out->counts, chains);
}

/* The search proving, from the givens, how many solutions the puzzle has (to two), made at
 * most once (solver/engine.py Proof). */
typedef struct {
    const uint8_t *grid;
    int64_t budget;
    int done;
    Search run;
} Proof;

static Search *proof_of(Proof *p) {
    if (!p->done) {
        Board fresh;
        mask_t masks[81];
        board_from_grid(&fresh, p->grid);
        board_masks(&fresh, masks);
        search_run(&p->run, p->budget, masks);
        p->done = 1;
    }
    return &p->run;
}

/* Whether SE's chains may be tried: not when the puzzle is proved to have no solution or several. */
static int unique_or_unknown(void *ctx) {
    const Search *run = proof_of(ctx);
    return run->gave_up || run->solutions == 1;
}

static int assumed_uniqueness(const int counts[MAX_RUNGS]) {
    for (int k = 0; k < T.n; k++) {
        if (counts[k] && T.rungs[k].assumes_uniqueness) return 1;
    }
    return 0;
}

void solve_grid(const uint8_t grid[81], int64_t budget, int profile, Budget *chains, Outcome *out) {
    memset(out, 0, sizeof *out);
    out->hardest = -1;
    for (int i = 0; i < 81; i++) out->givens += grid[i] != 0;
    if (any_repeat(grid)) {
        unrated(out, INVALID);
        return;
    }
    Board board;
    board_from_grid(&board, grid);
    path.n = 0;
    mask_t stall[81];
    int stalled;
    double floor = T.search_floor[profile][chains->on];
    Proof proof = {grid, budget, 0, {0}};
    chains->gate = unique_or_unknown;
    chains->gate_ctx = &proof;
    Contradiction why = climb_all(&board, profile, chains, out, stall, &stalled);
    chains->gate = NULL;
    out->work = chains->start - chains->left;
    out->solved_by_elimination = !board.empty && !why.kind;
    out->hardest = hardest_rung(out->counts);
    if (assumed_uniqueness(out->counts) && verdict(grid, proof_of(&proof), out)) return;
    if (why.kind) {
        out->why = why;
        unrated(out, UNSOLVABLE);
        return;
    }
    if (!board.empty) {
        double beyond = stalled ? stalled_score(stall, budget, 0, 0, floor) : 0.0;
        solved(grid, board.values, &path, stalled, beyond, 0, out);
        out->over_budget = chains->spent && out->rated && !out->exact;
        return;
    }
    mask_t masks[81];
    Search run;
    board_masks(&board, masks);
    search_run(&run, budget, masks);
    out->solved_by_elimination = 0;
    out->depth = run.depth;
    out->guesses = run.guesses;
    out->backtracks = run.backtracks;
    out->nodes = run.nodes;
    if (verdict(grid, &run, out)) return;
    int same = memcmp(stall, masks, sizeof masks) == 0;
    double beyond = stalled_score(stall, budget, run.guesses, same, floor);
    solved(grid, run.solution[0], &path, 1, beyond, 1, out);
    out->over_budget = chains->spent && out->rated && !out->exact;  /* only a rating waits */
}
