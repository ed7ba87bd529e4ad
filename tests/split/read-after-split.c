/* tests/split/read-after-split.c: what streamed outputs (libskmd/stream_out.h) save, as
 * an app sees it: a vector add launched and its output read back, REPS times. Prints the
 * best time of launch + read, and of the read alone after clFinish (the part streaming
 * takes off the end of the launch). Every output element is checked.
 *
 *   read-after-split [--mib N] [--reps N]     (defaults 16 MiB per buffer, 12 reps)
 *
 * Run it natively and under LD_PRELOAD=libskmd.so with SKMD_STREAM_OUTPUTS=0 and auto
 * (`make bench-stream` does, on the local devices). */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(x)                                                                            \
    do {                                                                                    \
        cl_int e_ = (x);                                                                    \
        if (e_ != CL_SUCCESS) {                                                             \
            fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, e_);                \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

static const char *source =
    "__kernel void vadd(__global const float *a, __global const float *b,\n"
    "                   __global float *c) {\n"
    "  size_t i = get_global_id(0);\n"
    "  c[i] = a[i] + b[i];\n"
    "}\n";

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    long mib = 16, reps = 12;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--mib") && i + 1 < argc)
            mib = strtol(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = strtol(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: %s [--mib N] [--reps N]\n", argv[0]);
            return 2;
        }
    }
    if (mib < 1 || mib > 4096 || reps < 3) {
        fprintf(stderr, "--mib must be 1..4096 and --reps at least 3\n");
        return 2;
    }
    size_t n = (size_t)mib << 18, bytes = n * sizeof(float); /* 2^18 floats a MiB */
    float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
    if (!a || !b || !c) {
        fprintf(stderr, "out of host memory\n");
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        a[i] = (float)(i % 1000);
        b[i] = (float)(i % 777) * 2.0f;
    }
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
    cl_mem A = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, a, &err);
    CHECK(err);
    cl_mem B = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, b, &err);
    CHECK(err);
    cl_mem C = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
    CHECK(err);
    CHECK(clSetKernelArg(k, 0, sizeof A, &A));
    CHECK(clSetKernelArg(k, 1, sizeof B, &B));
    CHECK(clSetKernelArg(k, 2, sizeof C, &C));
    size_t global = n, local = 64;
    double best_total = 1e30, best_read = 1e30;
    for (long r = 0; r < reps; r++) {
        memset(c, 0, bytes);
        double t0 = now_ms();
        CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
        CHECK(clFinish(q));
        double t1 = now_ms();
        CHECK(clEnqueueReadBuffer(q, C, CL_TRUE, 0, bytes, c, 0, NULL, NULL));
        double t2 = now_ms();
        for (size_t i = 0; i < n; i++)
            if (c[i] != a[i] + b[i]) {
                fprintf(stderr, "wrong result at %zu: %g\n", i, (double)c[i]);
                return 1;
            }
        if (r < 2)
            continue; /* warm-up: compiles, first transfers, the partitioner's probes */
        best_total = t2 - t0 < best_total ? t2 - t0 : best_total;
        best_read = t2 - t1 < best_read ? t2 - t1 : best_read;
    }
    printf("RESULT read_after_split mib=%ld launch_read_ms=%.3f read_ms=%.3f\n", mib,
           best_total, best_read);
    clReleaseMemObject(A), clReleaseMemObject(B), clReleaseMemObject(C);
    clReleaseKernel(k), clReleaseProgram(prog), clReleaseCommandQueue(q), clReleaseContext(ctx);
    free(a), free(b), free(c);
    return 0;
}
