/* libskmd/launch/stream_out.c: a share's outputs copied into the host copy as soon as the
 * share ends, and the app's reads served from there (see stream_out.h). */
#include <stdatomic.h>
#include <string.h>

#include "mem/coherence.h"
#include "device/api.h"
#include "support/error.h"
#include "support/object.h"
#include "support/config.h"
#include "mem/inflight.h"
#include "support/log.h"
#include "mem/member_health.h"
#include "launch/pieces.h"
#include "support/ranges.h"
#include "launch/stream_out.h"
#include "plan/stream_hist.h"
#include "support/trace.h"
#include "xfer/transfer.h"

static atomic_uint_least64_t copied_total, zero_copy_total, reads_served_total;

void skmd_stream_totals(struct skmd_stream_totals *out)
{
    out->copied = atomic_load(&copied_total);
    out->zero_copy = atomic_load(&zero_copy_total);
    out->reads_served = atomic_load(&reads_served_total);
}

static enum skmd_stream_outputs control(void)
{
    return skmd_config()->stream_outputs;
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
    return control() != SKMD_STREAM_OUTPUTS_OFF;
}

void skmd_stream_count_read_served(void)
{
    atomic_fetch_add(&reads_served_total, 1);
}
