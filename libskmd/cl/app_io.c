/* libskmd/cl/app_io.c: the app's large reads, writes and COPY_HOST_PTR data through the
 * transfer engine (see app_io.h). */
#include <pthread.h>

#include "cl/app_io.h"
#include "support/clock.h"
#include "mem/coherence.h"
#include "cl/common.h"
#include "support/config.h"
#include "device/eventspan.h"
#include "mem/inflight.h"
#include "support/log.h"
#include "xfer/transfer.h"

/* The controls this file reads on every app transfer, read once. */
struct app_io_settings {
    enum skmd_app_transfers how; /* SKMD_APP_TRANSFERS */
    size_t direct_bytes;         /* SKMD_TRANSFER_DIRECT_KIB, in bytes */
    int stage_cpu;               /* SKMD_TRANSFER_STAGE_CPU */
};

static struct app_io_settings app_io;
static pthread_once_t app_io_once = PTHREAD_ONCE_INIT;

static void read_settings(void)
{
    const struct skmd_config *cfg = skmd_config();
    app_io.how = cfg->app_transfers;
    app_io.direct_bytes = (size_t)cfg->transfer_direct_kib << 10;
    app_io.stage_cpu = cfg->transfer_stage_cpu;
}

static const struct app_io_settings *settings(void)
{
    pthread_once(&app_io_once, read_settings);
    return &app_io;
}

static int large(size_t size)
{
    return size > 0 && size >= settings()->direct_bytes;
}

/* Whether a transfer of `size` bytes between the app and member m goes through the engine. */
static int through_engine(int m, size_t size)
{
    enum skmd_app_transfers how = settings()->how;
    if (size == 0 || how == SKMD_APP_TRANSFERS_DRIVER)
        return 0;
    if (how == SKMD_APP_TRANSFERS_ENGINE)
        return 1;
    return large(size) && !skmd_coh_member_shares_host(m); /* auto, host */
}

/* SKMD_APP_TRANSFERS=host: whether an app write of `size` bytes lands in the host copy. */
static int into_host_copy(size_t size)
{
    return settings()->how == SKMD_APP_TRANSFERS_HOST && large(size);
}

/* Copies the app's bytes into [off, off+size) of mem's host copy, which alone is current
 * there then. */
static cl_int fill_host(cl_mem mem, size_t off, size_t size, const void *ptr)
{
    skmd_buffer_lock(mem);
    cl_int err = skmd_coh_write_host(mem, off, size, ptr);
    skmd_buffer_unlock(mem);
    return err;
}

static cl_int engine(cl_context ctx, int m, cl_mem real, int to_device, size_t off,
                     size_t size, void *host)
{
    cl_int err;
    cl_command_queue wq = skmd_work_queue(ctx, m, &err);
    if (!wq)
        return err;
    struct skmd_xfer_req req = {
        .member = m, .context = skmd_member_context(ctx, m), .queue = wq, .buffer = real,
        .to_device = to_device, .offset = off, .size = size, .host = host,
        .direct = skmd_coh_member_shares_host(m) && !settings()->stage_cpu,
    };
    return skmd_xfer_run(&req, NULL);
}

/* A blocking call's wait list, waited for here; 0 where it is not valid for the queue (the
 * driver's call then says why). */
static int waited(cl_command_queue q, cl_uint nwait, const cl_event *wl, cl_int *err)
{
    if (!wl)
        return 0;
    for (cl_uint i = 0; i < nwait; i++)
        if (!SKMD_VALID(wl[i], EVENT) || wl[i]->context != q->context)
            return 0;
    struct skmd_enqueue e;
    if (skmd_enqueue_begin(&e, q, nwait, wl, NULL) != CL_SUCCESS)
        return 0;
    *err = CL_SUCCESS;
    for (cl_uint i = 0; i < e.nwait && *err == CL_SUCCESS; i++) { /* members' contexts differ */
        cl_int status = CL_COMPLETE;
        if (real_clWaitForEvents(1, &e.wait[i]) != CL_SUCCESS ||
            real_clGetEventInfo(e.wait[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                                &status, NULL) != CL_SUCCESS || status < 0)
            *err = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    }
    skmd_enqueue_end(&e, CL_SUCCESS);
    return 1;
}

/* The app's event of a transfer done in the call: a real user event of the queue's member,
 * complete when the call returns, that reports the command's type (eventspan.h). On a
 * queue with profiling, a marker enqueued before the queue is finished gives its times in
 * the device's time base: QUEUED and SUBMIT the marker's, START the marker's end (the queue
 * drained, the transfer begins), END that plus the transfer's time on the host clock. */
struct app_event {
    cl_event real, marker;
    uint64_t start_ns; /* skmd_now_ns when the transfer began */
};

/* Before the queue is finished; 0 when no event can be had (the driver's call then does
 * the transfer). */
static int app_event_begin(cl_command_queue q, struct app_event *ev)
{
    cl_int err;
    ev->real = skmd_span_event_new(q, &err);
    if (ev->real && (q->properties & CL_QUEUE_PROFILING_ENABLE) &&
        real_clEnqueueMarkerWithWaitList(q->real, 0, NULL, &ev->marker) != CL_SUCCESS)
        ev->marker = NULL; /* no times, as on a queue without profiling */
    return ev->real != NULL;
}

/* After the transfer (err: its result): the app's event, complete, in *event. */
static cl_int app_event_end(cl_command_queue q, struct app_event *ev, cl_int err,
                            cl_command_type type, cl_event *event)
{
    cl_ulong t[4];
    if (ev->marker && err == CL_SUCCESS &&
        real_clGetEventProfilingInfo(ev->marker, CL_PROFILING_COMMAND_QUEUED, sizeof t[0],
                                     &t[0], NULL) == CL_SUCCESS &&
        real_clGetEventProfilingInfo(ev->marker, CL_PROFILING_COMMAND_SUBMIT, sizeof t[1],
                                     &t[1], NULL) == CL_SUCCESS &&
        real_clGetEventProfilingInfo(ev->marker, CL_PROFILING_COMMAND_END, sizeof t[2],
                                     &t[2], NULL) == CL_SUCCESS) {
        t[3] = t[2] + (skmd_now_ns() - ev->start_ns);
        skmd_span_event_times(ev->real, t);
    }
    if (ev->marker)
        real_clReleaseEvent(ev->marker);
    if (err == CL_SUCCESS)
        skmd_span_event_set(ev->real, CL_COMPLETE);
    if (err == CL_SUCCESS && !(*event = skmd_event_wrap(q->context, q, ev->real)))
        err = CL_OUT_OF_HOST_MEMORY;
    if (err != CL_SUCCESS) {
        skmd_span_event_release(ev->real);
        return err;
    }
    (*event)->type = type;
    return CL_SUCCESS;
}

/* A read or write of the app's, taken or not. */
static int app_transfer(cl_command_queue q, cl_mem mem, int to_device, size_t off,
                        size_t size, void *ptr, int blocking, cl_uint nwait,
                        const cl_event *wl, cl_event *event, cl_int *err)
{
    int m = q->member;
    /* Done on the app's thread, a non-blocking call too, after the queue's earlier
     * commands and its wait list. */
    if (!skmd_may_finish_in_call(blocking) || mem->mtype != CL_MEM_OBJECT_BUFFER ||
        !through_engine(m, size) ||
        (skmd_mem_root(mem)->flags & CL_MEM_USE_HOST_PTR) || off > mem->size ||
        size > mem->size - off || !mem->real[m])
        return 0;
    /* Its wait list waited for first, then taken (an event in the list that failed fails
     * the call, as the driver's would). */
    if (nwait && !waited(q, nwait, wl, err))
        return 0;
    if (nwait && *err != CL_SUCCESS)
        return 1;
    struct app_event ev = {NULL, NULL, 0};
    if (event && !app_event_begin(q, &ev))
        return 0; /* no event to give: the driver's call */
    /* In the queue's order: the commands before it (a kernel writing the buffer on the
     * app's queue) are done first, as a blocking call on an in-order queue waits for them. */
    *err = real_clFinish(q->real);
    ev.start_ns = skmd_now_ns();
    if (*err == CL_SUCCESS)
        *err = engine(q->context, m, mem->real[m], to_device, off, size, ptr);
    if (*err != CL_SUCCESS)
        skmd_log(SKMD_LOG_WARN, "app %s of %zu bytes through the transfer engine failed (%d)",
                 to_device ? "write" : "read", size, *err);
    if (ev.real)
        *err = app_event_end(q, &ev, *err,
                             to_device ? CL_COMMAND_WRITE_BUFFER : CL_COMMAND_READ_BUFFER, event);
    return 1;
}

int skmd_app_write(cl_command_queue q, cl_mem mem, size_t off, size_t size, const void *ptr,
                   int blocking, cl_uint nwait, const cl_event *wl, cl_event *event,
                   cl_int *err)
{
    if (!into_host_copy(size))
        return app_transfer(q, mem, 1, off, size, (void *)ptr, blocking, nwait, wl, event,
                            err);
    if (nwait || event || !skmd_may_finish_in_call(blocking) ||
        mem->mtype != CL_MEM_OBJECT_BUFFER ||
        (skmd_mem_root(mem)->flags & CL_MEM_USE_HOST_PTR) || off > mem->size ||
        size > mem->size - off)
        return 0;
    /* After the commands queued before it: one of them may still write these bytes on the
     * member, and the member's copy must not be refreshed from the host copy before. */
    *err = real_clFinish(q->real);
    if (*err == CL_SUCCESS)
        *err = fill_host(mem, off, size, ptr);
    return 1;
}

int skmd_app_read(cl_command_queue q, cl_mem mem, size_t off, size_t size, void *ptr,
                  int blocking, cl_uint nwait, const cl_event *wl, cl_event *event, cl_int *err)
{
    return app_transfer(q, mem, 0, off, size, ptr, blocking, nwait, wl, event, err);
}

int skmd_app_create_in_host(cl_mem_flags flags, size_t size)
{
    return (flags & CL_MEM_COPY_HOST_PTR) && !(flags & CL_MEM_USE_HOST_PTR) &&
           into_host_copy(size);
}

cl_int skmd_app_fill_host(cl_mem mem, const void *host_ptr)
{
    return fill_host(mem, 0, mem->size, host_ptr);
}

cl_mem skmd_app_create_copy(cl_context ctx, int m, cl_mem_flags flags, size_t size,
                            const void *host_ptr)
{
    if (!(flags & CL_MEM_COPY_HOST_PTR) || (flags & CL_MEM_USE_HOST_PTR) || !host_ptr ||
        !through_engine(m, size))
        return NULL;
    cl_int err;
    cl_mem real = real_clCreateBuffer(skmd_member_context(ctx, m),
                                      flags & ~(CL_MEM_COPY_HOST_PTR | SKMD_MEM_HOST_ACCESS_FLAGS),
                                      size, NULL, &err);
    if (!real)
        return NULL; /* the driver's own call tells the app why */
    err = engine(ctx, m, real, 1, 0, size, (void *)host_ptr);
    if (err != CL_SUCCESS) {
        skmd_log(SKMD_LOG_INFO, "the data of a new buffer of %zu bytes did not reach member "
                 "%d through the transfer engine (%d): the driver's call", size, m, err);
        real_clReleaseMemObject(real);
        return NULL;
    }
    return real;
}
