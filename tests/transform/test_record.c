/* tests/transform/test_record.c: the launch-time footprint evaluator and the record's text
 * round trip, on hand-built records whose answers are worked out in the comments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../transform/record.h"

#include "../common/check.h"

static struct skmd_poly P(const char *text)
{
    struct skmd_poly p;
    int used = skmd_poly_parse(&p, text);
    if (used < 0 || text[used]) {
        fprintf(stderr, "bad poly %s\n", text);
        exit(2);
    }
    return p;
}

/* One record per kernel, so that adding one never moves another. */
static struct skmd_program_record recs[8];
static unsigned nrecs;

static struct skmd_kernel_record *kernel(const char *name, unsigned nparams)
{
    struct skmd_program_record *r = &recs[nrecs++];
    struct skmd_kernel_record *k = skmd_record_add_kernel(r, name);
    k->params = calloc(nparams, sizeof *k->params);
    k->nparams = nparams;
    for (unsigned i = 0; i < nparams; i++) {
        char n[16];
        snprintf(n, sizeof n, "a%u", i);
        k->params[i].name = strdup(n);
        k->params[i].kind = SKMD_PARAM_GLOBAL;
    }
    return k;
}

static void access(struct skmd_kernel_record *k, unsigned param, unsigned flags,
                   unsigned size, const char *offset)
{
    struct skmd_access_record *a = skmd_kernel_add_access(k);
    a->param = param;
    a->flags = flags;
    a->size = size;
    a->affine = 1;
    a->offset = P(offset);
}

#define CAP 64
static struct skmd_interval rd[CAP], wr[CAP];
static struct skmd_footprint fp(const struct skmd_kernel_record *k, unsigned param,
                                const struct skmd_launch *l, const int64_t *args,
                                uint64_t first, uint64_t count)
{
    struct skmd_footprint f = {.read = rd, .write = wr, .read_cap = CAP, .write_cap = CAP};
    int rc = skmd_footprint(k, param, l, args, first, count, &f);
    CHECK(rc == 0);
    return f;
}

static int is(const struct skmd_interval *v, size_t n, size_t want_n, const uint64_t *want)
{
    if (n != want_n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (v[i].begin != want[2 * i] || v[i].end != want[2 * i + 1])
            return 0;
    return 1;
}

int main(void)
{

    /* vector add c[i] = a[i] + b[i], i = get_global_id(0) = g0*L0 + l0 + O0 (floats) */
    struct skmd_kernel_record *vadd = kernel("vadd", 3);
    access(vadd, 0, SKMD_ACCESS_READ, 4, "4*L0*g0+4*l0+4*O0");
    access(vadd, 2, SKMD_ACCESS_WRITE, 4, "4*L0*g0+4*l0+4*O0");
    struct skmd_launch l1 = {1, {0}, {1024}, {64}};
    struct skmd_footprint f = fp(vadd, 2, &l1, NULL, 3, 5); /* groups 3..7: items 192..511 */
    CHECK(f.write_exact && is(f.write, f.nwrite, 1, (uint64_t[]){768, 2048}));
    CHECK(f.nread == 0);
    f = fp(vadd, 0, &l1, NULL, 3, 5);
    CHECK(is(f.read, f.nread, 1, (uint64_t[]){768, 2048}) && f.nwrite == 0);
    f = fp(vadd, 1, &l1, NULL, 0, 16); /* b: never accessed in this record */
    CHECK(f.nread == 0 && f.nwrite == 0 && f.write_exact);
    struct skmd_launch l1o = {1, {100}, {1024}, {64}}; /* global offset 100 items */
    f = fp(vadd, 2, &l1o, NULL, 0, 1);
    CHECK(f.write_exact && is(f.write, f.nwrite, 1, (uint64_t[]){400, 656}));

    /* matrix C[row*N + col], row = g1*L1+l1, col = g0*L0+l0, N = p3 (floats);
     * 64x32 items, 16x8 groups: 4x4 groups; N = 64 */
    struct skmd_kernel_record *mm = kernel("mm", 4);
    mm->params[3].kind = SKMD_PARAM_SCALAR;
    mm->params[3].scalar_bytes = 4;
    mm->params[3].scalar_signed = 1;
    mm->params[0].float_bits = 32; /* float elements (SKMD_VERIFY's tolerance) */
    mm->params[1].float_bits = 64;
    access(mm, 0, SKMD_ACCESS_WRITE, 4, "4*p3*L1*g1+4*p3*l1+4*L0*g0+4*l0");
    struct skmd_launch l2 = {2, {0, 0}, {64, 32}, {16, 8}};
    int64_t args[4] = {0, 0, 0, 64};
    f = fp(mm, 0, &l2, args, 4, 8); /* group rows 1 and 2: matrix rows 8..23, one interval */
    CHECK(f.write_exact && is(f.write, f.nwrite, 1, (uint64_t[]){8 * 256, 24 * 256}));
    f = fp(mm, 0, &l2, args, 2, 3); /* groups (2,0),(3,0),(0,1): a partial row then 8 rows */
    {
        /* rows 0..7, columns 32..63: [256*row+128, 256*row+256); then rows 8..15, columns
         * 0..15: [256*row, 256*row+64). Row 7's interval ends where row 8's begins: 15. */
        uint64_t want[2 * 15];
        size_t n = 0;
        for (uint64_t row = 0; row < 8; row++) {
            want[n++] = row * 256 + 128;
            want[n++] = row * 256 + 256;
        }
        n--; /* merged with row 8 */
        want[n++] = 8 * 256 + 64;
        for (uint64_t row = 9; row < 16; row++) {
            want[n++] = row * 256;
            want[n++] = row * 256 + 64;
        }
        CHECK(n == 30 && f.write_exact && is(f.write, f.nwrite, 15, want));
    }
    /* N = 48 < width 64: rows overlap, still a union of exact intervals */
    args[3] = 48;
    f = fp(mm, 0, &l2, args, 0, 16);
    CHECK(f.write_exact && is(f.write, f.nwrite, 1, (uint64_t[]){0, 4 * (31 * 48 + 64)}));

    /* guarded tail: if (i < n) out[i] = ..; n = p1 = 1000 of a 1024-item launch */
    struct skmd_kernel_record *tail = kernel("tail", 2);
    tail->params[1].kind = SKMD_PARAM_SCALAR;
    access(tail, 0, SKMD_ACCESS_WRITE, 4, "4*L0*g0+4*l0");
    tail->accesses[0].has_clip = 1;
    tail->accesses[0].clip = P("4*p1+-4"); /* last element offset allowed: 4*(n-1) */
    int64_t targs[2] = {0, 1000};
    f = fp(tail, 0, &l1, targs, 14, 2); /* items 896..1023 -> 896..999 */
    CHECK(f.write_exact && is(f.write, f.nwrite, 1, (uint64_t[]){3584, 4000}));
    f = fp(tail, 0, &l1, targs, 0, 1);
    CHECK(f.write_exact && is(f.write, f.nwrite, 1, (uint64_t[]){0, 256}));

    /* a loop: for (k = 0; k < 4; k++) out[gid*8 + 2*k] (strided, ints): not contiguous */
    struct skmd_kernel_record *lp = kernel("strided", 1);
    struct skmd_loop_record *loop = skmd_kernel_add_loop(lp);
    loop->step = 1;
    loop->bound_div = 1;
    loop->start = P("0");
    loop->bound = P("4");
    access(lp, 0, SKMD_ACCESS_WRITE, 4, "32*L0*g0+32*l0+8*t0");
    struct skmd_launch l3 = {1, {0}, {8}, {2}};
    f = fp(lp, 0, &l3, NULL, 1, 1); /* items 2,3: elements 16,18,20,22,24,26,28,30 */
    CHECK(f.write_exact && f.nwrite == 8 && f.write[0].begin == 64 && f.write[0].end == 68 &&
          f.write[7].begin == 120 && f.write[7].end == 124);
    /* too many intervals for the caller's array: a bound, not exact */
    struct skmd_interval small[4];
    struct skmd_footprint fs = {.read = rd, .write = small, .read_cap = CAP, .write_cap = 4};
    CHECK(skmd_footprint(lp, 0, &l3, NULL, 1, 1, &fs) == 0);
    CHECK(!fs.write_exact && fs.nwrite == 1 && fs.write[0].begin == 64 &&
          fs.write[0].end == 124);

    /* a non-affine write: the whole buffer, not exact */
    struct skmd_kernel_record *sc = kernel("scatter", 1);
    access(sc, 0, SKMD_ACCESS_WRITE, 4, "0");
    sc->accesses[0].affine = 0;
    skmd_poly_invalid(&sc->accesses[0].offset);
    f = fp(sc, 0, &l1, NULL, 0, 1);
    CHECK(!f.write_exact && f.nwrite == 1 && f.write[0].end == SKMD_WHOLE_BUFFER);

    /* 3-D: out[(z*NY + y)*NX + x] with global id per dim, 4x4x4 items, 2x2x2 groups */
    struct skmd_kernel_record *k3 = kernel("k3", 1);
    access(k3, 0, SKMD_ACCESS_WRITE, 1,
           "L0*g0+l0+4*L1*g1+4*l1+16*L2*g2+16*l2");
    struct skmd_launch l4 = {3, {0, 0, 0}, {4, 4, 4}, {2, 2, 2}};
    f = fp(k3, 0, &l4, NULL, 4, 4); /* the whole z-plane of groups 1: bytes 32..63 */
    CHECK(f.write_exact && is(f.write, f.nwrite, 1, (uint64_t[]){32, 64}));

    /* bad arguments: a clear error, no crash */
    struct skmd_footprint fb = {.read = rd, .write = wr, .read_cap = CAP, .write_cap = CAP};
    CHECK(skmd_footprint(vadd, 9, &l1, NULL, 0, 1, &fb) == -1);
    CHECK(skmd_footprint(vadd, 0, &l1, NULL, 10, 7, &fb) == -1); /* past 16 groups */
    struct skmd_launch bad = {1, {0}, {100}, {64}};
    CHECK(skmd_footprint(vadd, 0, &bad, NULL, 0, 1, &fb) == -1);

    /* scalar argument bytes */
    int32_t minus = -5;
    CHECK(skmd_scalar_value(&mm->params[3], &minus) == -5);

    /* text round trip: write, read back, write again: the same bytes */
    skmd_kernel_set_reason(sc, 14, "global atomic_add at line 14");
    sc->splittable = 0;
    struct skmd_program_record r;
    skmd_record_init(&r);
    for (unsigned i = 0; i < nrecs; i++) { /* gather them into one program, moved */
        struct skmd_kernel_record *slot = skmd_record_add_kernel(&r, "x");
        free(slot->name);
        free(slot->reason);
        *slot = recs[i].kernels[0];
        free(recs[i].kernels);
    }
    char *t1 = NULL, *t2 = NULL;
    size_t n1 = 0, n2 = 0;
    FILE *m1 = open_memstream(&t1, &n1);
    CHECK(skmd_record_write(m1, &r) == 0);
    fclose(m1);
    FILE *in = fmemopen(t1, n1, "r");
    struct skmd_program_record back;
    char err[128];
    CHECK(skmd_record_read(in, &back, err, sizeof err) == 0);
    fclose(in);
    FILE *m2 = open_memstream(&t2, &n2);
    skmd_record_write(m2, &back);
    fclose(m2);
    CHECK(n1 == n2 && !memcmp(t1, t2, n1));
    const struct skmd_kernel_record *mm2 = skmd_record_find(&back, "mm");
    CHECK(mm2 && mm2->nparams == 4 && mm2->params[3].scalar_signed == 1);
    CHECK(mm2 && mm2->params[0].float_bits == 32 && mm2->params[1].float_bits == 64 &&
          mm2->params[2].float_bits == 0);
    if (mm2) {
        args[3] = 64;
        f = fp(mm2, 0, &l2, args, 4, 8);
        CHECK(f.write_exact && is(f.write, f.nwrite, 1, (uint64_t[]){2048, 6144}));
    }
    skmd_record_free(&back);
    /* malformed text: an error with the line */
    const char *badtext = "skmd-record 1\nkernel x\naccess 0 write 4 0 1 0 0 4*q0 0\nend\n";
    in = fmemopen((void *)badtext, strlen(badtext), "r");
    CHECK(skmd_record_read(in, &back, err, sizeof err) == -1 && strstr(err, "line 3"));
    fclose(in);
    FILE *js = fopen("/dev/null", "w");
    CHECK(skmd_record_write_json(js, &r) == 0);
    fclose(js);
    free(t1);
    free(t2);
    skmd_record_free(&r);
    return check_report("test_record");
}
