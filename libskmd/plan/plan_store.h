/* libskmd/plan/plan_store.h: what the partitioner learnt, written back to the profile
 * database (plan_store.c). Under plan_lock. */
#ifndef SKMD_PLAN_STORE_H
#define SKMD_PLAN_STORE_H


/* Every dirty table and link curve, the host's rates and the guard states, now. */
void plan_store_locked(void);
/* One more launch observed; every SKMD_PROFILE_FLUSH launches, plan_store_locked. */
void plan_store_after_launch(void);

#endif
