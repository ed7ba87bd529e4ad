/* tests/split/events.c: events of split launches (run with 2 PoCL devices, forced shares).
 * Checks, printing "ok" when all hold:
 * - asynchrony: a launch waiting on an app user event returns at once, its event is not
 *   complete until the user event is set, then it completes and the result is right;
 * - a completion callback runs, with CL_COMPLETE, for the app's own event handle;
 * - profiling: QUEUED <= SUBMIT <= START < END; the command type is NDRANGE_KERNEL;
 * - a user event set to an error makes the launch's event complete with a negative status,
 *   and every CL_COMPLETE callback (on the user event, the launch's event, a fill behind
 *   the user event, and one registered after the failure) runs with a negative status;
 * - an out-of-order queue: a launch waiting on another's event sees its result;
 * - clFinish after several launches: a read sees the last one;
 * - a NULL local size (the kernel does not depend on it): the result is right (the log
 *   shows whether it was split: test-split.sh). */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include "../common/cl_test.h"
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#define N 4096

static const char *source =
    "__kernel void addk(__global uint *y, uint k) {\n"
    "  size_t i = get_global_id(0);\n"
    "  y[i] = y[i] + k;\n"
    "}\n";

static atomic_int callback_status = 1;
static cl_event callback_event;

static void CL_CALLBACK on_complete(cl_event ev, cl_int status, void *data)
{
    (void)data;
    callback_event = ev;
    atomic_store(&callback_status, status);
}

/* Callbacks on failed events: each stores its status in the int that `data` points to. */
static void CL_CALLBACK on_failed(cl_event ev, cl_int status, void *data)
{
    (void)ev;
    atomic_store((atomic_int *)data, status);
}

/* Whether every one of n statuses turns negative within a second. */
static int all_negative(atomic_int *statuses, int n)
{
    for (int spin = 0; spin < 1000; spin++) {
        int negative = 0;
        for (int i = 0; i < n; i++)
            negative += atomic_load(&statuses[i]) < 0;
        if (negative == n)
            return 1;
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    for (int i = 0; i < n; i++)
        fprintf(stderr, "failed-event callback %d: status %d\n", i, atomic_load(&statuses[i]));
    return 0;
}

static cl_int status_of(cl_event ev)
{
    cl_int s = 1;
    clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL);
    return s;
}

/* y[i] == i + add for every i */
static int check(cl_command_queue q, cl_mem b, cl_uint add)
{
    static cl_uint y[N];
    if (clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof y, y, 0, NULL, NULL) != CL_SUCCESS)
        return 0;
    for (cl_uint i = 0; i < N; i++)
        if (y[i] != i + add) {
            fprintf(stderr, "y[%u] = %u, want %u\n", i, y[i], i + add);
            return 0;
        }
    return 1;
}

static size_t local_size = 64; /* 0: NULL */

static cl_int launch(cl_command_queue q, cl_kernel k, cl_mem b, cl_uint add, cl_uint nwait,
                     const cl_event *wait, cl_event *ev)
{
    size_t global = N, local = local_size;
    cl_int err = clSetKernelArg(k, 0, sizeof b, &b);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 1, sizeof add, &add);
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, local ? &local : NULL, nwait,
                                     wait, ev);
    return err;
}

int main(void)
{
    static cl_uint init[N];
    for (cl_uint i = 0; i < N; i++)
        init[i] = i;
    cl_int err;
    struct cl_test cl;
    cl_test_open(&cl, CL_QUEUE_PROFILING_ENABLE, source, NULL);
    cl_kernel k = cl_test_kernel(&cl, "addk");
    cl_mem b = cl_test_buffer(&cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init, init);

    /* Asynchrony, callback, profiling. */
    cl_event gate = clCreateUserEvent(cl.context, &err), ev;
    CL_CHECK(err);
    CL_CHECK(launch(cl.queue, k, b, 5, 1, &gate, &ev));
    CL_EXPECT(status_of(ev) > CL_COMPLETE);
    CL_CHECK(clSetEventCallback(ev, CL_COMPLETE, on_complete, NULL));
    CL_CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    CL_CHECK(clWaitForEvents(1, &ev));
    CL_EXPECT(status_of(ev) == CL_COMPLETE);
    for (int i = 0; i < 1000 && atomic_load(&callback_status) != CL_COMPLETE; i++)
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    CL_EXPECT(atomic_load(&callback_status) == CL_COMPLETE && callback_event == ev);
    cl_ulong t[4];
    const cl_profiling_info which[4] = {CL_PROFILING_COMMAND_QUEUED,
                                        CL_PROFILING_COMMAND_SUBMIT,
                                        CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
    for (int i = 0; i < 4; i++)
        CL_CHECK(clGetEventProfilingInfo(ev, which[i], sizeof t[i], &t[i], NULL));
    CL_EXPECT(t[0] <= t[1] && t[1] <= t[2] && t[2] < t[3]);
    cl_command_type type = 0;
    CL_CHECK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CL_EXPECT(type == CL_COMMAND_NDRANGE_KERNEL);
    CL_EXPECT(check(cl.queue, b, 5));
    clReleaseEvent(ev);
    clReleaseEvent(gate);

    /* A failed dependency: the launch's event completes with a negative status, and the
     * CL_COMPLETE callbacks run with one (a status "equal to or past" CL_COMPLETE). */
    static atomic_int failed[4] = {1, 1, 1, 1};
    gate = clCreateUserEvent(cl.context, &err);
    CL_CHECK(err);
    CL_CHECK(launch(cl.queue, k, b, 100, 1, &gate, &ev));
    cl_uint pattern = 7;
    cl_event fill;
    CL_CHECK(clEnqueueFillBuffer(cl.queue, b, &pattern, sizeof pattern, 0, sizeof pattern, 1,
                                 &gate, &fill));
    CL_CHECK(clSetEventCallback(gate, CL_COMPLETE, on_failed, &failed[0]));
    CL_CHECK(clSetEventCallback(ev, CL_COMPLETE, on_failed, &failed[1]));
    CL_CHECK(clSetEventCallback(fill, CL_COMPLETE, on_failed, &failed[2]));
    CL_CHECK(clSetUserEventStatus(gate, -5));
    clWaitForEvents(1, &ev);
    CL_EXPECT(status_of(ev) < 0);
    CL_CHECK(clSetEventCallback(gate, CL_COMPLETE, on_failed, &failed[3]));
    CL_EXPECT(all_negative(failed, 4));
    clReleaseEvent(fill);
    clReleaseEvent(ev);
    clReleaseEvent(gate);
    CL_CHECK(clFinish(cl.queue));
    clReleaseCommandQueue(cl.queue);
    cl.queue = clCreateCommandQueue(cl.context, cl.device, 0, &err);
    CL_CHECK(err);
    CL_CHECK(clEnqueueWriteBuffer(cl.queue, b, CL_TRUE, 0, sizeof init, init, 0, NULL, NULL));

    /* Out-of-order queue: the second launch waits on the first's event. */
    cl_command_queue ooo =
        clCreateCommandQueue(cl.context, cl.device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    CL_CHECK(err);
    cl_event first, second;
    CL_CHECK(launch(ooo, k, b, 1, 0, NULL, &first));
    CL_CHECK(launch(ooo, k, b, 2, 1, &first, &second));
    CL_CHECK(clWaitForEvents(1, &second));
    CL_EXPECT(check(ooo, b, 3));
    clReleaseEvent(first);
    clReleaseEvent(second);
    clReleaseCommandQueue(ooo);

    /* Several launches, clFinish, then a read. */
    for (cl_uint r = 0; r < 5; r++)
        CL_CHECK(launch(cl.queue, k, b, 10, 0, NULL, NULL));
    CL_CHECK(clFinish(cl.queue));
    CL_EXPECT(check(cl.queue, b, 53));

    /* NULL local size. */
    local_size = 0;
    CL_CHECK(launch(cl.queue, k, b, 7, 0, NULL, NULL));
    CL_EXPECT(check(cl.queue, b, 60));

    clReleaseMemObject(b);
    clReleaseKernel(k);
    cl_test_close(&cl);
    printf("ok\n");
    return 0;
}
