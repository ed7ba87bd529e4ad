/* libskmd/cl/enqueue.c: the clEnqueue* that read, write, copy and fill buffers and
 * images (the hot path; maps: enqueue_map.c; the rest: enqueue_sync.c). In single mode
 * each one is the real command on the executing member's queue with real handles swapped
 * in; no allocation unless the app asks for an event or waits on more than 16. */
#include <stdlib.h>
#include <string.h>
#include "cl/app_io.h"
#include "cl/host_io.h"
#include "plan/placement.h"
#include "cl/read_scattered.h"
#include "launch/stream_out.h"
#include "cl/write_placed.h"
#include "cl/enqueue_internal.h"

/* A deferred command of this file, its waits done, on its queue's launcher thread
 * (defer_app.h): its entry point again, as the app's thread would have run it (blocking,
 * so that its buffers' state is final when its event is set). */
static cl_int run_deferred(cl_command_queue q, enum skmd_defer_kind kind,
                           struct skmd_defer_args *a, cl_event *ev)
{
    switch (kind) {
    case SKMD_DEFER_READ:
        return skmd_clEnqueueReadBuffer(q, a->mem[0], CL_TRUE, a->offset[0], a->size, a->ptr,
                                        0, NULL, ev);
    case SKMD_DEFER_WRITE:
        return skmd_clEnqueueWriteBuffer(q, a->mem[0], CL_TRUE, a->offset[0], a->size, a->ptr,
                                         0, NULL, ev);
    case SKMD_DEFER_READ_RECT:
        return skmd_clEnqueueReadBufferRect(q, a->mem[0], CL_TRUE, a->origin[0], a->origin[1],
                                            a->region, a->pitch[0], a->pitch[1], a->pitch[2],
                                            a->pitch[3], a->ptr, 0, NULL, ev);
    case SKMD_DEFER_WRITE_RECT:
        return skmd_clEnqueueWriteBufferRect(q, a->mem[0], CL_TRUE, a->origin[0], a->origin[1],
                                             a->region, a->pitch[0], a->pitch[1], a->pitch[2],
                                             a->pitch[3], a->ptr, 0, NULL, ev);
    case SKMD_DEFER_COPY:
        return skmd_clEnqueueCopyBuffer(q, a->mem[0], a->mem[1], a->offset[0], a->offset[1],
                                        a->size, 0, NULL, ev);
    case SKMD_DEFER_COPY_RECT:
        return skmd_clEnqueueCopyBufferRect(q, a->mem[0], a->mem[1], a->origin[0], a->origin[1],
                                            a->region, a->pitch[0], a->pitch[1], a->pitch[2],
                                            a->pitch[3], 0, NULL, ev);
    case SKMD_DEFER_FILL:
        return skmd_clEnqueueFillBuffer(q, a->mem[0], a->pattern, a->pattern_size,
                                        a->offset[0], a->size, 0, NULL, ev);
    default:
        return CL_INVALID_OPERATION;
    }
}

static const struct skmd_defer_command deferred = {run_deferred, skmd_defer_profiling};

/* Defers a rect command (read, write or copy: its arguments checked) over mems[0..nm),
 * writes[i] where it writes mems[i]: two origins, the region, four pitches, the app's
 * pointer (NULL for a copy). */
static cl_int defer_rect(cl_command_queue q, enum skmd_defer_kind kind, cl_command_type type,
                         const cl_mem *mems, const unsigned char *writes, unsigned nm,
                         const size_t *origin0, const size_t *origin1, const size_t *region,
                         const size_t pitch[4], void *ptr, cl_bool blocking, cl_uint n,
                         const cl_event *wl, cl_event *event)
{
    struct skmd_defer_args a = {.ptr = ptr, .pitch = {pitch[0], pitch[1], pitch[2], pitch[3]}};
    memcpy(a.origin[0], origin0, sizeof a.origin[0]);
    memcpy(a.origin[1], origin1, sizeof a.origin[1]);
    memcpy(a.region, region, sizeof a.region);
    keep(&a, mems[0], nm > 1 ? mems[1] : NULL);
    return skmd_defer(q, &deferred, kind, type, n, wl, mems, writes, nm, &a, blocking,
                      event);
}

/* Defers a plain read (writes 0) or write (writes 1), its arguments checked. */
static cl_int defer_buffer_io(cl_command_queue q, cl_mem buffer, int writes, cl_bool blocking,
                              size_t offset, size_t size, void *ptr, cl_uint n,
                              const cl_event *wl, cl_event *event)
{
    SKMD_RETURN_ERROR_IF(!ptr || offset > buffer->size || size > buffer->size - offset,
                         CL_INVALID_VALUE);
    struct skmd_defer_args a = {.offset = {offset}, .size = size, .ptr = ptr};
    keep(&a, buffer, NULL);
    return skmd_defer(q, &deferred, writes ? SKMD_DEFER_WRITE : SKMD_DEFER_READ,
                      writes ? CL_COMMAND_WRITE_BUFFER : CL_COMMAND_READ_BUFFER, n, wl,
                      &buffer, (const unsigned char[]){(unsigned char)writes}, 1, &a, blocking,
                      event);
}

/* The end of a plain read or write of [offset, offset+size) on the queue's member, its
 * copy made current (for a write: about to be replaced) first: through the transfer
 * engine when large, else the real command. 1 when a member fault moved the queue or
 * refused the buffer: the caller runs the command again; else 0, *result its result. */
static int buffer_io(cl_command_queue q, cl_mem buffer, int writes, cl_bool blocking,
                     size_t offset, size_t size, void *ptr, cl_uint n, const cl_event *wl,
                     cl_event *event, cl_int *result)
{
    cl_int err = writes ? overwritten(q, buffer, offset, size)
                        : coherent(q, buffer, offset, size, 0);
    if (err != CL_SUCCESS) {
        *result = err;
        return skmd_fault_retry(q, buffer, err, 0);
    }
    if (writes ? skmd_app_write(q, buffer, offset, size, ptr, blocking, n, wl, event, result)
               : skmd_app_read(q, buffer, offset, size, ptr, blocking, n, wl, event, result))
        return 0; /* large: through the transfer engine */
    struct skmd_enqueue e;
    err = skmd_enqueue_begin(&e, q, n, wl, event);
    if (err == CL_SUCCESS) {
        err = writes ? real_clEnqueueWriteBuffer(q->real, R(q, buffer), blocking, offset, size,
                                                 ptr, e.nwait, e.wait, e.event)
                     : real_clEnqueueReadBuffer(q->real, R(q, buffer), blocking, offset, size,
                                                ptr, e.nwait, e.wait, e.event);
        if (err != CL_SUCCESS && skmd_fault_retry(q, buffer, err, 1)) {
            skmd_enqueue_abandon(&e);
            return 1;
        }
        err = skmd_enqueue_end(&e, err);
    }
    *result = err;
    return 0;
}

static cl_int read_buffer(cl_command_queue q, cl_mem buffer, cl_bool blocking, size_t offset,
                          size_t size, void *ptr, cl_uint n, const cl_event *wl,
                          cl_event *event)
{
    /* Checked again on each try: after a member fault, QUEUE_CHECK moves the queue to a
     * healthy member (skmd_queue_healthy) before the read runs once more. */
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
    cl_int err;
    if (buffer_io(q, buffer, 0, blocking, offset, size, ptr, n, wl, event, &err))
        return read_buffer(q, buffer, blocking, offset, size, ptr, n, wl, event);
    return err;
}

/* A blocking read is one of the app's waits (placement.h). */
cl_int skmd_clEnqueueReadBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking,
                                size_t offset, size_t size, void *ptr, cl_uint n,
                                const cl_event *wl, cl_event *event)
{
    QUEUE_CHECK(q);
    MEM_CHECK(buffer);
    HOST_ACCESS(buffer, 1, 0);
    if (gated(q, n, wl, &buffer, (const unsigned char[]){0}, 1))
        return defer_buffer_io(q, buffer, 0, blocking, offset, size, ptr, n, wl, event);
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
    if (gated(q, n, wl, &buffer, (const unsigned char[]){1}, 1))
        return defer_buffer_io(q, buffer, 1, blocking, offset, size, (void *)ptr, n, wl, event);
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
    cl_int err;
    if (buffer_io(q, buffer, 1, blocking, offset, size, (void *)ptr, n, wl, event, &err))
        return skmd_clEnqueueWriteBuffer(q, buffer, blocking, offset, size, ptr, n, wl, event);
    return err;
}

/* clEnqueueReadBufferRect (writes 0) or clEnqueueWriteBufferRect (writes 1); pitch:
 * the buffer's row and slice pitches, then the host's. */
static cl_int buffer_rect(cl_command_queue q, cl_mem buffer, int writes, cl_bool blocking,
                          const size_t *buffer_origin, const size_t *host_origin,
                          const size_t *region, const size_t pitch[4], void *ptr, cl_uint n,
                          const cl_event *wl, cl_event *event)
{
    QUEUE_CHECK(q);
    MEM_CHECK(buffer);
    HOST_ACCESS(buffer, !writes, writes);
    const unsigned char writes_it[1] = {(unsigned char)writes};
    if (gated(q, n, wl, &buffer, writes_it, 1)) {
        SKMD_RETURN_ERROR_IF(!buffer_origin || !host_origin || !region || !ptr,
                             CL_INVALID_VALUE);
        return defer_rect(q, writes ? SKMD_DEFER_WRITE_RECT : SKMD_DEFER_READ_RECT,
                          writes ? CL_COMMAND_WRITE_BUFFER_RECT : CL_COMMAND_READ_BUFFER_RECT,
                          &buffer, writes_it, 1, buffer_origin, host_origin, region, pitch,
                          ptr, blocking, n, wl, event);
    }
    size_t span_off, span_size;
    rect_span(buffer_origin, region, pitch[0], pitch[1], &span_off, &span_size);
    if (!writes)
        skmd_stream_note_app_read(buffer);
    COHERENT(q, buffer, span_off, span_size, writes);
    BEGIN(q, n, wl, event);
    if (writes)
        err = real_clEnqueueWriteBufferRect(q->real, R(q, buffer), blocking, buffer_origin,
                                            host_origin, region, pitch[0], pitch[1], pitch[2],
                                            pitch[3], ptr, e.nwait, e.wait, e.event);
    else
        err = real_clEnqueueReadBufferRect(q->real, R(q, buffer), blocking, buffer_origin,
                                           host_origin, region, pitch[0], pitch[1], pitch[2],
                                           pitch[3], ptr, e.nwait, e.wait, e.event);
    return skmd_enqueue_end(&e, err);
}

cl_int skmd_clEnqueueReadBufferRect(cl_command_queue q, cl_mem buffer, cl_bool blocking,
                                    const size_t *buffer_origin, const size_t *host_origin,
                                    const size_t *region, size_t buffer_row_pitch,
                                    size_t buffer_slice_pitch, size_t host_row_pitch,
                                    size_t host_slice_pitch, void *ptr, cl_uint n,
                                    const cl_event *wl, cl_event *event)
{
    const size_t pitch[4] = {buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
                             host_slice_pitch};
    return buffer_rect(q, buffer, 0, blocking, buffer_origin, host_origin, region, pitch, ptr,
                       n, wl, event);
}

cl_int skmd_clEnqueueWriteBufferRect(cl_command_queue q, cl_mem buffer, cl_bool blocking,
                                     const size_t *buffer_origin, const size_t *host_origin,
                                     const size_t *region, size_t buffer_row_pitch,
                                     size_t buffer_slice_pitch, size_t host_row_pitch,
                                     size_t host_slice_pitch, const void *ptr, cl_uint n,
                                     const cl_event *wl, cl_event *event)
{
    const size_t pitch[4] = {buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
                             host_slice_pitch};
    return buffer_rect(q, buffer, 1, blocking, buffer_origin, host_origin, region, pitch,
                       (void *)ptr, n, wl, event);
}

cl_int skmd_clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst, size_t src_offset,
                                size_t dst_offset, size_t size, cl_uint n, const cl_event *wl,
                                cl_event *event)
{
    COPY_CHECK(q, src, dst);
    const cl_mem both[2] = {src, dst};
    if (gated(q, n, wl, both, (const unsigned char[]){0, 1}, 2)) {
        SKMD_RETURN_ERROR_IF(src_offset > src->size || size > src->size - src_offset ||
                             dst_offset > dst->size || size > dst->size - dst_offset,
                             CL_INVALID_VALUE);
        struct skmd_defer_args a = {.offset = {src_offset, dst_offset}, .size = size};
        keep(&a, src, dst);
        return skmd_defer(q, &deferred, SKMD_DEFER_COPY, CL_COMMAND_COPY_BUFFER, n, wl,
                          both, (const unsigned char[]){0, 1}, 2, &a, CL_FALSE, event);
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
    COPY_CHECK(q, src, dst);
    const cl_mem both[2] = {src, dst};
    if (gated(q, n, wl, both, (const unsigned char[]){0, 1}, 2)) {
        SKMD_RETURN_ERROR_IF(!src_origin || !dst_origin || !region, CL_INVALID_VALUE);
        return defer_rect(q, SKMD_DEFER_COPY_RECT, CL_COMMAND_COPY_BUFFER_RECT, both,
                          (const unsigned char[]){0, 1}, 2, src_origin, dst_origin, region,
                          (const size_t[4]){src_row_pitch, src_slice_pitch, dst_row_pitch,
                                            dst_slice_pitch},
                          NULL, CL_FALSE, n, wl, event);
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
        return skmd_defer(q, &deferred, SKMD_DEFER_FILL, CL_COMMAND_FILL_BUFFER, n, wl,
                          &buffer, (const unsigned char[]){1}, 1, &a, CL_FALSE, event);
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
    COPY_CHECK(q, src, dst);
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
    COPY_CHECK(q, src, dst);
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
    COPY_CHECK(q, src, dst);
    COHERENT(q, src, 0, src->size, 0);
    BEGIN(q, n, wl, event);
    err = real_clEnqueueCopyBufferToImage(q->real, R(q, src), R(q, dst), src_offset,
                                          dst_origin, region, e.nwait, e.wait, e.event);
    return skmd_enqueue_end(&e, err);
}
