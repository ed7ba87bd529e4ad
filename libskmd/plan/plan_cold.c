/* libskmd/plan/plan_cold.c: the shares that measure the members rather than split by the
 * tables: the profiling sweep's steps (SKMD_PROFILE_SWEEP), the cold start's probes of the
 * kinds of device a kernel never ran on, and now and then a probe of a member the decision
 * leaves idle, so that a kernel kept on one member learns the others' rates as sizes
 * change. Under plan_lock (the entry's tables). */
#include <string.h>

#include "support/config.h"
#include "support/log.h"
#include "plan/plan_internal.h"
#include "plan/share.h"

/* Sweep step s of a kernel (SKMD_PROFILE_SWEEP=N sizes): step j*n + m gives member m
 * total / 4^j work-groups and the others the rest equally. 0 when the sweep is over. */
int plan_sweep(const struct skmd_plan_request *r, uint64_t s, uint64_t *count)
{
    int n = skmd_state.nmembers;
    uint64_t sizes = (uint64_t)skmd_config()->profile_sweep;
    if (s >= sizes * (uint64_t)n)
        return 0;
    int m = (int)(s % (uint64_t)n);
    unsigned j = (unsigned)(s / (uint64_t)n);
    if (!r->eligible[m])
        return 0;
    memset(count, 0, sizeof *count * (size_t)n);
    if (j == 0) {
        count[m] = r->total_groups;
        return 1;
    }
    unsigned char others[SKMD_MAX_MEMBERS];
    int nothers = 0;
    for (int o = 0; o < n; o++)
        nothers += others[o] = r->eligible[o] && o != m;
    uint64_t quarter = j < 32 ? r->total_groups >> (2 * j) : 0;
    quarter = !nothers ? r->total_groups : quarter ? quarter : 1;
    if (nothers)
        skmd_shares(r->total_groups - quarter, n, others, count);
    count[m] = quarter;
    return 1;
}

/* Under plan_lock. Cold start: each kind of eligible device with no measured rate for
 * this kernel gets one probe share (1/32 of the work-groups, at least 1) on one of its
 * members, and never more, so a wrong guess costs at most a probe. Identical devices
 * share what one of them measures (table_with_twins), so the others are not probed: a
 * probe moves the inputs its work-groups read, which is the whole buffer where the
 * footprint is unknown (a gigabyte to three GPUs for 3 of 32 work-groups of mvt_cols).
 * The rest goes to the rated members, as the partitioner splits it among
 * them; when none is rated, to one member: the preferred member when it is not a CPU (a
 * GPU is rarely much slower than the CPU, the CPU often 100 times slower than a GPU, and
 * the roofline's peaks are rough), else the fastest by the static prediction; its twins
 * learn from its run. Where nothing is learnt (learn 0: SKMD_REFINE=0) a probe would
 * measure nothing and be paid again at every launch: the unmeasured members get none. 0
 * when the launch is too small to probe (fewer work-groups than members). measured[m]:
 * whether eligible member m is rated (plan.c's rated(), worked out once by decide()). */
int plan_cold_start(const struct skmd_plan_request *r, struct entry *e,
                    const struct residency *resident, const unsigned char *measured,
                    int learn, uint64_t *count)
{
    int n = skmd_state.nmembers, nunmeasured = 0, nmeasured = 0;
    for (int m = 0; m < n; m++) {
        nmeasured += r->eligible[m] && measured[m];
        nunmeasured += r->eligible[m] && !measured[m];
    }
    if (nmeasured + nunmeasured == 0 || r->total_groups < (uint64_t)(nmeasured + nunmeasured))
        return 0;
    uint64_t probe = !learn ? 0 : r->total_groups / 32 ? r->total_groups / 32 : 1;
    int bulk = -1; /* the one member that takes the rest when none is measured */
    int preferred = plan_preferred_member(r), predicted = plan_fastest_member(r, e, 0);
    int gpu_first = preferred >= 0 && !(skmd_state.members[preferred].type & CL_DEVICE_TYPE_CPU);
    if (!nmeasured)
        bulk = gpu_first || predicted < 0 ? preferred : predicted;
    /* One probed member per kind of device, none of the bulk member's kind. */
    unsigned char probed[SKMD_MAX_MEMBERS] = {0};
    int nprobed = 0;
    for (int m = 0; m < n; m++) {
        int covered = m == bulk || (bulk >= 0 && plan_twin[m][bulk]);
        for (int o = 0; o < m && !covered; o++)
            covered = probed[o] && plan_twin[m][o];
        probed[m] = r->eligible[m] && !measured[m] && !covered;
        nprobed += probed[m];
    }
    uint64_t probes = probe * (uint64_t)nprobed;
    if (probes >= r->total_groups)
        return 0;
    memset(count, 0, sizeof *count * (size_t)n);
    for (int m = 0; m < n; m++)
        count[m] = probed[m] ? probe : 0;
    uint64_t rest = r->total_groups - probes;
    if (bulk >= 0) {
        count[bulk] = rest;
        skmd_log(SKMD_LOG_DEBUG, "plan %s: cold start: %d member(s) probed with %llu "
                 "work-groups%s, the rest on member %d (%s)", e->name, nprobed,
                 (unsigned long long)probe, learn ? "" : " (nothing is learnt)", bulk,
                 gpu_first ? "the preferred member, not a CPU"
                           : predicted == bulk ? "fastest by the prediction"
                                               : "the preferred member: no prediction");
        return 1;
    }
    struct skmd_plan_request sub = *r;
    sub.eligible = measured;
    sub.total_groups = rest;
    struct skmd_part_result res;
    int map[SKMD_MAX_MEMBERS], used;
    if (plan_partition(&sub, e, resident, 0, &res, map, &used) != SKMD_PART_OK) {
        skmd_shares(rest, n, measured, count);
        for (int m = 0; m < n; m++)
            count[m] += probed[m] ? probe : 0;
    } else {
        for (int i = 0; i < used; i++)
            count[map[i]] = res.count[i];
    }
    skmd_log(SKMD_LOG_DEBUG, "plan %s: cold start: %d of %d unmeasured member(s) probed "
             "with %llu work-groups%s, the rest split among the rated ones", e->name, nprobed,
             nunmeasured, (unsigned long long)probe, learn ? "" : " (nothing is learnt)");
    return 1;
}

/* Under plan_lock. A member the decision leaves idle is measured again now and then (1
 * launch in PLAN_PROBE_EVERY of the entry): it takes a probe share from the member with
 * the most work-groups, as large as its table says it runs in half of that member's
 * estimated time (a power of two, at most half the launch), so the probe is large enough
 * to show the member's rate at sizes it would get, and costs the launch little when the
 * table is right. So a kernel kept on one member learns the others' rates as sizes
 * change. Not on the guard's samples and retries, whose times must stay clean. */
#define PLAN_PROBE_EVERY 64
/* A member's first part of a kernel in a process builds it there (PoCL compiles the
 * kernel, NVIDIA builds the share program: tens to hundreds of ms) on the launch's path:
 * a probe that would be the first part on its member, or on the donor, waits until the
 * kernel has had this many launches, when such a cost is small beside theirs. */
#define PLAN_PROBE_UNBUILT_AFTER 1024
void plan_probe_idle(const struct skmd_plan_request *r, struct entry *e, uint64_t *count,
                     struct skmd_plan_ticket *t)
{
    int n = skmd_state.nmembers, donor = -1, idle = -1;
    if (!t->learn || e->launches % PLAN_PROBE_EVERY != PLAN_PROBE_EVERY - 1 ||
        t->guard == SKMD_PART_RUN_WHOLE_SAMPLE + 1 || t->guard == SKMD_PART_RUN_RETRY + 1 ||
        t->guard == SKMD_PART_RUN_OTHER_SPLIT + 1 || r->total_groups < 2)
        return;
    for (int m = 0; m < n; m++)
        if (count[m] && (donor < 0 || count[m] > count[donor]))
            donor = m;
    for (int i = 0; i < n && idle < 0; i++) {
        int m = (e->probe_turn + i) % n;
        if (r->eligible[m] && !count[m] && plan_has_measurement(&e->table[m]))
            idle = m;
    }
    if (donor < 0 || idle < 0)
        return;
    e->probe_turn = (idle + 1) % n;
    if ((!e->ran_part[idle] || !e->ran_part[donor]) && e->launches < PLAN_PROBE_UNBUILT_AFTER) {
        skmd_log(SKMD_LOG_INFO, "plan %s: no probe of idle member %d: member %d has not run "
                 "a part of this kernel in this process (its first one builds it there, on "
                 "the launch's path); not before launch %d", e->name, idle,
                 e->ran_part[idle] ? donor : idle, PLAN_PROBE_UNBUILT_AFTER);
        return;
    }
    double donor_rate = skmd_part_rate(&e->table[donor], count[donor]);
    if (!(donor_rate > 0))
        return;
    double donor_ms = (double)count[donor] / donor_rate + plan_info[donor].launch_ms;
    /* At a size never measured the member is taken to run at its best measured rate (a
     * GPU measured on a small probe is slow per work-group there, not on larger shares);
     * once measured, that size's own rate counts, so each size is explored once. */
    const struct skmd_part_table *tab = &e->table[idle];
    double best = 0;
    for (int k = 0; k < SKMD_PART_RANGES; k++)
        best = tab->samples[k] > 0 && tab->rate[k] > best ? tab->rate[k] : best;
    uint64_t size = 0;
    double size_ms = 0;
    for (uint64_t next = 1; next <= r->total_groups / 2; next *= 2) {
        double rate = skmd_part_rate(tab, next);
        if (!tab->samples[skmd_part_range_of(next)] && best > rate)
            rate = best;
        double ms = rate > 0 ? (double)next / rate : SKMD_PART_NEVER_MS;
        if (ms + plan_info[idle].launch_ms > donor_ms / 2)
            break;
        size = next;
        size_ms = ms;
    }
    /* A share whose time is mostly the member's fixed launch latency says little about
     * its rate: no probe then. */
    if (!size || size >= count[donor] || size_ms < plan_info[idle].launch_ms) {
        skmd_log(SKMD_LOG_INFO, "plan %s: no probe of idle member %d: no share fits in half "
                 "of member %d's %.3f ms and outweighs its launch latency (%.3f ms)", e->name,
                 idle, donor, donor_ms, plan_info[idle].launch_ms);
        return;
    }
    count[donor] -= size;
    count[idle] = size;
    t->guard = 0; /* neither a split nor a whole sample of the guard's */
    t->code = "idle_probe";
    skmd_log(SKMD_LOG_INFO, "plan %s: probe of %llu work-groups on idle member %d "
             "(expected %.3f ms, the largest share that fits in half of member %d's %.3f ms)",
             e->name, (unsigned long long)size, idle, size_ms + plan_info[idle].launch_ms,
             donor, donor_ms);
}
