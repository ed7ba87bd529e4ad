/* tests/transfer/pieces.c: kernels whose shares libskmd may run in pieces (SKMD_PIECES),
 * each result checked element by element against the host's own computation. The app
 * writes fresh inputs through its queue before every launch, so the other members' copies
 * are stale and each piece has bytes to move.
 *   vadd      c = a + 3b: inputs and output split alike
 *   stencil   o[i] = in[i-1] + in[i] + in[i+1]: a piece reads a little of its neighbours'
 *   inplace   a = 2a + 1, three times: read and written in place
 *   rows      2-D, 16x4 groups over a 200x36 grid: pieces end in the middle of rows
 *   small     8 work-groups: fewer groups than a forced piece count
 * Prints "ok", or the first wrong element of each kernel. */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include "../common/cl_test.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 18)
#define W 208
#define H 36
#define SMALL (8 * 64)


static const char *source =
    "__kernel void vadd(__global const uint *a, __global const uint *b, __global uint *c) {\n"
    "  size_t i = get_global_id(0);\n"
    "  c[i] = a[i] + 3u * b[i];\n"
    "}\n"
    "__kernel void stencil(__global const uint *in, __global uint *o, uint n) {\n"
    "  size_t i = get_global_id(0);\n"
    "  uint x = in[i];\n"
    "  if (i > 0) x += in[i - 1]; else x += in[i];\n"
    "  if (i + 1 < n) x += in[i + 1]; else x += in[i];\n"
    "  o[i] = x;\n"
    "}\n"
    "__kernel void inplace(__global uint *a) {\n"
    "  size_t i = get_global_id(0);\n"
    "  a[i] = 2u * a[i] + 1u;\n"
    "}\n"
    "__kernel void rows(__global const uint *in, __global uint *o, uint w) {\n"
    "  uint x = get_global_id(0), y = get_global_id(1);\n"
    "  o[y * w + x] = in[y * w + x] ^ (y * 7919u);\n"
    "}\n";

static struct cl_test cl;

static cl_mem buffer(size_t bytes)
{
    return cl_test_buffer(&cl, CL_MEM_READ_WRITE, bytes, NULL);
}

static void put(cl_mem m, const uint32_t *v, size_t n)
{
    CL_CHECK(clEnqueueWriteBuffer(cl.queue, m, CL_TRUE, 0, n * 4, v, 0, NULL, NULL));
}

static void get(cl_mem m, uint32_t *v, size_t n)
{
    CL_CHECK(clEnqueueReadBuffer(cl.queue, m, CL_TRUE, 0, n * 4, v, 0, NULL, NULL));
}

static void launch(cl_kernel k, cl_uint dims, const size_t *global, const size_t *local)
{
    CL_CHECK(clEnqueueNDRangeKernel(cl.queue, k, dims, NULL, global, local, 0, NULL, NULL));
}

static int compare(const char *what, const uint32_t *got, const uint32_t *want, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            printf("%s: element %zu is %u, expected %u\n", what, i, got[i], want[i]);
            return 1;
        }
    return 0;
}

int main(void)
{
    uint32_t *a = malloc(N * 4), *b = malloc(N * 4), *c = malloc(N * 4), *want = malloc(N * 4);
    if (!a || !b || !c || !want)
        return 1;
    cl_test_open(&cl, 0, source, NULL);
    cl_mem ba = buffer(N * 4), bb = buffer(N * 4), bc = buffer(N * 4);
    int bad = 0;
    size_t n = N, l64 = 64;

    cl_kernel k = cl_test_kernel(&cl, "vadd");
    CL_CHECK(clSetKernelArg(k, 0, sizeof ba, &ba));
    CL_CHECK(clSetKernelArg(k, 1, sizeof bb, &bb));
    CL_CHECK(clSetKernelArg(k, 2, sizeof bc, &bc));
    for (int round = 0; round < 2; round++) {
        for (uint32_t i = 0; i < N; i++)
            a[i] = i * 2654435761u + (uint32_t)round, b[i] = i ^ 0x5a5a5a5au;
        put(ba, a, N), put(bb, b, N);
        launch(k, 1, &n, &l64);
        get(bc, c, N);
        for (uint32_t i = 0; i < N; i++)
            want[i] = a[i] + 3u * b[i];
        bad |= compare("vadd", c, want, N);
    }
    clReleaseKernel(k);

    k = cl_test_kernel(&cl, "stencil");
    cl_uint nn = N;
    CL_CHECK(clSetKernelArg(k, 0, sizeof ba, &ba));
    CL_CHECK(clSetKernelArg(k, 1, sizeof bc, &bc));
    CL_CHECK(clSetKernelArg(k, 2, sizeof nn, &nn));
    for (uint32_t i = 0; i < N; i++)
        a[i] = i * 40503u + 17u;
    put(ba, a, N);
    launch(k, 1, &n, &l64);
    get(bc, c, N);
    for (uint32_t i = 0; i < N; i++)
        want[i] = a[i > 0 ? i - 1 : i] + a[i] + a[i + 1 < N ? i + 1 : i];
    bad |= compare("stencil", c, want, N);
    clReleaseKernel(k);

    k = cl_test_kernel(&cl, "inplace");
    CL_CHECK(clSetKernelArg(k, 0, sizeof ba, &ba));
    for (uint32_t i = 0; i < N; i++)
        a[i] = i * 7u, want[i] = a[i];
    put(ba, a, N);
    for (int r = 0; r < 3; r++) {
        launch(k, 1, &n, &l64);
        for (uint32_t i = 0; i < N; i++)
            want[i] = 2u * want[i] + 1u;
    }
    get(ba, c, N);
    bad |= compare("inplace", c, want, N);
    clReleaseKernel(k);

    k = cl_test_kernel(&cl, "rows");
    cl_uint w = W;
    size_t grid[2] = {W, H}, tile[2] = {16, 4};
    CL_CHECK(clSetKernelArg(k, 0, sizeof bb, &bb));
    CL_CHECK(clSetKernelArg(k, 1, sizeof bc, &bc));
    CL_CHECK(clSetKernelArg(k, 2, sizeof w, &w));
    for (uint32_t i = 0; i < W * H; i++)
        b[i] = i * 2246822519u;
    put(bb, b, W * H);
    launch(k, 2, grid, tile);
    get(bc, c, W * H);
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++)
            want[y * W + x] = b[y * W + x] ^ (y * 7919u);
    bad |= compare("rows", c, want, W * H);
    clReleaseKernel(k);

    k = cl_test_kernel(&cl, "vadd");
    size_t small = SMALL;
    CL_CHECK(clSetKernelArg(k, 0, sizeof ba, &ba));
    CL_CHECK(clSetKernelArg(k, 1, sizeof bb, &bb));
    CL_CHECK(clSetKernelArg(k, 2, sizeof bc, &bc));
    for (uint32_t i = 0; i < SMALL; i++)
        a[i] = i + 11u, b[i] = i * 5u;
    put(ba, a, SMALL), put(bb, b, SMALL);
    launch(k, 1, &small, &l64);
    get(bc, c, SMALL);
    for (uint32_t i = 0; i < SMALL; i++)
        want[i] = a[i] + 3u * b[i];
    bad |= compare("small", c, want, SMALL);
    clReleaseKernel(k);

    clReleaseMemObject(ba), clReleaseMemObject(bb), clReleaseMemObject(bc);
    cl_test_close(&cl);
    free(a), free(b), free(c), free(want);
    if (!bad)
        printf("ok\n");
    return bad;
}
