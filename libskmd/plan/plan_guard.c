/* libskmd/plan/plan_guard.c: the measured guard on the partitioner's splits (see
 * skmd_part.h's struct skmd_part_guard, kept per decision-cache key). A decision that
 * splits may be run whole on one member instead now and then, or split without the members
 * on the host's cores, so that the launch's measured wall time judges the split against
 * those; the guard's verdict then holds until a retry. The guard's transitions and which
 * launches it judges are partitioner/'s (guard.c, launch_guard.c); here the guard is
 * found, the other split made, the ticket filled, its times handed back and what it did
 * logged and counted. Its state goes to and from the database through
 * plan_guard_store.c; its counts are logged at exit. Under plan_lock (its observer,
 * skmd_plan_observe_wall, takes it in plan_observe.c). */
#include <string.h>

#include "support/log.h"
#include "plan/plan_entries.h"
#include "plan/plan_guard.h"
#include "plan/plan_partition.h"
#include "plan/plan_place.h"
#include "plan/plan_state.h"

/* Launches per guard verdict (enum skmd_part_run), and the guard's switches (to whole, back
 * to the split, between the splits with and without the host's cores). guard_warmups:
 * launches left out of the guard's samples (a member's first share). */
static uint64_t guard_runs[5], guard_to_whole, guard_to_split, guard_to_offhost,
    guard_to_full, guard_warmups;

/* Under plan_lock: the partitioner's split among the members not on the host's cores, in
 * count; 0 when it fails (count unchanged). Cached under its own key (the eligible
 * members are part of it). */
static int split_offhost(const struct skmd_plan_request *r, struct entry *e,
                         const struct residency *resident, uint64_t *count)
{
    unsigned char eligible[SKMD_MAX_MEMBERS];
    for (int m = 0; m < skmd_state.nmembers; m++)
        eligible[m] = r->eligible[m] && !skmd_member_on_host_cores(&skmd_state.members[m]);
    struct skmd_plan_request off = *r;
    off.eligible = eligible;
    struct skmd_part_result res;
    int map[SKMD_MAX_MEMBERS], n = 0;
    if (plan_partition(&off, e, resident, 1, &res, map, &n) != SKMD_PART_OK)
        return 0;
    memset(count, 0, sizeof *count * (size_t)skmd_state.nmembers);
    for (int i = 0; i < n; i++)
        count[map[i]] = res.count[i];
    return 1;
}

/* Under plan_lock: the measured guard's word on a decision that splits (skmd_part.h): it
 * may run the launch whole on one member instead, or split without the members on the
 * host's cores. */
void plan_guard_split(const struct skmd_plan_request *r, struct entry *e,
                      const struct residency *resident, uint64_t *count,
                      struct skmd_plan_ticket *t)
{
    int shares = 0;
    for (int m = 0; m < skmd_state.nmembers; m++)
        shares += count[m] > 0;
    struct skmd_part_key key;
    plan_key_of(r, e->kernel, 0, &key);
    int guarded = skmd_part_guard_applies(shares, t->learn, plan_policy());
    struct skmd_part_guard *g = guarded ? skmd_part_cache_guard(plan_cache, &key) : NULL;
    if (!g)
        return;
    int64_t ids[SKMD_MAX_MEMBERS];
    struct skmd_plan_guard_members members = plan_guard_members(ids);
    skmd_plan_guard_meet(plan_db, &members, &key, e->shape, e->name, g);
    struct skmd_part_launch at = plan_launch_of(r, e);
    int best = skmd_part_whole_sample_dev(&at, resident->in, e->away, g->whole_dev);
    int offhost = skmd_part_offhost_differs(&at, count);
    int dev, run = skmd_part_guard_choose(g, best, offhost, &dev);
    t->guard = run + 1;
    t->guard_dev = dev;
    t->guard_offhost = skmd_part_guard_runs_offhost(g, run);
    t->key_shape = key.shape;
    t->key_buffers = key.buffers;
    guard_runs[run]++;
    if (dev >= 0 && (dev >= skmd_state.nmembers || !r->eligible[dev]))
        t->guard = 0; /* its member cannot take the launch now: the split runs, unjudged */
    if (dev < 0 && offhost && t->guard_offhost && !split_offhost(r, e, resident, count))
        t->guard = 0; /* no such split to be had: the partitioner's runs, unjudged */
    if (run == SKMD_PART_RUN_OTHER_SPLIT && t->guard)
        skmd_log(SKMD_LOG_INFO, "plan %s: guard: the split %s the members on the host's cores, "
                 "measured (%.3f ms x%u with them, %.3f ms x%u without)", e->name,
                 t->guard_offhost ? "without" : "with", g->split_ms, g->split_n,
                 g->offhost_ms, g->offhost_n);
    if (dev < 0 || !t->guard)
        return;
    memset(count, 0, sizeof *count * (size_t)skmd_state.nmembers);
    count[dev] = r->total_groups;
    if (run == SKMD_PART_RUN_WHOLE_SAMPLE) {
        uint32_t split_n;
        double split_ms = skmd_part_guard_split_in_use(g, &split_n);
        skmd_log(SKMD_LOG_INFO, "plan %s: guard: whole sample on member %d (split %.3f ms "
                 "x%u, whole there %.3f ms x%u)", e->name, dev, split_ms, split_n,
                 g->whole_ms[dev], g->whole_n[dev]);
    }
}

/* Under plan_lock: counts and tells what the guard changed. */
static void log_guard_change(const struct skmd_part_guard *g, const char *name, int was_whole,
                             int was_offhost)
{
    double split_ms = skmd_part_guard_split_in_use(g, NULL);
    if (g->offhost_mode != was_offhost) {
        *(g->offhost_mode ? &guard_to_offhost : &guard_to_full) += 1;
        skmd_log(SKMD_LOG_INFO, "plan %s: guard: the split without the members on the host's "
                 "cores measured %.3f ms, with them %.3f ms: %s from now on", name,
                 g->offhost_ms, g->split_ms, g->offhost_mode ? "without them" : "with them");
    }
    if (g->whole_mode && !was_whole) {
        guard_to_whole++;
        skmd_log(SKMD_LOG_INFO, "plan %s: guard: the split measured %.3f ms, whole on member "
                 "%d %.3f ms: whole from now on, the split retried in %llu launches", name,
                 split_ms, g->whole_dev, g->whole_ms[g->whole_dev],
                 (unsigned long long)(g->retry_at - g->launches));
    } else if (!g->whole_mode && was_whole) {
        guard_to_split++;
        skmd_log(SKMD_LOG_INFO, "plan %s: guard: the retried split measured %.3f ms, whole on "
                 "member %d %.3f ms: back to the split", name, split_ms, g->whole_dev,
                 g->whole_ms[g->whole_dev]);
    }
}

/* Under plan_lock: the name of the ticket's kernel (for the log). */
static const char *name_of(const struct skmd_plan_ticket *t)
{
    struct entry *e = plan_entry_find(t->kernel, t->shape);
    return e ? e->name : "";
}

/* Under plan_lock: the launch planned in `t` ran `ms` (skmd_plan_observe_wall): a sample
 * for its decision's guard and for a placement guard's cycle. */
void plan_guard_observe(const struct skmd_plan_ticket *t, double ms)
{
    /* A member's first share of the kernel in the process carries one-time costs (the
     * program built there, its buffers and staging allocated: several times the next
     * launches' time): no sample of what the split or the launch costs. */
    if (!skmd_part_guard_sample_clean(skmd_state.nmembers, t->count, t->first_share)) {
        guard_warmups++;
        return;
    }
    if (t->cycle.run)
        plan_cycle_launch_ended(t);
    if (!t->guard)
        return;
    struct skmd_part_key key = {t->kernel, t->key_shape, t->key_buffers};
    struct skmd_part_guard *g = skmd_part_cache_guard(plan_cache, &key);
    int run = t->guard - 1, was_offhost = g ? g->offhost_mode : 0,
        was_whole = g ? g->whole_mode : 0;
    if (g && skmd_part_guard_observe(g, run, t->guard_dev, t->guard_offhost, ms) == 1) {
        log_guard_change(g, name_of(t), was_whole, was_offhost);
    } else if (g && run == SKMD_PART_RUN_RETRY) {
        skmd_log(SKMD_LOG_INFO, "plan: guard: the retried split measured %.3f ms, whole "
                 "%.3f ms: whole again, next retry in %llu launches", ms,
                 g->whole_ms[g->whole_dev],
                 (unsigned long long)(g->retry_at - g->launches));
    }
}

/* Under plan_lock, at exit: the guard's counts, when it judged any launch. */
void plan_guard_report(void)
{
    uint64_t guarded = 0;
    for (size_t i = 0; i < sizeof guard_runs / sizeof guard_runs[0]; i++)
        guarded += guard_runs[i];
    if (guarded)
        skmd_log(SKMD_LOG_INFO, "plan guard: %llu split, %llu whole samples, %llu whole "
                 "(the split measured slower), %llu split retries, %llu samples of the other "
                 "split (with or without the host's cores); went whole %llu times, back to "
                 "the split %llu times, to the split without the host's cores %llu times, "
                 "back to the partitioner's %llu times; %llu left out (a member's first "
                 "share)",
                 (unsigned long long)guard_runs[0], (unsigned long long)guard_runs[1],
                 (unsigned long long)guard_runs[2], (unsigned long long)guard_runs[3],
                 (unsigned long long)guard_runs[4], (unsigned long long)guard_to_whole,
                 (unsigned long long)guard_to_split, (unsigned long long)guard_to_offhost,
                 (unsigned long long)guard_to_full, (unsigned long long)guard_warmups);
}
