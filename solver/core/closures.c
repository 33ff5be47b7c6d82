/* Whether a run of SE's is absurd, known without making it node by node (a shortcut of the
 * core: the reference has none).
 *
 * A run of forcing.c adds potentials until nothing more follows or a potential meets its
 * negation. A Nishio run keeps to one digit: an "on" turns the digit off in its peers, and the
 * digit turns on in a unit where it had two places or more on the position and one is left.
 * What it reaches is a fixed point of these rules, whatever their order, and the run is absurd
 * exactly when that fixed point is: a place both "on" and "off", or a unit of two places or
 * more with none left. So the digit's places are followed as bitboards, every "off" of an "on"
 * at once; forcing.c makes node by node only the runs found absurd, whose hints it needs.
 * (Runs that are not dynamic reach their start's reach in cycles.c's graph: static_reach.)
 *
 * A run that is not absurd hands on what it reached (`reached`: its "off"s [0] and "on"s [1]):
 * the run from any of those reaches a part of that fixed point, so it is not absurd either. */
#include "core.h"

int nishio_absurd(bb_t places, int start, bb_t reached[2]) {
    bb_t left = places, on = 0;
    uint8_t queue[81];
    int head = 0, tail = 0, cell = (start >> 1) / 9;
    bb_t gone;
    if (start & 1) {
        on = bb_cell(cell);
        queue[tail++] = (uint8_t)cell;
        gone = 0;
    } else {
        gone = bb_cell(cell);
        left &= ~gone;
    }
    for (;;) {
        if (gone) {  /* each unit that lost a place: none left, or one to turn on */
            uint32_t units = 0;
            for (bb_t g = gone; g; g &= g - 1) units |= CELL_UNITS[bb_first(g)];
            for (; units; units &= units - 1) {
                int u = low_bit_index(units);
                bb_t had = UNIT_BB[u] & places, here = UNIT_BB[u] & left;
                if (!(had & (had - 1))) continue;  /* fewer than two places on the position */
                if (!here) return 1;
                if (!(here & (here - 1)) && !(here & on)) {
                    on |= here;
                    queue[tail++] = (uint8_t)bb_first(here);
                }
            }
        }
        if (head == tail) {
            reached[0] = places & ~left;
            reached[1] = on;
            return 0;
        }
        int c = queue[head++];
        gone = PEER_BB[c] & left;
        if (gone & on) return 1;  /* an "on" turned off */
        left &= ~gone;
    }
}
