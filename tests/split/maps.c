/* tests/split/maps.c: the app maps buffers that split launches read and write (run
 * natively, and under libskmd with 2-3 PoCL devices and forced shares: the maps see and
 * carry the bytes that the members' shares read and wrote). Checks, printing "ok" when
 * all hold:
 * - a map for writing with CL_MAP_WRITE_INVALIDATE_REGION, of a plain and of an
 *   ALLOC_HOST_PTR input, filled and unmapped before each launch: every output right;
 * - a map for reading of the output after each launch: every element right;
 * - a map for writing (CL_MAP_WRITE) of a middle part of the input keeps the bytes
 *   around it, and shows the bytes it maps as they are;
 * - a map of a sub-buffer for reading and writing sees the sub-buffer's bytes and its
 *   writes reach the launch that reads the parent;
 * - a non-blocking map with a completed event in its wait list, its event complete once
 *   waited for;
 * - CL_MEM_MAP_COUNT counts the maps not yet unmapped; the unmap's event reports
 *   CL_COMMAND_UNMAP_MEM_OBJECT and completes; two maps of one buffer at once unmap in
 *   any order. */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include "../common/cl_test.h"
#include <stdio.h>

#define N 65536
#define REPS 4

static const char *source =
    "__kernel void combine(__global const uint *a, __global const uint *b,\n"
    "                  __global uint *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = a[i] * 3u + b[i];\n"
    "}\n";

static cl_uint map_count(cl_mem m)
{
    cl_uint n = 99;
    CL_CHECK(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof n, &n, NULL));
    return n;
}

static void *map(const struct cl_test *t, cl_mem m, cl_map_flags flags, size_t off,
                 size_t size)
{
    cl_int err;
    void *p = clEnqueueMapBuffer(t->queue, m, CL_TRUE, flags, off, size, 0, NULL, NULL, &err);
    CL_CHECK(err);
    return p;
}

/* Unmaps p and checks the unmap's event. */
static int unmap(const struct cl_test *t, cl_mem m, void *p)
{
    cl_event ev;
    CL_CHECK(clEnqueueUnmapMemObject(t->queue, m, p, 0, NULL, &ev));
    CL_CHECK(clWaitForEvents(1, &ev));
    cl_command_type type = 0;
    cl_int status = 1;
    CL_CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CL_CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                            NULL));
    CL_CHECK(clReleaseEvent(ev));
    CL_EXPECT(type == CL_COMMAND_UNMAP_MEM_OBJECT);
    CL_EXPECT(status == CL_COMPLETE);
    return 0;
}

static void launch(const struct cl_test *t, cl_kernel k)
{
    size_t global = N, local = 64;
    CL_CHECK(clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
}

/* The output read through a map, checked against a[i] * 3 + b[i]. */
static int check_out(const struct cl_test *t, cl_mem out, const cl_uint *a, const cl_uint *b)
{
    cl_uint *o = map(t, out, CL_MAP_READ, 0, N * sizeof *o);
    CL_EXPECT(map_count(out) == 1);
    int bad = -1;
    for (int i = 0; i < N && bad < 0; i++)
        if (o[i] != a[i] * 3u + b[i])
            bad = i;
    if (bad >= 0)
        fprintf(stderr, "out[%d] = %u, expected %u\n", bad, o[bad], a[bad] * 3u + b[bad]);
    CL_EXPECT(bad < 0);
    CL_EXPECT(unmap(t, out, o) == 0);
    CL_EXPECT(map_count(out) == 0);
    return 0;
}

int main(void)
{
    static cl_uint a[N], b[N];
    struct cl_test t;
    cl_test_open(&t, 0, source, NULL);
    cl_mem ma = cl_test_buffer(&t, CL_MEM_READ_ONLY, sizeof a, NULL);
    cl_mem mb = cl_test_buffer(&t, CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR, sizeof b, NULL);
    cl_mem out = cl_test_buffer(&t, CL_MEM_WRITE_ONLY, sizeof a, NULL);
    cl_kernel k = cl_test_kernel(&t, "combine");
    CL_CHECK(clSetKernelArg(k, 0, sizeof ma, &ma));
    CL_CHECK(clSetKernelArg(k, 1, sizeof mb, &mb));
    CL_CHECK(clSetKernelArg(k, 2, sizeof out, &out));

    /* Whole inputs written through maps before each launch. */
    for (cl_uint r = 0; r < REPS; r++) {
        cl_uint *pa = map(&t, ma, CL_MAP_WRITE_INVALIDATE_REGION, 0, sizeof a);
        cl_uint *pb = map(&t, mb, CL_MAP_WRITE_INVALIDATE_REGION, 0, sizeof b);
        CL_EXPECT(map_count(ma) == 1 && map_count(mb) == 1);
        for (cl_uint i = 0; i < N; i++) {
            pa[i] = a[i] = i * 7u + r;
            pb[i] = b[i] = (i ^ r) * 13u;
        }
        CL_EXPECT(unmap(&t, mb, pb) == 0);
        CL_EXPECT(unmap(&t, ma, pa) == 0);
        CL_EXPECT(map_count(ma) == 0 && map_count(mb) == 0);
        launch(&t, k);
        CL_EXPECT(check_out(&t, out, a, b) == 0);
    }

    /* A middle part mapped for writing: it shows the bytes as they are, and the bytes
     * around it stay. */
    size_t from = N / 4, count = N / 3;
    cl_uint *part = map(&t, ma, CL_MAP_WRITE, from * sizeof *a, count * sizeof *a);
    for (size_t i = 0; i < count; i++) {
        CL_EXPECT(part[i] == a[from + i]);
        part[i] = a[from + i] = (cl_uint)i * 5u + 1u;
    }
    CL_EXPECT(unmap(&t, ma, part) == 0);
    launch(&t, k);
    CL_EXPECT(check_out(&t, out, a, b) == 0);

    /* Two maps of one buffer at once, unmapped in the order they were made. */
    cl_uint *first = map(&t, mb, CL_MAP_READ, 0, 4096);
    cl_uint *second = map(&t, mb, CL_MAP_READ, 8192, 4096);
    CL_EXPECT(map_count(mb) == 2);
    CL_EXPECT(first[5] == b[5] && second[3] == b[8192 / sizeof *b + 3]);
    CL_EXPECT(unmap(&t, mb, first) == 0);
    CL_EXPECT(map_count(mb) == 1);
    CL_EXPECT(unmap(&t, mb, second) == 0);
    CL_EXPECT(map_count(mb) == 0);

    /* A sub-buffer of the second half of b, mapped for reading and writing. */
    cl_int err;
    cl_buffer_region half = {N / 2 * sizeof *b, N / 2 * sizeof *b};
    cl_mem sub = clCreateSubBuffer(mb, 0, CL_BUFFER_CREATE_TYPE_REGION, &half,
                                   &err);
    CL_CHECK(err);
    cl_uint *ps = map(&t, sub, CL_MAP_READ | CL_MAP_WRITE, 0, half.size);
    for (size_t i = 0; i < N / 2; i++) {
        CL_EXPECT(ps[i] == b[N / 2 + i]);
        ps[i] = b[N / 2 + i] = (cl_uint)i * 11u + 3u;
    }
    CL_EXPECT(unmap(&t, sub, ps) == 0);
    launch(&t, k);
    CL_EXPECT(check_out(&t, out, a, b) == 0);
    CL_CHECK(clReleaseMemObject(sub));

    /* A non-blocking map waiting on a completed event. */
    cl_event marker, mapped;
    CL_CHECK(clEnqueueMarkerWithWaitList(t.queue, 0, NULL, &marker));
    CL_CHECK(clFinish(t.queue));
    cl_uint *pa = clEnqueueMapBuffer(t.queue, ma, CL_FALSE, CL_MAP_WRITE_INVALIDATE_REGION, 0,
                                     sizeof a, 1, &marker, &mapped, &err);
    CL_CHECK(err);
    CL_CHECK(clWaitForEvents(1, &mapped));
    cl_command_type type = 0;
    CL_CHECK(clGetEventInfo(mapped, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CL_EXPECT(type == CL_COMMAND_MAP_BUFFER);
    for (cl_uint i = 0; i < N; i++)
        pa[i] = a[i] = i * 17u;
    CL_EXPECT(unmap(&t, ma, pa) == 0);
    launch(&t, k);
    CL_EXPECT(check_out(&t, out, a, b) == 0);
    CL_CHECK(clReleaseEvent(marker));
    CL_CHECK(clReleaseEvent(mapped));

    CL_CHECK(clFinish(t.queue));
    CL_CHECK(clReleaseKernel(k));
    CL_CHECK(clReleaseMemObject(ma));
    CL_CHECK(clReleaseMemObject(mb));
    CL_CHECK(clReleaseMemObject(out));
    cl_test_close(&t);
    puts("ok");
    return 0;
}
