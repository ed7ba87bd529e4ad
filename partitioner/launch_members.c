/* The launch policy's view of the members (skmd_part_launch.h): which have a measured
 * rate, which are twins, which one takes a launch whole when nothing is measured, and
 * which is the fastest by the tables. */
#include "skmd_part_launch.h"

int skmd_part_table_measured(const struct skmd_part_table *t)
{
    for (int k = 0; k < SKMD_PART_RANGES; k++)
        if (t->rate[k] > 0 && t->samples[k] > 0)
            return 1;
    return 0;
}

int skmd_part_twins(const struct skmd_part_launch *l, int a, int b)
{
    return a != b && l->twin_group[a] > 0 && l->twin_group[a] == l->twin_group[b];
}

int skmd_part_rated(const struct skmd_part_launch *l, int m)
{
    if (skmd_part_table_measured(&l->table[m]))
        return 1;
    for (int o = 0; o < l->n; o++)
        if (skmd_part_twins(l, m, o) && l->eligible[o] &&
            skmd_part_table_measured(&l->table[o]))
            return 1;
    return 0;
}

/* A GPU is rarely much slower than the CPU, the CPU often 100 times slower than a GPU. */
int skmd_part_preferred(const struct skmd_part_launch *l)
{
    int exec = l->exec, first = -1, gpu = -1;
    for (int m = 0; m < l->n; m++) {
        if (!l->eligible[m])
            continue;
        first = first < 0 ? m : first;
        if (gpu < 0 && !l->on_host[m])
            gpu = m;
    }
    int exec_ok = exec >= 0 && exec < l->n && l->eligible[exec];
    if (exec_ok && !l->on_host[exec])
        return exec;
    return gpu >= 0 ? gpu : exec_ok ? exec : first;
}

int skmd_part_fastest(const struct skmd_part_launch *l, int measured)
{
    int best = -1;
    double best_rate = 0;
    for (int m = 0; m < l->n; m++) {
        if (!l->eligible[m] || (measured && !skmd_part_table_measured(&l->table[m])))
            continue;
        double rate = skmd_part_rate(&l->table[m], l->total);
        if (rate > best_rate)
            best = m, best_rate = rate;
    }
    return best;
}
