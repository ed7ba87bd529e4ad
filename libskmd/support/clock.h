/* libskmd/support/clock.h: the one clock libskmd times things with (CLOCK_MONOTONIC, in
 * ns): the trace's spans, the engine's link timings and landing times, the copy threads'
 * spins. */
#ifndef SKMD_CLOCK_H
#define SKMD_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t skmd_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
