/* libskmd/launch/launch_state.h: one app launch as the launch*.c files share it, for those
 * files only (the entry point is launch.h): a snapshot of the app's arguments, its shape
 * and, when split, its shares; what every step asks of it (which parameters are buffers,
 * which are written, a share's footprint); and its release. Each launch*.c file does one
 * step on it and has a header of its own. */
#ifndef SKMD_LAUNCH_STATE_H
#define SKMD_LAUNCH_STATE_H

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

/* Lets go of what the launch holds: the snapshot, the buffers and the kernel. */
void launch_free(struct launch *L);

#endif
