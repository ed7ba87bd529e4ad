/* libskmd/mem/coherence.c: per-byte-range validity of buffer copies and the transfers that
 * bring a copy up to date (see coherence.h). Member-to-member traffic between members of
 * one real platform is one driver copy (peer_move); otherwise it goes through the host
 * copy, which then is current too (a later share or read needs no second transfer). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/coherence.h"
#include "device/api.h"
#include "support/error.h"
#include "support/object.h"
#include "support/config.h"
#include "mem/fetch_batch.h"
#include "support/log.h"
#include "mem/member_health.h"
#include "mem/queues.h"
#include "device/event_time.h"
#include "support/trace.h"
#include "xfer/transfer.h"

static atomic_uint_least64_t total_moved;

uint64_t skmd_coh_total_moved(void)
{
    return atomic_load(&total_moved);
}

cl_int skmd_coh_init(cl_mem root, int holder)
{
    /* The host copy is made when a transfer or a zero-copy member first needs it. */
    root->host_copy = NULL;
    if (holder >= 0 && skmd_ranges_add(&root->valid[holder], 0, root->size) != 0)
        return CL_OUT_OF_HOST_MEMORY;
    return CL_SUCCESS;
}


static skmd_coh_peer_observer peer_observer;

void skmd_coh_set_peer_observer(skmd_coh_peer_observer observer)
{
    peer_observer = observer;
}

/* Before bytes from a member land in the host copy: the members whose buffer IS the host
 * copy finish what they have queued, so that no kernel of theirs writes those bytes at the
 * same time (a share still running while the next share's inputs are fetched). */
cl_int skmd_coh_settle_zero_copy(cl_mem root)
{
    for (int z = 0; z < skmd_state.nmembers; z++) {
        /* Another share's thread may be making the queue (skmd_work_queue) right now. */
        cl_command_queue zq = __atomic_load_n(&root->context->work[z], __ATOMIC_ACQUIRE);
        if (!(root->zero_copy & (1u << z)) || !zq)
            continue;
        cl_int err = real_clFinish(zq);
        if (err != CL_SUCCESS)
            return err;
    }
    return CL_SUCCESS;
}

void skmd_coh_free(cl_mem root)
{
    /* A zero-copy member may still have commands on the host copy (the driver keeps its
     * released buffer alive for them, but not our memory). */
    if (root->zero_copy && root->context)
        skmd_coh_settle_zero_copy(root);
    if (root->host_copy && skmd_xfer_host_free(root->host_copy) != 0)
        free(root->host_copy);
    root->host_copy = NULL;
    for (int i = 0; i <= SKMD_HOST; i++)
        skmd_ranges_free(&root->valid[i]);
}

static void trace_transfer(int device, int to_device, uint64_t start, uint64_t bytes)
{
    if (!skmd_trace_enabled())
        return;
    struct skmd_trace_span span = {
        .device = device,
        .kind = to_device ? SKMD_TRACE_TRANSFER_IN : SKMD_TRACE_TRANSFER_OUT,
        .share = -1,
        .start_ns = start,
        .end_ns = skmd_now_ns(),
        .bytes = bytes,
    };
    skmd_trace_span(&span);
}

/* Asked once per member (share threads of several launches may ask at once: the answer is
 * the same, so a relaxed atomic is enough). */
int skmd_coh_member_shares_host(int m)
{
    static _Atomic signed char known[SKMD_MAX_MEMBERS]; /* 0 unknown, 1 yes, -1 no */
    signed char k = atomic_load_explicit(&known[m], memory_order_relaxed);
    if (!k) {
        k = skmd_xfer_device_shares_host(skmd_state.members[m].real_device) ? 1 : -1;
        atomic_store_explicit(&known[m], k, memory_order_relaxed);
    }
    return k > 0;
}

/* One transfer between the root's host copy and member m's copy, through the transfer
 * engine; free when m's buffer is the host copy itself. Complete when it returns. The
 * bytes count as moved either way: the counter tells coherence traffic. */
static cl_int move(cl_mem root, int m, int to_device, uint64_t b, uint64_t e,
                   struct skmd_moved *moved)
{
    cl_int err = CL_SUCCESS;
    /* A share in pieces moves its next piece's inputs on a second queue (pieces.h). */
    cl_command_queue q = skmd_pieces_queue(root->context, m);
    /* Bytes leaving a device it holds already (earlier launches that wrote them are done:
     * inflight.h): on its transfer queue, not behind the share it may be running now, which
     * another member's share would otherwise wait for. A zero-copy member's "transfer" is
     * the wait for its kernels: its work queue. */
    if (!q && !to_device && !(root->zero_copy & (1u << m)))
        q = skmd_transfer_queue(root->context, m, &err);
    if (!q)
        q = skmd_work_queue(root->context, m, &err);
    if (!q) {
        skmd_member_fault(m, err, "making libskmd's queue", NULL);
        return err;
    }
    cl_mem real = skmd_mem_real(root, m, &err);
    if (!real)
        return err;
    unsigned char *host = skmd_coh_host_copy(root);
    if (!host)
        return CL_OUT_OF_HOST_MEMORY;
    /* A blocking copy first waits for the work queued before it (the kernel that wrote
     * the bytes): when tracing, wait here so that the span holds the transfer alone. */
    if (skmd_trace_enabled())
        real_clFinish(q);
    uint64_t start = skmd_trace_enabled() ? skmd_now_ns() : 0;
    if (root->zero_copy & (1u << m)) {
        /* Same bytes; from the device, only its queued writes must be done. */
        err = to_device ? CL_SUCCESS : real_clFinish(q);
        skmd_xfer_note_zero_copy(e - b);
    } else {
        err = to_device ? CL_SUCCESS : skmd_coh_settle_zero_copy(root);
        struct skmd_xfer_req req = {
            .member = m, .context = skmd_member_context(root->context, m), .queue = q,
            .buffer = real, .to_device = to_device, .offset = (size_t)b,
            .size = (size_t)(e - b), .host = host + b,
            .direct = skmd_coh_member_shares_host(m) && !skmd_config()->transfer_stage_cpu,
        };
        /* Gathering a share's inputs (fetch_batch.h): they move, and become current,
         * when the batch runs. */
        uint64_t queued = 0;
        int batched = err == CL_SUCCESS && to_device
                          ? skmd_fetch_batch_add(&req, root, skmd_coh_also_valid, &queued)
                          : 0;
        if (batched > 0) {
            atomic_fetch_add(&total_moved, queued);
            if (moved)
                moved->to_devices += queued;
            return CL_SUCCESS;
        }
        if (batched < 0)
            err = CL_OUT_OF_HOST_MEMORY;
        if (err == CL_SUCCESS)
            err = skmd_xfer_run(&req, NULL);
    }
    if (err != CL_SUCCESS) {
        skmd_log(SKMD_LOG_WARN, "transfer of %llu bytes %s member %d failed (%d)",
                 (unsigned long long)(e - b), to_device ? "to" : "from", m, err);
        skmd_member_fault(m, err, to_device ? "a transfer to it" : "a transfer from it", root);
        return err;
    }
    trace_transfer(m, to_device, start, e - b);
    atomic_fetch_add(&total_moved, e - b);
    if (moved && to_device)
        moved->to_devices += e - b;
    else if (moved)
        moved->to_host += e - b;
    return skmd_ranges_add(&root->valid[to_device ? m : SKMD_HOST], b, e) == 0
               ? CL_SUCCESS
               : CL_OUT_OF_HOST_MEMORY;
}

/* Bytes of [b, e) the host copy still lacks that were current only on a lost member:
 * gone. CL_OUT_OF_RESOURCES (the command that needs them fails), logged naming the
 * buffer; CL_SUCCESS when there are none. */
static cl_int lost_bytes(cl_mem root, uint64_t b, uint64_t e)
{
    if (atomic_load_explicit(&skmd_members_lost, memory_order_relaxed) == 0)
        return CL_SUCCESS;
    for (int m = 0; m < skmd_state.nmembers; m++) {
        uint64_t at = b;
        struct skmd_range gap, hit;
        if (!skmd_member_is_lost(m))
            continue;
        while (skmd_ranges_next_gap(&root->valid[SKMD_HOST], b, e, &at, &gap)) {
            uint64_t at2 = gap.begin;
            if (skmd_ranges_next_hit(&root->valid[m], gap.begin, gap.end, &at2, &hit)) {
                skmd_log(SKMD_LOG_ERROR, "buffer %p (%zu bytes): bytes %llu..%llu were current "
                         "only on lost member %d (%s) and cannot be recovered; the command "
                         "that needs them fails (CL_OUT_OF_RESOURCES)", (void *)root,
                         root->size, (unsigned long long)hit.begin,
                         (unsigned long long)hit.end, m, skmd_state.members[m].name);
                return CL_OUT_OF_RESOURCES;
            }
            at = gap.end;
        }
    }
    return CL_SUCCESS;
}

/* Makes the host copy current over [b, e) of the root, from whichever members hold it. */
static cl_int fetch_host(cl_mem root, uint64_t b, uint64_t e, struct skmd_moved *moved)
{
    uint64_t at = b;
    struct skmd_range gap;
    while (skmd_ranges_next_gap(&root->valid[SKMD_HOST], b, e, &at, &gap)) {
        for (int m = 0; m < skmd_state.nmembers; m++) {
            if (skmd_member_is_lost(m))
                continue;
            uint64_t at2 = gap.begin;
            struct skmd_range hit;
            while (skmd_ranges_next_hit(&root->valid[m], gap.begin, gap.end, &at2, &hit)) {
                /* Only what the host still lacks: an earlier member may have given it. */
                uint64_t at3 = hit.begin;
                struct skmd_range need;
                while (skmd_ranges_next_gap(&root->valid[SKMD_HOST], hit.begin, hit.end, &at3,
                                            &need)) {
                    cl_int err = move(root, m, 0, need.begin, need.end, moved);
                    if (err != CL_SUCCESS && !skmd_member_is_lost(m))
                        return err;
                    if (err != CL_SUCCESS)
                        break; /* another copy, or lost_bytes below, says what remains */
                }
                if (skmd_member_is_lost(m))
                    break;
            }
        }
        cl_int lost = lost_bytes(root, gap.begin, gap.end);
        if (lost != CL_SUCCESS)
            return lost;
        /* Bytes no copy holds (never happens when the invariant holds): the host's stay. */
        if (skmd_ranges_add(&root->valid[SKMD_HOST], gap.begin, gap.end) != 0)
            return CL_OUT_OF_HOST_MEMORY;
        at = gap.end;
    }
    return CL_SUCCESS;
}

/* Whether a peer copy from member a to member b can replace the trip through the host
 * copy: both in one real context (one real platform), and neither buffer is the host copy
 * itself (to or from a zero-copy member the plain path is already one transfer or none).
 * Makes both real buffers first: whether a buffer is zero-copy is decided when it is made. */
static int peer_capable(cl_mem root, int a, int b)
{
    cl_int err;
    if (a == b || skmd_member_is_lost(a) ||
        skmd_member_context(root->context, a) != skmd_member_context(root->context, b) ||
        !skmd_mem_real(root, a, &err) || !skmd_mem_real(root, b, &err))
        return 0;
    return !(root->zero_copy & ((1u << a) | (1u << b)));
}

/* Copies [b, e) of the root from member a's real buffer to member dst's, without the
 * host: the driver does it (a peer copy on NVIDIA, staged inside the driver otherwise).
 * a's queue is finished first (the shares that wrote the bytes); the copy runs on dst's
 * queue, after what dst has queued, and is complete when this returns, so dst's next
 * share sees the bytes. The host copy stays stale over [b, e). */
static cl_int peer_move(cl_mem root, int a, int dst, uint64_t b, uint64_t e,
                        struct skmd_moved *moved)
{
    cl_int err;
    cl_command_queue qa, qd;
    cl_mem from, to;
    if (!skmd_mem_pair(root, a, dst, &qa, &qd, &from, &to, &err))
        return err;
    err = real_clFinish(qa);
    if (err == CL_SUCCESS && skmd_trace_enabled())
        err = real_clFinish(qd);
    uint64_t start = skmd_trace_enabled() ? skmd_now_ns() : 0;
    cl_event done = NULL;
    if (err == CL_SUCCESS)
        err = real_clEnqueueCopyBuffer(qd, from, to, (size_t)b, (size_t)b, (size_t)(e - b), 0,
                                       NULL, &done);
    double copy_ms = -1;
    if (done) {
        if (err == CL_SUCCESS)
            err = skmd_event_wait_status(done);
        copy_ms = skmd_event_ms(done); /* the partitioner prices peer bytes by it */
        real_clReleaseEvent(done);
    }
    if (err != CL_SUCCESS) {
        skmd_log(SKMD_LOG_WARN, "peer copy of %llu bytes from member %d to member %d failed "
                 "(%d)", (unsigned long long)(e - b), a, dst, err);
        skmd_member_fault(dst, err, "a peer copy on its queue", root);
        return err;
    }
    skmd_log(SKMD_LOG_DEBUG, "peer copy of %llu bytes from member %d to member %d",
             (unsigned long long)(e - b), a, dst);
    if (peer_observer)
        peer_observer(a, dst, e - b, copy_ms);
    if (skmd_trace_enabled()) {
        char name[32];
        snprintf(name, sizeof name, "peer from member %d", a);
        struct skmd_trace_span span = {
            .device = dst, .kind = SKMD_TRACE_TRANSFER_IN, .kernel = name, .share = -1,
            .start_ns = start, .end_ns = skmd_now_ns(), .bytes = e - b,
        };
        skmd_trace_span(&span);
    }
    atomic_fetch_add(&total_moved, e - b);
    if (moved) {
        moved->to_devices += e - b;
        moved->peer += e - b;
    }
    return skmd_ranges_add(&root->valid[dst], b, e) == 0 ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
}

/* Adds to *out the bytes of [b, e) that member a holds and both the host copy and member
 * dst lack: what dst can get only from a (through the host copy, or by a peer copy).
 * 0, or -1 when out of memory. */
static int only_on(cl_mem root, int a, int dst, uint64_t b, uint64_t e, struct skmd_ranges *out)
{
    uint64_t at = b;
    struct skmd_range hit;
    while (skmd_ranges_next_hit(&root->valid[a], b, e, &at, &hit)) {
        uint64_t at2 = hit.begin;
        struct skmd_range off_host;
        while (skmd_ranges_next_gap(&root->valid[SKMD_HOST], hit.begin, hit.end, &at2,
                                    &off_host)) {
            uint64_t at3 = off_host.begin;
            struct skmd_range need;
            while (skmd_ranges_next_gap(&root->valid[dst], off_host.begin, off_host.end, &at3,
                                        &need))
                if (skmd_ranges_add(out, need.begin, need.end) != 0)
                    return -1;
        }
    }
    return 0;
}

/* Peer copies into dst for the bytes of [b, e) that dst lacks, the host copy lacks too
 * (host bytes reach dst in one transfer anyway) and a peer-capable member holds. */
static cl_int fetch_peers(cl_mem root, int dst, uint64_t b, uint64_t e, struct skmd_moved *moved)
{
    for (int a = 0; a < skmd_state.nmembers; a++) {
        struct skmd_range any;
        uint64_t probe = b;
        if (a == dst || !skmd_ranges_next_hit(&root->valid[a], b, e, &probe, &any) ||
            !peer_capable(root, a, dst))
            continue;
        struct skmd_ranges need = {0, 0, NULL};
        cl_int err = only_on(root, a, dst, b, e, &need) == 0 ? CL_SUCCESS
                                                             : CL_OUT_OF_HOST_MEMORY;
        for (size_t i = 0; i < need.n && err == CL_SUCCESS; i++)
            err = peer_move(root, a, dst, need.r[i].begin, need.r[i].end, moved);
        skmd_ranges_free(&need);
        if (err != CL_SUCCESS)
            return err;
    }
    return CL_SUCCESS;
}

/* Whether any copy (host or member) holds some byte of [b, e). */
static int held_anywhere(cl_mem root, uint64_t b, uint64_t e)
{
    for (int i = 0; i <= SKMD_HOST; i++) {
        uint64_t at = b;
        struct skmd_range hit;
        if ((i < skmd_state.nmembers || i == SKMD_HOST) &&
            skmd_ranges_next_hit(&root->valid[i], b, e, &at, &hit))
            return 1;
    }
    return 0;
}

/* mem's root, with [*b, *e) of mem made a range of the root (clipped to its end). */
static cl_mem in_root(cl_mem mem, uint64_t *b, uint64_t *e)
{
    cl_mem root = skmd_mem_root(mem);
    *b += mem->origin * (mem != root);
    *e += mem->origin * (mem != root);
    if (*e > root->size)
        *e = root->size;
    if (*b > *e)
        *b = *e;
    return root;
}

cl_int skmd_coh_fetch(cl_mem mem, int dst, uint64_t b, uint64_t e, struct skmd_moved *moved)
{
    cl_mem root = in_root(mem, &b, &e);
    if (b >= e)
        return CL_SUCCESS;
    if (dst == SKMD_HOST)
        return fetch_host(root, b, e, moved);
    if (skmd_config()->peer_copy) {
        cl_int err = fetch_peers(root, dst, b, e, moved);
        if (err != CL_SUCCESS)
            return err;
    }
    uint64_t at = b;
    struct skmd_range gap;
    while (skmd_ranges_next_gap(&root->valid[dst], b, e, &at, &gap)) {
        if (!held_anywhere(root, gap.begin, gap.end)) {
            /* Bytes nobody wrote yet (a buffer made without host data): nothing to move. */
            if (skmd_ranges_add(&root->valid[dst], gap.begin, gap.end) != 0)
                return CL_OUT_OF_HOST_MEMORY;
            at = gap.end;
            continue;
        }
        cl_int err = fetch_host(root, gap.begin, gap.end, moved);
        if (err == CL_SUCCESS)
            err = move(root, dst, 1, gap.begin, gap.end, moved);
        if (err != CL_SUCCESS)
            return err;
        at = gap.end;
    }
    return CL_SUCCESS;
}

int skmd_coh_off_host_need(cl_mem mem, int m, uint64_t b, uint64_t e, struct skmd_ranges *out)
{
    cl_mem root = in_root(mem, &b, &e);
    int peer_copy = skmd_config()->peer_copy;
    for (int a = 0; a < skmd_state.nmembers; a++)
        if (a != m && !skmd_member_is_lost(a) && !(peer_copy && peer_capable(root, a, m)) &&
            only_on(root, a, m, b, e, out) != 0)
            return -1;
    return 0;
}

cl_int skmd_coh_written(cl_mem mem, int owner, uint64_t b, uint64_t e)
{
    cl_mem root = in_root(mem, &b, &e);
    for (int i = 0; i <= SKMD_HOST; i++)
        if ((i < skmd_state.nmembers || i == SKMD_HOST) && i != owner &&
            skmd_ranges_remove(&root->valid[i], b, e) != 0)
            return CL_OUT_OF_HOST_MEMORY;
    return skmd_ranges_add(&root->valid[owner], b, e) == 0 ? CL_SUCCESS
                                                           : CL_OUT_OF_HOST_MEMORY;
}

cl_int skmd_coh_also_valid(cl_mem mem, int who, uint64_t b, uint64_t e)
{
    cl_mem root = in_root(mem, &b, &e);
    return skmd_ranges_add(&root->valid[who], b, e) == 0 ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
}

cl_int skmd_coh_forget(cl_mem mem, int m, uint64_t b, uint64_t e)
{
    cl_mem root = in_root(mem, &b, &e);
    /* Walk m's valid ranges in [b, e); drop each piece another copy also holds. Pieces
     * only m holds stay: there is no other source for them. */
    uint64_t at = b;
    struct skmd_range hit;
    while (skmd_ranges_next_hit(&root->valid[m], b, e, &at, &hit)) {
        for (int i = 0; i <= SKMD_HOST; i++) {
            if (i == m || (i >= skmd_state.nmembers && i != SKMD_HOST))
                continue;
            uint64_t at2 = hit.begin;
            struct skmd_range other;
            while (skmd_ranges_next_hit(&root->valid[i], hit.begin, hit.end, &at2, &other))
                if (skmd_ranges_remove(&root->valid[m], other.begin, other.end) != 0)
                    return CL_OUT_OF_HOST_MEMORY;
        }
        at = hit.end;
    }
    return CL_SUCCESS;
}

cl_int skmd_coh_read_host(cl_mem mem, size_t off, size_t size, void *dst)
{
    cl_mem root = skmd_mem_root(mem);
    off += mem->origin * (mem != root);
    cl_int err = fetch_host(root, off, off + size, NULL);
    if (err == CL_SUCCESS && !skmd_coh_host_copy(root))
        err = CL_OUT_OF_HOST_MEMORY;
    if (err == CL_SUCCESS)
        memcpy(dst, root->host_copy + off, size);
    return err;
}

cl_int skmd_coh_write_host(cl_mem mem, size_t off, size_t size, const void *src)
{
    cl_mem root = skmd_mem_root(mem);
    if (!skmd_coh_host_copy(root))
        return CL_OUT_OF_HOST_MEMORY;
    cl_int err = skmd_coh_settle_zero_copy(root);
    if (err == CL_SUCCESS)
        err = skmd_coh_written(mem, SKMD_HOST, off, off + size);
    if (err == CL_SUCCESS)
        skmd_xfer_copy(root->host_copy + off + mem->origin * (mem != root), src, size);
    return err;
}

/* Member m's current bytes [b, e) of the root into out (b..e of the root). */
static cl_int peek_member(cl_mem root, int m, uint64_t b, uint64_t e, unsigned char *out)
{
    cl_int err;
    cl_command_queue q = skmd_work_queue(root->context, m, &err);
    cl_mem real = q ? skmd_mem_real(root, m, &err) : NULL;
    if (!real)
        return err;
    return real_clEnqueueReadBuffer(q, real, CL_TRUE, (size_t)b, (size_t)(e - b), out, 0, NULL,
                                    NULL);
}

cl_int skmd_coh_peek(cl_mem mem, uint64_t b, uint64_t e, void *dst)
{
    uint64_t want = e - b;
    cl_mem root = in_root(mem, &b, &e);
    unsigned char *out = dst;
    memset(out, 0, (size_t)want);
    cl_int err = skmd_coh_settle_zero_copy(root);
    uint64_t at = b;
    struct skmd_range hit, gap;
    while (err == CL_SUCCESS && root->host_copy &&
           skmd_ranges_next_hit(&root->valid[SKMD_HOST], b, e, &at, &hit)) {
        memcpy(out + (hit.begin - b), root->host_copy + hit.begin, (size_t)(hit.end - hit.begin));
        at = hit.end;
    }
    at = b;
    while (err == CL_SUCCESS && skmd_ranges_next_gap(&root->valid[SKMD_HOST], b, e, &at, &gap)) {
        for (int m = 0; m < skmd_state.nmembers && err == CL_SUCCESS; m++) {
            uint64_t at2 = gap.begin;
            while (err == CL_SUCCESS && !skmd_member_is_lost(m) &&
                   skmd_ranges_next_hit(&root->valid[m], gap.begin, gap.end, &at2, &hit)) {
                err = peek_member(root, m, hit.begin, hit.end, out + (hit.begin - b));
                at2 = hit.end;
            }
        }
        at = gap.end;
    }
    return err;
}
