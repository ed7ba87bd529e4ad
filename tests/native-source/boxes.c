/* tests/native-source/boxes.c: unit test of libskmd/plan/boxes.c. For 1-D, 2-D and 3-D group
 * grids and EVERY range [first, first+count) of each: at most 5 boxes (1 in 1-D, 3 in 2-D),
 * every box inside the grid and non-empty, every group of the range covered exactly once
 * and no group outside it; plus bad input (empty range, range past the end). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../libskmd/plan/boxes.h"

static int failures;

static void fail(const uint64_t ng[3], uint64_t first, uint64_t count, const char *what)
{
    if (failures++ < 20)
        printf("FAIL boxes %llux%llux%llu first %llu count %llu: %s\n",
               (unsigned long long)ng[0], (unsigned long long)ng[1],
               (unsigned long long)ng[2], (unsigned long long)first,
               (unsigned long long)count, what);
}

/* Checks one range; returns the number of boxes. */
static int check_range(const uint64_t ng[3], uint64_t first, uint64_t count,
                       unsigned char *hits, int max_boxes)
{
    uint64_t total = ng[0] * ng[1] * ng[2];
    struct skmd_box b[SKMD_MAX_BOXES];
    int n = skmd_boxes(ng, first, count, b);
    if (n < 1 || n > max_boxes) {
        fail(ng, first, count, "wrong number of boxes");
        return n;
    }
    memset(hits, 0, total);
    for (int i = 0; i < n; i++) {
        for (int d = 0; d < 3; d++)
            if (b[i].size[d] == 0 || b[i].start[d] + b[i].size[d] > ng[d])
                fail(ng, first, count, "box empty or outside the grid");
        for (uint64_t z = 0; z < b[i].size[2]; z++)
            for (uint64_t y = 0; y < b[i].size[1]; y++)
                for (uint64_t x = 0; x < b[i].size[0]; x++) {
                    uint64_t gx = b[i].start[0] + x, gy = b[i].start[1] + y,
                             gz = b[i].start[2] + z;
                    if (gx >= ng[0] || gy >= ng[1] || gz >= ng[2])
                        continue;
                    hits[gx + ng[0] * (gy + ng[1] * gz)]++;
                }
    }
    for (uint64_t g = 0; g < total; g++) {
        int inside = g >= first && g < first + count;
        if (hits[g] != inside) {
            fail(ng, first, count, inside ? "a group of the range is not covered once"
                                          : "a group outside the range is covered");
            break;
        }
    }
    return n;
}

int main(void)
{
    static const uint64_t grids[][3] = {
        {1, 1, 1}, {7, 1, 1}, {64, 1, 1}, {1, 5, 1}, {4, 3, 1}, {5, 7, 1},
        {1, 1, 4}, {3, 1, 4}, {1, 4, 3}, {3, 4, 5}, {4, 4, 4}, {2, 3, 7},
    };
    unsigned char *hits = malloc(4096);
    long ranges = 0;
    int max_seen[4] = {0};
    if (!hits)
        return 1;
    for (size_t i = 0; i < sizeof grids / sizeof grids[0]; i++) {
        const uint64_t *ng = grids[i];
        uint64_t total = ng[0] * ng[1] * ng[2];
        int dims = ng[2] > 1 ? 3 : ng[1] > 1 ? 2 : 1;
        int max_boxes = dims == 1 ? 1 : dims == 2 ? 3 : 5;
        for (uint64_t first = 0; first < total; first++)
            for (uint64_t count = 1; first + count <= total; count++, ranges++) {
                int n = check_range(ng, first, count, hits, max_boxes);
                if (n > max_seen[dims])
                    max_seen[dims] = n;
            }
        /* Bad input: nothing, never a box outside the grid. */
        struct skmd_box b[SKMD_MAX_BOXES];
        if (skmd_boxes(ng, 0, 0, b) != 0 || skmd_boxes(ng, total, 1, b) != 0 ||
            skmd_boxes(ng, 1, total, b) != 0 || skmd_boxes(ng, 0, UINT64_MAX, b) != 0)
            fail(ng, 0, 0, "bad range not refused");
    }
    /* The worst cases really occur: 3 boxes in 2-D, 5 in 3-D. */
    if (max_seen[2] != 3 || max_seen[3] != 5) {
        printf("FAIL boxes: at most %d boxes seen in 2-D, %d in 3-D (want 3, 5)\n",
               max_seen[2], max_seen[3]);
        failures++;
    }
    free(hits);
    if (failures)
        return 1;
    printf("PASS boxes: %ld ranges over %zu grids cut and covered exactly once\n", ranges,
           sizeof grids / sizeof grids[0]);
    return 0;
}
