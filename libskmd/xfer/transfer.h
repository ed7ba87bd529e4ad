/* libskmd/xfer/transfer.h: the transfer engine. Moves bytes between ordinary host memory
 * and a member's real buffer as fast as the member's link allows:
 *   - small transfers (below SKMD_TRANSFER_DIRECT_KIB) go directly, one blocking call;
 *   - larger ones are cut into chunks that go through a few pinned staging buffers of the
 *     member (CL_MEM_ALLOC_HOST_PTR, mapped once, made ahead (skmd_xfer_prepare) or on
 *     first use, kept until exit), so the host copy of chunk i+1 into staging overlaps
 *     chunk i on the link;
 *   - the host copies of one chunk are shared among SKMD_TRANSFER_THREADS host threads;
 *   - skmd_xfer_run_many() drives several members' links at the same time;
 *   - host bytes that already are pinned memory of the member's context go directly.
 *
 * Thread safety: the calls may come from several threads at once. Each member's staging
 * buffers are used by one transfer at a time (a per-member lock held for the transfer);
 * different members run fully in parallel. A request's queue must be an in-order queue
 * of that member that no other thread enqueues on during the call.
 *
 * Uses only the real driver (api.h); no coherence state: the caller (coherence.c) decides
 * what moves. No libskmd lock is taken except the engine's own.
 */
#ifndef SKMD_TRANSFER_H
#define SKMD_TRANSFER_H

#include <stddef.h>
#include <stdint.h>
#include <CL/cl.h>

/* One transfer between host memory and a real buffer of one member. */
struct skmd_xfer_req {
    int member;              /* 0 .. SKMD_MAX_MEMBERS-1: whose staging buffers to use */
    cl_context context;      /* the member's real context (staging buffers are made in it) */
    cl_command_queue queue;  /* a real in-order queue of the member */
    cl_mem buffer;           /* the member's real buffer */
    int to_device;           /* 1: host -> buffer; 0: buffer -> host */
    size_t offset;           /* in the buffer */
    size_t size;             /* bytes */
    void *host;              /* the host bytes (size of them) */
    int direct;              /* 1: one direct call whatever the size (a member that shares
                                host memory: staging would only add a copy) */
    uint64_t landed_ns;      /* set by skmd_xfer_run_many: when the request was done,
                                failed ones too (skmd_now_ns; for the trace) */
};

/* What the engine did, summed over requests (optional). */
struct skmd_xfer_stats {
    uint64_t direct_bytes;   /* moved by one direct call */
    uint64_t staged_bytes;   /* moved through pinned staging */
    uint64_t chunks;         /* staged chunks */
};

/* Runs one transfer to its end (blocking). CL_SUCCESS or the driver's error. */
cl_int skmd_xfer_run(const struct skmd_xfer_req *req, struct skmd_xfer_stats *stats);

/* Runs n transfers at the same time, one host thread per distinct member (requests of the
 * same member run one after the other), and waits for all. Returns CL_SUCCESS or the
 * first error met (every request is still attempted). `stats` may be NULL. */
cl_int skmd_xfer_run_many(struct skmd_xfer_req *reqs, int n, struct skmd_xfer_stats *stats);

/* Makes member's staging buffers (both directions) in its real context `context` of
 * `device` now, ahead of its first staged transfer, which would otherwise pay for pinning
 * them; nothing for a member whose transfers go directly, or one that has a set in another
 * context. A failure is logged and left to the first transfer. Thread-safe. */
void skmd_xfer_prepare(int member, cl_context context, cl_device_id device);

/* memcpy(dst, src, n) shared among the engine's copy threads (SKMD_TRANSFER_THREADS). */
void skmd_xfer_copy(void *dst, const void *src, size_t n);

/* Bytes a caller did not move because the member's buffer is the host memory itself
 * (zero-copy): only counted, for the totals. */
void skmd_xfer_note_zero_copy(uint64_t bytes);

/* What the engine did since the process started (also logged at exit at SKMD_LOG=info:
 * "transfer engine: ... staged in ... chunks, ... direct, ... zero-copy"). */
void skmd_xfer_totals(struct skmd_xfer_stats *out, uint64_t *zero_copy);

/* Whether `device` shares host memory (CL_DEVICE_HOST_UNIFIED_MEMORY, a CPU device), so
 * a buffer made on host memory (CL_MEM_USE_HOST_PTR) is read and written in place. */
int skmd_xfer_device_shares_host(cl_device_id device);

/* Alignment of host memory that may back a zero-copy buffer (a page). */
#define SKMD_XFER_HOST_ALIGN 4096

/* Pinned host memory for a canonical host copy (SKMD_PINNED_HOST_COPY): a mapped
 * CL_MEM_ALLOC_HOST_PTR buffer of `size` bytes in real context ctx of `device`. A transfer
 * whose host bytes lie in such memory of the request's own context goes directly (DMA, no
 * staging copy). NULL and *err on failure. Thread-safe. */
void *skmd_xfer_host_alloc(cl_context ctx, cl_device_id device, size_t size, cl_int *err);
/* Frees memory from skmd_xfer_host_alloc; returns 0, or -1 when p is not such memory. */
int skmd_xfer_host_free(void *p);

/* Told of every transfer that crossed a member's link (not zero-copy): the member, the
 * direction, whether the host side was pinned (staged, or pinned host memory), the bytes
 * and the milliseconds of the transfer alone (the queue's earlier work is finished first,
 * only while an observer is set). From the thread that ran the transfer. */
typedef void (*skmd_xfer_observer)(int member, int to_device, int pinned, uint64_t bytes,
                                   double ms);
/* Sets (or with NULL removes) the observer; the partitioner's link model uses it. A
 * transfer that ran beside another member's (below) is not told: its rate is not its
 * link's alone. */
void skmd_xfer_set_observer(skmd_xfer_observer fn);

/* Told, while an observer is set, of each window of timed transfers in which two or more
 * members' transfers overlapped: from the first one's start to the last one's end, the
 * bytes all of them moved and how many members took part: what the host's side carries
 * for all links at once. From the thread that ended the window. */
typedef void (*skmd_xfer_window_observer)(uint64_t bytes, double ms, int members);
void skmd_xfer_set_window_observer(skmd_xfer_window_observer fn);

/* Frees every staging buffer and stops the copy threads (also done at exit). */
void skmd_xfer_shutdown(void);

#endif
