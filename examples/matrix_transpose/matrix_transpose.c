/* matrix_transpose: out = transpose(in) for a square float matrix, through local tiles.
 * Each 32x8-work-item group moves one 32x32 tile: it reads rows of the tile (coalesced),
 * and writes the tile's columns as rows of the output, so a group's reads are one block of
 * rows and its writes another: discontiguous in the output. The output comes back by
 * mapping the buffer, as apps that post-process in place do. */
#include "example.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TILE 32
#define TILE_ROWS 8 /* work-items per tile column; each moves TILE / TILE_ROWS elements */

static const char *source =
    "__kernel void matrix_transpose(__global const float *in, __global float *out, uint n)\n"
    "{\n"
    "    __local float tile[TILE][TILE + 1]; /* +1: no bank conflicts on the column reads */\n"
    "    size_t tx = get_local_id(0), ty = get_local_id(1);\n"
    "    size_t bx = get_group_id(0) * TILE, by = get_group_id(1) * TILE;\n"
    "    for (size_t r = ty; r < TILE; r += TILE_ROWS)\n"
    "        tile[r][tx] = in[(by + r) * n + bx + tx];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (size_t r = ty; r < TILE; r += TILE_ROWS)\n"
    "        out[(bx + r) * n + by + tx] = tile[tx][r];\n"
    "}\n";

struct state {
    struct example_cl *cl;
    cl_kernel kernel;
    cl_mem in, out;
    float *host_in, *host_out;
    size_t n, global[2], local[2];
};

static void run(void *arg)
{
    struct state *s = arg;
    size_t bytes = s->n * s->n * sizeof(float);
    cl_int err;
    example_check(clEnqueueWriteBuffer(s->cl->queue, s->in, CL_FALSE, 0, bytes, s->host_in, 0,
                                       NULL, NULL),
                  "write in");
    example_check(clEnqueueNDRangeKernel(s->cl->queue, s->kernel, 2, NULL, s->global, s->local, 0,
                                         NULL, NULL),
                  "launch matrix_transpose");
    float *mapped = clEnqueueMapBuffer(s->cl->queue, s->out, CL_TRUE, CL_MAP_READ, 0, bytes, 0,
                                       NULL, NULL, &err);
    example_check(err, "map out");
    memcpy(s->host_out, mapped, bytes);
    example_check(clEnqueueUnmapMemObject(s->cl->queue, s->out, mapped, 0, NULL, NULL), "unmap out");
    example_check(clFinish(s->cl->queue), "clFinish");
}

int main(int argc, char **argv)
{
    struct example_opts o;
    example_parse(argc, argv, "matrix side, rounded up to a multiple of 32 (default 1024)", &o);
    struct example_cl cl;
    example_cl_init(&o, &cl);

    struct state s = {.cl = &cl, .local = {TILE, TILE_ROWS}};
    s.n = (size_t)(example_size(&o, 1024, 256) + TILE - 1) / TILE * TILE;
    s.global[0] = s.n;
    s.global[1] = s.n / TILE * TILE_ROWS;
    size_t elems = s.n * s.n;
    s.host_in = malloc(elems * sizeof(float));
    s.host_out = malloc(elems * sizeof(float));
    float *want = malloc(elems * sizeof(float));
    if (!s.host_in || !s.host_out || !want)
        example_check(CL_OUT_OF_HOST_MEMORY, "malloc");
    unsigned seed = 5;
    for (size_t i = 0; i < elems; i++)
        s.host_in[i] = example_randf(&seed, -1000.0f, 1000.0f);
    for (size_t i = 0; i < s.n; i++)
        for (size_t j = 0; j < s.n; j++)
            want[j * s.n + i] = s.host_in[i * s.n + j];

    char options[64];
    snprintf(options, sizeof(options), "-DTILE=%d -DTILE_ROWS=%d", TILE, TILE_ROWS);
    cl_program program = example_build(&cl, source, options);
    s.kernel = example_kernel(program, "matrix_transpose");
    example_require_group_size(&cl, s.kernel, TILE * TILE_ROWS);
    s.in = example_buffer(&cl, CL_MEM_READ_ONLY, elems * sizeof(float), NULL);
    s.out = example_buffer(&cl, CL_MEM_WRITE_ONLY, elems * sizeof(float), NULL);
    cl_uint n = (cl_uint)s.n;
    example_check(clSetKernelArg(s.kernel, 0, sizeof(cl_mem), &s.in), "arg 0");
    example_check(clSetKernelArg(s.kernel, 1, sizeof(cl_mem), &s.out), "arg 1");
    example_check(clSetKernelArg(s.kernel, 2, sizeof(cl_uint), &n), "arg 2");

    double best, median;
    example_time(&o, run, &s, &best, &median);
    /* A transpose only moves values: the result must be bit-exact. */
    int passed = example_compare_floats(s.host_out, want, elems, 0.0f, 0.0f) < 0;

    char size[32];
    snprintf(size, sizeof(size), "%zux%zu", s.n, s.n);
    int status = example_report("matrix_transpose", size, passed, best, median);
    clReleaseMemObject(s.in);
    clReleaseMemObject(s.out);
    clReleaseKernel(s.kernel);
    clReleaseProgram(program);
    example_cl_release(&cl);
    free(s.host_in);
    free(s.host_out);
    free(want);
    return status;
}
