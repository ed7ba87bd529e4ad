/* libskmd/plan/plan_request.h: what the plan is asked about one launch (the request) and
 * what it answers with beside the shares (the ticket, handed back with the measured
 * times): the words that plan.h's callers and every plan*.c file share. */
#ifndef SKMD_PLAN_REQUEST_H
#define SKMD_PLAN_REQUEST_H

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

#endif
