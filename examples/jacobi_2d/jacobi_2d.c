/* jacobi_2d (PolyBench/GPU style): 20 Jacobi steps of the 5-point stencil on an n x n float
 * grid. The same kernel is launched again and again on the same two buffers, swapping
 * source and destination (ping-pong); each launch waits on the previous one's event and
 * the host reads nothing until the last step. Border cells keep their initial values. */
#include "example.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STEPS 20
#define LOCAL_X 16
#define LOCAL_Y 16

static const char *source =
    "__kernel void jacobi_step(__global const float *src, __global float *dst, int n)\n"
    "{\n"
    "    int j = get_global_id(0);\n"
    "    int i = get_global_id(1);\n"
    "    if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)\n"
    "        dst[i * n + j] = 0.2f * (src[i * n + j] + src[i * n + j - 1] + src[i * n + j + 1] +\n"
    "                                 src[(i + 1) * n + j] + src[(i - 1) * n + j]);\n"
    "}\n";

struct state {
    struct example_cl *cl;
    cl_kernel kernel;
    cl_mem grid[2];
    float *hin, *hout;
    size_t n, global[2], local[2];
};

static void run(void *arg)
{
    struct state *s = arg;
    size_t bytes = s->n * s->n * sizeof(float);
    cl_command_queue q = s->cl->queue;
    cl_event prev;
    example_check(clEnqueueWriteBuffer(q, s->grid[0], CL_FALSE, 0, bytes, s->hin, 0, NULL, NULL),
                  "write grid");
    /* The second buffer gets the border (and everything else) from the first. */
    example_check(clEnqueueCopyBuffer(q, s->grid[0], s->grid[1], 0, 0, bytes, 0, NULL, &prev),
                  "copy grid");
    for (int step = 0; step < STEPS; step++) {
        cl_event done;
        example_check(clSetKernelArg(s->kernel, 0, sizeof(cl_mem), &s->grid[step % 2]), "arg 0");
        example_check(clSetKernelArg(s->kernel, 1, sizeof(cl_mem), &s->grid[(step + 1) % 2]), "arg 1");
        example_check(clEnqueueNDRangeKernel(q, s->kernel, 2, NULL, s->global, s->local, 1, &prev, &done),
                      "launch jacobi_step");
        clReleaseEvent(prev);
        prev = done;
    }
    example_check(clEnqueueReadBuffer(q, s->grid[STEPS % 2], CL_TRUE, 0, bytes, s->hout, 1, &prev, NULL),
                  "read grid");
    clReleaseEvent(prev);
}

int main(int argc, char **argv)
{
    struct example_opts o;
    example_parse(argc, argv, "grid side n (default 2048; 20 steps)", &o);
    long n = example_size(&o, 2048, 256);
    if (n < 3 || n > 32768) {
        fprintf(stderr, "jacobi_2d: --size %ld out of range (3 to 32768)\nFAILED\n", n);
        return 2;
    }
    struct example_cl cl;
    example_cl_init(&o, &cl);

    struct state s = {.cl = &cl, .n = (size_t)n, .local = {LOCAL_X, LOCAL_Y}};
    s.global[0] = (s.n + LOCAL_X - 1) / LOCAL_X * LOCAL_X;
    s.global[1] = (s.n + LOCAL_Y - 1) / LOCAL_Y * LOCAL_Y;
    size_t elems = s.n * s.n, bytes = elems * sizeof(float);
    s.hin = malloc(bytes);
    s.hout = malloc(bytes);
    double *ref = malloc(elems * sizeof(double)), *next = malloc(elems * sizeof(double));
    float *want = malloc(bytes);
    if (!s.hin || !s.hout || !ref || !next || !want)
        example_check(CL_OUT_OF_HOST_MEMORY, "malloc");
    /* Positive inputs: every step averages positive values (see the tolerance below). */
    unsigned seed = 19;
    for (size_t i = 0; i < elems; i++)
        s.hin[i] = example_randf(&seed, 0.0f, 1.0f);

    cl_program program = example_build(&cl, source, "");
    s.kernel = example_kernel(program, "jacobi_step");
    s.grid[0] = example_buffer(&cl, CL_MEM_READ_WRITE, bytes, NULL);
    s.grid[1] = example_buffer(&cl, CL_MEM_READ_WRITE, bytes, NULL);
    cl_int ni = (cl_int)n;
    example_check(clSetKernelArg(s.kernel, 2, sizeof(cl_int), &ni), "arg 2");

    double best, median;
    example_time(&o, run, &s, &best, &median);

    for (size_t i = 0; i < elems; i++)
        ref[i] = next[i] = s.hin[i];
    for (int step = 0; step < STEPS; step++) {
        for (size_t i = 1; i + 1 < s.n; i++)
            for (size_t j = 1; j + 1 < s.n; j++)
                next[i * s.n + j] = 0.2 * (ref[i * s.n + j] + ref[i * s.n + j - 1] + ref[i * s.n + j + 1] +
                                           ref[(i + 1) * s.n + j] + ref[(i - 1) * s.n + j]);
        double *t = ref;
        ref = next;
        next = t;
    }
    for (size_t i = 0; i < elems; i++)
        want[i] = (float)ref[i];
    /* One step of positive values: four adds and a multiply, each within u = FLT_EPSILON/2
     * relative, and 0.2f differs from 0.2 by 0.25u; averaging does not grow the relative
     * error already present. So each step adds at most about 5.25u: 20 steps stay under
     * STEPS * 6u = 3 * STEPS * FLT_EPSILON. */
    float rel_tol = 3.0f * STEPS * FLT_EPSILON;
    int passed = example_compare_floats(s.hout, want, elems, 0.0f, rel_tol) < 0;

    char size[48];
    snprintf(size, sizeof(size), "%zux%zux%d", s.n, s.n, STEPS);
    int status = example_report("jacobi_2d", size, passed, best, median);
    clReleaseMemObject(s.grid[0]);
    clReleaseMemObject(s.grid[1]);
    clReleaseKernel(s.kernel);
    clReleaseProgram(program);
    example_cl_release(&cl);
    free(s.hin);
    free(s.hout);
    free(ref);
    free(next);
    free(want);
    return status;
}
