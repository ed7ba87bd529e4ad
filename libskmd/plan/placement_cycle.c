/* libskmd/plan/placement_cycle.c: when a sample of the placement's guard is over (see
 * placement_cycle.h). */
#include "plan/placement_cycle.h"

int skmd_cycle_begin(struct skmd_cycle_log *log, uint64_t wrote_ns, uint64_t waited_ns,
                     struct skmd_plan_cycle *done)
{
    int over = log->ended.run && wrote_ns > log->ended.start_ns;
    if (over) {
        *done = log->ended;
        if (waited_ns > done->end_ns)
            done->end_ns = waited_ns; /* the app read what the launches in between wrote */
    }
    log->ended.run = 0;
    log->begun_ns = wrote_ns;
    return over;
}

int skmd_cycle_launch_ended(struct skmd_cycle_log *log, const struct skmd_plan_cycle *c,
                            uint64_t now_ns, struct skmd_plan_cycle *done)
{
    struct skmd_plan_cycle ended = *c;
    ended.end_ns = now_ns;
    if (log->begun_ns > c->start_ns) {
        *done = ended;
        return 1;
    }
    log->ended = ended;
    return 0;
}

int skmd_cycle_warmup(struct skmd_cycle_log *log, int placed)
{
    int warm = log->last_placed != placed + 1;
    log->last_placed = placed + 1;
    return warm;
}
