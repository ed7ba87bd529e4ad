/* transform/record_footprint.c: skmd_footprint, run by the runtime on every launch: which
 * bytes of a buffer a range of linear work-groups reads and writes.
 *
 * The range of linear groups is cut into at most five boxes (a partial row, whole rows, whole
 * planes, whole rows, a partial row). In a box every variable of an access's affine offset
 * runs over an interval, so the access touches {base + sum a_v*x_v + [0,size)}. Terms sorted
 * by stride that fit inside the block built so far extend it (a contiguous block); the
 * remaining terms are enumerated, one interval per block. Too many blocks: one bounding
 * interval, not exact. */
#include "record.h"

#include <stdlib.h>
#include <string.h>

#define MAX_TERMS (6 + 16)

struct box {
    uint64_t lo[3], n[3];
};

struct term {
    int64_t stride;  /* > 0 */
    int64_t count;   /* > 1 */
};

/* Launch-time values of the constant symbols. */
struct env {
    const struct skmd_launch *launch;
    const int64_t *args;
    unsigned nparams;
    const struct skmd_kernel_record *k;
    int64_t ngroups[3], lsize[3];
};

static int const_value(const struct env *e, uint16_t s, int64_t *v)
{
    unsigned i = SKMD_SYM_INDEX(s);
    switch (SKMD_SYM_KIND(s)) {
    case SKMD_SYM_LOCAL_SIZE:
        *v = i < 3 ? e->lsize[i] : 1;
        return 1;
    case SKMD_SYM_NUM_GROUPS:
        *v = i < 3 ? e->ngroups[i] : 1;
        return 1;
    case SKMD_SYM_GLOBAL_OFFSET:
        *v = i < e->launch->work_dim && i < 3 ? (int64_t)e->launch->global_offset[i] : 0;
        return 1;
    case SKMD_SYM_PARAM:
        if (i >= e->nparams || !e->args)
            return 0;
        *v = e->args[i];
        return 1;
    default:
        return 0;
    }
}

/* Evaluates p with every constant substituted: *c is the constant part, coef[v] the
 * coefficient of each variable (index: group 0..2, local 3..5, loop 6..). 0 when it cannot
 * (invalid, not affine, overflow, unknown symbol). */
static int eval_affine(const struct env *e, const struct skmd_poly *p, int64_t *c,
                       int64_t *coef, unsigned ncoef)
{
    *c = 0;
    memset(coef, 0, ncoef * sizeof *coef);
    if (!p->valid)
        return 0;
    for (unsigned i = 0; i < p->nmono; i++) {
        const struct skmd_mono *m = &p->mono[i];
        int64_t v = m->coef;
        int var = -1;
        for (unsigned s = 0; s < m->nsyms; s++) {
            uint16_t sym = m->syms[s];
            if (SKMD_SYM_IS_VAR(sym)) {
                if (var >= 0)
                    return 0;
                unsigned idx = SKMD_SYM_INDEX(sym);
                var = SKMD_SYM_KIND(sym) == SKMD_SYM_LOOP ? 6 + (int)idx
                                                         : (int)(SKMD_SYM_KIND(sym) * 3 + idx);
                if (idx >= 3 && SKMD_SYM_KIND(sym) != SKMD_SYM_LOOP)
                    var = -2; /* g3 / l3: always 0 */
                if (var >= (int)ncoef)
                    return 0;
                continue;
            }
            int64_t x;
            if (!const_value(e, sym, &x) || __builtin_mul_overflow(v, x, &v))
                return 0;
        }
        int64_t *dst = var == -1 ? c : var == -2 ? NULL : &coef[var];
        if (dst && __builtin_add_overflow(*dst, v, dst))
            return 0;
    }
    return 1;
}

static int eval_const(const struct env *e, const struct skmd_poly *p, int64_t *c)
{
    int64_t none[1];
    if (!skmd_poly_is_launch_const(p))
        return 0;
    return eval_affine(e, p, c, none, 0);
}

/* The trip count of loop l when it starts at s (bound b already divided). */
static int trip_from(const struct skmd_loop_record *l, int64_t s, int64_t b, int64_t *trip)
{
    int64_t d;
    if (__builtin_sub_overflow(b, s, &d))
        return 0;
    int64_t step = l->step;
    if (step < 0) {
        step = -step;
        d = -d;
    }
    *trip = d <= 0 ? 0 : d / step + (d % step != 0);
    if (l->at_least_once && *trip < 1)
        *trip = 1;
    return 1;
}

static int loop_trip(const struct env *e, const struct skmd_loop_record *l, int64_t *trip)
{
    int64_t s, b, coef[MAX_TERMS];
    if (!eval_const(e, &l->bound, &b) || l->step == 0 || l->bound_div < 1)
        return 0;
    b /= l->bound_div;
    if (eval_const(e, &l->start, &s))
        return trip_from(l, s, b, trip);
    /* A start that depends on group and local ids (not on other loops): the loop is
     * understood when its lowest and highest start give the same trip count (`for (r =
     * ty; r < 32; r += 8)` with ty < 8: 4 trips for every work-item). */
    int64_t lo, hi, t_lo, t_hi;
    if (!eval_affine(e, &l->start, &lo, coef, MAX_TERMS))
        return 0;
    hi = lo;
    for (unsigned v = 0; v < MAX_TERMS; v++) {
        int64_t n = v < 3 ? e->ngroups[v] : v < 6 ? e->lsize[v - 3] : 0, ext;
        if (!coef[v])
            continue;
        if (v >= 6 || __builtin_mul_overflow(coef[v], n - 1, &ext))
            return 0;
        if (__builtin_add_overflow(ext < 0 ? lo : hi, ext, ext < 0 ? &lo : &hi))
            return 0;
    }
    if (!trip_from(l, lo, b, &t_lo) || !trip_from(l, hi, b, &t_hi) || t_lo != t_hi)
        return 0;
    *trip = t_lo;
    return 1;
}

/* Adds [b, e) to the list, or fails when the list is full. */
static int push(struct skmd_interval *v, size_t cap, size_t *n, uint64_t b, uint64_t e)
{
    if (b >= e)
        return 1;
    if (*n == cap)
        return 0;
    v[*n].begin = b;
    v[*n].end = e;
    (*n)++;
    return 1;
}

static int cmp_interval(const void *pa, const void *pb)
{
    const struct skmd_interval *a = pa, *b = pb;
    return a->begin < b->begin ? -1 : a->begin > b->begin;
}

static void coalesce(struct skmd_interval *v, size_t *n)
{
    if (!*n)
        return;
    qsort(v, *n, sizeof *v, cmp_interval);
    size_t w = 0;
    for (size_t i = 1; i < *n; i++) {
        if (v[i].begin <= v[w].end) {
            if (v[i].end > v[w].end)
                v[w].end = v[i].end;
        } else {
            v[++w] = v[i];
        }
    }
    *n = w + 1;
}

static int cmp_term(const void *pa, const void *pb)
{
    const struct term *a = pa, *b = pb;
    return a->stride < b->stride ? -1 : a->stride > b->stride;
}

static uint64_t clamp0(int64_t x)
{
    return x < 0 ? 0 : (uint64_t)x;
}

/* The bytes one access touches in one box, appended to v. *exact is cleared when they had
 * to be bounded. 0 when the access cannot be evaluated at all. */
static int access_in_box(const struct env *e, const struct skmd_access_record *a,
                         const struct box *bx, const int64_t *trips,
                         struct skmd_interval *v, size_t cap, size_t *n, int *exact)
{
    int64_t c, coef[MAX_TERMS];
    unsigned nvars = 6 + e->k->nloops;
    if (nvars > MAX_TERMS || !eval_affine(e, &a->offset, &c, coef, nvars))
        return 0;
    int64_t clip = INT64_MAX;
    if (a->has_clip && !eval_const(e, &a->clip, &clip))
        return 0;

    struct term t[MAX_TERMS];
    unsigned nt = 0;
    int64_t base = c;
    for (unsigned i = 0; i < nvars; i++) {
        int64_t lo = 0, cnt;
        if (i < 3) {
            lo = (int64_t)bx->lo[i];
            cnt = (int64_t)bx->n[i];
        } else if (i < 6) {
            cnt = e->lsize[i - 3];
        } else {
            cnt = trips[i - 6];
            if (cnt < 0 && coef[i])
                return 0; /* a loop whose trip count is not known */
            if (cnt < 0)
                continue; /* not its loop, or its guard says it is conditional */
        }
        if (cnt <= 0)
            return 1; /* never runs in this box */
        int64_t stride = coef[i], first, span;
        if (__builtin_mul_overflow(stride, lo, &first) ||
            __builtin_add_overflow(base, first, &base))
            return 0;
        if (!stride || cnt == 1)
            continue;
        if (stride < 0) { /* walk it upward from its lowest point */
            if (__builtin_mul_overflow(stride, cnt - 1, &span) ||
                __builtin_add_overflow(base, span, &base))
                return 0;
            stride = -stride;
        }
        t[nt].stride = stride;
        t[nt].count = cnt;
        nt++;
    }
    qsort(t, nt, sizeof t[0], cmp_term);

    /* the contiguous block: terms whose stride does not exceed what is covered so far */
    int64_t len = a->size;
    int tiled = 1; /* every byte offset that is a multiple of size is an element start */
    unsigned k = 0;
    for (; k < nt && t[k].stride <= len; k++) {
        if (t[k].stride != len)
            tiled = 0;
        int64_t ext;
        if (__builtin_mul_overflow(t[k].stride, t[k].count - 1, &ext) ||
            __builtin_add_overflow(ext, len, &len))
            return 0;
    }
    /* how many blocks the other terms make */
    uint64_t blocks = 1;
    for (unsigned j = k; j < nt; j++)
        if (__builtin_mul_overflow(blocks, (uint64_t)t[j].count, &blocks))
            blocks = UINT64_MAX;
    if (a->has_clip && !tiled)
        *exact = 0;

    /* One past the last byte any block reaches, and the clip's end, checked once: every
     * block start below is at most hi - len, so the sums that place blocks cannot
     * overflow. Not representable in int64: the footprint is unknown (whole buffer). */
    int64_t hi, clip_end = INT64_MAX;
    if (__builtin_add_overflow(base, len, &hi))
        return 0;
    for (unsigned j = k; j < nt; j++) {
        int64_t ext;
        if (__builtin_mul_overflow(t[j].stride, t[j].count - 1, &ext) ||
            __builtin_add_overflow(hi, ext, &hi))
            return 0;
    }
    if (a->has_clip && __builtin_add_overflow(clip, (int64_t)a->size, &clip_end))
        return 0;

    if (blocks > cap - *n) { /* too many: one bounding interval */
        if (a->has_clip && hi > clip_end)
            hi = clip_end;
        *exact = 0;
        return push(v, cap, n, clamp0(base), clamp0(hi)) ? 1 : 0;
    }
    int64_t idx[MAX_TERMS] = {0};
    for (;;) {
        int64_t b = base;
        for (unsigned j = k; j < nt; j++)
            b += t[j].stride * idx[j];
        int64_t end = b + len;
        if (a->has_clip) {
            if (b > clip)
                end = b; /* guard false for the whole block */
            else if (end > clip_end)
                end = tiled ? b + (clip - b) / a->size * a->size + a->size : clip_end;
        }
        if (b < 0 || end < 0)
            *exact = 0; /* before the buffer: undefined in the kernel anyway */
        if (!push(v, cap, n, clamp0(b), clamp0(end)))
            return 0;
        unsigned j = k;
        while (j < nt && ++idx[j] == t[j].count)
            idx[j++] = 0;
        if (j == nt)
            break;
    }
    return 1;
}

/* Cuts [first, first+count) of linear groups into boxes of (g0, g1, g2). */
static unsigned make_boxes(const int64_t *ng, uint64_t first, uint64_t count, struct box *out)
{
    uint64_t nx = (uint64_t)ng[0], ny = (uint64_t)ng[1];
    uint64_t cur = first, end = first + count;
    unsigned nb = 0;
    while (cur < end && nb < 5) {
        uint64_t gx = cur % nx, rest = cur / nx, gy = rest % ny, gz = rest / ny;
        struct box *b = &out[nb++];
        if (gx != 0 || end - cur < nx) {
            uint64_t len = nx - gx < end - cur ? nx - gx : end - cur;
            *b = (struct box){{gx, gy, gz}, {len, 1, 1}};
            cur += len;
        } else if (gy != 0 || end - cur < nx * ny) {
            uint64_t rows = (end - cur) / nx;
            if (rows > ny - gy)
                rows = ny - gy;
            *b = (struct box){{0, gy, gz}, {nx, rows, 1}};
            cur += rows * nx;
        } else {
            uint64_t planes = (end - cur) / (nx * ny);
            *b = (struct box){{0, 0, gz}, {nx, ny, planes}};
            cur += planes * nx * ny;
        }
    }
    return nb;
}

int64_t skmd_scalar_value(const struct skmd_param_record *p, const void *bytes)
{
    const unsigned char *b = bytes;
    uint64_t u = 0;
    if (!b || !p->scalar_bytes || p->scalar_bytes > 8)
        return 0;
    for (unsigned i = 0; i < p->scalar_bytes; i++) /* little-endian, as every target here */
        u |= (uint64_t)b[i] << (8 * i);
    if (p->scalar_signed && p->scalar_bytes < 8 && (u >> (8 * p->scalar_bytes - 1)) & 1)
        u |= ~(uint64_t)0 << (8 * p->scalar_bytes);
    return (int64_t)u;
}

static void whole(struct skmd_interval *v, size_t cap, size_t *n)
{
    *n = 0;
    push(v, cap, n, 0, SKMD_WHOLE_BUFFER);
}

/* The evaluation environment of a launch: its work-groups and local sizes per dimension;
 * 0 when the shape is not one (a size of 0, a global size not a multiple of the local). */
static int launch_env(struct env *e, const struct skmd_kernel_record *k,
                      const struct skmd_launch *launch, const int64_t *scalar_args)
{
    *e = (struct env){.launch = launch, .args = scalar_args, .nparams = k->nparams, .k = k};
    for (unsigned d = 0; d < 3; d++) {
        uint64_t gs = d < launch->work_dim ? launch->global_size[d] : 1;
        uint64_t ls = d < launch->work_dim ? launch->local_size[d] : 1;
        if (!ls || !gs || gs % ls || gs / ls > INT64_MAX || ls > INT64_MAX)
            return 0;
        e->ngroups[d] = (int64_t)(gs / ls);
        e->lsize[d] = (int64_t)ls;
    }
    return 1;
}

int skmd_footprint(const struct skmd_kernel_record *k, unsigned param,
                   const struct skmd_launch *launch, const int64_t *scalar_args,
                   uint64_t first_group, uint64_t group_count, struct skmd_footprint *out)
{
    if (!k || !launch || !out || param >= k->nparams || launch->work_dim < 1 ||
        launch->work_dim > 3 || out->read_cap < 1 || out->write_cap < 1)
        return -1;
    struct env e;
    if (!launch_env(&e, k, launch, scalar_args))
        return -1;
    uint64_t total = 1;
    for (unsigned d = 0; d < 3; d++)
        if (__builtin_mul_overflow(total, (uint64_t)e.ngroups[d], &total))
            return -1;
    if (group_count > total || first_group > total - group_count)
        return -1;

    out->nread = out->nwrite = 0;
    out->write_exact = 1;
    if (!group_count)
        return 0;
    int64_t trips[256];
    int trips_ok = 1;
    for (unsigned l = 0; l < k->nloops && l < 256; l++)
        if (!loop_trip(&e, &k->loops[l], &trips[l]))
            trips[l] = -1; /* only the accesses that step with it are unknown */
    if (k->nloops > 256)
        trips_ok = 0;
    struct box boxes[5];
    unsigned nb = make_boxes(e.ngroups, first_group, group_count, boxes);

    int read_whole = 0, write_whole = 0;
    for (unsigned i = 0; i < k->naccesses; i++) {
        const struct skmd_access_record *a = &k->accesses[i];
        if (a->param != param)
            continue;
        int is_write = (a->flags & SKMD_ACCESS_WRITE) != 0;
        int is_read = (a->flags & SKMD_ACCESS_READ) != 0;
        int exact = !a->conditional, read_exact = 1; /* reads may be bounds */
        int ok = a->affine && trips_ok;
        /* reads and writes of one access (atomics) both get the intervals */
        for (unsigned b = 0; ok && b < nb; b++) {
            if (is_write && !write_whole)
                ok = access_in_box(&e, a, &boxes[b], trips, out->write, out->write_cap,
                                   &out->nwrite, &exact);
            if (ok && is_read && !read_whole)
                ok = access_in_box(&e, a, &boxes[b], trips, out->read, out->read_cap,
                                   &out->nread, &read_exact);
            if (!ok) { /* list full: squeeze and try once more */
                coalesce(out->write, &out->nwrite);
                coalesce(out->read, &out->nread);
                ok = (!is_write || write_whole ||
                      access_in_box(&e, a, &boxes[b], trips, out->write, out->write_cap,
                                    &out->nwrite, &exact)) &&
                     (!is_read || read_whole ||
                      access_in_box(&e, a, &boxes[b], trips, out->read, out->read_cap,
                                    &out->nread, &read_exact));
            }
        }
        if (!ok) {
            read_whole |= is_read;
            write_whole |= is_write;
        }
        if (is_write && !exact)
            out->write_exact = 0;
    }
    if (read_whole)
        whole(out->read, out->read_cap, &out->nread);
    else
        coalesce(out->read, &out->nread);
    if (write_whole) {
        whole(out->write, out->write_cap, &out->nwrite);
        out->write_exact = 0;
    } else {
        coalesce(out->write, &out->nwrite);
    }
    return 0;
}

int skmd_access_affine(const struct skmd_kernel_record *k, unsigned access,
                       const struct skmd_launch *launch, const int64_t *scalar_args,
                       int64_t *base, int64_t *coef, int64_t *count)
{
    if (!k || !launch || access >= k->naccesses || launch->work_dim < 1 ||
        launch->work_dim > 3 || 6 + k->nloops > SKMD_ACCESS_MAX_VARS)
        return 0;
    const struct skmd_access_record *a = &k->accesses[access];
    struct env e;
    if (!launch_env(&e, k, launch, scalar_args))
        return 0;
    if (!a->affine || !eval_affine(&e, &a->offset, base, coef, 6 + k->nloops))
        return 0;
    for (unsigned d = 0; d < 3; d++) {
        count[d] = e.ngroups[d];
        count[3 + d] = e.lsize[d];
    }
    for (unsigned l = 0; l < k->nloops; l++)
        if (!loop_trip(&e, &k->loops[l], &count[6 + l]))
            count[6 + l] = -1;
    return 1;
}

int skmd_poly_affine_at(const struct skmd_kernel_record *k, const struct skmd_poly *p,
                        const struct skmd_launch *launch, const int64_t *scalar_args,
                        int64_t *base, int64_t *coef)
{
    if (!k || !launch || launch->work_dim < 1 || launch->work_dim > 3 ||
        6 + k->nloops > SKMD_ACCESS_MAX_VARS)
        return 0;
    struct env e;
    if (!launch_env(&e, k, launch, scalar_args))
        return 0;
    return eval_affine(&e, p, base, coef, 6 + k->nloops);
}
