/* The work budget of SE's chains (solver/work.py): a chain rung applied within a budget, its
 * charges (work_charge, core.h) jumping back here when the budget cannot pay. */
#include "core.h"

int64_t work_left;
jmp_buf *work_out;
int64_t work_tally[WORK_KINDS];

Budget work_budget(int64_t units, int64_t batch_left) {
    Budget b = {units > 0, 0, units, units, NULL, NULL};
    if (batch_left >= 0 && batch_left < units) b.start = b.left = batch_left;
    return b;
}

int work_apply(technique_fn apply, Board *b, Budget *budget, Found *found) {
    if (!budget->on || budget->spent) return 0;
    if (budget->gate) {  /* asked once (solver/ladder.py _within) */
        int (*gate)(void *) = budget->gate;
        budget->gate = NULL;
        if (!gate(budget->gate_ctx)) {
            budget->on = 0;
            return 0;
        }
    }
    jmp_buf here;
    jmp_buf *volatile outer = work_out;
    work_left = budget->left;
    work_out = &here;
    if (setjmp(here)) {  /* a charge it could not pay: the search is abandoned */
        work_out = outer;
        budget->left = 0;
        budget->spent = 1;
        return 0;
    }
    *found = apply(b);
    work_out = outer;
    budget->left = work_left;
    return 1;
}
