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
static int is_solution(const uint8_t grid[81], const uint8_t full[81]) {
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

static int hardest_rung(const int counts[RUNGS]) {
    int best = -1;
    for (int k = 0; k < RUNGS; k++) {
        if (counts[k] && (best < 0 || LADDER[k].tenths > LADDER[best].tenths)) best = k;
    }
    return best;
}

static void unrated(Outcome *out, int status) { out->status = status; }

/* Copy the search's verdict into the outcome; 1 when it settles the result (not unique). */
static int settle(const uint8_t grid[81], const Search *run, Outcome *out) {
    int found = run->solutions < 2 ? run->solutions : 2;
    for (int k = 0; k < found && !run->gave_up; k++) {
        if (!is_solution(grid, run->solution[k])) {
            unrated(out, SOLVER_BUG);
            return 1;
        }
    }
    if (run->gave_up) unrated(out, GAVE_UP);
    else if (!run->solutions) {
        out->no_solution = 1;
        unrated(out, UNSOLVABLE);
    } else if (run->solutions > 1) unrated(out, MULTIPLE);
    else return 0;
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
    rate(path, has_beyond, beyond, &out->score, &out->ep, &out->ed);
    out->label = label_of(out->score, searched);
}

static Path path;  /* the core runs under the GIL: one caller at a time */

void solve_grid(const uint8_t grid[81], int64_t budget, Outcome *out) {
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
    int stalled = 0;
    if (!board.contradiction) {
        climb(&board, EXACT_RUNGS, &path, out->counts);
        if (board.empty && !board.contradiction) {
            board_masks(&board, stall);
            stalled = 1;
            climb(&board, RUNGS, &path, out->counts);
        }
    }
    out->solved_by_elimination = !board.empty && !board.contradiction;
    out->hardest = hardest_rung(out->counts);
    if (out->counts[RUNG_UNIQUE_RECTANGLE] || out->counts[RUNG_BUG]) {
        Board fresh;
        mask_t masks[81];
        Search proof;
        board_from_grid(&fresh, grid);
        board_masks(&fresh, masks);
        search_run(&proof, budget, masks);
        if (settle(grid, &proof, out)) return;
    }
    if (board.contradiction) {
        out->contradiction = board.contradiction;
        out->contra_a = board.contra_a;
        out->contra_b = board.contra_b;
        unrated(out, UNSOLVABLE);
        return;
    }
    if (!board.empty) {
        double beyond = stalled ? stalled_score(stall, budget, 0, 0) : 0.0;
        solved(grid, board.values, &path, stalled, beyond, 0, out);
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
    if (settle(grid, &run, out)) return;
    int same = memcmp(stall, masks, sizeof masks) == 0;
    double beyond = stalled_score(stall, budget, run.guesses, same);
    solved(grid, run.solution[0], &path, 1, beyond, 1, out);
}
