/* libskmd/plan/plan_guard_store.h: the measured guard's state of each decision-cache entry
 * kept in the profile database, so that a later process starts from its verdict
 * (plan_guard_store.c). Called by plan_guard.c, plan_place.c and plan_observe.c (the
 * write-back) under plan_lock. */
#ifndef SKMD_PLAN_GUARD_STORE_H
#define SKMD_PLAN_GUARD_STORE_H

#include <stdint.h>

#include "../../partitioner/skmd_part.h"
#include "../../profiledb/skmd_profiledb.h"

/* A stored state older than this is ignored: the machine, its load or its drivers may
 * have changed since. */
#define SKMD_PLAN_GUARD_MAX_AGE_S (7 * 86400)

/* The members' database ids, in member order: ids[m] of member m (n members), and the
 * policy whose splits the guard judges (a state is kept per policy). */
struct skmd_plan_guard_members {
    const int64_t *ids;
    int n;
    const char *policy;
};

/* The first time this process meets `key`'s guard g (just made by the decision cache):
 * a state stored for the same key and the same member devices, not older than
 * SKMD_PLAN_GUARD_MAX_AGE_S, replaces g's (logged, with `name`). Later calls for the key
 * do nothing. Returns 1 when a stored state was taken. */
int skmd_plan_guard_meet(struct skmd_pdb *db, const struct skmd_plan_guard_members *members,
                         const struct skmd_part_key *key, uint32_t shape, const char *name,
                         struct skmd_part_guard *g);

/* Writes the guard of every key met that changed since it was read or last written. */
void skmd_plan_guard_store(struct skmd_pdb *db, const struct skmd_plan_guard_members *members,
                           struct skmd_part_cache *cache);

/* Forgets the keys met (at exit, after the last store). */
void skmd_plan_guard_forget(void);

#endif
