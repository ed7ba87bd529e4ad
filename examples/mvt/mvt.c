/* mvt (PolyBench/GPU style): x1 += A*y1 and x2 += A^T*y2 with A n x n floats. Two kernels
 * over the same matrix, one reading it by rows and one by columns: transfer-bound. x1 starts
 * from host values, x2 from zero by clEnqueueFillBuffer; both results are read back after
 * waiting on the kernels' events. */
#include "example.h"

#include <stdio.h>
#include <stdlib.h>

static const char *source =
    "__kernel void mvt_rows(__global const float *a, __global float *x1,\n"
    "                       __global const float *y1, int n)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    if (i < n) {\n"
    "        float acc = x1[i];\n"
    "        for (int j = 0; j < n; j++)\n"
    "            acc += a[i * n + j] * y1[j];\n"
    "        x1[i] = acc;\n"
    "    }\n"
    "}\n"
    "__kernel void mvt_cols(__global const float *a, __global float *x2,\n"
    "                       __global const float *y2, int n)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    if (i < n) {\n"
    "        float acc = x2[i];\n"
    "        for (int j = 0; j < n; j++)\n"
    "            acc += a[j * n + i] * y2[j];\n"
    "        x2[i] = acc;\n"
    "    }\n"
    "}\n";

struct state {
    struct example_cl *cl;
    cl_kernel rows, cols;
    cl_mem a, x1, x2, y1, y2;
    float *ha, *hx1_in, *hy1, *hy2, *hx1, *hx2;
    size_t n, global, local;
};

static void run(void *arg)
{
    struct state *s = arg;
    size_t mbytes = s->n * s->n * sizeof(float), vbytes = s->n * sizeof(float);
    cl_command_queue q = s->cl->queue;
    const float zero = 0.0f;
    example_check(clEnqueueWriteBuffer(q, s->a, CL_FALSE, 0, mbytes, s->ha, 0, NULL, NULL), "write a");
    example_check(clEnqueueWriteBuffer(q, s->y1, CL_FALSE, 0, vbytes, s->hy1, 0, NULL, NULL), "write y1");
    example_check(clEnqueueWriteBuffer(q, s->y2, CL_FALSE, 0, vbytes, s->hy2, 0, NULL, NULL), "write y2");
    example_check(clEnqueueWriteBuffer(q, s->x1, CL_FALSE, 0, vbytes, s->hx1_in, 0, NULL, NULL), "write x1");
    example_check(clEnqueueFillBuffer(q, s->x2, &zero, sizeof(zero), 0, vbytes, 0, NULL, NULL), "fill x2");
    cl_event done[2];
    example_check(clEnqueueNDRangeKernel(q, s->rows, 1, NULL, &s->global, &s->local, 0, NULL, &done[0]),
                  "launch mvt_rows");
    example_check(clEnqueueNDRangeKernel(q, s->cols, 1, NULL, &s->global, &s->local, 0, NULL, &done[1]),
                  "launch mvt_cols");
    example_check(clEnqueueReadBuffer(q, s->x1, CL_FALSE, 0, vbytes, s->hx1, 1, &done[0], NULL), "read x1");
    example_check(clEnqueueReadBuffer(q, s->x2, CL_TRUE, 0, vbytes, s->hx2, 1, &done[1], NULL), "read x2");
    clReleaseEvent(done[0]);
    clReleaseEvent(done[1]);
}

static void set_args(cl_kernel k, cl_mem a, cl_mem x, cl_mem y, cl_int n)
{
    example_check(clSetKernelArg(k, 0, sizeof(cl_mem), &a), "arg 0");
    example_check(clSetKernelArg(k, 1, sizeof(cl_mem), &x), "arg 1");
    example_check(clSetKernelArg(k, 2, sizeof(cl_mem), &y), "arg 2");
    example_check(clSetKernelArg(k, 3, sizeof(cl_int), &n), "arg 3");
}

int main(int argc, char **argv)
{
    struct example_opts o;
    example_parse(argc, argv, "matrix side n (default 4096)", &o);
    long n = example_size(&o, 4096, 512);
    if (n < 1 || n > 32768) {
        fprintf(stderr, "mvt: --size %ld out of range (1 to 32768)\nFAILED\n", n);
        return 2;
    }
    struct example_cl cl;
    example_cl_init(&o, &cl);

    struct state s = {.cl = &cl, .n = (size_t)n, .local = 256};
    s.global = (s.n + s.local - 1) / s.local * s.local;
    size_t elems = s.n * s.n, vbytes = s.n * sizeof(float);
    s.ha = malloc(elems * sizeof(float));
    s.hx1_in = malloc(vbytes);
    s.hy1 = malloc(vbytes);
    s.hy2 = malloc(vbytes);
    s.hx1 = malloc(vbytes);
    s.hx2 = malloc(vbytes);
    float *want1 = malloc(vbytes), *want2 = malloc(vbytes);
    double *ref2 = calloc(s.n, sizeof(double));
    if (!s.ha || !s.hx1_in || !s.hy1 || !s.hy2 || !s.hx1 || !s.hx2 || !want1 || !want2 || !ref2)
        example_check(CL_OUT_OF_HOST_MEMORY, "malloc");
    /* Inputs are multiples of 1/16 in [0, 1): see the tolerance below. */
    unsigned seed = 17;
    for (size_t i = 0; i < elems; i++)
        s.ha[i] = (float)(example_rand(&seed) % 16) / 16.0f;
    for (size_t i = 0; i < s.n; i++) {
        s.hx1_in[i] = (float)(example_rand(&seed) % 16) / 16.0f;
        s.hy1[i] = (float)(example_rand(&seed) % 16) / 16.0f;
        s.hy2[i] = (float)(example_rand(&seed) % 16) / 16.0f;
    }

    cl_program program = example_build(&cl, source, "");
    s.rows = example_kernel(program, "mvt_rows");
    s.cols = example_kernel(program, "mvt_cols");
    s.a = example_buffer(&cl, CL_MEM_READ_ONLY, elems * sizeof(float), NULL);
    s.x1 = example_buffer(&cl, CL_MEM_READ_WRITE, vbytes, NULL);
    s.x2 = example_buffer(&cl, CL_MEM_READ_WRITE, vbytes, NULL);
    s.y1 = example_buffer(&cl, CL_MEM_READ_ONLY, vbytes, NULL);
    s.y2 = example_buffer(&cl, CL_MEM_READ_ONLY, vbytes, NULL);
    set_args(s.rows, s.a, s.x1, s.y1, (cl_int)n);
    set_args(s.cols, s.a, s.x2, s.y2, (cl_int)n);

    double best, median;
    example_time(&o, run, &s, &best, &median);

    for (size_t i = 0; i < s.n; i++) {
        double acc = s.hx1_in[i];
        for (size_t j = 0; j < s.n; j++) {
            acc += (double)s.ha[i * s.n + j] * s.hy1[j];
            ref2[j] += (double)s.ha[i * s.n + j] * s.hy2[i];
        }
        want1[i] = (float)acc;
    }
    for (size_t i = 0; i < s.n; i++)
        want2[i] = (float)ref2[i];
    /* Every product is a multiple of 2^-8 below 225*2^-8 and x1 starts below 1, so every
     * partial sum (at most 226*n units of 2^-8) is exact in float's 24 bits while
     * 226*n < 2^24, i.e. n <= 74235 (the size limit above is lower): any summation order
     * gives the exact result, so the tolerance is 0. */
    int passed = example_compare_floats(s.hx1, want1, s.n, 0.0f, 0.0f) < 0 &&
                 example_compare_floats(s.hx2, want2, s.n, 0.0f, 0.0f) < 0;

    char size[32];
    snprintf(size, sizeof(size), "%zu", s.n);
    int status = example_report("mvt", size, passed, best, median);
    clReleaseMemObject(s.a);
    clReleaseMemObject(s.x1);
    clReleaseMemObject(s.x2);
    clReleaseMemObject(s.y1);
    clReleaseMemObject(s.y2);
    clReleaseKernel(s.rows);
    clReleaseKernel(s.cols);
    clReleaseProgram(program);
    example_cl_release(&cl);
    free(s.ha);
    free(s.hx1_in);
    free(s.hy1);
    free(s.hy2);
    free(s.hx1);
    free(s.hx2);
    free(want1);
    free(want2);
    free(ref2);
    return status;
}
