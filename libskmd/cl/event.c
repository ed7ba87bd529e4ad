/* libskmd/cl/event.c: events (wrapped real events, user events, callbacks) and the wait
 * lists of every enqueue. */
#include <stdatomic.h>
#include <stdlib.h>

#include "support/clock.h"
#include "cl/common.h"
#include "device/showreal.h"
#include "device/eventspan.h"
#include "device/user_event_callbacks.h"
#include "support/hash.h"
#include "plan/placement.h"
#include "mem/member_health.h"

static cl_int release_hook(void *handle)
{
    return skmd_clReleaseEvent(handle);
}

cl_event skmd_event_wrap(cl_context context, cl_command_queue queue, cl_event real)
{
    cl_event ev = calloc(1, sizeof *ev);
    if (!ev)
        return NULL;
    skmd_object_init(&ev->obj, SKMD_TYPE_EVENT);
    ev->obj.release = release_hook;
    ev->context = context;
    ev->queue = queue;
    ev->real = real;
    skmd_object_retain(&context->obj);
    if (queue)
        skmd_object_retain(&queue->obj);
    return ev;
}

cl_int skmd_events_unwrap(cl_context ctx, cl_uint n, const cl_event *in, cl_event *out,
                          cl_uint *kept, int gated)
{
    *kept = 0;
    for (cl_uint i = 0; i < n; i++) {
        SKMD_RETURN_ERROR_IF(!SKMD_VALID(in[i], EVENT), CL_INVALID_EVENT_WAIT_LIST);
        cl_event real = in[i]->real;
        /* No real command may wait on such a user event unset (eventspan.h). Once it is
         * complete the command need not wait on it at all: a command behind a user event
         * may be submitted late (NVIDIA's driver holds it back for a thread of its own). A
         * failed one stays, so that the command fails as the driver decides. */
        cl_int status = CL_QUEUED;
        if (gated && skmd_event_pending(in[i])) {
            out[(*kept)++] = real; /* waited for on the launcher (defer.h) */
            continue;
        }
        if (skmd_span_event_is(real) && real_clWaitForEvents(1, &real) == CL_SUCCESS &&
            real_clGetEventInfo(real, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                                &status, NULL) == CL_SUCCESS && status == CL_COMPLETE) {
            SKMD_RETURN_ERROR_IF(in[i]->context != ctx, CL_INVALID_CONTEXT);
            continue;
        }
        out[(*kept)++] = real;
    }
    return CL_SUCCESS;
}

/* After a member was lost its queues may run on a member of another real context
 * (member_health.c): the driver takes no event of another context in a wait list, so
 * such events (commands of the lost member, finished or failed by now) are waited for
 * here and left out. A user event still unset is never among them: a command behind one
 * goes to the queue's launcher first (defer.h), which runs it once the event is set. */
static void leave_out_foreign(cl_command_queue q, cl_event *wait, cl_uint *n)
{
    if (atomic_load_explicit(&skmd_members_lost, memory_order_relaxed) == 0)
        return;
    cl_context mine = skmd_member_context(q->context, q->member);
    cl_uint kept = 0;
    for (cl_uint i = 0; i < *n; i++) {
        cl_context theirs = NULL;
        if (real_clGetEventInfo(wait[i], CL_EVENT_CONTEXT, sizeof theirs, &theirs, NULL) ==
                CL_SUCCESS &&
            theirs != mine) {
            real_clWaitForEvents(1, &wait[i]);
            continue;
        }
        wait[kept++] = wait[i];
    }
    *n = kept;
}

cl_int skmd_enqueue_begin(struct skmd_enqueue *e, cl_command_queue queue, cl_uint nwait,
                          const cl_event *wait, cl_event *event)
{
    return skmd_enqueue_begin_gated(e, queue, nwait, wait, event, 0);
}

cl_int skmd_enqueue_begin_gated(struct skmd_enqueue *e, cl_command_queue queue, cl_uint nwait,
                                const cl_event *wait, cl_event *event, int gated)
{
    e->queue = queue;
    e->nwait = nwait;
    e->wait = NULL;
    e->want = event;
    e->event = event ? &e->real_event : NULL;
    e->real_event = NULL;
    e->gated = gated;
    e->t0 = 0;
    SKMD_RETURN_ERROR_IF((nwait > 0) != (wait != NULL), CL_INVALID_EVENT_WAIT_LIST);
    if (nwait == 0)
        return CL_SUCCESS;
    e->wait = nwait <= 16 ? e->small : malloc(nwait * sizeof *e->wait);
    SKMD_RETURN_ERROR_IF(!e->wait, CL_OUT_OF_HOST_MEMORY);
    cl_int err = skmd_events_unwrap(queue->context, nwait, wait, e->wait, &e->nwait, gated);
    if (err == CL_SUCCESS && !gated)
        leave_out_foreign(queue, e->wait, &e->nwait);
    if ((err != CL_SUCCESS || e->nwait == 0) && e->wait != e->small)
        free(e->wait);
    if (err != CL_SUCCESS || e->nwait == 0)
        e->wait = NULL; /* (a real call takes no list with no events) so that ending or
                         * abandoning it frees nothing twice */
    return err;
}

cl_int skmd_enqueue_end(struct skmd_enqueue *e, cl_int err)
{
    if (e->wait && e->wait != e->small)
        free(e->wait);
    /* A member out of resources is a fault of that device, not a bad argument: say which
     * (the command is not redone elsewhere; the app gets the error). */
    if ((err == CL_OUT_OF_RESOURCES || err == CL_MEM_OBJECT_ALLOCATION_FAILURE) && e->queue) {
        int m = e->queue->member;
        skmd_log(SKMD_LOG_WARN, "member %d (%s) failed a command: %s; the app gets the error",
                 m, skmd_state.members[m].name, skmd_error_name(err));
    }
    if (err != CL_SUCCESS || !e->want)
        return err;
    *e->want = skmd_event_wrap(e->queue->context, e->queue, e->real_event);
    if (!*e->want) {
        real_clReleaseEvent(e->real_event);
        return CL_OUT_OF_HOST_MEMORY;
    }
    (*e->want)->host_set = skmd_span_event_is(e->real_event);
    return CL_SUCCESS;
}

int skmd_event_pending(cl_event ev)
{
    if (!ev->host_set)
        return 0; /* a device's command: no real command waits on a pending user event */
    cl_int status = CL_COMPLETE;
    real_clGetEventInfo(ev->real, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                        NULL);
    return status > CL_COMPLETE;
}

cl_int skmd_clRetainEvent(cl_event event)
{
    SKMD_RETAIN_AND_RETURN(event, EVENT, CL_INVALID_EVENT);
}

cl_int skmd_clReleaseEvent(cl_event event)
{
    SKMD_RELEASE_OR_RETURN(event, EVENT, CL_INVALID_EVENT);
    skmd_span_event_release(event->real);
    if (event->queue)
        skmd_clReleaseCommandQueue(event->queue);
    skmd_clReleaseContext(event->context);
    skmd_object_free(event);
    return CL_SUCCESS;
}

cl_int skmd_clWaitForEvents(cl_uint num_events, const cl_event *event_list)
{
    if (skmd_foreign_events(num_events, event_list)) /* SKMD_SHOW_REAL: real events */
        return real_clWaitForEvents(num_events, event_list);
    SKMD_RETURN_ERROR_IF(num_events == 0 || event_list == NULL, CL_INVALID_VALUE);
    cl_event small[16], *real = num_events <= 16 ? small : malloc(num_events * sizeof *real);
    SKMD_RETURN_ERROR_IF(!real, CL_OUT_OF_HOST_MEMORY);
    cl_int err = CL_SUCCESS;
    for (cl_uint i = 0; i < num_events && err == CL_SUCCESS; i++) {
        if (!SKMD_VALID(event_list[i], EVENT))
            err = CL_INVALID_EVENT;
        else if (event_list[i]->context != event_list[0]->context)
            err = CL_INVALID_CONTEXT;
        else
            real[i] = event_list[i]->real;
    }
    /* One at a time: the events may belong to different real contexts (a user event lives
     * on the executing member, a command's event on its queue's member). A failed event is
     * the app's error even where the driver says nothing of it (NVIDIA's wait on a user
     * event set to an error succeeds). */
    int failed = 0;
    for (cl_uint i = 0; i < num_events && err == CL_SUCCESS; i++) {
        cl_int status = CL_COMPLETE;
        err = real_clWaitForEvents(1, &real[i]);
        if (err == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
            err = CL_SUCCESS;
        if (err == CL_SUCCESS &&
            real_clGetEventInfo(real[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                                &status, NULL) == CL_SUCCESS && status < 0)
            failed = 1;
    }
    if (real != small)
        free(real);
    if (err == CL_SUCCESS && failed)
        err = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    if (err == CL_SUCCESS)
        skmd_placement_note_app_wait();
    return err;
}

cl_int skmd_clGetEventInfo(cl_event event, cl_event_info param_name, size_t param_value_size,
                           void *param_value, size_t *param_value_size_ret)
{
    SKMD_INFO_BEGIN(event, EVENT, CL_INVALID_EVENT, CL_EVENT_REFERENCE_COUNT);
    switch (param_name) {
    case CL_EVENT_COMMAND_QUEUE:
        return skmd_info_bytes(&out, &event->queue, sizeof event->queue);
    case CL_EVENT_CONTEXT:
        return skmd_info_bytes(&out, &event->context, sizeof event->context);
    case CL_EVENT_COMMAND_TYPE:
        if (event->type)
            return skmd_info_bytes(&out, &event->type, sizeof event->type);
        if (skmd_span_event_is(event->real)) { /* a split launch's (a transfer's has a type) */
            cl_command_type type = CL_COMMAND_NDRANGE_KERNEL;
            return skmd_info_bytes(&out, &type, sizeof type);
        }
        return real_clGetEventInfo(event->real, param_name, param_value_size, param_value,
                                   param_value_size_ret);
    default:
        return real_clGetEventInfo(event->real, param_name, param_value_size, param_value,
                                   param_value_size_ret);
    }
}

cl_int skmd_clGetEventProfilingInfo(cl_event event, cl_profiling_info param_name,
                                    size_t param_value_size, void *param_value,
                                    size_t *param_value_size_ret)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(event, EVENT), CL_INVALID_EVENT);
    if (skmd_span_event_is(event->real)) {
        cl_ulong t = 0;
        cl_int status = CL_QUEUED;
        real_clGetEventInfo(event->real, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                            &status, NULL);
        /* Looked up again after the status: the times are set before it completes. */
        cl_int err = status != CL_COMPLETE ? CL_PROFILING_INFO_NOT_AVAILABLE
                                           : skmd_span_event_time(event->real, param_name, &t);
        if (err == CL_SUCCESS) {
            struct skmd_info out = {param_value_size, param_value, param_value_size_ret};
            err = skmd_info_bytes(&out, &t, sizeof t);
        }
        return err;
    }
    return real_clGetEventProfilingInfo(event->real, param_name, param_value_size,
                                        param_value, param_value_size_ret);
}

/* The app's user events not yet set: while there are none, every command the app
 * enqueued completes by itself, and libskmd may wait for it on the app's thread. An event
 * released unset stays counted (what waits on it never completes). */
static atomic_int user_events_unset;

int skmd_may_finish_in_call(cl_bool blocking)
{
    return blocking || atomic_load_explicit(&user_events_unset, memory_order_acquire) == 0;
}

/* A user event lives on the executing member, where every command that waits for it
 * runs. */
cl_event skmd_clCreateUserEvent(cl_context context, cl_int *errcode_ret)
{
    cl_int errcode = CL_SUCCESS;
    cl_event ev = NULL, real = NULL;
    SKMD_GOTO_ERROR_IF(!SKMD_VALID(context, CONTEXT), CL_INVALID_CONTEXT);
    real = real_clCreateUserEvent(skmd_member_context(context, skmd_state.exec), &errcode);
    SKMD_GOTO_IF_REAL_FAILED(errcode);
    ev = skmd_event_wrap(context, NULL, real);
    SKMD_GOTO_ERROR_IF(!ev, CL_OUT_OF_HOST_MEMORY);
    ev->host_set = 1;
    atomic_fetch_add_explicit(&user_events_unset, 1, memory_order_acq_rel);
ERROR:
    if (errcode != CL_SUCCESS && real)
        real_clReleaseEvent(real);
    if (errcode_ret)
        *errcode_ret = errcode;
    return errcode == CL_SUCCESS ? ev : NULL;
}

cl_int skmd_clSetUserEventStatus(cl_event event, cl_int execution_status)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(event, EVENT), CL_INVALID_EVENT);
    SKMD_RETURN_ERROR_IF(event->queue != NULL, CL_INVALID_EVENT);
    cl_int err = skmd_user_event_set(event->real, execution_status);
    if (err == CL_SUCCESS) /* the driver refuses a second setting: counted once */
        atomic_fetch_sub_explicit(&user_events_unset, 1, memory_order_acq_rel);
    return err;
}

struct event_callback {
    void (CL_CALLBACK *fn)(cl_event, cl_int, void *);
    cl_event event;
    void *user_data;
};

/* Runs on the driver's thread, or libskmd's (a user event it sets): hands the app its own
 * (virtual) event. */
static void event_callback_run(cl_int status, void *data)
{
    struct event_callback *cb = data;
    int saved = skmd_app_callback_begin();
    cb->fn(cb->event, status, cb->user_data);
    skmd_app_callback_end(saved);
    skmd_clReleaseEvent(cb->event);
    free(cb);
}

static void CL_CALLBACK event_trampoline(cl_event real, cl_int status, void *data)
{
    (void)real;
    event_callback_run(status, data);
}

cl_int skmd_clSetEventCallback(cl_event event, cl_int command_exec_callback_type,
                               void (CL_CALLBACK *pfn_notify)(cl_event, cl_int, void *),
                               void *user_data)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(event, EVENT), CL_INVALID_EVENT);
    SKMD_RETURN_ERROR_IF(!pfn_notify, CL_INVALID_VALUE);
    cl_int type = command_exec_callback_type;
    SKMD_RETURN_ERROR_IF(type != CL_SUBMITTED && type != CL_RUNNING && type != CL_COMPLETE,
                         CL_INVALID_VALUE);
    struct event_callback *cb = malloc(sizeof *cb);
    SKMD_RETURN_ERROR_IF(!cb, CL_OUT_OF_HOST_MEMORY);
    *cb = (struct event_callback){pfn_notify, event, user_data};
    skmd_object_retain(&event->obj); /* the event lives until its callback has run */
    /* A user event that libskmd sets (the app's, a span event) has its callbacks run by
     * libskmd when it sets it, an error status included (user_event_callbacks.h). */
    cl_int err = event->host_set
                     ? skmd_user_event_callback_add(event->real, type, event_callback_run, cb)
                     : real_clSetEventCallback(event->real, type, event_trampoline, cb);
    if (err != CL_SUCCESS) {
        skmd_object_release(&event->obj);
        free(cb);
    }
    return err;
}
