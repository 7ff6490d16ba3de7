/* Reference for benchmarks: QS4-style min-conflicts (Sosic & Gu, 1991) with 1-byte diagonal
 * counters, 8 bytes per queen. Written for `scripts/bench-large.sh`; not part of the product.
 * Usage: qs4 N [seed]   (prints "N solved" or "N failed")
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t state;
static inline uint64_t next(void) { /* xorshift64* */
    state ^= state >> 12; state ^= state << 25; state ^= state >> 27;
    return state * 2685821657736338717ULL;
}
static inline uint32_t below(uint32_t bound) { return (uint32_t)(((next() >> 32) * bound) >> 32); }

static uint32_t n, *rows;
static uint8_t *rising, *falling;   /* col - row + n - 1, col + row */
static uint64_t collisions;

static inline void add(uint32_t c, uint32_t r) {
    uint8_t *a = &rising[c + n - 1 - r], *b = &falling[c + r];
    collisions += (*a > 0) + (*b > 0); (*a)++; (*b)++;
}
static inline void del(uint32_t c, uint32_t r) {
    uint8_t *a = &rising[c + n - 1 - r], *b = &falling[c + r];
    collisions -= (*a > 1) + (*b > 1); (*a)--; (*b)--;
}
static inline int attacked(uint32_t c) {
    return rising[c + n - 1 - rows[c]] + falling[c + rows[c]] > 2;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s N [seed]\n", argv[0]); return 2; }
    n = (uint32_t)strtoul(argv[1], 0, 10);
    state = argc > 2 ? strtoull(argv[2], 0, 10) * 0x9E3779B97F4A7C15ULL + 1 : 88172645463325252ULL;
    rows = malloc(sizeof *rows * n);
    rising = calloc(2 * n - 1, 1); falling = calloc(2 * n - 1, 1);
    for (uint32_t i = 0; i < n; i++) rows[i] = i;
    uint32_t tail = n > 30 ? n - 30 : 0;
    for (uint32_t i = 0; i < n; i++) {       /* start: probe for a free row, then a random tail */
        uint32_t j = i + below(n - i);
        for (int probe = 1; i < tail && probe < 100; probe++) {
            uint32_t r = rows[j];
            if (!rising[i + n - 1 - r] && !falling[i + r]) break;
            j = i + below(n - i);
        }
        uint32_t t = rows[i]; rows[i] = rows[j]; rows[j] = t;
        add(i, rows[i]);
    }
    while (collisions) {                     /* repair: swap attacked queens when it helps */
        for (uint32_t i = 0; i < n && collisions; i++) {
            while (attacked(i) && collisions) {
                uint32_t j = below(n);
                if (j == i) continue;
                uint64_t before = collisions;
                uint32_t ri = rows[i], rj = rows[j];
                del(i, ri); del(j, rj); add(i, rj); add(j, ri);
                if (collisions < before) { rows[i] = rj; rows[j] = ri; }
                else { del(i, rj); del(j, ri); add(i, ri); add(j, rj); }
            }
        }
    }
    printf("%u solved\n", n);
    return 0;
}
