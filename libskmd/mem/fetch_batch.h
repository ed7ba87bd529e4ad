/* libskmd/mem/fetch_batch.h: the host -> member transfers of one share's inputs, gathered
 * while the buffer manager decides them and then run together through
 * skmd_xfer_run_many (transfer.h): several ranges and buffers go out back to back (direct
 * ones without a round trip each, every member's link at once), and no buffer lock is
 * held while bytes are on the link.
 *
 * Between begin and end on one thread, coherence.c's move() hands its host -> member
 * requests to the batch instead of running them; the bytes become current on the member
 * only when end has run them, so nobody takes them for present before they are. Requests
 * for bytes already in the batch (one buffer given as two arguments) are trimmed. Other
 * moves (member -> host, peer copies, zero-copy) still run at once. */
#ifndef SKMD_FETCH_BATCH_H
#define SKMD_FETCH_BATCH_H

#include <stdint.h>

#include "support/object.h"
#include "xfer/transfer.h"

/* Opens this thread's batch (none may be open). */
void skmd_fetch_batch_begin(void);

/* What makes bytes [b, e) of root current on `member` once the batch has moved them
 * there: the buffer manager's own bookkeeping (coherence.c hands it with each request),
 * called under the buffer's lock. */
typedef cl_int (*skmd_fetch_landed)(cl_mem root, int member, uint64_t b, uint64_t e);

/* When this thread has a batch open: takes req (a host -> member transfer of root's bytes
 * [req->offset, +req->size), its host bytes in root's host copy), less the bytes already
 * in the batch for that member and root; *queued = the bytes added. Returns 1, or 0 when
 * no batch is open (the caller moves them now), -1 when out of memory. */
int skmd_fetch_batch_add(const struct skmd_xfer_req *req, cl_mem root, skmd_fetch_landed landed,
                         uint64_t *queued);

/* Closes the batch: runs it (run != 0) and makes its bytes current on their members (each
 * request's `landed`), or drops it (run == 0: nothing becomes current). CL_SUCCESS or the
 * first error. */
cl_int skmd_fetch_batch_end(int run);

#endif
