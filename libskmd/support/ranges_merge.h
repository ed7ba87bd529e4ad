/* libskmd/support/ranges_merge.h: whole-set operations on byte-range sets (ranges.h),
 * linear in the sizes of both sets: a share's box of many rows is added to or taken from a
 * copy's set at once, where one skmd_ranges_add per row would cost the set's size each. */
#ifndef SKMD_RANGES_MERGE_H
#define SKMD_RANGES_MERGE_H

#include "support/ranges.h"

/* s = s | add. 0, or -1 when out of memory (s unchanged). */
int skmd_ranges_union(struct skmd_ranges *s, const struct skmd_ranges *add);
/* s = s - sub. 0, or -1 when out of memory (s unchanged). */
int skmd_ranges_subtract(struct skmd_ranges *s, const struct skmd_ranges *sub);

#endif
