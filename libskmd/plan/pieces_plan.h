/* libskmd/plan/pieces_plan.h: how many pieces a share runs in (launch/pieces.h runs
 * them), and what the partitioner needs to price shares in pieces. */
#ifndef SKMD_PIECES_PLAN_H
#define SKMD_PIECES_PLAN_H

#include <stdint.h>

#include "../../transform/record.h"
#include "support/object.h"

#define SKMD_PIECES_MAX 64  /* a forced count is clamped to this */
#define SKMD_PIECES_AUTO_MAX 8

/* One share as the piece planner sees it (nothing is kept after a call). */
struct skmd_pieces_share {
    const struct skmd_kernel_record *rec;
    const struct skmd_arg *args;      /* the launch's argument snapshot (rec->nparams) */
    const int64_t *scalars;           /* scalar values for the footprint evaluator */
    const struct skmd_launch *shape;
    int member;
    uint64_t first, count;            /* linear work-groups */
};

/* How many pieces the share runs in (1: in one launch, as before). Reads the validity
 * ranges of the share's buffers under their locks. */
int skmd_pieces_plan(const struct skmd_pieces_share *s);

/* Groups of piece i of k: [*first, *first + *count). */
void skmd_pieces_range(const struct skmd_pieces_share *s, int k, int i, uint64_t *first,
                       uint64_t *count);

/* For the partitioner (plan.c): the pieces a share that must move `bytes` to member m
 * would run in (as skmd_pieces_plan decides them when nothing is resident), and the
 * share's time when its transfer takes transfer_ms and its kernel kernel_ms alone. With
 * k pieces the pipeline is one piece's transfer, then k-1 steps of the longer of a
 * piece's transfer and kernel, then one piece's kernel:
 *   max(t, c) + min(t, c) / k   (k = 1: t + c). */
int skmd_pieces_expected(int m, uint64_t bytes);
double skmd_pieces_share_ms(double transfer_ms, double kernel_ms, int pieces);

/* What the partitioner needs to price shares in pieces (skmd_part_device's max_pieces
 * and piece_bytes, skmd_part_pieces_of), once per launch:
 * - skmd_pieces_launch_allows: whether shares of this launch can run in pieces at all
 *   (every written footprint known and exact, no piece reading what an earlier one
 *   writes), checked on s's groups (the whole launch) cut into as many pieces as a share
 *   takes at most; s->member is not used. No lock taken.
 * - skmd_pieces_limits: member m's figures as skmd_pieces_plan chooses them: at most
 *   *max_pieces pieces of at least *piece_bytes input bytes (0: always *max_pieces, a
 *   forced count); *max_pieces is 1 where shares never run in pieces. */
int skmd_pieces_launch_allows(const struct skmd_pieces_share *s);
void skmd_pieces_limits(int m, int *max_pieces, double *piece_bytes);

#endif
