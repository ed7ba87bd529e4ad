/* tests/native-source/unsafe.c: a program whose source tests one of the names the
 * source route's prelude redefines (#ifndef get_num_groups), so its shares cannot come
 * from the source. Launches 128 groups of 8 and prints "ok" when every element is
 * group_id * 1000 + num_groups, whichever way libskmd ran it. */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include "../common/cl_test.h"
#include <stdio.h>

#define N 1024
#define LOCAL 8

static const char *source =
    "#ifndef get_num_groups\n"
    "#define NG(d) get_num_groups(d)\n"
    "#endif\n"
    "__kernel void ids(__global uint *out) {\n"
    "  out[get_global_id(0)] = (uint)(get_group_id(0) * 1000 + NG(0));\n"
    "}\n";

int main(void)
{
    static cl_uint out[N];
    struct cl_test cl;
    cl_test_open(&cl, 0, source, NULL);
    cl_kernel k = cl_test_kernel(&cl, "ids");
    cl_mem b = cl_test_buffer(&cl, CL_MEM_WRITE_ONLY, sizeof out, NULL);
    CL_CHECK(clSetKernelArg(k, 0, sizeof b, &b));
    size_t global = N, local = LOCAL;
    CL_CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CL_CHECK(clEnqueueReadBuffer(cl.queue, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += out[i] != (cl_uint)(i / LOCAL * 1000 + N / LOCAL);
    clReleaseMemObject(b);
    clReleaseKernel(k);
    cl_test_close(&cl);
    printf(bad ? "%d wrong elements\n" : "ok\n", bad);
    return bad != 0;
}
