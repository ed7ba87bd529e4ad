/* libskmd/cl/enqueue_internal.h: what the clEnqueue* of enqueue.c, enqueue_map.c and
 * enqueue_sync.c share: the checks every command makes first, the buffer manager's part
 * of a command on the queue's member, and the gate of deferred commands. */
#ifndef SKMD_ENQUEUE_INTERNAL_H
#define SKMD_ENQUEUE_INTERNAL_H

#include "cl/common.h"
#include "cl/defer_app.h"
#include "mem/coherence.h"
#include "mem/inflight.h"
#include "mem/member_health.h"

/* A valid queue, moved off its member if that member is lost (member_health.h). */
#define QUEUE_CHECK(q)                                                                    \
    do {                                                                                  \
        SKMD_RETURN_ERROR_IF(!SKMD_VALID(q, QUEUE), CL_INVALID_COMMAND_QUEUE);           \
        cl_int queue_err_ = skmd_queue_healthy(q);                                        \
        if (queue_err_ != CL_SUCCESS)                                                     \
            return queue_err_;                                                            \
    } while (0)
#define MEM_CHECK(m) SKMD_RETURN_ERROR_IF(!SKMD_VALID(m, MEM), CL_INVALID_MEM_OBJECT)
/* A copy's checks: a valid queue, a valid source and destination. */
#define COPY_CHECK(q, src, dst)                                                           \
    do {                                                                                  \
        QUEUE_CHECK(q);                                                                   \
        MEM_CHECK(src);                                                                   \
        MEM_CHECK(dst);                                                                   \
    } while (0)
#define BEGIN(q, n, w, ev)                                                               \
    struct skmd_enqueue e;                                                               \
    cl_int err = skmd_enqueue_begin(&e, q, n, w, ev);                                    \
    if (err != CL_SUCCESS)                                                               \
        return err

static inline cl_mem R(cl_command_queue q, cl_mem m)
{
    return m->real[q->member];
}

/* The queue member's real buffer, made now if this is the first command that needs it. */
static inline cl_int ensure_real(cl_command_queue q, cl_mem mem)
{
    cl_int err = CL_SUCCESS;
    if (mem->mtype == CL_MEM_OBJECT_BUFFER)
        skmd_mem_real(mem, q->member, &err);
    return err;
}

/* The app's host-access flags (CL_MEM_HOST_*), which the real buffers do not carry: a
 * host read of a HOST_WRITE_ONLY or HOST_NO_ACCESS buffer, or a host write of a
 * HOST_READ_ONLY or HOST_NO_ACCESS one, is CL_INVALID_OPERATION. */
static inline cl_int host_access(cl_mem mem, int reads, int writes)
{
    if (mem->mtype != CL_MEM_OBJECT_BUFFER)
        return CL_SUCCESS; /* images carry the app's flags: their driver checks them */
    SKMD_RETURN_ERROR_IF(reads && (mem->flags & (CL_MEM_HOST_WRITE_ONLY |
                                                 CL_MEM_HOST_NO_ACCESS)),
                         CL_INVALID_OPERATION);
    SKMD_RETURN_ERROR_IF(writes && (mem->flags & (CL_MEM_HOST_READ_ONLY |
                                                  CL_MEM_HOST_NO_ACCESS)),
                         CL_INVALID_OPERATION);
    return CL_SUCCESS;
}

#define HOST_ACCESS(mem, reads, writes)                                                   \
    do {                                                                                  \
        cl_int host_err_ = host_access(mem, reads, writes);                               \
        if (host_err_ != CL_SUCCESS)                                                      \
            return host_err_;                                                             \
    } while (0)

/* The buffer manager's part of a command on the queue's member: its copy of [off, off+size)
 * is brought up to date first when `fetch` (reads and partial writes need the current
 * bytes), and when the command writes, that copy alone is current there afterwards.
 * Images are not tracked: they live on the executing member only. */
static inline cl_int on_member(cl_command_queue q, cl_mem mem, size_t off, size_t size,
                               int fetch, int writes)
{
    cl_int rerr = ensure_real(q, mem);
    if (rerr != CL_SUCCESS)
        return rerr;
    if (mem->mtype != CL_MEM_OBJECT_BUFFER || size == 0)
        return CL_SUCCESS;
    if (off > mem->size || size > mem->size - off)
        return CL_INVALID_VALUE;
    skmd_inflight_wait_mem(mem, writes); /* split launches in flight on it finish first */
    skmd_buffer_lock(mem);
    cl_int err = fetch ? skmd_coh_fetch(mem, q->member, off, off + size, NULL) : CL_SUCCESS;
    if (err == CL_SUCCESS && writes)
        err = skmd_coh_written(mem, q->member, off, off + size);
    skmd_buffer_unlock(mem);
    return err;
}

static inline cl_int coherent(cl_command_queue q, cl_mem mem, size_t off, size_t size, int writes)
{
    return on_member(q, mem, off, size, 1, writes);
}

/* A plain write replaces every byte: nothing needs fetching first. */
static inline cl_int overwritten(cl_command_queue q, cl_mem mem, size_t off, size_t size)
{
    return on_member(q, mem, off, size, 0, 1);
}

/* The bytes a rectangular region spans, first to last (pitches 0: the packed ones). */
static inline void rect_span(const size_t *origin, const size_t *region, size_t row_pitch,
                      size_t slice_pitch, size_t *off, size_t *size)
{
    if (!origin || !region || !region[0] || !region[1] || !region[2]) {
        *off = *size = 0;
        return;
    }
    if (!row_pitch)
        row_pitch = region[0];
    if (!slice_pitch)
        slice_pitch = region[1] * row_pitch;
    *off = origin[2] * slice_pitch + origin[1] * row_pitch + origin[0];
    *size = (region[2] - 1) * slice_pitch + (region[1] - 1) * row_pitch + region[0];
}

#define COHERENT(q, mem, off, size, writes)                                               \
    do {                                                                                  \
        cl_int coh_err_ = coherent(q, mem, off, size, writes);                            \
        if (coh_err_ != CL_SUCCESS)                                                       \
            return coh_err_;                                                              \
    } while (0)

/* Whether a command on q with wait list (n, wl) over mems[0..nm) (writes[i]: it writes
 * mems[i]) must be deferred (defer.h); cheap when nothing is gated. */
static inline int gated(cl_command_queue q, cl_uint n, const cl_event *wl, const cl_mem *mems,
                 const unsigned char *writes, unsigned nm)
{
    if (skmd_defer_running())
        return 0;
    if (skmd_defer_wanted(q, n, wl))
        return 1;
    for (unsigned i = 0; i < nm; i++)
        if (skmd_defer_touches(mems[i], writes[i]))
            return 1;
    return 0;
}

/* The buffers of a deferred command, retained until it has run. */
static inline void keep(struct skmd_defer_args *a, cl_mem m0, cl_mem m1)
{
    a->mem[0] = m0;
    a->mem[1] = m1;
    skmd_clRetainMemObject(m0);
    if (m1)
        skmd_clRetainMemObject(m1);
}

#endif
