/* libskmd/plan/share_align.c: write modes of a split launch's shares and row-aligned shares
 * (see share_align.h). */
#include <stdlib.h>
#include <string.h>

#include "plan/launch_memo.h"
#include "plan/share_align.h"
#include "plan/share_rect.h"

/* Whether the analysed bytes stay inside a buffer of `size` bytes. A kernel touches only
 * bytes of its buffers, so an exact write past the end, or any interval that starts past
 * it, says the analysis does not hold at this launch (an offset it read wrongly): the
 * footprint is then treated as unknown. A read or a write bound that only runs over the
 * end is an over-approximation (a guarded access of the last groups) and is cut. */
static int inside_buffer(const struct skmd_footprint *fp, uint64_t size)
{
    for (size_t i = 0; i < fp->nread; i++)
        if (fp->read[i].begin >= size && fp->read[i].end > fp->read[i].begin)
            return 0;
    for (size_t i = 0; i < fp->nwrite; i++)
        if ((fp->write[i].begin >= size || (fp->write_exact && fp->write[i].end > size)) &&
            fp->write[i].end > fp->write[i].begin)
            return 0;
    return 1;
}

static void cut_to(struct skmd_interval *v, size_t n, uint64_t size)
{
    for (size_t i = 0; i < n; i++)
        if (v[i].end > size)
            v[i].end = size;
}

int skmd_share_footprint(const struct skmd_share_view *v, unsigned p, uint64_t first,
                         uint64_t count, struct skmd_footprint *fp)
{
    uint64_t size = v->args[p].mem->size;
    int known = skmd_footprint(v->rec, p, v->shape, v->scalars, first, count, fp) == 0 &&
                inside_buffer(fp, size);
    if (!known) {
        fp->nread = fp->nwrite = 1;
        fp->read[0] = fp->write[0] = (struct skmd_interval){0, size};
        fp->write_exact = 0;
    }
    cut_to(fp->read, fp->nread, size);
    cut_to(fp->write, fp->nwrite, size);
    if (!(v->rec->params[p].access & SKMD_ACCESS_WRITE))
        fp->nwrite = 0, fp->write_exact = 1;
    if (!(v->rec->params[p].access & SKMD_ACCESS_READ))
        fp->nread = 0;
    return known ? 0 : -1;
}

/* An interval of one share's write bound. */
struct owned {
    uint64_t begin, end;
    int share;
};

static int cmp_owned(const void *pa, const void *pb)
{
    const struct owned *a = pa, *b = pb;
    return a->begin < b->begin ? -1 : a->begin > b->begin;
}

static cl_mem root_of(cl_mem mem)
{
    return mem->parent ? mem->parent : mem;
}

/* Whether another argument reaches the same root buffer as parameter p: then bytes of
 * p's bound may be written through that argument by another share. */
static int aliased(const struct skmd_share_view *v, unsigned p)
{
    cl_mem root = root_of(v->args[p].mem);
    for (unsigned q = 0; q < v->rec->nparams; q++)
        if (q != p && skmd_share_is_buffer(v, q) && root_of(v->args[q].mem) == root)
            return 1;
    return 0;
}

/* Whether every share's writes through p are exactly a box, no two boxes sharing a
 * byte (share_rect.h). */
static int rect_shares(const struct skmd_share_view *v, unsigned p, const uint64_t *first,
                       const uint64_t *count, int n)
{
    struct skmd_rect box[SKMD_MAX_MEMBERS];
    int nbox = 0;
    for (int s = 0; s < n; s++) {
        if (!count[s])
            continue;
        if (nbox == SKMD_MAX_MEMBERS || !skmd_rect_of_share(v, p, first[s], count[s], &box[nbox]))
            return 0;
        for (int o = 0; o < nbox; o++)
            if (!skmd_rect_disjoint(&box[o], &box[nbox]))
                return 0;
        nbox++;
    }
    return nbox > 0;
}

/* The mode of written parameter p over the n shares. */
static enum skmd_write_mode param_mode(const struct skmd_share_view *v, unsigned p,
                                       const uint64_t *first, const uint64_t *count, int n)
{
    struct skmd_interval rd[SKMD_SHARE_INTERVALS], wr[SKMD_SHARE_INTERVALS];
    struct owned *all = malloc((size_t)n * SKMD_SHARE_INTERVALS * sizeof *all);
    if (!all)
        return SKMD_WRITE_MERGE;
    size_t nall = 0;
    int exact = 1;
    for (int s = 0; s < n; s++) {
        if (!count[s])
            continue;
        struct skmd_footprint fp = {rd, wr, SKMD_SHARE_INTERVALS, SKMD_SHARE_INTERVALS,
                                    0, 0, 0};
        skmd_share_footprint(v, p, first[s], count[s], &fp);
        exact &= fp.write_exact;
        for (size_t i = 0; i < fp.nwrite; i++)
            all[nall++] = (struct owned){fp.write[i].begin, fp.write[i].end, s};
    }
    enum skmd_write_mode mode = SKMD_WRITE_EXACT;
    if (!exact) {
        /* Bounds: usable when no two shares' bounds share a byte (a share's own
         * intervals never overlap each other). */
        mode = aliased(v, p) ? SKMD_WRITE_MERGE : SKMD_WRITE_BOUND;
        qsort(all, nall, sizeof *all, cmp_owned);
        uint64_t reach = 0;
        int reach_share = -1;
        for (size_t i = 0; i < nall && mode == SKMD_WRITE_BOUND; i++) {
            if (all[i].begin < reach && all[i].share != reach_share)
                mode = SKMD_WRITE_MERGE;
            if (all[i].end > reach) {
                reach = all[i].end;
                reach_share = all[i].share;
            }
        }
    }
    free(all);
    if (mode == SKMD_WRITE_MERGE && !aliased(v, p) && rect_shares(v, p, first, count, n))
        mode = SKMD_WRITE_RECT;
    return mode;
}

int skmd_share_write_modes(const struct skmd_share_view *v, const uint64_t *first,
                           const uint64_t *count, int n, unsigned char *mode)
{
    int merge = 0;
    for (unsigned p = 0; p < v->rec->nparams; p++) {
        mode[p] = SKMD_WRITE_NONE;
        if (!skmd_share_is_buffer(v, p) || !(v->rec->params[p].access & SKMD_ACCESS_WRITE))
            continue;
        mode[p] = (unsigned char)param_mode(v, p, first, count, n);
        merge |= mode[p] == SKMD_WRITE_MERGE;
    }
    return merge;
}

static void grid(const struct skmd_launch *s, uint64_t *row, uint64_t *plane)
{
    uint64_t ng[3];
    for (int d = 0; d < 3; d++)
        ng[d] = d < (int)s->work_dim && s->local_size[d] ? s->global_size[d] / s->local_size[d]
                                                         : 1;
    *row = ng[0];
    *plane = ng[0] * ng[1];
}

/* Whether `members` shares cut evenly at multiples of unit need the merge (see
 * skmd_share_probe_merge). */
static int probe_needs_merge(const struct skmd_share_view *v, uint64_t total, int members,
                             uint64_t unit, uint64_t row, uint64_t plane)
{
    uint64_t first[SKMD_MAX_MEMBERS], count[SKMD_MAX_MEMBERS];
    unsigned char mode[256];
    uint64_t prev = 0;
    for (int k = 0; k < members; k++) {
        uint64_t b = k + 1 == members ? total : total * (uint64_t)(k + 1) / (uint64_t)members;
        if (k + 1 < members) {
            b = (b + unit / 2) / unit * unit;
            /* A probe cut that falls on a larger boundary by chance would test that. */
            uint64_t larger = unit == 1 ? row : plane;
            if (larger > unit && b % larger == 0)
                b += unit;
            if (b <= prev || b >= total)
                return 1; /* too few units to cut here */
        }
        first[k] = prev;
        count[k] = b - prev;
        prev = b;
    }
    return skmd_share_write_modes(v, first, count, members, mode);
}

int skmd_share_probe_merge(const struct skmd_share_view *v, uint64_t total, int members,
                           uint64_t unit)
{
    uint64_t row, plane;
    grid(v->shape, &row, &plane);
    if (members < 2 || members > SKMD_MAX_MEMBERS || v->rec->nparams > 256 || !unit)
        return 1;
    return probe_needs_merge(v, total, members, unit, row, plane);
}

uint64_t skmd_share_unit(const struct skmd_share_view *v, uint64_t total, int members)
{
    return skmd_share_unit_merge(v, total, members, NULL);
}

/* skmd_share_unit_merge's answer, worked out. */
static uint64_t unit_merge(const struct skmd_share_view *v, uint64_t total, int members,
                           int *needs_merge)
{
    const struct skmd_launch *s = v->shape;
    int merge = 1; /* what skmd_share_probe_merge says where it cannot probe */
    uint64_t unit = 1, row, plane;
    grid(s, &row, &plane);
    if (members < 2 || members > SKMD_MAX_MEMBERS || v->rec->nparams > 256) {
        if (needs_merge)
            *needs_merge = merge;
        return 1;
    }
    int may_align = s->work_dim >= 2 && (row > 1 || plane > 1) && total >= 2 * (uint64_t)members;
    if (may_align || needs_merge) /* cutting anywhere: the probe of unit 1 */
        merge = probe_needs_merge(v, total, members, 1, row, plane);
    uint64_t units[2] = {row, s->work_dim == 3 ? plane : 0};
    for (int i = 0; i < 2 && may_align && merge; i++) {
        uint64_t u = units[i];
        if (u <= 1 || total % u || total / u < (uint64_t)members || (i == 1 && u == row))
            continue;
        if (!probe_needs_merge(v, total, members, u, row, plane))
            unit = u, merge = 0;
    }
    if (needs_merge)
        *needs_merge = merge;
    return unit;
}

uint64_t skmd_share_unit_merge(const struct skmd_share_view *v, uint64_t total, int members,
                               int *needs_merge)
{
    /* Every probe evaluates each share's footprints: a recent launch's answer is kept
     * (launch_memo.h). The answer is unit * 2 + merge. */
    static _Thread_local struct skmd_launch_memo memo;
    int64_t extra[3] = {(int64_t)total, members, needs_merge != NULL};
    uint64_t key = skmd_launch_key(v->rec, v->shape, v->args, v->scalars, extra, sizeof extra);
    int64_t answer;
    if (!skmd_launch_memo_find(&memo, key, &answer)) {
        int merge = 1;
        uint64_t unit = unit_merge(v, total, members, needs_merge ? &merge : NULL);
        answer = (int64_t)(unit * 2 + (uint64_t)(merge != 0));
        skmd_launch_memo_keep(&memo, key, answer);
    }
    if (needs_merge)
        *needs_merge = (int)(answer & 1);
    return (uint64_t)answer / 2;
}

void skmd_share_round(uint64_t *count, int n, uint64_t total, uint64_t unit)
{
    if (unit <= 1 || total % unit)
        return;
    int with = 0;
    for (int m = 0; m < n; m++)
        with += count[m] > 0;
    if (with < 2 || (uint64_t)with > total / unit)
        return;
    uint64_t cum = 0, prev = 0;
    int left = with; /* members with a share from m on */
    for (int m = 0; m < n; m++) {
        if (!count[m])
            continue;
        cum += count[m];
        left--;
        uint64_t b = total;
        if (left > 0) {
            b = (cum + unit / 2) / unit * unit;
            if (b < prev + unit)
                b = prev + unit;
            if (b > total - unit * (uint64_t)left)
                b = total - unit * (uint64_t)left;
        }
        count[m] = b - prev;
        prev = b;
    }
}

int skmd_share_scale_problem(struct skmd_part_problem *p, struct skmd_part_device *dev,
                             uint64_t unit)
{
    if (unit <= 1 || !p->total_wg || p->total_wg % unit)
        return 0;
    p->total_wg /= unit;
    p->in_per_wg *= (double)unit;
    p->out_per_wg *= (double)unit;
    for (int d = 0; d < p->ndev; d++) {
        struct skmd_part_table t = dev[d].table;
        /* Range k of the scaled table holds shares of 2^k units: the rate (units per ms)
         * of the original table at 2^k * unit work-groups, measured if that range was. */
        for (int k = 0; k < SKMD_PART_RANGES; k++) {
            uint64_t n = ((uint64_t)1 << k) * unit;
            dev[d].table.rate[k] = skmd_part_rate(&t, n) / (double)unit;
            dev[d].table.samples[k] = t.samples[skmd_part_range_of(n)];
        }
        dev[d].peak_rate /= (double)unit;
    }
    return 1;
}

void skmd_share_unscale_result(struct skmd_part_result *res, uint64_t unit)
{
    for (int d = 0; d < res->ndev; d++) {
        res->start[d] *= unit;
        res->count[d] *= unit;
    }
    res->granularity *= unit;
}
