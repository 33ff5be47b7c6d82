/* The ladder (solver/ladder.py): the techniques by name, and the climb. The rungs, their order
 * and their values are the reference's, handed over at import (configure.c); here each
 * technique is only named (its reference function's name), so that the reference's rungs find
 * their C function. */
#include <string.h>
#include <time.h>

#include "core.h"

int rung_profile_on;
RungCost rung_cost[MAX_RUNGS];

static int64_t thread_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Every technique function, by name: one for each function on the reference's ladder
 * (RUNG_FUNCTIONS, which the build writes from it: core.h). */
#define TECHNIQUE(fn) {#fn, fn},
static const struct {
    const char *name;
    technique_fn apply;
} TECHNIQUES[] = {RUNG_FUNCTIONS(TECHNIQUE)};
#undef TECHNIQUE

int technique_count(void) { return (int)(sizeof TECHNIQUES / sizeof TECHNIQUES[0]); }
const char *technique_name(int k) { return TECHNIQUES[k].name; }

technique_fn technique_named(const char *name) {
    for (int k = 0; k < technique_count(); k++) {
        if (!strcmp(TECHNIQUES[k].name, name)) return TECHNIQUES[k].apply;
    }
    return NULL;
}

/* Apply the easiest of `rungs` (ladder indices, in order) that fires until the board is
 * solved, stuck or contradictory; counts[k] grows by the times rung k fired, and each step
 * goes on the path. SE's chain rungs are tried within the work budget *chains: none when it is
 * 0, none again once it is spent, the step under way abandoned. Returns the contradiction that
 * stopped the climb (kind 0: none). */
Contradiction climb(Board *b, const int *rungs, int n, Path *path, int counts[MAX_RUNGS],
                    Budget *chains) {
    int k = 0;
    while (k < n && b->empty) {
        const Rung *rung = &T.rungs[rungs[k]];
        int empty = b->empty;
        Found found;
        int64_t began = rung_profile_on ? thread_ns() : 0, runs = work_tally[WORK_RUN];
        int applied = !rung->se_chain ? (found = rung->apply(b), 1)
                                      : work_apply(rung->apply, b, chains, &found);
        if (rung_profile_on) {
            RungCost *cost = &rung_cost[rungs[k]];
            cost->asked++;
            cost->fired += applied && found.fired;
            cost->ns += thread_ns() - began;
            cost->runs += work_tally[WORK_RUN] - runs;
        }
        if (!applied) {
            k++;  /* SE's chains are off, or their budget is spent */
            continue;
        }
        if (found.fired) {
            counts[rungs[k]] += found.fired;
            if (path->n < MAX_STEPS) {
                Step *step = &path->steps[path->n++];
                step->rung = (uint8_t)rungs[k];
                step->tenths = (int16_t)(rung->tenths + found.bonus);
                step->placed = b->empty < empty;
            }
            k = 0;
        } else {
            k++;
        }
        if (found.why.kind) return found.why;
    }
    return (Contradiction){NO_CONTRADICTION, 0, 0};
}
