/* libskmd/launch/launch_shares.c: running a split launch's shares. Each share runs on its
 * member's thread (parallel.c; in turn on the app's thread with a PoCL 'basic' member):
 * it fetches to its member the bytes its groups read (gathered with the other shares'
 * where several take the same, gather.h), enqueues the partition-ready kernel for its
 * groups on the member's own queue (in pieces when transfers can overlap the kernel,
 * pieces.h; boxes of the app's source on the source route; the app's own kernel when it
 * has every group), waits and keeps its times. The plan is told the measured times; a
 * share that failed marks its member failed and is redone on a member that did its own,
 * and a launch whose split failed runs again as one share on one member. Then its
 * writes are committed (launch_commit.c). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "support/clock.h"
#include "mem/coherence.h"
#include "support/config.h"
#include "mem/fetch_batch.h"
#include "plan/host_busy.h"
#include "mem/inflight.h"
#include "launch/launch_commit.h"
#include "launch/launch_enqueue.h"
#include "launch/launch_plan.h"
#include "launch/launch_report.h"
#include "launch/launch_shares.h"
#include "support/log.h"
#include "mem/member_health.h"
#include "device/parallel.h"
#include "launch/pieces.h"
#include "plan/share_source.h"
#include "launch/verify.h"

static int fault_member(void)
{
    const char *v = skmd_config()->fault_member;
    return v[0] ? atoi(v) : -1;
}

/* PoCL 3.1's 'basic' device runs commands in whichever thread submits or completes work
 * on it, and deadlocks when that thread also completes another queue's command on the
 * device (seen here with the app queue's markers; pocl issue 1177 is the same family).
 * With such a member, split launches run to their end on the app's thread, shares in
 * turn, as one thread would. */
int launch_serial(void)
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
        if (!launch_is_buffer_param(L, p))
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
        launch_footprint(L, p, first, count, &fp);
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
    return launch_fetch_locked(L, mem, m, b, e);
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
    /* The app's own kernel object: its arguments may be changing for the next launch. */
    return launch_enqueue(L, &(struct launch_command){.kernel = L->k->real[m], .member = m,
                                                      .queue = wq, .offset = offset,
                                                      .global = global, .local = L->local,
                                                      .event = &sh->ev});
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
static cl_int start_groups(struct launch *L, int m, cl_command_queue wq, uint64_t first,
                           uint64_t count, cl_event *ev, cl_event timing[2])
{
    if (skmd_source_member(L->k->program, m))
        return skmd_source_share(L->k, m, wq, L->args, &L->shape, first, count, ev, timing);
    size_t global[3] = {count * L->local[0], L->local[1], L->local[2]};
    return launch_enqueue(L, &(struct launch_command){.kernel = L->k->split[m], .member = m,
                                                      .queue = wq, .hidden = 1, .first = first,
                                                      .global = global, .local = L->local,
                                                      .event = ev});
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
    return start_groups(pc->L, pc->m, wq, first, count, ev, timing);
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
    /* launch_finish_share waits for (done) and times the share by its first and last command. */
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
     * not cover the share's bound that launch_commit.c makes the member's. */
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
    return start_groups(L, m, wq, sh->first, sh->count, &sh->ev, sh->timing);
}

/* A member's copy no longer holds what the kernel may have written (a failed share). */
static void forget_writes(struct launch *L, int m)
{
    for (unsigned p = 0; p < L->rec->nparams; p++)
        if (launch_is_buffer_param(L, p) && (L->rec->params[p].access & SKMD_ACCESS_WRITE)) {
            cl_mem mem = L->args[p].mem;
            skmd_buffer_lock(mem);
            skmd_coh_forget(mem, m, 0, mem->size);
            skmd_buffer_unlock(mem);
        }
}

/* SKMD_FAULT_CORRUPT (test hook for SKMD_VERIFY): the first byte of the share's write
 * footprint in its first written buffer, flipped on its member before anything commits or
 * streams it. */
static void corrupt_share(struct launch *L, const struct share *sh)
{
    struct skmd_interval rd[MAX_INTERVALS], wr[MAX_INTERVALS];
    for (unsigned p = 0; p < L->rec->nparams; p++) {
        if (!launch_is_buffer_param(L, p) || !(L->rec->params[p].access & SKMD_ACCESS_WRITE))
            continue;
        struct skmd_footprint fp = {rd, wr, MAX_INTERVALS, MAX_INTERVALS, 0, 0, 0};
        launch_footprint(L, p, sh->first, sh->count, &fp);
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
        sh->err = launch_finish_share(sh);
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
    launch_trace_span(L, sh->member, SKMD_TRACE_KERNEL, sh->start_ns, sh->count);
    if (sh->done == 1 && sh->member == skmd_verify_corrupt_member())
        corrupt_share(L, sh);
    if (sh->done == 1) /* after the share's timing: a transfer span of its own */
        launch_stream_share(L, sh);
    skmd_trace_set_thread_launch(0, NULL, -1);
}

/* Faults: the member of a share that failed is marked failed and its share redone by a
 * member that did its own. CL_OUT_OF_RESOURCES when one cannot be redone so (the caller
 * then runs the launch as one share). */
static cl_int redo_failed_shares(struct launch *L)
{
    struct share *shares = L->shares;
    int nshares = L->nshares;
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
                !launch_member_may_run(L, m))
                continue;
            shares[s].member = m;
            share_main(&shares[s]);
        }
        if (shares[s].done != 1)
            return CL_OUT_OF_RESOURCES;
    }
    return CL_SUCCESS;
}

/* Whether two shares of the launch are on devices of one PoCL platform and one of them
 * runs the kernel there for the first time: PoCL compiles a kernel at its first run, and
 * two of its devices doing so at once can corrupt its cache of compiled kernels (an
 * assertion in pocl_release_dlhandle_cache ends the process). */
static int first_runs_clash(const struct launch *L)
{
    for (int s = 0; s < L->nshares; s++)
        for (int t = s + 1; t < L->nshares; t++) {
            const struct skmd_member *a = &skmd_state.members[L->shares[s].member];
            const struct skmd_member *b = &skmd_state.members[L->shares[t].member];
            if (a->pocl && b->pocl && a->real_platform == b->real_platform &&
                (L->ticket.first_share[L->shares[s].member] ||
                 L->ticket.first_share[L->shares[t].member]))
                return 1;
        }
    return 0;
}

/* The launch's shares, all at once, each on its own thread and its member's own queue
 * (one after another where PoCL devices first run the kernel: first_runs_clash); then
 * failed shares redone and every share's writes committed (launch_commit.c). */
cl_int launch_run_split(struct launch *L)
{
    struct share *shares = L->shares;
    int nshares = L->nshares;
    for (int s = 0; s < nshares; s++)
        shares[s].L = L;
    uint64_t begin_ns = skmd_now_ns();
    gather_inputs(L);
    int clash = first_runs_clash(L);
    if (launch_serial() || clash)
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
        /* Shares run one after another for PoCL finish at no time the model can learn
         * from. */
        skmd_plan_observe(&L->ticket, ms, clash ? NULL : finish_ms);
        L->observed = 1;
    }
    cl_int err = redo_failed_shares(L);
    return err != CL_SUCCESS ? err : launch_commit_shares(L);
}

/* When the split failed: every group as one share on one healthy member (the queue's
 * if it can), which first receives every buffer whole, so no merge is needed. */
cl_int launch_run_as_one_share(struct launch *L)
{
    int m = -1;
    for (int i = 0; i < skmd_state.nmembers; i++) {
        int c = (L->q->member + i) % skmd_state.nmembers;
        if (m < 0 && L->k->split[c] && skmd_member_takes_shares(c) &&
            launch_member_may_run(L, c))
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
    return launch_run_split(L);
}
