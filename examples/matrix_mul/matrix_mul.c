/* matrix_mul: C = A * B for square float matrices, tiled in local memory.
 * A 2-D launch of 16x16-work-item groups; each work-item computes four elements of C in one
 * column (rows r, r+16, r+32, r+48), so a group owns a 64-row by 16-column block of C and
 * walks 16-wide tiles of A and B through local memory, with barriers between tiles. */
#include "example.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define TILE 16
#define ROWS_PER_ITEM 4
#define BLOCK_ROWS (TILE * ROWS_PER_ITEM) /* rows of C per group */

static const char *source =
    "__kernel void matrix_mul(__global const float *a, __global const float *b,\n"
    "                         __global float *c, uint n)\n"
    "{\n"
    "    __local float a_tile[TILE * ROWS_PER_ITEM][TILE];\n"
    "    __local float b_tile[TILE][TILE];\n"
    "    size_t tx = get_local_id(0), ty = get_local_id(1);\n"
    "    size_t col = get_global_id(0);\n"
    "    size_t row0 = get_group_id(1) * TILE * ROWS_PER_ITEM + ty;\n"
    "    float sum[ROWS_PER_ITEM] = {0.0f};\n"
    "    for (uint k0 = 0; k0 < n; k0 += TILE) {\n"
    "        for (int r = 0; r < ROWS_PER_ITEM; r++)\n"
    "            a_tile[ty + r * TILE][tx] = a[(row0 + r * TILE) * n + k0 + tx];\n"
    "        b_tile[ty][tx] = b[(k0 + ty) * n + col];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        for (int k = 0; k < TILE; k++) {\n"
    "            float bk = b_tile[k][tx];\n"
    "            for (int r = 0; r < ROWS_PER_ITEM; r++)\n"
    "                sum[r] += a_tile[ty + r * TILE][k] * bk;\n"
    "        }\n"
    "        barrier(CLK_LOCAL_MEM_FENCE); /* the tiles are reloaded next round */\n"
    "    }\n"
    "    for (int r = 0; r < ROWS_PER_ITEM; r++)\n"
    "        c[(row0 + r * TILE) * n + col] = sum[r];\n"
    "}\n";

struct state {
    struct example_cl *cl;
    cl_kernel kernel;
    cl_mem a, b, c;
    float *ha, *hb, *hc;
    size_t n, global[2], local[2];
};

static void run(void *arg)
{
    struct state *s = arg;
    size_t bytes = s->n * s->n * sizeof(float);
    example_check(clEnqueueWriteBuffer(s->cl->queue, s->a, CL_FALSE, 0, bytes, s->ha, 0, NULL, NULL),
                  "write a");
    example_check(clEnqueueWriteBuffer(s->cl->queue, s->b, CL_FALSE, 0, bytes, s->hb, 0, NULL, NULL),
                  "write b");
    example_check(clEnqueueNDRangeKernel(s->cl->queue, s->kernel, 2, NULL, s->global, s->local, 0,
                                         NULL, NULL),
                  "launch matrix_mul");
    example_check(clEnqueueReadBuffer(s->cl->queue, s->c, CL_TRUE, 0, bytes, s->hc, 0, NULL, NULL),
                  "read c");
}

/* Checks every element against a double-precision product. A float dot product of length n
 * computed in any order is within n * FLT_EPSILON * sum|a_ik * b_kj| of the exact value (the
 * standard backward-error bound), so that is the tolerance, element by element. */
static int verify(const struct state *s)
{
    size_t n = s->n;
    double *exact = malloc(n * sizeof(double)), *magnitude = malloc(n * sizeof(double));
    if (!exact || !magnitude)
        example_check(CL_OUT_OF_HOST_MEMORY, "malloc");
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++) {
        for (size_t j = 0; j < n; j++)
            exact[j] = magnitude[j] = 0.0;
        for (size_t k = 0; k < n; k++) { /* row by row: walks A and B in memory order */
            double aik = s->ha[i * n + k];
            for (size_t j = 0; j < n; j++) {
                double p = aik * s->hb[k * n + j];
                exact[j] += p;
                magnitude[j] += fabs(p);
            }
        }
        for (size_t j = 0; j < n && ok; j++) {
            double got = s->hc[i * n + j];
            if (fabs(got - exact[j]) > n * FLT_EPSILON * magnitude[j]) {
                fprintf(stderr, "mismatch at (%zu, %zu): got %.9g want %.9g\n", i, j, got,
                        exact[j]);
                ok = 0;
            }
        }
    }
    free(exact);
    free(magnitude);
    return ok;
}

int main(int argc, char **argv)
{
    struct example_opts o;
    example_parse(argc, argv, "matrix side, rounded up to a multiple of 64 (default 1024)", &o);
    struct example_cl cl;
    example_cl_init(&o, &cl);

    struct state s = {.cl = &cl, .local = {TILE, TILE}};
    long side = example_size(&o, 1024, 128);
    s.n = (size_t)(side + BLOCK_ROWS - 1) / BLOCK_ROWS * BLOCK_ROWS;
    s.global[0] = s.n;
    s.global[1] = s.n / ROWS_PER_ITEM;
    size_t elems = s.n * s.n;
    s.ha = malloc(elems * sizeof(float));
    s.hb = malloc(elems * sizeof(float));
    s.hc = malloc(elems * sizeof(float));
    if (!s.ha || !s.hb || !s.hc)
        example_check(CL_OUT_OF_HOST_MEMORY, "malloc");
    unsigned seed = 3;
    for (size_t i = 0; i < elems; i++) {
        s.ha[i] = example_randf(&seed, -1.0f, 1.0f);
        s.hb[i] = example_randf(&seed, -1.0f, 1.0f);
    }

    char options[64];
    snprintf(options, sizeof(options), "-DTILE=%d -DROWS_PER_ITEM=%d", TILE, ROWS_PER_ITEM);
    cl_program program = example_build(&cl, source, options);
    s.kernel = example_kernel(program, "matrix_mul");
    example_require_group_size(&cl, s.kernel, TILE * TILE);
    s.a = example_buffer(&cl, CL_MEM_READ_ONLY, elems * sizeof(float), NULL);
    s.b = example_buffer(&cl, CL_MEM_READ_ONLY, elems * sizeof(float), NULL);
    s.c = example_buffer(&cl, CL_MEM_WRITE_ONLY, elems * sizeof(float), NULL);
    cl_uint n = (cl_uint)s.n;
    example_check(clSetKernelArg(s.kernel, 0, sizeof(cl_mem), &s.a), "arg 0");
    example_check(clSetKernelArg(s.kernel, 1, sizeof(cl_mem), &s.b), "arg 1");
    example_check(clSetKernelArg(s.kernel, 2, sizeof(cl_mem), &s.c), "arg 2");
    example_check(clSetKernelArg(s.kernel, 3, sizeof(cl_uint), &n), "arg 3");

    double best, median;
    example_time(&o, run, &s, &best, &median);
    int passed = verify(&s);

    char size[32];
    snprintf(size, sizeof(size), "%zux%zu", s.n, s.n);
    int status = example_report("matrix_mul", size, passed, best, median);
    clReleaseMemObject(s.a);
    clReleaseMemObject(s.b);
    clReleaseMemObject(s.c);
    clReleaseKernel(s.kernel);
    clReleaseProgram(program);
    example_cl_release(&cl);
    free(s.ha);
    free(s.hb);
    free(s.hc);
    return status;
}
