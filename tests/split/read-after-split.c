/* tests/split/read-after-split.c: what streamed outputs (libskmd/launch/stream_out.h) save, as
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
#include "../common/cl_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
    struct cl_test cl;
    cl_test_open(&cl, 0, source, NULL);
    cl_kernel k = cl_test_kernel(&cl, "vadd");
    cl_mem A = cl_test_buffer(&cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, a);
    cl_mem B = cl_test_buffer(&cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, b);
    cl_mem C = cl_test_buffer(&cl, CL_MEM_WRITE_ONLY, bytes, NULL);
    CL_CHECK(clSetKernelArg(k, 0, sizeof A, &A));
    CL_CHECK(clSetKernelArg(k, 1, sizeof B, &B));
    CL_CHECK(clSetKernelArg(k, 2, sizeof C, &C));
    size_t global = n, local = 64;
    double best_total = 1e30, best_read = 1e30;
    for (long r = 0; r < reps; r++) {
        memset(c, 0, bytes);
        double t0 = now_ms();
        CL_CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
        CL_CHECK(clFinish(cl.queue));
        double t1 = now_ms();
        CL_CHECK(clEnqueueReadBuffer(cl.queue, C, CL_TRUE, 0, bytes, c, 0, NULL, NULL));
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
    clReleaseKernel(k), cl_test_close(&cl);
    free(a), free(b), free(c);
    return 0;
}
