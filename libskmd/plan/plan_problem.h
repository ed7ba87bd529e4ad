/* libskmd/plan/plan_problem.h: the partitioner's problem from the runtime's state
 * (plan_problem.c). */
#ifndef SKMD_PLAN_PROBLEM_H
#define SKMD_PLAN_PROBLEM_H

#include "plan/plan_state.h"

/* These three need no plan_lock (the request alone); plan_resident_inputs takes each
 * buffer's lock, so it is called before plan_lock is taken: */
void plan_share_bytes(const struct skmd_plan_request *r, uint64_t first, uint64_t count,
                      double *in, double *out, int *exact);
void plan_resident_inputs(const struct skmd_plan_request *r, struct residency *where);
int plan_pieces_allowed(const struct skmd_plan_request *r);
/* Under plan_lock: */
int plan_build_problem(const struct skmd_plan_request *r, const struct entry *e,
                       const struct residency *resident, struct skmd_part_device *dev,
                       int *map, struct skmd_part_problem *p);
void plan_predict(const struct skmd_plan_request *r, struct entry *e);

#endif
