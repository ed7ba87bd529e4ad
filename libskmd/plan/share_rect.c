/* libskmd/plan/share_rect.c: a share's writes as a box of the buffer (see share_rect.h; the
 * copies that commit it are share_rect_commit.c's). */
#include <stdlib.h>
#include <string.h>

#include "plan/share_rect.h"

/* Comparing two boxes row by row stops here (they then count as overlapping). */
#define RECT_COMPARE_LIMIT (1u << 22)

struct term {
    int64_t stride, count;
};

static int cmp_term(const void *pa, const void *pb)
{
    const struct term *a = pa, *b = pb;
    return a->stride < b->stride ? -1 : a->stride > b->stride;
}

/* Groups [first, first+count) as a box of the launch's grid (lo[d], n[d]); 0 when they
 * are not one. */
static int group_box(const struct skmd_launch *s, uint64_t first, uint64_t count,
                     uint64_t *lo, uint64_t *n)
{
    uint64_t ng[3];
    for (unsigned d = 0; d < 3; d++)
        ng[d] = d < s->work_dim && s->local_size[d] ? s->global_size[d] / s->local_size[d] : 1;
    uint64_t row = ng[0], plane = ng[0] * ng[1];
    if (!row || !plane || !count)
        return 0;
    lo[0] = first % row;
    lo[1] = first / row % ng[1];
    lo[2] = first / plane;
    n[1] = n[2] = 1;
    if (lo[0] + count <= row) {
        n[0] = count;
        return 1;
    }
    n[0] = row;
    if (lo[0] == 0 && count % row == 0 && lo[1] + count / row <= ng[1]) {
        n[1] = count / row;
        return 1;
    }
    if (lo[0] == 0 && lo[1] == 0 && count % plane == 0 && lo[2] + count / plane <= ng[2]) {
        n[1] = ng[1];
        n[2] = count / plane;
        return 1;
    }
    return 0;
}

/* Folds the terms from *k on whose strides continue dimension (step, *count): a stride
 * that is a multiple m of step with m <= *count keeps the positions contiguous. */
static int extend(const struct term *t, unsigned nt, unsigned *k, int64_t step, int64_t *count)
{
    for (; *k < nt && t[*k].stride % step == 0 && t[*k].stride / step <= *count; (*k)++) {
        int64_t more;
        if (__builtin_mul_overflow(t[*k].stride / step, t[*k].count - 1, &more) ||
            __builtin_add_overflow(*count, more, count))
            return 0;
    }
    return 1;
}

/* One form per set of bytes: rows that touch are one row, slices that touch one slice, a
 * single row's slices are rows. */
static void normalize(struct skmd_rect *r)
{
    for (int again = 1; again;) {
        again = 0;
        if (r->rows > 1 && r->len == r->pitch) {
            r->len *= r->rows;
            r->rows = 1;
        }
        if (r->rows == 1)
            r->pitch = r->len;
        if (r->rows == 1 && r->slices > 1) {
            r->rows = r->slices;
            r->pitch = r->slice_pitch;
            r->slices = 1;
            again = 1;
        }
        if (r->slices > 1 && r->slice_pitch == r->pitch * r->rows) {
            r->rows *= r->slices;
            r->slices = 1;
        }
        if (r->slices == 1)
            r->slice_pitch = r->pitch * r->rows;
    }
}

/* floor(a / b) and ceil(a / b) for b > 0. */
static int64_t floor_div(int64_t a, int64_t b)
{
    return a / b - (a % b != 0 && a < 0);
}

static int64_t ceil_div(int64_t a, int64_t b)
{
    return a / b + (a % b != 0 && a > 0);
}

/* One variable of a store's offset over the share: coef * x, x in [lo, hi). */
struct var {
    int64_t coef, lo, hi;
};

/* The variables of store a over the group box (lo, n); 0 when it cannot be evaluated.
 * A group id and the local id of its dimension that the offset and every limit use only
 * as the global id (coefficient of g_d = L_d x that of l_d) become that one variable, so
 * that a guard on the global id (`if (x < w)`) cuts its range. The limits then cut the
 * ranges; a limit on several variables at once is no box. */
static int store_vars(const struct skmd_share_view *v, unsigned i, const uint64_t *lo,
                      const uint64_t *n, int64_t *base, struct var *x, unsigned *nx)
{
    const struct skmd_kernel_record *k = v->rec;
    const struct skmd_access_record *a = &k->accesses[i];
    int64_t coef[SKMD_ACCESS_MAX_VARS], cnt[SKMD_ACCESS_MAX_VARS];
    int64_t lb[SKMD_ACCESS_MAX_LIMITS], lc[SKMD_ACCESS_MAX_LIMITS][SKMD_ACCESS_MAX_VARS];
    if (!skmd_access_affine(k, i, v->shape, v->scalars, base, coef, cnt))
        return 0;
    for (unsigned l = 0; l < a->nlimits; l++)
        if (!skmd_poly_affine_at(k, &a->limit[l], v->shape, v->scalars, &lb[l], lc[l]))
            return 0;
    *nx = 6 + k->nloops;
    for (unsigned j = 0; j < *nx; j++) {
        if (j >= 6 && cnt[j] < 0 && coef[j])
            return 0; /* a loop whose trip count is not known */
        int64_t from = j < 3 ? (int64_t)lo[j] : 0;
        int64_t count = j < 3 ? (int64_t)n[j] : cnt[j] < 0 ? 1 : cnt[j];
        x[j] = (struct var){coef[j], from, from + count};
    }
    for (unsigned d = 0; d < 3; d++) {
        int64_t L = cnt[3 + d], ng, lg;
        int global = !__builtin_mul_overflow(L, coef[3 + d], &ng) && ng == coef[d];
        for (unsigned l = 0; l < a->nlimits && global; l++)
            global = !__builtin_mul_overflow(L, lc[l][3 + d], &lg) && lg == lc[l][d];
        if (!global)
            continue;
        x[3 + d] = (struct var){coef[3 + d], x[d].lo * L, x[d].hi * L};
        x[d] = (struct var){0, 0, 1};
        for (unsigned l = 0; l < a->nlimits; l++)
            lc[l][d] = 0;
    }
    for (unsigned l = 0; l < a->nlimits; l++) {
        int which = -1;
        for (unsigned j = 0; j < *nx; j++)
            if (lc[l][j] && x[j].hi - x[j].lo > 0) {
                if (which >= 0)
                    return 0;
                which = (int)j;
            }
        if (which < 0) { /* the same for every work-item */
            if (lb[l] < 0)
                x[0].hi = x[0].lo; /* never runs */
            continue;
        }
        /* c * x + lb >= 0 */
        int64_t c = lc[l][which];
        struct var *w = &x[which];
        if (c > 0 && ceil_div(-lb[l], c) > w->lo)
            w->lo = ceil_div(-lb[l], c);
        if (c < 0 && floor_div(lb[l], -c) + 1 < w->hi)
            w->hi = floor_div(lb[l], -c) + 1;
    }
    return 1;
}

/* The box store number i writes over the group box; *none when it writes nothing there.
 * 0 when it is not a box. */
static int store_box(const struct skmd_share_view *v, unsigned i, const uint64_t *lo,
                     const uint64_t *n, struct skmd_rect *r, int *none)
{
    const struct skmd_access_record *a = &v->rec->accesses[i];
    int64_t base;
    struct var x[SKMD_ACCESS_MAX_VARS];
    unsigned nx;
    *none = 0;
    /* A condition or a clip not all of whose limits are known may leave gaps: the box
     * would be a bound, not the bytes. */
    if (!a->size || ((a->conditional || a->has_clip) && !a->nlimits) ||
        !store_vars(v, i, lo, n, &base, x, &nx))
        return 0;
    struct term t[SKMD_ACCESS_MAX_VARS];
    unsigned nt = 0;
    for (unsigned j = 0; j < nx; j++) {
        int64_t step = x[j].coef, c = x[j].hi - x[j].lo, shift;
        if (c <= 0) {
            *none = 1; /* a loop that runs no times, a guard false everywhere here */
            return 1;
        }
        if (__builtin_mul_overflow(step, x[j].lo, &shift) ||
            __builtin_add_overflow(base, shift, &base))
            return 0;
        if (!step || c == 1)
            continue;
        if (step < 0) { /* walk it upward from its lowest point */
            if (__builtin_mul_overflow(step, c - 1, &shift) ||
                __builtin_add_overflow(base, shift, &base))
                return 0;
            step = -step;
        }
        t[nt++] = (struct term){step, c};
    }
    qsort(t, nt, sizeof t[0], cmp_term);
    /* A row: terms whose stride does not exceed what is covered so far. */
    int64_t len = a->size, ext;
    unsigned j = 0;
    for (; j < nt && t[j].stride <= len; j++)
        if (__builtin_mul_overflow(t[j].stride, t[j].count - 1, &ext) ||
            __builtin_add_overflow(len, ext, &len))
            return 0;
    /* Rows (their stride exceeds the row's length: apart), then slices. */
    int64_t pitch = len, rows = 1, slice, slices = 1;
    if (j < nt) {
        pitch = t[j].stride;
        rows = t[j].count;
        j++;
        if (!extend(t, nt, &j, pitch, &rows))
            return 0;
    }
    int64_t span, end; /* one slice's first to last byte; the box's end */
    if (__builtin_mul_overflow(pitch, rows, &slice) ||
        __builtin_mul_overflow(pitch, rows - 1, &span) || __builtin_add_overflow(span, len, &span))
        return 0;
    if (j < nt) {
        slice = t[j].stride;
        slices = t[j].count;
        j++;
        /* slices that interleave with the rows of the one before are no box */
        if (slice < span || !extend(t, nt, &j, slice, &slices))
            return 0;
    }
    if (j < nt || base < 0 || __builtin_mul_overflow(slice, slices - 1, &end) ||
        __builtin_add_overflow(end, span, &end) || __builtin_add_overflow(end, base, &end))
        return 0;
    *r = (struct skmd_rect){(uint64_t)base, (uint64_t)len, (uint64_t)pitch, (uint64_t)rows,
                            (uint64_t)slice, (uint64_t)slices};
    normalize(r);
    return 1;
}

uint64_t skmd_rect_end(const struct skmd_rect *r)
{
    return r->offset + (r->slices - 1) * r->slice_pitch + (r->rows - 1) * r->pitch + r->len;
}

/* Joins box b into *acc when the union is still a box: equal shapes whose rows touch or
 * overlap (stores of neighbouring elements), or intervals that touch. */
static int join(struct skmd_rect *acc, const struct skmd_rect *b)
{
    if (memcmp(acc, b, sizeof *b) == 0)
        return 1;
    const struct skmd_rect *lo = acc->offset <= b->offset ? acc : b;
    const struct skmd_rect *hi = lo == acc ? b : acc;
    int single = acc->rows == 1 && acc->slices == 1 && b->rows == 1 && b->slices == 1;
    if (!single && (acc->pitch != b->pitch || acc->rows != b->rows ||
                    acc->slice_pitch != b->slice_pitch || acc->slices != b->slices))
        return 0;
    if (hi->offset > lo->offset + lo->len)
        return 0;
    uint64_t end = hi->offset + hi->len > lo->offset + lo->len ? hi->offset + hi->len
                                                               : lo->offset + lo->len;
    struct skmd_rect u = *lo;
    u.len = end - lo->offset;
    if (!single && u.len > u.pitch)
        return 0;
    normalize(&u);
    *acc = u;
    return 1;
}

int skmd_rect_of_share(const struct skmd_share_view *v, unsigned p, uint64_t first,
                       uint64_t count, struct skmd_rect *r)
{
    uint64_t lo[3], n[3];
    if (!skmd_share_is_buffer(v, p) || !group_box(v->shape, first, count, lo, n))
        return 0;
    struct skmd_rect boxes[8];
    unsigned nb = 0;
    for (unsigned i = 0; i < v->rec->naccesses; i++) {
        const struct skmd_access_record *a = &v->rec->accesses[i];
        if (a->param != p || !(a->flags & SKMD_ACCESS_WRITE))
            continue;
        int none;
        if (nb == sizeof boxes / sizeof boxes[0] || !store_box(v, i, lo, n, &boxes[nb], &none))
            return 0;
        nb += !none;
    }
    if (!nb)
        return 0;
    /* Stores of neighbouring elements: join in order of offset until one box is left. */
    for (unsigned i = 1; i < nb; i++)
        for (unsigned j = i; j > 0 && boxes[j].offset < boxes[j - 1].offset; j--) {
            struct skmd_rect t = boxes[j];
            boxes[j] = boxes[j - 1];
            boxes[j - 1] = t;
        }
    *r = boxes[0];
    for (unsigned i = 1; i < nb; i++)
        if (!join(r, &boxes[i]))
            return 0;
    return skmd_rect_end(r) <= v->args[p].mem->size;
}

/* Whether the row [s, e) meets box b. */
static int row_meets(uint64_t s, uint64_t e, const struct skmd_rect *b, uint64_t *budget)
{
    uint64_t span = (b->rows - 1) * b->pitch + b->len; /* one slice, first to last byte */
    if (e <= b->offset || s >= skmd_rect_end(b))
        return 0;
    /* the slices whose span reaches [s, e) */
    uint64_t k_lo = s + 1 > b->offset + span
                        ? (s + 1 - b->offset - span + b->slice_pitch - 1) / b->slice_pitch
                        : 0;
    uint64_t k_hi = (e - 1 - b->offset) / b->slice_pitch;
    if (k_hi >= b->slices)
        k_hi = b->slices - 1;
    for (uint64_t k = k_lo; k <= k_hi; k++) {
        if (!*budget)
            return 1; /* too many to tell: taken as meeting */
        (*budget)--;
        uint64_t base = b->offset + k * b->slice_pitch;
        if (e <= base)
            break;
        /* the first row of the slice that ends after s */
        uint64_t j = s + 1 > base + b->len ? (s + 1 - base - b->len + b->pitch - 1) / b->pitch
                                           : 0;
        if (j < b->rows && base + j * b->pitch < e)
            return 1;
    }
    return 0;
}

int skmd_rect_disjoint(const struct skmd_rect *a, const struct skmd_rect *b)
{
    if (skmd_rect_end(a) <= b->offset || skmd_rect_end(b) <= a->offset)
        return 1;
    /* walk the rows of the box that has fewer */
    if (a->rows * a->slices > b->rows * b->slices) {
        const struct skmd_rect *t = a;
        a = b;
        b = t;
    }
    uint64_t budget = RECT_COMPARE_LIMIT;
    for (uint64_t k = 0; k < a->slices; k++)
        for (uint64_t j = 0; j < a->rows; j++) {
            uint64_t s = a->offset + k * a->slice_pitch + j * a->pitch;
            if (!budget || row_meets(s, s + a->len, b, &budget))
                return 0;
            budget--;
        }
    return 1;
}
