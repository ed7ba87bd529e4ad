/* libskmd/plan/plan_memo.h: the partitioner's decision kept for the launches after it
 * (plan_memo.c; struct plan_memo is plan_state.h's, kept in each entry). Under plan_lock. */
#ifndef SKMD_PLAN_MEMO_H
#define SKMD_PLAN_MEMO_H

#include "plan/plan_state.h"

int plan_memo_take(struct plan_memo *memo, const struct skmd_plan_request *r,
                   const struct skmd_part_key *key, const struct residency *resident,
                   struct skmd_part_result *res, int *map, int *n);
void plan_memo_keep(struct plan_memo *memo, const struct skmd_plan_request *r,
                    const struct skmd_part_key *key, const struct residency *resident,
                    const struct skmd_part_result *res, const int *map, int n);
void plan_memo_note_keep(struct plan_memo *memo, const struct skmd_plan_ticket *t);
void plan_memo_note_take(const struct plan_memo *memo, struct skmd_plan_ticket *t);
void plan_memo_drop(struct plan_memo *memo);
void plan_memo_table_moved(struct plan_memo *memo, double was, double now);

#endif
