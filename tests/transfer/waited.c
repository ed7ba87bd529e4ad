/* tests/transfer/waited.c: reads and writes with a wait list, the calls libskmd takes
 * through the transfer engine once their wait list is done (libskmd/cl/app_io.h):
 *   - a read that waits on a kernel's event gets the kernel's output, blocking or not;
 *   - a non-blocking read behind a kernel that waits on an unset user event returns before
 *     the app sets it (libskmd leaves it to the driver);
 *   - a write that waits on a user event set from another thread lands after it, and a
 *     kernel then sees the written bytes;
 *   - with --failed-events, a read or write whose wait list holds a failed user event
 *     returns CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (PoCL's own blocking read never
 *     returns there: the check is for libskmd's engine path);
 *   - a wait list with an event of another context returns CL_INVALID_CONTEXT;
 *   - a write and a read that ask for an event (libskmd takes them too): a kernel that
 *     waits on the write's event sees the bytes, the read's event completes with them,
 *     each event says its command, queue and context, calls its callback, and gives
 *     ordered profiling times on a queue with profiling, none on a queue without.
 * Prints one line per check; exits 1 on the first failure. Runs natively and under libskmd. */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include "../common/cl_test.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N (1u << 20) /* 4 MiB of uints: above the engine's direct size */

static const char *source =
    "__kernel void plus(__global uint *a, uint k) { size_t i = get_global_id(0); a[i] += k; }\n";

static struct cl_test cl;

static void expect(const char *what, int ok)
{
    printf("%s %s\n", ok ? "ok  " : "FAIL", what);
    if (!ok)
        exit(1);
}

static int all_equal(const cl_uint *v, cl_uint want)
{
    for (size_t i = 0; i < N; i++)
        if (v[i] != want + (cl_uint)i)
            return 0;
    return 1;
}

static void *complete_later(void *arg)
{
    struct timespec t = {0, 50 * 1000 * 1000};
    nanosleep(&t, NULL);
    clSetUserEventStatus(*(cl_event *)arg, CL_COMPLETE);
    return NULL;
}

static void CL_CALLBACK count_call(cl_event ev, cl_int status, void *calls)
{
    (void)ev;
    if (status == CL_COMPLETE)
        __atomic_add_fetch((int *)calls, 1, __ATOMIC_SEQ_CST);
}

/* What an event says of itself: its command, queue and context, and that it is complete. */
static int event_is(cl_event ev, cl_command_type type, cl_command_queue q)
{
    cl_command_type t = 0;
    cl_command_queue eq = NULL;
    cl_context ec = NULL;
    cl_int status = 1;
    CL_CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
    CL_CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_QUEUE, sizeof eq, &eq, NULL));
    CL_CHECK(clGetEventInfo(ev, CL_EVENT_CONTEXT, sizeof ec, &ec, NULL));
    CL_CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                            NULL));
    return t == type && eq == q && ec == cl.context && status == CL_COMPLETE;
}

/* Queued <= submitted <= started < ended (a 4 MiB copy takes more than a nanosecond). */
static int times_ordered(cl_event ev)
{
    cl_ulong t[4];
    const cl_profiling_info what[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                       CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
    for (int i = 0; i < 4; i++)
        if (clGetEventProfilingInfo(ev, what[i], sizeof t[i], &t[i], NULL) != CL_SUCCESS)
            return 0;
    return t[0] <= t[1] && t[1] <= t[2] && t[2] < t[3];
}

static void check_events(cl_mem buf, cl_kernel plus, cl_uint *host, cl_uint *back)
{
    cl_int err;
    cl_command_queue timed = clCreateCommandQueue(cl.context, cl.device,
                                                  CL_QUEUE_PROFILING_ENABLE, &err);
    CL_CHECK(err);
    for (size_t i = 0; i < N; i++)
        host[i] = 200u + (cl_uint)i;
    cl_event wrote, ran, read;
    CL_CHECK(clEnqueueWriteBuffer(timed, buf, CL_FALSE, 0, N * sizeof *host, host, 0, NULL,
                                  &wrote));
    cl_uint k = 4;
    size_t global = N;
    CL_CHECK(clSetKernelArg(plus, 1, sizeof k, &k));
    CL_CHECK(clEnqueueNDRangeKernel(timed, plus, 1, NULL, &global, NULL, 1, &wrote, &ran));
    memset(back, 0, N * sizeof *back);
    CL_CHECK(clEnqueueReadBuffer(timed, buf, CL_FALSE, 0, N * sizeof *back, back, 1, &ran,
                                 &read));
    CL_CHECK(clWaitForEvents(1, &read));
    expect("a kernel behind a write's event, a read's event: the read has its output",
           all_equal(back, 204));
    expect("the write's event: a complete write of its queue and context",
           event_is(wrote, CL_COMMAND_WRITE_BUFFER, timed));
    expect("the read's event: a complete read of its queue and context",
           event_is(read, CL_COMMAND_READ_BUFFER, timed));
    expect("the write's and the read's profiling times are in order",
           times_ordered(wrote) && times_ordered(read));
    int calls = 0;
    CL_CHECK(clSetEventCallback(wrote, CL_COMPLETE, count_call, &calls));
    CL_CHECK(clSetEventCallback(read, CL_COMPLETE, count_call, &calls));
    for (int i = 0; i < 1000 && __atomic_load_n(&calls, __ATOMIC_SEQ_CST) < 2; i++)
        nanosleep(&(struct timespec){0, 1000 * 1000}, NULL);
    expect("callbacks on the write's and the read's events are called",
           __atomic_load_n(&calls, __ATOMIC_SEQ_CST) == 2);
    CL_CHECK(clReleaseEvent(wrote));
    CL_CHECK(clReleaseEvent(ran));
    CL_CHECK(clReleaseEvent(read));
    CL_CHECK(clReleaseCommandQueue(timed));

    /* A queue without profiling: the event has no times. */
    CL_CHECK(clEnqueueWriteBuffer(cl.queue, buf, CL_TRUE, 0, N * sizeof *host, host, 0, NULL,
                                  &wrote));
    cl_ulong t;
    expect("a write's event on a queue without profiling: CL_PROFILING_INFO_NOT_AVAILABLE",
           clGetEventProfilingInfo(wrote, CL_PROFILING_COMMAND_END, sizeof t, &t, NULL) ==
               CL_PROFILING_INFO_NOT_AVAILABLE);
    CL_CHECK(clReleaseEvent(wrote));
}

int main(int argc, char **argv)
{
    int failed_events = argc > 1 && !strcmp(argv[1], "--failed-events");
    cl_test_open(&cl, 0, source, NULL);
    cl_kernel plus = cl_test_kernel(&cl, "plus");
    cl_mem buf = cl_test_buffer(&cl, CL_MEM_READ_WRITE, N * sizeof(cl_uint), NULL);
    cl_uint *host = malloc(N * sizeof *host), *back = malloc(N * sizeof *back);
    if (!host || !back)
        return 1;
    for (size_t i = 0; i < N; i++)
        host[i] = (cl_uint)i;
    CL_CHECK(clEnqueueWriteBuffer(cl.queue, buf, CL_TRUE, 0, N * sizeof *host, host, 0, NULL,
                                  NULL));

    /* A read behind a kernel's event. */
    cl_uint k = 5;
    size_t global = N;
    cl_event ran;
    CL_CHECK(clSetKernelArg(plus, 0, sizeof buf, &buf));
    CL_CHECK(clSetKernelArg(plus, 1, sizeof k, &k));
    CL_CHECK(clEnqueueNDRangeKernel(cl.queue, plus, 1, NULL, &global, NULL, 0, NULL, &ran));
    CL_CHECK(clEnqueueReadBuffer(cl.queue, buf, CL_TRUE, 0, N * sizeof *back, back, 1, &ran,
                                 NULL));
    expect("a blocking read behind a kernel's event reads its output", all_equal(back, 5));
    CL_CHECK(clReleaseEvent(ran));

    /* The same, non-blocking: taken by the engine too while no user event is unset. */
    k = 2;
    CL_CHECK(clSetKernelArg(plus, 1, sizeof k, &k));
    CL_CHECK(clEnqueueNDRangeKernel(cl.queue, plus, 1, NULL, &global, NULL, 0, NULL, &ran));
    CL_CHECK(clEnqueueReadBuffer(cl.queue, buf, CL_FALSE, 0, N * sizeof *back, back, 1, &ran,
                                 NULL));
    CL_CHECK(clFinish(cl.queue));
    expect("a non-blocking read behind a kernel's event reads its output", all_equal(back, 7));
    CL_CHECK(clReleaseEvent(ran));

    /* A non-blocking read behind a kernel that waits on an unset user event returns
     * before the event is set (were it waited for here, this would hang). */
    cl_int err;
    cl_event hold = clCreateUserEvent(cl.context, &err);
    CL_CHECK(err);
    k = 3;
    CL_CHECK(clSetKernelArg(plus, 1, sizeof k, &k));
    CL_CHECK(clEnqueueNDRangeKernel(cl.queue, plus, 1, NULL, &global, NULL, 1, &hold, &ran));
    CL_CHECK(clEnqueueReadBuffer(cl.queue, buf, CL_FALSE, 0, N * sizeof *back, back, 1, &ran,
                                 NULL));
    CL_CHECK(clSetUserEventStatus(hold, CL_COMPLETE));
    CL_CHECK(clFinish(cl.queue));
    expect("a non-blocking read behind a user event's kernel returns at once, then reads "
           "its output", all_equal(back, 10));
    CL_CHECK(clReleaseEvent(ran));
    CL_CHECK(clReleaseEvent(hold));

    /* A write behind a user event another thread completes, then a kernel. */
    cl_event gate = clCreateUserEvent(cl.context, &err);
    CL_CHECK(err);
    pthread_t thread;
    if (pthread_create(&thread, NULL, complete_later, &gate) != 0)
        return 1;
    for (size_t i = 0; i < N; i++)
        host[i] = 100u + (cl_uint)i;
    CL_CHECK(clEnqueueWriteBuffer(cl.queue, buf, CL_TRUE, 0, N * sizeof *host, host, 1, &gate,
                                  NULL));
    pthread_join(thread, NULL);
    CL_CHECK(clReleaseEvent(gate));
    k = 1;
    CL_CHECK(clSetKernelArg(plus, 1, sizeof k, &k));
    CL_CHECK(clEnqueueNDRangeKernel(cl.queue, plus, 1, NULL, &global, NULL, 0, NULL, NULL));
    CL_CHECK(clEnqueueReadBuffer(cl.queue, buf, CL_TRUE, 0, N * sizeof *back, back, 0, NULL,
                                 NULL));
    expect("a blocking write behind a user event lands, and a kernel sees it",
           all_equal(back, 101));

    /* A failed user event in the wait list fails the call. */
    if (failed_events) {
        cl_event failed = clCreateUserEvent(cl.context, &err);
        CL_CHECK(err);
        CL_CHECK(clSetUserEventStatus(failed, -1));
        err = clEnqueueReadBuffer(cl.queue, buf, CL_TRUE, 0, N * sizeof *back, back, 1,
                                  &failed, NULL);
        expect("a blocking read behind a failed event: "
               "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST",
               err == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        err = clEnqueueWriteBuffer(cl.queue, buf, CL_TRUE, 0, N * sizeof *host, host, 1,
                                   &failed, NULL);
        expect("a blocking write behind a failed event: "
               "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST",
               err == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        CL_CHECK(clReleaseEvent(failed));
    }

    /* An event of another context. */
    cl_context other = clCreateContext(NULL, 1, &cl.device, NULL, NULL, &err);
    CL_CHECK(err);
    cl_event foreign = clCreateUserEvent(other, &err);
    CL_CHECK(err);
    CL_CHECK(clSetUserEventStatus(foreign, CL_COMPLETE));
    err = clEnqueueReadBuffer(cl.queue, buf, CL_TRUE, 0, N * sizeof *back, back, 1, &foreign,
                              NULL);
    expect("a wait list with another context's event: CL_INVALID_CONTEXT",
           err == CL_INVALID_CONTEXT);
    CL_CHECK(clReleaseEvent(foreign));
    CL_CHECK(clReleaseContext(other));

    check_events(buf, plus, host, back);

    CL_CHECK(clFinish(cl.queue));
    CL_CHECK(clReleaseMemObject(buf));
    CL_CHECK(clReleaseKernel(plus));
    cl_test_close(&cl);
    free(host);
    free(back);
    return 0;
}
