/* Unit test of libskmd/plan/placement_cycle.c: where a sample of the placement's guard ends
 * (the later of its launch's end and the app's last wait before its next writes; at the
 * launch's end when the app began the next cycle while the launch ran), and which cycles
 * are warm-ups. */
#include "plan/placement_cycle.h"

#include "../common/check.h"

static struct skmd_plan_cycle sample(int run, uint64_t start_ns)
{
    return (struct skmd_plan_cycle){.run = run, .dev = 1, .shape = 7, .buffers = 9,
                                    .start_ns = start_ns};
}

int main(void)
{
    struct skmd_cycle_log log = {0};
    struct skmd_plan_cycle done = {0}, c;

    /* The first cycle ends no sample. */
    CHECK(!skmd_cycle_begin(&log, 100, 0, &done));

    /* A write, launch, blocking read, next write: the sample ends at the read (the app's
     * wait, after the launch's end), with its key. */
    c = sample(1, 100);
    CHECK(!skmd_cycle_launch_ended(&log, &c, 150, &done));
    CHECK(skmd_cycle_begin(&log, 300, 180, &done));
    CHECK(done.run == 1 && done.dev == 1 && done.shape == 7 && done.buffers == 9);
    CHECK(done.start_ns == 100 && done.end_ns == 180);

    /* The app's last wait came before the launch ended (it waited for an earlier
     * command): the launch's end. */
    c = sample(2, 300);
    CHECK(!skmd_cycle_launch_ended(&log, &c, 400, &done));
    CHECK(skmd_cycle_begin(&log, 500, 350, &done));
    CHECK(done.run == 2 && done.start_ns == 300 && done.end_ns == 400);

    /* No wait at all since (an app that never blocks): the launch's end. */
    c = sample(1, 500);
    CHECK(!skmd_cycle_launch_ended(&log, &c, 560, &done));
    CHECK(skmd_cycle_begin(&log, 600, 0, &done));
    CHECK(done.end_ns == 560);

    /* The app began the next cycle while the launch ran: over at the launch's end, and the
     * next cycle ends nothing more. */
    c = sample(2, 600);
    CHECK(skmd_cycle_begin(&log, 650, 0, &done) == 0);
    CHECK(skmd_cycle_launch_ended(&log, &c, 700, &done));
    CHECK(done.run == 2 && done.start_ns == 600 && done.end_ns == 700);
    CHECK(!skmd_cycle_begin(&log, 800, 750, &done));

    /* A cycle with no sample in it ends none. */
    CHECK(!skmd_cycle_begin(&log, 900, 850, &done));

    /* Warm-ups: the first cycle, and each one that runs the other way than the one before
     * it; a cycle run the same way as the one before is a fair sample. */
    struct skmd_cycle_log runs = {0};
    CHECK(skmd_cycle_warmup(&runs, 1));
    CHECK(!skmd_cycle_warmup(&runs, 1));
    CHECK(!skmd_cycle_warmup(&runs, 1));
    CHECK(skmd_cycle_warmup(&runs, 0));
    CHECK(!skmd_cycle_warmup(&runs, 0));
    CHECK(skmd_cycle_warmup(&runs, 1));
    struct skmd_cycle_log unplaced_first = {0};
    CHECK(skmd_cycle_warmup(&unplaced_first, 0));
    CHECK(!skmd_cycle_warmup(&unplaced_first, 0));
    return check_report("test_placement_cycle");
}
