/* libskmd/plan/plan.h: the shares of one split launch, decided by the partitioner from the
 * profile database, and the measured times of the shares fed back (plan*.c).
 *
 * Every function may be called from any thread at any time (one lock inside plan*.c).
 * Controls: SKMD_SPLIT forces the shares; SKMD_POLICY picks the policy (equal is
 * share.c's old rule exactly); SKMD_MODE=single gives the whole launch to the member
 * the profile says is fastest; SKMD_PROFILE_SWEEP makes the first launches of a kernel
 * try each member alone and a few share sizes; SKMD_REFINE folds measured times into
 * the tables, stored in SKMD_PROFILE_DB every SKMD_PROFILE_FLUSH launches and at exit. */
#ifndef SKMD_PLAN_H
#define SKMD_PLAN_H

#include <stdint.h>

#include "../../transform/record.h"
#include "support/object.h"
#include "plan/placement_cycle.h"

/* One launch as launch_plan.c sees it (nothing is kept after the call). */
struct skmd_plan_request {
    cl_kernel kernel;
    const struct skmd_kernel_record *rec;
    const struct skmd_arg *args;      /* the launch's argument snapshot (rec->nparams) */
    const int64_t *scalars;           /* scalar values for the footprint evaluator */
    const struct skmd_launch *shape;
    uint64_t total_groups;
    const unsigned char *eligible;    /* per member: may take a share */
    int exec_member;                  /* the app queue's member */
    uint64_t unit;                    /* shares in multiples of this many groups (0, 1:
                                         any; share_align.h) */
    int merge_probe;                  /* skmd_share_probe_merge for the eligible members at
                                         unit, as launch_plan.c probed it with the unit (1:
                                         shares need the merge); -1: not probed */
};

/* What a decision was made from, handed back with the measured times. */
struct skmd_plan_ticket {
    int learn;        /* 1: the measured times refine this kernel's tables */
    /* 1: the whole launch goes to the queue's member on a rate never measured at this
     * size: run it as one share anyway, so that its time is measured (a launch run whole
     * on the app's queue is not), and later launches decide from a measurement. */
    int measure;
    uint64_t kernel;  /* kernel identity hash */
    uint32_t shape;   /* launch shape class */
    uint64_t count[SKMD_MAX_MEMBERS];
    /* The guard's word on a decision that splits (partitioner's enum skmd_part_run + 1;
     * 0: not guarded), the member of a whole run, and the decision cache's key. */
    int guard;
    int guard_dev;
    int guard_offhost; /* 1: the split runs without the members on the host's cores */
    /* 1: member m's first share of this kernel: its host-side time holds the driver's
     * compilation of the kernel (a second on PoCL), not the member's launch latency. */
    unsigned char first_share[SKMD_MAX_MEMBERS];
    uint64_t key_shape, key_buffers;
    /* 1: the shares are a placement's: the app's writes put its inputs in place
     * (placement.h). */
    int placed;
    struct skmd_plan_cycle cycle; /* a sample of the placement's guard (placement_cycle.h) */
    /* 1: the shares are the partitioner's decision as estimated: member m to finish
     * est_ms[m] after the launch begins, its kernel taking est_kernel_ms[m]. */
    int estimated;
    double est_ms[SKMD_MAX_MEMBERS], est_kernel_ms[SKMD_MAX_MEMBERS];
    /* The model's estimates of the launch whole on its fastest member (est_whole_member)
     * and split (the partitioner's split, or an even one when it chose one member); 0:
     * not estimated; est_whole_ms is 0 too when a share holds a member's first share,
     * whose time holds the driver's compilation). For the user's reasons and the report. */
    double est_whole_ms, est_split_ms;
    int est_whole_member;
    double est_alone_ms[SKMD_MAX_MEMBERS]; /* each member alone (0: not estimated) */
    /* In plain words, why the launch runs whole on one member, when the plan says so
     * ("" otherwise). */
    char why_whole[160];
    /* What decided the shares, as a stable word (docs/tools.md, the decision log; NULL:
     * the partitioner), and 1 when it was the partitioner's last decision, kept. */
    const char *code;
    int kept;
};

/* Fills count[m] for every member (0 where not eligible; the counts sum to
 * r->total_groups, each member's groups one contiguous range in member order) and the
 * ticket. Returns the number of members with a share (0 when none can take one). */
int skmd_plan_shares(const struct skmd_plan_request *r, uint64_t *count,
                     struct skmd_plan_ticket *ticket);

/* The launch's shares ran: ms[m] is member m's kernel time (<= 0: not measured), and
 * finish_ms[m] (NULL: none) the milliseconds from the launch's start to the end of its
 * share, which teach a split the model's error beyond the kernels (finish offsets). */
void skmd_plan_observe(const struct skmd_plan_ticket *ticket, const double *ms,
                       const double *finish_ms);

/* The launch planned in `ticket` ran, `ms` on the host's clock from the start of its
 * shares to the end of the last one (merges included): the guard's sample. */
void skmd_plan_observe_wall(const struct skmd_plan_ticket *ticket, double ms);

/* A peer copy (no host) of `bytes` from member `from` to member `to` ran `ms` on the
 * device: the partitioner prices inputs current only on `from` at that rate. */
void skmd_plan_observe_peer(int from, int to, uint64_t bytes, double ms);

/* A share on `member` took `ms` more on the host's clock (from its launch to its
 * completion seen by libskmd) than its kernel time: the member's per-share latency,
 * smoothed and charged by the partitioner to every share on it. */
void skmd_plan_observe_latency(int member, double ms);

/* Writes every refined table to the profile database now (also done at exit). */
void skmd_plan_flush(void);

#endif
