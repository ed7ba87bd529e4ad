/* libskmd/mem/inflight.h: split launches that are still running, and the per-buffer locks
 * of the buffer manager.
 *
 * The rule that keeps asynchronous launches coherent: every launch registers the root
 * buffers it touches, and which of them it writes, when it is enqueued; before a launch
 * runs it waits for every launch registered earlier that shares a buffer with it where
 * either writes it (whatever the queue or thread); any other command that touches a
 * buffer's coherence state (reads, writes, maps, copies, fills, whole launches) first
 * waits, on the app's thread, until no launch in flight writes that buffer (when the
 * command only reads it) or touches it at all (when the command writes it). */
#ifndef SKMD_INFLIGHT_H
#define SKMD_INFLIGHT_H

#include "support/object.h"

struct skmd_inflight;

/* Registers a launch over the buffers mems[0..n), writes[i] != 0 where it may write
 * mems[i] (sub-buffers count as their root; NULL entries are skipped). NULL when out of
 * memory. `gated`: it may wait for a user event the app has not set (defer.h); so is one
 * registered behind a gated one on a common buffer. */
struct skmd_inflight *skmd_inflight_begin(const cl_mem *mems, const unsigned char *writes,
                                          unsigned n, int gated);

/* The launch no longer waits for anything that may not come (its wait list and the
 * launches before it are done). */
void skmd_inflight_ungate(struct skmd_inflight *t);

/* 1 when a gated launch in flight writes mem's root buffer (or, when `writes`, touches
 * it): a command on it must not wait for it on the app's thread (defer.h). */
int skmd_inflight_gated(cl_mem mem, int writes);

/* Set on a thread that runs a registered command (defer.c): skmd_inflight_wait_mem then
 * waits only for those registered before it. */
extern _Thread_local const struct skmd_inflight *skmd_inflight_self;

/* Blocks until every launch registered before `t` that conflicts with it is done. */
void skmd_inflight_wait_earlier(const struct skmd_inflight *t);

/* The launch is done (its coherence state is final): wakes the waiters, frees t. */
void skmd_inflight_end(struct skmd_inflight *t);

/* Blocks until no registered launch writes mem's root buffer (or, when `writes`, touches
 * it at all); on a thread with skmd_inflight_self, only those before it. */
void skmd_inflight_wait_mem(cl_mem mem, int writes);

/* The lock of mem's root buffer: its host copy and validity ranges (coherence.h). A
 * thread holds at most one buffer lock at a time, so no order is needed. May be held
 * across real transfers. */
void skmd_buffer_lock(cl_mem mem);
void skmd_buffer_unlock(cl_mem mem);

/* A lock for any object keyed by address (a real kernel whose arguments are set and
 * launched as one step). Leaf lock: nothing else is taken while it is held. */
void skmd_key_lock(const void *key);
void skmd_key_unlock(const void *key);

#endif
