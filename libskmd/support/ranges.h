/* libskmd/support/ranges.h: a small set of byte ranges [begin, end), kept sorted and
 * merged. Used per buffer and per copy (host, each member) to say which bytes are current.
 */
#ifndef SKMD_RANGES_H
#define SKMD_RANGES_H

#include <stddef.h>
#include <stdint.h>

struct skmd_range {
    uint64_t begin, end;
};

struct skmd_ranges {
    size_t n, cap;
    struct skmd_range *r;
};

void skmd_ranges_free(struct skmd_ranges *s);
void skmd_ranges_clear(struct skmd_ranges *s);
/* Union with [b, e). Returns 0, or -1 when out of memory (the set is then unchanged). */
int skmd_ranges_add(struct skmd_ranges *s, uint64_t b, uint64_t e);
/* Removes [b, e). Returns 0, or -1 when out of memory. */
int skmd_ranges_remove(struct skmd_ranges *s, uint64_t b, uint64_t e);
/* The first part of [b, e) that is NOT in s, from position *at on: returns 1 and the gap in
 * *gap (then *at = gap->end), or 0 when there is none left. Start with *at = b. */
int skmd_ranges_next_gap(const struct skmd_ranges *s, uint64_t b, uint64_t e, uint64_t *at,
                         struct skmd_range *gap);
/* Whether every byte of [b, e) is in s. */
int skmd_ranges_covers(const struct skmd_ranges *s, uint64_t b, uint64_t e);
/* The first part of [b, e) that IS in s, from *at on; same protocol. */
int skmd_ranges_next_hit(const struct skmd_ranges *s, uint64_t b, uint64_t e, uint64_t *at,
                         struct skmd_range *hit);

#endif
