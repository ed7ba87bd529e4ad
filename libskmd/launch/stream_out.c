/* libskmd/launch/stream_out.c: a share's outputs copied into the host copy as soon as the share
 * ends, and the app's reads served from there (see stream_out.h). */
#include <stdatomic.h>
#include <string.h>

#include "mem/coherence.h"
#include "cl/common.h"
#include "support/config.h"
#include "mem/inflight.h"
#include "support/log.h"
#include "mem/member_health.h"
#include "launch/pieces.h"
#include "support/ranges.h"
#include "launch/stream_out.h"
#include "support/trace.h"
#include "xfer/transfer.h"

/* What is learnt per root buffer (cl_mem stream_hist), in the app's order of calls. */
enum {
    WRITTEN_UNREAD = 1, /* a kernel wrote it and the app has not read it since */
    NOT_READ_BACK = 2,  /* a kernel used that output before the app read it: no stream */
    FEEDS_KERNELS = 4,  /* a kernel once read what a kernel wrote before the app read it
                           (an app write in between counts as no read: a wrong "feeds"
                           only leaves the launch's writes unplaced); kept (placement.h) */
};

static atomic_uint_least64_t copied_total, zero_copy_total, reads_served_total;

void skmd_stream_totals(struct skmd_stream_totals *out)
{
    out->copied = atomic_load(&copied_total);
    out->zero_copy = atomic_load(&zero_copy_total);
    out->reads_served = atomic_load(&reads_served_total);
}

static const char *control(void)
{
    return skmd_config()->stream_outputs;
}

void skmd_stream_note_app_read(cl_mem mem)
{
    if (mem->mtype != CL_MEM_OBJECT_BUFFER)
        return;
    __atomic_and_fetch(&skmd_mem_root(mem)->stream_hist,
                       (unsigned char)~(WRITTEN_UNREAD | NOT_READ_BACK), __ATOMIC_RELAXED);
}

int skmd_stream_note_launch(cl_mem mem, int reads, int writes)
{
    if (mem->mtype != CL_MEM_OBJECT_BUFFER || !(reads || writes))
        return 0;
    unsigned char *hist = &skmd_mem_root(mem)->stream_hist;
    unsigned char was = __atomic_load_n(hist, __ATOMIC_RELAXED), now;
    do {
        now = was;
        /* The previous kernel's output is used on the device before the app read it. */
        if (was & WRITTEN_UNREAD)
            now |= NOT_READ_BACK | (reads ? FEEDS_KERNELS : 0);
        if (writes)
            now |= WRITTEN_UNREAD;
    } while (!__atomic_compare_exchange_n(hist, &was, now, 0, __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED));
    if (!writes || !strcmp(control(), "0"))
        return 0;
    return !strcmp(control(), "1") || !(now & NOT_READ_BACK);
}

int skmd_stream_feeds_kernels(cl_mem mem)
{
    return mem->mtype == CL_MEM_OBJECT_BUFFER &&
           (__atomic_load_n(&skmd_mem_root(mem)->stream_hist, __ATOMIC_RELAXED) &
            FEEDS_KERNELS);
}

static void trace_stream(int m, uint64_t start, uint64_t bytes)
{
    if (!skmd_trace_enabled())
        return;
    /* The share's thread is tied to its launch: the span counts for it. */
    struct skmd_trace_span span = {
        .device = m, .kind = SKMD_TRACE_TRANSFER_OUT, .kernel = NULL, .share = -1,
        .start_ns = start, .end_ns = skmd_now_ns(), .bytes = bytes,
    };
    skmd_trace_span(&span);
}

int skmd_stream_share(cl_mem mem, int m, uint64_t b, uint64_t e, uint64_t *moved)
{
    cl_mem root = skmd_mem_root(mem);
    if (mem != root) {
        b += mem->origin;
        e += mem->origin;
    }
    if (e > root->size)
        e = root->size;
    if (b >= e)
        return 1;
    skmd_buffer_lock(root);
    int zero_copy = (root->zero_copy >> m) & 1u;
    skmd_buffer_unlock(root);
    if (zero_copy) { /* the kernel wrote the host copy itself, and it has completed */
        skmd_xfer_note_zero_copy(e - b);
        atomic_fetch_add(&zero_copy_total, e - b);
        return 1;
    }
    cl_int err;
    unsigned char *host = skmd_coh_host_copy(root);
    cl_command_queue q = host ? skmd_transfer_queue(root->context, m, &err) : NULL;
    cl_mem real = q ? skmd_mem_real(root, m, &err) : NULL;
    if (!real) {
        skmd_log(SKMD_LOG_INFO, "no stream of %llu output bytes from member %d: %s",
                 (unsigned long long)(e - b), m, host ? "no queue or buffer" : "no host copy");
        return 0;
    }
    uint64_t start = skmd_trace_enabled() ? skmd_now_ns() : 0;
    struct skmd_xfer_req req = {
        .member = m, .context = skmd_member_context(root->context, m), .queue = q,
        .buffer = real, .to_device = 0, .offset = (size_t)b, .size = (size_t)(e - b),
        .host = host + b,
        .direct = skmd_coh_member_shares_host(m) && !skmd_config()->transfer_stage_cpu,
    };
    err = skmd_xfer_run(&req, NULL);
    if (err != CL_SUCCESS) {
        /* Not a fault of the share: its bytes stay on the member, read as before. */
        skmd_log(SKMD_LOG_WARN, "stream of %llu output bytes from member %d failed (%d)",
                 (unsigned long long)(e - b), m, err);
        return 0;
    }
    trace_stream(m, start, e - b);
    atomic_fetch_add(&copied_total, e - b);
    if (moved)
        *moved += e - b;
    skmd_log(SKMD_LOG_DEBUG, "streamed %llu output bytes of member %d back to the host",
             (unsigned long long)(e - b), m);
    return 1;
}

cl_int skmd_stream_commit(cl_mem mem, uint64_t b, uint64_t e)
{
    skmd_buffer_lock(mem);
    cl_int err = skmd_coh_also_valid(mem, SKMD_HOST, b, e);
    skmd_buffer_unlock(mem);
    return err;
}

int skmd_stream_serves_reads(void)
{
    return strcmp(control(), "0") != 0;
}

int skmd_stream_serve_read(cl_command_queue q, cl_mem mem, size_t off, size_t size, void *ptr,
                           cl_bool blocking, cl_uint nwait, const cl_event *wait,
                           cl_event *event, cl_int *err)
{
    cl_mem root = skmd_mem_root(mem);
    uint64_t b = off + (mem != root ? mem->origin : 0);
    if (nwait || event) {
        /* The host path with the app's wait list and event (member_health.h): done when it
         * returns, the event a completed one. */
        *err = skmd_host_read(q, mem, off, size, ptr, nwait, wait, event);
        if (*err == CL_SUCCESS) {
            atomic_fetch_add(&reads_served_total, 1);
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
        atomic_fetch_add(&reads_served_total, 1);
        skmd_log(SKMD_LOG_DEBUG, "read of %zu bytes served from the host copy", size);
    }
    return served;
}
