/* libskmd/mem/queues.h: libskmd's own queues on each member of an app context. */
#ifndef SKMD_QUEUES_H
#define SKMD_QUEUES_H

#include "support/object.h"

/* libskmd's own in-order queue on member m in context ctx. */
cl_command_queue skmd_work_queue(cl_context ctx, int m, cl_int *err);

/* The queue that transfers to member m of app context ctx go on: the transfer queue while
 * this thread fetches a piece's inputs for m (skmd_pieces_queue_set, launch/pieces.c),
 * else NULL (the member's work queue). coherence.c's move() asks it. */
cl_command_queue skmd_pieces_queue(cl_context ctx, int m);
/* This thread fetches a piece's inputs for member m of ctx on q from now (q NULL: no more). */
void skmd_pieces_queue_set(cl_context ctx, int m, cl_command_queue q);

/* Member m's transfer queue in app context ctx (made on first use, kept until the
 * context goes): a second in-order queue of the member, so that a transfer does not wait
 * behind the kernels queued on its work queue. NULL with *err when it cannot be made. */
cl_command_queue skmd_transfer_queue(cl_context ctx, int m, cl_int *err);

/* Releases ctx's transfer queues (at the context's release). */
void skmd_pieces_release(cl_context ctx);

#endif
