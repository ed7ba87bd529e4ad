/* libskmd/launch/launch.c: one launch's life, whole or split, from clEnqueueNDRangeKernel
 * to its event. The launch snapshots the app's arguments (the app may set new ones while it
 * runs) and is planned (launch_plan.c). A split launch returns at once: on the app's real
 * queue it puts a marker `before` (everything queued before it), the app's event is a user
 * event (eventspan.h), and the queue's launcher thread (worker.c) waits for the app's wait
 * list, for `before` and for earlier launches on the same buffers (inflight.h), runs the
 * shares (launch_shares.c), ends its in-flight entry, reports (launch_report.c) and sets
 * the event. A launch that is not split runs whole (launch_whole.c). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "support/clock.h"
#include "launch/defer.h"
#include "device/eventspan.h"
#include "mem/inflight.h"
#include "launch/launch.h"
#include "launch/launch_commit.h"
#include "launch/launch_plan.h"
#include "launch/launch_report.h"
#include "launch/launch_shares.h"
#include "launch/launch_whole.h"
#include "support/log.h"
#include "launch/verify.h"
#include "device/worker.h"

static atomic_uint_least64_t launch_number;

static cl_int snapshot_args(struct launch *L);
static cl_int start_async(struct launch *L, struct skmd_enqueue *e);
static void launch_main(void *arg);
static const struct skmd_verify_launch *verify_view(struct launch *L,
                                                    const struct skmd_share_view *view,
                                                    struct skmd_verify_launch *v);

/* The launch of clEnqueueNDRangeKernel: split (queued to the launcher, returns at once)
 * or whole. */
cl_int skmd_launch_ndrange(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *offset,
                           const size_t *global, const size_t *local, struct skmd_enqueue *e)
{
    struct launch *L = calloc(1, sizeof *L);
    if (!L)
        return CL_OUT_OF_HOST_MEMORY;
    L->t0 = skmd_now_ns();
    L->q = q;
    L->k = k;
    L->rec = k->rec;
    L->shape.work_dim = dims;
    for (cl_uint d = 0; d < dims && d < 3; d++)
        L->app_global[d] = global[d], L->app_local[d] = local ? local[d] : 0;
    pthread_mutex_init(&L->moved_lock, NULL);
    skmd_object_retain(&k->obj);
    L->args = calloc(k->nargs ? k->nargs : 1, sizeof *L->args);
    if (!L->args) {
        pthread_mutex_destroy(&L->moved_lock);
        free(L);
        skmd_object_put(&k->obj);
        return CL_OUT_OF_HOST_MEMORY;
    }
    cl_int err = snapshot_args(L);
    if (err == CL_SUCCESS)
        launch_note_streams(L);
    /* A launch on a buffer that a gated command in flight touches is gated too. */
    for (cl_uint a = 0; a < k->nargs && err == CL_SUCCESS && !e->gated; a++)
        e->gated = L->args[a].mem && skmd_defer_touches(L->args[a].mem, 1);
    const char *why = err == CL_SUCCESS
                          ? launch_plan(L, offset, global, local, L->shares, &L->nshares)
                          : "arguments";
    L->why_code = err == CL_SUCCESS ? L->why_code : "arguments";
    if (err == CL_SUCCESS && !why) {
        if (start_async(L, e) == CL_SUCCESS)
            return CL_SUCCESS; /* L belongs to the launcher thread now */
        why = "split launch could not be queued";
        L->why_code = "queue_failed";
    }
    L->number = atomic_fetch_add(&launch_number, 1) + 1;
    if (err == CL_SUCCESS)
        launch_tell_whole_once(L, why);
    if (err == CL_SUCCESS && e->gated) {
        err = launch_defer_whole(L, offset, global, local, e, why);
        if (err == CL_SUCCESS)
            return CL_SUCCESS; /* L belongs to the launcher thread now */
    } else if (err == CL_SUCCESS)
        err = launch_run_whole(L, offset, global, local, e);
    launch_report(L, why, L->shares, 0, L->t0);
    launch_free(L);
    return err;
}

/* A snapshot of the arguments: the app may set new ones while this launch runs. Each
 * buffer is retained until the launch is done. */
static cl_int snapshot_args(struct launch *L)
{
    cl_kernel k = L->k;
    pthread_mutex_lock(&k->obj.lock);
    memcpy(L->args, k->args, k->nargs * sizeof *L->args);
    cl_int err = CL_SUCCESS;
    for (cl_uint a = 0; a < k->nargs; a++) {
        L->args[a].value = NULL;
        if (k->args[a].value && (L->args[a].value = malloc(k->args[a].size)))
            memcpy(L->args[a].value, k->args[a].value, k->args[a].size);
        else if (k->args[a].value)
            err = CL_OUT_OF_HOST_MEMORY;
        if (L->args[a].mem && !skmd_registry_has(L->args[a].mem)) {
            L->args[a].mem = NULL;
            err = CL_INVALID_MEM_OBJECT; /* released since clSetKernelArg */
        }
        if (L->args[a].mem)
            skmd_object_retain(&L->args[a].mem->obj); /* until the launch is done */
    }
    pthread_mutex_unlock(&k->obj.lock);
    return err;
}

/* Puts `before` on the app's queue, makes the app's event and hands the launch to the
 * queue's launcher thread. */
static cl_int start_async(struct launch *L, struct skmd_enqueue *e)
{
    cl_command_queue q = L->q;
    if (e->nwait && !(L->wait = malloc(e->nwait * sizeof *L->wait)))
        return CL_OUT_OF_HOST_MEMORY;
    cl_int err = real_clEnqueueMarkerWithWaitList(q->real, 0, NULL, &L->before);
    if (err != CL_SUCCESS) {
        free(L->wait);
        L->wait = NULL;
        return err;
    }
    if (e->event)
        L->user = skmd_span_event_new(q, &err);
    if (err == CL_SUCCESS)
        err = real_clFlush(q->real);
    if (err == CL_SUCCESS) {
        cl_mem mems[256];
        unsigned char writes[256];
        unsigned n = 0;
        for (cl_uint a = 0; a < L->k->nargs && n < 256; a++, n++) {
            mems[n] = L->args[a].mem;
            writes[n] = (L->rec->params[a].access & SKMD_ACCESS_WRITE) != 0;
        }
        L->inflight = skmd_inflight_begin(mems, writes, n, e->gated);
        err = L->inflight ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    }
    if (err != CL_SUCCESS) {
        if (L->user)
            skmd_span_event_release(L->user);
        real_clReleaseEvent(L->before);
        free(L->wait);
        L->user = L->before = NULL;
        L->wait = NULL;
        return err;
    }
    for (cl_uint i = 0; i < e->nwait; i++)
        real_clRetainEvent(L->wait[i] = e->wait[i]);
    L->nwait = e->nwait;
    if (L->user) {
        real_clRetainEvent(L->user); /* one for the app, one for the launch */
        *e->event = L->user;
    }
    /* With a 'basic' member, on the app's thread unless it may wait for the app. */
    L->gated = e->gated;
    if (L->gated)
        atomic_fetch_add_explicit(&q->gated, 1, memory_order_acq_rel);
    if (launch_serial() && !L->gated) {
        /* One split launch at a time in the process: two app threads' launches on a
         * 'basic' member's queue deadlock inside PoCL as above. */
        static pthread_mutex_t one_at_a_time = PTHREAD_MUTEX_INITIALIZER;
        pthread_mutex_lock(&one_at_a_time);
        launch_main(L); /* here, to its end */
        pthread_mutex_unlock(&one_at_a_time);
    } else if (skmd_launcher_post(q, launch_main, L) != CL_SUCCESS) {
        launch_main(L);
    }
    return CL_SUCCESS;
}

/* A split launch on its queue's launcher thread, from `before` to the app's event. */
static void launch_main(void *arg)
{
    struct launch *L = arg;
    cl_int status = L->nwait ? real_clWaitForEvents(L->nwait, L->wait) : CL_SUCCESS;
    for (cl_uint i = 0; i < L->nwait; i++)
        real_clReleaseEvent(L->wait[i]);
    free(L->wait);
    if (status == CL_SUCCESS)
        status = real_clWaitForEvents(1, &L->before);
    cl_int before_status = CL_COMPLETE;
    real_clGetEventInfo(L->before, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof before_status,
                        &before_status, NULL);
    L->queued_valid =
        L->user &&
        real_clGetEventProfilingInfo(L->before, CL_PROFILING_COMMAND_QUEUED,
                                     sizeof L->queued[0], &L->queued[0], NULL) == CL_SUCCESS &&
        real_clGetEventProfilingInfo(L->before, CL_PROFILING_COMMAND_SUBMIT,
                                     sizeof L->queued[1], &L->queued[1], NULL) == CL_SUCCESS;
    real_clReleaseEvent(L->before);
    if (status == CL_SUCCESS && before_status < 0)
        status = before_status;
    else if (status != CL_SUCCESS)
        status = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    skmd_inflight_wait_earlier(L->inflight);
    if (L->gated) /* from here on it ends by itself */
        skmd_inflight_ungate(L->inflight);
    L->number = atomic_fetch_add(&launch_number, 1) + 1;
    const char *why = status == CL_SUCCESS ? NULL : "an event of its wait list failed";
    L->why_code = status == CL_SUCCESS ? NULL : "wait_list_failed";
    struct skmd_share_view view = {L->rec, L->args, L->scalars, &L->shape};
    struct skmd_verify_launch verify;
    /* Its inputs as the split finds them (the launches it waited for are done). */
    struct skmd_verify *check =
        status == CL_SUCCESS && L->nshares >= 2 && skmd_verify_enabled()
            ? skmd_verify_begin(verify_view(L, &view, &verify))
            : NULL;
    if (status == CL_SUCCESS) {
        uint64_t start = skmd_now_ns();
        status = launch_run_split(L);
        if (status == CL_SUCCESS) /* the plan's guard compares split and whole launches */
            skmd_plan_observe_wall(&L->ticket, (double)(skmd_now_ns() - start) / 1e6);
        if (status != CL_SUCCESS) {
            skmd_log(SKMD_LOG_WARN, "split launch of %s failed (%d): run as one share",
                     L->k->name, status);
            why = "split launch failed";
            L->why_code = "split_failed";
            status = launch_run_as_one_share(L);
            if (status != CL_SUCCESS)
                skmd_log(SKMD_LOG_ERROR, "launch of %s failed on every member (%d): its "
                         "event completes with that error", L->k->name, status);
        }
    }
    /* While the launch still holds its buffers: nothing else has touched them. */
    if (check)
        skmd_verify_end(check, verify_view(L, &view, &verify), why == NULL);
    skmd_inflight_end(L->inflight);
    launch_report(L, why, L->shares, why ? 0 : L->nshares, L->t0);
    if (L->gated)
        atomic_fetch_sub_explicit(&L->q->gated, 1, memory_order_acq_rel);
    if (L->user) {
        if (L->queued_valid && L->span_valid) {
            cl_ulong t[4] = {L->queued[0], L->queued[1], L->span_start, L->span_end};
            t[2] = t[2] < t[1] ? t[1] : t[2]; /* never before its submission */
            t[3] = t[3] < t[2] ? t[2] : t[3];
            skmd_span_event_times(L->user, t);
        }
        /* Last: the app may go on (and free what it likes) as soon as this is set. */
        skmd_span_event_set(L->user, status == CL_SUCCESS ? CL_COMPLETE
                                     : status < 0         ? status
                                                          : CL_OUT_OF_RESOURCES);
        real_clReleaseEvent(L->user);
    }
    launch_free(L);
}

/* The launch as SKMD_VERIFY sees it (verify.h): its shares as they are now, and the
 * member that runs it whole for reference (the queue's, if it can). */
static const struct skmd_verify_launch *verify_view(struct launch *L,
                                                    const struct skmd_share_view *view,
                                                    struct skmd_verify_launch *v)
{
    *v = (struct skmd_verify_launch){.number = L->number, .k = L->k, .view = view,
                                     .context = L->q->context, .whole_member = -1,
                                     .nshares = L->nshares};
    for (int i = 0; i < skmd_state.nmembers && v->whole_member < 0; i++) {
        int m = (L->q->member + i) % skmd_state.nmembers;
        if (launch_member_may_run(L, m))
            v->whole_member = m;
    }
    for (int s = 0; s < L->nshares; s++) {
        v->member[s] = L->shares[s].member;
        v->first[s] = L->shares[s].first;
        v->count[s] = L->shares[s].count;
    }
    return v;
}
