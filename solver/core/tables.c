/* The grid's geometry (solver/grid.py, solver/bitboard.py, solver/search.py's CELL_UNITS). */
#include "core.h"

uint8_t POP9[512];
uint8_t ROW_OF[81], COL_OF[81], BOX_OF[81], BOX_PLACE[81];
uint8_t UNITS[27][9];
uint8_t PEERS[81][20];
uint8_t BOX_REST[81][4];
uint32_t CELL_UNITS[81];
bb_t UNIT_BB[27], PEER_BB[81];

void core_init(void) {
    for (int m = 1; m < 512; m++) POP9[m] = (uint8_t)(POP9[m >> 1] + (m & 1));
    for (int i = 0; i < 81; i++) {
        ROW_OF[i] = (uint8_t)(i / 9);
        COL_OF[i] = (uint8_t)(i % 9);
        BOX_OF[i] = (uint8_t)((i / 27) * 3 + (i % 9) / 3);
    }
    for (int n = 0; n < 9; n++) {
        for (int k = 0; k < 9; k++) {
            UNITS[n][k] = (uint8_t)(n * 9 + k);                       /* row n */
            UNITS[9 + n][k] = (uint8_t)(k * 9 + n);                   /* column n */
            UNITS[18 + n][k] = (uint8_t)(((n / 3) * 3 + k / 3) * 9 + (n % 3) * 3 + k % 3);
            BOX_PLACE[UNITS[18 + n][k]] = (uint8_t)k;
        }
    }
    for (int u = 0; u < 27; u++) {
        UNIT_BB[u] = 0;
        for (int k = 0; k < 9; k++) UNIT_BB[u] |= bb_cell(UNITS[u][k]);
    }
    for (int i = 0; i < 81; i++) {
        CELL_UNITS[i] = (1u << ROW_OF[i]) | (1u << (9 + COL_OF[i])) | (1u << (18 + BOX_OF[i]));
        bb_t peers = (UNIT_BB[ROW_OF[i]] | UNIT_BB[9 + COL_OF[i]] | UNIT_BB[18 + BOX_OF[i]]);
        peers &= ~bb_cell(i);
        PEER_BB[i] = peers;
        int n = 0;
        for (bb_t r = peers; r; r &= r - 1) PEERS[i][n++] = (uint8_t)bb_first(r);
        n = 0;
        bb_t rest = peers & ~UNIT_BB[ROW_OF[i]] & ~UNIT_BB[9 + COL_OF[i]];
        for (bb_t r = rest; r; r &= r - 1) BOX_REST[i][n++] = (uint8_t)bb_first(r);
    }
}
