/* libskmd/cl/host_io.c: the app's commands that libskmd carries out itself on the app's
 * thread (see host_io.h). */
#include <stdlib.h>

#include "cl/common.h"
#include "cl/host_io.h"
#include "device/eventspan.h"
#include "mem/coherence.h"
#include "mem/inflight.h"
#include "support/clock.h"

void skmd_enqueue_abandon(struct skmd_enqueue *e)
{
    if (e->wait && e->wait != e->small)
        free(e->wait);
    e->wait = NULL;
}

cl_int skmd_host_command_begin(struct skmd_enqueue *e, cl_command_queue q, cl_uint n,
                               const cl_event *wl, cl_event *event)
{
    cl_int err = skmd_enqueue_begin(e, q, n, wl, event);
    if (err != CL_SUCCESS)
        return err;
    e->t0 = (q->properties & CL_QUEUE_PROFILING_ENABLE) ? skmd_now_ns() : 0;
    err = real_clFinish(q->real);
    if (err == CL_SUCCESS && e->nwait && real_clWaitForEvents(e->nwait, e->wait) != CL_SUCCESS)
        err = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    return err;
}

cl_int skmd_host_command_end(struct skmd_enqueue *e, cl_int err, cl_command_type type)
{
    if (err == CL_SUCCESS && e->event)
        e->real_event = skmd_span_event_done(e->queue, e->t0, &err);
    err = skmd_enqueue_end(e, err);
    if (err == CL_SUCCESS && e->want)
        (*e->want)->type = type;
    return err;
}

/* A read or write of the app's through the host copy: after the queue's earlier commands,
 * the wait list and the buffer's split launches; the app's event a completed stand-in
 * that reports the command's type. */
static cl_int host_io(cl_command_queue q, cl_mem mem, size_t off, size_t size, void *ptr,
                      int writes, cl_uint n, const cl_event *wl, cl_event *event)
{
    SKMD_RETURN_ERROR_IF(!ptr || !size || off > mem->size || size > mem->size - off,
                         CL_INVALID_VALUE);
    struct skmd_enqueue e;
    cl_int err = skmd_host_command_begin(&e, q, n, wl, event);
    if (err == CL_SUCCESS) {
        skmd_inflight_wait_mem(mem, writes);
        skmd_buffer_lock(mem);
        err = writes ? skmd_coh_write_host(mem, off, size, ptr)
                     : skmd_coh_read_host(mem, off, size, ptr);
        skmd_buffer_unlock(mem);
    }
    return skmd_host_command_end(&e, err,
                                 writes ? CL_COMMAND_WRITE_BUFFER : CL_COMMAND_READ_BUFFER);
}

cl_int skmd_host_read(cl_command_queue q, cl_mem mem, size_t off, size_t size, void *ptr,
                      cl_uint n, const cl_event *wl, cl_event *event)
{
    return host_io(q, mem, off, size, ptr, 0, n, wl, event);
}

cl_int skmd_host_write(cl_command_queue q, cl_mem mem, size_t off, size_t size,
                       const void *ptr, cl_uint n, const cl_event *wl, cl_event *event)
{
    return host_io(q, mem, off, size, (void *)ptr, 1, n, wl, event);
}
