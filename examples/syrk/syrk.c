/* syrk (PolyBench/GPU style): C = alpha*A*A^T + beta*C, A and C n x n floats. 2-D launch of
 * one work-item per element of C, with a NULL local size (the implementation picks it); the
 * size and the scalars reach the kernel as -D build options. */
#include "example.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>

static const char *source =
    "__kernel void syrk(__global const float *a, __global float *c)\n"
    "{\n"
    "    int j = get_global_id(0);\n"
    "    int i = get_global_id(1);\n"
    "    if (i < N && j < N) {\n"
    "        float acc = 0.0f;\n"
    "        for (int k = 0; k < N; k++)\n"
    "            acc += a[i * N + k] * a[j * N + k];\n"
    "        c[i * N + j] = ALPHA * acc + BETA * c[i * N + j];\n"
    "    }\n"
    "}\n";

struct state {
    struct example_cl *cl;
    cl_kernel kernel;
    cl_mem a, c;
    float *ha, *hc_in, *hc_out;
    size_t n, global[2];
};

static void run(void *arg)
{
    struct state *s = arg;
    size_t bytes = s->n * s->n * sizeof(float);
    cl_command_queue q = s->cl->queue;
    example_check(clEnqueueWriteBuffer(q, s->a, CL_FALSE, 0, bytes, s->ha, 0, NULL, NULL), "write a");
    example_check(clEnqueueWriteBuffer(q, s->c, CL_FALSE, 0, bytes, s->hc_in, 0, NULL, NULL), "write c");
    example_check(clEnqueueNDRangeKernel(q, s->kernel, 2, NULL, s->global, NULL, 0, NULL, NULL),
                  "launch syrk");
    example_check(clEnqueueReadBuffer(q, s->c, CL_TRUE, 0, bytes, s->hc_out, 0, NULL, NULL), "read c");
}

int main(int argc, char **argv)
{
    struct example_opts o;
    example_parse(argc, argv, "matrix side n (default 1024)", &o);
    long n = example_size(&o, 1024, 128);
    if (n < 1 || n > 16384) {
        fprintf(stderr, "syrk: --size %ld out of range (1 to 16384)\nFAILED\n", n);
        return 2;
    }
    struct example_cl cl;
    example_cl_init(&o, &cl);

    /* With a NULL local size the global size is exactly the matrix: no padding. */
    struct state s = {.cl = &cl, .n = (size_t)n, .global = {(size_t)n, (size_t)n}};
    size_t elems = s.n * s.n, bytes = elems * sizeof(float);
    s.ha = malloc(bytes);
    s.hc_in = malloc(bytes);
    s.hc_out = malloc(bytes);
    float *want = malloc(bytes);
    if (!s.ha || !s.hc_in || !s.hc_out || !want)
        example_check(CL_OUT_OF_HOST_MEMORY, "malloc");
    /* Positive inputs: no cancellation, so a relative bound on the error holds (below). */
    unsigned seed = 11;
    for (size_t i = 0; i < elems; i++) {
        s.ha[i] = example_randf(&seed, 0.0f, 1.0f);
        s.hc_in[i] = example_randf(&seed, 0.0f, 1.0f);
    }
    const float alpha = 1.5f, beta = 1.2f;

    char options[128];
    snprintf(options, sizeof(options), "-DN=%ld -DALPHA=%.9gf -DBETA=%.9gf", n, alpha, beta);
    cl_program program = example_build(&cl, source, options);
    s.kernel = example_kernel(program, "syrk");
    s.a = example_buffer(&cl, CL_MEM_READ_ONLY, bytes, NULL);
    s.c = example_buffer(&cl, CL_MEM_READ_WRITE, bytes, NULL);
    example_check(clSetKernelArg(s.kernel, 0, sizeof(cl_mem), &s.a), "arg 0");
    example_check(clSetKernelArg(s.kernel, 1, sizeof(cl_mem), &s.c), "arg 1");

    double best, median;
    example_time(&o, run, &s, &best, &median);

    /* Double-precision reference. */
    for (size_t i = 0; i < s.n; i++) {
        const float *ai = s.ha + i * s.n;
        for (size_t j = 0; j < s.n; j++) {
            const float *aj = s.ha + j * s.n;
            double acc = 0.0;
            for (size_t k = 0; k < s.n; k++)
                acc += (double)ai[k] * aj[k];
            want[i * s.n + j] = (float)(alpha * acc + beta * (double)s.hc_in[i * s.n + j]);
        }
    }
    /* A float sum of n positive terms is within n*u (u = FLT_EPSILON/2) of the exact sum,
     * whatever the order or FMA contraction; the final scale-and-add and the rounding of the
     * reference add a few u more. n*FLT_EPSILON = 2n*u covers it. */
    float rel_tol = (float)s.n * FLT_EPSILON;
    int passed = example_compare_floats(s.hc_out, want, elems, 0.0f, rel_tol) < 0;

    char size[32];
    snprintf(size, sizeof(size), "%zu", s.n);
    int status = example_report("syrk", size, passed, best, median);
    clReleaseMemObject(s.a);
    clReleaseMemObject(s.c);
    clReleaseKernel(s.kernel);
    clReleaseProgram(program);
    example_cl_release(&cl);
    free(s.ha);
    free(s.hc_in);
    free(s.hc_out);
    free(want);
    return status;
}
