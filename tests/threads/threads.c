/* tests/threads/threads.c: app threads enqueueing at once. 8 threads each with its own
 * queue and 2 threads sharing one queue, for THREADS_TEST_SECONDS (default 3) seconds:
 * each round writes its buffers (non-blocking), launches a kernel twice (chained, on the
 * same buffers), reads the result back (blocking) and checks every element; every tenth
 * round also reads and checks a buffer that all threads share read-only. Prints
 * "ok ROUNDS" and exits 0 when every check passed. */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 8192
#define LOCAL 64
#define OWN_QUEUES 8
#define SHARED_QUEUE_THREADS 2
#define THREADS (OWN_QUEUES + SHARED_QUEUE_THREADS)

static const char *source =
    "__kernel void advance(__global uint *y, __global const uint *x,\n"
    "                   __global const uint *shared, uint a) {\n"
    "  size_t i = get_global_id(0);\n"
    "  y[i] = y[i] * a + x[i] + shared[i];\n"
    "}\n";

static cl_context ctx;
static cl_device_id dev;
static cl_program prog;
static cl_mem shared_buf;
static double seconds = 3;
static atomic_int failures;
static atomic_long rounds;

struct worker {
    int id;
    cl_command_queue q;
    pthread_t thread;
};

static void fail(int id, const char *what, cl_int err)
{
    fprintf(stderr, "thread %d: %s (%d)\n", id, what, err);
    atomic_fetch_add(&failures, 1);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static cl_uint shared_value(int i)
{
    return (cl_uint)(i * 7 + 1);
}

static void *work(void *arg)
{
    struct worker *w = arg;
    cl_int err;
    static __thread cl_uint x[N], y[N], out[N], shared[N];
    cl_int kerr, xerr, yerr;
    cl_kernel k = clCreateKernel(prog, "advance", &kerr);
    cl_mem bx = clCreateBuffer(ctx, CL_MEM_READ_ONLY, sizeof x, NULL, &xerr);
    cl_mem by = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof y, NULL, &yerr);
    if (!k || !bx || !by) {
        fail(w->id, "kernel or buffers", kerr ? kerr : xerr ? xerr : yerr);
        return NULL;
    }
    size_t global = N, local = LOCAL;
    double end = now() + seconds;
    for (cl_uint round = 0; now() < end && atomic_load(&failures) == 0; round++) {
        cl_uint a = 3 + (cl_uint)w->id + round;
        for (int i = 0; i < N; i++)
            x[i] = (cl_uint)(i + w->id * 1000) + round, y[i] = round ^ (cl_uint)i;
        err = clEnqueueWriteBuffer(w->q, bx, CL_FALSE, 0, sizeof x, x, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = clEnqueueWriteBuffer(w->q, by, CL_FALSE, 0, sizeof y, y, 0, NULL, NULL);
        /* Arguments are set under no lock of ours: the kernel object is this thread's. */
        if (err == CL_SUCCESS)
            err = clSetKernelArg(k, 0, sizeof by, &by);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(k, 1, sizeof bx, &bx);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(k, 2, sizeof shared_buf, &shared_buf);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(k, 3, sizeof a, &a);
        for (int r = 0; r < 2 && err == CL_SUCCESS; r++)
            err = clEnqueueNDRangeKernel(w->q, k, 1, NULL, &global, &local, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = clEnqueueReadBuffer(w->q, by, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
        if (err == CL_SUCCESS && round % 10 == 0)
            err = clEnqueueReadBuffer(w->q, shared_buf, CL_TRUE, 0, sizeof shared, shared, 0,
                                      NULL, NULL);
        if (err != CL_SUCCESS) {
            fail(w->id, "enqueue", err);
            break;
        }
        for (int i = 0; i < N; i++) {
            cl_uint s = shared_value(i);
            cl_uint want = (y[i] * a + x[i] + s) * a + x[i] + s;
            if (out[i] != want || (round % 10 == 0 && shared[i] != s)) {
                fprintf(stderr, "thread %d round %u: y[%d] = %u, want %u\n", w->id, round, i,
                        out[i], want);
                atomic_fetch_add(&failures, 1);
                break;
            }
        }
        atomic_fetch_add(&rounds, 1);
    }
    clReleaseMemObject(bx);
    clReleaseMemObject(by);
    clReleaseKernel(k);
    return NULL;
}

int main(void)
{
    const char *s = getenv("THREADS_TEST_SECONDS");
    if (s && atof(s) > 0)
        seconds = atof(s);
    cl_platform_id plat;
    cl_int err;
    if (clGetPlatformIDs(1, &plat, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) {
        fprintf(stderr, "no OpenCL device\n");
        return 1;
    }
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    prog = ctx ? clCreateProgramWithSource(ctx, 1, &source, NULL, &err) : NULL;
    if (!prog || clBuildProgram(prog, 1, &dev, "", NULL, NULL) != CL_SUCCESS) {
        fprintf(stderr, "program: %d\n", err);
        return 1;
    }
    static cl_uint shared[N];
    for (int i = 0; i < N; i++)
        shared[i] = shared_value(i);
    shared_buf = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof shared,
                                shared, &err);
    struct worker w[THREADS];
    cl_command_queue queues[OWN_QUEUES + 1];
    for (int i = 0; i <= OWN_QUEUES; i++)
        if (!(queues[i] = clCreateCommandQueue(ctx, dev, 0, &err))) {
            fprintf(stderr, "queue: %d\n", err);
            return 1;
        }
    for (int i = 0; i < THREADS; i++) {
        w[i] = (struct worker){.id = i, .q = queues[i < OWN_QUEUES ? i : OWN_QUEUES]};
        if (pthread_create(&w[i].thread, NULL, work, &w[i]) != 0) {
            fprintf(stderr, "pthread_create\n");
            return 1;
        }
    }
    for (int i = 0; i < THREADS; i++)
        pthread_join(w[i].thread, NULL);
    for (int i = 0; i <= OWN_QUEUES; i++)
        clReleaseCommandQueue(queues[i]);
    clReleaseMemObject(shared_buf);
    clReleaseProgram(prog);
    clReleaseContext(ctx);
    int bad = atomic_load(&failures);
    if (bad)
        printf("FAILED: %d\n", bad);
    else
        printf("ok %ld\n", atomic_load(&rounds));
    return bad != 0;
}
