/* The ladder (solver/ladder.py): rungs in Sudoku Explainer's order, easiest first. */
#include "core.h"

const Rung LADDER[RUNGS] = {
    {"full_house", 10, full_house},
    {"hidden_single_box", 12, hidden_single_box},
    {"hidden_single_line", 15, hidden_single_line},
    {"direct_pointing", 17, direct_pointing},
    {"direct_claiming", 19, direct_claiming},
    {"direct_hidden_pair", 20, direct_hidden_pair},
    {"naked_single", 23, naked_single},
    {"direct_hidden_triple", 25, direct_hidden_triple},
    {"pointing", 26, pointing},
    {"claiming", 28, claiming},
    {"naked_pair", 30, naked_pair},
    {"x_wing", 32, x_wing},
    {"hidden_pair", 34, hidden_pair},
    {"naked_triple", 36, naked_triple},
    {"swordfish", 38, swordfish},
    {"hidden_triple", 40, hidden_triple},
    {"skyscraper", 40, skyscraper},
    {"two_string_kite", 41, two_string_kite},
    {"turbot_fish", 42, turbot_fish},
    {"empty_rectangle", 43, empty_rectangle},
    {"xy_wing", 42, xy_wing},
    {"xyz_wing", 44, xyz_wing},
    {"unique_rectangle", 45, unique_rectangle},
    {"naked_quad", 50, naked_quad},
    {"jellyfish", 52, jellyfish},
    {"hidden_quad", 54, hidden_quad},
    {"bug", 56, bug},
    {"forcing_chain", 66, forcing_chain},
};

/* Apply the easiest rung that fires until the board is solved, stuck or contradictory;
 * counts[k] grows by the times rung k fired, and each step goes on the path. */
void climb(Board *b, int rungs, Path *path, int counts[RUNGS]) {
    int k = 0;
    while (k < rungs && b->empty && !b->contradiction) {
        b->bonus = 0;
        int empty = b->empty;
        int fired = LADDER[k].apply(b);
        if (fired) {
            counts[k] += fired;
            if (path->n < MAX_STEPS) {
                Step *step = &path->steps[path->n++];
                step->rung = (uint8_t)k;
                step->tenths = (int16_t)(LADDER[k].tenths + b->bonus);
                step->placed = b->empty < empty;
            }
            k = 0;
        } else {
            k++;
        }
    }
}
