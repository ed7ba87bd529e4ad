/* libskmd/cl/defer_app.c: the app's commands deferred (launch/defer.h): whether one must
 * be, and posting it to its queue's launcher thread, which runs it again through its own
 * entry point (each enqueue*.c says how) as the app's thread would have run it. */
#include "cl/common.h"
#include "cl/defer_app.h"

int skmd_defer_wanted(cl_command_queue q, cl_uint n, const cl_event *wl)
{
    if (skmd_defer_running())
        return 0;
    if (atomic_load_explicit(&q->gated, memory_order_acquire) > 0)
        return 1;
    for (cl_uint i = 0; wl && i < n; i++)
        if (!SKMD_VALID(wl[i], EVENT))
            return 0;
    for (cl_uint i = 0; wl && i < n; i++)
        if (skmd_event_pending(wl[i]))
            return 1;
    return 0;
}

cl_int skmd_defer_profiling(cl_event ev, cl_profiling_info which, cl_ulong *t)
{
    return skmd_clGetEventProfilingInfo(ev, which, sizeof *t, t, NULL);
}

cl_int skmd_defer(cl_command_queue q, const struct skmd_defer_command *cmd,
                  enum skmd_defer_kind kind, cl_command_type type, cl_uint n,
                  const cl_event *wl, const cl_mem *mems, const unsigned char *writes,
                  unsigned nm, struct skmd_defer_args *args, cl_bool blocking, cl_event *event)
{
    cl_int err = CL_SUCCESS;
    for (cl_uint i = 0; i < n && err == CL_SUCCESS; i++)
        if (!SKMD_VALID(wl[i], EVENT))
            err = CL_INVALID_EVENT_WAIT_LIST;
        else if (wl[i]->context != q->context)
            err = CL_INVALID_CONTEXT;
    if ((n > 0) != (wl != NULL))
        err = CL_INVALID_EVENT_WAIT_LIST;
    if (err != CL_SUCCESS) {
        skmd_defer_args_release(args);
        return err;
    }
    cl_event user = NULL;
    err = skmd_defer_post(q, kind, cmd, n, wl, mems, writes, nm, args,
                          event || blocking, &user);
    if (err != CL_SUCCESS)
        return err;
    /* The job may be done already: d is its own now. */
    if (blocking && user) {
        cl_int s = CL_COMPLETE;
        real_clWaitForEvents(1, &user);
        real_clGetEventInfo(user, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL);
        err = s < 0 ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS;
    }
    if (!event) {
        if (user)
            real_clReleaseEvent(user);
        return err;
    }
    *event = skmd_event_wrap(q->context, q, user);
    if (!*event) {
        real_clReleaseEvent(user);
        return CL_OUT_OF_HOST_MEMORY;
    }
    (*event)->type = type;
    (*event)->host_set = 1;
    return err;
}
