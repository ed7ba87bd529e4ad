/* libskmd/mem/xfer_list.h: a growing list of transfers between the app's memory and
 * members' copies of one root buffer, run together with skmd_xfer_run_many (the app's reads
 * of bytes spread over several members, its placed writes). */
#ifndef SKMD_XFER_LIST_H
#define SKMD_XFER_LIST_H

#include <stdint.h>

#include "support/object.h"
#include "xfer/transfer.h"

struct skmd_xfer_list {
    struct skmd_xfer_req *reqs;
    int n, cap;
};

/* Appends the transfer of bytes [b, e) of root between member m's real buffer (made if
 * need be, with m's work queue) and host (the bytes for b), to the device or from it.
 * 0, or -1 when the queue, the buffer or memory cannot be had. */
int skmd_xfer_list_add(struct skmd_xfer_list *l, cl_mem root, int m, int to_device,
                       uint64_t b, uint64_t e, void *host);

/* Runs the transfers together (skmd_xfer_run_many); each is a trace span, when tracing.
 * CL_SUCCESS (also for an empty list) or the first error. */
cl_int skmd_xfer_list_run(const struct skmd_xfer_list *l);

void skmd_xfer_list_free(struct skmd_xfer_list *l);

#endif
