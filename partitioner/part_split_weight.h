/* Internal: turning a policy's weights into whole work-group counts. */
#ifndef SKMD_PART_SPLIT_WEIGHT_H
#define SKMD_PART_SPLIT_WEIGHT_H

#include "skmd_part.h"

#include <stdint.h>

/* Splits total in proportion to weight[] (largest-remainder rounding); devices of weight 0
 * get nothing; all weights 0 gives everything to device 0. */
void part_split_by_weight(uint64_t total, int ndev, const double *weight, uint64_t *count);

#endif
