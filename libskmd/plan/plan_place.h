/* libskmd/plan/plan_place.h: the app's writes placed or not, and the placement's guard
 * (plan_place.c). Under plan_lock. */
#ifndef SKMD_PLAN_PLACE_H
#define SKMD_PLAN_PLACE_H

#include "plan/placement.h"
#include "plan/plan_state.h"

int plan_place_inputs(const struct skmd_plan_request *r, struct entry *e,
                      const struct residency *resident, double app_part, int always,
                      uint64_t *place);
int plan_place_measured(const struct skmd_plan_request *r, struct entry *e,
                        const struct skmd_part_key *key);
void plan_cycle_sample(struct entry *e, const struct skmd_part_key *key,
                       const struct skmd_placement_since *since, struct skmd_plan_ticket *t);
int plan_unplaced_sample_member(const struct skmd_plan_request *r, struct entry *e,
                                const struct skmd_part_key *placed_key);
void plan_cycle_launch_ended(const struct skmd_plan_ticket *t);

#endif
