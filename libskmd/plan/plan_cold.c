/* libskmd/plan/plan_cold.c: the shares that measure the members rather than split by the
 * tables: the profiling sweep's steps (SKMD_PROFILE_SWEEP), the cold start's probes of the
 * kinds of device a kernel never ran on, and now and then a probe of a member the decision
 * leaves idle. The rules are partitioner/'s launch policy (skmd_part_launch.h); here the
 * counts they leave to the runtime are filled (the rest of a sweep step, the rated
 * members' part of a cold start), and what they decided is logged and put in the ticket.
 * Under plan_lock (the entry's tables). */
#include <string.h>

#include "support/config.h"
#include "support/log.h"
#include "plan/plan_cold.h"
#include "plan/plan_entries.h"
#include "plan/plan_partition.h"
#include "plan/plan_state.h"
#include "plan/share.h"

/* Sweep step s of a kernel (skmd_part_sweep_step): the other members share the rest
 * equally (share.c's rule). 0 when the sweep is over. */
int plan_sweep(const struct skmd_plan_request *r, const struct entry *e, uint64_t s,
               uint64_t *count)
{
    int n = skmd_state.nmembers, m;
    uint64_t share;
    unsigned char others[SKMD_MAX_MEMBERS];
    struct skmd_part_launch at = plan_launch_of(r, e);
    if (!skmd_part_sweep_step(&at, s, skmd_config()->profile_sweep, &m, &share, others))
        return 0;
    memset(count, 0, sizeof *count * (size_t)n);
    if (share < r->total_groups)
        skmd_shares(r->total_groups - share, n, others, count);
    count[m] = share;
    return 1;
}

/* Under plan_lock. The cold start (skmd_part_cold_start): probes of the unrated kinds of
 * device, the rest on one member, or split by the partitioner among the rated members
 * (equally when it fails). measured[m]: whether eligible member m is rated
 * (skmd_part_rated, worked out once by decide()). */
int plan_cold_start(const struct skmd_plan_request *r, struct entry *e,
                    const struct residency *resident, const unsigned char *measured,
                    int learn, uint64_t *count)
{
    int n = skmd_state.nmembers;
    struct skmd_part_launch at = plan_launch_of(r, e);
    struct skmd_part_cold cold;
    if (!skmd_part_cold_start(&at, measured, learn, count, &cold))
        return 0;
    if (cold.bulk >= 0) {
        skmd_log(SKMD_LOG_DEBUG, "plan %s: cold start: %d member(s) probed with up to %llu "
                 "work-groups%s, the rest on member %d (%s)", e->name, cold.nprobed,
                 (unsigned long long)cold.probe, learn ? "" : " (nothing is learnt)",
                 cold.bulk,
                 cold.why == SKMD_PART_BULK_PREFERRED_GPU ? "the preferred member, not a CPU"
                 : cold.why == SKMD_PART_BULK_PREDICTED   ? "fastest by the prediction"
                                                          : "the preferred member: no prediction");
        return 1;
    }
    struct skmd_plan_request sub = *r;
    sub.eligible = measured;
    sub.total_groups = cold.rest;
    struct skmd_part_result res;
    int map[SKMD_MAX_MEMBERS], used;
    if (plan_partition(&sub, e, resident, 0, &res, map, &used) != SKMD_PART_OK) {
        skmd_shares(cold.rest, n, measured, count);
        for (int m = 0; m < n; m++)
            count[m] += cold.probe_of[m];
    } else {
        for (int i = 0; i < used; i++)
            count[map[i]] = res.count[i];
    }
    skmd_log(SKMD_LOG_DEBUG, "plan %s: cold start: %d of %d unmeasured member(s) probed "
             "with up to %llu work-groups%s, the rest split among the rated ones", e->name,
             cold.nprobed, cold.nunmeasured, (unsigned long long)cold.probe,
             learn ? "" : " (nothing is learnt)");
    return 1;
}

/* Under plan_lock. Now and then a probe share on a member the decision leaves idle
 * (skmd_part_idle_probe), so that a kernel kept on one member learns the others' rates as
 * sizes change; the ticket says so (no guard's sample). */
void plan_probe_idle(const struct skmd_plan_request *r, struct entry *e, uint64_t *count,
                     struct skmd_plan_ticket *t)
{
    int n = skmd_state.nmembers;
    double launch_ms[SKMD_MAX_MEMBERS];
    for (int m = 0; m < n; m++)
        launch_ms[m] = plan_info[m].launch_ms;
    struct skmd_part_launch at = plan_launch_of(r, e);
    struct skmd_part_idle p;
    int outcome = skmd_part_idle_probe(&at, t->learn, e->launches, t->guard - 1, launch_ms,
                                       e->ran_part, &e->probe_turn, count, &p);
    if (outcome == SKMD_PART_PROBE_UNBUILT) {
        skmd_log(SKMD_LOG_INFO, "plan %s: no probe of idle member %d: member %d has not run "
                 "a part of this kernel in this process (its first one builds it there, on "
                 "the launch's path); not before launch %d", e->name, p.idle, p.unbuilt,
                 SKMD_PART_PROBE_UNBUILT_AFTER);
    } else if (outcome == SKMD_PART_PROBE_NO_FIT) {
        skmd_log(SKMD_LOG_INFO, "plan %s: no probe of idle member %d: no share fits in half "
                 "of member %d's %.3f ms and outweighs its launch latency (%.3f ms)", e->name,
                 p.idle, p.donor, p.donor_ms, launch_ms[p.idle]);
    } else if (outcome == SKMD_PART_PROBE_RUN) {
        t->guard = 0; /* neither a split nor a whole sample of the guard's */
        t->code = "idle_probe";
        skmd_log(SKMD_LOG_INFO, "plan %s: probe of %llu work-groups on idle member %d "
                 "(expected %.3f ms, the largest share that fits in half of member %d's "
                 "%.3f ms)", e->name, (unsigned long long)p.size, p.idle,
                 p.size_ms + launch_ms[p.idle], p.donor, p.donor_ms);
    }
}
