/* Internal: the partitioning policies behind skmd_part_decide(). */
#ifndef SKMD_PART_POLICIES_H
#define SKMD_PART_POLICIES_H

#include "part_model.h"
#include "part_split_weight.h"

/* Algorithm 1; paper_only: exactly as published (single start, one-step descent). */
int part_decide_skmd(const struct part_model *m, uint64_t total, int paper_only,
                     struct skmd_part_result *out);

#endif
