/* gesummv (PolyBench/GPU style): y = alpha*A*x + beta*B*x with A, B n x n floats. Two
 * matrices cross the bus for 4 flops per pair of elements: transfer-bound. One work-item
 * per row; the result is read back by mapping the buffer. */
#include "example.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *source =
    "__kernel void gesummv(__global const float *a, __global const float *b,\n"
    "                      __global const float *x, __global float *y, __global float *tmp,\n"
    "                      float alpha, float beta, int n)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    if (i < n) {\n"
    "        float t = 0.0f, u = 0.0f;\n"
    "        for (int j = 0; j < n; j++) {\n"
    "            t += a[i * n + j] * x[j];\n"
    "            u += b[i * n + j] * x[j];\n"
    "        }\n"
    "        tmp[i] = t;\n"
    "        y[i] = alpha * t + beta * u;\n"
    "    }\n"
    "}\n";

struct state {
    struct example_cl *cl;
    cl_kernel kernel;
    cl_mem a, b, x, y, tmp;
    float *ha, *hb, *hx, *hy;
    size_t n, global, local;
};

static void run(void *arg)
{
    struct state *s = arg;
    size_t mbytes = s->n * s->n * sizeof(float), vbytes = s->n * sizeof(float);
    cl_command_queue q = s->cl->queue;
    example_check(clEnqueueWriteBuffer(q, s->a, CL_FALSE, 0, mbytes, s->ha, 0, NULL, NULL), "write a");
    example_check(clEnqueueWriteBuffer(q, s->b, CL_FALSE, 0, mbytes, s->hb, 0, NULL, NULL), "write b");
    example_check(clEnqueueWriteBuffer(q, s->x, CL_FALSE, 0, vbytes, s->hx, 0, NULL, NULL), "write x");
    cl_event done;
    example_check(clEnqueueNDRangeKernel(q, s->kernel, 1, NULL, &s->global, &s->local, 0, NULL, &done),
                  "launch gesummv");
    cl_int err;
    float *y = clEnqueueMapBuffer(q, s->y, CL_TRUE, CL_MAP_READ, 0, vbytes, 1, &done, NULL, &err);
    example_check(err, "map y");
    memcpy(s->hy, y, vbytes);
    example_check(clEnqueueUnmapMemObject(q, s->y, y, 0, NULL, NULL), "unmap y");
    example_check(clFinish(q), "clFinish");
    clReleaseEvent(done);
}

int main(int argc, char **argv)
{
    struct example_opts o;
    example_parse(argc, argv, "matrix side n (default 4096)", &o);
    long n = example_size(&o, 4096, 512);
    if (n < 1 || n > 32768) {
        fprintf(stderr, "gesummv: --size %ld out of range (1 to 32768)\nFAILED\n", n);
        return 2;
    }
    struct example_cl cl;
    example_cl_init(&o, &cl);

    struct state s = {.cl = &cl, .n = (size_t)n, .local = 256};
    s.global = (s.n + s.local - 1) / s.local * s.local;
    size_t elems = s.n * s.n;
    s.ha = malloc(elems * sizeof(float));
    s.hb = malloc(elems * sizeof(float));
    s.hx = malloc(s.n * sizeof(float));
    s.hy = malloc(s.n * sizeof(float));
    float *want = malloc(s.n * sizeof(float));
    if (!s.ha || !s.hb || !s.hx || !s.hy || !want)
        example_check(CL_OUT_OF_HOST_MEMORY, "malloc");
    /* Inputs are multiples of 1/16 in [0, 1): see the tolerance below. */
    unsigned seed = 13;
    for (size_t i = 0; i < elems; i++) {
        s.ha[i] = (float)(example_rand(&seed) % 16) / 16.0f;
        s.hb[i] = (float)(example_rand(&seed) % 16) / 16.0f;
    }
    for (size_t i = 0; i < s.n; i++)
        s.hx[i] = (float)(example_rand(&seed) % 16) / 16.0f;
    const float alpha = 2.0f, beta = 3.0f;

    cl_program program = example_build(&cl, source, "");
    s.kernel = example_kernel(program, "gesummv");
    s.a = example_buffer(&cl, CL_MEM_READ_ONLY, elems * sizeof(float), NULL);
    s.b = example_buffer(&cl, CL_MEM_READ_ONLY, elems * sizeof(float), NULL);
    s.x = example_buffer(&cl, CL_MEM_READ_ONLY, s.n * sizeof(float), NULL);
    s.y = example_buffer(&cl, CL_MEM_WRITE_ONLY, s.n * sizeof(float), NULL);
    s.tmp = example_buffer(&cl, CL_MEM_READ_WRITE, s.n * sizeof(float), NULL);
    cl_int ni = (cl_int)n;
    example_check(clSetKernelArg(s.kernel, 0, sizeof(cl_mem), &s.a), "arg 0");
    example_check(clSetKernelArg(s.kernel, 1, sizeof(cl_mem), &s.b), "arg 1");
    example_check(clSetKernelArg(s.kernel, 2, sizeof(cl_mem), &s.x), "arg 2");
    example_check(clSetKernelArg(s.kernel, 3, sizeof(cl_mem), &s.y), "arg 3");
    example_check(clSetKernelArg(s.kernel, 4, sizeof(cl_mem), &s.tmp), "arg 4");
    example_check(clSetKernelArg(s.kernel, 5, sizeof(float), &alpha), "arg 5");
    example_check(clSetKernelArg(s.kernel, 6, sizeof(float), &beta), "arg 6");
    example_check(clSetKernelArg(s.kernel, 7, sizeof(cl_int), &ni), "arg 7");

    double best, median;
    example_time(&o, run, &s, &best, &median);

    for (size_t i = 0; i < s.n; i++) {
        double t = 0.0, u = 0.0;
        for (size_t j = 0; j < s.n; j++) {
            t += (double)s.ha[i * s.n + j] * s.hx[j];
            u += (double)s.hb[i * s.n + j] * s.hx[j];
        }
        want[i] = (float)(alpha * t + beta * u);
    }
    /* Every product is a multiple of 2^-8 below 225*2^-8, so each partial sum and
     * alpha*t + beta*u (at most 5*225*n units of 2^-8) stays exact in float's 24 bits while
     * 1125*n < 2^24, i.e. n <= 14913: then any summation order gives the exact result and
     * the tolerance is 0. Larger n fall back to the bound for positive sums, n*FLT_EPSILON. */
    float rel_tol = n <= 14913 ? 0.0f : (float)n * FLT_EPSILON;
    int passed = example_compare_floats(s.hy, want, s.n, 0.0f, rel_tol) < 0;

    char size[32];
    snprintf(size, sizeof(size), "%zu", s.n);
    int status = example_report("gesummv", size, passed, best, median);
    clReleaseMemObject(s.a);
    clReleaseMemObject(s.b);
    clReleaseMemObject(s.x);
    clReleaseMemObject(s.y);
    clReleaseMemObject(s.tmp);
    clReleaseKernel(s.kernel);
    clReleaseProgram(program);
    example_cl_release(&cl);
    free(s.ha);
    free(s.hb);
    free(s.hx);
    free(s.hy);
    free(want);
    return status;
}
