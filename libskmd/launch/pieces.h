/* libskmd/launch/pieces.h: a share launched in pieces, so that the inputs of piece i+1 move
 * to the member while piece i computes (docs/transfer.md, "Shares in pieces").
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

#include "mem/queues.h"
#include "plan/pieces_plan.h"
#include "support/object.h"

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

#endif
