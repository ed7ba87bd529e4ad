/* bench/callcost/setup-cost.c: where a short program's time goes before and after its one
 * launch: each set-up call timed alone (platforms, devices, context, queue, program build,
 * buffer, first write, first launch, first read, releases). An ordinary OpenCL app (links
 * only -lOpenCL): run it natively and under LD_PRELOAD=libskmd.so; the differences are
 * libskmd's one-time costs.
 *
 * Usage: setup-cost [--platform N]   (default: platform 0, its first device)
 * Prints one line per step: `SETUP step=NAME ms=X`, then `PASSED` or `FAILED`. */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *source =
    "__kernel void add_one(__global float *x) { size_t i = get_global_id(0); x[i] += 1.0f; }\n";

#define ITEMS 4096

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

static double mark;
static void step(const char *name, cl_int err)
{
    double t = now_ms();
    if (err != CL_SUCCESS) {
        printf("FAILED at %s: %d\n", name, err);
        exit(1);
    }
    printf("SETUP step=%s ms=%.3f\n", name, t - mark);
    mark = now_ms();
}

int main(int argc, char **argv)
{
    cl_uint which = 0;
    if (argc == 3 && !strcmp(argv[1], "--platform"))
        which = (cl_uint)atoi(argv[2]);
    else if (argc != 1) {
        fprintf(stderr, "usage: %s [--platform N]\n", argv[0]);
        return 2;
    }
    mark = now_ms();
    cl_platform_id platforms[16];
    cl_uint np = 0;
    cl_int err = clGetPlatformIDs(16, platforms, &np);
    if (err == CL_SUCCESS && which >= np)
        err = CL_INVALID_PLATFORM;
    step("platforms", err);
    cl_device_id device;
    step("devices", clGetDeviceIDs(platforms[which], CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    step("context", err);
    cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
    step("queue", err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    if (err == CL_SUCCESS)
        err = clBuildProgram(prog, 1, &device, "", NULL, NULL);
    step("build", err);
    cl_kernel k = clCreateKernel(prog, "add_one", &err);
    step("kernel", err);
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, ITEMS * sizeof(float), NULL, &err);
    step("buffer", err);
    static float host[ITEMS];
    for (int i = 0; i < ITEMS; i++)
        host[i] = (float)i;
    step("write", clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL));
    size_t global = ITEMS, local = 64;
    err = clSetKernelArg(k, 0, sizeof buf, &buf);
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(q);
    step("launch", err);
    step("read", clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL));
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    step("release", clReleaseContext(ctx));
    int bad = 0;
    for (int i = 0; i < ITEMS; i++)
        bad += host[i] != (float)i + 1.0f;
    puts(bad ? "FAILED" : "PASSED");
    return bad != 0;
}
