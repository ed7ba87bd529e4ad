/* tests/split/chain.c: chained launches whose shares read bytes another member wrote in
 * the launch before: each launch reads its input rotated by a shift that changes from
 * launch to launch, so the work-groups of member 1 read what member 0 wrote (and the
 * other way round). Writes the final buffer to the file named by argv[1], to be compared
 * byte for byte with a native run. */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include "../common/cl_test.h"
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 16)
#define LAUNCHES 6

/* Integer arithmetic: the result does not depend on the device's float rounding. */
static const char *source =
    "__kernel void rotate_mix(__global const uint *in, __global uint *out, uint shift) {\n"
    "  uint i = get_global_id(0);\n"
    "  uint n = get_global_size(0);\n"
    "  out[i] = in[(i + shift) % n] * 2654435761u + i;\n"
    "}\n";

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUTPUT_FILE\n", argv[0]);
        return 2;
    }
    static cl_uint x[N];
    for (int i = 0; i < N; i++)
        x[i] = (cl_uint)i * 7u + 1u;
    struct cl_test cl;
    cl_test_open(&cl, 0, source, NULL);
    cl_kernel k = cl_test_kernel(&cl, "rotate_mix");
    cl_mem buf[2];
    for (int i = 0; i < 2; i++) {
        buf[i] = cl_test_buffer(&cl, CL_MEM_READ_WRITE, sizeof x, NULL);
    }
    CL_CHECK(clEnqueueWriteBuffer(cl.queue, buf[0], CL_TRUE, 0, sizeof x, x, 0, NULL, NULL));
    /* Shifts of about half the range: most of a share's input was written by the other
     * member in the launch before. */
    static const cl_uint shifts[LAUNCHES] = {N / 2, N / 2 + 4096, N / 3, 2 * N / 3, 64, N - 64};
    size_t global = N, local = 64;
    for (int l = 0; l < LAUNCHES; l++) {
        CL_CHECK(clSetKernelArg(k, 0, sizeof buf[0], &buf[l % 2]));
        CL_CHECK(clSetKernelArg(k, 1, sizeof buf[0], &buf[(l + 1) % 2]));
        CL_CHECK(clSetKernelArg(k, 2, sizeof shifts[l], &shifts[l]));
        CL_CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    }
    CL_CHECK(clEnqueueReadBuffer(cl.queue, buf[LAUNCHES % 2], CL_TRUE, 0, sizeof x, x, 0, NULL,
                                 NULL));
    clReleaseMemObject(buf[0]), clReleaseMemObject(buf[1]);
    clReleaseKernel(k), cl_test_close(&cl);
    FILE *f = fopen(argv[1], "wb");
    if (!f || fwrite(x, sizeof x, 1, f) != 1 || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", argv[1]);
        return 1;
    }
    return 0;
}
