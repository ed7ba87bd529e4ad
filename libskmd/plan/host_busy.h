/* libskmd/plan/host_busy.h: when shares run on the host's own cores (a CPU member's
 * kernel), so that the host's rate for the transfer engine's copies is learnt apart for the
 * times those cores are taken (plan.c: the partitioner's host_busy_bytes_per_ms). */
#ifndef SKMD_HOST_BUSY_H
#define SKMD_HOST_BUSY_H

#include <stdint.h>

/* A share on the host's cores started at since_ns; returns the id to end it with. */
unsigned skmd_host_busy_begin(uint64_t since_ns);
/* That share is done. */
void skmd_host_busy_end(unsigned id);
/* Milliseconds of [start_ns, end_ns) (skmd_now_ns's clock) in which at least one
 * such share ran, as far as the recent ones tell. */
double skmd_host_busy_ms(uint64_t start_ns, uint64_t end_ns);

#endif
