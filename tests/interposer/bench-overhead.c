/* bench-overhead: a storm of tiny kernel launches; prints microseconds per launch.
 * Run natively and under libskmd (make bench-overhead) to see what libskmd adds. */
#define CL_TARGET_OPENCL_VERSION 120
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <CL/cl.h>

static const char *src = "__kernel void tiny(__global int *a) { a[get_global_id(0)] += 1; }";

int main(int argc, char **argv)
{
    int launches = argc > 1 ? atoi(argv[1]) : 20000;
    cl_platform_id plat;
    cl_device_id dev;
    cl_int err;
    if (clGetPlatformIDs(1, &plat, NULL) || clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL)) {
        fprintf(stderr, "bench-overhead: no OpenCL device\n");
        return 1;
    }
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    if (clBuildProgram(prog, 1, &dev, NULL, NULL, NULL) != CL_SUCCESS) {
        fprintf(stderr, "bench-overhead: build failed\n");
        return 1;
    }
    cl_kernel k = clCreateKernel(prog, "tiny", &err);
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * sizeof(int), NULL, &err);
    clSetKernelArg(k, 0, sizeof buf, &buf);
    size_t global = 64;
    for (int i = 0; i < 100; i++) /* warm up */
        clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
    clFinish(q);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < launches; i++) {
        clSetKernelArg(k, 0, sizeof buf, &buf);
        clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
    }
    clFinish(q);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double us = ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / 1e3 / launches;
    printf("%.3f\n", us);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return 0;
}
