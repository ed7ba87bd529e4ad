/* tests/split/moved.c: a contiguous kernel launched twice on unchanged inputs, for the
 * byte counter test: the first launch sends each member only the input bytes of its
 * share, the second sends nothing. Prints "ok" when the sums are right. */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 16)
#define CHECK(x)                                                                            \
    do {                                                                                    \
        cl_int e_ = (x);                                                                    \
        if (e_ != CL_SUCCESS) {                                                             \
            fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, e_);                \
            return 1;                                                                       \
        }                                                                                   \
    } while (0)

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
    cl_platform_id plat;
    cl_device_id dev;
    cl_int err;
    CHECK(clGetPlatformIDs(1, &plat, NULL));
    CHECK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    CHECK(err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    CHECK(err);
    CHECK(clBuildProgram(prog, 1, &dev, "", NULL, NULL));
    cl_kernel k = clCreateKernel(prog, "vadd", &err);
    CHECK(err);
    cl_mem ba = clCreateBuffer(ctx, CL_MEM_READ_ONLY, sizeof a, NULL, &err);
    CHECK(err);
    cl_mem bb = clCreateBuffer(ctx, CL_MEM_READ_ONLY, sizeof b, NULL, &err);
    CHECK(err);
    cl_mem bc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof c, NULL, &err);
    CHECK(err);
    CHECK(clEnqueueWriteBuffer(q, ba, CL_TRUE, 0, sizeof a, a, 0, NULL, NULL));
    CHECK(clEnqueueWriteBuffer(q, bb, CL_TRUE, 0, sizeof b, b, 0, NULL, NULL));
    CHECK(clSetKernelArg(k, 0, sizeof ba, &ba));
    CHECK(clSetKernelArg(k, 1, sizeof bb, &bb));
    CHECK(clSetKernelArg(k, 2, sizeof bc, &bc));
    size_t global = N, local = 64;
    for (int r = 0; r < 2; r++)
        CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, bc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += c[i] != (float)(3 * i);
    clReleaseMemObject(ba), clReleaseMemObject(bb), clReleaseMemObject(bc);
    clReleaseKernel(k), clReleaseProgram(prog), clReleaseCommandQueue(q), clReleaseContext(ctx);
    printf(bad ? "wrong sums: %d\n" : "ok\n", bad);
    return bad != 0;
}
