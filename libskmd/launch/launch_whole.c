/* libskmd/launch/launch_whole.c: whole launches. A launch that is not split runs as the app
 * launched it on the queue's member, from the app's thread, after every buffer argument
 * is fetched there whole; its written buffers are then that member's alone. When that
 * member cannot run it (a fault, no program, a buffer it cannot hold) it is redone on
 * another member and waited for. A whole launch that may wait for a user event the app
 * has not set is deferred to the queue's launcher thread (defer.h). */
#include <stdlib.h>

#include "device/event_time.h"
#include "mem/coherence.h"
#include "launch/defer.h"
#include "mem/inflight.h"
#include "launch/launch_commit.h"
#include "launch/launch_enqueue.h"
#include "launch/launch_plan.h"
#include "launch/launch_report.h"
#include "launch/launch_whole.h"
#include "support/log.h"
#include "mem/member_health.h"
#include "launch/trace_whole.h"

/* The launch's buffers (one entry per argument, NULL for the others); their count. */
static unsigned arg_mems(const struct launch *L, cl_mem *mems)
{
    unsigned n = 0;
    for (cl_uint a = 0; a < L->k->nargs && n < 256; a++)
        mems[n++] = L->args[a].mem;
    return n;
}

/* Member m's copies of what the launch writes may be half-written (a failed launch):
 * stale wherever another copy is current. */
static void forget_whole_writes(struct launch *L, int m)
{
    for (cl_uint a = 0; a < L->k->nargs; a++)
        if (L->args[a].mem && launch_arg_written(L, a)) {
            skmd_buffer_lock(L->args[a].mem);
            skmd_coh_forget(L->args[a].mem, m, 0, L->args[a].mem->size);
            skmd_buffer_unlock(L->args[a].mem);
        }
}

/* Every buffer of the launch whole on member m: unknown writes may leave any byte as it
 * was, so the copy must be whole first. */
static cl_int fetch_whole(struct launch *L, int m)
{
    cl_int err = CL_SUCCESS;
    for (cl_uint a = 0; a < L->k->nargs && err == CL_SUCCESS; a++) {
        cl_mem mem = L->args[a].mem;
        if (!mem)
            continue;
        skmd_inflight_wait_mem(mem, launch_arg_written(L, a));
        /* read whole on one member: see note_readers (launch_commit.c) */
        __atomic_store_n(&skmd_mem_root(mem)->spread, 0, __ATOMIC_RELAXED);
        err = launch_fetch_locked(L, mem, m, 0, mem->size);
    }
    return err;
}

/* What the launch writes is member m's alone (written bytes unknown: whole buffers). */
static cl_int mark_whole_written(struct launch *L, int m)
{
    cl_int err = CL_SUCCESS;
    for (cl_uint a = 0; a < L->k->nargs && err == CL_SUCCESS; a++)
        if (L->args[a].mem && launch_arg_written(L, a))
            err = launch_written_locked(L->args[a].mem, m, 0, L->args[a].mem->size);
    return err;
}

/* The whole launch after its member could not run it: on another member, on libskmd's
 * own queue there, waited for (a fault path: the launch's event must be seen to end
 * well), each member that fails it in turn left out. The app's earlier commands and wait
 * list complete first (their bytes are read from where they are). */
static cl_int redo_whole(struct launch *L, const size_t *offset, const size_t *global,
                         const size_t *local, struct skmd_enqueue *e, int bad)
{
    cl_mem mems[256];
    unsigned nmems = arg_mems(L, mems);
    real_clFinish(L->q->real); /* its error, if any, is the failed member's */
    if (e->nwait && real_clWaitForEvents(e->nwait, e->wait) != CL_SUCCESS)
        return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    for (;;) {
        int m = skmd_member_for_kernel(L->k, bad, mems, nmems);
        if (m < 0) {
            /* Members not up yet (cl/bring_up.h) may run it once brought up. */
            cl_context ctx = L->k->program->context;
            unsigned before = atomic_load_explicit(&ctx->up, memory_order_acquire);
            ctx->bring_up(ctx, "a launch to redo elsewhere", 1);
            if (atomic_load_explicit(&ctx->up, memory_order_acquire) != before)
                continue;
        }
        if (m < 0) {
            /* A buffer no member could allocate: the specification's allocation error. */
            unsigned all = (1u << skmd_state.nmembers) - 1, refused_everywhere = 0;
            for (unsigned i = 0; i < nmems; i++)
                refused_everywhere |=
                    mems[i] && (__atomic_load_n(&skmd_mem_root(mems[i])->refused,
                                                 __ATOMIC_RELAXED) & all) == all;
            skmd_log(SKMD_LOG_ERROR, "launch of %s: no member is left that can run it%s",
                     L->k->name, refused_everywhere ? " (a buffer no member can allocate)" : "");
            return refused_everywhere ? CL_MEM_OBJECT_ALLOCATION_FAILURE : CL_OUT_OF_RESOURCES;
        }
        cl_int err = fetch_whole(L, m);
        if (err != CL_SUCCESS) {
            if (launch_member_may_run(L, m))
                return err; /* not m's fault: its inputs cannot be had (the log says why) */
            continue;
        }
        cl_command_queue wq = skmd_work_queue(L->q->context, m, &err);
        const struct skmd_member *member = &skmd_state.members[m];
        cl_event ev = NULL;
        if (wq)
            err = launch_enqueue(L, &(struct launch_command){.kernel = L->k->real[m],
                                                             .member = m, .queue = wq,
                                                             .offset = offset,
                                                             .global = global, .local = local,
                                                             .event = &ev});
        if (err == CL_SUCCESS)
            err = skmd_event_wait_status(ev);
        if (err != CL_SUCCESS) {
            if (ev)
                real_clReleaseEvent(ev);
            if (skmd_fault_of(err) == SKMD_FAULT_NONE)
                return err;
            forget_whole_writes(L, m);
            skmd_member_kernel_failed(m, err, L->k->name);
            continue;
        }
        err = mark_whole_written(L, m);
        skmd_log(SKMD_LOG_WARN, "launch of %s: member %d (%s) could not run it; redone whole "
                 "on member %d (%s)", L->k->name, bad, skmd_state.members[bad].name, m,
                 member->name);
        if (err == CL_SUCCESS && e->event)
            *e->event = skmd_done_event(L->q, ev, &err);
        else
            real_clReleaseEvent(ev);
        return err;
    }
}

/* The whole launch on the queue's member (pass-through of the app's arguments), from the
 * app's thread: it first waits for split launches in flight on its buffers. When that
 * member cannot run it (a fault, no program, a buffer it cannot hold), redo_whole. */
cl_int launch_run_whole(struct launch *L, const size_t *offset, const size_t *global,
                        const size_t *local, struct skmd_enqueue *e)
{
    int m = L->q->member;
    if (!launch_member_may_run(L, m))
        return redo_whole(L, offset, global, local, e, m);
    cl_int err = fetch_whole(L, m);
    if (err != CL_SUCCESS)
        return launch_member_may_run(L, m) ? err : redo_whole(L, offset, global, local, e, m);
    struct skmd_trace_whole traced;
    cl_event *event = skmd_trace_whole_begin(&traced, e->event);
    /* This launch's arguments (a launch thread may have set older ones since). */
    err = launch_enqueue(L, &(struct launch_command){.kernel = L->k->real[m], .member = m,
                                                     .queue = L->q->real, .offset = offset,
                                                     .global = global, .local = local,
                                                     .nwait = e->nwait, .wait = e->wait,
                                                     .event = event});
    uint64_t groups = 1; /* for the trace; 0 when the driver chooses the local size */
    for (cl_uint d = 0; d < L->shape.work_dim; d++)
        groups *= local ? (global[d] + local[d] - 1) / local[d] : 0;
    skmd_trace_whole_end(&traced, err, event, m, L->k->name, L->number, groups);
    if (err == CL_SUCCESS)
        return mark_whole_written(L, m);
    enum skmd_fault fault = skmd_fault_of(err);
    if (fault == SKMD_FAULT_NONE)
        return err;
    if (fault == SKMD_FAULT_ALLOC) /* which buffer is not said: none of them there */
        for (cl_uint a = 0; a < L->k->nargs; a++)
            if (L->args[a].mem)
                skmd_mem_refuse(L->args[a].mem, m);
    forget_whole_writes(L, m);
    skmd_member_kernel_failed(m, err, L->k->name);
    return redo_whole(L, offset, global, local, e, m);
}

/* A whole launch that may wait for the app (defer.h): on the queue's launcher. */
struct whole_job {
    struct launch *L;
    const char *why;
    size_t offset[3], global[3], local[3];
    int has_offset, has_local;
};

/* The deferred whole launch, on the launcher, when what it waits for is done. */
static cl_int whole_run(cl_command_queue q, void *arg, cl_event *real_event)
{
    struct whole_job *w = arg;
    struct skmd_enqueue e = {.queue = q};
    e.event = real_event ? &e.real_event : NULL;
    cl_int err = launch_run_whole(w->L, w->has_offset ? w->offset : NULL, w->global,
                                  w->has_local ? w->local : NULL, &e);
    if (real_event)
        *real_event = err == CL_SUCCESS ? e.real_event : NULL;
    return err;
}

/* After a deferred whole launch: its report, then the launch is let go. */
static void whole_done(void *arg)
{
    struct whole_job *w = arg;
    launch_report(w->L, w->why, w->L->shares, 0, w->L->t0);
    launch_free(w->L);
    free(w);
}

/* Hands a whole launch that may wait for the app to the queue's launcher (defer.h),
 * which runs it in its turn, then reports and frees it. */
cl_int launch_defer_whole(struct launch *L, const size_t *offset, const size_t *global,
                          const size_t *local, struct skmd_enqueue *e, const char *why)
{
    struct whole_job *w = calloc(1, sizeof *w);
    if (!w)
        return CL_OUT_OF_HOST_MEMORY;
    *w = (struct whole_job){L, why, {0}, {0}, {0}, offset != NULL, local != NULL};
    for (cl_uint d = 0; d < L->shape.work_dim; d++) {
        w->offset[d] = offset ? offset[d] : 0;
        w->global[d] = global[d];
        w->local[d] = local ? local[d] : 0;
    }
    cl_mem mems[256];
    unsigned char writes[256];
    unsigned n = 0;
    for (cl_uint a = 0; a < L->k->nargs && n < 256; a++)
        if (L->args[a].mem) {
            mems[n] = L->args[a].mem;
            writes[n++] = launch_arg_written(L, a);
        }
    struct skmd_defer_args args = {.run = whole_run, .done = whole_done, .arg = w};
    cl_int err = skmd_defer_real(L->q, e->nwait, e->wait, mems, writes, n, &args, e->event);
    if (err != CL_SUCCESS)
        free(w);
    return err;
}
