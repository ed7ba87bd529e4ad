/* vector_add: c[i] = a[i] + b[i]. Contiguous and transfer-bound: one float each way per
 * work-item and one add. */
#include "example.h"

#include <stdio.h>
#include <stdlib.h>

static const char *source =
    "__kernel void vector_add(__global const float *a, __global const float *b,\n"
    "                         __global float *c, uint n)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    if (i < n)\n"
    "        c[i] = a[i] + b[i];\n"
    "}\n";

struct state {
    struct example_cl *cl;
    cl_kernel kernel;
    cl_mem a, b, c;
    float *ha, *hb, *hc;
    size_t n, global, local;
};

static void run(void *arg)
{
    struct state *s = arg;
    size_t bytes = s->n * sizeof(float);
    example_check(clEnqueueWriteBuffer(s->cl->queue, s->a, CL_FALSE, 0, bytes, s->ha, 0, NULL, NULL), "write a");
    example_check(clEnqueueWriteBuffer(s->cl->queue, s->b, CL_FALSE, 0, bytes, s->hb, 0, NULL, NULL), "write b");
    example_check(clEnqueueNDRangeKernel(s->cl->queue, s->kernel, 1, NULL, &s->global, &s->local, 0, NULL, NULL),
                  "launch vector_add");
    example_check(clEnqueueReadBuffer(s->cl->queue, s->c, CL_TRUE, 0, bytes, s->hc, 0, NULL, NULL), "read c");
}

int main(int argc, char **argv)
{
    struct example_opts o;
    example_parse(argc, argv, "number of floats per vector (default 4194304)", &o);
    struct example_cl cl;
    example_cl_init(&o, &cl);

    struct state s = {.cl = &cl, .local = 256};
    s.n = (size_t)example_size(&o, 4194304, 65536);
    s.global = (s.n + s.local - 1) / s.local * s.local;
    s.ha = malloc(s.n * sizeof(float));
    s.hb = malloc(s.n * sizeof(float));
    s.hc = malloc(s.n * sizeof(float));
    float *want = malloc(s.n * sizeof(float));
    if (!s.ha || !s.hb || !s.hc || !want)
        example_check(CL_OUT_OF_HOST_MEMORY, "malloc");
    unsigned seed = 1;
    for (size_t i = 0; i < s.n; i++) {
        s.ha[i] = example_randf(&seed, -100.0f, 100.0f);
        s.hb[i] = example_randf(&seed, -100.0f, 100.0f);
        want[i] = s.ha[i] + s.hb[i];
    }

    cl_program program = example_build(&cl, source, "");
    s.kernel = example_kernel(program, "vector_add");
    size_t bytes = s.n * sizeof(float);
    s.a = example_buffer(&cl, CL_MEM_READ_ONLY, bytes, NULL);
    s.b = example_buffer(&cl, CL_MEM_READ_ONLY, bytes, NULL);
    s.c = example_buffer(&cl, CL_MEM_WRITE_ONLY, bytes, NULL);
    cl_uint n = (cl_uint)s.n;
    example_check(clSetKernelArg(s.kernel, 0, sizeof(cl_mem), &s.a), "arg 0");
    example_check(clSetKernelArg(s.kernel, 1, sizeof(cl_mem), &s.b), "arg 1");
    example_check(clSetKernelArg(s.kernel, 2, sizeof(cl_mem), &s.c), "arg 2");
    example_check(clSetKernelArg(s.kernel, 3, sizeof(cl_uint), &n), "arg 3");

    double best, median;
    example_time(&o, run, &s, &best, &median);
    /* One float add per element: the device must agree exactly with the host. */
    int passed = example_compare_floats(s.hc, want, s.n, 0.0f, 0.0f) < 0;

    char size[32];
    snprintf(size, sizeof(size), "%zu", s.n);
    int status = example_report("vector_add", size, passed, best, median);
    clReleaseMemObject(s.a);
    clReleaseMemObject(s.b);
    clReleaseMemObject(s.c);
    clReleaseKernel(s.kernel);
    clReleaseProgram(program);
    example_cl_release(&cl);
    free(s.ha);
    free(s.hb);
    free(s.hc);
    free(want);
    return status;
}
