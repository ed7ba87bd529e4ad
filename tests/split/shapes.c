/* tests/split/shapes.c: launches whose write footprints decide whether a split needs the
 * merge kernel; every result buffer goes to the file named by argv[1], so a run under
 * libskmd can be compared byte for byte with a native one-device run.
 *   rows2d   each work-item writes 4 rows of a 2-D grid: exact for shares of whole rows
 *            of work-groups, too many intervals (so merged) for a share ending mid-row;
 *   planes3d each work-item writes 8 planes of a 3-D grid: exact for whole planes of
 *            work-groups only;
 *   stencil  a guarded 5-point stencil (skips the border): a bound, disjoint per share;
 *   swap     pairs swapped under a data condition: bounds that overlap, merged.
 * Each kernel is launched REPS times (the partitioner probes, then decides). An optional
 * second argument is swap's element count (default 4096), to time merges. */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include "../common/cl_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *source =
    "__kernel void rows2d(__global const float *in, __global float *out, int w) {\n"
    "  int x = get_global_id(0);\n"
    "  int y0 = get_group_id(1) * 4 * get_local_size(1) + get_local_id(1);\n"
    "  for (int r = 0; r < 4; r++) {\n"
    "    int y = y0 + r * get_local_size(1);\n"
    "    out[y * w + x] = in[y * w + x] * 3.0f + (float)r;\n"
    "  }\n"
    "}\n"
    "__kernel void planes3d(__global int *out, int w, int h) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  int z0 = get_group_id(2) * 8 * get_local_size(2) + get_local_id(2);\n"
    "  for (int r = 0; r < 8; r++) {\n"
    "    int z = z0 + r * get_local_size(2);\n"
    "    out[(z * h + y) * w + x] = x + 100 * y + 10000 * z;\n"
    "  }\n"
    "}\n"
    "__kernel void stencil(__global const float *src, __global float *dst, int n) {\n"
    "  int j = get_global_id(0), i = get_global_id(1);\n"
    "  if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)\n"
    "    dst[i * n + j] = 0.2f * (src[i * n + j] + src[i * n + j - 1] + src[i * n + j + 1]\n"
    "                             + src[(i + 1) * n + j] + src[(i - 1) * n + j]);\n"
    "}\n"
    "__kernel void swap(__global const int *odd, __global const int *in,\n"
    "                   __global int *out) {\n"
    "  int i = get_global_id(0);\n"
    "  if (odd[i]) out[i - 1] = in[i] + 7;\n"
    "  else out[i + 1] = in[i] - 7;\n"
    "}\n";

#define REPS 6

static struct cl_test cl;
static FILE *dump;

static cl_mem buffer(size_t size, void *host)
{
    return cl_test_buffer(&cl, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0), size, host);
}

static void arg(cl_kernel k, cl_uint i, size_t size, const void *v)
{
    CL_CHECK(clSetKernelArg(k, i, size, v));
}

static void run(cl_kernel k, cl_uint dims, const size_t *g, const size_t *l)
{
    for (int r = 0; r < REPS; r++) { /* one at a time: each is planned from the last */
        CL_CHECK(clEnqueueNDRangeKernel(cl.queue, k, dims, NULL, g, l, 0, NULL, NULL));
        CL_CHECK(clFinish(cl.queue));
    }
}

static void rows2d(void)
{
    int w = 512, h = 512; /* 32 x 8 work-groups of 16 x 16, 4 rows per work-item */
    size_t n = (size_t)w * h;
    float *in = malloc(n * sizeof *in);
    if (!in)
        exit(1);
    for (size_t i = 0; i < n; i++)
        in[i] = (float)(i % 977) * 0.5f;
    cl_mem a = buffer(n * sizeof *in, in), b = buffer(n * sizeof *in, NULL);
    cl_kernel k = cl_test_kernel(&cl, "rows2d");
    arg(k, 0, sizeof a, &a);
    arg(k, 1, sizeof b, &b);
    arg(k, 2, sizeof w, &w);
    size_t g[2] = {(size_t)w, (size_t)h / 4}, l[2] = {16, 16};
    run(k, 2, g, l);
    cl_test_dump(&cl, b, n * sizeof *in, dump);
    clReleaseKernel(k);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    free(in);
}

static void planes3d(void)
{
    int w = 32, h = 8, d = 256; /* 4 x 4 x 4 work-groups of 8 x 2 x 8, 8 planes each */
    size_t n = (size_t)w * h * d * sizeof(int);
    cl_mem o = buffer(n, NULL);
    cl_kernel k = cl_test_kernel(&cl, "planes3d");
    arg(k, 0, sizeof o, &o);
    arg(k, 1, sizeof w, &w);
    arg(k, 2, sizeof h, &h);
    size_t g[3] = {(size_t)w, (size_t)h, (size_t)d / 8}, l[3] = {8, 2, 8};
    run(k, 3, g, l);
    cl_test_dump(&cl, o, n, dump);
    clReleaseKernel(k);
    clReleaseMemObject(o);
}

static void stencil(void)
{
    int n = 256; /* 16 x 16 work-groups of 16 x 16 */
    size_t cells = (size_t)n * n;
    float *grid = malloc(cells * sizeof *grid);
    if (!grid)
        exit(1);
    for (size_t i = 0; i < cells; i++)
        grid[i] = (float)((i * 7919) % 1000) * 0.01f;
    cl_mem src = buffer(cells * sizeof *grid, grid), dst = buffer(cells * sizeof *grid, grid);
    cl_kernel k = cl_test_kernel(&cl, "stencil");
    size_t g[2] = {(size_t)n, (size_t)n}, l[2] = {16, 16};
    for (int step = 0; step < REPS; step++) { /* src and dst swap: a chain */
        cl_mem from = step % 2 ? dst : src, to = step % 2 ? src : dst;
        arg(k, 0, sizeof from, &from);
        arg(k, 1, sizeof to, &to);
        arg(k, 2, sizeof n, &n);
        CL_CHECK(clEnqueueNDRangeKernel(cl.queue, k, 2, NULL, g, l, 0, NULL, NULL));
        CL_CHECK(clFinish(cl.queue));
    }
    cl_test_dump(&cl, src, cells * sizeof *grid, dump);
    cl_test_dump(&cl, dst, cells * sizeof *grid, dump);
    clReleaseKernel(k);
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
    free(grid);
}

static void swap(size_t n)
{
    size_t bytes = n * sizeof(int);
    int *odd = malloc(bytes), *in = malloc(bytes), *out = malloc(bytes);
    if (!odd || !in || !out)
        exit(1);
    for (size_t i = 0; i < n; i++) {
        odd[i] = (int)(i % 2);
        in[i] = (int)(i * 3);
        out[i] = -1;
    }
    cl_mem o = buffer(bytes, odd), a = buffer(bytes, in), b = buffer(bytes, out);
    cl_kernel k = cl_test_kernel(&cl, "swap");
    arg(k, 0, sizeof o, &o);
    arg(k, 1, sizeof a, &a);
    arg(k, 2, sizeof b, &b);
    size_t g[1] = {n}, l[1] = {64};
    run(k, 1, g, l);
    cl_test_dump(&cl, b, bytes, dump);
    clReleaseKernel(k);
    clReleaseMemObject(o);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    free(odd);
    free(in);
    free(out);
}

int main(int argc, char **argv)
{
    long swap_n = argc == 3 ? atol(argv[2]) : 4096;
    if ((argc != 2 && argc != 3) || swap_n < 64 || swap_n % 64) {
        fprintf(stderr, "usage: %s OUTPUT_FILE [SWAP_ELEMENTS: a multiple of 64]\n", argv[0]);
        return 2;
    }
    dump = fopen(argv[1], "wb");
    if (!dump)
        return 1;
    cl_test_open(&cl, 0, source, NULL);
    rows2d();
    planes3d();
    stencil();
    swap((size_t)swap_n);
    cl_test_close(&cl);
    return fclose(dump) == 0 ? 0 : 1;
}
