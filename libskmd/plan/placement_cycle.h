/* libskmd/plan/placement_cycle.h: when a sample of the placement's guard (plan.c
 * place_measured) is over.
 *
 * A cycle begins when the app first writes a launch's inputs since a launch read them.
 * The sampled launch's cycle ends at the later of the launch's end and the app's last
 * wait (a blocking read or map, clFinish, clWaitForEvents) before it writes the inputs
 * again: so the launches and reads in between, which take what the placed launch wrote,
 * count, and the app's own time before its next writes does not. Which one of the two
 * comes last is known only at the later of them: the next cycle's first launch, or the
 * launch's end when the app began the next cycle while the launch still ran. No OpenCL,
 * no lock: plan.c calls these under its own. */
#ifndef SKMD_PLACEMENT_CYCLE_H
#define SKMD_PLACEMENT_CYCLE_H

#include <stdint.h>

/* A sample of the placement's guard: its run + 1 (0: none), the member of an unplaced
 * sample, its key's shape and buffers, when the app began writing the launch's inputs,
 * and when it ended (0: not yet). */
struct skmd_plan_cycle {
    int run;
    int dev;
    uint64_t shape, buffers;
    uint64_t start_ns, end_ns;
};

/* One kernel's cycles: a sample whose launch has ended and waits for the next cycle
 * (run 0: none), when the latest cycle began, and whether it was placed (placed + 1; 0:
 * none yet). Zeroed: none yet. */
struct skmd_cycle_log {
    struct skmd_plan_cycle ended;
    uint64_t begun_ns;
    int last_placed;
};

/* A cycle begins: the app began writing the inputs at wrote_ns (nonzero), its last wait
 * before that at waited_ns (0: none). Returns 1 when that ends the sample waiting in the
 * log: *done is it, with its end. */
int skmd_cycle_begin(struct skmd_cycle_log *log, uint64_t wrote_ns, uint64_t waited_ns,
                     struct skmd_plan_cycle *done);

/* The launch of sample c ended at now_ns. Returns 1 when the sample is over already (the
 * next cycle began while it ran): *done is it, with its end; otherwise it waits in the
 * log for the next cycle. */
int skmd_cycle_launch_ended(struct skmd_cycle_log *log, const struct skmd_plan_cycle *c,
                            uint64_t now_ns, struct skmd_plan_cycle *done);

/* The cycle that begins runs placed (1) or not (0). Returns 1 when it is a warm-up, not a
 * fair sample: the cycle before it ran the other way (or none is known), and this one
 * first pays for moving what that one left behind (a placed split's outputs spread over
 * its members, which a whole run gathers; a whole run's buffers on one member, which a
 * placed split's shares fetch). The guard's sample is then the next cycle, run the same
 * way. */
int skmd_cycle_warmup(struct skmd_cycle_log *log, int placed);

#endif
