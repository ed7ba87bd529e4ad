/* libskmd/split.c: split launches.
 *
 * clEnqueueNDRangeKernel returns as soon as a split launch is queued: on the app's real
 * queue it puts a marker `before` (everything queued before it); the app's event is a
 * user event (eventspan.h). The queue's launcher thread (worker.c) waits for the app's
 * wait list, for `before` and for earlier launches on the same buffers (inflight.h), then gives
 * each member its contiguous range of linear work-groups as a sub-range launch of the
 * partition-ready kernel on the member's own queue, one thread per member, after moving
 * to it only the stale bytes its share reads, and finally sets the user event.
 * Written bytes stay on the member that wrote them when the footprint is exact; else the
 * merge kernel folds each other member's writes into the merge member's (a CPU) copy.
 * A share that fails is redone on another member. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../transform/record.h"
#include "coherence.h"
#include "config.h"
#include "defer.h"
#include "eventspan.h"
#include "fetch_batch.h"
#include "gather.h"
#include "host_busy.h"
#include "inflight.h"
#include "log.h"
#include "member_health.h"
#include "parallel.h"
#include "pieces.h"
#include "plan.h"
#include "report.h"
#include "share.h"
#include "share_align.h"
#include "share_rect.h"
#include "share_source.h"
#include "split.h"
#include "stream_out.h"
#include "trace.h"
#include "trace_whole.h"
#include "verify.h"
#include "worker.h"

#define MAX_INTERVALS SKMD_SHARE_INTERVALS

static atomic_uint_least64_t launch_number;

struct launch;

struct share {
    int member;
    uint64_t first, count;
    int done;                       /* 1 ran, -1 failed */
    cl_int err;                     /* why it failed */
    cl_event ev;
    struct launch *L;
    uint64_t start_ns;              /* host clock, for the trace */
    uint64_t launch_ns;             /* host clock when its inputs were in place */
    uint64_t end_ns;                /* host clock when it was done (the plan's finish) */
    int timed;                      /* t_start/t_end hold the kernel's device times */
    cl_ulong t_start, t_end;        /* member's device clock */
    double ms; /* kernel time (profiling), -1: unknown */
    cl_event timing[2]; /* source route: first and last box (NULL: ev times the share) */
    int pieces;         /* > 1: run in this many pieces (pieces.h) */
    double pieces_ms;   /* their kernel times summed (-1: unknown) */
    unsigned char streamed[256]; /* 1: its writes of param p are in the host copy too */
};

struct launch {
    cl_command_queue q;
    cl_kernel k;
    const struct skmd_kernel_record *rec;
    struct skmd_arg *args;          /* snapshot */
    int64_t scalars[256];
    struct skmd_launch shape;
    size_t local[3];
    uint64_t ngroups[3], total_groups;
    unsigned char merge_param[256]; /* 1: written bytes not exactly known */
    unsigned char bound_param[256]; /* 1: written bytes bounded, bounds disjoint (fetched
                                       before the share, committed after it) */
    unsigned char rect_param[256];  /* 1: each share writes exactly a box, boxes disjoint
                                       (committed with rectangular copies, share_rect.h) */
    uint64_t unit;                  /* shares are multiples of this many groups */
    int merge_probe;                /* shares cut evenly at multiples of unit need the merge
                                       (skmd_share_unit_merge: probed once a launch) */
    unsigned char stream_param[256]; /* 1: stream what the shares write to it (stream_out.h) */
    int merge_member;               /* -1: none needed */
    struct skmd_moved moved;
    struct skmd_gather gather;      /* inputs the first share that needs them moves for all */
    uint64_t number;
    struct share shares[SKMD_MAX_MEMBERS];
    int nshares;
    /* Asynchronous completion (split launches only). */
    cl_event before;                /* marker on the app's queue: the commands before it */
    cl_event *wait;                 /* the app's wait list (real, retained), waited for on
                                       the launcher: no real command depends on it */
    cl_uint nwait;
    cl_event user;                  /* the app's event (eventspan.h), NULL: none asked */
    int gated;                      /* may wait for an unset user event (defer.h): on the
                                       launcher even with serial launches; counted in
                                       q->gated until done */
    cl_ulong queued[2];             /* QUEUED, SUBMIT of `before` (app device's clock) */
    int queued_valid;
    struct skmd_inflight *inflight;
    uint64_t t0;
    int span_valid;                 /* span_start/end hold device times of q's member */
    cl_ulong span_start, span_end;
    pthread_mutex_t moved_lock;     /* `moved` is added to by the share threads */
    struct skmd_plan_ticket ticket; /* what the shares were decided from (plan.c) */
    int observed;                   /* the plan was told the shares' times */
};

/* Adds one share's (or step's) bytes to the launch's. */
static void add_moved(struct launch *L, const struct skmd_moved *m)
{
    pthread_mutex_lock(&L->moved_lock);
    L->moved.to_devices += m->to_devices;
    L->moved.to_host += m->to_host;
    L->moved.peer += m->peer;
    pthread_mutex_unlock(&L->moved_lock);
}

/* Widens the launch's profiling span by [start, end) of member m's clock. */
static void widen_span(struct launch *L, int m, cl_ulong start, cl_ulong end)
{
    if (!L->user)
        return;
    int to = L->q->member;
    start = skmd_device_time_convert(m, to, start);
    end = skmd_device_time_convert(m, to, end);
    pthread_mutex_lock(&L->moved_lock);
    if (!L->span_valid || start < L->span_start)
        L->span_start = start;
    if (!L->span_valid || end > L->span_end)
        L->span_end = end;
    L->span_valid = 1;
    pthread_mutex_unlock(&L->moved_lock);
}

/* The fetch of coherence.h under the buffer's lock, counting into the launch. */
static cl_int fetch_locked(struct launch *L, cl_mem mem, int dst, uint64_t b, uint64_t e)
{
    struct skmd_moved moved = {0, 0, 0};
    skmd_buffer_lock(mem);
    cl_int err = skmd_gather_take(&L->gather, mem, dst, &moved);
    if (err == CL_SUCCESS)
        err = skmd_coh_fetch(mem, dst, b, e, &moved);
    skmd_buffer_unlock(mem);
    add_moved(L, &moved);
    return err;
}

static cl_int written_locked(cl_mem mem, int owner, uint64_t b, uint64_t e)
{
    skmd_buffer_lock(mem);
    cl_int err = skmd_coh_written(mem, owner, b, e);
    skmd_buffer_unlock(mem);
    return err;
}

/* PoCL 3.1's 'basic' device runs commands in whichever thread submits or completes work
 * on it, and deadlocks when that thread also completes another queue's command on the
 * device (seen here with the app queue's markers; pocl issue 1177 is the same family).
 * With such a member, split launches run to their end on the app's thread, shares in
 * turn, as one thread would. */
static int serial_launches(void)
{
    static atomic_int cached = -1;
    int serial = atomic_load(&cached);
    if (serial < 0) {
        serial = 0;
        for (int m = 0; m < skmd_state.nmembers; m++)
            serial |= strncmp(skmd_state.members[m].name, "basic", 5) == 0;
        if (serial)
            skmd_log(SKMD_LOG_INFO, "a PoCL 'basic' member: every split launch runs on the "
                     "app's thread (no launcher or share threads)");
        atomic_store(&cached, serial);
    }
    return serial;
}

static int fault_member(void)
{
    const char *v = skmd_config()->fault_member;
    return v[0] ? atoi(v) : -1;
}

static int is_buffer_param(const struct launch *L, unsigned p)
{
    enum skmd_param_kind kind = L->rec->params[p].kind;
    return (kind == SKMD_PARAM_GLOBAL || kind == SKMD_PARAM_CONSTANT) && L->args[p].mem;
}

/* The launch's buffers (one entry per argument, NULL for the others); their count. */
static unsigned launch_mems(const struct launch *L, cl_mem *mems)
{
    unsigned n = 0;
    for (cl_uint a = 0; a < L->k->nargs && n < 256; a++)
        mems[n++] = L->args[a].mem;
    return n;
}

/* Member m may run this launch's kernel: healthy, built the program, holds its buffers. */
static int member_may_run(const struct launch *L, int m)
{
    /* A queue of a sub-device runs on that sub-device's members only. */
    if ((L->q && !skmd_device_has(L->q->device, m)) || !skmd_member_runs_kernels(m) ||
        !skmd_program_on_member(L->k->program, m))
        return 0;
    for (cl_uint a = 0; a < L->k->nargs; a++)
        if (L->args[a].mem && skmd_mem_refused(L->args[a].mem, m))
            return 0;
    return 1;
}

/* The footprint of param p for groups [first, first+count), clamped to the buffer; on
 * failure the whole buffer, read and written inexactly. */
static void footprint(const struct launch *L, unsigned p, uint64_t first, uint64_t count,
                      struct skmd_footprint *fp)
{
    struct skmd_share_view view = {L->rec, L->args, L->scalars, &L->shape};
    skmd_share_footprint(&view, p, first, count, fp);
}

/* Sets the app's arguments of kernel `kk` on member m (buffers swapped for m's copies). */
static cl_int set_app_args(struct launch *L, cl_kernel kk, int m)
{
    cl_int err = CL_SUCCESS;
    for (cl_uint a = 0; a < L->k->nargs && err == CL_SUCCESS; a++) {
        const struct skmd_arg *arg = &L->args[a];
        if (!arg->set)
            continue; /* the driver reports it at launch */
        cl_sampler sampler = NULL;
        if (arg->other_handle && !arg->mem && arg->value && arg->size == sizeof sampler)
            memcpy(&sampler, arg->value, sizeof sampler);
        if (arg->mem) {
            cl_mem real = skmd_mem_real(arg->mem, m, &err);
            if (real)
                err = real_clSetKernelArg(kk, a, sizeof real, &real);
        } else if (sampler && skmd_registry_has(sampler) && SKMD_VALID(sampler, SAMPLER)) {
            /* The app's value is libskmd's sampler: the driver gets its own. */
            cl_sampler real = sampler->real[skmd_state.members[m].platform_slot];
            err = real_clSetKernelArg(kk, a, sizeof real, &real);
        } else {
            err = real_clSetKernelArg(kk, a, arg->size, arg->value);
        }
    }
    return err;
}

/* Sets the arguments of kernel `kk` on member m: the app's, the 8 hidden ones
 * (docs/transform.md), then (merge) the source copies. */
static cl_int set_args(struct launch *L, cl_kernel kk, int m, uint64_t first,
                       const cl_mem *sources, unsigned nsources)
{
    cl_int err = set_app_args(L, kk, m);
    cl_ulong hidden[8] = {first, L->ngroups[0], L->ngroups[1], L->ngroups[2],
                          L->shape.global_offset[0], L->shape.global_offset[1],
                          L->shape.global_offset[2], L->shape.work_dim};
    for (cl_uint h = 0; h < 8 && err == CL_SUCCESS; h++)
        err = real_clSetKernelArg(kk, L->k->nargs + h, sizeof hidden[h], &hidden[h]);
    for (unsigned s = 0; s < nsources && err == CL_SUCCESS; s++)
        err = real_clSetKernelArg(kk, L->k->nargs + 8 + s, sizeof sources[s], &sources[s]);
    return err;
}

/* The byte ranges member m's copies need for groups [first, first+count), each handed to
 * visit: the bytes they read, and the write bounds committed whole after them (the merge
 * member: every buffer whole, as its copy receives the others' writes). */
typedef cl_int (*input_visit)(struct launch *L, cl_mem mem, int m, uint64_t b, uint64_t e,
                              void *ctx);

static cl_int walk_inputs(struct launch *L, int m, uint64_t first, uint64_t count,
                          input_visit visit, void *ctx)
{
    struct skmd_interval rd[MAX_INTERVALS], wr[MAX_INTERVALS];
    for (unsigned p = 0; p < L->rec->nparams; p++) {
        if (!is_buffer_param(L, p))
            continue;
        cl_mem mem = L->args[p].mem;
        cl_int err;
        if (m == L->merge_member) {
            err = visit(L, mem, m, 0, mem->size, ctx);
            if (err != CL_SUCCESS)
                return err;
            continue;
        }
        struct skmd_footprint fp = {rd, wr, MAX_INTERVALS, MAX_INTERVALS, 0, 0, 0};
        footprint(L, p, first, count, &fp);
        for (size_t i = 0; i < fp.nread; i++) {
            err = visit(L, mem, m, fp.read[i].begin, fp.read[i].end, ctx);
            if (err != CL_SUCCESS)
                return err;
        }
        for (size_t i = 0; L->bound_param[p] && i < fp.nwrite; i++) {
            err = visit(L, mem, m, fp.write[i].begin, fp.write[i].end, ctx);
            if (err != CL_SUCCESS)
                return err;
        }
    }
    return CL_SUCCESS;
}

static cl_int fetch_visit(struct launch *L, cl_mem mem, int m, uint64_t b, uint64_t e,
                          void *ctx)
{
    (void)ctx;
    return fetch_locked(L, mem, m, b, e);
}

/* Brings member m's copies up to date for groups [first, first+count). */
static cl_int fetch_inputs(struct launch *L, int m, uint64_t first, uint64_t count)
{
    return walk_inputs(L, m, first, count, fetch_visit, NULL);
}

static cl_int gather_visit(struct launch *L, cl_mem mem, int m, uint64_t b, uint64_t e,
                           void *ctx)
{
    (void)L;
    return skmd_gather_note(ctx, mem, m, b, e) == 0 ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
}

/* Notes the inputs that several shares would each take out of another member's copy:
 * the first of those shares to fetch a buffer moves them for all (gather.h). */
static void gather_inputs(struct launch *L)
{
    if (!skmd_config()->gather_inputs || L->nshares < 2)
        return;
    for (int s = 0; s < L->nshares; s++)
        if (L->shares[s].count > 0 &&
            walk_inputs(L, L->shares[s].member, L->shares[s].first, L->shares[s].count,
                        gather_visit, &L->gather) != CL_SUCCESS) {
            skmd_gather_free(&L->gather); /* out of memory: each share fetches its own */
            return;
        }
}

/* A share of every work-group: the app's own kernel, launched as the app launched it (no
 * partition-ready kernel, nothing to merge), on the member's own queue. */
static cl_int start_whole(struct launch *L, struct share *sh, cl_command_queue wq)
{
    int m = sh->member;
    size_t offset[3], global[3];
    for (int d = 0; d < 3; d++) {
        offset[d] = (size_t)L->shape.global_offset[d];
        global[d] = (size_t)L->shape.global_size[d];
    }
    const struct skmd_member *member = &skmd_state.members[m];
    /* The app's own kernel object: its arguments may be changing for the next launch. */
    skmd_key_lock(L->k->real[m]);
    cl_int err = set_app_args(L, L->k->real[m], m);
    if (err == CL_SUCCESS)
        err = member->ops->launch(member, wq, L->k->real[m], L->shape.work_dim, offset,
                                  global, L->local, 0, NULL, &sh->ev);
    skmd_key_unlock(L->k->real[m]);
    return err;
}

/* fetch_inputs with the transfers to m gathered and run together (fetch_batch.h). */
static cl_int prepare_groups(struct launch *L, int m, uint64_t first, uint64_t count)
{
    skmd_fetch_batch_begin();
    cl_int err = fetch_inputs(L, m, first, count);
    cl_int ran = skmd_fetch_batch_end(err == CL_SUCCESS);
    return err != CL_SUCCESS ? err : ran;
}

/* Enqueues groups [first, first+count) on member m's queue wq (not waiting for them):
 * the partition-ready kernel, or boxes of the app's source. */
static cl_int launch_groups(struct launch *L, int m, cl_command_queue wq, uint64_t first,
                            uint64_t count, cl_event *ev, cl_event timing[2])
{
    if (skmd_source_member(L->k->program, m))
        return skmd_source_share(L->k, m, wq, L->args, &L->shape, first, count, ev, timing);
    /* Arguments and launch as one step: other launches of the kernel set their own. */
    skmd_key_lock(L->k->split[m]);
    cl_int err = set_args(L, L->k->split[m], m, first, NULL, 0);
    size_t global[3] = {count * L->local[0], L->local[1], L->local[2]};
    const struct skmd_member *member = &skmd_state.members[m];
    if (err == CL_SUCCESS)
        err = member->ops->launch(member, wq, L->k->split[m], L->shape.work_dim, NULL,
                                  global, L->local, 0, NULL, ev);
    skmd_key_unlock(L->k->split[m]);
    return err;
}

/* A share in pieces (pieces.h): piece i+1's inputs move while piece i computes. */
struct piece_ctx {
    struct launch *L;
    int m;
};

static cl_int piece_fetch(void *c, uint64_t first, uint64_t count)
{
    struct piece_ctx *pc = c;
    return prepare_groups(pc->L, pc->m, first, count);
}

static cl_int piece_launch(void *c, cl_command_queue wq, uint64_t first, uint64_t count,
                           cl_event *ev, cl_event timing[2])
{
    struct piece_ctx *pc = c;
    return launch_groups(pc->L, pc->m, wq, first, count, ev, timing);
}

static struct skmd_pieces_share pieces_share(const struct launch *L, const struct share *sh)
{
    return (struct skmd_pieces_share){L->rec, L->args, L->scalars, &L->shape, sh->member,
                                      sh->first, sh->count};
}

static cl_int start_pieces(struct launch *L, struct share *sh, cl_command_queue wq)
{
    static const struct skmd_pieces_ops ops = {piece_fetch, piece_launch};
    struct piece_ctx c = {L, sh->member};
    struct skmd_pieces_share ps = pieces_share(L, sh);
    struct skmd_pieces_result r;
    cl_int err = skmd_pieces_run(&ps, sh->pieces, L->q->context, wq, &ops, &c,
                                 sh->member == fault_member() ? sh->pieces / 2 : -1, &r);
    if (err != CL_SUCCESS) {
        if (r.first)
            real_clReleaseEvent(r.first);
        if (r.last)
            real_clReleaseEvent(r.last);
        return err;
    }
    /* finish_share waits for (done) and times the share by its first and last command. */
    sh->ev = r.last;
    real_clRetainEvent(r.last);
    sh->timing[0] = r.first;
    sh->timing[1] = r.last;
    sh->pieces_ms = r.kernel_ms;
    return CL_SUCCESS;
}

/* Enqueues one share on its member's own queue (not waiting for it). */
static cl_int start_share(struct launch *L, struct share *sh)
{
    int m = sh->member;
    sh->timing[0] = sh->timing[1] = NULL;
    struct skmd_pieces_share ps = pieces_share(L, sh);
    /* Not with write bounds: each piece would fetch its own bound, and their union need
     * not cover the share's bound that commit_share makes the member's. */
    int bounds = 0;
    for (unsigned p = 0; p < L->rec->nparams; p++)
        bounds |= L->bound_param[p];
    sh->pieces = L->merge_member < 0 && !bounds ? skmd_pieces_plan(&ps) : 1;
    cl_int err = CL_SUCCESS;
    if (sh->pieces > 1) {
        cl_command_queue wq = skmd_work_queue(L->q->context, m, &err);
        sh->launch_ns = skmd_now_ns();
        return wq ? start_pieces(L, sh, wq) : err;
    }
    err = prepare_groups(L, m, sh->first, sh->count);
    if (err != CL_SUCCESS)
        return err;
    sh->launch_ns = skmd_now_ns();
    if (m == fault_member())
        return CL_OUT_OF_RESOURCES; /* the documented test hook */
    cl_command_queue wq = skmd_work_queue(L->q->context, m, &err);
    if (!wq)
        return err;
    if (sh->count == L->total_groups)
        return start_whole(L, sh, wq);
    return launch_groups(L, m, wq, sh->first, sh->count, &sh->ev, sh->timing);
}

/* Waits for a started share; CL_SUCCESS when it ran. Keeps its device times. */
static cl_int finish_share(struct share *sh)
{
    cl_int status = CL_SUCCESS;
    cl_int err = real_clWaitForEvents(1, &sh->ev);
    real_clGetEventInfo(sh->ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                        NULL);
    /* Source-route shares are several box launches: first box start to last box end. */
    cl_event first = sh->timing[0] ? sh->timing[0] : sh->ev;
    cl_event last = sh->timing[1] ? sh->timing[1] : sh->ev;
    sh->timed = real_clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START,
                                             sizeof sh->t_start, &sh->t_start,
                                             NULL) == CL_SUCCESS &&
                real_clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END,
                                             sizeof sh->t_end, &sh->t_end,
                                             NULL) == CL_SUCCESS;
    sh->ms = skmd_plan_span_ms(first, last);
    if (sh->pieces > 1) /* the pieces' kernels alone, not the waits for their inputs */
        sh->ms = sh->pieces_ms;
    for (int i = 0; i < 2; i++)
        if (sh->timing[i])
            real_clReleaseEvent(sh->timing[i]);
    sh->timing[0] = sh->timing[1] = NULL;
    real_clReleaseEvent(sh->ev);
    sh->ev = NULL;
    return err != CL_SUCCESS ? err : status < 0 ? status : CL_SUCCESS;
}

static void trace_span(const struct launch *L, int device, enum skmd_trace_kind kind,
                       uint64_t start, uint64_t groups)
{
    if (!skmd_trace_enabled())
        return;
    struct skmd_trace_span span = {
        .device = device, .kind = kind, .kernel = L->k->name, .launch = L->number,
        .share = (double)groups / (double)L->total_groups, .start_ns = start,
        .end_ns = skmd_now_ns(), .workgroups = groups,
    };
    skmd_trace_span(&span);
}

/* A member's copy no longer holds what the kernel may have written (a failed share). */
static void forget_writes(struct launch *L, int m)
{
    for (unsigned p = 0; p < L->rec->nparams; p++)
        if (is_buffer_param(L, p) && (L->rec->params[p].access & SKMD_ACCESS_WRITE)) {
            cl_mem mem = L->args[p].mem;
            skmd_buffer_lock(mem);
            skmd_coh_forget(mem, m, 0, mem->size);
            skmd_buffer_unlock(mem);
        }
}

/* The share's box of p on its member, then also on the queue's member (share_rect.h). */
static cl_int commit_rect(struct launch *L, const struct share *sh, unsigned p)
{
    struct skmd_share_view view = {L->rec, L->args, L->scalars, &L->shape};
    struct skmd_rect box;
    if (!skmd_rect_of_share(&view, p, sh->first, sh->count, &box))
        return CL_INVALID_VALUE; /* decided from the same shares in plan(): never */
    struct skmd_moved moved = {0, 0, 0};
    cl_int err = skmd_rect_commit(L->args[p].mem, sh->member, L->q->member, &box, &moved);
    add_moved(L, &moved);
    return err;
}

/* Records where the share's writes are: exact ones on the member alone. */
static cl_int commit_share(struct launch *L, const struct share *sh)
{
    struct skmd_interval rd[MAX_INTERVALS], wr[MAX_INTERVALS];
    for (unsigned p = 0; p < L->rec->nparams; p++) {
        if (!is_buffer_param(L, p) || L->merge_param[p])
            continue;
        if (L->rect_param[p]) {
            cl_int err = commit_rect(L, sh, p);
            if (err != CL_SUCCESS)
                return err;
            continue;
        }
        struct skmd_footprint fp = {rd, wr, MAX_INTERVALS, MAX_INTERVALS, 0, 0, 0};
        footprint(L, p, sh->first, sh->count, &fp);
        for (size_t i = 0; i < fp.nwrite; i++) {
            cl_int err = written_locked(L->args[p].mem, sh->member, fp.write[i].begin,
                                        fp.write[i].end);
            if (err == CL_SUCCESS && sh->streamed[p])
                err = skmd_stream_commit(L->args[p].mem, fp.write[i].begin, fp.write[i].end);
            if (err != CL_SUCCESS)
                return err;
        }
    }
    return CL_SUCCESS;
}

/* Folds share sh's writes (on its member) into the merge member's copies: the merge
 * kernel for sh's groups, with each written buffer's copy from sh's member as source.
 * Only the bytes of the share's write bound are copied into the source: the merge kernel
 * copies just the elements the share's groups store, all inside it. */
static cl_int merge_share(struct launch *L, const struct share *sh)
{
    int M = L->merge_member, D = sh->member;
    cl_int err = CL_SUCCESS;
    cl_mem sources[SKMD_MAX_MEMBERS * 4];
    unsigned nsources = 0;
    cl_command_queue mq = skmd_work_queue(L->q->context, M, &err);
    cl_command_queue dq = mq ? skmd_work_queue(L->q->context, D, &err) : NULL;
    if (!dq)
        return err;
    uint64_t start = skmd_trace_enabled() ? skmd_now_ns() : 0;
    for (unsigned p = 0; p < L->rec->nparams && err == CL_SUCCESS; p++) {
        if (L->rec->params[p].kind != SKMD_PARAM_GLOBAL ||
            !(L->rec->params[p].access & SKMD_ACCESS_WRITE))
            continue;
        if (nsources == sizeof sources / sizeof sources[0])
            return CL_OUT_OF_RESOURCES;
        cl_mem mem = L->args[p].mem;
        sources[nsources] = NULL;
        void *bytes = malloc(mem->size);
        cl_mem dreal = skmd_mem_real(mem, D, &err);
        if (!bytes || !dreal) {
            free(bytes);
            err = bytes ? err : CL_OUT_OF_HOST_MEMORY;
            break;
        }
        struct skmd_interval rd[MAX_INTERVALS], wr[MAX_INTERVALS];
        struct skmd_footprint fp = {rd, wr, MAX_INTERVALS, MAX_INTERVALS, 0, 0, 0};
        footprint(L, p, sh->first, sh->count, &fp);
        sources[nsources] = real_clCreateBuffer(skmd_member_context(L->q->context, M),
                                                CL_MEM_READ_ONLY, mem->size, NULL, &err);
        for (size_t i = 0; i < fp.nwrite && err == CL_SUCCESS; i++) {
            size_t at = (size_t)fp.write[i].begin, len = (size_t)(fp.write[i].end - at);
            err = real_clEnqueueReadBuffer(dq, dreal, CL_TRUE, at, len,
                                           (char *)bytes + at, 0, NULL, NULL);
            if (err == CL_SUCCESS)
                err = real_clEnqueueWriteBuffer(mq, sources[nsources], CL_TRUE, at, len,
                                                (char *)bytes + at, 0, NULL, NULL);
            L->moved.to_host += len;
            L->moved.to_devices += len;
        }
        free(bytes);
        if (sources[nsources])
            nsources++;
    }
    size_t global[3] = {sh->count * L->local[0], L->local[1], L->local[2]};
    cl_event ev = NULL;
    if (err == CL_SUCCESS) {
        skmd_key_lock(L->k->merge[M]);
        err = set_args(L, L->k->merge[M], M, sh->first, sources, nsources);
        const struct skmd_member *member = &skmd_state.members[M];
        if (err == CL_SUCCESS)
            err = member->ops->launch(member, mq, L->k->merge[M], L->shape.work_dim, NULL,
                                      global, L->local, 0, NULL, &ev);
        skmd_key_unlock(L->k->merge[M]);
    }
    if (err == CL_SUCCESS) {
        struct share tmp = {.ev = ev};
        err = finish_share(&tmp);
        if (tmp.timed)
            widen_span(L, M, tmp.t_start, tmp.t_end);
    }
    for (unsigned s = 0; s < nsources; s++)
        real_clReleaseMemObject(sources[s]);
    trace_span(L, M, SKMD_TRACE_MERGE, start, sh->count);
    return err;
}

/* A local size for a launch that gave none, the same for every member: the largest
 * divisor of global[0] up to 64 along dimension 0 (1 along the others). Only for kernels
 * whose results do not depend on it (record's group_free). 0 when global[0] is 0. */
static int choose_local(unsigned dims, const size_t *global, size_t *local)
{
    if (global[0] == 0)
        return 0;
    local[0] = 64;
    while (global[0] % local[0] != 0)
        local[0]--;
    for (unsigned d = 1; d < 3; d++)
        local[d] = 1;
    (void)dims;
    return 1;
}

/* The user forced shares (SKMD_SPLIT, or a fixed policy) and this kernel still runs whole:
 * why, once per kernel, at warn level, since the user asked for a split and is not getting
 * one. Launches that the partitioner keeps whole say why at info level (report()). */
static void tell_whole_once(struct launch *L, const char *why)
{
    /* Once per kernel either way: a run without forced shares has nothing to tell, and
     * every later whole launch of the kernel returns at the first test. */
    int expected = 0;
    if (!why || !__atomic_compare_exchange_n(&L->k->told_whole, &expected, 1, 0,
                                             __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        return;
    const struct skmd_config *cfg = skmd_config();
    int forced = cfg->split[0] || !strcmp(cfg->policy, "equal") || !strcmp(cfg->policy, "linear");
    if (forced && L->q && __builtin_popcount(L->q->device->members) >= 2 &&
        !strcmp(cfg->mode, "split"))
        skmd_log(SKMD_LOG_WARN, "kernel %s runs whole on one device, not split as forced: %s",
                 L->k->name, why);
}

/* Why this launch runs whole (NULL: it is split); fills the shares. */
static const char *plan(struct launch *L, const size_t *offset, const size_t *global,
                        const size_t *local, struct share *shares, int *nshares)
{
    if (strcmp(skmd_config()->mode, "split") != 0 && strcmp(skmd_config()->mode, "single"))
        return "mode is not split";
    if (skmd_state.nmembers < 2 || (L->q && __builtin_popcount(L->q->device->members) < 2))
        return "one member device";
    if (!L->rec)
        return "kernel not analysed (no split program)";
    if (!L->rec->splittable)
        return L->rec->reason && L->rec->reason[0] ? L->rec->reason : "not splittable";
    size_t chosen[3];
    if (!local) {
        if (!L->rec->group_free)
            return "no local size given and the kernel depends on the work-group size";
        if (!choose_local(L->shape.work_dim, global, chosen))
            return "no local size given and none divides the global size";
        local = chosen;
    }
    if (L->rec->nparams > 256)
        return "too many parameters";
    L->shape.work_dim = L->q ? L->shape.work_dim : 0;
    L->total_groups = 1;
    for (unsigned d = 0; d < 3; d++) {
        int used = d < L->shape.work_dim;
        L->local[d] = used ? local[d] : 1;
        if (used && (local[d] == 0 || global[d] % local[d] != 0))
            return "global size not a multiple of the local size";
        L->shape.local_size[d] = L->local[d];
        L->shape.global_size[d] = used ? global[d] : 1;
        L->shape.global_offset[d] = used && offset ? offset[d] : 0;
        L->ngroups[d] = L->shape.global_size[d] / L->local[d];
        L->total_groups *= L->ngroups[d];
    }
    if (L->total_groups < (uint64_t)skmd_config()->min_split_workgroups)
        return "too few work-groups to pay for splitting (SKMD_MIN_SPLIT_WORKGROUPS)";
    for (unsigned p = 0; p < L->rec->nparams; p++) {
        const struct skmd_arg *arg = &L->args[p];
        enum skmd_param_kind kind = L->rec->params[p].kind;
        if (!arg->set)
            return "an argument is not set";
        if (arg->other_handle || kind == SKMD_PARAM_IMAGE || kind == SKMD_PARAM_SAMPLER)
            return "an image or sampler argument";
        if ((kind == SKMD_PARAM_GLOBAL || kind == SKMD_PARAM_CONSTANT) && !arg->mem &&
            arg->value)
            return "a pointer argument that is not a libskmd buffer";
        L->scalars[p] = kind == SKMD_PARAM_SCALAR && arg->value
                            ? skmd_scalar_value(&L->rec->params[p], arg->value)
                            : 0;
    }
    unsigned char eligible[SKMD_MAX_MEMBERS] = {0};
    uint64_t count[SKMD_MAX_MEMBERS];
    for (int m = 0; m < skmd_state.nmembers; m++)
        eligible[m] = skmd_member_takes_shares(m) && member_may_run(L, m) &&
                      skmd_share_ready(L->k, m, &L->shape);
    /* Whole rows (planes) of groups when that spares the merge (share_align.h). */
    struct skmd_share_view view = {L->rec, L->args, L->scalars, &L->shape};
    int neligible = 0;
    for (int m = 0; m < skmd_state.nmembers; m++)
        neligible += eligible[m];
    L->unit = skmd_share_unit_merge(&view, L->total_groups, neligible, &L->merge_probe);
    struct skmd_plan_request req = {L->k, L->rec, L->args, L->scalars, &L->shape,
                                    L->total_groups, eligible, L->q->member, L->unit,
                                    L->merge_probe};
    int used = skmd_plan_shares(&req, count, &L->ticket);
    skmd_share_round(count, skmd_state.nmembers, L->total_groups, L->unit);
    for (int m = 0; m < skmd_state.nmembers; m++)
        L->ticket.count[m] = count[m]; /* the measured times are of these shares */
    /* Whole on the queue's member, but its inputs must move there first: as one share in
     * pieces, its transfers overlap its kernel (pieces.h). */
    struct skmd_pieces_share whole = {L->rec, L->args, L->scalars, &L->shape, L->q->member,
                                      0, L->total_groups};
    int in_pieces = used == 1 && count[L->q->member] == L->total_groups &&
                    eligible[L->q->member] && skmd_pieces_plan(&whole) > 1;
    if (used < 1 || (count[L->q->member] == L->total_groups && !L->ticket.measure && !in_pieces))
        return used < 1 ? "fewer than two devices can take a share of this kernel"
                        : L->ticket.why_whole[0]
                            ? L->ticket.why_whole
                            : "the partitioner gives every work-group to one device";
    /* Written bytes whose bounds overlap (or are unknown) need the merge kernel on a CPU
     * member; disjoint bounds are fetched before and committed after each share. */
    uint64_t first = 0, firsts[SKMD_MAX_MEMBERS], counts[SKMD_MAX_MEMBERS];
    unsigned char mode[256];
    *nshares = 0;
    for (int m = 0; m < skmd_state.nmembers; m++) {
        if (!count[m])
            continue;
        firsts[*nshares] = first;
        counts[*nshares] = count[m];
        shares[(*nshares)++] =
            (struct share){.member = m, .first = first, .count = count[m], .ms = -1};
        first += count[m];
    }
    int need_merge = skmd_share_write_modes(&view, firsts, counts, *nshares, mode);
    for (unsigned p = 0; p < L->rec->nparams; p++) {
        L->merge_param[p] = mode[p] == SKMD_WRITE_MERGE;
        L->bound_param[p] = mode[p] == SKMD_WRITE_BOUND;
        L->rect_param[p] = mode[p] == SKMD_WRITE_RECT;
    }
    /* One share alone runs the app's kernel whole (start_whole): its member gets whole
     * copies first, as a merge member does, and merges nothing. */
    L->merge_member = need_merge && *nshares == 1 ? shares[0].member : -1;
    if (need_merge) {
        for (int m = 0; m < skmd_state.nmembers && L->merge_member < 0; m++)
            if (L->k->merge[m] && skmd_member_takes_shares(m) && member_may_run(L, m))
                L->merge_member = m;
        if (L->merge_member < 0)
            return "written bytes not exactly known and no CPU member has the merge kernel";
    }
    return NULL;
}

/* Whether argument a of the launch is written (unknown kernels: every buffer is). */
static int arg_written(const struct launch *L, cl_uint a)
{
    return !L->rec || (L->rec->params[a].access & SKMD_ACCESS_WRITE);
}

/* Tells stream_out.h what the launch reads and writes, in the app's order, and keeps
 * which written buffers this launch streams. */
static void note_streams(struct launch *L)
{
    for (cl_uint a = 0; a < L->k->nargs && a < 256; a++)
        if (L->args[a].mem)
            L->stream_param[a] = (unsigned char)skmd_stream_note_launch(
                L->args[a].mem, !L->rec || (L->rec->params[a].access & SKMD_ACCESS_READ),
                arg_written(L, a));
}

/* Member m's copies of what the launch writes may be half-written (a failed launch):
 * stale wherever another copy is current. */
static void forget_whole_writes(struct launch *L, int m)
{
    for (cl_uint a = 0; a < L->k->nargs; a++)
        if (L->args[a].mem && arg_written(L, a)) {
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
        skmd_inflight_wait_mem(mem, arg_written(L, a));
        /* read whole on one member: see note_readers */
        __atomic_store_n(&skmd_mem_root(mem)->spread, 0, __ATOMIC_RELAXED);
        err = fetch_locked(L, mem, m, 0, mem->size);
    }
    return err;
}

static cl_int mark_whole_written(struct launch *L, int m)
{
    cl_int err = CL_SUCCESS;
    for (cl_uint a = 0; a < L->k->nargs && err == CL_SUCCESS; a++)
        if (L->args[a].mem && arg_written(L, a))
            err = written_locked(L->args[a].mem, m, 0, L->args[a].mem->size);
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
    unsigned nmems = launch_mems(L, mems);
    real_clFinish(L->q->real); /* its error, if any, is the failed member's */
    if (e->nwait && real_clWaitForEvents(e->nwait, e->wait) != CL_SUCCESS)
        return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    for (;;) {
        int m = skmd_member_for_kernel(L->k, bad, mems, nmems);
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
            if (member_may_run(L, m))
                return err; /* not m's fault: its inputs cannot be had (the log says why) */
            continue;
        }
        cl_command_queue wq = skmd_work_queue(L->q->context, m, &err);
        const struct skmd_member *member = &skmd_state.members[m];
        cl_event ev = NULL;
        if (wq) {
            skmd_key_lock(L->k->real[m]);
            err = set_app_args(L, L->k->real[m], m);
            if (err == CL_SUCCESS)
                err = member->ops->launch(member, wq, L->k->real[m], L->shape.work_dim,
                                          offset, global, local, 0, NULL, &ev);
            skmd_key_unlock(L->k->real[m]);
        }
        cl_int status = CL_COMPLETE;
        if (err == CL_SUCCESS) {
            err = real_clWaitForEvents(1, &ev);
            /* The command's own status says why, where the wait says only "an error". */
            if (real_clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                                    &status, NULL) == CL_SUCCESS && status < 0)
                err = status;
        }
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
static cl_int run_whole(struct launch *L, const size_t *offset, const size_t *global,
                        const size_t *local, struct skmd_enqueue *e)
{
    int m = L->q->member;
    if (!member_may_run(L, m))
        return redo_whole(L, offset, global, local, e, m);
    cl_int err = fetch_whole(L, m);
    if (err != CL_SUCCESS)
        return member_may_run(L, m) ? err : redo_whole(L, offset, global, local, e, m);
    const struct skmd_member *member = &skmd_state.members[m];
    /* This launch's arguments (a launch thread may have set older ones since). */
    struct skmd_trace_whole traced;
    cl_event *event = skmd_trace_whole_begin(&traced, e->event);
    skmd_key_lock(L->k->real[m]);
    err = set_app_args(L, L->k->real[m], m);
    if (err == CL_SUCCESS)
        err = member->ops->launch(member, L->q->real, L->k->real[m], L->shape.work_dim,
                                  offset, global, local, e->nwait, e->wait, event);
    skmd_key_unlock(L->k->real[m]);
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

/* Whether some argument of the launch reads the root buffer that argument p is on. */
static int root_read(const struct launch *L, unsigned p)
{
    cl_mem root = skmd_mem_root(L->args[p].mem);
    for (unsigned q = 0; q < L->rec->nparams; q++)
        if (is_buffer_param(L, q) && skmd_mem_root(L->args[q].mem) == root &&
            (L->rec->params[q].access & SKMD_ACCESS_READ))
            return 1;
    return 0;
}

/* The share's writes of the buffers the app reads back, into the host copy now, while
 * other shares still compute (stream_out.h). Not in a launch with a merge: its written
 * bytes end on the merge member. */
static void stream_share(struct launch *L, struct share *sh)
{
    struct skmd_interval rd[MAX_INTERVALS], wr[MAX_INTERVALS];
    struct skmd_moved out = {0, 0, 0};
    for (unsigned p = 0; L->merge_member < 0 && p < L->rec->nparams; p++) {
        /* Not a buffer the launch also reads: another share's fetch of bytes it reads
         * (a bound) could pass through the host copy while this share streams there. Nor
         * one written as boxes: its footprint is the boxes' bounds, bytes the share did
         * not write among them (share_rect.h commits the boxes themselves). */
        if (!is_buffer_param(L, p) || !L->stream_param[p] || L->merge_param[p] ||
            L->rect_param[p] || root_read(L, p))
            continue;
        struct skmd_footprint fp = {rd, wr, MAX_INTERVALS, MAX_INTERVALS, 0, 0, 0};
        footprint(L, p, sh->first, sh->count, &fp);
        int all = 1;
        for (size_t i = 0; i < fp.nwrite && all; i++)
            all = skmd_stream_share(L->args[p].mem, sh->member, fp.write[i].begin,
                                    fp.write[i].end, &out.to_host);
        sh->streamed[p] = (unsigned char)all;
    }
    add_moved(L, &out);
}

/* SKMD_FAULT_CORRUPT (test hook for SKMD_VERIFY): the first byte of the share's write
 * footprint in its first written buffer, flipped on its member before anything commits or
 * streams it. */
static void corrupt_share(struct launch *L, const struct share *sh)
{
    struct skmd_interval rd[MAX_INTERVALS], wr[MAX_INTERVALS];
    for (unsigned p = 0; p < L->rec->nparams; p++) {
        if (!is_buffer_param(L, p) || !(L->rec->params[p].access & SKMD_ACCESS_WRITE))
            continue;
        struct skmd_footprint fp = {rd, wr, MAX_INTERVALS, MAX_INTERVALS, 0, 0, 0};
        footprint(L, p, sh->first, sh->count, &fp);
        if (fp.nwrite) {
            skmd_verify_flip_byte(L->args[p].mem, sh->member, fp.write[0].begin);
            return;
        }
    }
}

/* One share's host-side work, on its member's thread: inputs, launch, wait. */
static void share_main(void *arg)
{
    struct share *sh = arg;
    struct launch *L = sh->L;
    /* The transfers of the share's inputs count for this launch in the trace. */
    skmd_trace_set_thread_launch(L->number, L->k->name,
                                 (double)sh->count / (double)L->total_groups);
    sh->start_ns = skmd_now_ns();
    sh->ev = NULL;
    memset(sh->streamed, 0, sizeof sh->streamed);
    sh->launch_ns = 0;
    sh->err = start_share(L, sh);
    /* A CPU member's kernel holds the host's cores that other shares' copies need. */
    int on_host = sh->launch_ns && skmd_member_on_host_cores(&skmd_state.members[sh->member]);
    unsigned busy = on_host ? skmd_host_busy_begin(sh->launch_ns) : 0;
    if (sh->err == CL_SUCCESS)
        sh->err = finish_share(sh);
    sh->end_ns = skmd_now_ns();
    if (on_host)
        skmd_host_busy_end(busy);
    sh->done = sh->err == CL_SUCCESS ? 1 : -1;
    if (sh->done == 1 && sh->ms > 0 && !L->ticket.first_share[sh->member] && sh->pieces <= 1)
        skmd_plan_observe_latency(sh->member,
                                  (double)(skmd_now_ns() - sh->launch_ns) / 1e6 - sh->ms);
    if (sh->ev) {
        real_clReleaseEvent(sh->ev);
        sh->ev = NULL;
    }
    trace_span(L, sh->member, SKMD_TRACE_KERNEL, sh->start_ns, sh->count);
    if (sh->done == 1 && sh->member == skmd_verify_corrupt_member())
        corrupt_share(L, sh);
    if (sh->done == 1) /* after the share's timing: a transfer span of its own */
        stream_share(L, sh);
    skmd_trace_set_thread_launch(0, NULL, -1);
}

/* Remembers, per buffer the kernel reads, whether this launch read it on two or more
 * members with copies of their own: the app's next write of it then goes to the host
 * copy (enqueue.c), from which each member fetches only its part over its own link. */
static void note_readers(const struct launch *L, const struct share *shares, int nshares)
{
    for (unsigned p = 0; L->rec && p < L->rec->nparams; p++) {
        if (!is_buffer_param(L, p) || !(L->rec->params[p].access & SKMD_ACCESS_READ))
            continue;
        cl_mem root = skmd_mem_root(L->args[p].mem);
        skmd_buffer_lock(root);
        int readers = 0;
        for (int s = 0; s < nshares; s++)
            readers += shares[s].count > 0 && !(root->zero_copy & (1u << shares[s].member));
        __atomic_store_n(&root->spread, readers >= 2, __ATOMIC_RELAXED);
        skmd_buffer_unlock(root);
    }
}

static cl_int run_split(struct launch *L)
{
    struct share *shares = L->shares;
    int nshares = L->nshares;
    cl_int err = CL_SUCCESS;
    for (int s = 0; s < nshares; s++)
        shares[s].L = L;
    uint64_t begin_ns = skmd_now_ns();
    gather_inputs(L);
    /* All shares at once, each on its own thread and its member's own queue. */
    if (serial_launches())
        for (int s = 0; s < nshares; s++)
            share_main(&shares[s]);
    else
        skmd_run_parallel((unsigned)nshares, share_main, shares, sizeof shares[0]);
    if (!L->observed) { /* the shares as planned, not a redo */
        double ms[SKMD_MAX_MEMBERS] = {0}, finish_ms[SKMD_MAX_MEMBERS] = {0};
        for (int s = 0; s < nshares; s++) {
            int done = shares[s].done == 1;
            ms[shares[s].member] = done ? shares[s].ms : 0;
            finish_ms[shares[s].member] =
                done ? (double)(shares[s].end_ns - begin_ns) / 1e6 : 0;
        }
        skmd_plan_observe(&L->ticket, ms, finish_ms);
        L->observed = 1;
    }
    /* Faults: the member is marked and its share redone by one that did its own. */
    for (int s = 0; s < nshares; s++) {
        if (shares[s].done == 1)
            continue;
        int bad = shares[s].member;
        skmd_member_share_failed(bad);
        if (skmd_fault_of(shares[s].err) != SKMD_FAULT_NONE) /* no whole launches either */
            skmd_member_kernel_failed(bad, shares[s].err, L->k->name);
        forget_writes(L, bad);
        skmd_log(SKMD_LOG_WARN, "member %d (%s) failed its share of %s: marked failed, "
                 "the share is redone on another member", bad, skmd_state.members[bad].name,
                 L->k->name);
        if (bad == L->merge_member)
            return CL_OUT_OF_RESOURCES; /* the caller runs the launch as one share */
        for (int t = 0; t < nshares && shares[s].done != 1; t++) {
            int m = shares[t].member;
            if (t == s || shares[t].done != 1 || !skmd_member_takes_shares(m) ||
                !member_may_run(L, m))
                continue;
            shares[s].member = m;
            share_main(&shares[s]);
        }
        if (shares[s].done != 1)
            return CL_OUT_OF_RESOURCES;
    }
    for (int s = 0; s < nshares; s++) {
        if (shares[s].timed)
            widen_span(L, shares[s].member, shares[s].t_start, shares[s].t_end);
        err = commit_share(L, &shares[s]);
        if (err == CL_SUCCESS && L->merge_member >= 0 && shares[s].member != L->merge_member)
            err = merge_share(L, &shares[s]);
        if (err != CL_SUCCESS)
            return err;
    }
    if (L->merge_member >= 0)
        for (unsigned p = 0; p < L->rec->nparams && err == CL_SUCCESS; p++)
            if (L->merge_param[p])
                err = written_locked(L->args[p].mem, L->merge_member, 0,
                                     L->args[p].mem->size);
    if (err == CL_SUCCESS)
        note_readers(L, shares, nshares);
    return err;
}

/* When the split failed: every group as one share on one healthy member (the queue's
 * if it can), which first receives every buffer whole, so no merge is needed. */
static cl_int run_as_one_share(struct launch *L)
{
    int m = -1;
    for (int i = 0; i < skmd_state.nmembers; i++) {
        int c = (L->q->member + i) % skmd_state.nmembers;
        if (m < 0 && L->k->split[c] && skmd_member_takes_shares(c) && member_may_run(L, c))
            m = c;
    }
    if (m < 0)
        return CL_OUT_OF_RESOURCES;
    L->merge_member = m; /* the member that holds every buffer whole */
    for (unsigned p = 0; p < L->rec->nparams; p++) /* its copies end up whole: no boxes */
        if (L->rect_param[p]) {
            L->rect_param[p] = 0;
            L->merge_param[p] = 1;
        }
    L->nshares = 1;
    L->shares[0] = (struct share){.member = m, .first = 0, .count = L->total_groups, .ms = -1};
    return run_split(L);
}

/* Whether some written buffer of the launch is marked in `param` (bound_param: by its
 * disjoint bounds; rect_param: by its shares' boxes; no merge for it either way). */
static int any_param(const struct launch *L, const unsigned char *param)
{
    for (unsigned p = 0; p < L->rec->nparams; p++)
        if (param[p])
            return 1;
    return 0;
}

/* The launch log's word on the guard's own launches (sampled or retried, not the split
 * the partitioner chose). */
static const char *guard_tag(const struct skmd_plan_ticket *t)
{
    if (t->guard == SKMD_PART_RUN_RETRY + 1)
        return " (guard retry)";
    if (t->guard == SKMD_PART_RUN_WHOLE_SAMPLE + 1 || t->guard == SKMD_PART_RUN_OTHER_SPLIT + 1)
        return " (guard sample)";
    return "";
}

static void report(const struct launch *L, const char *why, const struct share *shares,
                   int nshares, uint64_t t0)
{
    if (skmd_log_enabled(SKMD_LOG_INFO)) {
        char text[1024];
        int at = 0;
        for (int s = 0; s < nshares && at < (int)sizeof text - 64; s++)
            at += snprintf(text + at, sizeof text - (size_t)at, " m%d=%llu+%llu",
                           shares[s].member, (unsigned long long)shares[s].first,
                           (unsigned long long)shares[s].count);
        if (why)
            skmd_log(SKMD_LOG_INFO, "launch %llu %s: whole on member %d: %s; moved in %llu "
                     "out %llu peer %llu", (unsigned long long)L->number, L->k->name,
                     L->q->member, why, (unsigned long long)L->moved.to_devices,
                     (unsigned long long)L->moved.to_host, (unsigned long long)L->moved.peer);
        else
            skmd_log(SKMD_LOG_INFO,
                     "launch %llu %s: split%s%s%s%s%s%s; moved in %llu out %llu peer %llu",
                     (unsigned long long)L->number, L->k->name, text,
                     nshares == 1 ? " (whole)" : L->merge_member >= 0 ? " (merged)" : "",
                     nshares > 1 && any_param(L, L->bound_param) ? " (bounds)" : "",
                     nshares > 1 && any_param(L, L->rect_param) ? " (rect)" : "",
                     L->ticket.placed ? " (inputs placed)" : "",
                     guard_tag(&L->ticket),
                     (unsigned long long)L->moved.to_devices,
                     (unsigned long long)L->moved.to_host, (unsigned long long)L->moved.peer);
    }
    { /* every launch, SKMD_REPORT or not: the exit summary counts them all */
        /* One share alone is a whole launch, run apart to time it: not a split. */
        struct skmd_report_launch r = {
            .kernel = L->k->name, .split = why == NULL && nshares > 1,
            .decision = why ? why
                        : nshares == 1
                            ? (L->ticket.why_whole[0] ? L->ticket.why_whole
                                                      : "whole on one device, timed")
                        : any_param(L, L->rect_param) ? "split (rectangular shares)"
                        : L->ticket.placed ? "split (inputs placed by the app's writes)"
                                           : "split",
            .ndevices = skmd_state.nmembers,
            .bytes_moved = L->moved.to_devices + L->moved.to_host,
            .estimated_ms = !why && nshares > 1 && L->ticket.est_split_ms > 0
                                ? L->ticket.est_split_ms : -1,
            .measured_ms = (double)(skmd_now_ns() - t0) / 1e6,
            .est_whole_ms = L->ticket.est_whole_ms > 0 ? L->ticket.est_whole_ms : -1,
            .est_split_ms = L->ticket.est_split_ms > 0 ? L->ticket.est_split_ms : -1,
        };
        /* A launch refused before its work-groups were counted (an image argument) still
         * counts once on its member, so its shares do not read 0/0. */
        if (why)
            r.workgroups[L->q->member] = L->total_groups ? L->total_groups : 1;
        for (int s = 0; s < nshares && !why; s++)
            r.workgroups[shares[s].member] += shares[s].count;
        skmd_report_launch(&r);
    }
}

static void free_launch(struct launch *L)
{
    for (cl_uint a = 0; a < L->k->nargs; a++) {
        free(L->args[a].value);
        if (L->args[a].mem)
            skmd_clReleaseMemObject(L->args[a].mem);
    }
    free(L->args);
    skmd_gather_free(&L->gather);
    skmd_clReleaseKernel(L->k);
    pthread_mutex_destroy(&L->moved_lock);
    free(L);
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
        if (member_may_run(L, m))
            v->whole_member = m;
    }
    for (int s = 0; s < L->nshares; s++) {
        v->member[s] = L->shares[s].member;
        v->first[s] = L->shares[s].first;
        v->count[s] = L->shares[s].count;
    }
    return v;
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
    struct skmd_share_view view = {L->rec, L->args, L->scalars, &L->shape};
    struct skmd_verify_launch verify;
    /* Its inputs as the split finds them (the launches it waited for are done). */
    struct skmd_verify *check =
        status == CL_SUCCESS && L->nshares >= 2 && skmd_verify_enabled()
            ? skmd_verify_begin(verify_view(L, &view, &verify))
            : NULL;
    if (status == CL_SUCCESS) {
        uint64_t start = skmd_now_ns();
        status = run_split(L);
        if (status == CL_SUCCESS) /* the plan's guard compares split and whole launches */
            skmd_plan_observe_wall(&L->ticket, (double)(skmd_now_ns() - start) / 1e6);
        if (status != CL_SUCCESS) {
            skmd_log(SKMD_LOG_WARN, "split launch of %s failed (%d): run as one share",
                     L->k->name, status);
            why = "split launch failed";
            status = run_as_one_share(L);
            if (status != CL_SUCCESS)
                skmd_log(SKMD_LOG_ERROR, "launch of %s failed on every member (%d): its "
                         "event completes with that error", L->k->name, status);
        }
    }
    /* While the launch still holds its buffers: nothing else has touched them. */
    if (check)
        skmd_verify_end(check, verify_view(L, &view, &verify), why == NULL);
    skmd_inflight_end(L->inflight);
    report(L, why, L->shares, why ? 0 : L->nshares, L->t0);
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
    free_launch(L);
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
    if (serial_launches() && !L->gated) {
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

/* A whole launch that may wait for the app (defer.h): on the queue's launcher. */
struct whole_job {
    struct launch *L;
    const char *why;
    size_t offset[3], global[3], local[3];
    int has_offset, has_local;
};

static cl_int whole_run(cl_command_queue q, void *arg, cl_event *real_event)
{
    struct whole_job *w = arg;
    struct skmd_enqueue e = {.queue = q};
    e.event = real_event ? &e.real_event : NULL;
    cl_int err = run_whole(w->L, w->has_offset ? w->offset : NULL, w->global,
                           w->has_local ? w->local : NULL, &e);
    if (real_event)
        *real_event = err == CL_SUCCESS ? e.real_event : NULL;
    return err;
}

static void whole_done(void *arg)
{
    struct whole_job *w = arg;
    report(w->L, w->why, w->L->shares, 0, w->L->t0);
    free_launch(w->L);
    free(w);
}

static cl_int defer_whole(struct launch *L, const size_t *offset, const size_t *global,
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
            writes[n++] = arg_written(L, a);
        }
    struct skmd_defer_args args = {.run = whole_run, .done = whole_done, .arg = w};
    cl_int err = skmd_defer_real(L->q, e->nwait, e->wait, mems, writes, n, &args, e->event);
    if (err != CL_SUCCESS)
        free(w);
    return err;
}

cl_int skmd_split_launch(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *offset,
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
    pthread_mutex_init(&L->moved_lock, NULL);
    skmd_object_retain(&k->obj);
    /* A snapshot of the arguments: the app may set new ones while this launch runs. */
    L->args = calloc(k->nargs ? k->nargs : 1, sizeof *L->args);
    if (!L->args) {
        pthread_mutex_destroy(&L->moved_lock);
        free(L);
        skmd_clReleaseKernel(k);
        return CL_OUT_OF_HOST_MEMORY;
    }
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
    if (err == CL_SUCCESS)
        note_streams(L);
    /* A launch on a buffer that a gated command in flight touches is gated too. */
    for (cl_uint a = 0; a < k->nargs && err == CL_SUCCESS && !e->gated; a++)
        e->gated = L->args[a].mem && skmd_defer_touches(L->args[a].mem, 1);
    const char *why = err == CL_SUCCESS ? plan(L, offset, global, local, L->shares,
                                               &L->nshares)
                                        : "arguments";
    if (err == CL_SUCCESS && !why) {
        if (start_async(L, e) == CL_SUCCESS)
            return CL_SUCCESS; /* L belongs to the launcher thread now */
        why = "split launch could not be queued";
    }
    L->number = atomic_fetch_add(&launch_number, 1) + 1;
    if (err == CL_SUCCESS)
        tell_whole_once(L, why);
    if (err == CL_SUCCESS && e->gated) {
        err = defer_whole(L, offset, global, local, e, why);
        if (err == CL_SUCCESS)
            return CL_SUCCESS; /* L belongs to the launcher thread now */
    } else if (err == CL_SUCCESS)
        err = run_whole(L, offset, global, local, e);
    report(L, why, L->shares, 0, L->t0);
    free_launch(L);
    return err;
}
