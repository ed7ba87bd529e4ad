/* libskmd/mem/fetch_batch.c: one share's input transfers gathered and run together (see
 * fetch_batch.h). */
#include <stdlib.h>

#include "mem/fetch_batch.h"
#include "mem/inflight.h"
#include "support/log.h"
#include "support/ranges.h"
#include "support/trace.h"

struct entry {
    struct skmd_xfer_req req;
    cl_mem root;
    skmd_fetch_landed landed;
};

/* The bytes the batch already brings to one member of one buffer, kept as requests are
 * added: a share can need thousands of ranges of one buffer (another member's rectangular
 * writes), and rebuilding this from every entry at each request made that quadratic. */
struct pending {
    cl_mem root;
    int member;
    struct skmd_ranges bytes;
};

static _Thread_local struct {
    int open;
    struct entry *e;
    int n, cap;
    struct pending *p;
    int np, pcap;
} batch;

void skmd_fetch_batch_begin(void)
{
    batch.open = 1;
    batch.n = 0;
}

static int push(const struct skmd_xfer_req *req, cl_mem root, skmd_fetch_landed landed,
                uint64_t b, uint64_t e)
{
    if (batch.n == batch.cap) {
        int cap = batch.cap ? 2 * batch.cap : 16;
        struct entry *grown = realloc(batch.e, (size_t)cap * sizeof *grown);
        if (!grown)
            return -1;
        batch.e = grown;
        batch.cap = cap;
    }
    struct entry *en = &batch.e[batch.n++];
    en->req = *req;
    en->req.host = (unsigned char *)req->host + (b - req->offset);
    en->req.offset = (size_t)b;
    en->req.size = (size_t)(e - b);
    en->root = root;
    en->landed = landed;
    return 0;
}

/* What the batch brings to `member` of `root` (made empty at its first request); NULL when
 * out of memory. */
static struct skmd_ranges *pending_for(cl_mem root, int member)
{
    for (int i = 0; i < batch.np; i++)
        if (batch.p[i].root == root && batch.p[i].member == member)
            return &batch.p[i].bytes;
    if (batch.np == batch.pcap) {
        int cap = batch.pcap ? 2 * batch.pcap : 8;
        struct pending *grown = realloc(batch.p, (size_t)cap * sizeof *grown);
        if (!grown)
            return NULL;
        batch.p = grown;
        batch.pcap = cap;
    }
    batch.p[batch.np] = (struct pending){root, member, {0, 0, NULL}};
    return &batch.p[batch.np++].bytes;
}

int skmd_fetch_batch_add(const struct skmd_xfer_req *req, cl_mem root, skmd_fetch_landed landed,
                         uint64_t *queued)
{
    *queued = 0;
    if (!batch.open)
        return 0;
    struct skmd_ranges *pending = pending_for(root, req->member);
    if (!pending)
        return -1;
    uint64_t b = req->offset, e = req->offset + req->size, at = b;
    struct skmd_range gap;
    int err = 0;
    while (!err && skmd_ranges_next_gap(pending, b, e, &at, &gap)) {
        err = push(req, root, landed, gap.begin, gap.end);
        *queued += err ? 0 : gap.end - gap.begin;
    }
    /* The set may stay short of what was pushed only when out of memory: a later request
     * for the same bytes then moves them twice, which is harmless. */
    if (!err)
        skmd_ranges_add(pending, b, e);
    return err ? -1 : 1;
}

cl_int skmd_fetch_batch_end(int run)
{
    batch.open = 0;
    cl_int err = CL_SUCCESS;
    if (run && batch.n > 0) {
        struct skmd_xfer_req *reqs = malloc((size_t)batch.n * sizeof *reqs);
        if (!reqs)
            err = CL_OUT_OF_HOST_MEMORY;
        for (int i = 0; reqs && i < batch.n; i++)
            reqs[i] = batch.e[i].req;
        uint64_t start = skmd_trace_enabled() ? skmd_now_ns() : 0;
        if (reqs)
            err = skmd_xfer_run_many(reqs, batch.n, NULL);
        if (err != CL_SUCCESS)
            skmd_log(SKMD_LOG_WARN, "%d transfers of a share's inputs failed (%d)", batch.n,
                     err);
        /* Landed: the bytes are current on their members now. */
        for (int i = 0; i < batch.n && err == CL_SUCCESS; i++) {
            const struct entry *en = &batch.e[i];
            skmd_buffer_lock(en->root);
            err = en->landed(en->root, en->req.member, en->req.offset,
                             en->req.offset + en->req.size);
            skmd_buffer_unlock(en->root);
            if (skmd_trace_enabled()) {
                struct skmd_trace_span span = {
                    .device = en->req.member, .kind = SKMD_TRACE_TRANSFER_IN, .share = -1,
                    .start_ns = start, .end_ns = reqs[i].landed_ns, .bytes = en->req.size,
                };
                skmd_trace_span(&span);
            }
        }
        free(reqs);
    }
    /* Freed every time: a thread's batch would be lost with it. */
    free(batch.e);
    batch.e = NULL;
    batch.n = batch.cap = 0;
    for (int i = 0; i < batch.np; i++)
        skmd_ranges_free(&batch.p[i].bytes);
    free(batch.p);
    batch.p = NULL;
    batch.np = batch.pcap = 0;
    return err;
}
