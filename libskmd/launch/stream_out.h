/* libskmd/launch/stream_out.h: outputs coming back while other shares still compute.
 *
 * When a member's share of a split launch ends, the bytes it wrote to a buffer the app
 * will read back are copied into libskmd's host copy of the buffer (stream_share), on
 * the member's transfer queue, through the transfer engine, while the other members
 * still compute. At the launch's commit the host copy is current over them too
 * (stream_commit), so the app's read of the buffer is served from it (serve_read) instead
 * of gathering every member's part on the queue's member first and reading that.
 *
 * Which buffers (SKMD_STREAM_OUTPUTS=auto) is learnt per root buffer, at the app's calls:
 * a buffer that the app read back (clEnqueueReadBuffer, ReadBufferRect, MapBuffer for
 * reading) after the previous kernel that wrote it is streamed by the next kernel that
 * writes it; one that a kernel reads, or writes again, before the app read it (an
 * iterative kernel's data) is not, until the app reads it again. A buffer no kernel wrote
 * yet is streamed. `1` streams every written buffer, `0` none (and reads are served as
 * before).
 *
 * Safety: only launches with no merge stream, and only buffers the launch does not also
 * read (through any argument on the same root buffer); a share's bytes are written into
 * the host copy after its kernel completed, over its own write footprint, which no other
 * share writes or reads: no other share's transfer passes through those bytes of the
 * host copy meanwhile, and a launch redone after a failure reads none of them. */
#ifndef SKMD_STREAM_OUT_H
#define SKMD_STREAM_OUT_H

#include <stdint.h>

#include "plan/stream_hist.h"
#include "support/object.h"

/* Copies [b, e) of mem (offsets of mem), written by member m's share whose kernel has
 * completed, into the host copy, adding the bytes copied to *moved (may be NULL).
 * Returns 1 when every byte of [b, e) was copied (or m's buffer is the host copy
 * itself): stream_commit may then make the host copy current over them. Called on the
 * share's thread, without the buffer's lock, for a buffer the launch does not read. */
int skmd_stream_share(cl_mem mem, int m, uint64_t b, uint64_t e, uint64_t *moved);

/* After the share's writes were committed to its member (coherence.h skmd_coh_written):
 * the host copy is current over the streamed [b, e) too. */
cl_int skmd_stream_commit(cl_mem mem, uint64_t b, uint64_t e);

/* Whether the app's reads may be served from the host copy (SKMD_STREAM_OUTPUTS not 0). */
int skmd_stream_serves_reads(void);

/* A read of the app's served from the host copy (read_scattered.c): counted in the
 * totals below. */
void skmd_stream_count_read_served(void);

/* Bytes streamed since the process started: copied from members, and already in the
 * host copy (zero-copy members); reads served from the host copy. For tests and logs. */
struct skmd_stream_totals {
    uint64_t copied, zero_copy, reads_served;
};
void skmd_stream_totals(struct skmd_stream_totals *out);

#endif
