/* Score, EP and ED of a solved puzzle from its path (solver/rating.py: rate, label). */
#include "core.h"

static double step_value(const Step *step, int has_beyond, double beyond) {
    if (has_beyond && step->rung == RUNG_FORCING_CHAIN) return beyond;
    return step->tenths / 10.0;  /* the double nearest to the decimal, as round(v, 1) gives */
}

void rate(const Path *path, int has_beyond, double beyond, double *score, double *ep,
          double *ed) {
    double top = 1.0;
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

/* Index into the labels: easy, medium, hard, diabolical, extreme. */
int label_of(double score, int searched) {
    if (searched) return 4;
    if (score < 1.5) return 0;
    if (score < 2.5) return 1;
    if (score < 5.0) return 2;
    return 3;
}
