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

#define TECHNIQUE(fn) {#fn, fn}
static const struct {
    const char *name;
    technique_fn apply;
} TECHNIQUES[] = {
    TECHNIQUE(full_house),        TECHNIQUE(hidden_single_box),    TECHNIQUE(hidden_single_line),
    TECHNIQUE(direct_pointing),   TECHNIQUE(direct_claiming),      TECHNIQUE(direct_hidden_pair),
    TECHNIQUE(naked_single),      TECHNIQUE(direct_hidden_triple), TECHNIQUE(pointing),
    TECHNIQUE(claiming),          TECHNIQUE(naked_pair),           TECHNIQUE(x_wing),
    TECHNIQUE(hidden_pair),       TECHNIQUE(naked_triple),         TECHNIQUE(swordfish),
    TECHNIQUE(hidden_triple),     TECHNIQUE(skyscraper),           TECHNIQUE(two_string_kite),
    TECHNIQUE(turbot_fish),       TECHNIQUE(empty_rectangle),      TECHNIQUE(xy_wing),
    TECHNIQUE(xyz_wing),          TECHNIQUE(unique_rectangle),     TECHNIQUE(naked_quad),
    TECHNIQUE(jellyfish),         TECHNIQUE(hidden_quad),          TECHNIQUE(bug),
    TECHNIQUE(forcing_chain),     TECHNIQUE(unique_loop),          TECHNIQUE(bug_type_2),
    TECHNIQUE(bug_type_3),        TECHNIQUE(bug_type_4),           TECHNIQUE(aligned_pair_exclusion),
    TECHNIQUE(sukaku_direct_pointing), TECHNIQUE(sukaku_direct_claiming),
    TECHNIQUE(sukaku_direct_hidden_pair), TECHNIQUE(sukaku_direct_hidden_triple),
    TECHNIQUE(sukaku_unique_rectangle), TECHNIQUE(sukaku_unique_loop),
    TECHNIQUE(sukaku_bug_type_2), TECHNIQUE(sukaku_bug_type_3),    TECHNIQUE(sukaku_bug_type_4),
    TECHNIQUE(bidirectional_x_cycle), TECHNIQUE(bidirectional_y_cycle), TECHNIQUE(forcing_x_chain),
    TECHNIQUE(bidirectional_cycle),   TECHNIQUE(forcing_xy_chain),
    TECHNIQUE(aligned_triplet_exclusion), TECHNIQUE(nishio_forcing_chain),
    TECHNIQUE(multiple_forcing_chain), TECHNIQUE(dynamic_forcing_chain),
    TECHNIQUE(dynamic_forcing_chain_plus), TECHNIQUE(sukaku_dynamic_forcing_chain_plus),
    TECHNIQUE(nested_forcing_chain), TECHNIQUE(sukaku_nested_forcing_chain),
    TECHNIQUE(nested_multiple_forcing_chain), TECHNIQUE(sukaku_nested_multiple_forcing_chain),
    TECHNIQUE(nested_dynamic_forcing_chain),
    TECHNIQUE(grouped_two_strong_links), TECHNIQUE(three_strong_links), TECHNIQUE(wxyz_wing),
    TECHNIQUE(vwxyz_wing),
};

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
