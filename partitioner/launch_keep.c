/* The launch policy's stickiness (skmd_part_launch.h): a whole launch stays on the member
 * that holds its inputs unless another is clearly faster, the guard's whole samples stay
 * on the member last sampled, and the partitioner's decision is reused by the launches
 * after it that ask the same. */
#include "skmd_part_launch.h"

#include <math.h>

/* Moving every input from one GPU to another through the host costs more than a few
 * percent of kernel speed: two alike GPUs would swap a launch back and forth. Once away,
 * the smaller STAY_GAIN keeps rates measured near the threshold from sending the launch
 * home and back. */
void skmd_part_keep_home(const struct skmd_part_launch *l, const double *resident_in,
                         int *away, uint64_t *count)
{
    int whole = -1;
    for (int m = 0; m < l->n; m++)
        if (count[m] == l->total)
            whole = m;
    if (whole < 0)
        return;
    int home = skmd_part_preferred(l);
    for (int m = 0; m < l->n; m++)
        if (l->eligible[m] && (home < 0 || resident_in[m] > resident_in[home]))
            home = m;
    if (home < 0 || home == whole || !skmd_part_table_measured(&l->table[home]))
        return;
    double rate_whole = skmd_part_rate(&l->table[whole], l->total);
    double rate_home = skmd_part_rate(&l->table[home], l->total);
    double gain = *away == whole + 1 ? SKMD_PART_STAY_GAIN : SKMD_PART_MOVE_GAIN;
    if (rate_whole < gain * rate_home) {
        count[whole] = 0;
        count[home] = l->total;
        *away = 0;
    } else {
        *away = whole + 1;
    }
}

/* The member that would run the launch whole: the fastest measured one, unless the home
 * member holds the inputs and is not much slower. -1: none measured. */
static int best_whole(const struct skmd_part_launch *l, const double *resident_in, int away)
{
    uint64_t count[SKMD_PART_MAX_DEVICES] = {0};
    int fastest = skmd_part_fastest(l, 1);
    if (fastest < 0)
        return -1;
    count[fastest] = l->total;
    skmd_part_keep_home(l, resident_in, &away, count); /* a question: away is a copy */
    for (int m = 0; m < l->n; m++)
        if (count[m] == l->total)
            return m;
    return fastest;
}

/* Near-equal members whose tables cross would otherwise spread the samples thin. */
int skmd_part_whole_sample_dev(const struct skmd_part_launch *l, const double *resident_in,
                               int away, int kept)
{
    int best = best_whole(l, resident_in, away);
    if (best >= 0 && kept >= 0 && kept != best && kept < l->n && l->eligible[kept] &&
        skmd_part_table_measured(&l->table[kept]) &&
        skmd_part_rate(&l->table[best], l->total) <
            SKMD_PART_MOVE_GAIN * skmd_part_rate(&l->table[kept], l->total))
        best = kept;
    return best;
}

/* The problem and its descent cost tens of microseconds a launch, which short launches
 * chained by events wait for. A launch that runs split ends the reuse: the next split is
 * decided anew with what that one taught (its finish offsets). */
int skmd_part_reuse_take(int *left, int same)
{
    if (*left <= 0)
        return 0;
    if (!same) {
        *left = 0;
        return 0;
    }
    (*left)--;
    return 1;
}

void skmd_part_reuse_keep(int *left)
{
    *left = SKMD_PART_REUSE_LAUNCHES;
}

void skmd_part_reuse_end(int *left)
{
    *left = 0;
}

/* The drift: a 10% miss at the refinement's alpha 0.3, the cache's hysteresis. */
void skmd_part_reuse_moved(int *left, double was, double now)
{
    if (!(was > 0) || fabs(now / was - 1) > SKMD_PART_REUSE_DRIFT)
        *left = 0;
}
