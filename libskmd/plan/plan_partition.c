/* libskmd/plan/plan_partition.c: the partitioner called on a launch's problem (built by
 * plan_problem.c): the decision-cache key of the launch, and the partitioner's decision,
 * from the cache or anew, a new one logged in the profile database. The decision, the
 * guard, the cold start and the placement all ask it. */
#include "support/hash.h"
#include "plan/plan_partition.h"
#include "plan/plan_problem.h"
#include "plan/plan_state.h"
#include "plan/share_align.h"

/* A launch's decision-cache key; with placed, the key of its placement's guard
 * (plan_place_measured), apart from the launch's own. */
void plan_key_of(const struct skmd_plan_request *r, uint64_t kernel, int placed,
                   struct skmd_part_key *key)
{
    key->kernel = kernel;
    uint64_t h0 = skmd_fnv(SKMD_FNV_BASIS, &r->shape->work_dim, sizeof r->shape->work_dim);
    h0 = skmd_fnv(h0, r->shape->global_offset, sizeof r->shape->global_offset);
    h0 = skmd_fnv(h0, r->shape->global_size, sizeof r->shape->global_size);
    key->shape = skmd_fnv(h0, r->shape->local_size, sizeof r->shape->local_size);
    uint64_t h = skmd_fnv(SKMD_FNV_BASIS, r->eligible, (size_t)skmd_state.nmembers);
    for (unsigned p = 0; p < r->rec->nparams; p++)
        if (r->args[p].mem)
            h = skmd_fnv(h, &r->args[p].mem->size, sizeof r->args[p].mem->size);
    key->buffers = placed ? h ^ PLAN_KEY_PLACED : h;
}

/* Under plan_lock: the partitioner's decision over the members of r->eligible for
 * r->total_groups work-groups (dev[i] is member map[i]). */
int plan_partition(const struct skmd_plan_request *r, struct entry *e,
                   const struct residency *resident, int use_cache,
                   struct skmd_part_result *res, int *map, int *n)
{
    enum skmd_part_policy policy = plan_policy();
    struct skmd_part_device dev[SKMD_MAX_MEMBERS];
    struct skmd_part_problem p;
    *n = plan_build_problem(r, e, resident, dev, map, &p);
    if (*n <= 0)
        return SKMD_PART_EINVAL;
    /* Shares of whole rows: the problem in units of rows (share_align.h). */
    uint64_t unit = skmd_share_scale_problem(&p, dev, r->unit) ? r->unit : 1;
    if (!use_cache || !plan_cache) {
        int status = skmd_part_decide(&p, policy, res);
        skmd_share_unscale_result(res, unit);
        return status;
    }
    struct skmd_part_key key;
    int replaced = 0;
    plan_key_of(r, e->kernel, 0, &key);
    int status = skmd_part_cache_decide(plan_cache, &key, &p, policy,
                                        res, &replaced);
    skmd_share_unscale_result(res, unit);
    if (status == SKMD_PART_OK && replaced && plan_db) {
        int64_t ids[SKMD_MAX_MEMBERS];
        for (int i = 0; i < *n; i++)
            ids[i] = plan_info[map[i]].db_id;
        struct skmd_pdb_decision d = {e->kernel, e->shape,
                                      skmd_part_policy_name(policy),
                                      r->total_groups, *n, ids, res->count, res->overall_ms,
                                      "new decision"};
        skmd_pdb_log_decision(plan_db, &d);
    }
    return status;
}
