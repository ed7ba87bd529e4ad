/* Internal: the partitioning policies behind skmd_part_decide(). */
#ifndef SKMD_PART_POLICIES_H
#define SKMD_PART_POLICIES_H

#include "part_model.h"

/* Algorithm 1; paper_only: exactly as published (single start, one-step descent). */
int part_decide_skmd(const struct part_model *m, uint64_t total, int paper_only,
                     struct skmd_part_result *out);
/* Splits total in proportion to weight[] (largest-remainder rounding); devices of weight 0
 * get nothing; all weights 0 gives everything to device 0. */
void part_split_by_weight(uint64_t total, int ndev, const double *weight, uint64_t *count);

#endif
