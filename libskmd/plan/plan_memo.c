/* libskmd/plan/plan_memo.c: the partitioner's last decision for an entry, kept for the
 * launches after it that ask the same (see plan_state.h's struct plan_memo): taken
 * instead of a new decision while it holds, ended when the request, the inputs' places or a
 * table move, or when a launch runs split. Under plan_lock, as the entry it belongs to. */
#include <string.h>

#include "support/hash.h"
#include "plan/plan_memo.h"
#include "plan/plan_state.h"

/* How many launches a decision serves, and when it ends, is partitioner/'s rule
 * (skmd_part_reuse_*): here, what "asks the same" means (its decision-cache key, its
 * arguments, the inputs' places) and what is kept with the decision. */

static uint64_t memo_request(const struct skmd_plan_request *r)
{
    uint64_t h = skmd_fnv(SKMD_FNV_BASIS, &r->exec_member, sizeof r->exec_member);
    h = skmd_fnv(h, &r->unit, sizeof r->unit);
    h = skmd_fnv(h, &r->merge_probe, sizeof r->merge_probe);
    /* Which buffers does not matter beyond their sizes (the key) and places (the
     * residency): jacobi_2d's two grids take turns as input and output. */
    for (unsigned p = 0; r->scalars && p < r->rec->nparams; p++)
        h = skmd_fnv(h, &r->scalars[p], sizeof r->scalars[p]);
    return h;
}

static int same_residency(const struct residency *a, const struct residency *b)
{
    if (a->pieces != b->pieces || a->placed != b->placed)
        return 0;
    for (int m = 0; m < skmd_state.nmembers; m++)
        if (a->in[m] != b->in[m] || a->remote[m] != b->remote[m] || a->from[m] != b->from[m])
            return 0;
    return 1;
}

/* The kept decision when this launch (its decision-cache key: key) asks what it was made
 * for. */
int plan_memo_take(struct plan_memo *memo, const struct skmd_plan_request *r,
                   const struct skmd_part_key *key, const struct residency *resident,
                   struct skmd_part_result *res, int *map, int *n)
{
    int same = memo->left > 0 && key->shape == memo->key.shape &&
               key->buffers == memo->key.buffers && memo_request(r) == memo->request &&
               same_residency(resident, &memo->where);
    if (!skmd_part_reuse_take(&memo->left, same))
        return 0;
    *res = memo->res;
    memcpy(map, memo->map, sizeof memo->map);
    *n = memo->n;
    return 1;
}

/* Keeps the partitioner's decision for the launches after this one (decide drops it
 * again when this one runs split). */
void plan_memo_keep(struct plan_memo *memo, const struct skmd_plan_request *r,
                    const struct skmd_part_key *key, const struct residency *resident,
                    const struct skmd_part_result *res, const int *map, int n)
{
    memo->key = *key;
    memo->request = memo_request(r);
    memo->where = *resident;
    memo->res = *res;
    memcpy(memo->map, map, sizeof memo->map);
    memo->n = n;
    skmd_part_reuse_keep(&memo->left);
}

/* The kept decision's estimates are this launch's reason too. */
void plan_memo_note_keep(struct plan_memo *memo, const struct skmd_plan_ticket *t)
{
    memo->est_whole_ms = t->est_whole_ms;
    memo->est_split_ms = t->est_split_ms;
    memo->est_whole_member = t->est_whole_member;
    memcpy(memo->est_alone_ms, t->est_alone_ms, sizeof memo->est_alone_ms);
}

void plan_memo_note_take(const struct plan_memo *memo, struct skmd_plan_ticket *t)
{
    t->est_whole_ms = memo->est_whole_ms;
    t->est_split_ms = memo->est_split_ms;
    t->est_whole_member = memo->est_whole_member;
    memcpy(t->est_alone_ms, memo->est_alone_ms, sizeof t->est_alone_ms);
}

/* A launch runs split: the next split is decided anew. */
void plan_memo_drop(struct plan_memo *memo)
{
    skmd_part_reuse_end(&memo->left);
}

/* A measured share moved a member's table from rate `was` to `now` at the share's size:
 * beyond the drift, the model moved: decide anew (plan_memo_take). */
void plan_memo_table_moved(struct plan_memo *memo, double was, double now)
{
    skmd_part_reuse_moved(&memo->left, was, now);
}
