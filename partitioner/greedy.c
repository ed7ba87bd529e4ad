/* Algorithm 1 of the SKMD paper: greedy descent of the decision tree of partitions. */
#include "part_model.h"
#include "part_policies.h"

#include <math.h>
#include <string.h>

/* A generous bound on moves: every move lowers (overall, sum) strictly, so the descent ends
 * on its own; the bound only guards against rounding games with huge numbers. */
#define MAX_MOVES (4 * SKMD_PART_MAX_STEPS)

struct search {
    const struct part_model *m;
    int ndev;
    uint64_t g; /* PartitionGranularity */
    uint64_t count[SKMD_PART_MAX_DEVICES];
    struct part_cost cost[SKMD_PART_MAX_DEVICES];
    double overall, sum;
};

/* (overall, sum) of the current shares with device i giving `moved` work-groups to j. */
static double child_time(const struct search *s, int i, int j, uint64_t moved,
                         const struct part_cost *ci, const struct part_cost *cj, double *sum)
{
    struct part_cost cost[SKMD_PART_MAX_DEVICES];
    uint64_t count[SKMD_PART_MAX_DEVICES];
    double finish[SKMD_PART_MAX_DEVICES];
    memcpy(cost, s->cost, sizeof(cost[0]) * (size_t)s->ndev);
    memcpy(count, s->count, sizeof(count[0]) * (size_t)s->ndev);
    cost[i] = *ci;
    cost[j] = *cj;
    count[i] -= moved;
    count[j] += moved;
    return part_model_finish(s->m, cost, count, finish, sum);
}

/* Minimum first offload: the smallest share for an idle device j whose time saved on the
 * donor i pays for j's merge. The donor saves 1/rate_i(n_i) ms per work-group; j's merge
 * costs merge_fixed + out_fixed * c (once) plus out_per_wg * c per work-group. Returns 0
 * when no share ever pays, else a multiple of the granularity. */
static uint64_t min_first_offload(const struct search *s, int i, int j)
{
    const struct skmd_part_problem *p = s->m->p;
    if (!s->m->needs_merge[j])
        return s->g;
    double rate_i = part_model_rate(s->m, i, s->count[i]);
    double saved_per_wg = rate_i > 0.0 ? 1.0 / rate_i : SKMD_PART_NEVER_MS;
    double merge_per_wg = p->out_per_wg * p->merge_ms_per_byte;
    double fixed = p->merge_fixed_ms + p->out_fixed * p->merge_ms_per_byte;
    if (saved_per_wg <= merge_per_wg)
        return 0;
    double n = ceil(fixed / (saved_per_wg - merge_per_wg));
    if (n >= (double)s->count[i])
        return n > (double)s->count[i] ? 0 : s->count[i];
    uint64_t wg = (uint64_t)n;
    uint64_t steps = wg / s->g + (wg % s->g != 0);
    return steps ? steps * s->g : s->g;
}

static int better(double overall, double sum, double best_overall, double best_sum)
{
    double eps = 1e-12 * (best_overall > 1.0 ? best_overall : 1.0);
    if (overall < best_overall - eps)
        return 1;
    return overall <= best_overall + eps && sum < best_sum - 1e-12 * (best_sum > 1.0 ? best_sum : 1.0);
}

/* One node of the tree: tries every child "move `step` work-groups from i to j" and takes
 * the one with the largest balancing factor (drop of the overall time, then of the sum).
 * Returns 1 when a child improved on the node. */
static int descend_once(struct search *s, uint64_t step)
{
    struct part_cost down[SKMD_PART_MAX_DEVICES], up[SKMD_PART_MAX_DEVICES];
    int n = s->ndev;
    for (int d = 0; d < n; d++) {
        if (s->count[d] >= step)
            part_model_cost(s->m, d, s->count[d] - step, &down[d]);
        if (s->m->usable[d])
            part_model_cost(s->m, d, s->count[d] + step, &up[d]);
    }
    int best_i = -1, best_j = -1;
    uint64_t best_moved = 0;
    double best_overall = s->overall, best_sum = s->sum;
    struct part_cost best_ci, best_cj;
    for (int i = 0; i < n; i++) {
        if (s->count[i] == 0)
            continue;
        for (int j = 0; j < n; j++) {
            if (j == i || !s->m->usable[j])
                continue;
            uint64_t moved = step;
            struct part_cost ci, cj;
            if (s->count[j] == 0) {
                uint64_t first = min_first_offload(s, i, j);
                if (first == 0)
                    continue;
                if (first > moved)
                    moved = first;
            }
            if (moved > s->count[i]) {
                if (s->count[j] == 0)
                    continue;
                moved = s->count[i]; /* less than a step left: i gives all it has */
            }
            if (moved == step) {
                ci = down[i];
                cj = up[j];
            } else {
                part_model_cost(s->m, i, s->count[i] - moved, &ci);
                part_model_cost(s->m, j, s->count[j] + moved, &cj);
            }
            double sum;
            double overall = child_time(s, i, j, moved, &ci, &cj, &sum);
            if (better(overall, sum, best_overall, best_sum)) {
                best_overall = overall;
                best_sum = sum;
                best_i = i;
                best_j = j;
                best_moved = moved;
                best_ci = ci;
                best_cj = cj;
            }
        }
    }
    if (best_i < 0)
        return 0;
    s->count[best_i] -= best_moved;
    s->count[best_j] += best_moved;
    s->cost[best_i] = best_ci;
    s->cost[best_j] = best_cj;
    s->overall = best_overall;
    s->sum = best_sum;
    return 1;
}

/* The device that starts with everything: the host CPU device when it can run the kernel,
 * else the one that would finish the whole launch soonest alone. */
static int start_device(const struct part_model *m, uint64_t total)
{
    int host = m->p->host_dev;
    if (host >= 0 && m->usable[host])
        return host;
    int best = host >= 0 ? host : 0;
    double best_ms = SKMD_PART_NEVER_MS * 2;
    for (int d = 0; d < m->ndev; d++) {
        if (!m->usable[d])
            continue;
        struct part_cost c;
        part_model_cost(m, d, total, &c);
        double ms = part_cost_alone(&c);
        if (ms < best_ms) {
            best_ms = ms;
            best = d;
        }
    }
    return best;
}

static void search_init(struct search *s, const struct part_model *m, uint64_t total,
                        const uint64_t *count)
{
    double finish[SKMD_PART_MAX_DEVICES];
    memset(s, 0, sizeof(*s));
    s->m = m;
    s->ndev = m->ndev;
    s->g = total / SKMD_PART_MAX_STEPS + (total % SKMD_PART_MAX_STEPS != 0);
    if (s->g == 0)
        s->g = 1;
    memcpy(s->count, count, sizeof(count[0]) * (size_t)m->ndev);
    for (int d = 0; d < s->ndev; d++)
        part_model_cost(m, d, s->count[d], &s->cost[d]);
    s->overall = part_model_finish(m, s->cost, s->count, finish, &s->sum);
}

/* Descends from the current node with children of `base` work-groups until none improves.
 * With `tolerance`, a node where no child improves is retried with children of 2, 4, ...
 * 2^10 times base (so a device whose rate pays only at larger shares still gets work). */
static int descend(struct search *s, uint64_t total, uint64_t base, int tolerance, int moves)
{
    while (moves < MAX_MOVES) {
        int moved = 0;
        uint64_t step = base;
        for (int t = 0; !moved; t++) {
            moved = descend_once(s, step);
            if (!tolerance || t == SKMD_PART_TOLERANCE_DOUBLINGS || step > total / 2)
                break;
            step *= 2;
        }
        if (!moved)
            break;
        moves++;
    }
    return moves;
}

/* The search's shares with each group of twins' work-groups shared equally among the
 * twins that have a share (a twin left out, or a launch kept whole, stays so), taken
 * when their estimate is within SKMD_PART_TWIN_TOLERANCE of the search's
 * (skmd_part_device.twin_group). */
static void twins_even(const struct part_model *m, uint64_t total, struct search *s)
{
    uint64_t count[SKMD_PART_MAX_DEVICES];
    memcpy(count, s->count, sizeof count);
    int changed = 0;
    for (int d = 0; d < m->ndev; d++) {
        int group = m->p->dev[d].twin_group;
        int first = 1;
        for (int e = 0; e < d && first; e++)
            first = m->p->dev[e].twin_group != group;
        if (group <= 0 || !first)
            continue;
        uint64_t sum = 0, n = 0;
        for (int e = d; e < m->ndev; e++)
            if (m->p->dev[e].twin_group == group && s->count[e]) {
                sum += s->count[e];
                n++;
            }
        if (n < 2 || sum == 0)
            continue;
        uint64_t each = sum / n, extra = sum % n;
        for (int e = d; e < m->ndev; e++)
            if (m->p->dev[e].twin_group == group && s->count[e]) {
                uint64_t want = each + (extra ? 1 : 0);
                extra -= extra ? 1 : 0;
                changed |= want != count[e];
                count[e] = want;
            }
    }
    if (!changed)
        return;
    struct search even;
    search_init(&even, m, total, count);
    if (even.overall <= s->overall * (1.0 + SKMD_PART_TWIN_TOLERANCE))
        *s = even;
}

int part_decide_skmd(const struct part_model *m, uint64_t total, int paper_only,
                     struct skmd_part_result *out)
{
    struct search s, alt;
    uint64_t start[SKMD_PART_MAX_DEVICES] = {0};
    start[start_device(m, total)] = total;
    search_init(&s, m, total, start);
    if (paper_only) {
        /* Algorithm 1 as published: one-step children from the single-device start. */
        int moves = descend(&s, total, s.g, 1, 0);
        part_result_fill(m, s.count, out);
        out->granularity = s.g;
        out->steps = moves;
        return SKMD_PART_OK;
    }
    /* The same descent and stopping rule, reached faster: children of 2^L steps for
     * L = 10 ... 1 first, each level until none improves, then Algorithm 1's own one-step
     * descent with the tolerance loop from there. A second descent starts from the
     * throughput-proportional split, and the better end is kept: a greedy descent can stop
     * at a local optimum (e.g. when a new device on a shared link costs every device on
     * it a latency), and this bounds the result by the linear policy's. */
    int moves = 0;
    for (int level = SKMD_PART_TOLERANCE_DOUBLINGS; level >= 1; level--)
        if ((s.g << level) <= total)
            moves = descend(&s, total, s.g << level, 0, moves);
    moves = descend(&s, total, s.g, 1, moves);

    double rate[SKMD_PART_MAX_DEVICES];
    for (int d = 0; d < m->ndev; d++)
        rate[d] = m->usable[d] ? part_model_rate(m, d, total / (uint64_t)m->ndev + 1) : 0.0;
    part_split_by_weight(total, m->ndev, rate, start);
    search_init(&alt, m, total, start);
    int alt_moves = 0;
    for (int level = 4; level >= 1; level--)
        if ((alt.g << level) <= total)
            alt_moves = descend(&alt, total, alt.g << level, 0, alt_moves);
    alt_moves = descend(&alt, total, alt.g, 1, alt_moves);
    if (better(alt.overall, alt.sum, s.overall, s.sum)) {
        s = alt;
        moves = alt_moves;
    }
    /* Every device alone is a candidate too: one device with all the work-groups needs no
     * merge, so the descent's small steps away from the start (each paying a whole merge)
     * may never reach a faster device that should take everything. */
    for (int d = 0; d < m->ndev; d++) {
        if (!m->usable[d])
            continue;
        memset(start, 0, sizeof(start));
        start[d] = total;
        search_init(&alt, m, total, start);
        if (better(alt.overall, alt.sum, s.overall, s.sum))
            s = alt;
    }
    twins_even(m, total, &s);
    part_result_fill(m, s.count, out);
    out->granularity = s.g;
    out->steps = moves;
    return SKMD_PART_OK;
}
