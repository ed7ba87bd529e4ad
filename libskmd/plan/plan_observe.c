/* libskmd/plan/plan_observe.c: what the launches teach the partitioner (see plan.h). The
 * measured kernel times of a launch's shares refine the entry's tables and finish
 * offsets, peer copies and per-share latencies refine the members' figures; every
 * SKMD_PROFILE_FLUSH launches what was learnt goes back to the profile database
 * (plan_store.c). Each entry point takes plan_lock itself. */
#include <math.h>

#include "support/log.h"
#include "plan/plan.h"
#include "plan/plan_entries.h"
#include "plan/plan_guard.h"
#include "plan/plan_links.h"
#include "plan/plan_memo.h"
#include "plan/plan_setup.h"
#include "plan/plan_state.h"
#include "plan/plan_store.h"

/* Under plan_lock: a split the partitioner estimated, every share measured and none its
 * member's first (whose time holds one-time costs): each member's finish against the
 * estimate moves its finish offset. */
static void observe_finish(const struct skmd_plan_ticket *t, struct entry *e,
                           const double *ms, const double *finish_ms)
{
    if (!e || !finish_ms || !t->estimated)
        return;
    for (int m = 0; m < skmd_state.nmembers; m++)
        if (t->count[m] && (t->first_share[m] || !(ms[m] > 0) || !(finish_ms[m] > 0)))
            return;
    for (int m = 0; m < skmd_state.nmembers; m++) {
        if (!t->count[m])
            continue;
        double was = e->finish_offset[m];
        if (skmd_part_observe_finish(&e->finish_offset[m], finish_ms[m], ms[m], t->est_ms[m],
                                     t->est_kernel_ms[m], PLAN_ALPHA,
                                     plan_info[m].launch_ms) != SKMD_PART_OK)
            continue;
        e->offset_known[m] = 1;
        e->dirty = 1;
        if (fabs(e->finish_offset[m] - was) > 0.001)
            skmd_log(SKMD_LOG_DEBUG, "plan %s: member %d finished %.3f ms after the start "
                     "(kernel %.3f), estimated %.3f (%.3f): finish offset %+.3f ms", e->name,
                     m, finish_ms[m], ms[m], t->est_ms[m], t->est_kernel_ms[m],
                     e->finish_offset[m]);
    }
}

void skmd_plan_observe(const struct skmd_plan_ticket *ticket, const double *ms,
                       const double *finish_ms)
{
    if (!ticket->learn)
        return;
    plan_setup();
    pthread_mutex_lock(&plan_lock);
    struct entry *e = plan_entry_for(ticket->kernel, ticket->shape, "");
    for (int m = 0; e && m < skmd_state.nmembers; m++) {
        if (ticket->count[m] == 0 || !(ms[m] > 0))
            continue;
        /* A member's first share of the kernel: no sample, or a provisional one. */
        double was = skmd_part_rate(&e->table[m], ticket->count[m]);
        int status = skmd_part_observe_share(&e->table[m], &e->unsampled[m],
                                             &e->provisional[m], ticket->first_share[m],
                                             ticket->count[m], ms[m], PLAN_ALPHA);
        if (status == SKMD_PART_NO_SAMPLE)
            continue;
        if (status == SKMD_PART_OK)
            e->dirty = 1;
        double now = skmd_part_rate(&e->table[m], ticket->count[m]);
        plan_memo_table_moved(&e->memo, was, now);
    }
    observe_finish(ticket, e, ms, finish_ms);
    plan_store_after_launch();
    pthread_mutex_unlock(&plan_lock);
}

void skmd_plan_observe_wall(const struct skmd_plan_ticket *t, double ms)
{
    if (!t->guard && !t->cycle.run)
        return;
    pthread_mutex_lock(&plan_lock);
    plan_guard_observe(t, ms);
    pthread_mutex_unlock(&plan_lock);
}

void skmd_plan_observe_peer(int from, int to, uint64_t bytes, double ms)
{
    if (from < 0 || from >= SKMD_MAX_MEMBERS || to < 0 || to >= SKMD_MAX_MEMBERS ||
        !(ms > 0) || !bytes || !plan_settings()->learn)
        return;
    pthread_mutex_lock(&plan_lock);
    plan_smooth(&plan_peer_rate[from][to], (double)bytes / ms);
    pthread_mutex_unlock(&plan_lock);
}

void skmd_plan_observe_latency(int member, double ms)
{
    if (member < 0 || member >= SKMD_MAX_MEMBERS || !(ms >= 0) || !plan_settings()->learn)
        return; /* SKMD_REFINE=0: decisions from the stored tables alone */
    pthread_mutex_lock(&plan_lock);
    plan_smooth(&plan_info[member].launch_ms, ms);
    pthread_mutex_unlock(&plan_lock);
}

void skmd_plan_flush(void)
{
    pthread_mutex_lock(&plan_lock);
    plan_store_locked();
    pthread_mutex_unlock(&plan_lock);
}
