/* libskmd/launch/launch_internal.h: one app launch as launch*.c share it, for those files
 * only (the entry point is launch.h). A launch is a snapshot of the app's arguments, its
 * shape and, when split, its shares; each launch*.c file does one job on it, named below by
 * the file that owns it. */
#ifndef SKMD_LAUNCH_INTERNAL_H
#define SKMD_LAUNCH_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include "../../transform/record.h"
#include "mem/coherence.h"
#include "device/api.h"
#include "support/error.h"
#include "support/object.h"
#include "launch/gather.h"
#include "launch/launch.h"
#include "support/registry.h"
#include "plan/plan.h"
#include "plan/share_align.h"
#include "support/trace.h"

#define MAX_INTERVALS SKMD_SHARE_INTERVALS

struct launch;

/* One member's contiguous range of a split launch's linear work-groups. */
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

/* One app launch, from the snapshot of its arguments to its report. */
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
    const char *why_code;           /* why it runs whole, as a stable word (decision_log.h) */
    size_t app_global[3], app_local[3]; /* the app's sizes (app_local 0: none given) */
};

/* Whether parameter p is a buffer argument (global or constant, a libskmd buffer). */
static inline int launch_is_buffer_param(const struct launch *L, unsigned p)
{
    enum skmd_param_kind kind = L->rec->params[p].kind;
    return (kind == SKMD_PARAM_GLOBAL || kind == SKMD_PARAM_CONSTANT) && L->args[p].mem;
}

/* Whether argument a of the launch is written (unknown kernels: every buffer is). */
static inline int launch_arg_written(const struct launch *L, cl_uint a)
{
    return !L->rec || (L->rec->params[a].access & SKMD_ACCESS_WRITE);
}

/* The footprint of param p for groups [first, first+count), clamped to the buffer; on
 * failure the whole buffer, read and written inexactly. */
static inline void launch_footprint(const struct launch *L, unsigned p, uint64_t first,
                                    uint64_t count, struct skmd_footprint *fp)
{
    struct skmd_share_view view = {L->rec, L->args, L->scalars, &L->shape};
    skmd_share_footprint(&view, p, first, count, fp);
}

/* launch.c: one launch's life. */
int launch_serial(void);
void launch_free(struct launch *L);

/* launch_plan.c: whole or split, and the shares. */
int launch_member_may_run(const struct launch *L, int m);
const char *launch_plan(struct launch *L, const size_t *offset, const size_t *global,
                        const size_t *local, struct share *shares, int *nshares);
void launch_tell_whole_once(struct launch *L, const char *why);

/* launch_enqueue.c: a real kernel's arguments and its enqueue, as one step. */
struct launch_command {
    cl_kernel kernel;        /* the real kernel on `member` (the app's, split or merge) */
    int member;
    cl_command_queue queue;  /* a real queue of that member */
    int hidden;              /* 1: the 8 hidden arguments after the app's (and `sources`) */
    uint64_t first;          /* hidden: the first work-group */
    const cl_mem *sources;   /* hidden, merge kernel: the other member's copies */
    unsigned nsources;
    const size_t *offset, *global, *local;
    cl_uint nwait;
    const cl_event *wait;
    cl_event *event;
};
cl_int launch_enqueue(struct launch *L, const struct launch_command *c);

/* launch_shares.c: the shares on their members, a failed member's share redone. */
cl_int launch_finish_share(struct share *sh);
cl_int launch_run_split(struct launch *L);
cl_int launch_run_as_one_share(struct launch *L);

/* launch_commit.c: where the launch's bytes are (fetched, written, streamed). */
cl_int launch_fetch_locked(struct launch *L, cl_mem mem, int dst, uint64_t b, uint64_t e);
cl_int launch_written_locked(cl_mem mem, int owner, uint64_t b, uint64_t e);
void launch_note_streams(struct launch *L);
void launch_stream_share(struct launch *L, struct share *sh);
cl_int launch_commit_shares(struct launch *L);

/* launch_merge.c: the merge kernel. */
cl_int launch_merge_share(struct launch *L, const struct share *sh);

/* launch_whole.c: whole launches, on the app's thread or deferred to the launcher. */
cl_int launch_run_whole(struct launch *L, const size_t *offset, const size_t *global,
                        const size_t *local, struct skmd_enqueue *e);
cl_int launch_defer_whole(struct launch *L, const size_t *offset, const size_t *global,
                          const size_t *local, struct skmd_enqueue *e, const char *why);

/* launch_report.c: what the launch tells (bytes, span, trace, log line, report row). */
void launch_add_moved(struct launch *L, const struct skmd_moved *m);
void launch_widen_span(struct launch *L, int m, cl_ulong start, cl_ulong end);
void launch_trace_span(const struct launch *L, int device, enum skmd_trace_kind kind,
                       uint64_t start, uint64_t groups);
void launch_report(const struct launch *L, const char *why, const struct share *shares,
                   int nshares, uint64_t t0);

#endif
