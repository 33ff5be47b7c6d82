/* The pencil-marked board (solver/board.py) and solver/bitboard.py's digit boards. */
#include <stddef.h>
#include <string.h>

#include "core.h"

void contradict(Board *b, int kind, int a, int bval) {
    b->contradiction = kind;
    b->contra_a = a;
    b->contra_b = bval;
}

void board_from_grid(Board *b, const uint8_t grid[81]) {
    memset(b, 0, offsetof(Board, digits));  /* the views are built on demand */
    b->version = 1;
    for (int i = 0; i < 81; i++) {
        b->values[i] = grid[i];
        if (!grid[i]) {
            b->empty++;
            b->unit_empty[ROW_OF[i]]++;
            b->unit_empty[9 + COL_OF[i]]++;
            b->unit_empty[18 + BOX_OF[i]]++;
        }
    }
    mask_t used[27] = {0};  /* digits given in each unit */
    for (int i = 0; i < 81; i++) {
        if (!grid[i]) continue;
        mask_t bit = (mask_t)(1u << (grid[i] - 1));
        used[ROW_OF[i]] |= bit;
        used[9 + COL_OF[i]] |= bit;
        used[18 + BOX_OF[i]] |= bit;
    }
    for (int i = 0; i < 81; i++) {
        if (grid[i]) continue;
        mask_t seen = used[ROW_OF[i]] | used[9 + COL_OF[i]] | used[18 + BOX_OF[i]];
        b->cands[i] = (mask_t)(ALL_DIGITS & ~seen);
    }
    for (int i = 0; i < 81; i++) {
        if (!grid[i] && !b->cands[i]) {
            contradict(b, NO_CANDIDATE, i, 0);
            break;
        }
    }
}

int board_place(Board *b, int i, mask_t bit) {
    mask_t *cands = b->cands;
    if (!(cands[i] & bit)) {
        contradict(b, CANNOT_HOLD, i, digit_of(bit));
        return 0;
    }
    b->values[i] = (uint8_t)digit_of(bit);
    b->version++;
    cands[i] = 0;
    b->empty--;
    b->unit_empty[ROW_OF[i]]--;
    b->unit_empty[9 + COL_OF[i]]--;
    b->unit_empty[18 + BOX_OF[i]]--;
    for (int k = 0; k < 20; k++) {
        int p = PEERS[i][k];
        if (cands[p] & bit) {
            cands[p] ^= bit;
            if (!cands[p]) {
                contradict(b, NO_CANDIDATE, p, 0);
                return 0;
            }
        }
    }
    return 1;
}

int board_eliminate(Board *b, int i, mask_t mask) {
    mask_t *cands = b->cands;
    if (!(cands[i] & mask)) return 0;
    b->version++;
    cands[i] &= (mask_t)~mask;
    if (!cands[i]) contradict(b, NO_CANDIDATE, i, 0);
    return 1;
}

const bb_t *board_digits(Board *b) {
    if (b->digits_at != b->version) {
        for (int d = 0; d < 9; d++) b->digits[d] = 0;
        for (int i = 0; i < 81; i++) {
            for (unsigned m = b->cands[i]; m; m &= m - 1) b->digits[low_bit_index(m)] |= bb_cell(i);
        }
        b->digits_at = b->version;
    }
    return b->digits;
}

const uint16_t (*board_positions(Board *b))[9] {
    if (b->positions_at != b->version) {
        memset(b->positions, 0, sizeof b->positions);
        for (int u = 0; u < 27; u++) {
            for (int k = 0; k < 9; k++) {
                for (unsigned m = b->cands[UNITS[u][k]]; m; m &= m - 1)
                    b->positions[u][low_bit_index(m)] |= (uint16_t)(1u << k);
            }
        }
        b->positions_at = b->version;
    }
    return (const uint16_t (*)[9])b->positions;
}

/* Every strong link of the digit (units ascending), as solver/turbot.py's _links. */
const Link *board_links(Board *b, int digit, int *n) {
    if (b->links_at != b->version) {
        const uint16_t (*where)[9] = board_positions(b);
        for (int d = 0; d < 9; d++) {
            int count = 0;
            for (int u = 0; u < 27; u++) {
                unsigned spots = where[u][d];
                if (pop(spots) != 2) continue;
                int lo = low_bit_index(spots), hi = low_bit_index(spots & (spots - 1));
                int a = UNITS[u][lo], c = UNITS[u][hi];
                b->links[d][count++] = (Link){u, a < c ? a : c, a < c ? c : a};
            }
            b->n_links[d] = (uint8_t)count;
        }
        b->links_at = b->version;
    }
    *n = b->n_links[digit];
    return b->links[digit];
}

void board_masks(const Board *b, mask_t out[81]) {
    for (int i = 0; i < 81; i++)
        out[i] = b->values[i] ? (mask_t)(1u << (b->values[i] - 1)) : b->cands[i];
}

/* solver/singles.py's place_all: each (cell, bit) not placed yet; stops on a contradiction. */
int place_all(Board *b, const int (*placements)[2], int n) {
    int fired = 0;
    for (int k = 0; k < n; k++) {
        int i = placements[k][0];
        mask_t bit = (mask_t)placements[k][1];
        if (b->values[i] == digit_of(bit)) continue;
        if (!board_place(b, i, bit)) return fired;
        fired++;
    }
    return fired;
}
