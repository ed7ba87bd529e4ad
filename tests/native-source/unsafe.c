/* tests/native-source/unsafe.c: a program whose source tests one of the names the
 * source route's prelude redefines (#ifndef get_num_groups), so its shares cannot come
 * from the source. Launches 128 groups of 8 and prints "ok" when every element is
 * group_id * 1000 + num_groups, whichever way libskmd ran it. */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stdio.h>

#define N 1024
#define LOCAL 8
#define CHECK(x)                                                                            \
    do {                                                                                    \
        cl_int e_ = (x);                                                                    \
        if (e_ != CL_SUCCESS) {                                                             \
            fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, e_);                \
            return 1;                                                                       \
        }                                                                                   \
    } while (0)

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
    cl_kernel k = clCreateKernel(prog, "ids", &err);
    CHECK(err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof out, NULL, &err);
    CHECK(err);
    CHECK(clSetKernelArg(k, 0, sizeof b, &b));
    size_t global = N, local = LOCAL;
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += out[i] != (cl_uint)(i / LOCAL * 1000 + N / LOCAL);
    clReleaseMemObject(b);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    printf(bad ? "%d wrong elements\n" : "ok\n", bad);
    return bad != 0;
}
