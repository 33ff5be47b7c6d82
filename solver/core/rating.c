/* Score, EP and ED of a solved puzzle from its path (solver/rating.py: rate, label). */
#include "core.h"

static double step_value(const Step *step, int has_beyond, double beyond) {
    if (has_beyond && T.rungs[step->rung].estimated) return beyond;
    return step->tenths / 10.0;  /* the double nearest to the decimal, as the reference's */
}

void rate(const Path *path, int has_beyond, double beyond, double *score, double *ep,
          double *ed) {
    double top = T.scale_bottom;
    for (int k = 0; k < path->n; k++) {
        double v = step_value(&path->steps[k], has_beyond, beyond);
        if (k == 0 || v > top) top = v;
    }
    *score = has_beyond && beyond > top ? beyond : top;
    *ed = path->n ? step_value(&path->steps[0], has_beyond, beyond) : *score;
    int first = -1;
    for (int k = 0; k < path->n && first < 0; k++) {
        if (path->steps[k].placed) first = k;
    }
    if (first < 0) {
        *ep = *score;
        return;
    }
    double hardest = step_value(&path->steps[0], has_beyond, beyond);
    for (int k = 1; k <= first; k++) {
        double v = step_value(&path->steps[k], has_beyond, beyond);
        if (v > hardest) hardest = v;
    }
    *ep = hardest;
}

/* Index into the configured labels: the first bucket whose bound the score is below, else
 * the top bucket (n_buckets), or the search label (n_buckets + 1) when search was needed. */
int label_of(double score, int searched) {
    if (searched) return T.n_buckets + 1;
    for (int k = 0; k < T.n_buckets; k++) {
        if (score < T.buckets[k]) return k;
    }
    return T.n_buckets;
}
