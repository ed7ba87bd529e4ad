/* libskmd/plan/plan_store.c: what the partitioner learnt, written back to the profile
 * database: tables, finish offsets, link curves, the host's rates and the guard states.
 * Every SKMD_PROFILE_FLUSH launches observed, on skmd_plan_flush (plan_observe.c) and at
 * exit (plan_setup.c). */
#include "plan/plan_entries.h"
#include "plan/plan_links.h"
#include "plan/plan_state.h"
#include "plan/plan_store.h"

/* Launches observed since the last write-back (SKMD_PROFILE_FLUSH). */
static uint64_t launches_since_flush;

/* Under plan_lock: every dirty table and link curve to the database. */
void plan_store_locked(void)
{
    launches_since_flush = 0;
    if (!plan_db)
        return;
    for (int m = 0; m < skmd_state.nmembers; m++)
        for (int dir = 0; dir < 2; dir++)
            for (int mem = 0; mem < 2; mem++)
                if (plan_info[m].link_dirty[dir][mem] && plan_info[m].db_id >= 0) {
                    plan_info[m].link_dirty[dir][mem] = 0;
                    plan_store_link(m, dir, mem);
                }
    plan_entries_store();
    int64_t ids[SKMD_MAX_MEMBERS];
    struct skmd_plan_guard_members members = plan_guard_members(ids);
    plan_store_host_rates(&members);
    skmd_plan_guard_store(plan_db, &members, plan_cache);
}

/* Under plan_lock: one more launch observed; every SKMD_PROFILE_FLUSH launches, what was
 * learnt goes to the database. */
void plan_store_after_launch(void)
{
    int every = plan_settings()->flush_every;
    if (every > 0 && ++launches_since_flush >= (uint64_t)every)
        plan_store_locked();
}
