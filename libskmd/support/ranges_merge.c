/* libskmd/support/ranges_merge.c: union and difference of two sorted, merged range sets in
 * one pass over both (see ranges_merge.h). */
#include <stdlib.h>

#include "support/ranges_merge.h"

/* Appends [b, e) to out (room known), joining it to the last range when they touch. */
static void put(struct skmd_ranges *out, uint64_t b, uint64_t e)
{
    if (b >= e)
        return;
    if (out->n && out->r[out->n - 1].end >= b) {
        if (e > out->r[out->n - 1].end)
            out->r[out->n - 1].end = e;
        return;
    }
    out->r[out->n++] = (struct skmd_range){b, e};
}

/* Replaces s's ranges with out's. */
static void take(struct skmd_ranges *s, struct skmd_ranges *out)
{
    free(s->r);
    *s = *out;
}

int skmd_ranges_union(struct skmd_ranges *s, const struct skmd_ranges *add)
{
    struct skmd_ranges out = {0, s->n + add->n, NULL};
    if (!add->n)
        return 0;
    if (!(out.r = malloc(out.cap * sizeof *out.r)))
        return -1;
    size_t i = 0, j = 0;
    while (i < s->n || j < add->n) {
        int from_s = j == add->n || (i < s->n && s->r[i].begin <= add->r[j].begin);
        const struct skmd_range *r = from_s ? &s->r[i++] : &add->r[j++];
        put(&out, r->begin, r->end);
    }
    take(s, &out);
    return 0;
}

int skmd_ranges_subtract(struct skmd_ranges *s, const struct skmd_ranges *sub)
{
    if (!s->n || !sub->n)
        return 0;
    /* every range of sub splits at most one range of s in two */
    struct skmd_ranges out = {0, s->n + sub->n, NULL};
    if (!(out.r = malloc(out.cap * sizeof *out.r)))
        return -1;
    size_t j = 0;
    for (size_t i = 0; i < s->n; i++) {
        uint64_t b = s->r[i].begin, e = s->r[i].end;
        while (j < sub->n && sub->r[j].end <= b)
            j++;
        /* the pieces of [b, e) between the ranges of sub that meet it */
        for (size_t k = j; k < sub->n && sub->r[k].begin < e; k++) {
            put(&out, b, sub->r[k].begin < e ? sub->r[k].begin : e);
            if (sub->r[k].end > b)
                b = sub->r[k].end;
        }
        put(&out, b, e);
    }
    take(s, &out);
    return 0;
}
