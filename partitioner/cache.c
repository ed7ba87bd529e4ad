/* Decision cache per launch key, with hysteresis so that shares do not oscillate; a launch
 * whose problem is the one its key last saw gets the last answer without deciding again. */
#include "skmd_part.h"
#include "part_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct entry {
    struct skmd_part_key key;
    int used;
    struct skmd_part_result result;
    uint64_t problem;             /* fingerprint of the problem `result` last answered */
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

/* A multiply-xor hash over the fields a decision depends on, field by field (no padding
 * bytes, only the curve points in use), 8 bytes a step: it runs at every planned launch. */
static uint64_t mix(uint64_t h, const void *v, size_t n)
{
    const unsigned char *b = v;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        h = (h ^ w) * 0x100000001B3ull;
        h ^= h >> 29;
    }
    for (; i < n; i++)
        h = (h ^ b[i]) * 0x100000001B3ull;
    return h;
}
#define MIX(h, field) ((h) = mix((h), &(field), sizeof(field)))

/* Measured figures move a little at every launch (the tables are refined from each
 * share's time): the fingerprint takes each one to within 2% (a step of 1/50 in its
 * logarithm), so that noise does not make every launch decide again (tens of
 * microseconds). Figures 2% apart move a decision's estimate by about as much, and the
 * hysteresis keeps a cached decision until a new one is 10% better anyway. */
#define FIGURE_STEPS_PER_E 50.0

static uint64_t figure(double x)
{
    if (x == 0.0)
        return 0;
    if (!isfinite(x))
        return isnan(x) ? 1 : x > 0 ? 2 : 3;
    double step = floor(log(fabs(x)) * FIGURE_STEPS_PER_E);
    uint64_t q = (uint64_t)(int64_t)step;
    return (q << 1 | (x < 0)) + 4;
}

static uint64_t mix_figures(uint64_t h, const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t q = figure(x[i]);
        h = mix(h, &q, sizeof q);
    }
    return h;
}
#define MIX_FIGURE(h, field) ((h) = mix_figures((h), &(field), 1))

static uint64_t problem_fingerprint(const struct skmd_part_problem *p, int policy)
{
    uint64_t h = 0xCBF29CE484222325ull;
    MIX(h, policy);
    MIX(h, p->ndev);
    MIX(h, p->total_wg);
    MIX(h, p->host_dev);
    MIX(h, p->mem);
    MIX_FIGURE(h, p->in_fixed);
    MIX_FIGURE(h, p->in_per_wg);
    MIX_FIGURE(h, p->out_fixed);
    MIX_FIGURE(h, p->out_per_wg);
    MIX(h, p->output_contiguous);
    MIX_FIGURE(h, p->merge_fixed_ms);
    MIX_FIGURE(h, p->merge_ms_per_byte);
    MIX(h, p->outputs_stay);
    MIX_FIGURE(h, p->host_bytes_per_ms);
    MIX_FIGURE(h, p->host_busy_bytes_per_ms);
    for (int d = 0; d < p->ndev && d < SKMD_PART_MAX_DEVICES; d++) {
        const struct skmd_part_device *dv = &p->dev[d];
        h = mix_figures(h, dv->table.rate, SKMD_PART_RANGES);
        /* Of the sample counts, only whether a rate is measured or a prediction. */
        for (int k = 0; k < SKMD_PART_RANGES; k++) {
            uint32_t measured = dv->table.samples[k] > 0;
            MIX(h, measured);
        }
        MIX(h, dv->link);
        MIX(h, dv->on_host_cores);
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) {
                const struct skmd_part_link_curve *c = &dv->curve[i][j];
                int n = c->npoints < 0 ? 0
                        : c->npoints > SKMD_PART_LINK_POINTS ? SKMD_PART_LINK_POINTS
                                                             : c->npoints;
                MIX_FIGURE(h, c->latency_ms);
                MIX_FIGURE(h, c->bytes_per_ms);
                MIX(h, c->npoints);
                MIX_FIGURE(h, c->scale);
                h = mix_figures(h, c->point_bytes, (size_t)n);
                h = mix_figures(h, c->point_ms, (size_t)n);
            }
        MIX_FIGURE(h, dv->peak_rate);
        MIX_FIGURE(h, dv->resident_in);
        MIX_FIGURE(h, dv->remote_in);
        MIX(h, dv->remote_from);
        MIX_FIGURE(h, dv->peer_bytes_per_ms);
        MIX_FIGURE(h, dv->launch_ms);
        MIX_FIGURE(h, dv->split_ms);
        MIX(h, dv->max_pieces);
        MIX_FIGURE(h, dv->piece_bytes);
    }
    return h;
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

/* A new entry for key (not in the cache): its guard fresh, no decision yet (ndev 0, which
 * no problem matches). NULL when out of memory. */
static struct entry *claim(struct skmd_part_cache *c, const struct skmd_part_key *key)
{
    if ((c->used + 1) * 10 > c->cap * 7 && grow(c) != 0)
        return NULL;
    struct entry *e = find_slot(c->slots, c->cap, key);
    memset(e, 0, sizeof *e);
    e->key = *key;
    e->used = 1;
    skmd_part_guard_init(&e->guard);
    c->used++;
    return e;
}

int skmd_part_cache_decide(struct skmd_part_cache *c, const struct skmd_part_key *key,
                           const struct skmd_part_problem *p, enum skmd_part_policy policy,
                           struct skmd_part_result *out, int *replaced)
{
    if (replaced)
        *replaced = 0;
    if (!c || !key || !out || !p || (p->ndev > 0 && !p->dev))
        return SKMD_PART_EINVAL;
    /* The same problem as last time: deciding again would give the same answer (the
     * decision and the hysteresis are functions of the problem and the kept result), and
     * a decision at every launch is most of what a planned launch that runs whole costs
     * beyond single mode. */
    uint64_t fingerprint = problem_fingerprint(p, (int)policy);
    struct entry *e = find_slot(c->slots, c->cap, key);
    if (e->used && e->problem == fingerprint && e->result.ndev == p->ndev) {
        *out = e->result;
        return SKMD_PART_OK;
    }
    int status = skmd_part_decide(p, policy, out);
    if (status != SKMD_PART_OK)
        return status;
    if (e->used && e->result.ndev == out->ndev) {
        uint64_t total = 0;
        for (int d = 0; d < e->result.ndev; d++)
            total += e->result.count[d];
        if (total == p->total_wg) {
            /* Both decisions judged with today's tables. */
            double kept = part_result_estimate(p, &e->result);
            e->result.overall_ms = kept;
            if (!(out->overall_ms < kept * (1.0 - c->hysteresis)) &&
                !skmd_part_rebalances(&e->result, out)) {
                e->problem = fingerprint;
                *out = e->result;
                return SKMD_PART_OK;
            }
        }
    }
    if (!e->used && !(e = claim(c, key))) {
        if (replaced)
            *replaced = 1;
        return SKMD_PART_OK; /* out of memory: decide without caching */
    }
    e->result = *out;
    e->problem = fingerprint;
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

struct skmd_part_guard *skmd_part_cache_guard_make(struct skmd_part_cache *c,
                                                   const struct skmd_part_key *key)
{
    if (!c || !key)
        return NULL;
    struct entry *e = find_slot(c->slots, c->cap, key);
    if (!e->used)
        e = claim(c, key);
    return e ? &e->guard : NULL;
}
