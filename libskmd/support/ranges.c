/* libskmd/support/ranges.c: sorted, merged byte-range sets (see ranges.h). The sets stay
 * small (a few ranges per copy), so plain arrays and linear scans are enough. */
#include <stdlib.h>
#include <string.h>

#include "support/ranges.h"

void skmd_ranges_free(struct skmd_ranges *s)
{
    free(s->r);
    s->r = NULL;
    s->n = s->cap = 0;
}

void skmd_ranges_clear(struct skmd_ranges *s)
{
    s->n = 0;
}

static int reserve(struct skmd_ranges *s, size_t n)
{
    if (n <= s->cap)
        return 0;
    size_t cap = s->cap ? s->cap * 2 : 4;
    while (cap < n)
        cap *= 2;
    struct skmd_range *r = realloc(s->r, cap * sizeof *r);
    if (!r)
        return -1;
    s->r = r;
    s->cap = cap;
    return 0;
}

/* Union with [b, e): the ranges [i, j) that touch it are replaced by one covering them
 * all. */
static void unite(struct skmd_ranges *s, uint64_t b, uint64_t e)
{
    size_t i = 0;
    while (i < s->n && s->r[i].end < b)
        i++;
    size_t j = i;
    while (j < s->n && s->r[j].begin <= e) {
        if (s->r[j].begin < b)
            b = s->r[j].begin;
        if (s->r[j].end > e)
            e = s->r[j].end;
        j++;
    }
    memmove(&s->r[i + 1], &s->r[j], (s->n - j) * sizeof *s->r);
    s->n = s->n - (j - i) + 1;
    s->r[i] = (struct skmd_range){b, e};
}

/* Removes [b, e): a range that holds it whole is split in two. */
static void cut(struct skmd_ranges *s, uint64_t b, uint64_t e)
{
    for (size_t i = 0; i < s->n; i++) {
        struct skmd_range *r = &s->r[i];
        if (r->end <= b || r->begin >= e)
            continue;
        if (r->begin < b && r->end > e) { /* split in two */
            memmove(&s->r[i + 1], &s->r[i], (s->n - i) * sizeof *s->r);
            s->n++;
            s->r[i].end = b;
            s->r[i + 1].begin = e;
            return;
        }
        if (r->begin < b) {
            r->end = b;
        } else if (r->end > e) {
            r->begin = e;
        } else { /* wholly inside: drop it */
            memmove(&s->r[i], &s->r[i + 1], (s->n - i - 1) * sizeof *s->r);
            s->n--;
            i--;
        }
    }
}

/* Changes s by a non-empty [b, e) with room made first for one more range (the most
 * either change adds: a removal may split a range in two), so that the change itself
 * cannot fail. */
static int change(struct skmd_ranges *s, uint64_t b, uint64_t e,
                  void (*apply)(struct skmd_ranges *, uint64_t, uint64_t))
{
    if (b >= e)
        return 0;
    if (reserve(s, s->n + 1) != 0)
        return -1;
    apply(s, b, e);
    return 0;
}

int skmd_ranges_add(struct skmd_ranges *s, uint64_t b, uint64_t e)
{
    return change(s, b, e, unite);
}

int skmd_ranges_remove(struct skmd_ranges *s, uint64_t b, uint64_t e)
{
    return change(s, b, e, cut);
}

int skmd_ranges_covers(const struct skmd_ranges *s, uint64_t b, uint64_t e)
{
    uint64_t at = b;
    struct skmd_range gap;
    return !skmd_ranges_next_gap(s, b, e, &at, &gap);
}

/* Where a scan of [b, ...) goes on from *at: the position (*at, or b), and the first range
 * that ends after it (the ranges are sorted). */
static size_t resume(const struct skmd_ranges *s, uint64_t b, uint64_t at, uint64_t *x)
{
    *x = at > b ? at : b;
    size_t i = 0;
    while (i < s->n && s->r[i].end <= *x)
        i++;
    return i;
}

int skmd_ranges_next_gap(const struct skmd_ranges *s, uint64_t b, uint64_t e, uint64_t *at,
                         struct skmd_range *gap)
{
    uint64_t x;
    for (size_t i = resume(s, b, *at, &x); i < s->n && x < e; i++) {
        if (s->r[i].begin > x) {
            gap->begin = x;
            gap->end = s->r[i].begin < e ? s->r[i].begin : e;
            *at = gap->end;
            return 1;
        }
        x = s->r[i].end;
    }
    if (x >= e)
        return 0;
    *gap = (struct skmd_range){x, e};
    *at = e;
    return 1;
}

int skmd_ranges_next_hit(const struct skmd_ranges *s, uint64_t b, uint64_t e, uint64_t *at,
                         struct skmd_range *hit)
{
    uint64_t x;
    size_t i = resume(s, b, *at, &x);
    if (i == s->n || x >= e)
        return 0;
    hit->begin = s->r[i].begin > x ? s->r[i].begin : x;
    if (hit->begin >= e)
        return 0;
    hit->end = s->r[i].end < e ? s->r[i].end : e;
    *at = hit->end;
    return 1;
}
