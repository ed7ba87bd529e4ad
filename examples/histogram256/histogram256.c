/* histogram256: counts the 256 byte values of a large byte array.
 * Kernel 1: each work-group counts its own contiguous chunk into a 256-bin histogram in
 * local memory (local atomics), then writes it as its partial histogram, indexed by its
 * group id. Kernel 2: 256 work-items, one per bin, add the partial histograms up; it is
 * launched with a NULL local size, leaving the group shape to the implementation. */
#include "example.h"

#include <stdio.h>
#include <stdlib.h>

#define BINS 256
#define GROUP_SIZE 256
#define WORDS_PER_ITEM 32 /* 4-byte words each work-item reads: 128 bytes */
#define CHUNK_BYTES (GROUP_SIZE * WORDS_PER_ITEM * 4)

static const char *source =
    "__kernel void histogram_partial(__global const uint *data, __global uint *partial)\n"
    "{\n"
    "    __local uint bins[BINS];\n"
    "    size_t lid = get_local_id(0), size = get_local_size(0);\n"
    "    for (size_t b = lid; b < BINS; b += size)\n"
    "        bins[b] = 0;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    /* neighbouring work-items read neighbouring words: coalesced on GPUs */\n"
    "    __global const uint *chunk = data + get_group_id(0) * size * WORDS_PER_ITEM;\n"
    "    for (uint w = 0; w < WORDS_PER_ITEM; w++) {\n"
    "        uint word = chunk[w * size + lid];\n"
    "        atomic_inc(&bins[word & 0xffu]);\n"
    "        atomic_inc(&bins[(word >> 8) & 0xffu]);\n"
    "        atomic_inc(&bins[(word >> 16) & 0xffu]);\n"
    "        atomic_inc(&bins[word >> 24]);\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (size_t b = lid; b < BINS; b += size)\n"
    "        partial[get_group_id(0) * BINS + b] = bins[b];\n"
    "}\n"
    "\n"
    "__kernel void histogram_sum(__global const uint *partial, __global uint *histogram,\n"
    "                            uint groups)\n"
    "{\n"
    "    size_t bin = get_global_id(0);\n"
    "    uint total = 0;\n"
    "    for (uint g = 0; g < groups; g++)\n"
    "        total += partial[g * BINS + bin];\n"
    "    histogram[bin] = total;\n"
    "}\n";

struct state {
    struct example_cl *cl;
    cl_kernel partial_kernel, sum_kernel;
    cl_mem data, partial, histogram;
    unsigned char *host_data;
    unsigned host_histogram[BINS];
    size_t n, groups;
};

static void run(void *arg)
{
    struct state *s = arg;
    size_t global = s->groups * GROUP_SIZE, local = GROUP_SIZE, bins = BINS;
    example_check(clEnqueueWriteBuffer(s->cl->queue, s->data, CL_FALSE, 0, s->n, s->host_data, 0,
                                       NULL, NULL),
                  "write data");
    example_check(clEnqueueNDRangeKernel(s->cl->queue, s->partial_kernel, 1, NULL, &global, &local,
                                         0, NULL, NULL),
                  "launch histogram_partial");
    example_check(clEnqueueNDRangeKernel(s->cl->queue, s->sum_kernel, 1, NULL, &bins, NULL, 0, NULL,
                                         NULL),
                  "launch histogram_sum");
    example_check(clEnqueueReadBuffer(s->cl->queue, s->histogram, CL_TRUE, 0, sizeof(s->host_histogram),
                                      s->host_histogram, 0, NULL, NULL),
                  "read histogram");
}

int main(int argc, char **argv)
{
    struct example_opts o;
    example_parse(argc, argv, "number of bytes, rounded up to a multiple of 32768 (default 16777216)",
                  &o);
    struct example_cl cl;
    example_cl_init(&o, &cl);

    struct state s = {.cl = &cl};
    s.groups = (size_t)(example_size(&o, 16777216, 1048576) + CHUNK_BYTES - 1) / CHUNK_BYTES;
    s.n = s.groups * CHUNK_BYTES;
    s.host_data = malloc(s.n);
    if (!s.host_data)
        example_check(CL_OUT_OF_HOST_MEMORY, "malloc");
    /* Skewed data (a sum of two bytes, folded): some bins are hot, as in images. */
    unsigned seed = 13, want[BINS] = {0};
    for (size_t i = 0; i < s.n; i++) {
        unsigned r = example_rand(&seed);
        s.host_data[i] = (unsigned char)((((r & 0xff) + ((r >> 8) & 0xff)) >> 1) ^ ((r >> 24) & 3));
        want[s.host_data[i]]++;
    }

    char options[96];
    snprintf(options, sizeof(options), "-DBINS=%d -DWORDS_PER_ITEM=%d", BINS, WORDS_PER_ITEM);
    cl_program program = example_build(&cl, source, options);
    s.partial_kernel = example_kernel(program, "histogram_partial");
    s.sum_kernel = example_kernel(program, "histogram_sum");
    example_require_group_size(&cl, s.partial_kernel, GROUP_SIZE);
    s.data = example_buffer(&cl, CL_MEM_READ_ONLY, s.n, NULL);
    s.partial = example_buffer(&cl, CL_MEM_READ_WRITE, s.groups * BINS * sizeof(cl_uint), NULL);
    s.histogram = example_buffer(&cl, CL_MEM_WRITE_ONLY, BINS * sizeof(cl_uint), NULL);
    cl_uint groups = (cl_uint)s.groups;
    example_check(clSetKernelArg(s.partial_kernel, 0, sizeof(cl_mem), &s.data), "partial arg 0");
    example_check(clSetKernelArg(s.partial_kernel, 1, sizeof(cl_mem), &s.partial), "partial arg 1");
    example_check(clSetKernelArg(s.sum_kernel, 0, sizeof(cl_mem), &s.partial), "sum arg 0");
    example_check(clSetKernelArg(s.sum_kernel, 1, sizeof(cl_mem), &s.histogram), "sum arg 1");
    example_check(clSetKernelArg(s.sum_kernel, 2, sizeof(cl_uint), &groups), "sum arg 2");

    double best, median;
    example_time(&o, run, &s, &best, &median);
    int passed = example_compare_uints(s.host_histogram, want, BINS) < 0;

    char size[32];
    snprintf(size, sizeof(size), "%zu", s.n);
    int status = example_report("histogram256", size, passed, best, median);
    clReleaseMemObject(s.data);
    clReleaseMemObject(s.partial);
    clReleaseMemObject(s.histogram);
    clReleaseKernel(s.partial_kernel);
    clReleaseKernel(s.sum_kernel);
    clReleaseProgram(program);
    example_cl_release(&cl);
    free(s.host_data);
    return status;
}
