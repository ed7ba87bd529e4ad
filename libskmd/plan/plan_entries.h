/* libskmd/plan/plan_entries.h: the entries per (kernel, shape class), and a launch with its
 * entry's tables as partitioner/'s launch policy sees it (skmd_part_launch.h)
 * (plan_entries.c). Under plan_lock. */
#ifndef SKMD_PLAN_ENTRIES_H
#define SKMD_PLAN_ENTRIES_H

#include "plan/plan_state.h"

/* The profile database's shape class of the request's launch (its entries' key). */
uint32_t plan_shape_class(const struct skmd_plan_request *r);
struct entry *plan_entry_find(uint64_t kernel, uint32_t shape);
struct entry *plan_entry_for(uint64_t kernel, uint32_t shape, const char *name);
void plan_entries_store(void);
void plan_entries_free(void);
struct skmd_part_launch plan_launch_of(const struct skmd_plan_request *r,
                                       const struct entry *e);

#endif
