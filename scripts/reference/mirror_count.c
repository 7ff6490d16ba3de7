/* Reference counter for benchmarks: the classic recursive bitmask N-Queens counter with mirror
 * halving (the Richards/Somers scheme), single-threaded. Written for `scripts/bench-count.sh`;
 * not part of the product. Usage: mirror_count N   (prints the total number of solutions)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint32_t full;

static uint64_t place(uint32_t cols, uint32_t left, uint32_t right) {
    if (cols == full) return 1;
    uint64_t count = 0;
    uint32_t free = full & ~(cols | left | right);
    while (free) {
        uint32_t bit = free & -free;
        free ^= bit;
        count += place(cols | bit, (left | bit) << 1, (right | bit) >> 1);
    }
    return count;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s N\n", argv[0]); return 2; }
    int n = atoi(argv[1]);
    if (n < 1 || n > 31) { fprintf(stderr, "N must be 1..31\n"); return 2; }
    full = (1u << n) - 1;
    uint64_t total = 0;
    /* First-row queen in the left half counts twice; the middle column of an odd board once. */
    for (int col = 0; col < n / 2; col++) {
        uint32_t bit = 1u << col;
        total += 2 * place(bit, bit << 1, bit >> 1);
    }
    if (n % 2 == 1) {
        uint32_t bit = 1u << (n / 2);
        total += place(bit, bit << 1, bit >> 1);
    }
    printf("%llu\n", (unsigned long long)total);
    return 0;
}
