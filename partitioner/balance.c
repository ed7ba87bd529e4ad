/* When a cached decision gives way to a new one that balances the devices better. */
#include "skmd_part.h"

double skmd_part_estimated_spread(const struct skmd_part_result *r)
{
    double first = 0.0, last = 0.0;
    int any = 0;
    for (int d = 0; r && d < r->ndev; d++) {
        if (!r->count[d])
            continue;
        double t = r->est_ms[d];
        first = any ? (t < first ? t : first) : t;
        last = any ? (t > last ? t : last) : t;
        any = 1;
    }
    return last > 0.0 && last < SKMD_PART_NEVER_MS ? (last - first) / last : 0.0;
}

/* The hysteresis protects a decision from noise, but the gain of balancing is about
 * half the spread it removes, and much less where the early device is slow (a CPU 20x
 * slower than two GPUs that finished 30% after it gains under 1% from the work-groups
 * that close the gap): a 10% hysteresis kept shares whose devices finished 20-30% apart
 * for ever. A decision that finishes no later and is clearly closer to equal finish, or
 * finishes clearly sooner (a device that cannot be balanced at the granularity, such as
 * a slow CPU whose few work-groups are mostly its launch latency, leaves the spread as
 * it was), replaces it. A decision already balanced within the spread keeps the full
 * hysteresis, and an optimum that is not balanced (a merge on the host, the granularity)
 * is found again with the same spread and does not replace itself. */
int skmd_part_rebalances(const struct skmd_part_result *cached,
                         const struct skmd_part_result *fresh)
{
    double before = skmd_part_estimated_spread(cached);
    if (!(before > SKMD_PART_BALANCE_SPREAD) || !(fresh->overall_ms <= cached->overall_ms))
        return 0;
    return skmd_part_estimated_spread(fresh) < before - SKMD_PART_BALANCE_SPREAD ||
           fresh->overall_ms < cached->overall_ms * (1.0 - SKMD_PART_BALANCE_GAIN);
}
