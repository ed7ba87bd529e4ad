/* The measured guard against losing to one device (see skmd_part.h): per cached
 * decision, the smoothed wall times of its split launches (with and without the devices
 * on the host's cores) and of whole launches on the best single device; the faster split
 * runs, and one that measures slower than whole goes whole, retried after 2^k launches
 * with k growing, so a wrong model costs a bounded fraction of the launches. */
#include "skmd_part.h"

#include <math.h>
#include <string.h>

/* Weight of a new wall time in the smoothed ones. */
#define GUARD_ALPHA 0.3

void skmd_part_guard_init(struct skmd_part_guard *g)
{
    memset(g, 0, sizeof *g);
    g->whole_dev = -1;
    g->backoff = SKMD_PART_GUARD_FIRST_BACKOFF;
}

void skmd_part_guard_bound(struct skmd_part_guard *g)
{
    if (g->backoff > SKMD_PART_GUARD_MAX_BACKOFF)
        g->backoff = SKMD_PART_GUARD_MAX_BACKOFF;
    uint64_t longest = (uint64_t)1 << SKMD_PART_GUARD_MAX_BACKOFF;
    if (g->retry_at > g->launches + longest)
        g->retry_at = g->launches + longest;
}

/* The smoothed time and samples of the split with (offhost 0) or without (1) the devices
 * on the host's cores. */
static double *split_ms_of(struct skmd_part_guard *g, int offhost)
{
    return offhost ? &g->offhost_ms : &g->split_ms;
}
static uint32_t *split_n_of(struct skmd_part_guard *g, int offhost)
{
    return offhost ? &g->offhost_n : &g->split_n;
}

/* 1 when launch n samples a figure that has `samples` of `enough`, at `offset` within
 * each period (whole samples and samples of the other split fall on different launches). */
static int sample_due(uint64_t n, uint32_t samples, uint32_t enough, uint64_t offset)
{
    uint64_t every = samples < enough ? SKMD_PART_GUARD_SAMPLE_EVERY
                                      : SKMD_PART_GUARD_REFRESH_EVERY;
    return n % every == offset;
}

int skmd_part_guard_choose(struct skmd_part_guard *g, int best, int offhost, int *dev)
{
    *dev = -1;
    uint64_t n = g->launches++;
    if (g->whole_mode) {
        if (n >= g->retry_at)
            return SKMD_PART_RUN_RETRY;
        *dev = g->whole_dev;
        return SKMD_PART_RUN_WHOLE;
    }
    if (best >= 0 && best < SKMD_PART_MAX_DEVICES &&
        sample_due(n, g->whole_n[best], SKMD_PART_GUARD_WHOLE_SAMPLES,
                   SKMD_PART_GUARD_SAMPLE_EVERY / 2 - 1)) {
        *dev = best;
        return SKMD_PART_RUN_WHOLE_SAMPLE;
    }
    uint32_t other_n = *split_n_of(g, !g->offhost_mode);
    if (offhost && sample_due(n, other_n, SKMD_PART_GUARD_OFFHOST_SAMPLES,
                              SKMD_PART_GUARD_SAMPLE_EVERY - 1))
        return SKMD_PART_RUN_OTHER_SPLIT;
    return SKMD_PART_RUN_SPLIT;
}

double skmd_part_guard_split_in_use(const struct skmd_part_guard *g, uint32_t *n)
{
    if (n)
        *n = g->offhost_mode ? g->offhost_n : g->split_n;
    return g->offhost_mode ? g->offhost_ms : g->split_ms;
}

int skmd_part_guard_runs_offhost(const struct skmd_part_guard *g, int run)
{
    if (run == SKMD_PART_RUN_OTHER_SPLIT)
        return !g->offhost_mode;
    return (run == SKMD_PART_RUN_SPLIT || run == SKMD_PART_RUN_RETRY) && g->offhost_mode;
}

static void smooth(double *avg, uint32_t *n, double ms)
{
    *avg = *n ? GUARD_ALPHA * ms + (1 - GUARD_ALPHA) * *avg : ms;
    if (*n < UINT32_MAX)
        (*n)++;
}

/* Enters whole mode on dev: the next split retry after 2^backoff launches, each time
 * later. */
static void go_whole(struct skmd_part_guard *g, int dev)
{
    g->whole_mode = 1;
    g->whole_dev = dev;
    g->retry_at = g->launches + ((uint64_t)1 << g->backoff);
    if (g->backoff < SKMD_PART_GUARD_MAX_BACKOFF)
        g->backoff++;
}

/* The device with the fastest whole time among those with enough samples, -1: none. */
static int fastest_whole(const struct skmd_part_guard *g)
{
    int best = -1;
    for (int d = 0; d < SKMD_PART_MAX_DEVICES; d++)
        if (g->whole_n[d] >= SKMD_PART_GUARD_WHOLE_SAMPLES &&
            (best < 0 || g->whole_ms[d] < g->whole_ms[best]))
            best = d;
    return best;
}

int skmd_part_guard_split_judged(const struct skmd_part_guard *g)
{
    uint32_t n;
    skmd_part_guard_split_in_use(g, &n);
    return !g->whole_mode && n >= SKMD_PART_GUARD_SPLIT_SAMPLES && fastest_whole(g) >= 0;
}

int skmd_part_guard_observe(struct skmd_part_guard *g, int run, int dev, int offhost,
                            double wall_ms)
{
    if (!g || !isfinite(wall_ms) || !(wall_ms > 0.0))
        return SKMD_PART_EINVAL;
    int was_whole = g->whole_mode, was_offhost = g->offhost_mode;
    double *split_ms = split_ms_of(g, offhost);
    uint32_t *split_n = split_n_of(g, offhost);
    switch (run) {
    case SKMD_PART_RUN_SPLIT:
    case SKMD_PART_RUN_OTHER_SPLIT:
        if (g->whole_mode)
            return 0; /* a split decided before the guard went whole: stale */
        smooth(split_ms, split_n, wall_ms);
        break;
    case SKMD_PART_RUN_RETRY:
        if (!g->whole_mode)
            return 0;
        /* The retry is the latest word on the split: older samples are stale. */
        *split_ms = wall_ms;
        *split_n = 1;
        if (wall_ms < g->whole_ms[g->whole_dev] * (1 - SKMD_PART_GUARD_RETURN))
            g->whole_mode = 0;
        else
            go_whole(g, g->whole_dev);
        break;
    case SKMD_PART_RUN_WHOLE:
    case SKMD_PART_RUN_WHOLE_SAMPLE:
        if (dev < 0 || dev >= SKMD_PART_MAX_DEVICES)
            return 0;
        smooth(&g->whole_ms[dev], &g->whole_n[dev], wall_ms);
        if (!g->whole_mode)
            g->whole_dev = dev;
        break;
    default:
        return SKMD_PART_EINVAL;
    }
    if (!g->whole_mode) {
        /* The other split, measured enough and faster: it becomes the split. */
        int in_use = g->offhost_mode;
        if (*split_n_of(g, !in_use) >= SKMD_PART_GUARD_OFFHOST_SAMPLES &&
            *split_n_of(g, in_use) >= SKMD_PART_GUARD_SPLIT_SAMPLES &&
            *split_ms_of(g, !in_use) < *split_ms_of(g, in_use) * (1 - SKMD_PART_GUARD_LEAVE))
            g->offhost_mode = in_use = !in_use;
        int fastest = fastest_whole(g);
        if (fastest >= 0 && *split_n_of(g, in_use) >= SKMD_PART_GUARD_SPLIT_SAMPLES &&
            *split_ms_of(g, in_use) > g->whole_ms[fastest] * (1 + SKMD_PART_GUARD_LEAVE))
            go_whole(g, fastest);
    }
    return g->whole_mode != was_whole || g->offhost_mode != was_offhost;
}

const char *skmd_part_run_name(int run)
{
    switch (run) {
    case SKMD_PART_RUN_SPLIT: return "split";
    case SKMD_PART_RUN_WHOLE_SAMPLE: return "whole sample";
    case SKMD_PART_RUN_WHOLE: return "whole (the split measured slower)";
    case SKMD_PART_RUN_RETRY: return "split retry";
    case SKMD_PART_RUN_OTHER_SPLIT: return "other split sample";
    default: return "?";
    }
}
