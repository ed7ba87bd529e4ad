/* libskmd/plan/plan_whole.c: which member runs a launch whole, by the entry's tables: the
 * preferred member when nothing is measured, the fastest one, the one that already holds
 * the inputs unless another is clearly faster (plan_keep_home), and the member the guard's
 * whole samples go to. Under plan_lock (the entry's tables). */
#include "plan/plan_internal.h"

/* The member that takes a launch whole when nothing is measured: the queue's member when
 * it is not a CPU, else the first eligible member that is not a CPU (GPUs first), else
 * the queue's member, else the first eligible one. */
int plan_preferred_member(const struct skmd_plan_request *r)
{
    int exec = r->exec_member, first = -1, gpu = -1;
    for (int m = 0; m < skmd_state.nmembers; m++) {
        if (!r->eligible[m])
            continue;
        first = first < 0 ? m : first;
        if (gpu < 0 && !(skmd_state.members[m].type & CL_DEVICE_TYPE_CPU))
            gpu = m;
    }
    int exec_ok = exec >= 0 && exec < skmd_state.nmembers && r->eligible[exec];
    if (exec_ok && !(skmd_state.members[exec].type & CL_DEVICE_TYPE_CPU))
        return exec;
    return gpu >= 0 ? gpu : exec_ok ? exec : first;
}

/* The fastest member for the whole launch by the tables (measure: measured ones only,
 * else predictions too); -1: no such table. */
int plan_fastest_member(const struct skmd_plan_request *r, const struct entry *e,
                        int measured)
{
    int best = -1;
    double best_rate = 0;
    for (int m = 0; m < skmd_state.nmembers; m++) {
        if (!r->eligible[m] || (measured && !plan_has_measurement(&e->table[m])))
            continue;
        double rate = skmd_part_rate(&e->table[m], r->total_groups);
        if (rate > best_rate)
            best = m, best_rate = rate;
    }
    return best;
}

/* A launch given whole to one member stays on the member that already holds most of its
 * inputs (its "home"; ties: the preferred member) unless the other is measured clearly
 * faster: moving every input from one GPU to another through the host costs more than a
 * few percent of kernel speed (two alike GPUs would swap a launch back and forth). Once
 * away, it stays while that member is still PLAN_STAY_GAIN faster: rates measured near the
 * threshold would otherwise send the launch home and back. */
#define PLAN_MOVE_GAIN 1.5
#define PLAN_STAY_GAIN 1.2
void plan_keep_home(const struct skmd_plan_request *r, const struct entry *e, int *away,
                    const struct residency *resident, uint64_t *count)
{
    int whole = -1;
    for (int m = 0; m < skmd_state.nmembers; m++)
        if (count[m] == r->total_groups)
            whole = m;
    if (whole < 0)
        return;
    int home = plan_preferred_member(r);
    for (int m = 0; m < skmd_state.nmembers; m++)
        if (r->eligible[m] && (home < 0 || resident->in[m] > resident->in[home]))
            home = m;
    if (home < 0 || home == whole || !plan_has_measurement(&e->table[home]))
        return;
    double rate_whole = skmd_part_rate(&e->table[whole], r->total_groups);
    double rate_home = skmd_part_rate(&e->table[home], r->total_groups);
    double gain = *away == whole + 1 ? PLAN_STAY_GAIN : PLAN_MOVE_GAIN;
    if (rate_whole < gain * rate_home) {
        count[whole] = 0;
        count[home] = r->total_groups;
        *away = 0;
    } else {
        *away = whole + 1;
    }
}

/* The member that would run the launch whole: the fastest measured one, unless the
 * home member holds the inputs and is not much slower (plan_keep_home). -1: none measured. */
static int best_whole(const struct skmd_plan_request *r, const struct entry *e,
                      const struct residency *resident)
{
    uint64_t count[SKMD_MAX_MEMBERS] = {0};
    int fastest = plan_fastest_member(r, e, 1);
    if (fastest < 0)
        return -1;
    count[fastest] = r->total_groups;
    int away = e->away; /* a question, not a decision: the entry's state stays */
    plan_keep_home(r, e, &away, resident, count);
    for (int m = 0; m < skmd_state.nmembers; m++)
        if (count[m] == r->total_groups)
            return m;
    return fastest;
}

/* The member the guard's whole samples of the launch go to: the member last sampled
 * (kept: the guard's whole_dev, -1: none) stays the one to sample unless another is
 * measured clearly faster (near-equal members whose tables cross would spread the samples
 * thin); else best_whole's. -1: none measured. */
int plan_whole_sample_member(const struct skmd_plan_request *r, const struct entry *e,
                             const struct residency *resident, int kept)
{
    int best = best_whole(r, e, resident);
    if (best >= 0 && kept >= 0 && kept != best && kept < skmd_state.nmembers &&
        r->eligible[kept] && plan_has_measurement(&e->table[kept]) &&
        skmd_part_rate(&e->table[best], r->total_groups) <
            PLAN_MOVE_GAIN * skmd_part_rate(&e->table[kept], r->total_groups))
        best = kept;
    return best;
}
