/* tests/split/rect.c: kernels whose shares write boxes of the output (a band of columns
 * of every row): transposes in 1-D, 2-D and 3-D launches, of float, char and float4
 * elements, not square; a guarded transpose whose sizes are not multiples of the
 * work-group size; a transpose under a data condition and a kernel whose rows overlap
 * between shares (both must merge). Every
 * output goes to the file named by argv[1], to be compared byte for byte with a native
 * one-device run (tests/split/test-rect.sh). */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include "../common/cl_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *source =
    "#define TRANSPOSE(NAME, T) \\\n"
    "__kernel void NAME(__global const T *in, __global T *out, int w, int h) { \\\n"
    "  int x = get_global_id(0), y = get_global_id(1); \\\n"
    "  out[x * h + y] = in[y * w + x]; \\\n"
    "}\n"
    "TRANSPOSE(t2d, float)\n"
    "TRANSPOSE(t2d_char, char)\n"
    "TRANSPOSE(t2d_float4, float4)\n"
    "__kernel void t1d(__global const float *in, __global float *out, int rows) {\n"
    "  int i = get_global_id(0), c = get_global_size(0);\n"
    "  for (int r = 0; r < rows; r++)\n"
    "    out[r * c + i] = in[i * rows + r] + 1.0f;\n"
    "}\n"
    "__kernel void t3d(__global const float *in, __global float *out, int w, int h, int d) {\n"
    "  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
    "  out[(x * d + z) * h + y] = in[(z * h + y) * w + x] * 2.0f;\n"
    "}\n"
    "__kernel void t2d_guard(__global const float *in, __global float *out, int w, int h,\n"
    "                        int pitch) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  if (x < w && y < h)\n"
    "    out[x * pitch + y] = in[y * w + x];\n"
    "}\n"
    "__kernel void t2d_data(__global const float *in, __global float *out, int w, int h) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  if (in[y * w + x] > 0.0f) /* gaps no analysis knows: bytes left as they were */\n"
    "    out[x * h + y] = in[y * w + x];\n"
    "}\n"
    "__kernel void overlap(__global float *out, int p) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  out[x * p + y] = (float)(x * p + y); /* every writer of a byte writes the same */\n"
    "}\n";

#define REPS 2

static struct cl_test cl;
static FILE *dump;

/* A buffer of `size` bytes of a fixed pattern (inputs) or of 0x5a (outputs: bytes no
 * work-item writes must come back as they were). */
static cl_mem buffer(size_t size, int input)
{
    unsigned char *h = malloc(size);
    if (!h)
        exit(1);
    for (size_t i = 0; i < size; i++)
        h[i] = input ? (unsigned char)(i * 131 + (i >> 8) * 7) : 0x5a;
    cl_mem m = cl_test_buffer(&cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, size, h);
    free(h);
    return m;
}

/* Launches kernel NAME (arguments: the buffers, then the ints) REPS times, one at a time,
 * and saves `out`. */
static void launch(const char *name, cl_mem in, cl_mem out, size_t out_size, const int *ints,
                   int nints, cl_uint dims, const size_t *g, const size_t *l)
{
    cl_kernel k = cl_test_kernel(&cl, name);
    cl_uint a = 0;
    if (in)
        CL_CHECK(clSetKernelArg(k, a++, sizeof in, &in));
    CL_CHECK(clSetKernelArg(k, a++, sizeof out, &out));
    for (int i = 0; i < nints; i++)
        CL_CHECK(clSetKernelArg(k, a++, sizeof ints[i], &ints[i]));
    /* New bytes for the output through the queue: copies elsewhere are stale now, so a
     * share that committed bytes it did not write would bring old ones back. */
    unsigned char *fresh = malloc(out_size);
    if (!fresh)
        exit(1);
    memset(fresh, 0xa5, out_size);
    CL_CHECK(clEnqueueWriteBuffer(cl.queue, out, CL_TRUE, 0, out_size, fresh, 0, NULL, NULL));
    free(fresh);
    for (int r = 0; r < REPS; r++) {
        CL_CHECK(clEnqueueNDRangeKernel(cl.queue, k, dims, NULL, g, l, 0, NULL, NULL));
        CL_CHECK(clFinish(cl.queue));
    }
    cl_test_dump(&cl, out, out_size, dump);
    clReleaseKernel(k);
}

/* A w x h transpose of `elem`-byte elements, local size 8 x 8 (w, h multiples of 8). */
static void transpose(const char *name, size_t elem, int w, int h)
{
    size_t bytes = (size_t)w * h * elem;
    cl_mem in = buffer(bytes, 1), out = buffer(bytes, 0);
    int ints[2] = {w, h};
    size_t g[2] = {(size_t)w, (size_t)h}, l[2] = {8, 8};
    launch(name, in, out, bytes, ints, 2, 2, g, l);
    clReleaseMemObject(in);
    clReleaseMemObject(out);
}

int main(int argc, char **argv)
{
    if (argc < 2 || !(dump = fopen(argv[1], "wb"))) {
        fprintf(stderr, "usage: %s OUT.bin\n", argv[0]);
        return 2;
    }
    cl_test_open(&cl, 0, source, NULL);

    /* more output rows than a footprint's 64 intervals, every one cut by the shares */
    transpose("t2d", sizeof(float), 136, 72);
    transpose("t2d_char", 1, 200, 80);
    transpose("t2d_float4", 4 * sizeof(float), 96, 40);
    {
        int rows = 100, cols = 256; /* 16 groups of 16 work-items, one column each */
        cl_mem in = buffer((size_t)rows * cols * 4, 1), out = buffer((size_t)rows * cols * 4, 0);
        size_t g[1] = {(size_t)cols}, l[1] = {16};
        launch("t1d", in, out, (size_t)rows * cols * 4, &rows, 1, 1, g, l);
        clReleaseMemObject(in);
        clReleaseMemObject(out);
    }
    {
        int dims[3] = {72, 16, 40}; /* w, h, d: groups 9 x 2 x 5 of 8 x 8 x 8 */
        size_t bytes = (size_t)dims[0] * dims[1] * dims[2] * 4;
        cl_mem in = buffer(bytes, 1), out = buffer(bytes, 0);
        size_t g[3] = {72, 16, 40}, l[3] = {8, 8, 8};
        launch("t3d", in, out, bytes, dims, 3, 3, g, l);
        clReleaseMemObject(in);
        clReleaseMemObject(out);
    }
    {
        /* launched as 136 x 72: the guard drops the rest; output rows 75 apart, so the
         * bytes between them are never written and must keep their value */
        int whp[3] = {130, 70, 75};
        size_t bytes = (size_t)whp[0] * whp[2] * 4;
        cl_mem in = buffer((size_t)whp[0] * whp[1] * 4, 1), out = buffer(bytes, 0);
        size_t g[2] = {136, 72}, l[2] = {8, 8};
        launch("t2d_guard", in, out, bytes, whp, 3, 2, g, l);
        clReleaseMemObject(in);
        clReleaseMemObject(out);
    }
    {
        int wh[2] = {136, 72};
        size_t bytes = (size_t)wh[0] * wh[1] * 4;
        float *signs = malloc(bytes);
        if (!signs)
            exit(1);
        for (int i = 0; i < wh[0] * wh[1]; i++)
            signs[i] = (float)((i * 37) % 11) - 5.0f;
        cl_mem in = cl_test_buffer(&cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, signs);
        free(signs);
        cl_mem out = buffer(bytes, 0);
        size_t g[2] = {136, 72}, l[2] = {8, 8};
        launch("t2d_data", in, out, bytes, wh, 2, 2, g, l);
        clReleaseMemObject(in);
        clReleaseMemObject(out);
    }
    {
        int p = 40; /* rows of 64 elements, 40 apart: a share's band reaches the next row */
        size_t bytes = (size_t)(95 * p + 64) * 4;
        cl_mem out = buffer(bytes, 0);
        size_t g[2] = {96, 64}, l[2] = {8, 8};
        launch("overlap", NULL, out, bytes, &p, 1, 2, g, l);
        clReleaseMemObject(out);
    }
    cl_test_close(&cl);
    return fclose(dump) == 0 ? 0 : 1;
}
