/* libskmd/plan/plan_state.h: what the partitioner's files in the runtime (plan*.c) share,
 * for them only (the entry points are plan.h's): the entries per kernel, the members'
 * figures, the one lock over them and the controls the plan reads. Everything here is
 * under plan_lock unless said otherwise. Each plan*.c file has a header of its own for
 * its functions. */
#ifndef SKMD_PLAN_STATE_H
#define SKMD_PLAN_STATE_H

#include <pthread.h>
#include <stdint.h>

#include "../../partitioner/skmd_part.h"
#include "../../partitioner/skmd_part_launch.h"
#include "../../profiledb/skmd_profiledb.h"
#include "plan/placement_cycle.h"
#include "plan/plan_guard_store.h"
#include "plan/plan_request.h"

#define PLAN_ALPHA 0.3      /* weight of a new measurement in the smoothed rate */

/* Where a launch's read bytes are, per member (plan_resident_inputs), and whether its shares
 * can run in pieces (plan_pieces_allowed): what the problem needs beyond the request, found
 * before plan_lock is taken. */
struct residency {
    double in[SKMD_MAX_MEMBERS];     /* fraction current on the member */
    double remote[SKMD_MAX_MEMBERS]; /* fraction current only on other members */
    int from[SKMD_MAX_MEMBERS];      /* the member holding most of those, -1: none */
    int pieces;                      /* 1: shares on a member with a link may run in pieces */
    int placed;                      /* 1: the inputs are where a placement put them */
    uint64_t placed_count[SKMD_MAX_MEMBERS]; /* that placement's shares (placement.h) */
};

/* The partitioner's last decision, kept for the launches after it that ask the same while
 * they run whole (plan_memo.c). */
struct plan_memo {
    int left;         /* launches it may still serve (skmd_part_reuse_take; 0: none) */
    uint64_t request; /* the launch's arguments and members (memo_request) */
    struct skmd_part_key key;
    struct residency where;
    struct skmd_part_result res;
    int map[SKMD_MAX_MEMBERS], n;
    /* The estimates given as the decision's reason (note_whole_vs_split), kept with it. */
    double est_whole_ms, est_split_ms, est_alone_ms[SKMD_MAX_MEMBERS];
    int est_whole_member;
};

struct entry {
    uint64_t kernel;
    uint32_t shape;
    char name[128];
    int dirty;         /* tables or finish offsets learnt since they were stored */
    uint64_t launches; /* decisions made for this entry */
    struct skmd_part_table table[SKMD_MAX_MEMBERS];
    int predicted;
    int probe_turn;    /* the idle member the next probe goes to starts the search */
    unsigned char had_share[SKMD_MAX_MEMBERS]; /* the kernel ran on the member before */
    unsigned char ran_part[SKMD_MAX_MEMBERS];  /* ... a part of a launch, not the whole */
    int away;          /* member + 1 a whole launch last left home for (skmd_part_keep_home) */
    /* A member's table before its first share's sample, which the next sample replaces
     * (skmd_plan_observe). */
    struct skmd_part_table unsampled[SKMD_MAX_MEMBERS];
    unsigned char provisional[SKMD_MAX_MEMBERS];
    /* The placement guard's sample chosen for the next launch (run 0: none; no times
     * yet: plan_place_measured), and its samples under way (plan_cycle_sample). */
    struct skmd_plan_cycle next_cycle;
    struct skmd_cycle_log cycles; /* the placement guard's samples (plan_cycle_sample) */
    /* A sample whose cycle was a warm-up (skmd_cycle_warmup): the next cycle runs it
     * again (run 0: none). */
    struct skmd_plan_cycle repeat;
    int feeds_told; /* logged once: its writes are not placed (outputs feed kernels) */
    /* Milliseconds each member's shares of a split finished beyond the model's estimate,
     * the kernel's own error aside (skmd_part_observe_finish): the split_ms of its
     * shares in this kernel's problems. */
    double finish_offset[SKMD_MAX_MEMBERS];
    unsigned char offset_known[SKMD_MAX_MEMBERS]; /* read from the database or learnt */
    struct plan_memo memo;
    struct entry *next;
};

struct member_info {
    int64_t db_id;     /* -1: no row in the database */
    int link;          /* -1: shares host memory */
    struct skmd_part_link_curve curve[2][2];
    struct skmd_part_peaks peaks;
    double peak_rate;  /* compute units x MHz: only proportions matter (linear policy) */
    double launch_ms;  /* smoothed per-share latency beyond the kernel time (0: none yet) */
    unsigned char link_dirty[2][2]; /* curve[dir][mem] refined since it was stored */
    unsigned char link_known[2][2]; /* curve[dir][mem] calibrated or timed, not a guess */
};

/* The one lock over the partitioner's state in the runtime. The state below is defined in
 * plan_state.c and set up once by plan_setup() (plan_setup.c). */
extern pthread_mutex_t plan_lock;
extern struct skmd_pdb *plan_db;
extern struct skmd_part_cache *plan_cache;
extern struct member_info plan_info[SKMD_MAX_MEMBERS];
/* Smoothed peer-copy rate from member a to member b, bytes/ms (0: never timed). */
extern double plan_peer_rate[SKMD_MAX_MEMBERS][SKMD_MAX_MEMBERS];
/* plan_twin[m][o]: members m and o are the same device model on the same driver. */
extern unsigned char plan_twin[SKMD_MAX_MEMBERS][SKMD_MAX_MEMBERS];
/* plan_twin_group[m]: the partitioner's twin_group of member m (skmd_part_device). */
extern int plan_twin_group[SKMD_MAX_MEMBERS];
/* plan_on_host[m]: member m is a CPU device, its kernels on the host's own cores. */
extern unsigned char plan_on_host[SKMD_MAX_MEMBERS];
/* plan_link_timed[m]: member m's host link to it was timed or calibrated (under plan_lock,
 * refreshed for each launch by plan_launch_of). */
extern unsigned char plan_link_timed[SKMD_MAX_MEMBERS];

/* The controls the plan reads on every launch, read once (plan_settings). */
struct plan_settings {
    int single;          /* SKMD_MODE=single: every launch whole on one member */
    int forced;          /* SKMD_SPLIT gives the shares */
    int sweep;           /* SKMD_PROFILE_SWEEP */
    int learn;           /* SKMD_REFINE or a sweep: launches refine the tables */
    int place_always;    /* SKMD_PLACE_WRITES=always: placement without its guard */
    size_t direct_bytes; /* SKMD_TRANSFER_DIRECT_KIB, in bytes */
    int flush_every;     /* SKMD_PROFILE_FLUSH */
};

/* The policy decisions are made with (SKMD_POLICY), read at setup (plan_read_policy). */
void plan_read_policy(void);
enum skmd_part_policy plan_policy(void);
/* The controls the plan reads on every launch: any time, no plan_setup() needed. */
const struct plan_settings *plan_settings(void);
/* The members' database ids and the policy, for the guard states kept in the database. */
struct skmd_plan_guard_members plan_guard_members(int64_t *ids);

#endif
