/* libskmd/launch/defer.c: gated commands run on their queue's launcher thread (defer.h). */
#include <stdlib.h>
#include <string.h>

#include "device/api.h"
#include "launch/defer.h"
#include "device/eventspan.h"
#include "mem/inflight.h"
#include "device/worker.h"

struct deferred {
    cl_command_queue q;
    enum skmd_defer_kind kind;
    const struct skmd_defer_command *cmd; /* runs kinds other than SKMD_DEFER_RUN */
    cl_event *wait; /* real events, retained */
    cl_uint nwait;
    cl_event user;  /* the app's event (a span event), one reference ours; NULL: none */
    struct skmd_inflight *inflight;
    struct skmd_defer_args a;
};

static _Thread_local int running;

int skmd_defer_running(void)
{
    return running;
}

int skmd_defer_touches(cl_mem mem, int writes)
{
    return !running && mem && skmd_inflight_gated(mem, writes);
}

void skmd_defer_args_release(struct skmd_defer_args *a)
{
    for (int i = 0; i < 2; i++)
        if (a->mem[i])
            skmd_object_put(&a->mem[i]->obj);
    for (cl_uint i = 0; i < a->num_mems; i++)
        skmd_object_put(&a->mems[i]->obj);
    free(a->mems);
}

/* The command's four times, ordered, into the app's event (QUEUED and SUBMIT no later
 * than the span event's own, which were taken at the enqueue). */
static void take_times(struct deferred *d, cl_event ev, cl_event real)
{
    static const cl_profiling_info which[4] = {
        CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_COMMAND_START,
        CL_PROFILING_COMMAND_END};
    cl_ulong t[4];
    for (int i = 0; i < 4; i++) {
        cl_int err = ev ? d->cmd->profiling(ev, which[i], &t[i])
                        : real_clGetEventProfilingInfo(real, which[i], sizeof t[i], &t[i],
                                                       NULL);
        if (err != CL_SUCCESS)
            return; /* the span event's host times stand (skmd_span_event_set) */
    }
    for (int i = 1; i < 4; i++)
        t[i] = t[i] < t[i - 1] ? t[i - 1] : t[i];
    skmd_span_event_times(d->user, t);
}

static void job_main(void *arg)
{
    struct deferred *d = arg;
    cl_command_queue q = d->q;
    cl_int status = CL_SUCCESS;
    for (cl_uint i = 0; i < d->nwait; i++) {
        cl_int s = CL_COMPLETE;
        real_clWaitForEvents(1, &d->wait[i]);
        real_clGetEventInfo(d->wait[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL);
        if (s < 0)
            status = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
        real_clReleaseEvent(d->wait[i]);
    }
    free(d->wait);
    skmd_inflight_wait_earlier(d->inflight);
    skmd_inflight_ungate(d->inflight);
    skmd_inflight_self = d->inflight;
    running = 1;
    cl_event ev = NULL, real = NULL;
    if (status == CL_SUCCESS && d->kind == SKMD_DEFER_RUN)
        status = d->a.run(q, d->a.arg, &real);
    else if (status == CL_SUCCESS)
        status = d->cmd->run(q, d->kind, &d->a, &ev);
    running = 0;
    if (ev)
        real = ev->real;
    cl_int s = CL_COMPLETE;
    if (real && status == CL_SUCCESS) {
        real_clWaitForEvents(1, &real);
        real_clGetEventInfo(real, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL);
        if (s < 0)
            status = s;
        else if (d->user && (q->properties & CL_QUEUE_PROFILING_ENABLE))
            take_times(d, ev, real);
    }
    if (ev)
        skmd_object_put(&ev->obj);
    else if (real)
        real_clReleaseEvent(real);
    skmd_inflight_self = NULL;
    skmd_inflight_end(d->inflight);
    if (d->kind == SKMD_DEFER_RUN && d->a.done)
        d->a.done(d->a.arg);
    skmd_defer_args_release(&d->a);
    atomic_fetch_sub_explicit(&q->gated, 1, memory_order_acq_rel);
    if (d->user) { /* last: the app may go on as soon as it is set */
        skmd_span_event_set(d->user, status == CL_SUCCESS ? CL_COMPLETE
                                     : status < 0         ? status
                                                          : CL_OUT_OF_RESOURCES);
        real_clReleaseEvent(d->user);
    }
    free(d);
}

/* Registers d (wait list of real events already retained in d) and posts it; the app's
 * span event (a reference for the caller) in *user when asked. */
static cl_int post(struct deferred *d, const cl_mem *mems, const unsigned char *writes,
                   unsigned nm, int want_event, cl_event *user)
{
    cl_command_queue q = d->q;
    cl_int err = CL_SUCCESS;
    if (want_event && !(d->user = skmd_span_event_new(q, &err)))
        return err;
    d->inflight = skmd_inflight_begin(mems, writes, nm, 1);
    if (!d->inflight) {
        if (d->user)
            skmd_span_event_release(d->user);
        return CL_OUT_OF_HOST_MEMORY;
    }
    atomic_fetch_add_explicit(&q->gated, 1, memory_order_acq_rel);
    if (d->user) {
        real_clRetainEvent(d->user); /* one for the caller, one for the job */
        *user = d->user;
    }
    err = skmd_launcher_post(q, job_main, d);
    if (err != CL_SUCCESS) {
        atomic_fetch_sub_explicit(&q->gated, 1, memory_order_acq_rel);
        skmd_inflight_end(d->inflight);
        if (d->user) {
            real_clReleaseEvent(d->user);
            skmd_span_event_release(d->user);
        }
    }
    return err;
}

static void abandon(struct deferred *d)
{
    for (cl_uint i = 0; i < d->nwait; i++)
        real_clReleaseEvent(d->wait[i]);
    free(d->wait);
    skmd_defer_args_release(&d->a);
    free(d);
}

static struct deferred *new_deferred(cl_command_queue q, enum skmd_defer_kind kind,
                                     cl_uint n, struct skmd_defer_args *args)
{
    struct deferred *d = calloc(1, sizeof *d);
    if (d && n && !(d->wait = malloc(n * sizeof *d->wait))) {
        free(d);
        d = NULL;
    }
    if (!d) {
        skmd_defer_args_release(args);
        return NULL;
    }
    d->q = q;
    d->kind = kind;
    d->a = *args;
    return d;
}

cl_int skmd_defer_post(cl_command_queue q, enum skmd_defer_kind kind,
                       const struct skmd_defer_command *cmd, cl_uint n, const cl_event *wl,
                       const cl_mem *mems, const unsigned char *writes, unsigned nm,
                       struct skmd_defer_args *args, int want_user, cl_event *user)
{
    struct deferred *d = new_deferred(q, kind, n, args);
    if (!d)
        return CL_OUT_OF_HOST_MEMORY;
    d->cmd = cmd;
    for (cl_uint i = 0; i < n; i++)
        real_clRetainEvent(d->wait[d->nwait++] = wl[i]->real);
    cl_int err = post(d, mems, writes, nm, want_user, user);
    if (err != CL_SUCCESS)
        abandon(d);
    return err;
}

cl_int skmd_defer_real(cl_command_queue q, cl_uint n,
                       const cl_event *real_wait, const cl_mem *mems,
                       const unsigned char *writes, unsigned nm, struct skmd_defer_args *args,
                       cl_event *real_event)
{
    struct deferred *d = new_deferred(q, SKMD_DEFER_RUN, n, args);
    if (!d)
        return CL_OUT_OF_HOST_MEMORY;
    for (cl_uint i = 0; i < n; i++)
        real_clRetainEvent(d->wait[d->nwait++] = real_wait[i]);
    cl_int err = post(d, mems, writes, nm, real_event != NULL, real_event);
    if (err != CL_SUCCESS)
        abandon(d);
    return err;
}
