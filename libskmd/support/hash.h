/* libskmd/support/hash.h: the 64-bit FNV-1a hash libskmd keys launches with (plan.c's
 * decision and guard keys, launch_memo.c's answers) and spreads eventspan.c's span events
 * over buckets. */
#ifndef SKMD_HASH_H
#define SKMD_HASH_H

#include <stddef.h>
#include <stdint.h>

#define SKMD_FNV_BASIS 1469598103934665603ULL

/* h with the n bytes at p mixed in (start from SKMD_FNV_BASIS). */
static inline uint64_t skmd_fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}

#endif
