/* scan_large_arrays: inclusive prefix sum of n floats, done the way large scans are done on
 * GPUs. Each work-group of 256 scans its block in local memory and writes the block's total;
 * the totals are scanned the same way (recursively, until one group holds them all); then
 * each block adds the scanned total of the blocks before it. The launches are chained by
 * events and wait lists; the local scratch is a kernel argument of size only. */
#include "example.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>

#define BLOCK 256
#define MAX_LEVELS 8

static const char *source =
    "/* Hillis-Steele scan of one block in local memory, ping-ponging between two halves. */\n"
    "__kernel void block_scan(__global const float *in, __global float *out,\n"
    "                         __global float *block_sums, uint n, __local float *tmp)\n"
    "{\n"
    "    size_t gid = get_global_id(0);\n"
    "    uint lid = get_local_id(0), size = get_local_size(0);\n"
    "    __local float *src = tmp, *dst = tmp + size;\n"
    "    src[lid] = gid < n ? in[gid] : 0.0f;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (uint offset = 1; offset < size; offset *= 2) {\n"
    "        dst[lid] = lid >= offset ? src[lid] + src[lid - offset] : src[lid];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        __local float *t = src; src = dst; dst = t;\n"
    "    }\n"
    "    if (gid < n)\n"
    "        out[gid] = src[lid];\n"
    "    if (lid == size - 1)\n"
    "        block_sums[get_group_id(0)] = src[lid];\n"
    "}\n"
    "\n"
    "/* Block g adds the scanned total of blocks 0..g-1. */\n"
    "__kernel void add_block_offsets(__global float *out, __global const float *scanned_sums, uint n)\n"
    "{\n"
    "    size_t gid = get_global_id(0), g = get_group_id(0);\n"
    "    if (g > 0 && gid < n)\n"
    "        out[gid] += scanned_sums[g - 1];\n"
    "}\n";

/* Level l scans in[l] (len[l] floats) into out[l]; its block totals go to in[l + 1]. */
struct state {
    struct example_cl *cl;
    cl_kernel scan, add;
    int levels;
    cl_mem in[MAX_LEVELS + 1], out[MAX_LEVELS];
    size_t len[MAX_LEVELS + 1];
    float *hin, *hout;
};

static size_t groups_of(size_t len) { return (len + BLOCK - 1) / BLOCK; }

static void run(void *arg)
{
    struct state *s = arg;
    cl_command_queue q = s->cl->queue;
    size_t local = BLOCK;
    cl_event prev;
    example_check(clEnqueueWriteBuffer(q, s->in[0], CL_FALSE, 0, s->len[0] * sizeof(float), s->hin, 0,
                                       NULL, &prev),
                  "write input");
    /* Down: scan every level's blocks. Arguments are set just before each enqueue, which
     * captures them. */
    for (int l = 0; l < s->levels; l++) {
        cl_uint n = (cl_uint)s->len[l];
        size_t global = groups_of(s->len[l]) * BLOCK;
        cl_event done;
        example_check(clSetKernelArg(s->scan, 0, sizeof(cl_mem), &s->in[l]), "scan arg 0");
        example_check(clSetKernelArg(s->scan, 1, sizeof(cl_mem), &s->out[l]), "scan arg 1");
        example_check(clSetKernelArg(s->scan, 2, sizeof(cl_mem), &s->in[l + 1]), "scan arg 2");
        example_check(clSetKernelArg(s->scan, 3, sizeof(cl_uint), &n), "scan arg 3");
        example_check(clEnqueueNDRangeKernel(q, s->scan, 1, NULL, &global, &local, 1, &prev, &done),
                      "launch block_scan");
        clReleaseEvent(prev);
        prev = done;
    }
    /* Up: each level below the top adds the scanned totals of the level above it. */
    for (int l = s->levels - 2; l >= 0; l--) {
        cl_uint n = (cl_uint)s->len[l];
        size_t global = groups_of(s->len[l]) * BLOCK;
        cl_event done;
        example_check(clSetKernelArg(s->add, 0, sizeof(cl_mem), &s->out[l]), "add arg 0");
        example_check(clSetKernelArg(s->add, 1, sizeof(cl_mem), &s->out[l + 1]), "add arg 1");
        example_check(clSetKernelArg(s->add, 2, sizeof(cl_uint), &n), "add arg 2");
        example_check(clEnqueueNDRangeKernel(q, s->add, 1, NULL, &global, &local, 1, &prev, &done),
                      "launch add_block_offsets");
        clReleaseEvent(prev);
        prev = done;
    }
    example_check(clEnqueueReadBuffer(q, s->out[0], CL_TRUE, 0, s->len[0] * sizeof(float), s->hout, 1,
                                      &prev, NULL),
                  "read output");
    clReleaseEvent(prev);
}

int main(int argc, char **argv)
{
    struct example_opts o;
    example_parse(argc, argv, "number of floats (default 1048576)", &o);
    long n = example_size(&o, 1048576, 65536);
    if (n < 1 || n > (1L << 30)) {
        fprintf(stderr, "scan_large_arrays: --size %ld out of range (1 to 2^30)\nFAILED\n", n);
        return 2;
    }
    struct example_cl cl;
    example_cl_init(&o, &cl);

    struct state s = {.cl = &cl};
    s.len[0] = (size_t)n;
    while (1) {
        s.levels++;
        s.len[s.levels] = groups_of(s.len[s.levels - 1]);
        if (s.len[s.levels] == 1)
            break;
    }
    s.hin = malloc(s.len[0] * sizeof(float));
    s.hout = malloc(s.len[0] * sizeof(float));
    float *want = malloc(s.len[0] * sizeof(float));
    if (!s.hin || !s.hout || !want)
        example_check(CL_OUT_OF_HOST_MEMORY, "malloc");
    /* Positive inputs: the prefix sums grow and a relative bound holds (below). */
    unsigned seed = 23;
    double sum = 0.0;
    for (size_t i = 0; i < s.len[0]; i++) {
        s.hin[i] = example_randf(&seed, 0.0f, 1.0f);
        sum += s.hin[i];
        want[i] = (float)sum;
    }

    cl_program program = example_build(&cl, source, "");
    s.scan = example_kernel(program, "block_scan");
    s.add = example_kernel(program, "add_block_offsets");
    example_require_group_size(&cl, s.scan, BLOCK);
    example_require_group_size(&cl, s.add, BLOCK);
    example_check(clSetKernelArg(s.scan, 4, 2 * BLOCK * sizeof(float), NULL), "scan arg 4 (local)");
    for (int l = 0; l <= s.levels; l++)
        s.in[l] = example_buffer(&cl, CL_MEM_READ_WRITE, s.len[l] * sizeof(float), NULL);
    for (int l = 0; l < s.levels; l++)
        s.out[l] = example_buffer(&cl, CL_MEM_READ_WRITE, s.len[l] * sizeof(float), NULL);

    double best, median;
    example_time(&o, run, &s, &best, &median);

    /* Each output is a sum of positive floats along a path of at most 8 adds (log2 256) per
     * level in block_scan plus one add per level in add_block_offsets: at most 9 adds per
     * level, each within u = FLT_EPSILON/2 relative. 9*levels*FLT_EPSILON is twice that. */
    float rel_tol = 9.0f * (float)s.levels * FLT_EPSILON;
    int passed = example_compare_floats(s.hout, want, s.len[0], 0.0f, rel_tol) < 0;

    char size[32];
    snprintf(size, sizeof(size), "%zu", s.len[0]);
    int status = example_report("scan_large_arrays", size, passed, best, median);
    for (int l = 0; l <= s.levels; l++)
        clReleaseMemObject(s.in[l]);
    for (int l = 0; l < s.levels; l++)
        clReleaseMemObject(s.out[l]);
    clReleaseKernel(s.scan);
    clReleaseKernel(s.add);
    clReleaseProgram(program);
    example_cl_release(&cl);
    free(s.hin);
    free(s.hout);
    free(want);
    return status;
}
