/* libskmd/plan/share.h: the fixed share rule: SKMD_SPLIT's fractions (one per member,
 * normalised over the members that can take a share), else equal shares. plan.c uses it
 * for SKMD_SPLIT and SKMD_POLICY=equal; the partitioner decides otherwise. */
#ifndef SKMD_SHARE_H
#define SKMD_SHARE_H

#include <stdint.h>

/* count[m] for every member m (0 where eligible[m] is 0); the counts sum to ngroups and
 * each member's groups are one contiguous range, in member order. Returns the number of
 * members with a share. */
int skmd_shares(uint64_t ngroups, int nmembers, const unsigned char *eligible,
                uint64_t *count);

#endif
