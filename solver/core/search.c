/* Recursive search with uniqueness (solver/search.py): MRV branching, singles propagated. */
#include <string.h>

#include "core.h"

/* Check the dirty units: place their hidden singles (pushed on the stack). Returns the units
 * dirtied by those placements, or -1 when a unit lost a digit or a cell would need two. */
static int64_t hidden_singles(mask_t c[STATE], uint32_t dirty, int *stack, int *sp) {
    uint32_t fresh = 0;
    while (dirty) {
        int u = __builtin_ctz(dirty);
        dirty &= dirty - 1;
        const uint8_t *unit = UNITS[u];
        unsigned once = 0, twice = 0;
        for (int k = 0; k < 9; k++) {
            unsigned m = c[unit[k]];
            twice |= once & m;
            once |= m;
        }
        if (once != ALL_DIGITS) return -1;
        unsigned single = once & ~twice & ~(unsigned)c[81 + u];
        if (!single) continue;
        for (int k = 0; k < 9; k++) {
            int i = unit[k];
            unsigned m = c[i] & single;
            if (m && m != c[i]) {
                if (m & (m - 1)) return -1;
                c[i] = (mask_t)m;
                stack[(*sp)++] = i;
                fresh |= CELL_UNITS[i];
            }
        }
    }
    return fresh;
}

int propagate(mask_t c[STATE], int *stack, int sp, uint32_t dirty) {
    for (;;) {
        while (sp) {
            int i = stack[--sp];
            mask_t b = c[i];
            c[81 + ROW_OF[i]] |= b;
            c[90 + COL_OF[i]] |= b;
            c[99 + BOX_OF[i]] |= b;
            const uint8_t *peers = PEERS[i];
            for (int k = 0; k < 20; k++) {
                int p = peers[k];
                unsigned m = c[p];
                if (m & b) {
                    m ^= b;
                    if (!m) return 0;
                    c[p] = (mask_t)m;
                    dirty |= CELL_UNITS[p];
                    if (!(m & (m - 1))) stack[sp++] = p;
                }
            }
        }
        int64_t fresh = hidden_singles(c, dirty, stack, &sp);
        if (fresh < 0) return 0;
        dirty = (uint32_t)fresh;
        if (!sp) return 1;
    }
}

/* The cell to branch on, or -1 when every cell is placed (see most_constrained). */
static int most_constrained(const mask_t c[STATE]) {
    int best = 99, at = -1;
    for (int i = 0; i < 81; i++) {
        if (pop(c[i]) == 2) {
            int score = pop(c[81 + ROW_OF[i]]) + pop(c[90 + COL_OF[i]]) + pop(c[99 + BOX_OF[i]]);
            if (score < best) {
                best = score;
                at = i;
            }
        }
    }
    if (at >= 0) return at;
    best = 10;
    for (int i = 0; i < 81; i++) {
        int n = pop(c[i]);
        if (n > 1 && n < best) {
            best = n;
            at = i;
        }
    }
    return at;
}

static void explore(Search *s, const mask_t c[STATE], int64_t depth) {
    int at = most_constrained(c);
    if (at < 0) {
        if (s->solutions < 2) {
            for (int i = 0; i < 81; i++)
                s->solution[s->solutions][i] = (uint8_t)(c[i] && !(c[i] & (c[i] - 1)) ? digit_of(c[i]) : 0);
        }
        s->solutions++;
        return;
    }
    for (unsigned m = c[at]; m; m &= m - 1) {
        if (s->nodes >= s->budget) {
            s->gave_up = 1;
            return;
        }
        s->nodes++;
        s->guesses++;
        if (!s->solutions && depth >= s->depth) s->depth = depth + 1;
        mask_t child[STATE];
        int stack[96];
        memcpy(child, c, sizeof child);
        child[at] = (mask_t)(m & -m);
        stack[0] = at;
        if (propagate(child, stack, 1, CELL_UNITS[at])) explore(s, child, depth + 1);
        else s->backtracks++;
        if (s->gave_up || s->solutions > 1) return;
    }
}

void search_run(Search *s, int64_t budget, const mask_t masks[81]) {
    memset(s, 0, sizeof *s);
    s->budget = budget;
    mask_t c[STATE];
    int stack[96], sp = 0;
    memcpy(c, masks, 81 * sizeof(mask_t));
    memset(c + 81, 0, 27 * sizeof(mask_t));
    for (int i = 0; i < 81; i++) {
        if (c[i] && !(c[i] & (c[i] - 1))) stack[sp++] = i;
    }
    s->nodes++;
    if (propagate(c, stack, sp, (1u << 27) - 1)) explore(s, c, 0);
}
