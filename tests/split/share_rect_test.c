/* tests/split/share_rect_test.c: libskmd/plan/share_rect.c without OpenCL: the box of bytes
 * a share writes, from the analysis records skmd-opt writes for a transpose, a 3-D box,
 * two stores of neighbouring elements, a guarded transpose (its guard cuts the box), a
 * transpose under a data condition, matrix_transpose's tile loops
 * (a loop that starts at the local id) and such a loop whose trip count differs between
 * work-items; which boxes overlap; the write modes that choose boxes; the range-set union
 * and difference that commit a box (ranges_merge.c). Prints one line per
 * failed check; exit status 1 when any failed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/ranges_merge.h"
#include "plan/share_align.h"
#include "plan/share_rect.h"

#include "../common/check.h"

static const char *records =
    "skmd-record 1\n"
    "kernel t2d\n"
    "splittable 1 0 \n"
    "merge 0 disjoint 1 groupfree 1\n"
    "features 4 0 0 0 0 1 1 0 0 0.5 2\n"
    "param global read 4 0 0 arg0\n"
    "param global write 4 0 0 arg1\n"
    "param scalar none 0 4 1 arg2\n"
    "param scalar none 0 4 1 arg3\n"
    "access 0 read 4 3 1 0 0 4*g1*L1*p2+4*O1*p2+4*l1*p2+4*g0*L0+4*O0+4*l0 ?\n"
    "access 1 write 4 3 1 0 0 4*g0*L0*p3+4*O0*p3+4*l0*p3+4*g1*L1+4*O1+4*l1 ?\n"
    "end\n"
    "kernel box3d\n"
    "splittable 1 0 \n"
    "merge 0 disjoint 1 groupfree 1\n"
    "features 6 0 0 0 0 0 1 0 0 1 6\n"
    "param global write 4 0 0 arg0\n"
    "param scalar none 0 4 1 arg1\n"
    "param scalar none 0 4 1 arg2\n"
    "access 0 write 4 7 1 0 0 4*g2*L2*p1*p2+4*O2*p1*p2+4*l2*p1*p2+4*g1*L1*p1+4*O1*p1+4*l1*p1"
    "+4*g0*L0+4*O0+4*l0 ?\n"
    "end\n"
    "kernel pairs\n"
    "splittable 1 0 \n"
    "merge 0 disjoint 1 groupfree 1\n"
    "features 4 0 0 0 0 0 2 0 0 0 2\n"
    "param global write 2 0 0 arg0\n"
    "param scalar none 0 4 1 arg1\n"
    "access 0 write 2 11 1 0 0 2*g0*L0*p1+2*O0*p1+2*l0*p1+4*g1*L1+4*O1+4*l1 ?\n"
    "access 0 write 2 12 1 0 0 2*g0*L0*p1+2*O0*p1+2*l0*p1+4*g1*L1+4*O1+4*l1+2 ?\n"
    "end\n"
    "kernel t2d_guard\n"
    "splittable 1 0 \n"
    "merge 1 disjoint 0 groupfree 1\n"
    "features 6 0 0 0 0 1 1 0 1 0.5 3\n"
    "param global read 4 0 0 arg0\n"
    "param global write 4 0 0 arg1\n"
    "param scalar none 0 4 1 arg2\n"
    "param scalar none 0 4 1 arg3\n"
    "access 0 read 4 17 1 0 0 4*g1*L1*p2+4*O1*p2+4*l1*p2+4*g0*L0+4*O0+4*l0 ?\n"
    "access 1 write 4 17 1 1 0 4*g0*L0*p3+4*O0*p3+4*l0*p3+4*g1*L1+4*O1+4*l1 ?\n"
    "limit -1*g0*L0+p2+-1*O0+-1*l0+-1\n"
    "limit -1*g1*L1+p3+-1*O1+-1*l1+-1\n"
    "end\n"
    "kernel tiles\n"
    "splittable 1 0 \n"
    "merge 0 disjoint 0 groupfree 0\n"
    "features 14 0 0 0 1 1 1 2 2 1 7\n"
    "param global read 4 0 0 arg0\n"
    "param global write 4 0 0 arg1\n"
    "param scalar none 0 4 0 arg2\n"
    "loop 8 0 1 l1 32\n"
    "loop 8 0 1 l1 32\n"
    "access 0 read 4 24 1 0 0 32*t1*p2+4*l1*p2+128*g1*p2+4*l0+128*g0 ?\n"
    "access 1 write 4 27 1 0 0 32*t0*p2+4*l1*p2+128*g0*p2+4*l0+128*g1 ?\n"
    "end\n"
    "kernel uneven\n"
    "splittable 1 0 \n"
    "merge 0 disjoint 0 groupfree 0\n"
    "features 4 0 0 0 0 0 1 0 1 1 4\n"
    "param global write 4 0 0 arg0\n"
    "param scalar none 0 4 0 arg1\n"
    "loop 8 0 1 l1 30\n"
    "access 0 write 4 32 1 0 0 32*t0*p1+4*l1*p1+4*g0*L0+4*O0+4*l0 ?\n"
    "end\n"
    "kernel t2d_data\n"
    "splittable 1 0 \n"
    "merge 1 disjoint 0 groupfree 1\n"
    "features 4 1 0 0 0 1 1 0 1 0.5 2.5\n"
    "param global read 4 0 0 arg0\n"
    "param global write 4 0 0 arg1\n"
    "param scalar none 0 4 1 arg2\n"
    "param scalar none 0 4 1 arg3\n"
    "access 0 read 4 36 1 0 0 4*g1*L1*p2+4*O1*p2+4*l1*p2+4*g0*L0+4*O0+4*l0 ?\n"
    "access 1 write 4 37 1 1 0 4*g0*L0*p3+4*O0*p3+4*l0*p3+4*g1*L1+4*O1+4*l1 ?\n"
    "end\n"
    "kernel t2d_from\n"
    "splittable 1 0 \n"
    "merge 1 disjoint 0 groupfree 1\n"
    "features 8 0 0 0 0 1 1 0 1 0.5 4\n"
    "param global read 4 0 0 arg0\n"
    "param global write 4 0 0 arg1\n"
    "param scalar none 0 4 1 arg2\n"
    "param scalar none 0 4 1 arg3\n"
    "access 0 read 4 42 1 0 0 4*g1*L1*p2+4*O1*p2+4*l1*p2+4*g0*L0+4*O0+4*l0 ?\n"
    "access 1 write 4 42 1 1 0 4*g0*L0*p3+4*O0*p3+4*l0*p3+4*g1*L1+4*O1+4*l1 ?\n"
    "end\n"
    "kernel t2d_range\n"
    "splittable 1 0 \n"
    "merge 1 disjoint 0 groupfree 1\n"
    "features 7 0 0 0 0 1 1 0 1 0.5 3.5\n"
    "param global read 4 0 0 arg0\n"
    "param global write 4 0 0 arg1\n"
    "param scalar none 0 4 1 arg2\n"
    "param scalar none 0 4 1 arg3\n"
    "access 0 read 4 47 1 0 0 4*g1*L1*p2+4*O1*p2+4*l1*p2+4*g0*L0+4*O0+4*l0 ?\n"
    "access 1 write 4 47 1 1 0 4*g0*L0*p3+4*O0*p3+4*l0*p3+4*g1*L1+4*O1+4*l1 ?\n"
    "limit g0*L0+O0+l0+-2\n"
    "limit -1*g0*L0+-1*O0+-1*l0+99\n"
    "end\n"
    "kernel t2d_lower\n"
    "splittable 1 0 \n"
    "merge 1 disjoint 0 groupfree 1\n"
    "features 6 0 0 0 0 1 1 0 1 0.5 3\n"
    "param global read 4 0 0 arg0\n"
    "param global write 4 0 0 arg1\n"
    "param scalar none 0 4 1 arg2\n"
    "param scalar none 0 4 1 arg3\n"
    "access 0 read 4 53 1 0 0 4*g1*L1*p2+4*O1*p2+4*l1*p2+4*g0*L0+4*O0+4*l0 ?\n"
    "access 1 write 4 53 1 1 0 4*g0*L0*p3+4*O0*p3+4*l0*p3+4*g1*L1+4*O1+4*l1 ?\n"
    "limit g0*L0+O0+l0+-2\n"
    "limit -1*g1*L1+p3+-1*O1+-1*l1+-1\n"
    "end\n";

static struct _cl_mem mems[4];
static struct skmd_arg args[4];

/* A launch of kernel `name` with buffers of `size` bytes on every pointer parameter. */
static struct skmd_share_view view(const struct skmd_program_record *p, const char *name,
                                   const int64_t *scalars, const struct skmd_launch *shape,
                                   size_t size)
{
    const struct skmd_kernel_record *k = skmd_record_find(p, name);
    if (!k) {
        printf("FAIL share-rect: no kernel %s in the record\n", name);
        exit(1);
    }
    memset(args, 0, sizeof args);
    for (unsigned i = 0; i < k->nparams; i++) {
        args[i].set = 1;
        if (k->params[i].kind == SKMD_PARAM_GLOBAL) {
            mems[i].size = size;
            mems[i].parent = NULL;
            args[i].mem = &mems[i];
        }
    }
    return (struct skmd_share_view){k, args, scalars, shape};
}

/* The box of parameter p for groups [first, first+count) is `want` (rows == 0: none). */
static void box_case(const char *what, const struct skmd_share_view *v, unsigned p,
                     uint64_t first, uint64_t count, struct skmd_rect want)
{
    struct skmd_rect got;
    int have = skmd_rect_of_share(v, p, first, count, &got);
    if (!want.rows) {
        EXPECT(!have, "%s: a box where none is", what);
        return;
    }
    EXPECT(have && memcmp(&got, &want, sizeof got) == 0,
           "%s: got %d {offset %llu len %llu pitch %llu rows %llu slice %llu slices %llu}", what,
           have, (unsigned long long)got.offset, (unsigned long long)got.len,
           (unsigned long long)got.pitch, (unsigned long long)got.rows,
           (unsigned long long)got.slice_pitch, (unsigned long long)got.slices);
}

static void test_boxes(const struct skmd_program_record *prog)
{
    /* t2d: 136 x 72 floats, groups 17 x 9 of 8 x 8: rows of groups are bands of columns */
    int64_t wh[4] = {0, 0, 136, 72};
    struct skmd_launch s2 = {2, {0, 0, 0}, {136, 72, 1}, {8, 8, 1}};
    struct skmd_share_view v = view(prog, "t2d", wh, &s2, 136 * 72 * 4);
    box_case("t2d rows 2..4", &v, 1, 2 * 17, 3 * 17,
             (struct skmd_rect){16 * 4, 24 * 4, 72 * 4, 136, 72 * 4 * 136, 1});
    box_case("t2d within a row", &v, 1, 3, 5,
             (struct skmd_rect){24 * 72 * 4, 8 * 4, 72 * 4, 40, 72 * 4 * 40, 1});
    box_case("t2d across rows (no box of groups)", &v, 1, 10, 17, (struct skmd_rect){0});
    box_case("t2d input (not written)", &v, 0, 0, 17, (struct skmd_rect){0});
    uint64_t first[3] = {0, 2 * 17, 5 * 17}, count[3] = {2 * 17, 3 * 17, 4 * 17};
    unsigned char mode[4];
    EXPECT(skmd_share_write_modes(&v, first, count, 3, mode) == 0 && mode[1] == SKMD_WRITE_RECT,
           "t2d in rows of groups: mode %d, not rect", mode[1]);
    uint64_t off_first[2] = {0, 40}, off_count[2] = {40, 153 - 40};
    EXPECT(skmd_share_write_modes(&v, off_first, off_count, 2, mode) == 1 &&
               mode[1] == SKMD_WRITE_MERGE,
           "t2d cut mid-row: mode %d, not merge", mode[1]);
    args[0].mem = args[1].mem; /* one buffer as input and output: boxes are not enough */
    EXPECT(skmd_share_write_modes(&v, first, count, 3, mode) == 1 && mode[1] == SKMD_WRITE_MERGE,
           "t2d aliased: mode %d, not merge", mode[1]);
    v = view(prog, "t2d", wh, &s2, 136 * 72 * 4 - 4);
    box_case("t2d past the buffer's end", &v, 1, 8 * 17, 17, (struct skmd_rect){0});

    /* box3d: 16 x 8 x 6 ints in a 20 x 10 x 6 array, groups 2 x 2 x 3 of 8 x 4 x 2 */
    int64_t pads[3] = {0, 20, 10};
    struct skmd_launch s3 = {3, {0, 0, 0}, {16, 8, 6}, {8, 4, 2}};
    v = view(prog, "box3d", pads, &s3, 20 * 10 * 6 * 4);
    box_case("box3d planes 1..2", &v, 0, 4, 8, (struct skmd_rect){1600, 64, 80, 8, 800, 4});
    box_case("box3d one row of groups", &v, 0, 6, 2, (struct skmd_rect){2 * 800 + 4 * 80, 64, 80,
                                                                         4, 800, 2});

    /* pairs: two stores of neighbouring shorts make one box */
    int64_t p40[2] = {0, 40};
    struct skmd_launch sp = {2, {0, 0, 0}, {32, 16, 1}, {8, 8, 1}};
    v = view(prog, "pairs", p40, &sp, 32 * 80);
    box_case("pairs row 1", &v, 0, 4, 4, (struct skmd_rect){32, 32, 80, 32, 80 * 32, 1});

    /* t2d_guard: `if (x < w && y < h)` cuts the box to the matrix (launched 136 x 72) */
    struct skmd_launch sg = {2, {0, 0, 0}, {136, 72, 1}, {8, 8, 1}};
    int64_t gwh[4] = {0, 0, 130, 70};
    v = view(prog, "t2d_guard", gwh, &sg, 130 * 70 * 4);
    box_case("t2d_guard row 1", &v, 1, 17, 17, (struct skmd_rect){32, 32, 280, 130, 280 * 130, 1});
    box_case("t2d_guard last row", &v, 1, 8 * 17, 17,
             (struct skmd_rect){64 * 4, 6 * 4, 280, 130, 280 * 130, 1});
    box_case("t2d_guard first groups of the last row", &v, 1, 8 * 17, 2,
             (struct skmd_rect){64 * 4, 6 * 4, 280, 16, 280 * 16, 1});
    box_case("t2d_guard last group of a row", &v, 1, 16, 1,
             (struct skmd_rect){128 * 280, 32, 280, 2, 560, 1});
    struct skmd_launch so = {2, {8, 0, 0}, {136, 72, 1}, {8, 8, 1}};
    v = view(prog, "t2d_guard", gwh, &so, 130 * 70 * 4);
    box_case("t2d_guard with an offset", &v, 1, 16, 1, (struct skmd_rect){0});
    box_case("t2d_guard with an offset, group 15", &v, 1, 15, 1,
             (struct skmd_rect){128 * 280, 32, 280, 2, 560, 1});

    /* t2d_range: `if (x >= 2 && x < 100)`; t2d_lower: `if (x >= 2) if (y < h)` */
    v = view(prog, "t2d_range", wh, &s2, 136 * 72 * 4);
    box_case("t2d_range row 1", &v, 1, 17, 17,
             (struct skmd_rect){2 * 288 + 32, 32, 288, 98, 288 * 98, 1});
    v = view(prog, "t2d_lower", gwh, &sg, 136 * 70 * 4);
    box_case("t2d_lower last row", &v, 1, 8 * 17, 17,
             (struct skmd_rect){2 * 280 + 64 * 4, 24, 280, 134, 280 * 134, 1});

    /* t2d_data: `if (in[...] > 0)`: gaps no limit describes: no box */
    v = view(prog, "t2d_data", wh, &s2, 136 * 72 * 4);
    box_case("t2d_data", &v, 1, 17, 17, (struct skmd_rect){0});

    /* tiles (matrix_transpose): r = ty + 8*t, 4 trips for every ty */
    int64_t n256[3] = {0, 0, 256};
    struct skmd_launch st = {2, {0, 0, 0}, {256, 64, 1}, {32, 8, 1}};
    v = view(prog, "tiles", n256, &st, 256 * 256 * 4);
    box_case("tiles rows 2..3", &v, 1, 16, 16, (struct skmd_rect){256, 256, 1024, 256,
                                                                   1024 * 256, 1});
    struct skmd_interval rd[64], wr[64];
    struct skmd_footprint fp = {rd, wr, 64, 64, 0, 0, 0};
    EXPECT(skmd_footprint(v.rec, 1, &st, n256, 0, 1, &fp) == 0 && fp.write_exact &&
               fp.nwrite == 32,
           "tiles' footprint of group 0: exact %d, %zu intervals", fp.write_exact, fp.nwrite);

    /* uneven: r = ty + 8*t below 30 runs 4 times for ty < 6, 3 times for ty 6 and 7 */
    int64_t n64[2] = {0, 64};
    struct skmd_launch su = {2, {0, 0, 0}, {64, 8, 1}, {8, 8, 1}};
    v = view(prog, "uneven", n64, &su, 64 * 30 * 4);
    box_case("uneven", &v, 0, 0, 4, (struct skmd_rect){0});
    fp = (struct skmd_footprint){rd, wr, 64, 64, 0, 0, 0};
    EXPECT(skmd_footprint(v.rec, 0, &su, n64, 0, 4, &fp) == 0 && !fp.write_exact,
           "uneven's footprint is exact");
}

static void test_disjoint(void)
{
    /* rows of 16 bytes, 40 apart; and the same shifted by 16 (interleaved, apart) */
    struct skmd_rect a = {0, 16, 40, 10, 400, 1}, b = {16, 16, 40, 10, 400, 1};
    struct skmd_rect c = {24, 24, 40, 10, 400, 1}, d = {400, 16, 40, 10, 400, 1};
    EXPECT(skmd_rect_disjoint(&a, &b) && skmd_rect_disjoint(&b, &a), "interleaved rows meet");
    EXPECT(!skmd_rect_disjoint(&a, &c) && !skmd_rect_disjoint(&c, &a),
           "a row reaching the next row of the other box does not meet it");
    EXPECT(skmd_rect_disjoint(&a, &d), "boxes one after the other meet");
    EXPECT(!skmd_rect_disjoint(&a, &a), "a box does not meet itself");
    /* slices: 4 rows of 8 bytes, 16 apart, slices 100 apart; the other box in the gaps */
    struct skmd_rect s = {0, 8, 16, 4, 100, 5}, gap = {64, 30, 100, 5, 500, 1};
    struct skmd_rect hit = {50, 10, 100, 5, 500, 1};
    EXPECT(skmd_rect_disjoint(&s, &gap), "a box in the gaps between slices meets them");
    EXPECT(!skmd_rect_disjoint(&s, &hit), "a box over a slice's last row misses it");
    EXPECT(skmd_rect_end(&s) == 4 * 100 + 3 * 16 + 8, "the end of a box of slices");
}

/* a op b == want, sets given as flat lists of begin, end */
static void set_case(const char *what, int subtract, const uint64_t *a, size_t na,
                     const uint64_t *b, size_t nb, const uint64_t *want, size_t nwant)
{
    struct skmd_ranges s = {0, 0, NULL}, o = {0, 0, NULL};
    for (size_t i = 0; i < na; i += 2)
        skmd_ranges_add(&s, a[i], a[i + 1]);
    for (size_t i = 0; i < nb; i += 2)
        skmd_ranges_add(&o, b[i], b[i + 1]);
    int err = subtract ? skmd_ranges_subtract(&s, &o) : skmd_ranges_union(&s, &o);
    int same = !err && s.n * 2 == nwant;
    for (size_t i = 0; same && i < s.n; i++)
        same = s.r[i].begin == want[2 * i] && s.r[i].end == want[2 * i + 1];
    EXPECT(same, "%s: %zu ranges, first [%llu, %llu)", what, s.n,
           (unsigned long long)(s.n ? s.r[0].begin : 0),
           (unsigned long long)(s.n ? s.r[0].end : 0));
    skmd_ranges_free(&s);
    skmd_ranges_free(&o);
}

static void test_sets(void)
{
    const uint64_t a[] = {0, 10, 20, 30}, b[] = {5, 25, 40, 50}, ab[] = {0, 30, 40, 50};
    set_case("union", 0, a, 4, b, 4, ab, 4);
    const uint64_t c[] = {0, 10}, d[] = {10, 20}, cd[] = {0, 20};
    set_case("union of touching ranges", 0, c, 2, d, 2, cd, 2);
    set_case("union with nothing", 0, a, 4, NULL, 0, a, 4);
    const uint64_t all[] = {0, 100}, holes[] = {10, 20, 30, 40};
    const uint64_t left[] = {0, 10, 20, 30, 40, 100};
    set_case("holes cut", 1, all, 2, holes, 4, left, 6);
    const uint64_t three[] = {0, 10, 20, 30, 40, 50}, mid[] = {5, 45}, ends[] = {0, 5, 45, 50};
    set_case("a range over several", 1, three, 6, mid, 2, ends, 4);
    set_case("subtract from nothing", 1, NULL, 0, mid, 2, NULL, 0);
    set_case("subtract all", 1, mid, 2, all, 2, NULL, 0);
}

int main(void)
{
    struct skmd_program_record prog;
    char err[256];
    FILE *f = fmemopen((void *)records, strlen(records), "r");
    if (!f || skmd_record_read(f, &prog, err, sizeof err) != 0) {
        printf("FAIL share-rect: the record does not parse: %s\n", f ? err : "fmemopen");
        return 1;
    }
    fclose(f);
    test_boxes(&prog);
    test_disjoint();
    test_sets();
    skmd_record_free(&prog);
    if (!check_failures)
        printf("PASS share-rect: boxes of a transpose, of slices, of neighbouring stores and "
               "of tile loops, cut by guards; none for data conditions, uneven loops, groups "
               "across rows, the end "
               "of the buffer; overlaps; write modes; range set union and difference\n");
    return check_failures != 0;
}
