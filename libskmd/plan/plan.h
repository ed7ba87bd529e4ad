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

#include "plan/plan_request.h"

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

/* plan_alone.c: 1 when the launches' policy wants every member from a kernel's first
 * launch on (forced shares, the equal or linear policy, the profiling sweep). */
int skmd_plan_wants_every_member(void);
/* The launch's kernel time whole on `member` by its measured rate (from the database or
 * this process); < 0 when none is measured. */
double skmd_plan_alone_ms(const struct skmd_plan_request *r, int member);

/* Writes every refined table to the profile database now (also done at exit). */
void skmd_plan_flush(void);

#endif
