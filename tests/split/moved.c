/* tests/split/moved.c: a contiguous kernel launched twice on unchanged inputs, for the
 * byte counter test: the first launch sends each member only the input bytes of its
 * share, the second sends nothing. Prints "ok" when the sums are right. */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include "../common/cl_test.h"
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 16)

static const char *source =
    "__kernel void vadd(__global const float *a, __global const float *b,\n"
    "                   __global float *c) {\n"
    "  size_t i = get_global_id(0);\n"
    "  c[i] = a[i] + b[i];\n"
    "}\n";

int main(void)
{
    static float a[N], b[N], c[N];
    for (int i = 0; i < N; i++)
        a[i] = (float)i, b[i] = (float)(2 * i);
    struct cl_test cl;
    cl_test_open(&cl, 0, source, NULL);
    cl_kernel k = cl_test_kernel(&cl, "vadd");
    cl_mem ba = cl_test_buffer(&cl, CL_MEM_READ_ONLY, sizeof a, NULL);
    cl_mem bb = cl_test_buffer(&cl, CL_MEM_READ_ONLY, sizeof b, NULL);
    cl_mem bc = cl_test_buffer(&cl, CL_MEM_WRITE_ONLY, sizeof c, NULL);
    CL_CHECK(clEnqueueWriteBuffer(cl.queue, ba, CL_TRUE, 0, sizeof a, a, 0, NULL, NULL));
    CL_CHECK(clEnqueueWriteBuffer(cl.queue, bb, CL_TRUE, 0, sizeof b, b, 0, NULL, NULL));
    CL_CHECK(clSetKernelArg(k, 0, sizeof ba, &ba));
    CL_CHECK(clSetKernelArg(k, 1, sizeof bb, &bb));
    CL_CHECK(clSetKernelArg(k, 2, sizeof bc, &bc));
    size_t global = N, local = 64;
    for (int r = 0; r < 2; r++)
        CL_CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CL_CHECK(clEnqueueReadBuffer(cl.queue, bc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += c[i] != (float)(3 * i);
    clReleaseMemObject(ba), clReleaseMemObject(bb), clReleaseMemObject(bc);
    clReleaseKernel(k), cl_test_close(&cl);
    printf(bad ? "wrong sums: %d\n" : "ok\n", bad);
    return bad != 0;
}
