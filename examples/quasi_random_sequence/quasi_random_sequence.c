/* quasi_random_sequence: n points of a 64-dimensional Sobol-style sequence. Point i of
 * dimension d is the XOR of the direction numbers v[d][k] for the bits k set in the Gray
 * code of i (the Antonov-Saleev order). One work-group per dimension (64 big groups), its
 * 32 direction numbers staged in local memory, each work-item striding over the points.
 *
 * The direction numbers are v[d][k] = m[d][k] << (31 - k) with m odd and below 2^(k+1):
 * dimension 0 takes m = 1 (the van der Corput sequence), the others take m from a fixed
 * pseudo-random stream, not from a published primitive-polynomial table. Each dimension is
 * still a base-2 (0,1)-sequence; the cross-dimension quality of real Sobol tables is not
 * claimed. The sizes reach the kernel as -D build options. */
#include "example.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define DIMS 64
#define BITS 32
#define LOCAL 256

static const char *source =
    "__kernel void sobol_points(__global const uint *directions, __global float *out)\n"
    "{\n"
    "    __local uint v[BITS];\n"
    "    uint dim = get_group_id(0), lid = get_local_id(0), lsize = get_local_size(0);\n"
    "    for (uint k = lid; k < BITS; k += lsize)\n"
    "        v[k] = directions[dim * BITS + k];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (uint i = lid; i < N_POINTS; i += lsize) {\n"
    "        uint gray = i ^ (i >> 1), x = 0;\n"
    "        for (uint k = 0; gray != 0; k++, gray >>= 1)\n"
    "            if (gray & 1)\n"
    "                x ^= v[k];\n"
    "        /* The top 24 bits: exact in a float, and the point stays below 1. */\n"
    "        out[(size_t)dim * N_POINTS + i] = (float)(x >> 8) * 0x1p-24f;\n"
    "    }\n"
    "}\n";

struct state {
    struct example_cl *cl;
    cl_kernel kernel;
    cl_mem directions, points;
    float *hpoints;
    size_t n, global, local;
};

static void run(void *arg)
{
    struct state *s = arg;
    cl_command_queue q = s->cl->queue;
    example_check(clEnqueueNDRangeKernel(q, s->kernel, 1, NULL, &s->global, &s->local, 0, NULL, NULL),
                  "launch sobol_points");
    example_check(clEnqueueReadBuffer(q, s->points, CL_TRUE, 0, s->n * DIMS * sizeof(float), s->hpoints,
                                      0, NULL, NULL),
                  "read points");
}

int main(int argc, char **argv)
{
    struct example_opts o;
    example_parse(argc, argv, "number of points per dimension (default 131072; 64 dimensions)", &o);
    long n = example_size(&o, 131072, 8192);
    if (n < 1 || n > (1L << 24)) {
        fprintf(stderr, "quasi_random_sequence: --size %ld out of range (1 to 2^24)\nFAILED\n", n);
        return 2;
    }
    struct example_cl cl;
    example_cl_init(&o, &cl);

    struct state s = {.cl = &cl, .n = (size_t)n, .local = LOCAL, .global = (size_t)DIMS * LOCAL};
    cl_uint directions[DIMS * BITS];
    unsigned seed = 29;
    for (int d = 0; d < DIMS; d++)
        for (int k = 0; k < BITS; k++) {
            uint32_t m = d == 0 ? 1u : (example_rand(&seed) & ((2u << k) - 1)) | 1u;
            directions[d * BITS + k] = m << (31 - k);
        }
    s.hpoints = malloc(s.n * DIMS * sizeof(float));
    float *want = malloc(s.n * DIMS * sizeof(float));
    if (!s.hpoints || !want)
        example_check(CL_OUT_OF_HOST_MEMORY, "malloc");

    char options[96];
    snprintf(options, sizeof(options), "-DN_POINTS=%ldu -DBITS=%d", n, BITS);
    cl_program program = example_build(&cl, source, options);
    s.kernel = example_kernel(program, "sobol_points");
    example_require_group_size(&cl, s.kernel, LOCAL);
    s.directions = example_buffer(&cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(directions),
                                  directions);
    s.points = example_buffer(&cl, CL_MEM_WRITE_ONLY, s.n * DIMS * sizeof(float), NULL);
    example_check(clSetKernelArg(s.kernel, 0, sizeof(cl_mem), &s.directions), "arg 0");
    example_check(clSetKernelArg(s.kernel, 1, sizeof(cl_mem), &s.points), "arg 1");

    double best, median;
    example_time(&o, run, &s, &best, &median);

    /* The reference walks the Gray code incrementally (x_i = x_{i-1} ^ v[lowest zero bit
     * of i-1]), a different route to the same integers. */
    for (int d = 0; d < DIMS; d++) {
        uint32_t x = 0;
        for (size_t i = 0; i < s.n; i++) {
            if (i > 0)
                x ^= directions[d * BITS + __builtin_ctzl(~(unsigned long)(i - 1))];
            want[(size_t)d * s.n + i] = (float)(x >> 8) * 0x1p-24f;
        }
    }
    /* Integer work, and a 24-bit integer times a power of two is exact: tolerance 0. */
    int passed = example_compare_floats(s.hpoints, want, s.n * DIMS, 0.0f, 0.0f) < 0;

    char size[48];
    snprintf(size, sizeof(size), "%zux%d", s.n, DIMS);
    int status = example_report("quasi_random_sequence", size, passed, best, median);
    clReleaseMemObject(s.directions);
    clReleaseMemObject(s.points);
    clReleaseKernel(s.kernel);
    clReleaseProgram(program);
    example_cl_release(&cl);
    free(s.hpoints);
    free(want);
    return status;
}
