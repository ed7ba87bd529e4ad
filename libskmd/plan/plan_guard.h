/* libskmd/plan/plan_guard.h: the measured guard on a decision that splits (plan_guard.c).
 * Under plan_lock. */
#ifndef SKMD_PLAN_GUARD_H
#define SKMD_PLAN_GUARD_H

#include "plan/plan_state.h"

void plan_guard_split(const struct skmd_plan_request *r, struct entry *e,
                      const struct residency *resident, uint64_t *count,
                      struct skmd_plan_ticket *t);
void plan_guard_observe(const struct skmd_plan_ticket *t, double ms);
void plan_guard_report(void);

#endif
