/* libskmd/xfer/transfer_internal.h: what transfer.c shares with host_mem.c and
 * transfer_window.c. */
#ifndef SKMD_TRANSFER_INTERNAL_H
#define SKMD_TRANSFER_INTERNAL_H

#include <stdint.h>

#include "xfer/transfer.h"

/* Whether [host, host+size) lies in pinned memory made in `ctx` (host_mem.c). */
int skmd_xfer_host_is_pinned(const void *host, size_t size, cl_context ctx);

/* Whether a link observer is set (transfers are then timed). */
int skmd_xfer_observing(void);

/* The link's time starts now, for a timed transfer (t0 != 0): its new t0, its window
 * entered (*mark for skmd_xfer_observed). */
uint64_t skmd_xfer_timing_start(int member, uint64_t t0, uint64_t *mark);

/* Tells the observer (when one is set and the transfer began at t0 != 0) what moved, if
 * the transfer ran alone on the host's side; closes its window entry. */
void skmd_xfer_observed(const struct skmd_xfer_req *req, int pinned, uint64_t t0,
                        uint64_t mark, int ok);

#endif
