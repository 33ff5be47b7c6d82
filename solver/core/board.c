/* The pencil-marked board (solver/board.py) and solver/bitboard.py's digit boards. Changes
 * report what they found as a Found, never through the board. */
#include <stddef.h>
#include <string.h>

#include "core.h"

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
}

/* An empty cell without candidates (the first), or kind NO_CONTRADICTION. */
Contradiction first_dead_cell(const Board *b) {
    Contradiction none = {NO_CONTRADICTION, 0, 0};
    for (int i = 0; i < 81; i++) {
        if (!b->values[i] && !b->cands[i]) return (Contradiction){NO_CANDIDATE, i, 0};
    }
    return none;
}

Found board_place(Board *b, int i, mask_t bit) {
    mask_t *cands = b->cands;
    if (!(cands[i] & bit)) return broken(CANNOT_HOLD, i, digit_of(bit));
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
            if (!cands[p]) return broken(NO_CANDIDATE, p, 0);
        }
    }
    return ONE;
}

/* Remove the digits of `mask` from every cell of `cells`: ONE if anything was removed (one
 * instance), NOTHING otherwise, with the lowest cell left without candidates. */
Found board_remove(Board *b, bb_t cells, mask_t mask) {
    mask_t *cands = b->cands;
    int removed = 0, dead = 81;
    for (bb_t r = cells; r; r &= r - 1) {
        int i = bb_first(r);
        if (cands[i] & mask) {
            cands[i] &= (mask_t)~mask;
            removed = 1;
            if (!cands[i] && i < dead) dead = i;
        }
    }
    if (!removed) return NOTHING;
    b->version++;
    if (dead == 81) return ONE;
    Found found = {1, 0, {NO_CANDIDATE, dead, 0}};
    return found;
}

/* The board's positions and the cells allowing each digit, both made at once (board_views). */
static void views(Board *b) {
    board_views(b->cands, b->positions, b->digits);
    b->digits_at = b->positions_at = b->version;
}

const bb_t *board_digits(Board *b) {
    if (b->digits_at != b->version) views(b);
    return b->digits;
}

const uint16_t (*board_positions(Board *b))[9] {
    if (b->positions_at != b->version) views(b);
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

int changed_since(const mask_t then[81], const mask_t now[81], bb_t *changed) {
    *changed = 0;
    for (int i = 0; i < 81; i++) {
        if (now[i] & ~then[i]) return 0;
        if (now[i] != then[i]) *changed |= bb_cell(i);
    }
    return 1;
}

/* solver/singles.py's place_all: each (cell, bit) not placed yet; stops on a contradiction. */
Found place_all(Board *b, const int (*placements)[2], int n) {
    Found found = NOTHING;
    for (int k = 0; k < n; k++) {
        int i = placements[k][0];
        mask_t bit = (mask_t)placements[k][1];
        if (b->values[i] == digit_of(bit)) continue;
        found = found_add(found, board_place(b, i, bit));
        if (found.why.kind) return found;
    }
    return found;
}
