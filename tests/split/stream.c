/* tests/split/stream.c: the app's reads of split launches' outputs, for the streamed
 * outputs test (libskmd/launch/stream_out.h). Every value read back goes to the file named by
 * the last argument, to be compared byte for byte with a native run.
 *
 *   stream all FILE      reads right after a launch, reads of part of a buffer, an output
 *                        the next kernel reads, the app's write right after a launch (it
 *                        must win), a map for reading, reads with an event and wait
 *                        lists, and buffers released while their launch (and its
 *                        streams) may still run;
 *   stream iterate FILE  ping-pong launches: 8 with no read between them, then 8 each
 *                        followed by a read of what it wrote (the learning of which
 *                        buffers the app reads back; test-stream.sh counts the streams). */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include "../common/cl_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N (1 << 16)

/* Integer arithmetic: the result does not depend on the device's float rounding. */
static const char *source =
    "__kernel void mix_ints(__global const uint *in, __global uint *out, uint k) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = in[i] * k + (uint)i;\n"
    "}\n";

static struct cl_test cl;
static cl_kernel k;
static FILE *out;
static size_t global = N, local = 64;

static cl_mem make_buffer(void)
{
    return cl_test_buffer(&cl, CL_MEM_READ_WRITE, N * sizeof(cl_uint), NULL);
}

/* out = in * mul + i, asynchronously. */
static void launch(cl_mem in, cl_mem dst, cl_uint mul)
{
    CL_CHECK(clSetKernelArg(k, 0, sizeof in, &in));
    CL_CHECK(clSetKernelArg(k, 1, sizeof dst, &dst));
    CL_CHECK(clSetKernelArg(k, 2, sizeof mul, &mul));
    CL_CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
}

/* Reads `count` elements of mem from element `first` and appends them to the output. */
static void read_out(cl_mem mem, size_t first, size_t count)
{
    static cl_uint got[N];
    CL_CHECK(clEnqueueReadBuffer(cl.queue, mem, CL_TRUE, first * sizeof(cl_uint),
                                 count * sizeof(cl_uint), got, 0, NULL, NULL));
    if (fwrite(got, sizeof(cl_uint), count, out) != count)
        exit(1);
}

static void all_cases(cl_mem a)
{
    cl_mem c = make_buffer(), d = make_buffer();
    /* A read right after the launch, whole. */
    launch(a, c, 3);
    read_out(c, 0, N);
    /* Reads of parts: across the shares' boundary, inside one share, one element. */
    launch(a, c, 5);
    read_out(c, 1000, 30000);
    read_out(c, N - 77, 77);
    read_out(c, 12345, 1);
    /* An output the next kernel reads on the device, then both read back. */
    launch(a, c, 7);
    launch(c, d, 11);
    read_out(d, 0, N);
    read_out(c, 0, N);
    /* The app writes part of the output right after the launch: its bytes win. */
    static cl_uint mine[4096];
    for (int i = 0; i < 4096; i++)
        mine[i] = 0xabc00000u + (cl_uint)i;
    launch(a, c, 13);
    CL_CHECK(clEnqueueWriteBuffer(cl.queue, c, CL_FALSE, 20000 * sizeof(cl_uint), sizeof mine,
                                  mine, 0, NULL, NULL));
    read_out(c, 0, N);
    /* Non-blocking write, then a launch into the same buffer, then a read. */
    CL_CHECK(clEnqueueWriteBuffer(cl.queue, c, CL_FALSE, 0, sizeof mine, mine, 0, NULL, NULL));
    launch(a, c, 17);
    read_out(c, 0, N);
    /* A map for reading. */
    launch(a, c, 19);
    cl_int err;
    cl_uint *mapped = clEnqueueMapBuffer(cl.queue, c, CL_TRUE, CL_MAP_READ, 0,
                                         N * sizeof(cl_uint), 0, NULL, NULL, &err);
    CL_CHECK(err);
    if (fwrite(mapped, sizeof(cl_uint), N, out) != N)
        exit(1);
    CL_CHECK(clEnqueueUnmapMemObject(cl.queue, c, mapped, 0, NULL, NULL));
    /* A read with an event, then a blocking one waiting for it, then a non-blocking one
     * waiting for it (that one is not served from the host copy). */
    launch(a, c, 23);
    static cl_uint got[N];
    cl_event ev;
    cl_command_type type;
    CL_CHECK(clEnqueueReadBuffer(cl.queue, c, CL_FALSE, 0, sizeof got, got, 0, NULL, &ev));
    CL_CHECK(clWaitForEvents(1, &ev));
    CL_CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    if (type != CL_COMMAND_READ_BUFFER) {
        fprintf(stderr, "the read's event says command type %#x\n", type);
        exit(1);
    }
    if (fwrite(got, sizeof(cl_uint), N, out) != N)
        exit(1);
    launch(a, c, 37);
    CL_CHECK(clEnqueueReadBuffer(cl.queue, c, CL_TRUE, 0, sizeof got / 2, got, 1, &ev, NULL));
    if (fwrite(got, sizeof(cl_uint), N / 2, out) != N / 2)
        exit(1);
    launch(a, c, 41);
    CL_CHECK(clEnqueueReadBuffer(cl.queue, c, CL_FALSE, 4, sizeof got / 2, got, 1, &ev, NULL));
    CL_CHECK(clFinish(cl.queue));
    CL_CHECK(clReleaseEvent(ev));
    if (fwrite(got, sizeof(cl_uint), N / 2, out) != N / 2)
        exit(1);
    /* Released while its launch may still run, the app having read it before (so it is
     * streamed): nothing may leak or be used after it is freed. */
    for (int r = 0; r < 3; r++) {
        cl_mem e = make_buffer();
        launch(a, e, 29);
        read_out(e, 0, N);
        launch(a, e, 31 + (cl_uint)r);
        CL_CHECK(clReleaseMemObject(e));
    }
    CL_CHECK(clFinish(cl.queue));
    CL_CHECK(clReleaseMemObject(c));
    CL_CHECK(clReleaseMemObject(d));
}

static void iterate(cl_mem a)
{
    cl_mem b = make_buffer();
    cl_mem pair[2] = {a, b};
    for (int l = 0; l < 8; l++) /* no read in between: an iterative kernel's data */
        launch(pair[l % 2], pair[(l + 1) % 2], 3);
    read_out(a, 0, N);
    for (int l = 0; l < 8; l++) { /* each output read back */
        launch(pair[l % 2], pair[(l + 1) % 2], 5);
        read_out(pair[(l + 1) % 2], 0, N);
    }
    CL_CHECK(clReleaseMemObject(b));
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[1], "all") && strcmp(argv[1], "iterate"))) {
        fprintf(stderr, "usage: %s all|iterate OUTPUT_FILE\n", argv[0]);
        return 2;
    }
    if (!(out = fopen(argv[2], "wb"))) {
        fprintf(stderr, "cannot write %s\n", argv[2]);
        return 1;
    }
    cl_test_open(&cl, 0, source, NULL);
    k = cl_test_kernel(&cl, "mix_ints");
    static cl_uint x[N];
    for (int i = 0; i < N; i++)
        x[i] = (cl_uint)i * 7u + 1u;
    cl_mem a = make_buffer();
    CL_CHECK(clEnqueueWriteBuffer(cl.queue, a, CL_TRUE, 0, sizeof x, x, 0, NULL, NULL));
    if (!strcmp(argv[1], "all"))
        all_cases(a);
    else
        iterate(a);
    CL_CHECK(clReleaseMemObject(a));
    clReleaseKernel(k), cl_test_close(&cl);
    if (fclose(out) != 0) {
        fprintf(stderr, "cannot write %s\n", argv[2]);
        return 1;
    }
    return 0;
}
