/* Minimality (solver/minimal.py): is every given of a uniquely solvable puzzle needed? Each
 * given is proved needed by the cheapest witness, in the reference's order: a two-digit
 * unavoidable set holding no other given, a solution of the relaxed puzzle (the given emptied,
 * its digit forbidden) keeping the solution outside the given's band, then stack, then any
 * solution of the relaxed puzzle (search.c stopping at the first). */
#include <string.h>

#include "core.h"

#define UNBOUNDED ((int64_t)1 << 62)

static inline mask_t bit_of(int d) { return (mask_t)(1u << (d - 1)); }

/* Whether the other givens force `given`'s digit into its cell by a single (no other digit
 * left there, or no other place for it in one of its units): then the puzzle without it has
 * the same solutions, the given is not needed. A shortcut to "not minimal" for the common case
 * (newspaper puzzles); the reference finds the same answer by its searches. */
static int forced_by_single(const uint8_t grid[81], const uint32_t holding_digit[10], int given) {
    int d = grid[given];
    mask_t seen = 0;
    for (int k = 0; k < 20; k++) {
        if (grid[PEERS[given][k]]) seen |= bit_of(grid[PEERS[given][k]]);
    }
    if ((seen | bit_of(d)) == ALL_DIGITS) return 1;
    /* the units holding d as another given: none of them is one of this given's (valid) */
    uint32_t holding = holding_digit[d] & ~CELL_UNITS[given];
    for (int u = 0; u < 27; u++) {
        if (!(CELL_UNITS[given] >> u & 1)) continue;
        int open = 0;
        for (int k = 0; k < 9 && !open; k++) {
            int j = UNITS[u][k];
            open = j != given && !grid[j] && !(CELL_UNITS[j] & holding);
        }
        if (!open) return 1;
    }
    return 0;
}

/* Whether no other given is joined to `given` among the cells of the solution holding a or b
 * (`pair`: a + b), each joined to the cells holding the other digit in its three units.
 * where[u][d]: the cell of unit u holding d. */
static int alone(const uint8_t grid[81], const uint8_t solution[81], const uint8_t where[27][10],
                 int given, int pair) {
    bb_t part = bb_cell(given);
    int todo[18], n = 0;
    todo[n++] = given;
    while (n) {
        int i = todo[--n], other = pair - solution[i];
        int next[3] = {where[ROW_OF[i]][other], where[9 + COL_OF[i]][other], where[18 + BOX_OF[i]][other]};
        for (int k = 0; k < 3; k++) {
            int j = next[k];
            if (bb_has(part, j)) continue;
            if (grid[j]) return 0;
            part |= bb_cell(j);
            todo[n++] = j;
        }
    }
    return 1;
}

static int two_digit_witness(const uint8_t grid[81], const uint8_t solution[81],
                             const uint8_t where[27][10], int given) {
    int d = grid[given];
    for (int b = 1; b <= 9; b++) {
        if (b != d && alone(grid, solution, where, given, d + b)) return 1;
    }
    return 0;
}

/* Whether the relaxed puzzle of `given` has a solution that keeps the solution outside the
 * given's band (`across` 0) or stack (1). The state the reference's propagation reaches first
 * is built directly: the 54 other cells placed, each cell of the region down to the three
 * digits its column (row) has there, the region's other givens pushed, the given's digit out. */
static int local_witness(const uint8_t grid[81], const uint8_t solution[81], int given, int across) {
    mask_t c[STATE];
    int stack[96], sp = 0;
    uint32_t dirty = 0;
    int region = across ? COL_OF[given] / 3 : ROW_OF[given] / 3;
    memset(c + 81, 0, 27 * sizeof(mask_t));
    for (int i = 0; i < 81; i++) {
        if ((across ? COL_OF[i] : ROW_OF[i]) / 3 == region) continue;
        mask_t b = bit_of(solution[i]);
        c[i] = b;
        c[81 + ROW_OF[i]] |= b;
        c[90 + COL_OF[i]] |= b;
        c[99 + BOX_OF[i]] |= b;
    }
    for (int i = 0; i < 81; i++) {
        if ((across ? COL_OF[i] : ROW_OF[i]) / 3 != region) continue;
        mask_t m = (mask_t)(ALL_DIGITS & ~c[across ? 81 + ROW_OF[i] : 90 + COL_OF[i]]);
        if (i == given) m &= (mask_t)~bit_of(grid[i]);
        else if (grid[i]) m = bit_of(grid[i]);
        if (!(m & (m - 1))) stack[sp++] = i;
        c[i] = m;
        dirty |= CELL_UNITS[i];
    }
    Search run;
    search_from(&run, UNBOUNDED, 1, c, stack, sp, dirty);
    return run.solutions > 0;
}

/* Place the givens `cells` (those not placed yet) in `c` and propagate: never a contradiction,
 * as every given agrees with the solution. */
static void place_givens(mask_t c[STATE], const uint8_t grid[81], const int *cells, int n) {
    int stack[96], sp = 0;
    uint32_t dirty = 0;
    for (int k = 0; k < n; k++) {
        int i = cells[k];
        mask_t b = bit_of(grid[i]);
        if (c[i] == b) continue;
        c[i] = b;
        stack[sp++] = i;
        dirty |= CELL_UNITS[i];
    }
    propagate(c, stack, sp, dirty);
}

/* Whether the relaxed puzzle of each given of `pending` has a solution, `c` the propagated
 * position of every other given: within the given's band or stack, else anywhere. The searches
 * anywhere share their start: each half of the givens searches from `c` with the other half
 * placed and propagated, down to one given, whose digit goes out before its search (the
 * reference searches each from the givens instead: the same answer, with the placements done
 * over again for every given). */
static int relaxed_solvable(const mask_t c[STATE], const uint8_t grid[81], const uint8_t solution[81],
                            const int *pending, int n) {
    mask_t child[STATE];
    memcpy(child, c, sizeof child);
    if (n == 1) {
        int i = pending[0], stack[96], sp = 0;
        if (local_witness(grid, solution, i, 0) || local_witness(grid, solution, i, 1)) return 1;
        mask_t m = (mask_t)(child[i] & ~bit_of(grid[i]));
        if (!m) return 0;
        if (!(m & (m - 1))) stack[sp++] = i;
        child[i] = m;
        Search run;
        search_from(&run, UNBOUNDED, 1, child, stack, sp, CELL_UNITS[i]);
        return run.solutions > 0;
    }
    int half = n / 2;
    place_givens(child, grid, pending + half, n - half);
    if (!relaxed_solvable(child, grid, solution, pending, half)) return 0;
    memcpy(child, c, sizeof child);
    place_givens(child, grid, pending, half);
    return relaxed_solvable(child, grid, solution, pending + half, n - half);
}

int minimal_grid(const uint8_t grid[81]) {
    mask_t masks[81];
    for (int i = 0; i < 81; i++) masks[i] = grid[i] ? bit_of(grid[i]) : ALL_DIGITS;
    Search proof;
    search_run(&proof, UNBOUNDED, masks);  /* givens that clash: a contradiction at once */
    if (proof.solutions != 1) return -1;
    return minimal_given_solution(grid, proof.solution[0]);
}

int minimal_given_solution(const uint8_t grid[81], const uint8_t solution[81]) {
    uint32_t holding_digit[10] = {0};  /* the units holding each digit as a given */
    for (int i = 0; i < 81; i++) holding_digit[grid[i]] |= CELL_UNITS[i];
    for (int i = 0; i < 81; i++) {
        if (grid[i] && forced_by_single(grid, holding_digit, i)) return 0;
    }
    mask_t masks[81];
    for (int i = 0; i < 81; i++) masks[i] = grid[i] ? bit_of(grid[i]) : ALL_DIGITS;
    uint8_t where[27][10];
    for (int u = 0; u < 27; u++) {
        for (int k = 0; k < 9; k++) where[u][solution[UNITS[u][k]]] = UNITS[u][k];
    }
    int pending[81], n = 0;
    for (int i = 0; i < 81; i++) {
        if (grid[i] && !two_digit_witness(grid, solution, where, i)) pending[n++] = i;
    }
    if (!n) return 1;
    mask_t c[STATE];
    for (int k = 0; k < n; k++) masks[pending[k]] = ALL_DIGITS;
    memcpy(c, masks, sizeof masks);
    memset(c + 81, 0, 27 * sizeof(mask_t));
    int stack[96], sp = 0;
    for (int i = 0; i < 81; i++) {
        if (c[i] != ALL_DIGITS) stack[sp++] = i;
    }
    propagate(c, stack, sp, (1u << 27) - 1);
    return relaxed_solvable(c, grid, solution, pending, n);
}
