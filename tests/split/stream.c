/* tests/split/stream.c: the app's reads of split launches' outputs, for the streamed
 * outputs test (libskmd/stream_out.h). Every value read back goes to the file named by
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
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N (1 << 16)
#define CHECK(x)                                                                            \
    do {                                                                                    \
        cl_int e_ = (x);                                                                    \
        if (e_ != CL_SUCCESS) {                                                             \
            fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, e_);                \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

/* Integer arithmetic: the result does not depend on the device's float rounding. */
static const char *source =
    "__kernel void mix_ints(__global const uint *in, __global uint *out, uint k) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = in[i] * k + (uint)i;\n"
    "}\n";

static cl_context ctx;
static cl_command_queue q;
static cl_kernel k;
static FILE *out;
static size_t global = N, local = 64;

static cl_mem make_buffer(void)
{
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(cl_uint), NULL, &err);
    CHECK(err);
    return m;
}

/* out = in * mul + i, asynchronously. */
static void launch(cl_mem in, cl_mem dst, cl_uint mul)
{
    CHECK(clSetKernelArg(k, 0, sizeof in, &in));
    CHECK(clSetKernelArg(k, 1, sizeof dst, &dst));
    CHECK(clSetKernelArg(k, 2, sizeof mul, &mul));
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
}

/* Reads `count` elements of mem from element `first` and appends them to the output. */
static void read_out(cl_mem mem, size_t first, size_t count)
{
    static cl_uint got[N];
    CHECK(clEnqueueReadBuffer(q, mem, CL_TRUE, first * sizeof(cl_uint),
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
    CHECK(clEnqueueWriteBuffer(q, c, CL_FALSE, 20000 * sizeof(cl_uint), sizeof mine, mine, 0,
                               NULL, NULL));
    read_out(c, 0, N);
    /* Non-blocking write, then a launch into the same buffer, then a read. */
    CHECK(clEnqueueWriteBuffer(q, c, CL_FALSE, 0, sizeof mine, mine, 0, NULL, NULL));
    launch(a, c, 17);
    read_out(c, 0, N);
    /* A map for reading. */
    launch(a, c, 19);
    cl_int err;
    cl_uint *mapped = clEnqueueMapBuffer(q, c, CL_TRUE, CL_MAP_READ, 0, N * sizeof(cl_uint), 0,
                                         NULL, NULL, &err);
    CHECK(err);
    if (fwrite(mapped, sizeof(cl_uint), N, out) != N)
        exit(1);
    CHECK(clEnqueueUnmapMemObject(q, c, mapped, 0, NULL, NULL));
    /* A read with an event, then a blocking one waiting for it, then a non-blocking one
     * waiting for it (that one is not served from the host copy). */
    launch(a, c, 23);
    static cl_uint got[N];
    cl_event ev;
    cl_command_type type;
    CHECK(clEnqueueReadBuffer(q, c, CL_FALSE, 0, sizeof got, got, 0, NULL, &ev));
    CHECK(clWaitForEvents(1, &ev));
    CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    if (type != CL_COMMAND_READ_BUFFER) {
        fprintf(stderr, "the read's event says command type %#x\n", type);
        exit(1);
    }
    if (fwrite(got, sizeof(cl_uint), N, out) != N)
        exit(1);
    launch(a, c, 37);
    CHECK(clEnqueueReadBuffer(q, c, CL_TRUE, 0, sizeof got / 2, got, 1, &ev, NULL));
    if (fwrite(got, sizeof(cl_uint), N / 2, out) != N / 2)
        exit(1);
    launch(a, c, 41);
    CHECK(clEnqueueReadBuffer(q, c, CL_FALSE, 4, sizeof got / 2, got, 1, &ev, NULL));
    CHECK(clFinish(q));
    CHECK(clReleaseEvent(ev));
    if (fwrite(got, sizeof(cl_uint), N / 2, out) != N / 2)
        exit(1);
    /* Released while its launch may still run, the app having read it before (so it is
     * streamed): nothing may leak or be used after it is freed. */
    for (int r = 0; r < 3; r++) {
        cl_mem e = make_buffer();
        launch(a, e, 29);
        read_out(e, 0, N);
        launch(a, e, 31 + (cl_uint)r);
        CHECK(clReleaseMemObject(e));
    }
    CHECK(clFinish(q));
    CHECK(clReleaseMemObject(c));
    CHECK(clReleaseMemObject(d));
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
    CHECK(clReleaseMemObject(b));
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
    cl_platform_id plat;
    cl_device_id dev;
    cl_int err;
    CHECK(clGetPlatformIDs(1, &plat, NULL));
    CHECK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK(err);
    q = clCreateCommandQueue(ctx, dev, 0, &err);
    CHECK(err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    CHECK(err);
    CHECK(clBuildProgram(prog, 1, &dev, "", NULL, NULL));
    k = clCreateKernel(prog, "mix_ints", &err);
    CHECK(err);
    static cl_uint x[N];
    for (int i = 0; i < N; i++)
        x[i] = (cl_uint)i * 7u + 1u;
    cl_mem a = make_buffer();
    CHECK(clEnqueueWriteBuffer(q, a, CL_TRUE, 0, sizeof x, x, 0, NULL, NULL));
    if (!strcmp(argv[1], "all"))
        all_cases(a);
    else
        iterate(a);
    CHECK(clReleaseMemObject(a));
    clReleaseKernel(k), clReleaseProgram(prog), clReleaseCommandQueue(q), clReleaseContext(ctx);
    if (fclose(out) != 0) {
        fprintf(stderr, "cannot write %s\n", argv[2]);
        return 1;
    }
    return 0;
}
