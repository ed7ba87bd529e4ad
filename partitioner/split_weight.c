/* part_split_by_weight(): whole work-group counts in proportion to weights, the last step
 * of every policy and of the cold start. */
#include "part_split_weight.h"

#include <math.h>
#include <string.h>

void part_split_by_weight(uint64_t total, int ndev, const double *weight, uint64_t *count)
{
    double wsum = 0.0;
    for (int d = 0; d < ndev; d++)
        wsum += weight[d];
    memset(count, 0, sizeof(count[0]) * (size_t)ndev);
    if (!(wsum > 0.0) || !isfinite(wsum)) {
        count[0] = total;
        return;
    }
    /* Floor of each exact share, then the left-over work-groups one by one to the devices
     * with the largest remainders (lowest index first on equal remainders). */
    double rem[SKMD_PART_MAX_DEVICES];
    uint64_t given = 0;
    for (int d = 0; d < ndev; d++) {
        double exact = (double)total * (weight[d] / wsum);
        double fl = floor(exact);
        count[d] = fl >= (double)total ? total : (uint64_t)fl;
        if (given + count[d] > total)
            count[d] = total - given;
        given += count[d];
        rem[d] = weight[d] > 0.0 ? exact - fl : -1.0;
    }
    while (given < total) {
        int best = -1;
        for (int d = 0; d < ndev; d++)
            if (weight[d] > 0.0 && (best < 0 || rem[d] > rem[best]))
                best = d;
        uint64_t left = total - given;
        /* Huge totals: rounding of doubles can leave more than ndev over; give it in bulk. */
        uint64_t give = left > (uint64_t)ndev ? left - (uint64_t)ndev + 1 : 1;
        count[best] += give;
        given += give;
        rem[best] = -0.5;
    }
}
