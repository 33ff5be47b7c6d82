/* Recursive search with uniqueness (solver/search.py): MRV branching, singles propagated;
 * it stops at the second solution (uniqueness), or at the first (existence: minimal.c). */
#include <string.h>

#include "core.h"

/* The union of a unit's masks (`once`) and the digits seen twice or more (`twice`). Rows and
 * boxes are read four masks at a time (16-bit lanes of a 64-bit word, folded at the end);
 * columns, strides of 9, one at a time. */
static inline uint64_t load4(const mask_t *at) {
    uint64_t w;
    memcpy(&w, at, sizeof w);
    return w;
}

static inline void fold(uint64_t o, uint64_t t, unsigned *once, unsigned *twice) {
    t |= (t >> 32) | (o & (o >> 32));
    o |= o >> 32;
    t |= (t >> 16) | (o & (o >> 16));
    o |= o >> 16;
    *once = (unsigned)o & ALL_DIGITS;
    *twice = (unsigned)t & ALL_DIGITS;
}

static inline void scan_unit(const mask_t *c, int u, unsigned *once, unsigned *twice) {
    if (u < 9) {
        const mask_t *row = c + 9 * u;
        uint64_t w0 = load4(row), w1 = load4(row + 4);
        unsigned o, t, m = row[8];
        fold(w0 | w1, w0 & w1, &o, &t);
        *twice = t | (o & m);
        *once = o | m;
    } else if (u < 18) {
        unsigned o = 0, t = 0;
        for (int at = u - 9; at < 81; at += 9) {
            unsigned m = c[at];
            t |= o & m;
            o |= m;
        }
        *once = o;
        *twice = t;
    } else {
        const mask_t *box = c + ((u - 18) / 3) * 27 + ((u - 18) % 3) * 3;
        const uint64_t three = 0x0000FFFFFFFFFFFFull;  /* the box's 3 cells of a row, not the 4th */
        uint64_t w0 = load4(box) & three, w1 = load4(box + 9) & three, w2 = load4(box + 18) & three;
        uint64_t o = w0 | w1;
        fold(o | w2, (w0 & w1) | (o & w2), once, twice);
    }
}

/* Check the dirty units: place their hidden singles (pushed on the stack). Returns the units
 * dirtied by those placements, or -1 when a unit lost a digit or a cell would need two. */
static int64_t hidden_singles(mask_t c[STATE], uint32_t dirty, int *stack, int *sp) {
    uint32_t fresh = 0;
    while (dirty) {
        int u = __builtin_ctz(dirty);
        dirty &= dirty - 1;
        unsigned once, twice;
        scan_unit(c, u, &once, &twice);
        if (once != ALL_DIGITS) return -1;
        unsigned single = once & ~twice & ~(unsigned)c[81 + u];
        if (!single) continue;
        const uint8_t *unit = UNITS[u];
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

/* Remove digit `b` from cell p, as the reference's peer loop does; 0 when that empties it. */
#define STRIKE(p)                                       \
    do {                                                \
        int p_ = (p);                                   \
        unsigned m_ = c[p_];                            \
        if (m_ & b) {                                   \
            m_ ^= b;                                    \
            if (!m_) return 0;                          \
            c[p_] = (mask_t)m_;                         \
            dirty |= CELL_UNITS[p_];                    \
            if (!(m_ & (m_ - 1))) stack[sp++] = p_;     \
        }                                               \
    } while (0)

/* Naked and hidden singles until nothing changes; 0 on a contradiction (solver/search.py).
 * The peers are visited row, column, then the rest of the box rather than in ascending
 * order: the outcome is the same (the same fixpoint, or a contradiction), only sooner. */
int propagate(mask_t c[STATE], int *stack, int sp, uint32_t dirty) {
    for (;;) {
        while (sp) {
            int i = stack[--sp];
            unsigned b = c[i];
            int row = ROW_OF[i], col = COL_OF[i];
            c[81 + row] |= (mask_t)b;
            c[90 + col] |= (mask_t)b;
            c[99 + BOX_OF[i]] |= (mask_t)b;
            {   /* the row, four masks at a time: visit only the cells that hold b */
                int base = row * 9;
                uint64_t lanes = (uint64_t)b * 0x0001000100010001ull;
                uint64_t h0 = load4(c + base) & lanes, h1 = load4(c + base + 4) & lanes;
                if (col < 4) h0 &= ~(0xFFFFull << (16 * col));
                else if (col < 8) h1 &= ~(0xFFFFull << (16 * (col - 4)));
                for (; h0; h0 &= h0 - 1) STRIKE(base + __builtin_ctzll(h0) / 16);
                for (; h1; h1 &= h1 - 1) STRIKE(base + 4 + __builtin_ctzll(h1) / 16);
                if (col != 8) STRIKE(base + 8);
            }
            for (int k = 0, at = col; k < 9; k++, at += 9) {
                if (at != i) STRIKE(at);
            }
            const uint8_t *rest = BOX_REST[i];
            STRIKE(rest[0]);
            STRIKE(rest[1]);
            STRIKE(rest[2]);
            STRIKE(rest[3]);
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
        if (s->gave_up || s->solutions >= s->limit) return;
    }
}

void search_run(Search *s, int64_t budget, const mask_t masks[81]) {
    search_until(s, budget, 2, masks);
}

void search_until(Search *s, int64_t budget, int limit, const mask_t masks[81]) {
    mask_t c[STATE];
    int stack[96], sp = 0;
    memcpy(c, masks, 81 * sizeof(mask_t));
    memset(c + 81, 0, 27 * sizeof(mask_t));
    for (int i = 0; i < 81; i++) {
        if (c[i] && !(c[i] & (c[i] - 1))) stack[sp++] = i;
    }
    search_from(s, budget, limit, c, stack, sp, (1u << 27) - 1);
}

void search_from(Search *s, int64_t budget, int limit, mask_t c[STATE], int *stack, int sp,
                 uint32_t dirty) {
    memset(s, 0, sizeof *s);
    s->budget = budget;
    s->limit = limit;
    s->nodes++;
    if (propagate(c, stack, sp, dirty)) explore(s, c, 0);
}
