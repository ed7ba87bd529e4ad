/* Unit test of libskmd/plan/host_busy.c: the time a transfer window shared with shares on the
 * host's cores, from the recent shares' intervals (overlapping ones counted once, a share
 * still running up to the window's end, a stale id leaving a later share alone). */
#include "plan/host_busy.h"

#include <math.h>

#include "../common/check.h"
#include "support/clock.h"

#define MS 1000000ull

static int near(double got, double want) { return fabs(got - want) < 0.01; }

int main(void)
{
    uint64_t t0 = skmd_now_ns(); /* shares end after it: they cover up to t0 */
    CHECK(near(skmd_host_busy_ms(0, t0), 0.0)); /* nothing ran yet */
    unsigned a = skmd_host_busy_begin(t0 - 900 * MS);
    CHECK(near(skmd_host_busy_ms(t0 - 950 * MS, t0 - 850 * MS), 50.0));
    unsigned b = skmd_host_busy_begin(t0 - 880 * MS);
    skmd_host_busy_end(a);
    CHECK(near(skmd_host_busy_ms(t0 - 950 * MS, t0 - 850 * MS), 50.0)); /* a and b: once */
    CHECK(near(skmd_host_busy_ms(t0 - 1000 * MS, t0 - 900 * MS), 0.0));  /* before both */
    skmd_host_busy_end(b);
    CHECK(near(skmd_host_busy_ms(t0 - 890 * MS, t0 - 870 * MS), 20.0));
    /* A window in the future: ended shares cover none of it, a running one all of it. */
    uint64_t later = skmd_now_ns() + 1000 * MS;
    unsigned running = skmd_host_busy_begin(t0);
    CHECK(near(skmd_host_busy_ms(later, later + 100 * MS), 100.0));
    /* More shares than the ring holds, then one running in the slot of an id long gone:
     * that id's end must leave it running. */
    for (int i = 0; i < 40; i++)
        skmd_host_busy_end(skmd_host_busy_begin(t0));
    skmd_host_busy_end(running);
    CHECK(near(skmd_host_busy_ms(later, later + 100 * MS), 0.0));
    unsigned last = skmd_host_busy_begin(t0);
    skmd_host_busy_end(last - 32);
    CHECK(near(skmd_host_busy_ms(later, later + 100 * MS), 100.0));
    skmd_host_busy_end(last);
    CHECK(near(skmd_host_busy_ms(later, later + 100 * MS), 0.0));
    return check_report("test_host_busy");
}
