/* libskmd/plan/plan_cold.h: the shares that measure (sweep steps, cold-start and idle
 * probes), by partitioner/'s rules, with their logs (plan_cold.c). Under plan_lock. */
#ifndef SKMD_PLAN_COLD_H
#define SKMD_PLAN_COLD_H

#include "plan/plan_state.h"

int plan_sweep(const struct skmd_plan_request *r, const struct entry *e, uint64_t s,
               uint64_t *count);
int plan_cold_start(const struct skmd_plan_request *r, struct entry *e,
                    const struct residency *resident, const unsigned char *measured,
                    int learn, uint64_t *count);
void plan_probe_idle(const struct skmd_plan_request *r, struct entry *e, uint64_t *count,
                     struct skmd_plan_ticket *t);

#endif
