/* tests/transparency/transparency.c: what apps that drive the device through events rely
 * on, run natively and under libskmd (tests/transparency/run.sh). Prints "ok" and exits 0
 * when every check held; otherwise names each failed check ("FAIL section: what") and
 * exits 1. A watchdog (alarm) turns a hang into a failure that names its section.
 * - gates: launches behind a user event the app sets only afterwards, and chains of them
 *   (launch, launch, read; across queues), in-order and out-of-order: every enqueue
 *   returns before the gate is set, nothing completes before it, the results are right;
 * - callbacks: one set on a complete event (the driver may run it at once, on this
 *   thread) and one on a pending event each enqueue a launch and a read and query events;
 * - threads: 8 app threads, each with its own queue, kernels and buffers (one launch
 *   per round with a write footprint that needs the merge);
 * - profiling: every kind of command's event on a profiling queue (launch, read after a
 *   launch, blocking and not, write, copy, fill, map, unmap, marker, barrier, a gated
 *   launch) answers QUEUED, SUBMIT, START and END with ordered times;
 * - corners: OpenCL 3.0 cases (an empty launch behind a gate, an image's empty property
 *   list, a program's release callback);
 * - binaries: a program made again from the binary of one built with options (as apps
 *   and bindings that cache binaries do) and built without them runs kernel `addb` as
 *   the first build did (run.sh checks that libskmd split its launches);
 * - links: kernel `addl` of a program compiled with options (clCompileProgram) and linked
 *   alone (clLinkProgram), as apps that compile and link do (run.sh checks the split). */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include "../common/cl_test.h"
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define N 4096
#define LOCAL 64
#define THREADS 8
#define WATCHDOG_S 60

static const char *source =
    "__kernel void addk(__global uint *y, uint k) {\n"
    "  size_t i = get_global_id(0);\n"
    "  y[i] = y[i] + k;\n"
    "}\n"
    "__kernel void spread(__global uint *y, __global const uint *x, uint k) {\n"
    "  size_t i = get_global_id(0), n = get_global_size(0);\n"
    "  y[(i * 7) % n] = x[(i * 7) % n] + k;\n"
    "}\n";

static struct cl_test cl;
static const char *volatile section = "setup";
static atomic_int failures;

static void on_alarm(int sig)
{
    (void)sig;
    static const char pre[] = "FAIL watchdog: hung in section ";
    if (write(1, pre, sizeof pre - 1) < 0 || write(1, section, strlen(section)) < 0 ||
        write(1, "\n", 1) < 0)
        _exit(2);
    _exit(1);
}

static void enter(const char *name)
{
    section = name;
    alarm(WATCHDOG_S);
}

#define EXPECT(c)                                                                          \
    do {                                                                                   \
        if (!(c)) {                                                                        \
            printf("FAIL %s: %s (line %d)\n", section, #c, __LINE__);                      \
            atomic_fetch_add(&failures, 1);                                                \
        }                                                                                  \
    } while (0)

static cl_int status_of(cl_event ev)
{
    cl_int s = 1;
    CL_CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL));
    return s;
}

static cl_int launch(cl_command_queue q, cl_kernel k, cl_mem b, cl_uint add, cl_uint nwait,
                     const cl_event *wait, cl_event *ev)
{
    size_t global = N, local = LOCAL;
    cl_int err = clSetKernelArg(k, 0, sizeof b, &b);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 1, sizeof add, &add);
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, nwait, wait, ev);
    return err;
}

static cl_mem ramp(cl_command_queue q)
{
    static cl_uint init[N];
    for (cl_uint i = 0; i < N; i++)
        init[i] = i;
    cl_mem b = cl_test_buffer(&cl, CL_MEM_READ_WRITE, sizeof init, NULL);
    CL_CHECK(clEnqueueWriteBuffer(q, b, CL_TRUE, 0, sizeof init, init, 0, NULL, NULL));
    return b;
}

/* Number of i with out[i] != i + add. */
static int wrong(const cl_uint *out, cl_uint add)
{
    int bad = 0;
    for (cl_uint i = 0; i < N; i++)
        bad += out[i] != i + add;
    return bad;
}

static cl_command_queue queue(cl_command_queue_properties props)
{
    cl_int err;
    cl_command_queue q = clCreateCommandQueue(cl.context, cl.device, props, &err);
    CL_CHECK(err);
    return q;
}

static void CL_CALLBACK count_call(cl_event ev, cl_int status, void *data)
{
    (void)ev, (void)status;
    atomic_fetch_add((atomic_int *)data, 1);
}

/* A chain behind a user event: launch (+1), launch (+2), read, on q1; with q2 the second
 * launch and the read are on q2. Each enqueue must return while the gate is unset; a
 * CL_RUNNING callback on each command's event is called (libskmd's stand-in events never
 * run on a device). */
static void gated_chain(const char *name, cl_command_queue q1, cl_command_queue q2,
                        cl_kernel k)
{
    enter(name);
    cl_int err;
    cl_mem b = ramp(q1);
    static cl_uint out[N];
    memset(out, 0xff, sizeof out);
    cl_event gate = clCreateUserEvent(cl.context, &err), first, second, read;
    CL_CHECK(err);
    CL_CHECK(launch(q1, k, b, 1, 1, &gate, &first));
    CL_CHECK(launch(q2, k, b, 2, 1, &first, &second));
    CL_CHECK(clEnqueueReadBuffer(q2, b, CL_FALSE, 0, sizeof out, out, 1, &second, &read));
    static atomic_int running_calls;
    atomic_store(&running_calls, 0);
    CL_CHECK(clSetEventCallback(first, CL_RUNNING, count_call, &running_calls));
    CL_CHECK(clSetEventCallback(read, CL_RUNNING, count_call, &running_calls));
    CL_CHECK(clFlush(q1));
    CL_CHECK(clFlush(q2));
    nanosleep(&(struct timespec){0, 20000000}, NULL);
    EXPECT(status_of(first) > CL_COMPLETE);
    EXPECT(status_of(second) > CL_COMPLETE);
    EXPECT(status_of(read) > CL_COMPLETE);
    CL_CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    CL_CHECK(clWaitForEvents(1, &read));
    EXPECT(status_of(first) == CL_COMPLETE && status_of(second) == CL_COMPLETE);
    EXPECT(wrong(out, 3) == 0);
    CL_CHECK(clFinish(q1));
    CL_CHECK(clFinish(q2));
    while (atomic_load(&running_calls) < 2) /* the watchdog ends a wait for nothing */
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    clReleaseEvent(first);
    clReleaseEvent(second);
    clReleaseEvent(read);
    clReleaseEvent(gate);
    clReleaseMemObject(b);
}

/* A launch behind a user event, then on the same in-order queue a launch and a read with
 * no wait list (the queue's order alone), and a marker: all return before the gate. */
static void gated_in_order(cl_kernel k)
{
    enter("gates: in-order queue order");
    cl_int err;
    cl_command_queue q = queue(0);
    cl_mem b = ramp(q);
    static cl_uint out[N];
    cl_event gate = clCreateUserEvent(cl.context, &err), marker, read;
    CL_CHECK(err);
    CL_CHECK(launch(q, k, b, 4, 1, &gate, NULL));
    CL_CHECK(launch(q, k, b, 5, 0, NULL, NULL));
    CL_CHECK(clEnqueueReadBuffer(q, b, CL_FALSE, 0, sizeof out, out, 0, NULL, &read));
    CL_CHECK(clEnqueueMarkerWithWaitList(q, 0, NULL, &marker));
    CL_CHECK(clFlush(q));
    EXPECT(status_of(read) > CL_COMPLETE);
    EXPECT(status_of(marker) > CL_COMPLETE);
    CL_CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    CL_CHECK(clWaitForEvents(1, &marker));
    EXPECT(status_of(read) == CL_COMPLETE);
    EXPECT(wrong(out, 9) == 0);
    clReleaseEvent(marker);
    clReleaseEvent(read);
    clReleaseEvent(gate);
    clReleaseMemObject(b);
    clReleaseCommandQueue(q);
}

/* A map behind a gated launch returns at once; once the gate is set, the mapped bytes are
 * the launch's and a write through a second map reaches the buffer. */
static void gated_map(cl_kernel k)
{
    enter("gates: a map behind the gate");
    cl_int err;
    cl_command_queue q = queue(0);
    cl_mem b = ramp(q);
    cl_event gate = clCreateUserEvent(cl.context, &err), launched, mapped, unmapped;
    CL_CHECK(err);
    CL_CHECK(launch(q, k, b, 6, 1, &gate, &launched));
    cl_uint *p = clEnqueueMapBuffer(q, b, CL_FALSE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                    N * sizeof(cl_uint), 1, &launched, &mapped, &err);
    CL_CHECK(err);
    EXPECT(p != NULL);
    CL_CHECK(clFlush(q));
    EXPECT(status_of(mapped) > CL_COMPLETE);
    CL_CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    CL_CHECK(clWaitForEvents(1, &mapped));
    EXPECT(p && wrong(p, 6) == 0);
    for (cl_uint i = 0; p && i < N; i++)
        p[i] += 1;
    CL_CHECK(clEnqueueUnmapMemObject(q, b, p, 0, NULL, &unmapped));
    static cl_uint out[N];
    CL_CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof out, out, 1, &unmapped, NULL));
    EXPECT(wrong(out, 7) == 0);
    clReleaseEvent(launched);
    clReleaseEvent(mapped);
    clReleaseEvent(unmapped);
    clReleaseEvent(gate);
    clReleaseMemObject(b);
    clReleaseCommandQueue(q);
}

static void gates(cl_kernel k)
{
    cl_command_queue in_order = queue(0), ooo = queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    gated_chain("gates: in-order chain", in_order, in_order, k);
    gated_chain("gates: out-of-order chain", ooo, ooo, k);
    gated_chain("gates: chain across queues", in_order, ooo, k);
    gated_in_order(k);
    gated_map(k);
    clReleaseCommandQueue(in_order);
    clReleaseCommandQueue(ooo);
}

/* Callbacks that call OpenCL: each enqueues a launch and a read of its buffer, and asks
 * its event's status and its queue. */
struct cb_work {
    cl_command_queue q;
    cl_kernel k;
    cl_mem b;
    cl_uint out[N];
    cl_event launched, read;
    cl_int status, launch_err, read_err, info_err;
    atomic_int done;
};

static void CL_CALLBACK enqueue_from_callback(cl_event ev, cl_int status, void *data)
{
    struct cb_work *w = data;
    cl_int s = 1;
    w->status = status;
    w->info_err = clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL);
    if (w->info_err == CL_SUCCESS && s != CL_COMPLETE)
        w->info_err = CL_INVALID_VALUE;
    w->launch_err = launch(w->q, w->k, w->b, 7, 0, NULL, &w->launched);
    w->read_err = w->launch_err != CL_SUCCESS
                      ? w->launch_err
                      : clEnqueueReadBuffer(w->q, w->b, CL_FALSE, 0, sizeof w->out, w->out, 1,
                                            &w->launched, &w->read);
    clFlush(w->q);
    atomic_store(&w->done, 1);
}

static void check_callback_work(struct cb_work *w)
{
    for (int i = 0; i < 10000 && !atomic_load(&w->done); i++)
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    EXPECT(atomic_load(&w->done));
    if (!atomic_load(&w->done))
        return;
    EXPECT(w->status == CL_COMPLETE);
    EXPECT(w->info_err == CL_SUCCESS);
    EXPECT(w->launch_err == CL_SUCCESS);
    EXPECT(w->read_err == CL_SUCCESS);
    if (w->read_err == CL_SUCCESS) {
        CL_CHECK(clWaitForEvents(1, &w->read));
        EXPECT(wrong(w->out, 7) == 0);
        clReleaseEvent(w->read);
    }
    if (w->launch_err == CL_SUCCESS)
        clReleaseEvent(w->launched);
}

static void callbacks(cl_kernel k)
{
    static struct cb_work now, later;
    cl_int err;
    enter("callbacks: on a complete event");
    now.q = later.q = cl.queue;
    now.k = later.k = k;
    now.b = ramp(cl.queue);
    cl_event done;
    CL_CHECK(clEnqueueMarkerWithWaitList(cl.queue, 0, NULL, &done));
    CL_CHECK(clWaitForEvents(1, &done));
    CL_CHECK(clSetEventCallback(done, CL_COMPLETE, enqueue_from_callback, &now));
    check_callback_work(&now);
    clReleaseEvent(done);

    enter("callbacks: on a pending event");
    later.b = ramp(cl.queue);
    cl_event gate = clCreateUserEvent(cl.context, &err);
    CL_CHECK(err);
    CL_CHECK(clSetEventCallback(gate, CL_COMPLETE, enqueue_from_callback, &later));
    CL_CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    check_callback_work(&later);
    clReleaseEvent(gate);
    CL_CHECK(clFinish(cl.queue));
    clReleaseMemObject(now.b);
    clReleaseMemObject(later.b);
}

/* 8 threads, each with its own queue: rounds of write, two launches, blocking read. */
struct thread_work {
    pthread_t thread;
    int id, bad;
    cl_int err;
};

static int rounds = 6; /* TRANSPARENCY_ROUNDS */

static void *thread_main(void *arg)
{
    struct thread_work *w = arg;
    cl_int err;
    cl_command_queue q = clCreateCommandQueue(cl.context, cl.device, 0, &err);
    cl_kernel k = q ? clCreateKernel(cl.program, "addk", &err) : NULL;
    cl_kernel sk = k ? clCreateKernel(cl.program, "spread", &err) : NULL;
    cl_mem b = sk ? clCreateBuffer(cl.context, CL_MEM_READ_WRITE, N * sizeof(cl_uint), NULL,
                                   &err)
                  : NULL;
    cl_mem c = b ? clCreateBuffer(cl.context, CL_MEM_READ_WRITE, N * sizeof(cl_uint), NULL,
                                  &err)
                 : NULL;
    static _Thread_local cl_uint data[N];
    size_t global = N, local = LOCAL;
    cl_uint zero = 0;
    for (int round = 0; round < rounds && c && err == CL_SUCCESS; round++) {
        cl_uint base = (cl_uint)(w->id * 100000 + round);
        for (cl_uint i = 0; i < N; i++)
            data[i] = base + i;
        err = clEnqueueWriteBuffer(q, b, CL_FALSE, 0, sizeof data, data, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = launch(q, k, b, 1, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = launch(q, k, b, (cl_uint)round, 0, NULL, NULL);
        /* c = b through a write footprint libskmd cannot know (the merge) */
        if (err == CL_SUCCESS)
            err = clSetKernelArg(sk, 0, sizeof c, &c);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(sk, 1, sizeof b, &b);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(sk, 2, sizeof zero, &zero);
        if (err == CL_SUCCESS)
            err = clEnqueueNDRangeKernel(q, sk, 1, NULL, &global, &local, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = clEnqueueReadBuffer(q, c, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL);
        for (cl_uint i = 0; i < N && err == CL_SUCCESS; i++)
            w->bad += data[i] != base + i + 1 + (cl_uint)round;
    }
    w->err = err;
    if (c)
        clReleaseMemObject(c);
    if (b)
        clReleaseMemObject(b);
    if (sk)
        clReleaseKernel(sk);
    if (k)
        clReleaseKernel(k);
    if (q)
        clReleaseCommandQueue(q);
    return NULL;
}

static void threads(void)
{
    enter("threads: 8 queues");
    if (getenv("TRANSPARENCY_ROUNDS"))
        rounds = atoi(getenv("TRANSPARENCY_ROUNDS"));
    struct thread_work w[THREADS];
    for (int t = 0; t < THREADS; t++) {
        w[t] = (struct thread_work){.id = t};
        if (pthread_create(&w[t].thread, NULL, thread_main, &w[t]) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            exit(1);
        }
    }
    for (int t = 0; t < THREADS; t++) {
        pthread_join(w[t].thread, NULL);
        EXPECT(w[t].err == CL_SUCCESS);
        EXPECT(w[t].bad == 0);
    }
}

/* The four times of ev, ordered; `what` names the command. */
static void times_of(cl_event ev, const char *what)
{
    static const cl_profiling_info which[4] = {
        CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_COMMAND_START,
        CL_PROFILING_COMMAND_END};
    cl_ulong t[4] = {0};
    CL_CHECK(clWaitForEvents(1, &ev));
    for (int i = 0; i < 4; i++) {
        cl_int err = clGetEventProfilingInfo(ev, which[i], sizeof t[i], &t[i], NULL);
        if (err != CL_SUCCESS) {
            printf("FAIL %s: %s: profiling query %d: %d\n", section, what, i, err);
            atomic_fetch_add(&failures, 1);
            return;
        }
    }
    if (!(t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3])) {
        printf("FAIL %s: %s: times not ordered: %llu %llu %llu %llu\n", section, what,
               (unsigned long long)t[0], (unsigned long long)t[1], (unsigned long long)t[2],
               (unsigned long long)t[3]);
        atomic_fetch_add(&failures, 1);
    }
    clReleaseEvent(ev);
}

static void profiling_on(cl_command_queue q, cl_kernel k)
{
    cl_int err;
    static cl_uint host[N];
    cl_mem b = ramp(q), c = cl_test_buffer(&cl, CL_MEM_READ_WRITE, sizeof host, NULL);
    cl_event ev;
    CL_CHECK(clEnqueueWriteBuffer(q, b, CL_FALSE, 0, sizeof host, host, 0, NULL, &ev));
    times_of(ev, "write (non-blocking)");
    CL_CHECK(clEnqueueWriteBuffer(q, b, CL_TRUE, 0, sizeof host, host, 0, NULL, &ev));
    times_of(ev, "write (blocking)");
    CL_CHECK(launch(q, k, b, 1, 0, NULL, &ev));
    times_of(ev, "launch");
    CL_CHECK(launch(q, k, b, 1, 0, NULL, NULL));
    CL_CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof host, host, 0, NULL, &ev));
    times_of(ev, "read after a launch (blocking)");
    CL_CHECK(launch(q, k, b, 1, 0, NULL, NULL));
    CL_CHECK(clEnqueueReadBuffer(q, b, CL_FALSE, 0, sizeof host, host, 0, NULL, &ev));
    times_of(ev, "read after a launch (non-blocking)");
    CL_CHECK(clEnqueueCopyBuffer(q, b, c, 0, 0, sizeof host, 0, NULL, &ev));
    times_of(ev, "copy");
    cl_uint pattern = 3;
    CL_CHECK(clEnqueueFillBuffer(q, c, &pattern, sizeof pattern, 0, sizeof host, 0, NULL, &ev));
    times_of(ev, "fill");
    CL_CHECK(launch(q, k, c, 1, 0, NULL, NULL));
    void *p = clEnqueueMapBuffer(q, c, CL_TRUE, CL_MAP_READ, 0, sizeof host, 0, NULL, &ev, &err);
    CL_CHECK(err);
    times_of(ev, "map");
    EXPECT(((cl_uint *)p)[N - 1] == 4);
    CL_CHECK(clEnqueueUnmapMemObject(q, c, p, 0, NULL, &ev));
    times_of(ev, "unmap");
    CL_CHECK(launch(q, k, b, 1, 0, NULL, NULL));
    CL_CHECK(clEnqueueMarkerWithWaitList(q, 0, NULL, &ev));
    times_of(ev, "marker");
    CL_CHECK(launch(q, k, b, 1, 0, NULL, NULL));
    CL_CHECK(clEnqueueBarrierWithWaitList(q, 0, NULL, &ev));
    times_of(ev, "barrier");
    cl_event gate = clCreateUserEvent(cl.context, &err), gated, read;
    CL_CHECK(err);
    CL_CHECK(launch(q, k, b, 1, 1, &gate, &gated));
    CL_CHECK(clEnqueueReadBuffer(q, b, CL_FALSE, 0, sizeof host, host, 1, &gated, &read));
    CL_CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    times_of(gated, "gated launch");
    times_of(read, "read behind a gated launch");
    clReleaseEvent(gate);
    CL_CHECK(clFinish(q));
    clReleaseMemObject(b);
    clReleaseMemObject(c);
}

static void profiling(cl_kernel k)
{
    enter("profiling: in-order queue");
    profiling_on(cl.queue, k);
    enter("profiling: out-of-order queue");
    cl_command_queue ooo =
        queue(CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    profiling_on(ooo, k);
    clReleaseCommandQueue(ooo);
}

static void CL_CALLBACK program_released(cl_program program, void *data)
{
    (void)program, (void)data;
}

/* OpenCL 3.0 corners the conformance suite checks: a launch of no work-items (a NULL
 * global size) behind a user event is a kernel command that waits for it; an image made
 * with an empty property list gives that list back; a program's release callback is
 * refused as the driver refuses it (PoCL: no program-scope destructors). */
static void corners(cl_kernel k)
{
    enter("corners: an empty launch behind a gate");
    cl_int err;
    cl_mem b = ramp(cl.queue);
    cl_uint add = 1;
    CL_CHECK(clSetKernelArg(k, 0, sizeof b, &b));
    CL_CHECK(clSetKernelArg(k, 1, sizeof add, &add));
    cl_event gate = clCreateUserEvent(cl.context, &err), empty;
    CL_CHECK(err);
    CL_CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, NULL, NULL, 0, NULL, NULL));
    CL_CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, NULL, NULL, 1, &gate, &empty));
    cl_command_type type = 0;
    CL_CHECK(clGetEventInfo(empty, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    EXPECT(type == CL_COMMAND_NDRANGE_KERNEL);
    EXPECT(status_of(empty) > CL_COMPLETE);
    CL_CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    CL_CHECK(clFinish(cl.queue));
    EXPECT(status_of(empty) == CL_COMPLETE);
    clReleaseEvent(empty);
    clReleaseEvent(gate);
    clReleaseMemObject(b);

    enter("corners: an image's empty property list");
    const cl_mem_properties none[] = {0};
    cl_image_format format = {CL_RGBA, CL_UNSIGNED_INT8};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 16,
                          .image_height = 16};
    cl_mem image = clCreateImageWithProperties(cl.context, none, CL_MEM_READ_WRITE, &format,
                                               &desc, NULL, &err);
    CL_CHECK(err);
    size_t size = 99;
    cl_mem_properties back[2] = {1, 1};
    CL_CHECK(clGetMemObjectInfo(image, CL_MEM_PROPERTIES, sizeof back, back, &size));
    EXPECT(size == sizeof back[0] && back[0] == 0);
    clReleaseMemObject(image);

    enter("corners: a program's release callback");
    EXPECT(clSetProgramReleaseCallback(cl.program, program_released, NULL) ==
           CL_INVALID_OPERATION);
}

/* Two launches of kernel `name` of program p on a ramp; the result must be the ramp plus
 * 2 * add. */
static void run_twice(cl_program p, const char *name, cl_uint add)
{
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    CL_CHECK(err);
    cl_mem b = ramp(cl.queue);
    CL_CHECK(clSetKernelArg(k, 0, sizeof b, &b));
    size_t global = N, local = LOCAL;
    for (int i = 0; i < 2; i++)
        CL_CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    static cl_uint out[N];
    CL_CHECK(clEnqueueReadBuffer(cl.queue, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    EXPECT(wrong(out, 2 * add) == 0);
    clReleaseMemObject(b);
    clReleaseKernel(k);
}

/* See the file comment. */
static void binaries(void)
{
    enter("binaries: a program made from its binary");
    static const char *src =
        "__kernel void addb(__global uint *y) { y[get_global_id(0)] += ADD; }\n";
    cl_program built = cl_test_build(&cl, src, "-DADD=5");
    size_t size = 0;
    CL_CHECK(clGetProgramInfo(built, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
    unsigned char *bin = malloc(size);
    EXPECT(bin && size > 0);
    if (!bin)
        return;
    CL_CHECK(clGetProgramInfo(built, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
    clReleaseProgram(built);
    cl_int err, status = 1;
    const unsigned char *bins[] = {bin};
    cl_program p = clCreateProgramWithBinary(cl.context, 1, &cl.device, &size, bins, &status,
                                             &err);
    CL_CHECK(err);
    EXPECT(status == CL_SUCCESS);
    CL_CHECK(clBuildProgram(p, 1, &cl.device, NULL, NULL, NULL));
    run_twice(p, "addb", 5);
    /* Under libskmd a binary cut short is refused, not read past its end (PoCL itself
     * asserts on one). */
    char name[64] = "";
    CL_CHECK(clGetPlatformInfo(cl.platform, CL_PLATFORM_NAME, sizeof name, name, NULL));
    if (!strcmp(name, "SKMD")) {
        size_t cut = size - 1;
        cl_program bad = clCreateProgramWithBinary(cl.context, 1, &cl.device, &cut, bins,
                                                   &status, &err);
        EXPECT(bad == NULL && err == CL_INVALID_BINARY && status == CL_INVALID_BINARY);
    }
    clReleaseProgram(p);
    free(bin);
}

/* See the file comment. */
static void links(void)
{
    enter("links: a program compiled and linked alone");
    static const char *src =
        "__kernel void addl(__global uint *y) { y[get_global_id(0)] += ADD; }\n";
    cl_int err;
    cl_program compiled = clCreateProgramWithSource(cl.context, 1, &src, NULL, &err);
    CL_CHECK(err);
    CL_CHECK(clCompileProgram(compiled, 1, &cl.device, "-DADD=7", 0, NULL, NULL, NULL, NULL));
    cl_program linked = clLinkProgram(cl.context, 1, &cl.device, NULL, 1, &compiled, NULL,
                                      NULL, &err);
    CL_CHECK(err);
    run_twice(linked, "addl", 7);
    clReleaseProgram(linked);
    clReleaseProgram(compiled);
}

int main(int argc, char **argv)
{
    signal(SIGALRM, on_alarm);
    enter("setup");
    cl_test_open(&cl, CL_QUEUE_PROFILING_ENABLE, source, NULL);
    cl_kernel k = cl_test_kernel(&cl, "addk");
    /* One part alone (run.sh's single checks): its name as the first argument. */
    const char *only = argc > 1 ? argv[1] : "";
    if (!*only || !strcmp(only, "gates"))
        gates(k);
    if (!*only || !strcmp(only, "callbacks"))
        callbacks(k);
    if (!*only || !strcmp(only, "threads"))
        threads();
    if (!*only || !strcmp(only, "profiling"))
        profiling(k);
    if (!*only || !strcmp(only, "corners"))
        corners(k);
    if (!*only || !strcmp(only, "binaries"))
        binaries();
    if (!*only || !strcmp(only, "links"))
        links();
    alarm(0);
    clReleaseKernel(k);
    cl_test_close(&cl);
    if (atomic_load(&failures))
        return 1;
    printf("ok\n");
    return 0;
}
