/* libskmd/launch/pieces.h: a share launched in pieces, so that the inputs of piece i+1 move to
 * the member while piece i computes (docs/transfer.md, "Shares in pieces").
 *
 * A share of groups [first, first+count) on member m is cut into k contiguous pieces of
 * near-equal group counts. Piece i's inputs are fetched on a second in-order queue of the
 * member (the transfer queue: ctx->xfer[m]) and piece i's kernel is then enqueued on the
 * member's work queue, without waiting for it; so piece i+1's fetch runs while piece i's
 * kernel runs, and the share takes about max(transfer, kernel) instead of their sum.
 *
 * Only for kernels whose written buffers' footprints are known and exact per range of
 * work-groups (a read-only buffer whose footprint is unknown is fetched whole with the
 * first piece), and where no piece reads bytes that an earlier piece of the same share
 * writes (the later fetch would bring the old bytes over the new ones).
 * How many pieces: SKMD_PIECES (0: chosen from the bytes the share must move, only on a
 * member that does not share host memory, i.e. one with a link; 1: never; N: N pieces on
 * every share where it is safe, for tests), at least SKMD_PIECE_MIN_KIB of inputs per
 * piece, at most 8, never more than the share's groups. */
#ifndef SKMD_PIECES_H
#define SKMD_PIECES_H

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

/* What runs one piece; launch_shares.c supplies them. */
struct skmd_pieces_ops {
    /* Makes the member's copies current over what groups [first, first+count) read.
     * Transfers to the member go on the transfer queue (skmd_pieces_queue). */
    cl_int (*fetch)(void *ctx, uint64_t first, uint64_t count);
    /* Enqueues groups [first, first+count) on queue `wq` without waiting. *ev: the last
     * command; timing[0..1]: the first and last command to time it by, or NULL (ev). */
    cl_int (*launch)(void *ctx, cl_command_queue wq, uint64_t first, uint64_t count,
                     cl_event *ev, cl_event timing[2]);
};

/* What a piecewise share ran. first/last: retained events of the first piece's first
 * command and the last piece's last command (NULL when nothing ran). kernel_ms: the
 * pieces' kernel times summed (-1: not profiled). */
struct skmd_pieces_result {
    cl_event first, last;
    double kernel_ms;
};

/* Runs the share in k pieces on member s->member of app context ctx, work queue wq; all
 * of them are complete when it returns (a failed piece: the pieces enqueued before it are
 * finished first, then its error is returned). `fail_at`: index of a piece that fails
 * with CL_OUT_OF_RESOURCES before its launch (the SKMD_FAULT_MEMBER test hook), -1: none. */
cl_int skmd_pieces_run(const struct skmd_pieces_share *s, int k, cl_context ctx,
                       cl_command_queue wq, const struct skmd_pieces_ops *ops, void *opctx,
                       int fail_at, struct skmd_pieces_result *out);

/* The queue that transfers to member m of app context ctx go on: the transfer queue while
 * this thread fetches a piece's inputs for m, else NULL (the member's work queue).
 * coherence.c's move() asks it. */
cl_command_queue skmd_pieces_queue(cl_context ctx, int m);

/* Member m's transfer queue in app context ctx (made on first use, kept until the
 * context goes): a second in-order queue of the member, so that a transfer does not wait
 * behind the kernels queued on its work queue. NULL with *err when it cannot be made. */
cl_command_queue skmd_transfer_queue(cl_context ctx, int m, cl_int *err);

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

/* Releases ctx's transfer queues (at the context's release). */
void skmd_pieces_release(cl_context ctx);

#endif
