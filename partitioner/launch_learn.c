/* What a launch's measured shares teach the launch policy (skmd_part_launch.h): a
 * member's first share of a kernel, and which whole launches are timed. */
#include "skmd_part_launch.h"

/* A first share carries one-time costs (the program built on the member, its buffers
 * allocated, a driver's lazy compile: several times the next shares' time). */
int skmd_part_observe_share(struct skmd_part_table *t, struct skmd_part_table *before,
                            unsigned char *provisional, int first, uint64_t n, double ms,
                            double alpha)
{
    if (first) {
        if (skmd_part_table_measured(t))
            return SKMD_PART_NO_SAMPLE;
        *before = *t;
        *provisional = 1;
    } else if (*provisional) {
        *t = *before;
        *provisional = 0;
    }
    return skmd_part_observe(t, n, ms, alpha);
}

int skmd_part_time_whole(uint32_t samples_at_size, int guard_run, int placement_sample)
{
    return samples_at_size == 0 || guard_run == SKMD_PART_RUN_WHOLE_SAMPLE || placement_sample;
}
