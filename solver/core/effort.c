/* Search effort over symmetric copies of a position (solver/effort.py), and the estimate
 * above the exact ladder (solver/rating.py: stalled_score, estimate). The constants are the
 * reference's (configure.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core.h"

typedef struct {
    uint64_t state;
} SplitMix64;

static uint64_t next(SplitMix64 *rng) {
    uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void shuffle(SplitMix64 *rng, int *items, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(next(rng) % (uint64_t)(i + 1));
        int t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}

static uint64_t position_seed(const mask_t masks[81]) {
    uint64_t h = 0xCBF29CE484222325ull;
    for (int i = 0; i < 81; i++) h = (h ^ masks[i]) * 0x100000001B3ull;
    return h;
}

static void line_order(SplitMix64 *rng, int order[9]) {
    int bands[3] = {0, 1, 2};
    shuffle(rng, bands, 3);
    for (int k = 0; k < 3; k++) {
        int inner[3] = {bands[k] * 3, bands[k] * 3 + 1, bands[k] * 3 + 2};
        shuffle(rng, inner, 3);
        for (int j = 0; j < 3; j++) order[k * 3 + j] = inner[j];
    }
}

static void transformed(const mask_t masks[81], SplitMix64 *rng, mask_t out[81]) {
    int rows[9], cols[9], digits[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    line_order(rng, rows);
    line_order(rng, cols);
    shuffle(rng, digits, 9);
    int flip = next(rng) >> 63 == 1;
    for (int r = 0; r < 9; r++) {
        for (int c = 0; c < 9; c++) {
            mask_t source = masks[rows[r] * 9 + cols[c]], relabelled = 0;
            for (unsigned m = source; m; m &= m - 1)
                relabelled |= (mask_t)(1u << (digits[low_bit_index(m)] - 1));
            out[flip ? c * 9 + r : r * 9 + c] = relabelled;
        }
    }
}

static double mean_log_guesses(const mask_t masks[81], int64_t budget, int64_t first,
                               int has_first) {
    SplitMix64 rng = {position_seed(masks)};
    Search run;
    double logs[MAX_COPIES];
    int n = 0;
    int64_t total = 0;
    for (int k = 0; k < T.copies; k++) {
        if (total >= T.copy_guess_limit) break;
        int64_t guesses;
        if (k == 0 && has_first) {
            guesses = first;
        } else {
            mask_t copy[81];
            if (k) transformed(masks, &rng, copy);
            search_run(&run, budget, k ? copy : masks);
            guesses = run.gave_up ? budget : run.guesses;
        }
        total += guesses;
        logs[n++] = log2((double)(1 + guesses));
    }
    double mean = 0.0;
    for (int k = 0; k < n; k++) mean += logs[k];
    return mean / n;
}

/* Python's round(x, digits): the correctly rounded decimal, read back (glibc's printf and
 * CPython's dtoa both round the exact binary value, ties to even). */
static double round_to(double x, int digits) {
    char text[64];
    snprintf(text, sizeof text, "%.*f", digits, x);
    return strtod(text, NULL);
}

static double estimate(double effort, int candidates, double floor) {
    double raw = T.estimate_base + T.estimate_slope * (effort + T.candidate_weight * candidates);
    double floored = raw > floor ? raw : floor;
    return round_to(floored < T.scale_top ? floored : T.scale_top, 2);
}

double stalled_score(const mask_t masks[81], int64_t budget, int64_t first, int has_first,
                     double floor) {
    int candidates = 0;
    for (int i = 0; i < 81; i++) {
        if (masks[i] & (masks[i] - 1)) candidates += pop(masks[i]);
    }
    return estimate(mean_log_guesses(masks, budget, first, has_first), candidates, floor);
}
