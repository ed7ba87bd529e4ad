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
#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 18)
#define W 208
#define H 36
#define SMALL (8 * 64)

#define CHECK(x)                                                                            \
    do {                                                                                    \
        cl_int e_ = (x);                                                                    \
        if (e_ != CL_SUCCESS) {                                                             \
            fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, e_);                \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

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

static cl_context ctx;
static cl_command_queue q;
static cl_program prog;

static cl_mem buffer(size_t bytes)
{
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    CHECK(err);
    return m;
}

static void put(cl_mem m, const uint32_t *v, size_t n)
{
    CHECK(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, n * 4, v, 0, NULL, NULL));
}

static void get(cl_mem m, uint32_t *v, size_t n)
{
    CHECK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, n * 4, v, 0, NULL, NULL));
}

static cl_kernel kernel(const char *name)
{
    cl_int err;
    cl_kernel k = clCreateKernel(prog, name, &err);
    CHECK(err);
    return k;
}

static void launch(cl_kernel k, cl_uint dims, const size_t *global, const size_t *local)
{
    CHECK(clEnqueueNDRangeKernel(q, k, dims, NULL, global, local, 0, NULL, NULL));
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
    cl_platform_id plat;
    cl_device_id dev;
    cl_int err;
    CHECK(clGetPlatformIDs(1, &plat, NULL));
    CHECK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK(err);
    q = clCreateCommandQueue(ctx, dev, 0, &err);
    CHECK(err);
    prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    CHECK(err);
    CHECK(clBuildProgram(prog, 1, &dev, "", NULL, NULL));
    cl_mem ba = buffer(N * 4), bb = buffer(N * 4), bc = buffer(N * 4);
    int bad = 0;
    size_t n = N, l64 = 64;

    cl_kernel k = kernel("vadd");
    CHECK(clSetKernelArg(k, 0, sizeof ba, &ba));
    CHECK(clSetKernelArg(k, 1, sizeof bb, &bb));
    CHECK(clSetKernelArg(k, 2, sizeof bc, &bc));
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

    k = kernel("stencil");
    cl_uint nn = N;
    CHECK(clSetKernelArg(k, 0, sizeof ba, &ba));
    CHECK(clSetKernelArg(k, 1, sizeof bc, &bc));
    CHECK(clSetKernelArg(k, 2, sizeof nn, &nn));
    for (uint32_t i = 0; i < N; i++)
        a[i] = i * 40503u + 17u;
    put(ba, a, N);
    launch(k, 1, &n, &l64);
    get(bc, c, N);
    for (uint32_t i = 0; i < N; i++)
        want[i] = a[i > 0 ? i - 1 : i] + a[i] + a[i + 1 < N ? i + 1 : i];
    bad |= compare("stencil", c, want, N);
    clReleaseKernel(k);

    k = kernel("inplace");
    CHECK(clSetKernelArg(k, 0, sizeof ba, &ba));
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

    k = kernel("rows");
    cl_uint w = W;
    size_t grid[2] = {W, H}, tile[2] = {16, 4};
    CHECK(clSetKernelArg(k, 0, sizeof bb, &bb));
    CHECK(clSetKernelArg(k, 1, sizeof bc, &bc));
    CHECK(clSetKernelArg(k, 2, sizeof w, &w));
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

    k = kernel("vadd");
    size_t small = SMALL;
    CHECK(clSetKernelArg(k, 0, sizeof ba, &ba));
    CHECK(clSetKernelArg(k, 1, sizeof bb, &bb));
    CHECK(clSetKernelArg(k, 2, sizeof bc, &bc));
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
    clReleaseProgram(prog), clReleaseCommandQueue(q), clReleaseContext(ctx);
    free(a), free(b), free(c), free(want);
    if (!bad)
        printf("ok\n");
    return bad;
}
