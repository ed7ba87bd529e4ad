/* libskmd/plan/share_align.h: shares that need no merge.
 *
 * A share's write footprint (transform's skmd_footprint) is either exact (the bytes it
 * writes) or a bound (bytes it may write). Written bytes need the merge kernel only when
 * neither holds: a bound that overlaps another share's bound, or an unknown one. For a
 * bound that overlaps no other share's, the member's copy of the bound is made current
 * before the launch (as if read) and the whole bound is committed after it: bytes of the
 * bound the share did not write keep their current values, and no other share writes
 * them.
 *
 * Whether footprints are exact (or disjoint) often depends on where shares end: a share
 * that ends in the middle of a row of work-groups writes an L-shaped region, one interval
 * per row of elements, which may not fit the footprint's interval list. So a launch gets a
 * unit: shares are whole rows (planes) of work-groups when that makes every share's
 * writes need no merge and cutting anywhere does not.
 *
 * Plain functions of the launch (no state, no lock). */
#ifndef SKMD_SHARE_ALIGN_H
#define SKMD_SHARE_ALIGN_H

#include <stdint.h>

#include "../../partitioner/skmd_part.h"
#include "../../transform/record.h"
#include "plan/share_view.h"
#include "support/object.h"

/* Room for intervals in one footprint (launch*.c and plan.c use the same). */
#define SKMD_SHARE_INTERVALS 64

/* How a written buffer parameter's bytes reach their place after a split launch. */
enum skmd_write_mode {
    SKMD_WRITE_NONE = 0, /* not a written buffer */
    SKMD_WRITE_EXACT,    /* every share's write footprint is exact: commit it */
    SKMD_WRITE_BOUND,    /* bounds, pairwise disjoint: fetch the bound first, commit it */
    SKMD_WRITE_MERGE,    /* bounds overlap or are unknown: the merge kernel */
    SKMD_WRITE_RECT,     /* every share's writes are exactly a box, boxes disjoint: commit
                            each box with rectangular copies (share_rect.h) */
};

/* The footprint of parameter p for groups [first, first+count), clamped to the buffer and
 * to the parameter's access: 0; when it is not known, -1 and the whole buffer, read and
 * written inexactly. fp's arrays must have room for SKMD_SHARE_INTERVALS intervals. */
int skmd_share_footprint(const struct skmd_share_view *v, unsigned p, uint64_t first,
                          uint64_t count, struct skmd_footprint *fp);

/* mode[p] for every parameter, for shares of count[i] groups starting at first[i] (i <
 * n). Returns 1 when some parameter needs the merge kernel. */
int skmd_share_write_modes(const struct skmd_share_view *v, const uint64_t *first,
                           const uint64_t *count, int n, unsigned char *mode);

/* Whether `members` shares cut at multiples of unit would need the merge kernel (the
 * cuts spread evenly; with unit 1 off the row boundaries, with a row unit off the plane
 * boundaries, so that a luckier cut is not what is tested). */
int skmd_share_probe_merge(const struct skmd_share_view *v, uint64_t total, int members,
                           uint64_t unit);

/* The unit of a launch of `total` groups shared among `members` members: 1 (shares end
 * anywhere: cutting anywhere needs no merge, or no unit avoids it), the groups of one row
 * (ngroups[0]) or of one plane (ngroups[0] * ngroups[1]): the smallest unit at which
 * shares need no merge, when there are at least `members` rows (planes). */
uint64_t skmd_share_unit(const struct skmd_share_view *v, uint64_t total, int members);
/* skmd_share_unit, and in *needs_merge (may be NULL) what skmd_share_probe_merge(v, total,
 * members, unit) says for the unit returned, from the same probes: one probe per launch. */
uint64_t skmd_share_unit_merge(const struct skmd_share_view *v, uint64_t total, int members,
                               int *needs_merge);

/* Moves the boundaries between the shares count[0..n) (member order, summing to total)
 * to the nearest multiples of unit; every member with a share keeps at least one unit.
 * Unchanged when unit <= 1, total is not a multiple of unit, or there are fewer units than
 * members with a share. */
void skmd_share_round(uint64_t *count, int n, uint64_t total, uint64_t unit);

/* The partitioner's problem in units of `unit` work-groups (its granularity becomes a
 * multiple of unit): total, bytes per work-group and the rate tables of dev[0..p->ndev)
 * are rescaled in place. 0 when it does not apply (unit <= 1 or total not a multiple). */
int skmd_share_scale_problem(struct skmd_part_problem *p, struct skmd_part_device *dev,
                             uint64_t unit);
/* A result decided on the scaled problem, back in work-groups. */
void skmd_share_unscale_result(struct skmd_part_result *res, uint64_t unit);

#endif
