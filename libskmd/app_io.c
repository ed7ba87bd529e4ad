/* libskmd/app_io.c: the app's large reads, writes and COPY_HOST_PTR data through the
 * transfer engine (see app_io.h). */
#include <string.h>

#include "app_io.h"
#include "coherence.h"
#include "common.h"
#include "config.h"
#include "inflight.h"
#include "log.h"
#include "transfer.h"

static int large(size_t size)
{
    return size > 0 && size >= ((size_t)skmd_config()->transfer_direct_kib << 10);
}

/* Whether a transfer of `size` bytes between the app and member m goes through the engine. */
static int through_engine(int m, size_t size)
{
    const char *how = skmd_config()->app_transfers;
    if (size == 0 || !strcmp(how, "driver"))
        return 0;
    if (!strcmp(how, "engine"))
        return 1;
    return large(size) && !skmd_coh_member_shares_host(m); /* auto, host */
}

/* SKMD_APP_TRANSFERS=host: whether an app write of `size` bytes lands in the host copy. */
static int into_host_copy(size_t size)
{
    return !strcmp(skmd_config()->app_transfers, "host") && large(size);
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
        .direct = skmd_coh_member_shares_host(m) && !skmd_config()->transfer_stage_cpu,
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

/* A read or write of the app's, taken or not. */
static int app_transfer(cl_command_queue q, cl_mem mem, int to_device, size_t off,
                        size_t size, void *ptr, int blocking, cl_uint nwait,
                        const cl_event *wl, cl_event *event, cl_int *err)
{
    int m = q->member;
    /* Done on the app's thread, a non-blocking call too, after the queue's earlier
     * commands and its wait list. */
    if (!skmd_may_finish_in_call(blocking) || event ||
        mem->mtype != CL_MEM_OBJECT_BUFFER ||
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
    /* In the queue's order: the commands before it (a kernel writing the buffer on the
     * app's queue) are done first, as a blocking call on an in-order queue waits for them. */
    *err = real_clFinish(q->real);
    if (*err == CL_SUCCESS)
        *err = engine(q->context, m, mem->real[m], to_device, off, size, ptr);
    if (*err != CL_SUCCESS)
        skmd_log(SKMD_LOG_WARN, "app %s of %zu bytes through the transfer engine failed (%d)",
                 to_device ? "write" : "read", size, *err);
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
    const struct skmd_member *member = &skmd_state.members[m];
    cl_int err;
    cl_mem real = member->ops->alloc(member, skmd_member_context(ctx, m),
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
