/* Which launches the measured guard (skmd_part.h) judges, and which of their times are
 * samples (skmd_part_launch.h). */
#include "skmd_part_launch.h"

int skmd_part_guard_applies(int shares, int learn, enum skmd_part_policy policy)
{
    return shares >= 2 && learn && policy != SKMD_PART_POLICY_LINEAR;
}

int skmd_part_offhost_differs(const struct skmd_part_launch *l, const uint64_t *count)
{
    int host_share = 0, others = 0;
    for (int m = 0; m < l->n; m++) {
        host_share |= count[m] && l->on_host[m];
        others += l->eligible[m] && !l->on_host[m];
    }
    return host_share && others >= 2;
}

int skmd_part_guard_sample_clean(int n, const uint64_t *count,
                                 const unsigned char *first_share)
{
    for (int m = 0; m < n; m++)
        if (count[m] && first_share[m])
            return 0;
    return 1;
}
