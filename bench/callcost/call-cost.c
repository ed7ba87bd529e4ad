/* bench/callcost/call-cost.c: what one OpenCL call costs the app, end to end, for the calls
 * short programs are made of (a small launch, small and large blocking transfers, an
 * event-chained sequence, and two examples' patterns call by call: aes_encrypt_decrypt's
 * writes, launches and waiting reads, reduction's mapped CL_MEM_ALLOC_HOST_PTR input). An ordinary OpenCL app (links only -lOpenCL): run it natively with
 * --device P:D and under LD_PRELOAD=libskmd.so, and the difference is libskmd's own cost.
 *
 * Usage: call-cost [--device P:D] [--reps N]   (N: timed repetitions of each case, default 200)
 * Prints one line per case: `COST case=NAME us_median=X us_best=Y`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "example.h"

static const char *source =
    "__kernel void add_one(__global float *x) { size_t i = get_global_id(0); x[i] = x[i] + 1.0f; }\n";

#define SMALL_BYTES 4096
#define LARGE_BYTES (4u << 20)
#define BURST 16 /* launches enqueued back to back before one clFinish */

struct bench {
    struct example_cl cl;
    cl_kernel kernel;
    cl_mem small, large, large2, pinned;
    float *host, *host2;
};

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return 1e6 * (double)t.tv_sec + 1e-3 * (double)t.tv_nsec;
}

static void launch(struct bench *b, cl_mem buf, size_t items, cl_uint nwait, const cl_event *wait,
                   cl_event *done)
{
    size_t local = 64;
    example_check(clSetKernelArg(b->kernel, 0, sizeof buf, &buf), "clSetKernelArg");
    example_check(clEnqueueNDRangeKernel(b->cl.queue, b->kernel, 1, NULL, &items, &local, nwait,
                                         wait, done),
                  "clEnqueueNDRangeKernel");
}

static void small_launch(struct bench *b)
{
    launch(b, b->small, 64, 0, NULL, NULL);
    example_check(clFinish(b->cl.queue), "clFinish");
}

/* A launch of 16384 work-groups: enough for libskmd to plan a split (the small one is
 * below SKMD_MIN_SPLIT_WORKGROUPS and runs whole without planning). */
static void large_launch(struct bench *b)
{
    launch(b, b->large, LARGE_BYTES / sizeof(float), 0, NULL, NULL);
    example_check(clFinish(b->cl.queue), "clFinish");
}

static void launch_burst(struct bench *b)
{
    for (int i = 0; i < BURST; i++)
        launch(b, b->small, 64, 0, NULL, NULL);
    example_check(clFinish(b->cl.queue), "clFinish");
}

/* A blocking (or not) write or read of the first `bytes` of buf from or to b->host. */
static void transfer(struct bench *b, cl_mem buf, int write, size_t bytes, cl_bool blocking)
{
    cl_int err = write ? clEnqueueWriteBuffer(b->cl.queue, buf, blocking, 0, bytes, b->host, 0,
                                              NULL, NULL)
                       : clEnqueueReadBuffer(b->cl.queue, buf, blocking, 0, bytes, b->host, 0,
                                             NULL, NULL);
    example_check(err, write ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer");
}

static void write_small(struct bench *b) { transfer(b, b->small, 1, SMALL_BYTES, CL_TRUE); }
static void read_small(struct bench *b) { transfer(b, b->small, 0, SMALL_BYTES, CL_TRUE); }
static void write_large(struct bench *b) { transfer(b, b->large, 1, LARGE_BYTES, CL_TRUE); }
static void read_large(struct bench *b) { transfer(b, b->large, 0, LARGE_BYTES, CL_TRUE); }

/* What short examples do: write the input, run over it, read the result back. */
static void write_launch_read(struct bench *b)
{
    transfer(b, b->large, 1, LARGE_BYTES, CL_FALSE);
    launch(b, b->large, LARGE_BYTES / sizeof(float), 0, NULL, NULL);
    read_large(b);
}

/* The cases below time each of their STAGES calls too: names and times of the last step. */
#define STAGES 5
static const char *const *stage_names;
static double stage_us[STAGES];

/* What aes_encrypt_decrypt does: a write, two launches chained by an event, two reads that
 * wait on them (the second blocking). */
static const char *const aes_stages[STAGES] = {"write", "launch", "launch(wait)", "read(wait)",
                                               "read(wait,blocking)"};

static void write_two_launches_two_reads(struct bench *b)
{
    cl_event first, second;
    size_t items = LARGE_BYTES / sizeof(float);
    double t[STAGES + 1];
    stage_names = aes_stages;
    t[0] = now_us();
    transfer(b, b->large, 1, LARGE_BYTES, CL_FALSE);
    t[1] = now_us();
    launch(b, b->large, items, 0, NULL, &first);
    t[2] = now_us();
    launch(b, b->large2, items, 1, &first, &second);
    t[3] = now_us();
    example_check(clEnqueueReadBuffer(b->cl.queue, b->large2, CL_FALSE, 0, LARGE_BYTES, b->host2,
                                      1, &first, NULL),
                  "clEnqueueReadBuffer");
    t[4] = now_us();
    example_check(clEnqueueReadBuffer(b->cl.queue, b->large, CL_TRUE, 0, LARGE_BYTES, b->host, 1,
                                      &second, NULL),
                  "clEnqueueReadBuffer");
    t[5] = now_us();
    clReleaseEvent(first);
    clReleaseEvent(second);
    for (int i = 0; i < STAGES; i++)
        stage_us[i] = t[i + 1] - t[i];
}

/* What reduction does: map a CL_MEM_ALLOC_HOST_PTR buffer for writing, fill it, unmap,
 * launch over it, read a small result. */
static const char *const mapped_stages[STAGES] = {"map(write)", "fill", "unmap", "launch",
                                                  "read4KiB"};

static void map_fill_launch_read(struct bench *b)
{
    double t[STAGES + 1];
    cl_int err;
    stage_names = mapped_stages;
    t[0] = now_us();
    float *p = clEnqueueMapBuffer(b->cl.queue, b->pinned, CL_TRUE, CL_MAP_WRITE, 0, LARGE_BYTES,
                                  0, NULL, NULL, &err);
    example_check(err, "clEnqueueMapBuffer");
    t[1] = now_us();
    for (size_t i = 0; i < LARGE_BYTES / sizeof(float); i++)
        p[i] = (float)(i & 1023);
    t[2] = now_us();
    example_check(clEnqueueUnmapMemObject(b->cl.queue, b->pinned, p, 0, NULL, NULL), "unmap");
    t[3] = now_us();
    launch(b, b->pinned, LARGE_BYTES / sizeof(float), 0, NULL, NULL);
    t[4] = now_us();
    example_check(clEnqueueReadBuffer(b->cl.queue, b->pinned, CL_TRUE, 0, SMALL_BYTES, b->host2,
                                      0, NULL, NULL),
                  "clEnqueueReadBuffer");
    t[5] = now_us();
    for (int i = 0; i < STAGES; i++)
        stage_us[i] = t[i + 1] - t[i];
}

/* Four dependent small launches chained by events, as scan's levels are. */
static void event_chain(struct bench *b)
{
    cl_event prev = NULL;
    for (int i = 0; i < 4; i++) {
        cl_event next;
        launch(b, b->small, 64, prev ? 1 : 0, prev ? &prev : NULL, &next);
        if (prev)
            clReleaseEvent(prev);
        prev = next;
    }
    example_check(clWaitForEvents(1, &prev), "clWaitForEvents");
    clReleaseEvent(prev);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void print_cost(const char *name, double *t, int reps)
{
    qsort(t, (size_t)reps, sizeof *t, by_value);
    printf("COST case=%s us_median=%.1f us_best=%.1f\n", name, t[reps / 2], t[0]);
}

/* Times `step` reps times after 3 warm-ups (builds, first touch); with `stages`, also each of
 * the STAGES calls the step timed itself (stage_us). */
static void measure(struct bench *b, const char *name, void (*step)(struct bench *), int reps,
                    int per_step, int stages)
{
    double *t = malloc((size_t)reps * (1 + STAGES) * sizeof *t);
    if (!t)
        example_check(CL_OUT_OF_HOST_MEMORY, "malloc");
    for (int i = 0; i < 3; i++)
        step(b);
    for (int i = 0; i < reps; i++) {
        double t0 = now_us();
        step(b);
        t[i] = (now_us() - t0) / per_step;
        for (int s = 0; s < STAGES; s++)
            t[(1 + s) * reps + i] = stage_us[s];
    }
    print_cost(name, t, reps);
    for (int s = 0; stages && s < STAGES; s++) {
        char stage[96];
        snprintf(stage, sizeof stage, "%s:%s", name, stage_names[s]);
        print_cost(stage, t + (1 + s) * reps, reps);
    }
    free(t);
}

int main(int argc, char **argv)
{
    struct example_opts o;
    example_parse(argc, argv, "(no size: the cases are fixed)", &o);
    int reps = o.reps > 5 ? o.reps : 200; /* the harness defaults to 5: too few for a median */
    struct bench b = {0};
    example_cl_init(&o, &b.cl);
    cl_program p = example_build(&b.cl, source, "");
    b.kernel = example_kernel(p, "add_one");
    b.small = example_buffer(&b.cl, CL_MEM_READ_WRITE, SMALL_BYTES, NULL);
    b.large = example_buffer(&b.cl, CL_MEM_READ_WRITE, LARGE_BYTES, NULL);
    b.large2 = example_buffer(&b.cl, CL_MEM_READ_WRITE, LARGE_BYTES, NULL);
    b.pinned = example_buffer(&b.cl, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, LARGE_BYTES, NULL);
    b.host = calloc(1, LARGE_BYTES);
    b.host2 = calloc(1, LARGE_BYTES);
    if (!b.host || !b.host2)
        example_check(CL_OUT_OF_HOST_MEMORY, "calloc");

    measure(&b, "launch+finish", small_launch, reps, 1, 0);
    measure(&b, "launch(burst)", launch_burst, reps, BURST, 0);
    measure(&b, "write4KiB", write_small, reps, 1, 0);
    measure(&b, "read4KiB", read_small, reps, 1, 0);
    measure(&b, "chain4", event_chain, reps, 1, 0);
    int large_reps = reps / 10 > 5 ? reps / 10 : 5;
    memset(b.host, 0, SMALL_BYTES); /* the small reads left the small buffer's values there */
    measure(&b, "write4MiB", write_large, large_reps, 1, 0);
    measure(&b, "read4MiB", read_large, large_reps, 1, 0);
    measure(&b, "write+launch+read4MiB", write_launch_read, large_reps, 1, 0);
    /* ... (3 + large_reps) rounds so far; the large launches add 3 + reps to the device's
     * copy, which the next case's write replaces; it adds 1 per round too (its first
     * launch), and its blocking read brings it back. */
    measure(&b, "launch16384groups+finish", large_launch, reps, 1, 0);
    measure(&b, "aes-like4MiB", write_two_launches_two_reads, large_reps, 1, 1);
    measure(&b, "reduction-like4MiB", map_fill_launch_read, large_reps, 1, 1);

    /* The host copy was all zeros before the large cases; each write+launch+read round adds
     * one to every float (3 warm-ups + large_reps): a check that the calls ran. */
    int rounds = 2 * (3 + large_reps);
    int ok = 1;
    for (size_t i = 0; i < LARGE_BYTES / sizeof(float) && ok; i++)
        ok = b.host[i] == (float)rounds;
    clReleaseMemObject(b.small);
    clReleaseMemObject(b.large);
    clReleaseMemObject(b.large2);
    clReleaseMemObject(b.pinned);
    clReleaseKernel(b.kernel);
    clReleaseProgram(p);
    example_cl_release(&b.cl);
    free(b.host);
    free(b.host2);
    puts(ok ? "PASSED" : "FAILED");
    return ok ? 0 : 1;
}
