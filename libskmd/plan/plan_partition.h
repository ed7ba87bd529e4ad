/* libskmd/plan/plan_partition.h: the partitioner called on a launch's problem, and the
 * launch's decision-cache key (plan_partition.c). Under plan_lock. */
#ifndef SKMD_PLAN_PARTITION_H
#define SKMD_PLAN_PARTITION_H

#include "plan/plan_state.h"

/* Marks the key of a launch's placement guard apart from the launch's own (plan_key_of). */
#define PLAN_KEY_PLACED 0x9E3779B97F4A7C15ull

void plan_key_of(const struct skmd_plan_request *r, uint64_t kernel, int placed,
                 struct skmd_part_key *key);
int plan_partition(const struct skmd_plan_request *r, struct entry *e,
                   const struct residency *resident, int use_cache,
                   struct skmd_part_result *res, int *map, int *n);

#endif
