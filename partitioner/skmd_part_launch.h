/* libskmd partitioner: the launch policy around skmd_part_decide().
 *
 * The rules that decide a launch from numbers alone, beyond the shares the model finds:
 * what a kernel with no measured rate runs first (the cold start, the profiling sweep),
 * when a member the decision leaves idle gets a trial share (probes), which member runs a
 * launch whole and when a decision stays where it is (stickiness), and which launches the
 * measured guard (skmd_part.h) judges.
 *
 * Plain C, no OpenCL, no lock, no allocation: each rule reads the figures it is handed
 * (tables, counts, times, flags per member) and changes only the plain state it is handed
 * (a counter, a member index, an array of counts). The runtime (libskmd/plan/) gathers the
 * figures, calls the rules and records what they decided. docs/partitioner.md, "The
 * launch policy", gives each rule and its reasons.
 */
#ifndef SKMD_PART_LAUNCH_H
#define SKMD_PART_LAUNCH_H

#include <stdint.h>

#include "skmd_part.h"

/* One launch as the launch policy sees it; members are the partitioner's devices, in the
 * runtime's order. */
struct skmd_part_launch {
    int n;                               /* members, 1..SKMD_PART_MAX_DEVICES */
    uint64_t total;                      /* the launch's work-groups */
    const unsigned char *eligible;       /* per member: may take a share */
    const unsigned char *on_host;        /* per member: a CPU device (runs on the host's cores) */
    const int *twin_group;               /* per member: skmd_part_device's twin_group */
    const struct skmd_part_table *table; /* per member: its table for the launch's kernel */
    int exec;                            /* the app queue's member, -1: none */
    const unsigned char *link_known;     /* per member: a figure for its host link, timed
                                            or calibrated; NULL: none */
};

/* ---- Members ------------------------------------------------------------------------- */

/* 1 when the table holds a measured rate (a range with samples), not only predictions. */
int skmd_part_table_measured(const struct skmd_part_table *t);
/* 1 when members a and b (a != b) are twins: the same device model and driver. */
int skmd_part_twins(const struct skmd_part_launch *l, int a, int b);
/* 1 when member m has a measured rate: its own, or an eligible twin's (the problem lends
 * a twin's table). */
int skmd_part_rated(const struct skmd_part_launch *l, int m);
/* The member that takes a launch whole when nothing is measured: the queue's member when
 * it is not a CPU, else the first eligible member that is not a CPU (GPUs first), else
 * the queue's member, else the first eligible one; -1: none eligible. */
int skmd_part_preferred(const struct skmd_part_launch *l);
/* The fastest eligible member for the whole launch by the tables (measured: members with
 * a measured rate only, else predictions too); -1: none. */
int skmd_part_fastest(const struct skmd_part_launch *l, int measured);

/* ---- Cold start ---------------------------------------------------------------------- */

/* The profiling sweep (SKMD_PROFILE_SWEEP=sizes): step j * n + m gives member m every
 * work-group at j = 0, total / 4^j of them (at least 1) later, and the eligible others
 * (others[], 0 at j = 0) the rest. Returns 1 with *member and *share; 0 when the sweep is
 * over or member m cannot take a share this launch. */
int skmd_part_sweep_step(const struct skmd_part_launch *l, uint64_t step, int sizes,
                         int *member, uint64_t *share, unsigned char *others);

/* The probe share of the cold start is this fraction of the work-groups (at least 1); a
 * CPU's beside a GPU, this fraction of that again (at least 1). */
#define SKMD_PART_COLD_PROBE_DIV 32
#define SKMD_PART_COLD_CPU_DIV 32

/* Why the cold start's bulk member took the rest. */
enum skmd_part_bulk_why {
    SKMD_PART_BULK_RATED = 0,     /* no bulk member: the rated members split the rest */
    SKMD_PART_BULK_PREFERRED_GPU, /* the preferred member, not a CPU */
    SKMD_PART_BULK_PREDICTED,     /* the fastest by the static prediction */
    SKMD_PART_BULK_PREFERRED,     /* the preferred member: no prediction */
};

struct skmd_part_cold {
    uint64_t probe;       /* work-groups of a probe share (0: nothing is learnt) */
    uint64_t probe_of[SKMD_PART_MAX_DEVICES]; /* each member's probe (a CPU's beside a
                                                 GPU is smaller), 0: none */
    uint64_t rest;        /* work-groups beyond the probes */
    int bulk;             /* the member given the rest, -1: the rated members split it */
    int why;              /* enum skmd_part_bulk_why */
    int nprobed;          /* members probed */
    int nunmeasured;      /* eligible members without a rate */
    unsigned char probed[SKMD_PART_MAX_DEVICES];
};

/* The cold start of a launch with eligible members that have no rate (rated[m]:
 * skmd_part_rated). One member of each kind of unrated device gets a probe share of
 * total / SKMD_PART_COLD_PROBE_DIV (at least 1; 0 when !learn: nothing would be measured),
 * a CPU beside an eligible GPU a 1/SKMD_PART_COLD_CPU_DIV of that (at least 1);
 * a twin of one probed or of the bulk member gets none, unless it is off the host's cores
 * and neither it nor a twin has a figure for its link (the default would price it). With no member rated the rest goes to one bulk member: the preferred member
 * when it is not a CPU, else the fastest by the prediction, else the preferred one.
 * Returns 1 with count[] (n entries) holding the probes and the bulk member's rest (when
 * bulk >= 0; else the caller splits out->rest among the rated members); 0 (count
 * untouched) when the launch is too small: fewer work-groups than members, or the probes
 * would take them all. */
int skmd_part_cold_start(const struct skmd_part_launch *l, const unsigned char *rated,
                         int learn, uint64_t *count, struct skmd_part_cold *out);

/* ---- Probes of idle members ---------------------------------------------------------- */

/* 1 launch in SKMD_PART_PROBE_EVERY of a kernel probes a member its decision leaves
 * idle. */
#define SKMD_PART_PROBE_EVERY 64
/* A probe that would be a member's first part of the kernel in the process (which builds
 * the kernel there, on the launch's path) waits until the kernel had this many launches. */
#define SKMD_PART_PROBE_UNBUILT_AFTER 1024

enum skmd_part_probe_outcome {
    SKMD_PART_PROBE_NONE = 0, /* not due, nothing to probe, or no rate to size it from */
    SKMD_PART_PROBE_UNBUILT,  /* due, but `unbuilt` has not run a part of the kernel yet */
    SKMD_PART_PROBE_NO_FIT,   /* due, but no share fits (see skmd_part_idle_probe) */
    SKMD_PART_PROBE_RUN,      /* count[] now holds the probe */
};

struct skmd_part_idle {
    int donor;       /* the member with the most work-groups, -1: none */
    int idle;        /* the idle member probed, -1: none */
    int unbuilt;     /* SKMD_PART_PROBE_UNBUILT: the member that has not run a part */
    uint64_t size;   /* the probe's work-groups */
    double size_ms;  /* its estimated kernel time */
    double donor_ms; /* the donor's estimated time (kernel and launch latency) */
};

/* The probe of an idle member. Due when learn, launches % SKMD_PART_PROBE_EVERY ==
 * SKMD_PART_PROBE_EVERY - 1 (launches: the kernel's decisions so far, this one counted),
 * the guard's run (enum skmd_part_run, -1: none) is no whole sample, retry or other split
 * (their times must stay clean), and the launch has 2 work-groups or more. The idle member
 * is the first eligible member with a measured rate and no share, from *probe_turn on
 * (then moved past it); the donor the member with the most work-groups. The probe is the
 * largest power of two, at most half the launch, that the idle member's table (its best
 * measured rate at sizes never measured) says runs, with its launch latency, in half of
 * the donor's estimated time; none when that is 0, not below the donor's share, or
 * shorter than the idle member's launch latency (the probe would measure the latency).
 * launch_ms[m]: member m's per-share latency; ran_part[m]: m ran a part of this kernel in
 * the process. Returns the outcome; with SKMD_PART_PROBE_RUN the donor gives the probe to
 * the idle member in count[]. */
int skmd_part_idle_probe(const struct skmd_part_launch *l, int learn, uint64_t launches,
                         int guard_run, const double *launch_ms,
                         const unsigned char *ran_part, int *probe_turn, uint64_t *count,
                         struct skmd_part_idle *out);

/* ---- What the measured shares teach ---------------------------------------------------- */

/* skmd_part_observe_share: the share is no sample. */
#define SKMD_PART_NO_SAMPLE 1

/* Folds member's measured share (n work-groups, ms) into its table t (skmd_part_observe,
 * alpha). A first share of the kernel on the member in the process (first) is no sample
 * where t already holds a measurement (SKMD_PART_NO_SAMPLE, nothing changes); into a
 * table without one it is taken, for the cold start needs a rate, but provisionally: t as
 * it was goes to *before, and the member's next share replaces the provisional sample
 * instead of blending with it (*provisional: 1 while one is held). Returns
 * skmd_part_observe's status otherwise. */
int skmd_part_observe_share(struct skmd_part_table *t, struct skmd_part_table *before,
                            unsigned char *provisional, int first, uint64_t n, double ms,
                            double alpha);
/* For a launch that a learning runtime runs whole on the queue's member: 1 when it runs as
 * one timed share rather than the app's kernel as it is (untimed): its table has no
 * sample at the launch's size (samples_at_size), or it is the guard's whole sample
 * (guard_run, enum skmd_part_run, -1: none) or a sample of the placement's guard. */
int skmd_part_time_whole(uint32_t samples_at_size, int guard_run, int placement_sample);

/* ---- Stickiness ---------------------------------------------------------------------- */

/* A whole launch leaves the member holding most of its inputs only for a member measured
 * this much faster, and once away stays while that member is this much faster. */
#define SKMD_PART_MOVE_GAIN 1.5
#define SKMD_PART_STAY_GAIN 1.2

/* A launch given whole to one member (count[]) goes back to its home, the eligible member
 * holding most of its inputs (resident_in[m], ties: the preferred member), unless the
 * home has no measured rate or the member is SKMD_PART_MOVE_GAIN faster there
 * (SKMD_PART_STAY_GAIN when *away already says it left for that member). *away: member +
 * 1 the launch last left home for, 0: at home. */
void skmd_part_keep_home(const struct skmd_part_launch *l, const double *resident_in,
                         int *away, uint64_t *count);

/* The member the guard's whole samples go to: the fastest measured member, or its home
 * by skmd_part_keep_home (away: the entry's state, read only); the member last sampled
 * (kept, -1: none) stays unless that one is SKMD_PART_MOVE_GAIN faster. -1: none
 * measured. */
int skmd_part_whole_sample_dev(const struct skmd_part_launch *l, const double *resident_in,
                               int away, int kept);

/* A new decision replaces the decision cache's kept one only when estimated this much
 * faster (skmd_part_cache_new's hysteresis): timings on shared cores are noisy. */
#define SKMD_PART_HYSTERESIS 0.10

/* The partitioner's decision is reused, not made again, by this many launches after it
 * that ask the same, while they run whole and no table moves more than
 * SKMD_PART_REUSE_DRIFT (a fraction) at a measured share's size. */
#define SKMD_PART_REUSE_LAUNCHES 8
#define SKMD_PART_REUSE_DRIFT 0.03

/* The reuse counter (*left: launches the kept decision may still serve). take: 1 (and
 * one fewer left) when some are left and the launch asks the same (same != 0); when it
 * does not, none are left. keep: a new decision, SKMD_PART_REUSE_LAUNCHES left. end: none
 * left (a launch ran split). moved: a table's rate at a measured size went from was to
 * now; none left when it moved beyond the drift (or was unknown). */
int skmd_part_reuse_take(int *left, int same);
void skmd_part_reuse_keep(int *left);
void skmd_part_reuse_end(int *left);
void skmd_part_reuse_moved(int *left, double was, double now);

/* ---- Which launches the guard judges ------------------------------------------------- */

/* 1 when a decision with `shares` members at work is guarded: it splits, the runtime
 * learns (its wall times are measured) and the policy is not the linear one, which stays
 * the blind baseline it is meant to be. */
int skmd_part_guard_applies(int shares, int learn, enum skmd_part_policy policy);
/* 1 when the split without the members on the host's cores differs from count[]'s: a
 * member on the host's cores has a share and two or more eligible others can take the
 * launch (with one, that split is the guard's whole run). */
int skmd_part_offhost_differs(const struct skmd_part_launch *l, const uint64_t *count);
/* 0 when a launch is no sample for a guard: a member with a share ran its first share of
 * the kernel in the process (first_share[m]), whose time holds one-time costs (the
 * kernel built there, buffers allocated). */
int skmd_part_guard_sample_clean(int n, const uint64_t *count,
                                 const unsigned char *first_share);

#endif
