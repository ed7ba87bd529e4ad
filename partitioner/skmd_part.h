/* libskmd partitioner: how many work-groups each device gets for one kernel launch.
 *
 * Plain C, no OpenCL. The runtime fills a `struct skmd_part_problem` (one
 * `struct skmd_part_device` per member device, the bytes a share moves, the merge cost),
 * calls skmd_part_decide() and launches each device on its contiguous range. It reports
 * measured times back with skmd_part_observe() so the tables improve; skmd_part_cache
 * keeps one decision per launch key and replaces it only when a new one is clearly better.
 *
 * Model (docs/partitioner.md gives every choice in full):
 *   time(d, n) = in(d, n) + n / rate_d(n) + out(d, n) + merge(d, n)   for a share n > 0,
 *   time(d, 0) = 0; a share that runs in k pieces (max_pieces) overlaps the first two
 *   terms: skmd_part_pieces_ms(in, kernel, k). Transfers of devices that share a link
 *   are serialized (each waits for all inputs, then for all outputs, of its link); merges
 *   run on the host CPU, so the host device's time also grows by every other device's
 *   merge. The overall time of a decision is the largest device time; ties are broken by
 *   the sum.
 *
 * Nothing here allocates except skmd_part_cache; every function is reentrant.
 */
#ifndef SKMD_PART_H
#define SKMD_PART_H

#include <stddef.h>
#include <stdint.h>

#define SKMD_PART_MAX_DEVICES 16
/* A performance table has this many size ranges: range k holds shares of n work-groups
 * with 2^k <= n < 2^(k+1); the last range holds everything from 2^15 up. */
#define SKMD_PART_RANGES 16
/* Points of a piecewise-linear link curve. */
#define SKMD_PART_LINK_POINTS 8
/* Algorithm 1 never takes steps smaller than total / 2048. */
#define SKMD_PART_MAX_STEPS 2048
/* Tolerance loop: a failed step is retried with 2, 4, ... 2^10 times its size. */
#define SKMD_PART_TOLERANCE_DOUBLINGS 10
/* Stand-in for "never finishes" (zero rate, zero bandwidth): finite, so that differences
 * and sums of times never turn into NaN. */
#define SKMD_PART_NEVER_MS 1e30

enum skmd_part_policy {
    /* Algorithm 1's greedy descent over the full model, with its stopping rule, reached
     * through coarse-to-fine steps, plus a second descent from the linear split (the
     * better end is kept): fast (tens of microseconds) and never worse than LINEAR. */
    SKMD_PART_POLICY_SKMD = 0,
    SKMD_PART_POLICY_EQUAL,  /* the same number of work-groups on every usable device */
    SKMD_PART_POLICY_LINEAR, /* proportional to peak_rate, blind to transfers and size */
    /* Algorithm 1 exactly as published: one-step moves from the single-device start.
     * Up to thousands of moves (about a millisecond); kept as the reference. */
    SKMD_PART_POLICY_PAPER,
};

enum skmd_part_dir { SKMD_PART_H2D = 0, SKMD_PART_D2H = 1 };
enum skmd_part_mem { SKMD_PART_PAGEABLE = 0, SKMD_PART_PINNED = 1 };

/* Transfer time of one direction over one link for one kind of host memory.
 * With npoints >= 2 the time is the piecewise-linear curve through the calibrated points
 * (bytes ascending), extended past the ends with the end segments' slopes; otherwise it is
 * latency_ms + bytes / bytes_per_ms. bytes_per_ms <= 0 means the link moves nothing
 * (SKMD_PART_NEVER_MS). `scale` multiplies the result; online refinement moves it. */
struct skmd_part_link_curve {
    double latency_ms;
    double bytes_per_ms;
    int npoints;
    double point_bytes[SKMD_PART_LINK_POINTS];
    double point_ms[SKMD_PART_LINK_POINTS];
    double scale; /* 0 is read as 1 */
};

/* Work-groups per millisecond of one kernel on one device, per size range.
 * rate[k] == 0: nothing known for range k (the nearest known range is used instead).
 * samples[k] == 0 with rate[k] > 0: a prediction, replaced by the first measurement. */
struct skmd_part_table {
    double rate[SKMD_PART_RANGES];
    uint32_t samples[SKMD_PART_RANGES];
};

struct skmd_part_device {
    struct skmd_part_table table;
    /* Devices with the same link id >= 0 share one link and their transfers are serialized;
     * link < 0: zero-copy (the CPU device): no transfer cost at all. */
    int link;
    struct skmd_part_link_curve curve[2][2]; /* [enum skmd_part_dir][enum skmd_part_mem] */
    double peak_rate; /* work-groups/ms, used only by SKMD_PART_POLICY_LINEAR */
    /* Fraction (0 to 1) of the input bytes already current on the device (left there by
     * earlier launches): only the rest crosses its link. 0: everything moves. */
    double resident_in;
    /* Fraction (0 to 1; with resident_in at most 1) of the input bytes current only on
     * another device, not on the host: they come from device `remote_from` through the
     * host (its device-to-host link, then this device's host-to-device link; the source's
     * link is busy meanwhile, which delays the source's own share too) or, when
     * peer_bytes_per_ms > 0 (one platform, timed by the runtime), by a peer copy at that
     * rate. 0: every byte not resident is on the host. */
    double remote_in;
    int remote_from;
    double peer_bytes_per_ms;
    /* Fixed cost of one share on the device beyond its kernel time (driver launch and
     * completion latency as the host sees it), ms, charged to every share n > 0. */
    double launch_ms;
    /* Fixed cost of a share of a split launch only (0 < n < total_wg), ms, beyond
     * launch_ms: what the runtime learnt the device's split shares finish after the
     * model's estimate (skmd_part_observe_finish). May be negative; launch_ms + split_ms
     * >= 0. A whole launch does not pay it: it was learnt where the inputs are spread. */
    double split_ms;
    /* Shares in pieces: the runtime may run a share whose inputs cross the link as k
     * contiguous pieces, piece i+1's inputs moving while piece i computes, so that its
     * transfer in and kernel take skmd_part_pieces_ms(in, kernel, k) instead of their sum.
     * k = skmd_part_pieces_of(): at most max_pieces, at least piece_bytes of inputs per
     * piece (0: always max_pieces), never more than the share's work-groups. max_pieces
     * <= 1 (the zeroed default): never in pieces, the share's time is in + kernel. */
    int max_pieces;
    double piece_bytes;
    /* 1: the device's kernels run on the host's own cores (the CPU device): while its
     * share computes, the host's side carries bytes at host_busy_bytes_per_ms. */
    int on_host_cores;
    /* Devices with the same twin_group > 0 are the same hardware with the same driver: a
     * kernel runs on them at one rate, so their tables are pooled (each range the mean of
     * theirs, weighted by samples) where they lie within SKMD_PART_TWIN_SPREAD of each
     * other, and the skmd policy gives them equal shares unless its estimate of the equal
     * shares is more than SKMD_PART_TWIN_TOLERANCE slower. A GPU's kernel time grows in
     * steps (whole waves of work-groups), which the tables smooth over: shares that
     * differ by a few work-groups to save a modelled transfer can cost one of the twins a
     * whole wave. 0: no twin. */
    int twin_group;
};

/* How much slower (a fraction) the estimate of equal shares of twins may be than the
 * best shares found for them to be taken: about what a transfer of a share's inputs
 * costs against a GPU kernel's wave, which the tables do not see. */
#define SKMD_PART_TWIN_TOLERANCE 0.10
/* Twins' rates this far apart (a fraction of the lower one) or less are one rate measured
 * at different points of a GPU's waves; farther apart, a measured difference. */
#define SKMD_PART_TWIN_SPREAD 0.25

/* One launch. A share of n work-groups on a device reads in_fixed + n * in_per_wg bytes
 * and writes back out_fixed + n * out_per_wg bytes (the runtime's footprint analysis gives
 * the per-work-group figures; an unknown footprint is the whole buffer: a fixed part). */
struct skmd_part_problem {
    int ndev;
    const struct skmd_part_device *dev;
    uint64_t total_wg;
    int host_dev;     /* device that owns the host copy (no transfers to merge), -1: none */
    int mem;          /* enum skmd_part_mem used for this launch's transfers */
    double in_fixed, in_per_wg;
    double out_fixed, out_per_wg;
    /* Outputs that are not contiguous per device need a merge on the host for every
     * device other than host_dev: merge_fixed_ms + bytes written * merge_ms_per_byte,
     * charged to that device and to host_dev (whose cores do the merging). A device that
     * takes all total_wg work-groups needs no merge: its copy is the result. */
    int output_contiguous;
    double merge_fixed_ms;
    double merge_ms_per_byte;
    /* 1: written bytes stay on the device that wrote them (they move when another device
     * or the host needs them: the next launch's input, priced there), so only a share
     * that is merged brings its output back during the launch. 0: every share's output
     * crosses its link. */
    int outputs_stay;
    /* The most bytes per ms the host's side carries to and from all links at once (its
     * memory, the copies into pinned staging): when two or more devices move bytes, none
     * has its inputs before the host has carried all of them, nor its outputs back before
     * all of them are. 0: no limit beyond each link's own. */
    double host_bytes_per_ms;
    /* What the host's side carries while a device with on_host_cores computes its share:
     * the copies into and out of pinned staging need the cores its kernel holds. 0: not
     * known, taken as host_bytes_per_ms (both 0: no limit). */
    double host_busy_bytes_per_ms;
};

/* A decision: device d runs work-groups [start[d], start[d] + count[d]). The ranges are
 * laid out in `order` (device indices), so each device's output is one contiguous piece. */
struct skmd_part_result {
    int ndev;
    uint64_t start[SKMD_PART_MAX_DEVICES];
    uint64_t count[SKMD_PART_MAX_DEVICES];
    int order[SKMD_PART_MAX_DEVICES];
    double est_ms[SKMD_PART_MAX_DEVICES]; /* estimated finish time of each device */
    /* Its kernel's part: the table's time for its work-groups (no latency; 0: no share or
     * no rate), which a measured kernel time is compared with. */
    double est_kernel_ms[SKMD_PART_MAX_DEVICES];
    double overall_ms;                    /* the largest est_ms */
    uint64_t granularity;                 /* Algorithm 1's step, work-groups */
    int steps;                            /* moves the descent made */
};

/* Status codes: 0 is success, negatives are errors of the caller's input. */
#define SKMD_PART_OK 0
#define SKMD_PART_EINVAL (-1)

const char *skmd_part_strerror(int status);
const char *skmd_part_policy_name(enum skmd_part_policy policy);
/* "skmd", "equal", "linear" or "paper" -> the policy; -1 when the name is none of them. */
int skmd_part_policy_from_name(const char *name);

/* Decides the shares of one launch. Every work-group is assigned exactly once. Returns
 * SKMD_PART_EINVAL (and leaves *out zeroed) on a malformed problem: ndev outside
 * 1..SKMD_PART_MAX_DEVICES, dev == NULL, host_dev out of range, a negative or non-finite
 * number. total_wg == 0 gives an empty decision. */
int skmd_part_decide(const struct skmd_part_problem *p, enum skmd_part_policy policy,
                     struct skmd_part_result *out);

/* Estimated finish time of every device (est_ms[ndev]) for the given shares; returns the
 * overall (largest) time. Used to compare a cached decision with a new one. */
double skmd_part_estimate(const struct skmd_part_problem *p, const uint64_t *count,
                          double *est_ms);

/* Model pieces, exposed for the runtime's reports and for tests. */
int skmd_part_range_of(uint64_t nwg);
/* A share's transfer in and kernel when it runs in k pieces: one piece's transfer, then
 * k - 1 steps of the longer of a piece's transfer and kernel, then one piece's kernel:
 *   max(t, c) + min(t, c) / k   (k <= 1: t + c). */
double skmd_part_pieces_ms(double transfer_ms, double kernel_ms, int pieces);
/* The pieces a share of nwg work-groups on device d runs in when in_bytes of its inputs
 * cross its link, fixed_bytes of them needed by every piece (the first piece brings
 * those): min(max_pieces, nwg, in_bytes / piece_bytes), and 1 when fewer than 2 or when
 * the first piece would bring most of the bytes (pieces would not overlap much). */
int skmd_part_pieces_of(const struct skmd_part_device *d, uint64_t nwg, double in_bytes,
                        double fixed_bytes);
double skmd_part_rate(const struct skmd_part_table *t, uint64_t nwg);
double skmd_part_link_ms(const struct skmd_part_link_curve *c, double bytes);

/* ---- Online refinement ---------------------------------------------------------------- */

/* Folds a measured launch of nwg work-groups taking kernel_ms into the table, so that its
 * prediction at nwg moves toward the measurement: both ranges the interpolation at nwg
 * uses move, each by its weight in it. A measurement within SKMD_PART_TRACK_BAND of the
 * prediction moves it by alpha (0 < alpha <= 1) of the error (noise); beyond the band the
 * prediction keeps at most (1 - alpha) x the band of its error (the device or the size
 * changed). The first measurement of a range replaces a prediction outright. Ranges that
 * still hold a prediction are scaled by the same factor as the measured range moved.
 * Non-positive or non-finite figures are ignored (returns SKMD_PART_EINVAL). */
int skmd_part_observe(struct skmd_part_table *t, uint64_t nwg, double kernel_ms, double alpha);
/* skmd_part_observe: errors within this fraction of the prediction are taken as noise. */
#define SKMD_PART_TRACK_BAND 0.05
/* Folds a measured transfer into the curve: a curve of calibrated points has its scale
 * factor smoothed toward measured / modelled; latency + bytes / bandwidth has each term
 * moved by its share of the error (so a mix of sizes converges on both); a zero-bandwidth
 * curve adopts the measured bandwidth. A measurement slower than the curve counts as at
 * most SKMD_PART_LINK_MAX_SLOWDOWN times the modelled time (one-time costs are outliers). */
#define SKMD_PART_LINK_MAX_SLOWDOWN 2.0
int skmd_part_observe_link(struct skmd_part_link_curve *c, double bytes, double ms,
                           double alpha);
/* Folds a split launch's measured finish into a device's finish offset: the milliseconds
 * the runtime charges the device's split shares of this kernel (split_ms), for what the
 * model leaves out (an input that waits for another device's link to free, the order the
 * shares are started in). The device finished finish_ms after the launch began, its
 * kernel ran kernel_ms; the model, offset included, said est_finish_ms and est_kernel_ms.
 * What the finish holds beyond the kernel is compared (the kernel's own error is the
 * table's to learn: skmd_part_observe); the offset moves by alpha of the difference,
 * taken at most SKMD_PART_FINISH_STEP x est_finish_ms either way (one stalled share is no
 * trend), and stays at or above -floor_ms (the cost it corrects cannot go below 0).
 * Non-finite or non-positive times are ignored (returns SKMD_PART_EINVAL). */
#define SKMD_PART_FINISH_STEP 0.25
int skmd_part_observe_finish(double *offset_ms, double finish_ms, double kernel_ms,
                             double est_finish_ms, double est_kernel_ms, double alpha,
                             double floor_ms);

/* ---- Decision cache with hysteresis --------------------------------------------------- */

struct skmd_part_key {
    uint64_t kernel;  /* kernel identity hash (profiledb's skmd_pdb_kernel_hash) */
    uint64_t shape;   /* launch shape: dimensions, sizes */
    uint64_t buffers; /* hash of the buffer argument sizes */
};

struct skmd_part_cache;

/* hysteresis: a new decision replaces a cached one only when its estimated overall time is
 * lower by more than this fraction (0.05 = 5%) of the cached one's, both estimated with
 * the current tables. Returns NULL when out of memory. */
struct skmd_part_cache *skmd_part_cache_new(double hysteresis);
void skmd_part_cache_free(struct skmd_part_cache *c);
/* Decides with `policy`, through the cache. *replaced (may be NULL) tells whether the
 * returned decision is new (1) or the cached one kept (0). */
int skmd_part_cache_decide(struct skmd_part_cache *c, const struct skmd_part_key *key,
                           const struct skmd_part_problem *p, enum skmd_part_policy policy,
                           struct skmd_part_result *out, int *replaced);
size_t skmd_part_cache_size(const struct skmd_part_cache *c);
/* Balance: the hysteresis keeps shares still under noise, not unbalanced. A cached
 * decision whose devices (those with work) finish, by today's tables, more than
 * SKMD_PART_BALANCE_SPREAD apart ((latest - earliest) / latest) is also replaced by a new
 * decision that finishes no later and whose spread is smaller by more than that, or that
 * finishes more than SKMD_PART_BALANCE_GAIN sooner. */
#define SKMD_PART_BALANCE_SPREAD 0.05
#define SKMD_PART_BALANCE_GAIN 0.02
/* The estimated spread of a decision's finish times, from its est_ms (0 with fewer than
 * two devices at work). */
double skmd_part_estimated_spread(const struct skmd_part_result *r);
/* 1 when `fresh` replaces `cached` for balance (both estimated with today's tables). */
int skmd_part_rebalances(const struct skmd_part_result *cached,
                         const struct skmd_part_result *fresh);
/* The guard of key's cached decision (made with it, see below); NULL when the key has no
 * entry. Valid until the next skmd_part_cache_decide or skmd_part_cache_guard_make on this
 * cache. */
struct skmd_part_guard *skmd_part_cache_guard(struct skmd_part_cache *c,
                                              const struct skmd_part_key *key);
/* The same, made (a fresh guard, no decision) when the key has no entry: for launches whose
 * shares are not the partitioner's (a placement's). NULL only when out of memory. */
struct skmd_part_guard *skmd_part_cache_guard_make(struct skmd_part_cache *c,
                                                   const struct skmd_part_key *key);

/* ---- Guard against losing to one device ------------------------------------------------ */

/* The model can be wrong (a share's overheads, a link, a device's speed at the size it
 * gets), and a split that loses to the fastest device alone loses on every launch. The
 * guard keeps, per cached decision, the measured wall time (host side, launch to
 * completion) of its split launches and of whole launches on the best single device,
 * each smoothed; a split measured slower than whole goes whole on the fastest such device, is
 * retried only after 2^k launches, k growing, so a wrong model costs a bounded fraction
 * of the launches. While only split samples exist, 1 launch in SAMPLE_EVERY runs whole
 * (until WHOLE_SAMPLES of them), later 1 in REFRESH_EVERY.
 * A split that gives a share to a device on the host's cores (the CPU) can also lose to
 * the split without it: that device's kernel takes the cores the other devices' transfers
 * and drivers need, which no table shows (syrk with a small CPU share ran a quarter
 * slower than on the GPUs alone). Where the caller says the two differ, the guard measures both alike (the
 * one not in use 1 launch in SAMPLE_EVERY until OFFHOST_SAMPLES, later 1 in
 * REFRESH_EVERY) and runs the faster as "the split". */
#define SKMD_PART_GUARD_SPLIT_SAMPLES 3   /* split samples before the guard judges */
#define SKMD_PART_GUARD_WHOLE_SAMPLES 2   /* whole samples before the guard judges */
#define SKMD_PART_GUARD_OFFHOST_SAMPLES 2 /* samples of the split not in use, likewise */
#define SKMD_PART_GUARD_LEAVE 0.02        /* split slower than whole by more: go whole */
#define SKMD_PART_GUARD_RETURN 0.05       /* a retried split faster by more: split again */
#define SKMD_PART_GUARD_SAMPLE_EVERY 4
#define SKMD_PART_GUARD_REFRESH_EVERY 256
#define SKMD_PART_GUARD_FIRST_BACKOFF 5   /* first retry after 2^5 launches */
#define SKMD_PART_GUARD_MAX_BACKOFF 10    /* then 2^6 ... up to 2^10 */

/* What one launch of a splitting decision runs. */
enum skmd_part_run {
    SKMD_PART_RUN_SPLIT = 0,    /* the split; its wall time is a split sample */
    SKMD_PART_RUN_WHOLE_SAMPLE, /* whole on the best device, to measure it */
    SKMD_PART_RUN_WHOLE,        /* whole: the split measured slower */
    SKMD_PART_RUN_RETRY,        /* the split again, rarely, while whole */
    SKMD_PART_RUN_OTHER_SPLIT,  /* the split not in use (with or without the host's cores) */
};

struct skmd_part_guard {
    double split_ms;           /* smoothed wall time of the split as the partitioner makes it */
    uint32_t split_n;          /* samples behind it */
    double offhost_ms;         /* the same, without the devices on the host's cores */
    uint32_t offhost_n;
    int offhost_mode;          /* 1: "the split" runs without them */
    double whole_ms[SKMD_PART_MAX_DEVICES]; /* smoothed wall time whole on each device */
    uint32_t whole_n[SKMD_PART_MAX_DEVICES];
    int whole_dev;             /* whole mode's device (else the last sampled), -1: none */
    int whole_mode;            /* 1: launches run whole on whole_dev */
    int backoff;               /* k: the next whole period lasts 2^k launches */
    uint64_t launches;         /* launches chosen for */
    uint64_t retry_at;         /* whole mode: launch number of the next retry */
};

void skmd_part_guard_init(struct skmd_part_guard *g);
/* Bounds a guard state read back from storage: its backoff at most
 * SKMD_PART_GUARD_MAX_BACKOFF and its next retry at most 2^SKMD_PART_GUARD_MAX_BACKOFF
 * launches away, so that a stored verdict does not pin a launch whole for longer than the
 * guard itself would. */
void skmd_part_guard_bound(struct skmd_part_guard *g);
/* For one launch whose decision splits: what to run. best is the device that would run
 * it whole (-1: none: the split runs); offhost: 1 when the split without the devices on
 * the host's cores differs from the partitioner's (it gave them a share, and two or more
 * other devices can take the launch); *dev is the device of a whole run (else -1). Whole
 * samples are kept per device, so a best device that changes back and forth keeps its
 * samples; the verdict compares the split with the fastest device that has enough. */
int skmd_part_guard_choose(struct skmd_part_guard *g, int best, int offhost, int *dev);
/* The smoothed wall time of the split in use (with or without the devices on the host's
 * cores) and, when n is not NULL, its samples. */
double skmd_part_guard_split_in_use(const struct skmd_part_guard *g, uint32_t *n);
/* Whether the guard has judged the split in use faster than whole: enough samples of it
 * and of a whole run, and not gone whole. */
int skmd_part_guard_split_judged(const struct skmd_part_guard *g);
/* Whether a launch the guard chose `run` for runs the split without the devices on the
 * host's cores (for the split, a retry, the other split; 0 for whole runs). */
int skmd_part_guard_runs_offhost(const struct skmd_part_guard *g, int run);
/* The launch ran (`run` as chosen, on `dev`; offhost: what skmd_part_guard_runs_offhost
 * said, with the variants alike) in wall_ms. Returns 1 when the guard went whole, back to
 * the split, or to the other split, 0 when not, SKMD_PART_EINVAL on a bad figure. */
int skmd_part_guard_observe(struct skmd_part_guard *g, int run, int dev, int offhost,
                            double wall_ms);
const char *skmd_part_run_name(int run);

/* ---- Cold start ------------------------------------------------------------------------ */

/* Static features of a kernel, per work-item (transform/'s analysis gives them). */
struct skmd_part_features {
    double int_ops;
    double float_ops;
    double mem_bytes;       /* bytes loaded + stored from global memory */
    double items_per_group; /* work-items in one work-group */
};

/* Peak figures of one device (its driver's queries, or a quick calibration). */
struct skmd_part_peaks {
    double int_gops;         /* 10^9 integer ops per second */
    double float_gflops;     /* 10^9 float ops per second */
    double mem_gbytes;       /* global-memory bandwidth, 10^9 bytes per second */
    double compute_units;    /* work-groups that run at once (compute units x occupancy) */
    double launch_ms;        /* fixed cost of one launch */
};

/* Roofline prediction of a device's table: a work-group takes the larger of its compute and
 * its memory time on one compute unit; n work-groups take ceil(n / compute_units) waves.
 * So a device with many compute units is predicted slow on small shares. Fills every range
 * with samples = 0 (a prediction). Returns SKMD_PART_EINVAL on non-finite or negative input
 * or when the device has no positive peak. */
int skmd_part_predict(const struct skmd_part_features *f, const struct skmd_part_peaks *pk,
                      struct skmd_part_table *out);

/* Quick online profiling. While some device has no measured range, the first launches
 * probe: launch 0 splits the work-groups equally among all devices; launch 1 gives each
 * device a share proportional to the rates (measured or predicted) it has by then, so each
 * device is measured at a second size. Returns 1 and fills *out with the probe to run for
 * launch number `launch_index` (0, 1, ...), or 0 when no probe is needed (use
 * skmd_part_decide), or SKMD_PART_EINVAL. */
int skmd_part_probe(const struct skmd_part_problem *p, int launch_index,
                    struct skmd_part_result *out);

#endif
