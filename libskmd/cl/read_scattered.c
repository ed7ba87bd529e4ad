/* libskmd/cl/read_scattered.c: the app reads a buffer whose bytes lie on several members
 * (a split launch's outputs): each part goes straight from where it is current into the
 * app's memory, the devices' parts at the same time, instead of first gathering every
 * part on the queue's member and reading it from there (two trips over the links for the
 * bytes that member lacked, one after the other). See read_scattered.h. */
#include <stdlib.h>
#include <string.h>

#include "mem/coherence.h"
#include "cl/common.h"
#include "cl/host_io.h"
#include "support/config.h"
#include "mem/inflight.h"
#include "support/log.h"
#include "mem/member_health.h"
#include "cl/read_scattered.h"
#include "launch/stream_out.h"
#include "xfer/transfer.h"
#include "mem/xfer_list.h"

/* The parts a read is made of: bytes [b, e) of the root copied to dst. */
struct reader {
    cl_mem root;
    uint64_t b;            /* the read's first byte in the root */
    unsigned char *dst;    /* the app's memory for byte b */
    struct skmd_ranges done;
    struct skmd_xfer_list parts; /* device parts, run together at the end */
};

static int add_request(struct reader *r, int m, uint64_t b, uint64_t e)
{
    return skmd_xfer_list_add(&r->parts, r->root, m, 0, b, e, r->dst + (b - r->b));
}

/* Takes the parts of [b, e) current in `source` (a member, or SKMD_HOST) that no earlier
 * source gave. Host memory (the host copy, or a zero-copy member's buffer, which is the
 * host copy, its kernels done: read_parts) is copied at once; a device's parts are queued
 * as requests. */
static int take_from(struct reader *r, int source, uint64_t b, uint64_t e)
{
    const struct skmd_ranges *valid = &r->root->valid[source];
    int in_host = source == SKMD_HOST || (r->root->zero_copy & (1u << source));
    uint64_t at = b;
    struct skmd_range hit;
    while (skmd_ranges_next_hit(valid, b, e, &at, &hit)) {
        uint64_t at2 = hit.begin;
        struct skmd_range need;
        while (skmd_ranges_next_gap(&r->done, hit.begin, hit.end, &at2, &need)) {
            if (in_host)
                skmd_xfer_copy(r->dst + (need.begin - r->b), r->root->host_copy + need.begin,
                               (size_t)(need.end - need.begin));
            else if (add_request(r, source, need.begin, need.end) != 0)
                return -1;
            if (skmd_ranges_add(&r->done, need.begin, need.end) != 0)
                return -1;
        }
        at = hit.end;
    }
    return 0;
}

/* Under the buffer lock: every part read, 1; not read (a part that no copy holds, or out
 * of memory: the usual path decides), 0; a transfer failed, -1 with *err. */
static int read_parts(struct reader *r, uint64_t e, cl_int *err)
{
    cl_mem root = r->root;
    if (root->zero_copy && skmd_coh_settle_zero_copy(root) != CL_SUCCESS)
        return 0; /* their kernels write the host copy in place */
    if (root->host_copy && take_from(r, SKMD_HOST, r->b, e) != 0)
        return 0;
    for (int m = 0; m < skmd_state.nmembers; m++)
        if ((root->zero_copy & (1u << m)) && take_from(r, m, r->b, e) != 0)
            return 0;
    for (int m = 0; m < skmd_state.nmembers; m++)
        if (!(root->zero_copy & (1u << m)) && !skmd_member_is_lost(m) &&
            take_from(r, m, r->b, e) != 0)
            return 0;
    if (!skmd_ranges_covers(&r->done, r->b, e))
        return 0;
    *err = skmd_xfer_list_run(&r->parts);
    return *err == CL_SUCCESS ? 1 : -1;
}

/* clEnqueueReadBuffer of [off, off+size) of mem on q, whose bytes the host copy held
 * current when skmd_read_scattered looked (after the split launches writing mem ended: their
 * streams are part of them): copies them from it. Returns 1 when served (result in
 * *err), 0 when the bytes changed meanwhile (the caller goes on). A blocking read first
 * finishes the app's queue, as an in-order queue would; one with a wait list or an event
 * goes through the host path of host_io.h (which waits for the list and gives a
 * completed event). The caller never passes a non-blocking read with a wait list (it
 * must not block on the list). */
static int serve_read(cl_command_queue q, cl_mem mem, size_t off, size_t size, void *ptr,
                      cl_bool blocking, cl_uint nwait, const cl_event *wait, cl_event *event,
                      cl_int *err)
{
    cl_mem root = skmd_mem_root(mem);
    uint64_t b = off + (mem != root ? mem->origin : 0);
    if (nwait || event) {
        /* The host path with the app's wait list and event (host_io.h): done when it
         * returns, the event a completed one. */
        *err = skmd_host_read(q, mem, off, size, ptr, nwait, wait, event);
        if (*err == CL_SUCCESS) {
            skmd_stream_count_read_served();
            skmd_log(SKMD_LOG_DEBUG, "read of %zu bytes served from the host copy (event)",
                     size);
        }
        return 1;
    }
    /* A blocking read on an in-order queue returns after the commands before it. */
    *err = blocking ? real_clFinish(q->real) : CL_SUCCESS;
    skmd_buffer_lock(root);
    /* Checked again: a command of another thread may have written the bytes since. */
    int served = *err != CL_SUCCESS || skmd_ranges_covers(&root->valid[SKMD_HOST], b, b + size);
    if (served && *err == CL_SUCCESS) /* the copy threads: large reads are host-bound */
        skmd_xfer_copy(ptr, root->host_copy + b, size);
    skmd_buffer_unlock(root);
    if (served && *err == CL_SUCCESS) {
        skmd_stream_count_read_served();
        skmd_log(SKMD_LOG_DEBUG, "read of %zu bytes served from the host copy", size);
    }
    return served;
}

int skmd_read_scattered(cl_command_queue q, cl_mem mem, size_t off, size_t size, void *ptr,
                        cl_bool blocking, cl_uint nwait, const cl_event *wait, cl_event *event,
                        cl_int *err)
{
    skmd_stream_note_app_read(mem); /* what stream_hist.h learns from every read */
    if (!skmd_may_finish_in_call(blocking) || !ptr || size == 0 ||
        mem->mtype != CL_MEM_OBJECT_BUFFER || off > mem->size || size > mem->size - off)
        return 0;
    cl_mem root = skmd_mem_root(mem);
    int stream = skmd_stream_serves_reads();
    int scatter = skmd_config()->app_transfers != SKMD_APP_TRANSFERS_DRIVER;
    if ((root->flags & CL_MEM_USE_HOST_PTR) || !(stream || scatter))
        return 0;
    uint64_t b = off + (mem != root ? mem->origin : 0), e = b + size;
    int m = q->member;
    skmd_inflight_wait_mem(mem, 0); /* split launches writing it finish first */
    skmd_buffer_lock(mem);
    int in_host =
        stream && root->host_copy && skmd_ranges_covers(&root->valid[SKMD_HOST], b, e);
    int lacking = scatter && !skmd_ranges_covers(&root->valid[m], b, e);
    skmd_buffer_unlock(mem);
    /* Streamed outputs: the host copy holds all of them. */
    if (in_host &&
        serve_read(q, mem, off, size, ptr, blocking, nwait, wait, event, err))
        return 1;
    if (!lacking)
        return 0; /* all there: the usual read from the queue's member */
    /* In the queue's order: what was queued before it is done first, as a read on an
     * in-order queue would wait for it; then its wait list. A failure there (a bad wait
     * list too): the usual path meets it again and reports it. */
    struct skmd_enqueue en;
    if (skmd_host_command_begin(&en, q, nwait, wait, event) != CL_SUCCESS) {
        skmd_enqueue_abandon(&en);
        return 0;
    }
    struct reader r = {.root = root, .b = b, .dst = ptr};
    skmd_buffer_lock(mem);
    int took = !skmd_ranges_covers(&root->valid[m], b, e) ? read_parts(&r, e, err) : 0;
    skmd_buffer_unlock(mem);
    skmd_ranges_free(&r.done);
    skmd_xfer_list_free(&r.parts);
    if (took <= 0) {
        if (took < 0) /* the usual path, with its fault handling, reads it again */
            skmd_log(SKMD_LOG_INFO, "app read of %zu bytes from the members holding them "
                     "failed (%d): read through the queue's member", size, *err);
        skmd_enqueue_abandon(&en);
        return 0;
    }
    *err = skmd_host_command_end(&en, CL_SUCCESS, CL_COMMAND_READ_BUFFER);
    return 1;
}
