/* libskmd/plan/plan_alone.c: what the plan can say about a launch before its members are
 * chosen: whether its policy wants every member, and its measured time whole on one
 * member (the bring-up's trigger: cl/bring_up.h). */
#include "plan/plan.h"
#include "plan/plan_entries.h"
#include "plan/plan_setup.h"
#include "plan/plan_state.h"

int skmd_plan_wants_every_member(void)
{
    const struct plan_settings *set = plan_settings();
    if (set->single)
        return 0;
    plan_setup();
    enum skmd_part_policy policy = plan_policy();
    return set->forced || set->sweep || policy == SKMD_PART_POLICY_EQUAL ||
           policy == SKMD_PART_POLICY_LINEAR;
}

double skmd_plan_alone_ms(const struct skmd_plan_request *r, int member)
{
    plan_setup();
    uint32_t shape = plan_shape_class(r);
    double ms = -1;
    pthread_mutex_lock(&plan_lock);
    struct entry *e = plan_entry_for(r->kernel->profile_key, shape, r->kernel->name);
    if (e && skmd_part_table_measured(&e->table[member])) {
        double rate = skmd_part_rate(&e->table[member], r->total_groups);
        if (rate > 0)
            ms = (double)r->total_groups / rate;
    }
    pthread_mutex_unlock(&plan_lock);
    return ms;
}
