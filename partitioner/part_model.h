/* Internal: the cost model of one launch, prepared once per decision so that the search
 * evaluates device times with a few multiplications. Not part of the public API. */
#ifndef SKMD_PART_MODEL_H
#define SKMD_PART_MODEL_H

#include "skmd_part.h"

/* The four costs of one device's share. */
struct part_cost {
    double in_ms, kernel_ms, out_ms, merge_ms;
    double table_ms;  /* the kernel's part of kernel_ms: the table's time, no latency */
    double source_ms; /* the remote source's device-to-host link busy for this share */
    int pieces;       /* the share runs in this many pieces (1: transfer, then kernel) */
    double in_bytes, out_bytes; /* bytes through the host's side (host_bytes_per_ms) */
};

struct part_model {
    const struct skmd_part_problem *p;
    int ndev;
    /* Rates with unknown ranges filled from the nearest known one; 0 everywhere when the
     * device has no rate at all (then it never finishes any work). */
    double rate[SKMD_PART_MAX_DEVICES][SKMD_PART_RANGES];
    int usable[SKMD_PART_MAX_DEVICES];
    /* Shared links: the lowest index of the devices on this device's link, -1 when the
     * device has a link of its own or none. */
    int link_slot[SKMD_PART_MAX_DEVICES];
    const struct skmd_part_link_curve *in_curve[SKMD_PART_MAX_DEVICES];
    const struct skmd_part_link_curve *out_curve[SKMD_PART_MAX_DEVICES];
    int needs_merge[SKMD_PART_MAX_DEVICES];
};

/* Checks the problem (SKMD_PART_EINVAL on bad input) and prepares the model. */
int part_model_init(struct part_model *m, const struct skmd_part_problem *p);
double part_model_rate(const struct part_model *m, int d, uint64_t n);
void part_model_cost(const struct part_model *m, int d, uint64_t n, struct part_cost *c);
/* A device's time alone with these costs: transfer in and kernel (overlapped when in
 * pieces), out, merge. */
double part_cost_alone(const struct part_cost *c);
/* Finish time of every device given each one's costs and shares; returns the largest and
 * writes the sum to *sum (may be NULL). */
double part_model_finish(const struct part_model *m, const struct part_cost *cost,
                         const uint64_t *count, double *finish, double *sum);
/* Lays the shares out as contiguous ranges and fills the estimates. */
void part_result_fill(const struct part_model *m, const uint64_t *count,
                      struct skmd_part_result *out);
/* Estimates r's shares (r->count) again under p: est_ms, est_kernel_ms and overall_ms;
 * returns overall_ms, or SKMD_PART_NEVER_MS (r untouched) when p is malformed. */
double part_result_estimate(const struct skmd_part_problem *p, struct skmd_part_result *r);

#endif
