/* libskmd/mem/coherence.h: the buffer manager. Every root buffer has a host copy (made when
 * a transfer or a zero-copy member first needs it) and, per copy (each member, and the host
 * at index SKMD_HOST), the byte ranges that are current. Bytes move only where the
 * destination's copy is stale; a write makes the writer's copy the only current one over
 * the bytes it touched.
 *
 * Locking: every function here that takes a buffer must be called with that buffer's lock
 * held (skmd_buffer_lock of inflight.h: one per root buffer), and, outside split launches,
 * after skmd_inflight_wait_mem(mem). Transfers are blocking, on libskmd's own queue of
 * each member (context->work).
 * Offsets are relative to `mem` (a sub-buffer's are shifted to its root inside). */
#ifndef SKMD_COHERENCE_H
#define SKMD_COHERENCE_H

#include <stdint.h>

#include "mem/queues.h"
#include "support/object.h"

/* A new root buffer: its bytes are current on member `holder` alone (which was given
 * the app's data), or, with holder -1, nowhere yet (no copy holds them: the first
 * copy that needs them takes them as they are, without a transfer). The host copy is
 * allocated when a transfer first goes through it. */
cl_int skmd_coh_init(cl_mem root, int holder);
void skmd_coh_free(cl_mem root);

/* Who is told of each peer copy (no host) that ran: `bytes` from member `from` to member
 * `to` in `ms` on the device (-1: not profiled). Set once before the first call by the
 * layer that prices peer bytes (the partitioner's skmd_plan_observe_peer); NULL: no one. */
typedef void (*skmd_coh_peer_observer)(int from, int to, uint64_t bytes, double ms);
void skmd_coh_set_peer_observer(skmd_coh_peer_observer observer);

/* Member m's real buffer for `mem`, allocated on first use (no USE/COPY_HOST_PTR: the
 * bytes come through libskmd's host copy). Safe without the split lock. NULL and *err
 * on failure. */
cl_mem skmd_mem_real(cl_mem mem, int m, cl_int *err);
/* What a move of root's bytes from member a to member b runs on: each one's work queue
 * and real buffer, made on first use. 0 and *err when one cannot be made. */
int skmd_mem_pair(cl_mem root, int a, int b, cl_command_queue *qa, cl_command_queue *qb,
                  cl_mem *bufa, cl_mem *bufb, cl_int *err);

/* The app's host-access flags: libskmd checks them itself (enqueue.c) and never hands
 * them to a driver, whose real buffers libskmd itself must read and write. */
#define SKMD_MEM_HOST_ACCESS_FLAGS                                                        \
    (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)


/* Bytes moved, by direction; `peer` is the part of to_devices that came straight from
 * another member (a peer copy, without the host). */
struct skmd_moved {
    uint64_t to_devices, to_host, peer;
};

/* Makes copy `dst` (member index or SKMD_HOST) current over [b, e) of mem, moving only
 * stale bytes; adds the bytes moved to *moved (may be NULL). */
cl_int skmd_coh_fetch(cl_mem mem, int dst, uint64_t b, uint64_t e, struct skmd_moved *moved);

/* Adds to *out (root offsets) the bytes of [b, e) of mem that member m's fetch would take
 * from another member through the host copy: m lacks them, the host copy lacks them, and
 * a member holds them that no peer copy to m can take them from. Returns 0, or -1 when out
 * of memory. */
int skmd_coh_off_host_need(cl_mem mem, int m, uint64_t b, uint64_t e, struct skmd_ranges *out);

/* [b, e) of mem was written on copy `owner`: it alone is current there now. */
cl_int skmd_coh_written(cl_mem mem, int owner, uint64_t b, uint64_t e);

/* Copy `who` also holds the current bytes [b, e) (after a transfer made them equal). */
cl_int skmd_coh_also_valid(cl_mem mem, int who, uint64_t b, uint64_t e);

/* Copy m may hold wrong bytes in [b, e) (its share failed): it stops being current
 * wherever another copy is; bytes it alone holds stay (no better source exists, and a
 * redone share overwrites what it writes). */
cl_int skmd_coh_forget(cl_mem mem, int m, uint64_t b, uint64_t e);

/* Whether member m shares host memory (a CPU device: its "transfers" are memcpy, and
 * overlapping them would only take cores from its kernel). */
int skmd_coh_member_shares_host(int m);

/* The app's bytes [off, off+size) of mem through libskmd's host copy, for a queue whose
 * member cannot hold the buffer (member_health.h), or a write of a buffer that split
 * launches read on several members (enqueue.c): read (the host copy made current first)
 * or written (the host copy alone is current there afterwards). */
cl_int skmd_coh_read_host(cl_mem mem, size_t off, size_t size, void *dst);
cl_int skmd_coh_write_host(cl_mem mem, size_t off, size_t size, const void *src);

/* The current bytes [b, e) of mem copied into dst (e - b bytes), from the host copy where
 * it is current, else from a member that holds them (a blocking read on its work queue),
 * leaving every copy's state as it was: SKMD_VERIFY (verify.h) looks at a launch's inputs
 * and results without moving what the next launch would then find moved. Bytes no copy
 * holds read as 0. Buffer locked. */
cl_int skmd_coh_peek(cl_mem mem, uint64_t b, uint64_t e, void *dst);

/* The root's host copy, allocated (zeroed, pinned when SKMD_PINNED_HOST_COPY says so)
 * on first use; NULL when it cannot be. Its bytes are under the buffer's lock like the
 * rest, save where a caller owns them otherwise (stream_out.h: a share's own writes). For
 * transfers the engine does not do (share_rect_commit.c's rectangular copies) and streamed
 * outputs. */
unsigned char *skmd_coh_host_copy(cl_mem root);

/* The members whose buffer IS the root's host copy (zero-copy) finish what they have
 * queued, before host-copy bytes are read or overwritten; CL_SUCCESS or the wait's error.
 * Buffer locked. */
cl_int skmd_coh_settle_zero_copy(cl_mem root);

/* Bytes moved host<->members and member->member since the process started (the byte
 * counter of the log). */
uint64_t skmd_coh_total_moved(void);

#endif
