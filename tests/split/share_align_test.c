/* tests/split/share_align_test.c: libskmd/plan/share_align.c without OpenCL: the rounding of
 * shares to whole rows, the unit chosen from analysis records (the records skmd-opt
 * writes for tests/split/shapes.c's kernels), the write modes (exact, disjoint bounds,
 * merge, aliased arguments), the partitioner's problem in units and the memo of launch
 * answers (launch_memo.c). Prints one line per
 * failed check; exit status 1 when any failed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/launch_memo.h"
#include "plan/share_align.h"

#include "../common/check.h"

static const char *records =
    "skmd-record 1\n"
    "kernel rows2d\n"
    "splittable 1 0 \n"
    "merge 0 disjoint 0 groupfree 0\n"
    "features 9 2 0 0 0 1 1 0 1 1 5.5\n"
    "param global read 4 0 0 arg0\n"
    "param global write 4 0 0 arg1\n"
    "param scalar none 0 4 1 arg2\n"
    "loop 1 0 1 0 4\n"
    "access 0 read 4 6 1 0 0 4*t0*L1*p2+16*g1*L1*p2+4*l1*p2+4*g0*L0+4*O0+4*l0 ?\n"
    "access 1 write 4 6 1 0 0 4*t0*L1*p2+16*g1*L1*p2+4*l1*p2+4*g0*L0+4*O0+4*l0 ?\n"
    "end\n"
    "kernel planes3d\n"
    "splittable 1 0 \n"
    "merge 0 disjoint 0 groupfree 0\n"
    "features 15 0 0 0 0 0 1 0 1 1 15\n"
    "param global write 4 0 0 arg0\n"
    "param scalar none 0 4 1 arg1\n"
    "param scalar none 0 4 1 arg2\n"
    "loop 1 0 1 0 8\n"
    "access 0 write 4 14 1 0 0 4*t0*L2*p1*p2+32*g2*L2*p1*p2+4*l2*p1*p2+4*g1*L1*p1+4*O1*p1"
    "+4*l1*p1+4*g0*L0+4*O0+4*l0 ?\n"
    "end\n"
    "kernel stencil\n"
    "splittable 1 0 \n"
    "merge 1 disjoint 0 groupfree 1\n"
    "features 15 5 0 0 0 5 1 0 2 1 3.3\n"
    "param global read 4 0 0 arg0\n"
    "param global write 4 0 0 arg1\n"
    "param scalar none 0 4 1 arg2\n"
    "access 0 read 4 20 1 0 0 4*g1*L1*p2+4*O1*p2+4*l1*p2+4*g0*L0+4*O0+4*l0 ?\n"
    "access 1 write 4 20 1 1 0 4*g1*L1*p2+4*O1*p2+4*l1*p2+4*g0*L0+4*O0+4*l0 ?\n"
    "end\n"
    "kernel swap\n"
    "splittable 1 0 \n"
    "merge 1 disjoint 0 groupfree 1\n"
    "features 5 0 0 0 0 3 2 0 1 1 1\n"
    "param global read 4 0 0 arg0\n"
    "param global read 4 0 0 arg1\n"
    "param global write 4 0 0 arg2\n"
    "access 1 read 4 26 1 0 0 4*g0*L0+4*O0+4*l0 ?\n"
    "access 2 write 4 26 1 1 0 4*g0*L0+4*O0+4*l0+-4 ?\n"
    "access 2 write 4 27 1 1 0 4*g0*L0+4*O0+4*l0+4 ?\n"
    "end\n";

static void round_case(const char *what, const uint64_t *in, const uint64_t *want, int n,
                       uint64_t total, uint64_t unit)
{
    uint64_t c[8];
    memcpy(c, in, sizeof *c * (size_t)n);
    skmd_share_round(c, n, total, unit);
    EXPECT(memcmp(c, want, sizeof *c * (size_t)n) == 0, "round %s: got %llu %llu %llu", what,
           (unsigned long long)c[0], (unsigned long long)c[1],
           (unsigned long long)(n > 2 ? c[2] : 0));
}

static void test_round(void)
{
    round_case("nearest row", (uint64_t[]){77, 179}, (uint64_t[]){64, 192}, 2, 256, 32);
    round_case("up", (uint64_t[]){154, 102}, (uint64_t[]){160, 96}, 2, 256, 32);
    round_case("a probe keeps one row", (uint64_t[]){248, 8}, (uint64_t[]){224, 32}, 2, 256,
               32);
    round_case("small shares keep a row each", (uint64_t[]){10, 5, 241},
               (uint64_t[]){32, 32, 192}, 3, 256, 32);
    round_case("room left for the later ones", (uint64_t[]){250, 3, 3},
               (uint64_t[]){192, 32, 32}, 3, 256, 32);
    round_case("a member without a share", (uint64_t[]){100, 0, 156},
               (uint64_t[]){96, 0, 160}, 3, 256, 32);
    round_case("whole stays whole", (uint64_t[]){0, 256}, (uint64_t[]){0, 256}, 2, 256, 32);
    round_case("unit 1", (uint64_t[]){77, 179}, (uint64_t[]){77, 179}, 2, 256, 1);
    round_case("total not whole rows", (uint64_t[]){77, 180}, (uint64_t[]){77, 180}, 2, 257,
               32);
    round_case("fewer rows than shares", (uint64_t[]){20, 20, 24},
               (uint64_t[]){20, 20, 24}, 3, 64, 32);
}

static struct _cl_mem mems[4];

static const struct skmd_kernel_record *kernel(const struct skmd_program_record *p,
                                               const char *name)
{
    const struct skmd_kernel_record *k = skmd_record_find(p, name);
    if (!k) {
        printf("FAIL share-align: no kernel %s in the record\n", name);
        exit(1);
    }
    return k;
}

/* A launch of k with buffers of `size` bytes on every pointer parameter. */
static void view_of(const struct skmd_kernel_record *k, struct skmd_arg *args,
                    const int64_t *scalars, const struct skmd_launch *shape, size_t size,
                    struct skmd_share_view *v)
{
    memset(args, 0, sizeof *args * k->nparams);
    for (unsigned p = 0; p < k->nparams; p++) {
        args[p].set = 1;
        if (k->params[p].kind == SKMD_PARAM_GLOBAL) {
            mems[p].size = size;
            mems[p].parent = NULL;
            args[p].mem = &mems[p];
        }
    }
    *v = (struct skmd_share_view){k, args, scalars, shape};
}

/* skmd_share_unit_merge: skmd_share_unit's unit and skmd_share_probe_merge's answer for
 * it, from one set of probes. */
static int unit_merge_agrees(const struct skmd_share_view *v, uint64_t total, int members)
{
    int merge = -1;
    uint64_t unit = skmd_share_unit_merge(v, total, members, &merge);
    return unit == skmd_share_unit(v, total, members) &&
           merge == skmd_share_probe_merge(v, total, members, unit);
}

static void test_units(const struct skmd_program_record *prog)
{
    struct skmd_arg args[4];
    struct skmd_share_view v;
    unsigned char mode[4];

    /* rows2d, 512 x 512 floats: 32 x 8 groups of 16 x 16, 4 rows per work-item. */
    int64_t s2[3] = {0, 0, 512};
    struct skmd_launch l2 = {2, {0, 0, 0}, {512, 128, 1}, {16, 16, 1}};
    view_of(kernel(prog, "rows2d"), args, s2, &l2, 512 * 512 * 4, &v);
    EXPECT(skmd_share_unit(&v, 256, 2) == 32, "rows2d: unit %llu, want a row of 32",
           (unsigned long long)skmd_share_unit(&v, 256, 2));
    EXPECT(skmd_share_unit(&v, 256, 9) == 1, "rows2d: 9 members on 8 rows still get a unit");
    EXPECT(unit_merge_agrees(&v, 256, 2) && unit_merge_agrees(&v, 256, 9),
           "rows2d: the unit's merge probe differs");
    uint64_t f1[2] = {0, 77}, c1[2] = {77, 179}, f2[2] = {0, 64}, c2[2] = {64, 192};
    EXPECT(skmd_share_write_modes(&v, f1, c1, 2, mode) && mode[1] == SKMD_WRITE_MERGE,
           "rows2d: a cut mid-row is not merged (mode %d)", mode[1]);
    EXPECT(!skmd_share_write_modes(&v, f2, c2, 2, mode) && mode[1] == SKMD_WRITE_EXACT &&
               mode[0] == SKMD_WRITE_NONE,
           "rows2d: whole rows are not exact (mode %d)", mode[1]);
    /* One buffer as both arguments: exact writes stay exact... */
    args[0].mem = args[1].mem;
    EXPECT(!skmd_share_write_modes(&v, f2, c2, 2, mode) && mode[1] == SKMD_WRITE_EXACT,
           "rows2d in place: whole rows are not exact");
    args[0].mem = &mems[0];

    /* planes3d, 32 x 8 x 256 ints: 4 x 4 x 4 groups of 8 x 2 x 8, 8 planes each. */
    int64_t s3[3] = {0, 32, 8};
    struct skmd_launch l3 = {3, {0, 0, 0}, {32, 8, 32}, {8, 2, 8}};
    view_of(kernel(prog, "planes3d"), args, s3, &l3, 32 * 8 * 256 * 4, &v);
    EXPECT(skmd_share_unit(&v, 64, 2) == 16, "planes3d: unit %llu, want a plane of 16",
           (unsigned long long)skmd_share_unit(&v, 64, 2));
    EXPECT(skmd_share_unit(&v, 64, 5) == 1, "planes3d: 5 members on 4 planes get a unit");
    EXPECT(unit_merge_agrees(&v, 64, 2) && unit_merge_agrees(&v, 64, 5),
           "planes3d: the unit's merge probe differs");

    /* stencil, 256 x 256: bounds, disjoint at any cut. */
    int64_t ss[3] = {0, 0, 256};
    struct skmd_launch ls = {2, {0, 0, 0}, {256, 256, 1}, {16, 16, 1}};
    view_of(kernel(prog, "stencil"), args, ss, &ls, 256 * 256 * 4, &v);
    EXPECT(skmd_share_unit(&v, 256, 3) == 1, "stencil: a unit where none is needed");
    EXPECT(unit_merge_agrees(&v, 256, 3), "stencil: the unit's merge probe differs");
    uint64_t f3[3] = {0, 77, 205}, c3[3] = {77, 128, 51};
    EXPECT(!skmd_share_write_modes(&v, f3, c3, 3, mode) && mode[1] == SKMD_WRITE_BOUND,
           "stencil: not by bounds (mode %d)", mode[1]);
    /* ...but bounds through a buffer another argument also reaches are merged. */
    args[0].mem = args[1].mem;
    EXPECT(skmd_share_write_modes(&v, f3, c3, 3, mode) && mode[1] == SKMD_WRITE_MERGE,
           "stencil in place: bounds used (mode %d)", mode[1]);

    /* swap: each share's bound reaches one element into its neighbours'. */
    int64_t sw[3] = {0, 0, 0};
    struct skmd_launch lw = {1, {0, 0, 0}, {4096, 1, 1}, {64, 1, 1}};
    view_of(kernel(prog, "swap"), args, sw, &lw, 4096 * 4, &v);
    uint64_t f4[2] = {0, 19}, c4[2] = {19, 45};
    EXPECT(skmd_share_write_modes(&v, f4, c4, 2, mode) && mode[2] == SKMD_WRITE_MERGE,
           "swap: overlapping bounds not merged (mode %d)", mode[2]);
    EXPECT(skmd_share_unit(&v, 64, 2) == 1, "swap: a 1-D launch got a unit");
    EXPECT(unit_merge_agrees(&v, 64, 2) && unit_merge_agrees(&v, 64, 1),
           "swap: the unit's merge probe differs");
    uint64_t f5[1] = {0}, c5[1] = {64};
    EXPECT(!skmd_share_write_modes(&v, f5, c5, 1, mode) && mode[2] == SKMD_WRITE_BOUND,
           "swap: one share's bound is merged (mode %d)", mode[2]);
}

static void test_scale(void)
{
    struct skmd_part_device dev[2] = {0};
    for (int k = 0; k < SKMD_PART_RANGES; k++) {
        dev[0].table.rate[k] = 10;
        dev[1].table.rate[k] = 30;
    }
    dev[0].table.samples[5] = 3; /* measured at 32..63 work-groups */
    dev[0].peak_rate = dev[1].peak_rate = 64;
    dev[0].link = dev[1].link = -1; /* host memory: no transfers */
    struct skmd_part_problem p = {.ndev = 2, .dev = dev, .total_wg = 256, .host_dev = 0,
                                  .in_per_wg = 100, .out_per_wg = 50};
    EXPECT(!skmd_share_scale_problem(&p, dev, 1) && p.total_wg == 256, "unit 1 scaled");
    EXPECT(!skmd_share_scale_problem(&p, dev, 3), "256 scaled by units of 3");
    EXPECT(skmd_share_scale_problem(&p, dev, 32) && p.total_wg == 8 && p.in_per_wg == 3200 &&
               p.out_per_wg == 1600 && dev[1].table.rate[0] == 30.0 / 32 &&
               dev[0].table.samples[0] == 3 && dev[0].table.samples[1] == 0 &&
               dev[0].peak_rate == 2,
           "the problem in units of 32: total %llu, rate %g, samples %u",
           (unsigned long long)p.total_wg, dev[1].table.rate[0], dev[0].table.samples[0]);
    struct skmd_part_result r;
    EXPECT(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_OK,
           "the scaled problem is refused");
    skmd_share_unscale_result(&r, 32);
    EXPECT(r.count[0] + r.count[1] == 256 && r.count[0] % 32 == 0 && r.count[1] % 32 == 0 &&
               r.granularity % 32 == 0,
           "decided in units: %llu + %llu", (unsigned long long)r.count[0],
           (unsigned long long)r.count[1]);
}

/* launch_memo.c: a launch's key follows what footprints depend on, the memo keeps the 8
 * latest answers, and a freed record makes it forget them. */
static void test_memo(const struct skmd_program_record *prog)
{
    const struct skmd_kernel_record *k = kernel(prog, "rows2d");
    struct skmd_arg args[3];
    int64_t scalars[3] = {0, 0, 64};
    struct skmd_launch shape = {2, {0, 0, 0}, {64, 64, 1}, {8, 8, 1}};
    struct skmd_share_view v;
    view_of(k, args, scalars, &shape, 16384, &v);
    uint64_t key = skmd_launch_key(k, &shape, args, scalars, NULL, 0);
    CHECK(key == skmd_launch_key(k, &shape, args, scalars, NULL, 0));
    int extra = 1;
    CHECK(key != skmd_launch_key(k, &shape, args, scalars, &extra, sizeof extra));
    scalars[2] = 32;
    CHECK(key != skmd_launch_key(k, &shape, args, scalars, NULL, 0));
    scalars[2] = 64;
    mems[1].size = 8192;
    CHECK(key != skmd_launch_key(k, &shape, args, scalars, NULL, 0));
    mems[1].size = 16384;
    shape.global_size[1] = 32;
    CHECK(key != skmd_launch_key(k, &shape, args, scalars, NULL, 0));
    shape.global_size[1] = 64;
    CHECK(key == skmd_launch_key(k, &shape, args, scalars, NULL, 0));

    struct skmd_launch_memo memo = {0};
    int64_t value = -1;
    CHECK(!skmd_launch_memo_find(&memo, 1, &value));
    for (uint64_t i = 1; i <= SKMD_LAUNCH_MEMO_SLOTS + 1; i++)
        skmd_launch_memo_keep(&memo, i, (int64_t)(i * 10));
    CHECK(!skmd_launch_memo_find(&memo, 1, &value)); /* the oldest made room */
    CHECK(skmd_launch_memo_find(&memo, 2, &value) && value == 20);
    CHECK(skmd_launch_memo_find(&memo, SKMD_LAUNCH_MEMO_SLOTS + 1, &value) &&
          value == 10 * (SKMD_LAUNCH_MEMO_SLOTS + 1));
    skmd_launch_memo_keep(&memo, 2, 7);
    CHECK(skmd_launch_memo_find(&memo, 2, &value) && value == 7);
    skmd_launch_memo_forget_all();
    CHECK(!skmd_launch_memo_find(&memo, 2, &value));
    skmd_launch_memo_keep(&memo, 2, 8);
    CHECK(skmd_launch_memo_find(&memo, 2, &value) && value == 8);
    CHECK(!skmd_launch_memo_find(&memo, 3, &value));
}

int main(void)
{
    struct skmd_program_record prog;
    char err[256];
    FILE *f = fmemopen((void *)records, strlen(records), "r");
    if (!f || skmd_record_read(f, &prog, err, sizeof err) != 0) {
        printf("FAIL share-align: the record does not parse: %s\n", f ? err : "fmemopen");
        return 1;
    }
    fclose(f);
    test_round();
    test_units(&prog);
    test_scale();
    test_memo(&prog);
    skmd_record_free(&prog);
    if (!check_failures)
        printf("PASS share-align: rounding to rows, units of rows2d/planes3d/stencil/swap, "
               "write modes, the problem in units, the launch memo\n");
    return check_failures != 0;
}
