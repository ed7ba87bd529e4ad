/* libskmd/cl/write_placed.c: the app's write of a buffer with a placement goes to the
 * members that will read each part (see write_placed.h). */
#include <stdlib.h>
#include <string.h>

#include "mem/coherence.h"
#include "cl/common.h"
#include "cl/host_io.h"
#include "support/config.h"
#include "mem/inflight.h"
#include "support/log.h"
#include "mem/member_health.h"
#include "plan/placement.h"
#include "xfer/transfer.h"
#include "cl/write_placed.h"
#include "mem/xfer_list.h"

/* One write: bytes [b, e) of the root from src (the app's bytes for b). */
struct writer {
    cl_mem root;
    uint64_t b, e;
    const unsigned char *src;
    struct skmd_ranges to_devices;  /* bytes some device member gets */
    struct skmd_ranges to_host;     /* bytes the host copy gets */
    struct skmd_xfer_list parts;    /* the device parts */
};

static int add_request(struct writer *w, int m, uint64_t b, uint64_t e)
{
    if (skmd_xfer_list_add(&w->parts, w->root, m, 1, b, e,
                           (void *)(w->src + (b - w->b))) != 0)
        return -1;
    return skmd_ranges_add(&w->to_devices, b, e);
}

/* Under the buffer lock: the parts of the write by where they go. A zero-copy member's
 * part goes to the host copy (which is its buffer); so do the bytes no member reads. */
static int plan_parts(struct writer *w, const struct skmd_placement *pl)
{
    cl_mem root = w->root;
    for (int m = 0; m < skmd_state.nmembers; m++) {
        if (!pl->count[m] || skmd_member_is_lost(m))
            continue;
        int zero_copy = (root->zero_copy & (1u << m)) != 0;
        uint64_t at = w->b;
        struct skmd_range hit;
        while (skmd_ranges_next_hit(&pl->reads[m], w->b, w->e, &at, &hit))
            if (zero_copy ? skmd_ranges_add(&w->to_host, hit.begin, hit.end) != 0
                          : add_request(w, m, hit.begin, hit.end) != 0)
                return -1;
    }
    uint64_t at = w->b;
    struct skmd_range gap;
    while (skmd_ranges_next_gap(&w->to_devices, w->b, w->e, &at, &gap))
        if (skmd_ranges_add(&w->to_host, gap.begin, gap.end) != 0)
            return -1;
    return 0;
}

/* Under the buffer lock, the bytes in place: the copies that got them alone are current
 * over the write. The host copy's bytes first (the only owner there), then each device
 * part: the first copy to get a byte owns it, the others hold it too. */
static cl_int mark_current(struct writer *w, const struct skmd_placement *pl)
{
    cl_mem root = w->root;
    struct skmd_ranges claimed = {0};
    cl_int err = CL_SUCCESS;
    for (size_t i = 0; i < w->to_host.n && err == CL_SUCCESS; i++) {
        struct skmd_range h = w->to_host.r[i];
        err = skmd_coh_written(root, SKMD_HOST, h.begin, h.end);
        for (int m = 0; m < skmd_state.nmembers && err == CL_SUCCESS; m++)
            if (pl->count[m] && (root->zero_copy & (1u << m)))
                err = skmd_coh_also_valid(root, m, h.begin, h.end);
        if (err == CL_SUCCESS && skmd_ranges_add(&claimed, h.begin, h.end) != 0)
            err = CL_OUT_OF_HOST_MEMORY;
    }
    for (int i = 0; i < w->parts.n && err == CL_SUCCESS; i++) {
        uint64_t b = w->parts.reqs[i].offset, e = b + w->parts.reqs[i].size, at = b;
        int m = w->parts.reqs[i].member;
        struct skmd_range part;
        while (err == CL_SUCCESS && skmd_ranges_next_hit(&claimed, b, e, &at, &part))
            err = skmd_coh_also_valid(root, m, part.begin, part.end);
        at = b;
        while (err == CL_SUCCESS && skmd_ranges_next_gap(&claimed, b, e, &at, &part)) {
            err = skmd_coh_written(root, m, part.begin, part.end);
            if (err == CL_SUCCESS && skmd_ranges_add(&claimed, part.begin, part.end) != 0)
                err = CL_OUT_OF_HOST_MEMORY;
        }
    }
    skmd_ranges_free(&claimed);
    return err;
}

/* Under the buffer lock: 1 written (*err its result), 0 not taken. */
static int write_parts(struct writer *w, cl_int *err)
{
    const struct skmd_placement *pl = w->root->place.at;
    if (!pl || plan_parts(w, pl) != 0)
        return 0;
    unsigned char *host = w->to_host.n ? skmd_coh_host_copy(w->root) : NULL;
    if (w->to_host.n && (!host || skmd_coh_settle_zero_copy(w->root) != CL_SUCCESS))
        return 0;
    for (size_t i = 0; i < w->to_host.n; i++)
        skmd_xfer_copy(host + w->to_host.r[i].begin, w->src + (w->to_host.r[i].begin - w->b),
                       (size_t)(w->to_host.r[i].end - w->to_host.r[i].begin));
    /* Its parts run side by side: the engine times them as one window (plan.c's rate
     * of the host's side, which prices the next placements). */
    *err = skmd_xfer_list_run(&w->parts);
    if (*err == CL_SUCCESS)
        *err = mark_current(w, pl);
    if (*err != CL_SUCCESS) {
        skmd_log(SKMD_LOG_INFO, "placed write of %llu bytes failed (%d): written to the host "
                 "copy instead", (unsigned long long)(w->e - w->b), *err);
        *err = skmd_coh_write_host(w->root, (size_t)w->b, (size_t)(w->e - w->b), w->src);
    }
    return 1;
}

int skmd_write_placed(cl_command_queue q, cl_mem mem, size_t off, size_t size, const void *ptr,
                      cl_bool blocking, cl_uint nwait, const cl_event *wait, cl_event *event,
                      cl_int *err)
{
    /* Most writes are of buffers without a placement: that is looked at first. */
    cl_mem root = skmd_mem_root(mem);
    if (!__atomic_load_n(&root->place.at, __ATOMIC_ACQUIRE) ||
        !skmd_may_finish_in_call(blocking) || !ptr ||
        size == 0 || mem->mtype != CL_MEM_OBJECT_BUFFER || off > mem->size ||
        size > mem->size - off || (root->flags & CL_MEM_USE_HOST_PTR) ||
        !skmd_placement_enabled() ||
        skmd_config()->app_transfers == SKMD_APP_TRANSFERS_DRIVER)
        return 0;
    /* In the queue's order: what was queued before it is done first; then its wait list
     * (a failure there, a bad list too: the usual path meets it again and reports it);
     * then the launches in flight on the buffer. */
    struct skmd_enqueue en;
    if (skmd_host_command_begin(&en, q, nwait, wait, event) != CL_SUCCESS) {
        skmd_enqueue_abandon(&en);
        return 0;
    }
    skmd_inflight_wait_mem(mem, 1);
    uint64_t b = off + (mem != root ? mem->origin : 0);
    struct writer w = {.root = root, .b = b, .e = b + size, .src = ptr};
    skmd_buffer_lock(mem);
    int took = write_parts(&w, err);
    skmd_buffer_unlock(mem);
    int device_parts = w.parts.n;
    skmd_ranges_free(&w.to_devices);
    skmd_ranges_free(&w.to_host);
    skmd_xfer_list_free(&w.parts);
    if (!took) {
        skmd_enqueue_abandon(&en);
        return 0;
    }
    skmd_log(SKMD_LOG_DEBUG, "write of %zu bytes placed: %d device part(s), the rest in the "
             "host copy", size, device_parts);
    *err = skmd_host_command_end(&en, *err, CL_COMMAND_WRITE_BUFFER);
    return 1;
}
