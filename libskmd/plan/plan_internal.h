/* libskmd/plan/plan_internal.h: what the partitioner's files in the runtime (plan*.c)
 * share, for them only (see plan.h). Everything here is under plan_lock unless said
 * otherwise. */
#ifndef SKMD_PLAN_INTERNAL_H
#define SKMD_PLAN_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include "../../partitioner/skmd_part.h"
#include "../../partitioner/skmd_part_launch.h"
#include "../../profiledb/skmd_profiledb.h"
#include "plan/placement.h"
#include "plan/plan.h"
#include "plan/plan_guard_store.h"

#define PLAN_ALPHA 0.3      /* weight of a new measurement in the smoothed rate */
/* Marks the key of a launch's placement guard apart from the launch's own (plan_key_of). */
#define PLAN_KEY_PLACED 0x9E3779B97F4A7C15ull

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

/* The one lock over the partitioner's state in the runtime. The state below is
 * plan_setup.c's, set up once by plan_setup(). */
extern pthread_mutex_t plan_lock;
extern struct skmd_pdb *plan_db;
extern struct skmd_part_cache *plan_cache;
extern struct member_info plan_info[SKMD_MAX_MEMBERS];
/* Smoothed peer-copy rate from member a to member b, bytes/ms (0: never timed). */
extern double plan_peer_rate[SKMD_MAX_MEMBERS][SKMD_MAX_MEMBERS];
/* Smoothed bytes/ms the host's side carried for several members' transfers at once
 * (the transfer engine's windows, placed writes among them; 0: none seen). */
extern double plan_host_rate;
/* The same while a CPU member's share held the host's cores (0: none seen). */
extern double plan_host_busy_rate;
/* plan_twin[m][o]: members m and o are the same device model on the same driver. */
extern unsigned char plan_twin[SKMD_MAX_MEMBERS][SKMD_MAX_MEMBERS];
/* plan_twin_group[m]: the partitioner's twin_group of member m (skmd_part_device). */
extern int plan_twin_group[SKMD_MAX_MEMBERS];
/* plan_on_host[m]: member m is a CPU device, its kernels on the host's own cores. */
extern unsigned char plan_on_host[SKMD_MAX_MEMBERS];

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

/* plan_setup.c: the state above, set up once (plan_setup: any thread, no lock), the
 * policy, the plan's controls (any time), and the members' database ids for the guard
 * states and finish offsets. */
void plan_setup(void);
enum skmd_part_policy plan_policy(void);
const struct plan_settings *plan_settings(void);
struct skmd_plan_guard_members plan_guard_members(int64_t *ids);

/* plan_entries.c: the entries per (kernel, shape class), and a launch with its entry's
 * tables as partitioner/'s launch policy sees it (skmd_part_launch.h). */
struct entry *plan_entry_find(uint64_t kernel, uint32_t shape);
struct entry *plan_entry_for(uint64_t kernel, uint32_t shape, const char *name);
void plan_entries_store(void);
void plan_entries_free(void);
struct skmd_part_launch plan_launch_of(const struct skmd_plan_request *r,
                                       const struct entry *e);

/* plan.c: the decision, and the partitioner called on a launch's problem. */
void plan_key_of(const struct skmd_plan_request *r, uint64_t kernel, int placed,
                 struct skmd_part_key *key);
int plan_partition(const struct skmd_plan_request *r, struct entry *e,
                   const struct residency *resident, int use_cache,
                   struct skmd_part_result *res, int *map, int *n);

/* plan_cold.c: the shares that measure (sweep steps, cold-start and idle probes), by
 * partitioner/'s rules, with their logs. */
int plan_sweep(const struct skmd_plan_request *r, const struct entry *e, uint64_t s,
               uint64_t *count);
int plan_cold_start(const struct skmd_plan_request *r, struct entry *e,
                    const struct residency *resident, const unsigned char *measured,
                    int learn, uint64_t *count);
void plan_probe_idle(const struct skmd_plan_request *r, struct entry *e, uint64_t *count,
                     struct skmd_plan_ticket *t);

/* plan_memo.c: the partitioner's decision kept for the launches after it. */
int plan_memo_take(struct plan_memo *memo, const struct skmd_plan_request *r,
                   const struct skmd_part_key *key, const struct residency *resident,
                   struct skmd_part_result *res, int *map, int *n);
void plan_memo_keep(struct plan_memo *memo, const struct skmd_plan_request *r,
                    const struct skmd_part_key *key, const struct residency *resident,
                    const struct skmd_part_result *res, const int *map, int n);
void plan_memo_note_keep(struct plan_memo *memo, const struct skmd_plan_ticket *t);
void plan_memo_note_take(const struct plan_memo *memo, struct skmd_plan_ticket *t);
void plan_memo_drop(struct plan_memo *memo);
void plan_memo_table_moved(struct plan_memo *memo, double was, double now);

/* plan_guard.c: the measured guard on a decision that splits (its observer,
 * skmd_plan_observe_wall, is plan.h's). */
void plan_guard_split(const struct skmd_plan_request *r, struct entry *e,
                      const struct residency *resident, uint64_t *count,
                      struct skmd_plan_ticket *t);
void plan_guard_report(void);

/* plan_links.c: the members' link curves and the host's rates. At init (plan_setup): */
void plan_default_link(struct member_info *mi, int m, int cpu);
void plan_load_links(struct member_info *mi);
void plan_load_host_rates(void);
/* The transfer engine's observers, which take plan_lock themselves: */
void plan_observe_transfer(int member, int to_device, int pinned, uint64_t bytes, double ms);
void plan_observe_window(uint64_t bytes, double ms, int members);
/* Under plan_lock: */
void plan_smooth(double *figure, double measured);
void plan_store_host_rates(const struct skmd_plan_guard_members *members);
void plan_store_link(int m, int dir, int mem);
const struct skmd_part_link_curve *plan_link_curve(int m, int dir, int mem);

/* plan_problem.c: the partitioner's problem from the runtime's state. These three need
 * no plan_lock (the request alone); plan_resident_inputs takes each buffer's lock, so it
 * is called before plan_lock is taken: */
void plan_share_bytes(const struct skmd_plan_request *r, uint64_t first, uint64_t count,
                      double *in, double *out, int *exact);
void plan_resident_inputs(const struct skmd_plan_request *r, struct residency *where);
int plan_pieces_allowed(const struct skmd_plan_request *r);
/* Under plan_lock: */
int plan_build_problem(const struct skmd_plan_request *r, const struct entry *e,
                       const struct residency *resident, struct skmd_part_device *dev,
                       int *map, struct skmd_part_problem *p);
void plan_predict(const struct skmd_plan_request *r, struct entry *e);

/* plan_place.c: the app's writes placed or not, and the placement's guard. */
int plan_place_inputs(const struct skmd_plan_request *r, struct entry *e,
                      const struct residency *resident, double app_part, int always,
                      uint64_t *place);
int plan_place_measured(const struct skmd_plan_request *r, struct entry *e,
                        const struct skmd_part_key *key);
void plan_cycle_sample(struct entry *e, const struct skmd_part_key *key,
                       const struct skmd_placement_since *since, struct skmd_plan_ticket *t);
int plan_unplaced_sample_member(const struct skmd_plan_request *r, struct entry *e,
                                const struct skmd_part_key *placed_key);
void plan_cycle_launch_ended(const struct skmd_plan_ticket *t);

#endif
