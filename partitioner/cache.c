/* Decision cache per launch key, with hysteresis so that shares do not oscillate. */
#include "skmd_part.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct entry {
    struct skmd_part_key key;
    int used;
    struct skmd_part_result result;
    struct skmd_part_guard guard; /* measured split vs whole, kept across new decisions */
};

struct skmd_part_cache {
    double hysteresis;
    size_t used, cap; /* cap is a power of two; open addressing with linear probing */
    struct entry *slots;
};

static uint64_t key_hash(const struct skmd_part_key *k)
{
    uint64_t h = k->kernel * 0x9E3779B97F4A7C15ull;
    h ^= (k->shape + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
    h ^= (k->buffers + 0x85EBCA77C2B2AE63ull) * 0x165667B19E3779F9ull;
    return h ^ (h >> 29);
}

static int same_key(const struct skmd_part_key *a, const struct skmd_part_key *b)
{
    return a->kernel == b->kernel && a->shape == b->shape && a->buffers == b->buffers;
}

struct skmd_part_cache *skmd_part_cache_new(double hysteresis)
{
    if (!isfinite(hysteresis) || hysteresis < 0.0 || hysteresis >= 1.0)
        return NULL;
    struct skmd_part_cache *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->hysteresis = hysteresis;
    c->cap = 16;
    c->slots = calloc(c->cap, sizeof(c->slots[0]));
    if (!c->slots) {
        free(c);
        return NULL;
    }
    return c;
}

void skmd_part_cache_free(struct skmd_part_cache *c)
{
    if (!c)
        return;
    free(c->slots);
    free(c);
}

size_t skmd_part_cache_size(const struct skmd_part_cache *c) { return c ? c->used : 0; }

static struct entry *find_slot(struct entry *slots, size_t cap, const struct skmd_part_key *k)
{
    size_t i = (size_t)key_hash(k) & (cap - 1);
    while (slots[i].used && !same_key(&slots[i].key, k))
        i = (i + 1) & (cap - 1);
    return &slots[i];
}

static int grow(struct skmd_part_cache *c)
{
    size_t cap = c->cap * 2;
    struct entry *slots = calloc(cap, sizeof(slots[0]));
    if (!slots)
        return -1;
    for (size_t i = 0; i < c->cap; i++)
        if (c->slots[i].used)
            *find_slot(slots, cap, &c->slots[i].key) = c->slots[i];
    free(c->slots);
    c->slots = slots;
    c->cap = cap;
    return 0;
}

int skmd_part_cache_decide(struct skmd_part_cache *c, const struct skmd_part_key *key,
                           const struct skmd_part_problem *p, enum skmd_part_policy policy,
                           struct skmd_part_result *out, int *replaced)
{
    if (replaced)
        *replaced = 0;
    if (!c || !key || !out)
        return SKMD_PART_EINVAL;
    int status = skmd_part_decide(p, policy, out);
    if (status != SKMD_PART_OK)
        return status;
    struct entry *e = find_slot(c->slots, c->cap, key);
    if (e->used && e->result.ndev == out->ndev) {
        uint64_t total = 0;
        for (int d = 0; d < e->result.ndev; d++)
            total += e->result.count[d];
        if (total == p->total_wg) {
            /* Both decisions judged with today's tables. */
            double kept = skmd_part_estimate(p, e->result.count, e->result.est_ms);
            e->result.overall_ms = kept;
            if (!(out->overall_ms < kept * (1.0 - c->hysteresis)) &&
                !skmd_part_rebalances(&e->result, out)) {
                *out = e->result;
                return SKMD_PART_OK;
            }
        }
    }
    if (!e->used) {
        if ((c->used + 1) * 10 > c->cap * 7) {
            if (grow(c) != 0) {
                if (replaced)
                    *replaced = 1;
                return SKMD_PART_OK; /* out of memory: decide without caching */
            }
            e = find_slot(c->slots, c->cap, key);
        }
        c->used++;
        skmd_part_guard_init(&e->guard);
    }
    e->key = *key;
    e->used = 1;
    e->result = *out;
    if (replaced)
        *replaced = 1;
    return SKMD_PART_OK;
}

struct skmd_part_guard *skmd_part_cache_guard(struct skmd_part_cache *c,
                                              const struct skmd_part_key *key)
{
    if (!c || !key)
        return NULL;
    struct entry *e = find_slot(c->slots, c->cap, key);
    return e->used ? &e->guard : NULL;
}
