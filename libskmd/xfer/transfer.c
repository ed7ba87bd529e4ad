/* libskmd/xfer/transfer.c: the transfer engine (see transfer.h): pinned staging buffers per
 * member and direction, chunked transfers pipelined through them, staging copies shared
 * among a few host threads, and several members' links driven at once. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "device/api.h"
#include "support/clock.h"
#include "support/config.h"
#include "xfer/copy_pool.h"
#include "support/log.h"
#include "support/object.h"
#include "device/parallel.h"
#include "xfer/transfer.h"
#include "xfer/transfer_internal.h"

#define MAX_STAGING 8
#define MIN_CHUNK ((size_t)64 << 10)

/* ---- Settings (from the controls, clamped to what the engine supports) ---- */

struct settings {
    size_t chunk;   /* largest chunk = size of each staging buffer */
    size_t direct;  /* transfers below this go directly */
    int nstaging;   /* staging buffers per member and direction */
    int nthreads;   /* host threads per staging copy, the caller included */
};

static struct settings settings(void)
{
    const struct skmd_config *cfg = skmd_config();
    struct settings s = {
        .chunk = (size_t)cfg->transfer_chunk_kib << 10,
        .direct = (size_t)cfg->transfer_direct_kib << 10,
        .nstaging = cfg->transfer_staging,
        .nthreads = cfg->transfer_threads,
    };
    if (s.chunk < MIN_CHUNK)
        s.chunk = MIN_CHUNK;
    if (s.nstaging < 2)
        s.nstaging = 2; /* one on the link, one being filled: the least that overlaps */
    if (s.nstaging > MAX_STAGING)
        s.nstaging = MAX_STAGING;
    if (s.nthreads < 1)
        s.nthreads = 1;
    if (s.nthreads > SKMD_COPY_POOL_MAX_THREADS)
        s.nthreads = SKMD_COPY_POOL_MAX_THREADS;
    if (s.nthreads > skmd_copy_pool_cores())
        s.nthreads = skmd_copy_pool_cores();
    return s;
}

void skmd_xfer_copy(void *dst, const void *src, size_t n)
{
    skmd_copy_pool_copy(dst, src, n, settings().nthreads);
}

/* ---- Staging buffers: per member, per direction, made on first use ---- */

struct staging {
    pthread_mutex_t lock;   /* held for a whole staged transfer of the member */
    int closed;             /* dropped at exit: made ahead no more */
    cl_context context;     /* real context the buffers were made in (NULL: none yet) */
    cl_command_queue mapq;  /* the engine's queue, to map and unmap them */
    size_t chunk;           /* bytes of each buffer */
    int n;
    cl_mem buf[2][MAX_STAGING]; /* [to_device] */
    void *ptr[2][MAX_STAGING];  /* mapped once, for the buffer's life */
};

static struct staging stage[SKMD_MAX_MEMBERS];
static pthread_once_t stage_once = PTHREAD_ONCE_INIT;

static void stage_drop(struct staging *st)
{
    for (int d = 0; d < 2; d++)
        for (int i = 0; i < MAX_STAGING; i++) {
            if (!st->buf[d][i])
                continue;
            if (st->ptr[d][i] && st->mapq)
                real_clEnqueueUnmapMemObject(st->mapq, st->buf[d][i], st->ptr[d][i], 0, NULL,
                                             NULL);
            if (st->mapq)
                real_clFinish(st->mapq);
            real_clReleaseMemObject(st->buf[d][i]);
            st->buf[d][i] = NULL;
            st->ptr[d][i] = NULL;
        }
    if (st->mapq)
        real_clReleaseCommandQueue(st->mapq);
    st->mapq = NULL;
    st->context = NULL;
}

static void stage_init(void);

void skmd_xfer_shutdown(void)
{
    pthread_once(&stage_once, stage_init); /* the staging locks exist */
    skmd_copy_pool_shutdown();
    for (int m = 0; m < SKMD_MAX_MEMBERS; m++) {
        pthread_mutex_lock(&stage[m].lock);
        stage_drop(&stage[m]);
        stage[m].closed = 1;
        pthread_mutex_unlock(&stage[m].lock);
    }
}

static void stage_init(void)
{
    for (int m = 0; m < SKMD_MAX_MEMBERS; m++)
        pthread_mutex_init(&stage[m].lock, NULL);
    atexit(skmd_xfer_shutdown);
}

/* Whether the member's set is this context's and has direction d's buffers; under
 * st->lock. */
static int stage_ready(const struct staging *st, cl_context context, int d,
                       const struct settings *s)
{
    return st->context == context && st->chunk == s->chunk && st->n == s->nstaging &&
           st->buf[d][st->n - 1];
}

/* Member m's staging buffers of direction d (1: to the device) in real context `context`
 * of `device`, made if missing (`when` says why, for the log); under st->lock. A set in
 * another real context than before is replaced (one set per member). */
static cl_int stage_make(struct staging *st, int m, cl_context context, cl_device_id device,
                         int d, const struct settings *s, const char *when)
{
    if (stage_ready(st, context, d, s))
        return CL_SUCCESS;
    cl_int err = CL_SUCCESS;
    if (st->context != context || st->chunk != s->chunk || st->n != s->nstaging) {
        stage_drop(st);
        st->mapq = real_clCreateCommandQueue(context, device, 0, &err);
        if (!st->mapq)
            return err;
        st->context = context;
        st->chunk = s->chunk;
        st->n = s->nstaging;
    }
    skmd_log(SKMD_LOG_DEBUG, "transfer: staging buffers of member %d, %s, made %s: %d x %zu "
             "KiB", m, d ? "to the device" : "from the device", when, st->n, st->chunk >> 10);
    for (int i = 0; i < st->n; i++) {
        if (st->buf[d][i])
            continue;
        cl_mem_flags flags = CL_MEM_ALLOC_HOST_PTR | (d ? CL_MEM_READ_ONLY : CL_MEM_WRITE_ONLY);
        st->buf[d][i] = real_clCreateBuffer(context, flags, st->chunk, NULL, &err);
        if (!st->buf[d][i])
            return err;
        st->ptr[d][i] = real_clEnqueueMapBuffer(st->mapq, st->buf[d][i], CL_TRUE,
                                                CL_MAP_READ | CL_MAP_WRITE, 0, st->chunk, 0,
                                                NULL, NULL, &err);
        if (!st->ptr[d][i]) {
            real_clReleaseMemObject(st->buf[d][i]);
            st->buf[d][i] = NULL;
            return err;
        }
    }
    return CL_SUCCESS;
}

/* The request's staging buffers, made on first use; under st->lock. Every staged
 * transfer asks: the device is looked up only when they are to be made. */
static cl_int stage_get(struct staging *st, const struct skmd_xfer_req *req,
                        const struct settings *s)
{
    if (stage_ready(st, req->context, req->to_device ? 1 : 0, s))
        return CL_SUCCESS;
    cl_device_id device;
    cl_int err = real_clGetCommandQueueInfo(req->queue, CL_QUEUE_DEVICE, sizeof device, &device,
                                            NULL);
    if (err != CL_SUCCESS)
        return err;
    return stage_make(st, req->member, req->context, device, req->to_device ? 1 : 0, s,
                      "on first use");
}

void skmd_xfer_prepare(int member, cl_context context, cl_device_id device)
{
    if (member < 0 || member >= SKMD_MAX_MEMBERS ||
        (skmd_xfer_device_shares_host(device) && !skmd_config()->transfer_stage_cpu))
        return; /* its transfers go directly */
    struct settings s = settings();
    pthread_once(&stage_once, stage_init);
    struct staging *st = &stage[member];
    pthread_mutex_lock(&st->lock);
    cl_int err = CL_SUCCESS;
    /* A set in use (another context's) is left to its transfers. */
    for (int d = 0; d < 2 && !st->closed && err == CL_SUCCESS &&
                    (!st->context || st->context == context); d++)
        err = stage_make(st, member, context, device, d, &s, "ahead");
    pthread_mutex_unlock(&st->lock);
    if (err != CL_SUCCESS)
        skmd_log(SKMD_LOG_INFO, "transfer: staging buffers of member %d not made ahead (%d): "
                 "made on first use", member, err);
}

/* ---- Process totals, logged at exit (SKMD_LOG=info) ---- */

static atomic_uint_least64_t total_direct, total_staged, total_chunks, total_zero_copy;
static pthread_once_t totals_once = PTHREAD_ONCE_INIT;

static void log_totals(void)
{
    skmd_log(SKMD_LOG_INFO,
             "transfer engine: %llu bytes staged in %llu chunks, %llu direct, %llu zero-copy",
             (unsigned long long)atomic_load(&total_staged),
             (unsigned long long)atomic_load(&total_chunks),
             (unsigned long long)atomic_load(&total_direct),
             (unsigned long long)atomic_load(&total_zero_copy));
}

static void totals_init(void)
{
    atexit(log_totals);
}

static void count(uint64_t direct, uint64_t staged, uint64_t chunks, uint64_t zero_copy)
{
    pthread_once(&totals_once, totals_init);
    atomic_fetch_add(&total_direct, direct);
    atomic_fetch_add(&total_staged, staged);
    atomic_fetch_add(&total_chunks, chunks);
    atomic_fetch_add(&total_zero_copy, zero_copy);
}

void skmd_xfer_note_zero_copy(uint64_t bytes)
{
    count(0, 0, 0, bytes);
}

void skmd_xfer_totals(struct skmd_xfer_stats *out, uint64_t *zero_copy)
{
    out->direct_bytes = atomic_load(&total_direct);
    out->staged_bytes = atomic_load(&total_staged);
    out->chunks = atomic_load(&total_chunks);
    if (zero_copy)
        *zero_copy = atomic_load(&total_zero_copy);
}

/* ---- Transfers ---- */

/* Waits for and releases an event; the command's failure becomes the result. */
static cl_int finish_event(cl_event *ev)
{
    if (!*ev)
        return CL_SUCCESS;
    cl_int status = CL_COMPLETE;
    cl_int err = real_clWaitForEvents(1, ev);
    real_clGetEventInfo(*ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    real_clReleaseEvent(*ev);
    *ev = NULL;
    return err != CL_SUCCESS ? err : status < 0 ? status : CL_SUCCESS;
}

/* Chunk size for a staged transfer of `size` bytes: at most the staging size, small
 * enough that there are a few chunks to overlap, but not below STAGED_CHUNK_MIN: a chunk
 * has a fixed cost beyond its bytes (sharing out its copy among the copy threads), so
 * smaller chunks cost more than they overlap (docs/transfer.md, bench/RESULTS.md). */
#define STAGED_CHUNK_MIN ((size_t)2 << 20)
static size_t chunk_for(size_t size, const struct settings *s)
{
    size_t c = (size / 4 + 4095) & ~(size_t)4095;
    if (c < STAGED_CHUNK_MIN)
        c = STAGED_CHUNK_MIN;
    return c < s->chunk ? c : s->chunk;
}

static cl_int enqueue_chunk(const struct skmd_xfer_req *req, size_t off, size_t len,
                            void *ptr, cl_event *ev)
{
    cl_int err = req->to_device
                     ? real_clEnqueueWriteBuffer(req->queue, req->buffer, CL_FALSE,
                                                 req->offset + off, len, ptr, 0, NULL, ev)
                     : real_clEnqueueReadBuffer(req->queue, req->buffer, CL_FALSE,
                                                req->offset + off, len, ptr, 0, NULL, ev);
    if (err == CL_SUCCESS)
        err = real_clFlush(req->queue);
    return err;
}

/* Host -> device: fill slot i%n while the slots before it are on the link. */
static cl_int staged_write(const struct skmd_xfer_req *req, struct staging *st,
                           const struct settings *s, size_t chunk, uint64_t *nchunks)
{
    cl_event ev[MAX_STAGING] = {0};
    cl_int err = CL_SUCCESS;
    size_t off = 0;
    for (int i = 0; off < req->size && err == CL_SUCCESS; i++) {
        int slot = i % st->n;
        size_t len = req->size - off < chunk ? req->size - off : chunk;
        err = finish_event(&ev[slot]); /* the slot's previous chunk has left */
        if (err != CL_SUCCESS)
            break;
        skmd_copy_pool_copy(st->ptr[1][slot], (const char *)req->host + off, len, s->nthreads);
        err = enqueue_chunk(req, off, len, st->ptr[1][slot], &ev[slot]);
        off += len;
        (*nchunks)++;
    }
    for (int i = 0; i < st->n; i++) {
        cl_int e = finish_event(&ev[i]);
        if (err == CL_SUCCESS)
            err = e;
    }
    return err;
}

/* Device -> host: keep n chunks on the link; empty each slot as its chunk lands. */
static cl_int staged_read(const struct skmd_xfer_req *req, struct staging *st,
                          const struct settings *s, size_t chunk, uint64_t *nchunks)
{
    cl_event ev[MAX_STAGING] = {0};
    cl_int err = CL_SUCCESS;
    size_t nchunk = (req->size + chunk - 1) / chunk;
    size_t queued = 0;
    for (; queued < nchunk && queued < (size_t)st->n && err == CL_SUCCESS; queued++) {
        size_t off = queued * chunk;
        size_t len = req->size - off < chunk ? req->size - off : chunk;
        err = enqueue_chunk(req, off, len, st->ptr[0][queued], &ev[queued]);
    }
    for (size_t i = 0; i < nchunk && err == CL_SUCCESS; i++) {
        int slot = (int)(i % (size_t)st->n);
        size_t off = i * chunk;
        size_t len = req->size - off < chunk ? req->size - off : chunk;
        err = finish_event(&ev[slot]);
        if (err != CL_SUCCESS)
            break;
        skmd_copy_pool_copy((char *)req->host + off, st->ptr[0][slot], len, s->nthreads);
        (*nchunks)++;
        if (queued < nchunk) {
            size_t qoff = queued * chunk;
            size_t qlen = req->size - qoff < chunk ? req->size - qoff : chunk;
            err = enqueue_chunk(req, qoff, qlen, st->ptr[0][slot], &ev[slot]);
            queued++;
        }
    }
    for (int i = 0; i < st->n; i++) {
        cl_int e = finish_event(&ev[i]);
        if (err == CL_SUCCESS)
            err = e;
    }
    return err;
}

static cl_int direct(const struct skmd_xfer_req *req)
{
    if (req->to_device)
        return real_clEnqueueWriteBuffer(req->queue, req->buffer, CL_TRUE, req->offset,
                                         req->size, req->host, 0, NULL, NULL);
    return real_clEnqueueReadBuffer(req->queue, req->buffer, CL_TRUE, req->offset, req->size,
                                    req->host, 0, NULL, NULL);
}

static int valid_req(const struct skmd_xfer_req *req)
{
    return req && req->member >= 0 && req->member < SKMD_MAX_MEMBERS && req->queue &&
           req->buffer && (!req->size || req->host);
}

/* Whether a (valid, non-empty) request goes by one direct call rather than staged. */
static int goes_direct(const struct skmd_xfer_req *req, const struct settings *s)
{
    return req->direct || req->size < s->direct || req->size < 2 * MIN_CHUNK ||
           !req->context || skmd_xfer_host_is_pinned(req->host, req->size, req->context);
}

cl_int skmd_xfer_run(const struct skmd_xfer_req *req, struct skmd_xfer_stats *stats)
{
    if (!valid_req(req))
        return CL_INVALID_VALUE;
    if (req->size == 0)
        return CL_SUCCESS;
    struct settings s = settings();
    struct skmd_xfer_stats none;
    if (!stats)
        stats = &none;
    /* Timed for the observer from an idle queue: the transfer alone, not the kernel that
     * a blocking read would wait for. */
    uint64_t t0 =
        skmd_xfer_observing() && real_clFinish(req->queue) == CL_SUCCESS ? skmd_now_ns() : 0;
    uint64_t mark = 0;
    if (goes_direct(req, &s)) {
        int pinned = req->context && skmd_xfer_host_is_pinned(req->host, req->size, req->context);
        t0 = skmd_xfer_timing_start(req->member, t0, &mark);
        cl_int err = direct(req);
        if (err == CL_SUCCESS) {
            stats->direct_bytes += req->size;
            count(req->size, 0, 0, 0);
        }
        skmd_xfer_observed(req, pinned, t0, mark, err == CL_SUCCESS);
        return err;
    }
    /* A request past the buffer's end fails before any chunk is written. */
    size_t bufsize = 0;
    cl_int err = real_clGetMemObjectInfo(req->buffer, CL_MEM_SIZE, sizeof bufsize, &bufsize,
                                         NULL);
    if (err != CL_SUCCESS)
        return err;
    if (req->offset > bufsize || req->size > bufsize - req->offset)
        return CL_INVALID_VALUE;
    pthread_once(&stage_once, stage_init);
    struct staging *st = &stage[req->member];
    pthread_mutex_lock(&st->lock);
    err = stage_get(st, req, &s);
    if (err != CL_SUCCESS) {
        pthread_mutex_unlock(&st->lock);
        /* No pinned memory to be had: the bytes still move, directly. */
        skmd_log(SKMD_LOG_INFO, "transfer: no staging buffers on member %d (%d); direct",
                 req->member, err);
        t0 = skmd_xfer_timing_start(req->member, t0, &mark);
        err = direct(req);
        if (err == CL_SUCCESS) {
            stats->direct_bytes += req->size;
            count(req->size, 0, 0, 0);
        }
        skmd_xfer_observed(req, 0, t0, mark, err == CL_SUCCESS);
        return err;
    }
    /* The link's time starts now: not the wait for the member's staging lock, nor the
     * pinning of its staging buffers on first use (a one-time cost, not the link's). */
    t0 = skmd_xfer_timing_start(req->member, t0, &mark);
    size_t chunk = chunk_for(req->size, &s);
    uint64_t nchunks = 0;
    err = req->to_device ? staged_write(req, st, &s, chunk, &nchunks)
                         : staged_read(req, st, &s, chunk, &nchunks);
    pthread_mutex_unlock(&st->lock);
    if (err == CL_SUCCESS) {
        stats->staged_bytes += req->size;
        stats->chunks += nchunks;
        count(0, req->size, nchunks, 0);
    }
    skmd_xfer_observed(req, 1, t0, mark, err == CL_SUCCESS);
    return err;
}

/* The requests of one member, run in order on one thread. */
struct member_batch {
    struct skmd_xfer_req *reqs;
    int n;
    int member;
    cl_int err;
    struct skmd_xfer_stats stats;
};

/* Direct requests of one member in flight at once, then waited for together. */
#define MAX_IN_FLIGHT 32

struct in_flight {
    cl_event ev[MAX_IN_FLIGHT];
    struct skmd_xfer_req *req[MAX_IN_FLIGHT];
    int n;
};

/* Waits for every direct request in flight; their bytes count once they are done. */
static cl_int land(struct in_flight *f, struct skmd_xfer_stats *stats)
{
    cl_int err = CL_SUCCESS;
    for (int i = 0; i < f->n; i++) {
        cl_int e = finish_event(&f->ev[i]);
        f->req[i]->landed_ns = skmd_now_ns();
        if (e == CL_SUCCESS) {
            stats->direct_bytes += f->req[i]->size;
            count(f->req[i]->size, 0, 0, 0);
        } else if (err == CL_SUCCESS) {
            err = e;
        }
    }
    f->n = 0;
    return err;
}

/* The requests of one member, in order on one thread. Direct ones are enqueued without
 * waiting, several on the link back to back (no round trip between them); a staged one
 * first lets them land (its chunks then have the link to themselves). */
static void run_batch(void *arg)
{
    struct member_batch *b = arg;
    struct settings s = settings();
    struct in_flight f = {.n = 0};
    for (int i = 0; i < b->n; i++) {
        struct skmd_xfer_req *req = &b->reqs[i];
        if (req->member != b->member)
            continue;
        cl_int err;
        if (valid_req(req) && req->size && goes_direct(req, &s)) {
            if (f.n == MAX_IN_FLIGHT && (err = land(&f, &b->stats)) != CL_SUCCESS &&
                b->err == CL_SUCCESS)
                b->err = err;
            f.ev[f.n] = NULL;
            err = req->to_device
                      ? real_clEnqueueWriteBuffer(req->queue, req->buffer, CL_FALSE,
                                                  req->offset, req->size, req->host, 0, NULL,
                                                  &f.ev[f.n])
                      : real_clEnqueueReadBuffer(req->queue, req->buffer, CL_FALSE,
                                                 req->offset, req->size, req->host, 0, NULL,
                                                 &f.ev[f.n]);
            if (err == CL_SUCCESS) {
                f.req[f.n++] = req;
                err = real_clFlush(req->queue);
            } else {
                req->landed_ns = skmd_now_ns(); /* done: it failed */
            }
        } else {
            err = land(&f, &b->stats);
            cl_int e = skmd_xfer_run(req, &b->stats);
            req->landed_ns = skmd_now_ns();
            err = err != CL_SUCCESS ? err : e;
        }
        if (b->err == CL_SUCCESS)
            b->err = err;
    }
    cl_int err = land(&f, &b->stats);
    if (b->err == CL_SUCCESS)
        b->err = err;
}

cl_int skmd_xfer_run_many(struct skmd_xfer_req *reqs, int n, struct skmd_xfer_stats *stats)
{
    if (n < 0 || (n > 0 && !reqs))
        return CL_INVALID_VALUE;
    struct member_batch batch[SKMD_MAX_MEMBERS];
    int nbatch = 0;
    for (int i = 0; i < n; i++) {
        if (reqs[i].member < 0 || reqs[i].member >= SKMD_MAX_MEMBERS)
            return CL_INVALID_VALUE;
        int seen = 0;
        for (int b = 0; b < nbatch && !seen; b++)
            seen = batch[b].member == reqs[i].member;
        if (!seen)
            batch[nbatch++] = (struct member_batch){reqs, n, reqs[i].member, CL_SUCCESS,
                                                    {0, 0, 0}};
    }
    /* One thread per member, the caller's for the first. */
    skmd_run_parallel((unsigned)nbatch, run_batch, batch, sizeof batch[0]);
    cl_int err = CL_SUCCESS;
    for (int b = 0; b < nbatch; b++) {
        if (err == CL_SUCCESS)
            err = batch[b].err;
        if (stats) {
            stats->direct_bytes += batch[b].stats.direct_bytes;
            stats->staged_bytes += batch[b].stats.staged_bytes;
            stats->chunks += batch[b].stats.chunks;
        }
    }
    return err;
}
