/* gemm (PolyBench/GPU style): C = alpha*A*B + beta*C on square n x n float matrices.
 * Compute-bound, 2-D launch with an explicit 32x8 work-group, no local memory. The kernel
 * source is built at run time with the matrix size baked in as constants, as many apps do. */
#include "example.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>

#define LOCAL_X 32
#define LOCAL_Y 8

static const char *source_template =
    "#define N %ld\n"
    "__kernel void gemm(__global const float *a, __global const float *b,\n"
    "                   __global float *c, float alpha, float beta)\n"
    "{\n"
    "    int j = get_global_id(0);\n"
    "    int i = get_global_id(1);\n"
    "    if (i < N && j < N) {\n"
    "        float acc = 0.0f;\n"
    "        for (int k = 0; k < N; k++)\n"
    "            acc += a[i * N + k] * b[k * N + j];\n"
    "        c[i * N + j] = alpha * acc + beta * c[i * N + j];\n"
    "    }\n"
    "}\n";

struct state {
    struct example_cl *cl;
    cl_kernel kernel;
    cl_mem a, b, c;
    float *ha, *hb, *hc_in, *hc_out;
    size_t n, global[2], local[2];
};

static void run(void *arg)
{
    struct state *s = arg;
    size_t bytes = s->n * s->n * sizeof(float);
    cl_command_queue q = s->cl->queue;
    example_check(clEnqueueWriteBuffer(q, s->a, CL_FALSE, 0, bytes, s->ha, 0, NULL, NULL), "write a");
    example_check(clEnqueueWriteBuffer(q, s->b, CL_FALSE, 0, bytes, s->hb, 0, NULL, NULL), "write b");
    /* C is read and written: every run starts from the same initial C. */
    example_check(clEnqueueWriteBuffer(q, s->c, CL_FALSE, 0, bytes, s->hc_in, 0, NULL, NULL), "write c");
    example_check(clEnqueueNDRangeKernel(q, s->kernel, 2, NULL, s->global, s->local, 0, NULL, NULL),
                  "launch gemm");
    example_check(clEnqueueReadBuffer(q, s->c, CL_TRUE, 0, bytes, s->hc_out, 0, NULL, NULL), "read c");
}

int main(int argc, char **argv)
{
    struct example_opts o;
    example_parse(argc, argv, "matrix side n (default 1024)", &o);
    long n = example_size(&o, 1024, 128);
    if (n < 1 || n > 16384) {
        fprintf(stderr, "gemm: --size %ld out of range (1 to 16384)\nFAILED\n", n);
        return 2;
    }
    struct example_cl cl;
    example_cl_init(&o, &cl);

    struct state s = {.cl = &cl, .n = (size_t)n, .local = {LOCAL_X, LOCAL_Y}};
    s.global[0] = (s.n + LOCAL_X - 1) / LOCAL_X * LOCAL_X;
    s.global[1] = (s.n + LOCAL_Y - 1) / LOCAL_Y * LOCAL_Y;
    size_t elems = s.n * s.n, bytes = elems * sizeof(float);
    s.ha = malloc(bytes);
    s.hb = malloc(bytes);
    s.hc_in = malloc(bytes);
    s.hc_out = malloc(bytes);
    double *ref = calloc(elems, sizeof(double)), *bd = malloc(elems * sizeof(double));
    float *want = malloc(bytes);
    if (!s.ha || !s.hb || !s.hc_in || !s.hc_out || !ref || !bd || !want)
        example_check(CL_OUT_OF_HOST_MEMORY, "malloc");
    /* Positive inputs: no cancellation, so a relative bound on the error holds (below). */
    unsigned seed = 7;
    for (size_t i = 0; i < elems; i++) {
        s.ha[i] = example_randf(&seed, 0.0f, 1.0f);
        s.hb[i] = example_randf(&seed, 0.0f, 1.0f);
        s.hc_in[i] = example_randf(&seed, 0.0f, 1.0f);
    }
    const float alpha = 1.5f, beta = 1.2f;

    char *source = NULL;
    if (asprintf(&source, source_template, n) < 0)
        example_check(CL_OUT_OF_HOST_MEMORY, "asprintf");
    cl_program program = example_build(&cl, source, "");
    free(source);
    s.kernel = example_kernel(program, "gemm");
    s.a = example_buffer(&cl, CL_MEM_READ_ONLY, bytes, NULL);
    s.b = example_buffer(&cl, CL_MEM_READ_ONLY, bytes, NULL);
    s.c = example_buffer(&cl, CL_MEM_READ_WRITE, bytes, NULL);
    example_check(clSetKernelArg(s.kernel, 0, sizeof(cl_mem), &s.a), "arg 0");
    example_check(clSetKernelArg(s.kernel, 1, sizeof(cl_mem), &s.b), "arg 1");
    example_check(clSetKernelArg(s.kernel, 2, sizeof(cl_mem), &s.c), "arg 2");
    example_check(clSetKernelArg(s.kernel, 3, sizeof(float), &alpha), "arg 3");
    example_check(clSetKernelArg(s.kernel, 4, sizeof(float), &beta), "arg 4");

    double best, median;
    example_time(&o, run, &s, &best, &median);

    /* Double-precision reference, i-k-j order so the inner loop walks rows; B is widened
     * once so that loop is plain double multiply-adds. */
    for (size_t i = 0; i < elems; i++)
        bd[i] = s.hb[i];
    for (size_t i = 0; i < s.n; i++) {
        double *row = ref + i * s.n;
        for (size_t k = 0; k < s.n; k++) {
            double aik = s.ha[i * s.n + k];
            const double *brow = bd + k * s.n;
            for (size_t j = 0; j < s.n; j++)
                row[j] += aik * brow[j];
        }
        for (size_t j = 0; j < s.n; j++)
            want[i * s.n + j] = (float)(alpha * row[j] + beta * (double)s.hc_in[i * s.n + j]);
    }
    /* A float sum of n positive terms is within n*u (u = FLT_EPSILON/2) of the exact sum,
     * whatever the order or FMA contraction; the final scale-and-add and the rounding of the
     * reference add a few u more. n*FLT_EPSILON = 2n*u covers it. */
    float rel_tol = (float)s.n * FLT_EPSILON;
    int passed = example_compare_floats(s.hc_out, want, elems, 0.0f, rel_tol) < 0;

    char size[32];
    snprintf(size, sizeof(size), "%zu", s.n);
    int status = example_report("gemm", size, passed, best, median);
    clReleaseMemObject(s.a);
    clReleaseMemObject(s.b);
    clReleaseMemObject(s.c);
    clReleaseKernel(s.kernel);
    clReleaseProgram(program);
    example_cl_release(&cl);
    free(s.ha);
    free(s.hb);
    free(s.hc_in);
    free(s.hc_out);
    free(ref);
    free(bd);
    free(want);
    return status;
}
