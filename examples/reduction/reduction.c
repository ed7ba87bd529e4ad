/* reduction: the sum of a large int array. Each work-group adds up its own contiguous
 * chunk (each work-item first sums a strided run, then a tree in local memory) and writes
 * one partial sum at partial[get_group_id(0)]; the host adds the partial sums. The input
 * goes in through a CL_MEM_ALLOC_HOST_PTR buffer that the app maps and fills (pinned
 * staging on most GPU drivers). */
#include "example.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GROUP_SIZE 256
#define INTS_PER_ITEM 8
#define CHUNK (GROUP_SIZE * INTS_PER_ITEM) /* ints per group */

static const char *source =
    "__kernel void reduction(__global const int *data, __global int *partial,\n"
    "                        __local int *scratch)\n"
    "{\n"
    "    size_t lid = get_local_id(0), size = get_local_size(0);\n"
    "    __global const int *chunk = data + get_group_id(0) * size * INTS_PER_ITEM;\n"
    "    int sum = 0;\n"
    "    for (int i = 0; i < INTS_PER_ITEM; i++)\n"
    "        sum += chunk[i * size + lid];\n"
    "    scratch[lid] = sum;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (size_t stride = size / 2; stride > 0; stride /= 2) {\n"
    "        if (lid < stride)\n"
    "            scratch[lid] += scratch[lid + stride];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (lid == 0)\n"
    "        partial[get_group_id(0)] = scratch[0];\n"
    "}\n";

struct state {
    struct example_cl *cl;
    cl_kernel kernel;
    cl_mem data, partial;
    int *host_data, *host_partial;
    size_t n, groups;
    long long total;
};

static void run(void *arg)
{
    struct state *s = arg;
    size_t global = s->groups * GROUP_SIZE, local = GROUP_SIZE, bytes = s->n * sizeof(int);
    cl_int err;
    int *mapped = clEnqueueMapBuffer(s->cl->queue, s->data, CL_TRUE, CL_MAP_WRITE, 0, bytes, 0,
                                     NULL, NULL, &err);
    example_check(err, "map data");
    memcpy(mapped, s->host_data, bytes);
    example_check(clEnqueueUnmapMemObject(s->cl->queue, s->data, mapped, 0, NULL, NULL),
                  "unmap data");
    example_check(clEnqueueNDRangeKernel(s->cl->queue, s->kernel, 1, NULL, &global, &local, 0,
                                         NULL, NULL),
                  "launch reduction");
    example_check(clEnqueueReadBuffer(s->cl->queue, s->partial, CL_TRUE, 0,
                                      s->groups * sizeof(int), s->host_partial, 0, NULL, NULL),
                  "read partial sums");
    s->total = 0;
    for (size_t g = 0; g < s->groups; g++)
        s->total += s->host_partial[g];
}

int main(int argc, char **argv)
{
    struct example_opts o;
    example_parse(argc, argv, "number of ints, rounded up to a multiple of 2048 (default 4194304)",
                  &o);
    struct example_cl cl;
    example_cl_init(&o, &cl);

    struct state s = {.cl = &cl};
    s.groups = (size_t)(example_size(&o, 4194304, 262144) + CHUNK - 1) / CHUNK;
    s.n = s.groups * CHUNK;
    s.host_data = malloc(s.n * sizeof(int));
    s.host_partial = malloc(s.groups * sizeof(int));
    unsigned *want = malloc(s.groups * sizeof(unsigned));
    if (!s.host_data || !s.host_partial || !want)
        example_check(CL_OUT_OF_HOST_MEMORY, "malloc");
    /* Values in [-50000, 50000]: a group's sum (2048 of them) stays far inside int. */
    unsigned seed = 17;
    long long want_total = 0;
    for (size_t g = 0; g < s.groups; g++) {
        int sum = 0;
        for (size_t i = 0; i < CHUNK; i++) {
            int v = (int)(example_rand(&seed) % 100001) - 50000;
            s.host_data[g * CHUNK + i] = v;
            sum += v;
        }
        want[g] = (unsigned)sum;
        want_total += sum;
    }

    char options[64];
    snprintf(options, sizeof(options), "-DINTS_PER_ITEM=%d", INTS_PER_ITEM);
    cl_program program = example_build(&cl, source, options);
    s.kernel = example_kernel(program, "reduction");
    example_require_group_size(&cl, s.kernel, GROUP_SIZE);
    s.data = example_buffer(&cl, CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR, s.n * sizeof(int), NULL);
    s.partial = example_buffer(&cl, CL_MEM_WRITE_ONLY, s.groups * sizeof(int), NULL);
    example_check(clSetKernelArg(s.kernel, 0, sizeof(cl_mem), &s.data), "arg 0");
    example_check(clSetKernelArg(s.kernel, 1, sizeof(cl_mem), &s.partial), "arg 1");
    example_check(clSetKernelArg(s.kernel, 2, GROUP_SIZE * sizeof(int), NULL), "arg 2 (local)");

    double best, median;
    example_time(&o, run, &s, &best, &median);
    /* Integer sums: every partial sum and the total must be exact. */
    int passed = example_compare_uints((const unsigned *)s.host_partial, want, s.groups) < 0;
    if (s.total != want_total) {
        fprintf(stderr, "total: got %lld want %lld\n", s.total, want_total);
        passed = 0;
    }

    char size[32];
    snprintf(size, sizeof(size), "%zu", s.n);
    int status = example_report("reduction", size, passed, best, median);
    clReleaseMemObject(s.data);
    clReleaseMemObject(s.partial);
    clReleaseKernel(s.kernel);
    clReleaseProgram(program);
    example_cl_release(&cl);
    free(s.host_data);
    free(s.host_partial);
    free(want);
    return status;
}
