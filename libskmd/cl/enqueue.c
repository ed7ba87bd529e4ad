/* libskmd/cl/enqueue.c: every clEnqueue* (the hot path). In single mode each one is the
 * real command on the executing member's queue with real handles swapped in; no
 * allocation unless the app asks for an event or waits on more than 16. */
#include <stdlib.h>
#include <string.h>

#include "cl/app_io.h"
#include "mem/coherence.h"
#include "cl/common.h"
#include "cl/host_io.h"
#include "cl/defer_app.h"
#include "mem/inflight.h"
#include "launch/launch.h"
#include "mem/member_health.h"
#include "cl/ndrange_check.h"
#include "plan/placement.h"
#include "cl/read_scattered.h"
#include "launch/stream_out.h"
#include "device/worker.h"
#include "cl/write_placed.h"

/* A valid queue, moved off its member if that member is lost (member_health.h). */
#define QUEUE_CHECK(q)                                                                    \
    do {                                                                                  \
        SKMD_RETURN_ERROR_IF(!SKMD_VALID(q, QUEUE), CL_INVALID_COMMAND_QUEUE);           \
        cl_int queue_err_ = skmd_queue_healthy(q);                                        \
        if (queue_err_ != CL_SUCCESS)                                                     \
            return queue_err_;                                                            \
    } while (0)
#define MEM_CHECK(m) SKMD_RETURN_ERROR_IF(!SKMD_VALID(m, MEM), CL_INVALID_MEM_OBJECT)
#define BEGIN(q, n, w, ev)                                                               \
    struct skmd_enqueue e;                                                               \
    cl_int err = skmd_enqueue_begin(&e, q, n, w, ev);                                    \
    if (err != CL_SUCCESS)                                                               \
        return err

static inline cl_mem R(cl_command_queue q, cl_mem m)
{
    return m->real[q->member];
}

static inline const struct skmd_member *M(cl_command_queue q)
{
    return &skmd_state.members[q->member];
}

/* The queue member's real buffer, made now if this is the first command that needs it. */
static cl_int ensure_real(cl_command_queue q, cl_mem mem)
{
    cl_int err = CL_SUCCESS;
    if (mem->mtype == CL_MEM_OBJECT_BUFFER)
        skmd_mem_real(mem, q->member, &err);
    return err;
}

/* The app's host-access flags (CL_MEM_HOST_*), which the real buffers do not carry: a
 * host read of a HOST_WRITE_ONLY or HOST_NO_ACCESS buffer, or a host write of a
 * HOST_READ_ONLY or HOST_NO_ACCESS one, is CL_INVALID_OPERATION. */
static cl_int host_access(cl_mem mem, int reads, int writes)
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
 * is brought up to date first (reads and partial writes need the current bytes), and
 * when the command writes, that copy alone is current there afterwards. Images are not
 * tracked: they live on the executing member only. */
static cl_int coherent(cl_command_queue q, cl_mem mem, size_t off, size_t size, int writes)
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
    cl_int err = skmd_coh_fetch(mem, q->member, off, off + size, NULL);
    if (err == CL_SUCCESS && writes)
        err = skmd_coh_written(mem, q->member, off, off + size);
    skmd_buffer_unlock(mem);
    return err;
}

/* A plain write replaces every byte: nothing needs fetching first. */
static cl_int overwritten(cl_command_queue q, cl_mem mem, size_t off, size_t size)
{
    cl_int rerr = ensure_real(q, mem);
    if (rerr != CL_SUCCESS)
        return rerr;
    if (mem->mtype != CL_MEM_OBJECT_BUFFER || size == 0)
        return CL_SUCCESS;
    if (off > mem->size || size > mem->size - off)
        return CL_INVALID_VALUE;
    skmd_inflight_wait_mem(mem, 1);
    skmd_buffer_lock(mem);
    cl_int err = skmd_coh_written(mem, q->member, off, off + size);
    skmd_buffer_unlock(mem);
    return err;
}

/* The bytes a rectangular region spans, first to last (pitches 0: the packed ones). */
static void rect_span(const size_t *origin, const size_t *region, size_t row_pitch,
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
static int gated(cl_command_queue q, cl_uint n, const cl_event *wl, const cl_mem *mems,
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
static void keep(struct skmd_defer_args *a, cl_mem m0, cl_mem m1)
{
    a->mem[0] = m0;
    a->mem[1] = m1;
    skmd_clRetainMemObject(m0);
    if (m1)
        skmd_clRetainMemObject(m1);
}

static cl_int read_buffer(cl_command_queue q, cl_mem buffer, cl_bool blocking, size_t offset,
                          size_t size, void *ptr, cl_uint n, const cl_event *wl,
                          cl_event *event)
{
    QUEUE_CHECK(q);
    MEM_CHECK(buffer);
    HOST_ACCESS(buffer, 1, 0);
    /* Member faults: through the host copy when the member cannot hold the buffer, and
     * once more after a fault that moved the queue or refused the buffer. */
    if (skmd_mem_refused(buffer, q->member))
        return skmd_host_read(q, buffer, offset, size, ptr, n, wl, event);
    cl_int serr;
    if (skmd_read_scattered(q, buffer, offset, size, ptr, blocking, n, wl, event, &serr))
        return serr; /* from the host copy (streamed outputs), or each part where it lies */
    cl_int cerr = coherent(q, buffer, offset, size, 0);
    if (cerr != CL_SUCCESS)
        return skmd_fault_retry(q, buffer, cerr, 0)
                   ? read_buffer(q, buffer, blocking, offset, size, ptr, n, wl, event)
                   : cerr;
    cl_int eerr;
    if (skmd_app_read(q, buffer, offset, size, ptr, blocking, n, wl, event, &eerr))
        return eerr; /* large: through the transfer engine */
    BEGIN(q, n, wl, event);
    err = M(q)->ops->copy(M(q), q->real, 0, R(q, buffer), blocking, offset, size, ptr,
                          e.nwait, e.wait, e.event);
    if (err != CL_SUCCESS && skmd_fault_retry(q, buffer, err, 1)) {
        skmd_enqueue_abandon(&e);
        return read_buffer(q, buffer, blocking, offset, size, ptr, n, wl, event);
    }
    return skmd_enqueue_end(&e, err);
}

/* A blocking read is one of the app's waits (placement.h). */
cl_int skmd_clEnqueueReadBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking,
                                size_t offset, size_t size, void *ptr, cl_uint n,
                                const cl_event *wl, cl_event *event)
{
    QUEUE_CHECK(q);
    MEM_CHECK(buffer);
    HOST_ACCESS(buffer, 1, 0);
    if (gated(q, n, wl, &buffer, (const unsigned char[]){0}, 1)) {
        SKMD_RETURN_ERROR_IF(!ptr || offset > buffer->size || size > buffer->size - offset,
                             CL_INVALID_VALUE);
        struct skmd_defer_args a = {.offset = {offset}, .size = size, .ptr = ptr};
        keep(&a, buffer, NULL);
        return skmd_defer(q, SKMD_DEFER_READ, CL_COMMAND_READ_BUFFER, n, wl, &buffer,
                          (const unsigned char[]){0}, 1, &a, blocking, event);
    }
    cl_int err = read_buffer(q, buffer, blocking, offset, size, ptr, n, wl, event);
    if (blocking && err == CL_SUCCESS)
        skmd_placement_note_app_wait();
    return err;
}

/* Whether a write of mem goes to the host copy rather than the queue's member: split
 * launches read it on several members (launch_commit.c note_readers), and through one member's
 * copy their parts would cross two links each. */
static int write_spread(cl_mem mem)
{
    return mem->mtype == CL_MEM_OBJECT_BUFFER &&
           __atomic_load_n(&skmd_mem_root(mem)->spread, __ATOMIC_RELAXED);
}

cl_int skmd_clEnqueueWriteBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking,
                                 size_t offset, size_t size, const void *ptr, cl_uint n,
                                 const cl_event *wl, cl_event *event)
{
    QUEUE_CHECK(q);
    MEM_CHECK(buffer);
    HOST_ACCESS(buffer, 0, 1);
    if (gated(q, n, wl, &buffer, (const unsigned char[]){1}, 1)) {
        SKMD_RETURN_ERROR_IF(!ptr || offset > buffer->size || size > buffer->size - offset,
                             CL_INVALID_VALUE);
        struct skmd_defer_args a = {.offset = {offset}, .size = size, .ptr = (void *)ptr};
        keep(&a, buffer, NULL);
        return skmd_defer(q, SKMD_DEFER_WRITE, CL_COMMAND_WRITE_BUFFER, n, wl, &buffer,
                          (const unsigned char[]){1}, 1, &a, blocking, event);
    }
    if (ptr && size)
        skmd_placement_note_app_write(buffer);
    if (skmd_mem_refused(buffer, q->member)) /* member faults: as in the read above */
        return skmd_host_write(q, buffer, offset, size, ptr, n, wl, event);
    cl_int perr;
    if (skmd_write_placed(q, buffer, offset, size, ptr, blocking, n, wl, event, &perr))
        return perr; /* straight to the members the next launch reads it on */
    if (ptr && size && write_spread(buffer)) {
        skmd_log(SKMD_LOG_DEBUG, "write of %zu bytes into the host copy: split launches read "
                 "the buffer on several members", size);
        return skmd_host_write(q, buffer, offset, size, ptr, n, wl, event);
    }
    cl_int werr = overwritten(q, buffer, offset, size);
    if (werr != CL_SUCCESS)
        return skmd_fault_retry(q, buffer, werr, 0)
                   ? skmd_clEnqueueWriteBuffer(q, buffer, blocking, offset, size, ptr, n, wl, event)
                   : werr;
    if (skmd_app_write(q, buffer, offset, size, ptr, blocking, n, wl, event, &werr))
        return werr; /* large: through the transfer engine */
    BEGIN(q, n, wl, event);
    err = M(q)->ops->copy(M(q), q->real, 1, R(q, buffer), blocking, offset, size, (void *)ptr,
                          e.nwait, e.wait, e.event);
    if (err != CL_SUCCESS && skmd_fault_retry(q, buffer, err, 1)) {
        skmd_enqueue_abandon(&e);
        return skmd_clEnqueueWriteBuffer(q, buffer, blocking, offset, size, ptr, n, wl, event);
    }
    return skmd_enqueue_end(&e, err);
}

cl_int skmd_clEnqueueReadBufferRect(cl_command_queue q, cl_mem buffer, cl_bool blocking,
                                    const size_t *buffer_origin, const size_t *host_origin,
                                    const size_t *region, size_t buffer_row_pitch,
                                    size_t buffer_slice_pitch, size_t host_row_pitch,
                                    size_t host_slice_pitch, void *ptr, cl_uint n,
                                    const cl_event *wl, cl_event *event)
{
    QUEUE_CHECK(q);
    MEM_CHECK(buffer);
    HOST_ACCESS(buffer, 1, 0);
    size_t span_off, span_size;
    if (gated(q, n, wl, &buffer, (const unsigned char[]){0}, 1)) {
        SKMD_RETURN_ERROR_IF(!buffer_origin || !host_origin || !region || !ptr,
                             CL_INVALID_VALUE);
        struct skmd_defer_args a = {.ptr = ptr,
                                    .pitch = {buffer_row_pitch, buffer_slice_pitch,
                                              host_row_pitch, host_slice_pitch}};
        memcpy(a.origin[0], buffer_origin, sizeof a.origin[0]);
        memcpy(a.origin[1], host_origin, sizeof a.origin[1]);
        memcpy(a.region, region, sizeof a.region);
        keep(&a, buffer, NULL);
        return skmd_defer(q, SKMD_DEFER_READ_RECT, CL_COMMAND_READ_BUFFER_RECT, n, wl, &buffer,
                          (const unsigned char[]){0}, 1, &a, blocking, event);
    }
    rect_span(buffer_origin, region, buffer_row_pitch, buffer_slice_pitch, &span_off,
              &span_size);
    skmd_stream_note_app_read(buffer);
    COHERENT(q, buffer, span_off, span_size, 0);
    BEGIN(q, n, wl, event);
    err = real_clEnqueueReadBufferRect(q->real, R(q, buffer), blocking, buffer_origin,
                                       host_origin, region, buffer_row_pitch,
                                       buffer_slice_pitch, host_row_pitch, host_slice_pitch,
                                       ptr, e.nwait, e.wait, e.event);
    return skmd_enqueue_end(&e, err);
}

cl_int skmd_clEnqueueWriteBufferRect(cl_command_queue q, cl_mem buffer, cl_bool blocking,
                                     const size_t *buffer_origin, const size_t *host_origin,
                                     const size_t *region, size_t buffer_row_pitch,
                                     size_t buffer_slice_pitch, size_t host_row_pitch,
                                     size_t host_slice_pitch, const void *ptr, cl_uint n,
                                     const cl_event *wl, cl_event *event)
{
    QUEUE_CHECK(q);
    MEM_CHECK(buffer);
    HOST_ACCESS(buffer, 0, 1);
    size_t span_off, span_size;
    if (gated(q, n, wl, &buffer, (const unsigned char[]){1}, 1)) {
        SKMD_RETURN_ERROR_IF(!buffer_origin || !host_origin || !region || !ptr,
                             CL_INVALID_VALUE);
        struct skmd_defer_args a = {.ptr = (void *)ptr,
                                    .pitch = {buffer_row_pitch, buffer_slice_pitch,
                                              host_row_pitch, host_slice_pitch}};
        memcpy(a.origin[0], buffer_origin, sizeof a.origin[0]);
        memcpy(a.origin[1], host_origin, sizeof a.origin[1]);
        memcpy(a.region, region, sizeof a.region);
        keep(&a, buffer, NULL);
        return skmd_defer(q, SKMD_DEFER_WRITE_RECT, CL_COMMAND_WRITE_BUFFER_RECT, n, wl,
                          &buffer, (const unsigned char[]){1}, 1, &a, blocking, event);
    }
    rect_span(buffer_origin, region, buffer_row_pitch, buffer_slice_pitch, &span_off,
              &span_size);
    COHERENT(q, buffer, span_off, span_size, 1);
    BEGIN(q, n, wl, event);
    err = real_clEnqueueWriteBufferRect(q->real, R(q, buffer), blocking, buffer_origin,
                                        host_origin, region, buffer_row_pitch,
                                        buffer_slice_pitch, host_row_pitch, host_slice_pitch,
                                        ptr, e.nwait, e.wait, e.event);
    return skmd_enqueue_end(&e, err);
}

cl_int skmd_clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst, size_t src_offset,
                                size_t dst_offset, size_t size, cl_uint n, const cl_event *wl,
                                cl_event *event)
{
    QUEUE_CHECK(q);
    MEM_CHECK(src);
    MEM_CHECK(dst);
    const cl_mem both[2] = {src, dst};
    if (gated(q, n, wl, both, (const unsigned char[]){0, 1}, 2)) {
        SKMD_RETURN_ERROR_IF(src_offset > src->size || size > src->size - src_offset ||
                             dst_offset > dst->size || size > dst->size - dst_offset,
                             CL_INVALID_VALUE);
        struct skmd_defer_args a = {.offset = {src_offset, dst_offset}, .size = size};
        keep(&a, src, dst);
        return skmd_defer(q, SKMD_DEFER_COPY, CL_COMMAND_COPY_BUFFER, n, wl, both,
                          (const unsigned char[]){0, 1}, 2, &a, CL_FALSE, event);
    }
    COHERENT(q, src, src_offset, size, 0);
    COHERENT(q, dst, dst_offset, size, 1);
    BEGIN(q, n, wl, event);
    err = real_clEnqueueCopyBuffer(q->real, R(q, src), R(q, dst), src_offset, dst_offset, size,
                                   e.nwait, e.wait, e.event);
    return skmd_enqueue_end(&e, err);
}

cl_int skmd_clEnqueueCopyBufferRect(cl_command_queue q, cl_mem src, cl_mem dst,
                                    const size_t *src_origin, const size_t *dst_origin,
                                    const size_t *region, size_t src_row_pitch,
                                    size_t src_slice_pitch, size_t dst_row_pitch,
                                    size_t dst_slice_pitch, cl_uint n, const cl_event *wl,
                                    cl_event *event)
{
    QUEUE_CHECK(q);
    MEM_CHECK(src);
    MEM_CHECK(dst);
    const cl_mem both[2] = {src, dst};
    if (gated(q, n, wl, both, (const unsigned char[]){0, 1}, 2)) {
        SKMD_RETURN_ERROR_IF(!src_origin || !dst_origin || !region, CL_INVALID_VALUE);
        struct skmd_defer_args a = {.pitch = {src_row_pitch, src_slice_pitch, dst_row_pitch,
                                              dst_slice_pitch}};
        memcpy(a.origin[0], src_origin, sizeof a.origin[0]);
        memcpy(a.origin[1], dst_origin, sizeof a.origin[1]);
        memcpy(a.region, region, sizeof a.region);
        keep(&a, src, dst);
        return skmd_defer(q, SKMD_DEFER_COPY_RECT, CL_COMMAND_COPY_BUFFER_RECT, n, wl, both,
                          (const unsigned char[]){0, 1}, 2, &a, CL_FALSE, event);
    }
    size_t span_off, span_size;
    rect_span(src_origin, region, src_row_pitch, src_slice_pitch, &span_off, &span_size);
    COHERENT(q, src, span_off, span_size, 0);
    rect_span(dst_origin, region, dst_row_pitch, dst_slice_pitch, &span_off, &span_size);
    COHERENT(q, dst, span_off, span_size, 1);
    BEGIN(q, n, wl, event);
    err = real_clEnqueueCopyBufferRect(q->real, R(q, src), R(q, dst), src_origin, dst_origin,
                                       region, src_row_pitch, src_slice_pitch, dst_row_pitch,
                                       dst_slice_pitch, e.nwait, e.wait, e.event);
    return skmd_enqueue_end(&e, err);
}

cl_int skmd_clEnqueueFillBuffer(cl_command_queue q, cl_mem buffer, const void *pattern,
                                size_t pattern_size, size_t offset, size_t size, cl_uint n,
                                const cl_event *wl, cl_event *event)
{
    QUEUE_CHECK(q);
    MEM_CHECK(buffer);
    if (gated(q, n, wl, &buffer, (const unsigned char[]){1}, 1)) {
        struct skmd_defer_args a = {.offset = {offset}, .size = size,
                                    .pattern_size = pattern_size};
        SKMD_RETURN_ERROR_IF(!pattern || pattern_size == 0 ||
                             pattern_size > sizeof a.pattern || offset > buffer->size ||
                             size > buffer->size - offset, CL_INVALID_VALUE);
        memcpy(a.pattern, pattern, pattern_size);
        keep(&a, buffer, NULL);
        return skmd_defer(q, SKMD_DEFER_FILL, CL_COMMAND_FILL_BUFFER, n, wl, &buffer,
                          (const unsigned char[]){1}, 1, &a, CL_FALSE, event);
    }
    COHERENT(q, buffer, offset, size, 1);
    BEGIN(q, n, wl, event);
    err = real_clEnqueueFillBuffer(q->real, R(q, buffer), pattern, pattern_size, offset, size,
                                   e.nwait, e.wait, e.event);
    return skmd_enqueue_end(&e, err);
}

cl_int skmd_clEnqueueReadImage(cl_command_queue q, cl_mem image, cl_bool blocking,
                               const size_t *origin, const size_t *region, size_t row_pitch,
                               size_t slice_pitch, void *ptr, cl_uint n, const cl_event *wl,
                               cl_event *event)
{
    QUEUE_CHECK(q);
    MEM_CHECK(image);
    BEGIN(q, n, wl, event);
    err = real_clEnqueueReadImage(q->real, R(q, image), blocking, origin, region, row_pitch,
                                  slice_pitch, ptr, e.nwait, e.wait, e.event);
    return skmd_enqueue_end(&e, err);
}

cl_int skmd_clEnqueueWriteImage(cl_command_queue q, cl_mem image, cl_bool blocking,
                                const size_t *origin, const size_t *region,
                                size_t input_row_pitch, size_t input_slice_pitch,
                                const void *ptr, cl_uint n, const cl_event *wl, cl_event *event)
{
    QUEUE_CHECK(q);
    MEM_CHECK(image);
    BEGIN(q, n, wl, event);
    err = real_clEnqueueWriteImage(q->real, R(q, image), blocking, origin, region,
                                   input_row_pitch, input_slice_pitch, ptr, e.nwait, e.wait,
                                   e.event);
    return skmd_enqueue_end(&e, err);
}

cl_int skmd_clEnqueueFillImage(cl_command_queue q, cl_mem image, const void *fill_color,
                               const size_t *origin, const size_t *region, cl_uint n,
                               const cl_event *wl, cl_event *event)
{
    QUEUE_CHECK(q);
    MEM_CHECK(image);
    BEGIN(q, n, wl, event);
    err = real_clEnqueueFillImage(q->real, R(q, image), fill_color, origin, region, e.nwait,
                                  e.wait, e.event);
    return skmd_enqueue_end(&e, err);
}

cl_int skmd_clEnqueueCopyImage(cl_command_queue q, cl_mem src, cl_mem dst,
                               const size_t *src_origin, const size_t *dst_origin,
                               const size_t *region, cl_uint n, const cl_event *wl,
                               cl_event *event)
{
    QUEUE_CHECK(q);
    MEM_CHECK(src);
    MEM_CHECK(dst);
    BEGIN(q, n, wl, event);
    err = real_clEnqueueCopyImage(q->real, R(q, src), R(q, dst), src_origin, dst_origin,
                                  region, e.nwait, e.wait, e.event);
    return skmd_enqueue_end(&e, err);
}

cl_int skmd_clEnqueueCopyImageToBuffer(cl_command_queue q, cl_mem src, cl_mem dst,
                                       const size_t *src_origin, const size_t *region,
                                       size_t dst_offset, cl_uint n, const cl_event *wl,
                                       cl_event *event)
{
    QUEUE_CHECK(q);
    MEM_CHECK(src);
    MEM_CHECK(dst);
    COHERENT(q, dst, 0, dst->size, 1); /* the bytes an image region fills: a bound */
    BEGIN(q, n, wl, event);
    err = real_clEnqueueCopyImageToBuffer(q->real, R(q, src), R(q, dst), src_origin, region,
                                          dst_offset, e.nwait, e.wait, e.event);
    return skmd_enqueue_end(&e, err);
}

cl_int skmd_clEnqueueCopyBufferToImage(cl_command_queue q, cl_mem src, cl_mem dst,
                                       size_t src_offset, const size_t *dst_origin,
                                       const size_t *region, cl_uint n, const cl_event *wl,
                                       cl_event *event)
{
    QUEUE_CHECK(q);
    MEM_CHECK(src);
    MEM_CHECK(dst);
    COHERENT(q, src, 0, src->size, 0);
    BEGIN(q, n, wl, event);
    err = real_clEnqueueCopyBufferToImage(q->real, R(q, src), R(q, dst), src_offset,
                                          dst_origin, region, e.nwait, e.wait, e.event);
    return skmd_enqueue_end(&e, err);
}

/* Map returns the driver's pointer: for USE_HOST_PTR it is inside the app's memory, as
 * the spec requires, because the real buffer was made with the app's pointer. */
/* A map whose wait list holds what the app has not set yet (defer.h): the pointer is
 * the exec member's map of the region now (libskmd's own queue, no wait list), and the
 * launcher, once the wait list is done, makes the member's copy current and, for a read,
 * brings the bytes into the mapped memory; the app's event says when. */
struct deferred_map {
    cl_mem buffer;
    size_t offset, size;
    cl_map_flags flags;
    void *ptr;
};

static cl_int map_run(cl_command_queue q, void *arg, cl_event *real_event)
{
    struct deferred_map *m = arg;
    *real_event = NULL;
    cl_int err = coherent(q, m->buffer, m->offset, m->size,
                          (m->flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) != 0);
    if (err == CL_SUCCESS && (m->flags & CL_MAP_READ) && m->size)
        err = real_clEnqueueReadBuffer(q->real, R(q, m->buffer), CL_TRUE, m->offset, m->size,
                                       m->ptr, 0, NULL, NULL);
    return err;
}

static void *map_deferred(cl_command_queue q, cl_mem buffer, cl_bool blocking,
                          cl_map_flags flags, size_t offset, size_t size, cl_uint n,
                          const cl_event *wl, cl_event *event, cl_int *errcode)
{
    /* The wait list first: once mapped, only running out of memory undoes the map. */
    *errcode = (n > 0) != (wl != NULL) ? CL_INVALID_EVENT_WAIT_LIST : CL_SUCCESS;
    for (cl_uint i = 0; i < n && *errcode == CL_SUCCESS; i++)
        *errcode = !SKMD_VALID(wl[i], EVENT)         ? CL_INVALID_EVENT_WAIT_LIST
                   : wl[i]->context != q->context ? CL_INVALID_CONTEXT
                                                  : CL_SUCCESS;
    if (*errcode != CL_SUCCESS)
        return NULL;
    cl_command_queue work = skmd_work_queue(q->context, q->member, errcode);
    if (*errcode != CL_SUCCESS)
        return NULL;
    cl_int rerr = ensure_real(q, buffer);
    if (rerr != CL_SUCCESS) {
        *errcode = rerr;
        return NULL;
    }
    void *ptr = real_clEnqueueMapBuffer(work, R(q, buffer), CL_TRUE, flags, offset, size, 0,
                                        NULL, NULL, errcode);
    struct deferred_map *m = ptr ? malloc(sizeof *m) : NULL;
    if (!m) {
        if (ptr) {
            real_clEnqueueUnmapMemObject(work, R(q, buffer), ptr, 0, NULL, NULL);
            *errcode = CL_OUT_OF_HOST_MEMORY;
        }
        return NULL;
    }
    *m = (struct deferred_map){buffer, offset, size, flags, ptr};
    struct skmd_defer_args a = {.run = map_run, .done = free, .arg = m};
    keep(&a, buffer, NULL);
    unsigned char writes = (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) != 0;
    *errcode = skmd_defer(q, SKMD_DEFER_RUN, CL_COMMAND_MAP_BUFFER, n, wl, &buffer, &writes, 1,
                          &a, blocking, event);
    if (*errcode == CL_SUCCESS)
        return ptr;
    if (*errcode != CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) { /* never posted */
        real_clEnqueueUnmapMemObject(work, R(q, buffer), ptr, 0, NULL, NULL);
        free(m);
    }
    return NULL;
}

void *skmd_clEnqueueMapBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking,
                              cl_map_flags map_flags, size_t offset, size_t size, cl_uint n,
                              const cl_event *wl, cl_event *event, cl_int *errcode_ret)
{
    cl_int errcode = CL_SUCCESS;
    void *ptr = NULL;
    struct skmd_enqueue e;
    SKMD_GOTO_ERROR_IF(!SKMD_VALID(q, QUEUE), CL_INVALID_COMMAND_QUEUE);
    SKMD_GOTO_IF_REAL_FAILED(skmd_queue_healthy(q));
    SKMD_GOTO_ERROR_IF(!SKMD_VALID(buffer, MEM), CL_INVALID_MEM_OBJECT);
    SKMD_GOTO_IF_REAL_FAILED(host_access(buffer, (map_flags & CL_MAP_READ) != 0,
                                         (map_flags & (CL_MAP_WRITE |
                                                       CL_MAP_WRITE_INVALIDATE_REGION)) != 0));
    if (map_flags & CL_MAP_READ)
        skmd_stream_note_app_read(buffer);
    SKMD_GOTO_ERROR_IF(offset > buffer->size || size > buffer->size - offset, CL_INVALID_VALUE);
    if (gated(q, n, wl, &buffer,
              (const unsigned char[]){(map_flags & (CL_MAP_WRITE |
                                                    CL_MAP_WRITE_INVALIDATE_REGION)) != 0},
              1)) {
        ptr = map_deferred(q, buffer, blocking, map_flags, offset, size, n, wl, event,
                           &errcode);
        goto ERROR;
    }
    /* A map for writing may change any mapped byte until the unmap: the member's copy is
     * the current one from now on. */
    SKMD_GOTO_IF_REAL_FAILED(coherent(q, buffer, offset, size, (map_flags & (CL_MAP_WRITE |
                                      CL_MAP_WRITE_INVALIDATE_REGION)) != 0));
    SKMD_GOTO_IF_REAL_FAILED(skmd_enqueue_begin(&e, q, n, wl, event));
    ptr = real_clEnqueueMapBuffer(q->real, R(q, buffer), blocking, map_flags, offset, size,
                                  e.nwait, e.wait, e.event, &errcode);
    errcode = skmd_enqueue_end(&e, errcode);
    if (blocking && errcode == CL_SUCCESS)
        skmd_placement_note_app_wait();
ERROR:
    if (errcode_ret)
        *errcode_ret = errcode;
    return errcode == CL_SUCCESS ? ptr : NULL;
}

void *skmd_clEnqueueMapImage(cl_command_queue q, cl_mem image, cl_bool blocking,
                             cl_map_flags map_flags, const size_t *origin, const size_t *region,
                             size_t *image_row_pitch, size_t *image_slice_pitch, cl_uint n,
                             const cl_event *wl, cl_event *event, cl_int *errcode_ret)
{
    cl_int errcode = CL_SUCCESS;
    void *ptr = NULL;
    struct skmd_enqueue e;
    SKMD_GOTO_ERROR_IF(!SKMD_VALID(q, QUEUE), CL_INVALID_COMMAND_QUEUE);
    SKMD_GOTO_ERROR_IF(!SKMD_VALID(image, MEM), CL_INVALID_MEM_OBJECT);
    SKMD_GOTO_IF_REAL_FAILED(skmd_enqueue_begin(&e, q, n, wl, event));
    ptr = real_clEnqueueMapImage(q->real, R(q, image), blocking, map_flags, origin, region,
                                 image_row_pitch, image_slice_pitch, e.nwait, e.wait, e.event,
                                 &errcode);
    errcode = skmd_enqueue_end(&e, errcode);
ERROR:
    if (errcode_ret)
        *errcode_ret = errcode;
    return errcode == CL_SUCCESS ? ptr : NULL;
}

cl_int skmd_clEnqueueUnmapMemObject(cl_command_queue q, cl_mem memobj, void *mapped_ptr,
                                    cl_uint n, const cl_event *wl, cl_event *event)
{
    QUEUE_CHECK(q);
    MEM_CHECK(memobj);
    BEGIN(q, n, wl, event);
    err = real_clEnqueueUnmapMemObject(q->real, R(q, memobj), mapped_ptr, e.nwait, e.wait,
                                       e.event);
    return skmd_enqueue_end(&e, err);
}

cl_int skmd_clEnqueueMigrateMemObjects(cl_command_queue q, cl_uint num_mem_objects,
                                       const cl_mem *mem_objects, cl_mem_migration_flags flags,
                                       cl_uint n, const cl_event *wl, cl_event *event)
{
    QUEUE_CHECK(q);
    SKMD_RETURN_ERROR_IF(num_mem_objects == 0 || !mem_objects, CL_INVALID_VALUE);
    SKMD_RETURN_ERROR_IF(num_mem_objects > 64, CL_OUT_OF_RESOURCES);
    cl_mem real[64];
    unsigned char writes[64];
    for (cl_uint i = 0; i < num_mem_objects; i++) {
        MEM_CHECK(mem_objects[i]);
        writes[i] = (flags & CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED) != 0;
    }
    if (gated(q, n, wl, mem_objects, writes, num_mem_objects)) {
        struct skmd_defer_args a = {.flags = flags};
        a.mems = malloc(num_mem_objects * sizeof *a.mems);
        SKMD_RETURN_ERROR_IF(!a.mems, CL_OUT_OF_HOST_MEMORY);
        for (cl_uint i = 0; i < num_mem_objects; i++)
            skmd_clRetainMemObject(a.mems[a.num_mems++] = mem_objects[i]);
        return skmd_defer(q, SKMD_DEFER_MIGRATE, CL_COMMAND_MIGRATE_MEM_OBJECTS, n, wl,
                          mem_objects, writes, num_mem_objects, &a, CL_FALSE, event);
    }
    for (cl_uint i = 0; i < num_mem_objects; i++) {
        COHERENT(q, mem_objects[i], 0, mem_objects[i]->size,
                 (flags & CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED) != 0);
        real[i] = R(q, mem_objects[i]);
    }
    BEGIN(q, n, wl, event);
    err = real_clEnqueueMigrateMemObjects(q->real, num_mem_objects, real, flags, e.nwait,
                                          e.wait, e.event);
    return skmd_enqueue_end(&e, err);
}

cl_int skmd_clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel kernel, cl_uint work_dim,
                                   const size_t *global_work_offset,
                                   const size_t *global_work_size,
                                   const size_t *local_work_size, cl_uint n,
                                   const cl_event *wl, cl_event *event)
{
    QUEUE_CHECK(q);
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(kernel, KERNEL), CL_INVALID_KERNEL);
    SKMD_RETURN_ERROR_IF(kernel->program->context != q->context, CL_INVALID_CONTEXT);
    int empty = 0;
    cl_int bad = skmd_ndrange_check(kernel, work_dim, global_work_offset, global_work_size,
                                    local_work_size, &empty);
    if (bad != CL_SUCCESS)
        return bad;
    if (empty) { /* an empty launch: done once its wait list is; still a kernel's event */
        cl_int err = skmd_clEnqueueMarkerWithWaitList(q, n, wl, event);
        if (err == CL_SUCCESS && event && *event)
            (*event)->type = CL_COMMAND_NDRANGE_KERNEL;
        return err;
    }
    /* Gated (defer.h): by its wait list or its queue here, by its buffers in launch.c. */
    struct skmd_enqueue e;
    cl_int err = skmd_enqueue_begin_gated(&e, q, n, wl, event, gated(q, n, wl, NULL, NULL, 0));
    if (err != CL_SUCCESS)
        return err;
    err = skmd_launch_ndrange(q, kernel, work_dim, global_work_offset, global_work_size,
                              local_work_size, &e);
    return skmd_enqueue_end(&e, err);
}

cl_int skmd_clEnqueueTask(cl_command_queue q, cl_kernel kernel, cl_uint n, const cl_event *wl,
                          cl_event *event)
{
    const size_t one = 1;
    return skmd_clEnqueueNDRangeKernel(q, kernel, 1, NULL, &one, &one, n, wl, event);
}

cl_int skmd_clEnqueueNativeKernel(cl_command_queue q, void (CL_CALLBACK *user_func)(void *),
                                  void *args, size_t cb_args, cl_uint num_mem_objects,
                                  const cl_mem *mem_list, const void **args_mem_loc, cl_uint n,
                                  const cl_event *wl, cl_event *event)
{
    (void)user_func, (void)args, (void)cb_args, (void)num_mem_objects, (void)mem_list;
    (void)args_mem_loc, (void)n, (void)wl, (void)event;
    QUEUE_CHECK(q);
    /* CL_DEVICE_EXECUTION_CAPABILITIES leaves out CL_EXEC_NATIVE_KERNEL. */
    SKMD_RETURN_ERROR_IF(1, CL_INVALID_OPERATION);
}

cl_int skmd_clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint n, const cl_event *wl,
                                        cl_event *event)
{
    QUEUE_CHECK(q);
    if (gated(q, n, wl, NULL, NULL, 0)) {
        struct skmd_defer_args a = {0};
        return skmd_defer(q, SKMD_DEFER_MARKER, CL_COMMAND_MARKER, n, wl, NULL, NULL, 0, &a,
                          CL_FALSE, event);
    }
    /* Split launches are on no real queue: the marker must come after them (on the
     * launcher itself, a deferred one comes after them already). */
    if (!skmd_defer_running())
        skmd_launcher_drain(q);
    BEGIN(q, n, wl, event);
    err = real_clEnqueueMarkerWithWaitList(q->real, e.nwait, e.wait, e.event);
    return skmd_enqueue_end(&e, err);
}

cl_int skmd_clEnqueueBarrierWithWaitList(cl_command_queue q, cl_uint n, const cl_event *wl,
                                         cl_event *event)
{
    QUEUE_CHECK(q);
    if (gated(q, n, wl, NULL, NULL, 0)) {
        struct skmd_defer_args a = {0};
        return skmd_defer(q, SKMD_DEFER_BARRIER, CL_COMMAND_BARRIER, n, wl, NULL, NULL, 0, &a,
                          CL_FALSE, event);
    }
    /* Split launches are on no real queue: the barrier must come after them. */
    if (!skmd_defer_running())
        skmd_launcher_drain(q);
    BEGIN(q, n, wl, event);
    err = real_clEnqueueBarrierWithWaitList(q->real, e.nwait, e.wait, e.event);
    return skmd_enqueue_end(&e, err);
}

cl_int skmd_clEnqueueMarker(cl_command_queue q, cl_event *event)
{
    QUEUE_CHECK(q);
    SKMD_RETURN_ERROR_IF(!event, CL_INVALID_VALUE);
    return skmd_clEnqueueMarkerWithWaitList(q, 0, NULL, event);
}

cl_int skmd_clEnqueueBarrier(cl_command_queue q)
{
    QUEUE_CHECK(q);
    return skmd_clEnqueueBarrierWithWaitList(q, 0, NULL, NULL);
}

cl_int skmd_clEnqueueWaitForEvents(cl_command_queue q, cl_uint num_events,
                                   const cl_event *event_list)
{
    QUEUE_CHECK(q);
    SKMD_RETURN_ERROR_IF(num_events == 0 || !event_list, CL_INVALID_VALUE);
    return skmd_clEnqueueBarrierWithWaitList(q, num_events, event_list, NULL);
}

/* SVM: no member's SVM is offered (CL_DEVICE_SVM_CAPABILITIES is 0). */
cl_int skmd_clEnqueueSVMFree(cl_command_queue q, cl_uint num_svm_pointers,
                             void *svm_pointers[],
                             void (CL_CALLBACK *pfn_free_func)(cl_command_queue, cl_uint,
                                                               void *[], void *),
                             void *user_data, cl_uint n, const cl_event *wl, cl_event *event)
{
    (void)num_svm_pointers, (void)svm_pointers, (void)pfn_free_func, (void)user_data;
    (void)n, (void)wl, (void)event;
    QUEUE_CHECK(q);
    SKMD_RETURN_ERROR_IF(1, CL_INVALID_OPERATION);
}

cl_int skmd_clEnqueueSVMMemcpy(cl_command_queue q, cl_bool blocking_copy, void *dst_ptr,
                               const void *src_ptr, size_t size, cl_uint n, const cl_event *wl,
                               cl_event *event)
{
    (void)blocking_copy, (void)dst_ptr, (void)src_ptr, (void)size, (void)n, (void)wl;
    (void)event;
    QUEUE_CHECK(q);
    SKMD_RETURN_ERROR_IF(1, CL_INVALID_OPERATION);
}

cl_int skmd_clEnqueueSVMMemFill(cl_command_queue q, void *svm_ptr, const void *pattern,
                                size_t pattern_size, size_t size, cl_uint n,
                                const cl_event *wl, cl_event *event)
{
    (void)svm_ptr, (void)pattern, (void)pattern_size, (void)size, (void)n, (void)wl;
    (void)event;
    QUEUE_CHECK(q);
    SKMD_RETURN_ERROR_IF(1, CL_INVALID_OPERATION);
}

cl_int skmd_clEnqueueSVMMap(cl_command_queue q, cl_bool blocking_map, cl_map_flags flags,
                            void *svm_ptr, size_t size, cl_uint n, const cl_event *wl,
                            cl_event *event)
{
    (void)blocking_map, (void)flags, (void)svm_ptr, (void)size, (void)n, (void)wl;
    (void)event;
    QUEUE_CHECK(q);
    SKMD_RETURN_ERROR_IF(1, CL_INVALID_OPERATION);
}

cl_int skmd_clEnqueueSVMUnmap(cl_command_queue q, void *svm_ptr, cl_uint n, const cl_event *wl,
                              cl_event *event)
{
    (void)svm_ptr, (void)n, (void)wl, (void)event;
    QUEUE_CHECK(q);
    SKMD_RETURN_ERROR_IF(1, CL_INVALID_OPERATION);
}

cl_int skmd_clEnqueueSVMMigrateMem(cl_command_queue q, cl_uint num_svm_pointers,
                                   const void **svm_pointers, const size_t *sizes,
                                   cl_mem_migration_flags flags, cl_uint n, const cl_event *wl,
                                   cl_event *event)
{
    (void)num_svm_pointers, (void)svm_pointers, (void)sizes, (void)flags, (void)n, (void)wl;
    (void)event;
    QUEUE_CHECK(q);
    SKMD_RETURN_ERROR_IF(1, CL_INVALID_OPERATION);
}
