/* libskmd/xfer/copy_pool.c: large host copies shared among a pool of threads (see
 * copy_pool.h).
 *
 * A copy is cut into pieces posted in a fixed table of job slots; the pool's threads and
 * the caller take pieces with a compare-and-swap, not under a lock: with 8-16 threads
 * taking turns at one mutex for every piece, a 4 MiB copy out of a staging buffer spent as
 * long waking and queueing as copying. The lock and its
 * conditions are only for sleeping: threads spin a while between copies (a staged transfer
 * hands out one every chunk) and sleep after that. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#include "support/clock.h"
#include "xfer/copy_pool.h"
#include "device/parallel.h"
#include "support/log.h"

#define MAX_THREADS SKMD_COPY_POOL_MAX_THREADS
#define MAX_JOBS (MAX_THREADS * 4)
/* Below this a copy is not worth splitting among threads. */
#define MIN_PARALLEL_COPY ((size_t)1 << 20)
/* From this size on a copy bypasses the caches (see stream_copy). */
#define MIN_STREAM_COPY ((size_t)256 << 10)
#define SPIN_NS 50000u

enum { JOB_FREE, JOB_FILLING, JOB_QUEUED, JOB_TAKEN };

struct copy_job {
    int state; /* JOB_*, atomic: the fields below belong to whoever moved it out of FREE */
    char *dst;
    const char *src;
    size_t n;
    int *left; /* pieces of the poster's copy not yet done (atomic) */
};

static struct {
    struct copy_job jobs[MAX_JOBS];
    int queued;   /* jobs in JOB_QUEUED (atomic; what spinning threads watch) */
    int sleepers; /* pool threads asleep on `work` (atomic) */
    int waiters;  /* posters asleep on `done` (atomic) */
    int copying;  /* parallel copies running now (atomic) */
    pthread_mutex_t lock; /* for sleeping only, and for the thread list */
    pthread_cond_t work;  /* a job was queued, or stop */
    pthread_cond_t done;  /* some poster's copy may be complete */
    pthread_t threads[MAX_THREADS];
    int nthreads;
    int stop;
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER,
          .work = PTHREAD_COND_INITIALIZER,
          .done = PTHREAD_COND_INITIALIZER};

/* Cores online: more copy threads than that would only take turns. */
int skmd_copy_pool_cores(void)
{
    static int cores;
    int n = __atomic_load_n(&cores, __ATOMIC_RELAXED);
    if (!n) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        n = c > 0 ? (int)c : 1;
        __atomic_store_n(&cores, n, __ATOMIC_RELAXED);
    }
    return n;
}

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

/* Spins up to SPIN_NS until *flag is zero (until_zero) or not zero, before the caller sleeps
 * on a condition: waking sleeping threads at every chunk of a staged transfer costs tens of
 * microseconds a chunk, a large part of a chunk's time on a fast link. */
static void spin_wait(const int *flag, int until_zero)
{
    uint64_t end = skmd_now_ns() + SPIN_NS;
    do {
        for (int i = 0; i < 64; i++) {
            if ((__atomic_load_n(flag, __ATOMIC_ACQUIRE) == 0) == until_zero)
                return;
            cpu_relax();
        }
    } while (skmd_now_ns() < end);
}

/* memcpy(dst, src, n) for large copies. On x86-64 with non-temporal stores: what is written
 * is read next by a device's DMA or is larger than the caches, so filling the caches with
 * it (and reading each destination line before writing it) only costs memory bandwidth
 * (bench/RESULTS.md, "Copy pool"). */
static void stream_copy(void *dst, const void *src, size_t n)
{
#if defined(__x86_64__)
    if (n >= MIN_STREAM_COPY) {
        char *d = dst;
        const char *s = src;
        size_t head = (16 - ((uintptr_t)d & 15)) & 15;
        memcpy(d, s, head);
        d += head, s += head, n -= head;
        for (; n >= 64; d += 64, s += 64, n -= 64) {
            __m128i a = _mm_loadu_si128((const void *)s); /* any alignment */
            __m128i b = _mm_loadu_si128((const void *)(s + 16));
            __m128i c = _mm_loadu_si128((const void *)(s + 32));
            __m128i e = _mm_loadu_si128((const void *)(s + 48));
            _mm_stream_si128((__m128i *)d, a);
            _mm_stream_si128((__m128i *)(d + 16), b);
            _mm_stream_si128((__m128i *)(d + 32), c);
            _mm_stream_si128((__m128i *)(d + 48), e);
        }
        _mm_sfence(); /* the streamed stores are seen before the copy is said done */
        memcpy(d, s, n);
        return;
    }
#endif
    memcpy(dst, src, n);
}

/* Takes a queued job, any poster's, or returns 0. */
static int take_job(struct copy_job *out)
{
    if (__atomic_load_n(&pool.queued, __ATOMIC_ACQUIRE) == 0)
        return 0;
    for (int i = 0; i < MAX_JOBS; i++) {
        struct copy_job *j = &pool.jobs[i];
        int queued = JOB_QUEUED;
        if (__atomic_load_n(&j->state, __ATOMIC_RELAXED) != JOB_QUEUED ||
            !__atomic_compare_exchange_n(&j->state, &queued, JOB_TAKEN, 0, __ATOMIC_ACQUIRE,
                                         __ATOMIC_RELAXED))
            continue;
        __atomic_sub_fetch(&pool.queued, 1, __ATOMIC_SEQ_CST);
        out->dst = j->dst, out->src = j->src, out->n = j->n, out->left = j->left;
        __atomic_store_n(&j->state, JOB_FREE, __ATOMIC_RELEASE);
        return 1;
    }
    return 0;
}

/* Copies a taken job and counts it done for its poster, waking posters that sleep. */
static void run_job(const struct copy_job *job)
{
    stream_copy(job->dst, job->src, job->n);
    __atomic_sub_fetch(job->left, 1, __ATOMIC_SEQ_CST); /* job->left may be gone after this */
    if (__atomic_load_n(&pool.waiters, __ATOMIC_SEQ_CST) > 0) {
        pthread_mutex_lock(&pool.lock);
        pthread_cond_broadcast(&pool.done);
        pthread_mutex_unlock(&pool.lock);
    }
}

static void *copy_thread(void *arg)
{
    (void)arg;
    struct copy_job job;
    while (!__atomic_load_n(&pool.stop, __ATOMIC_ACQUIRE)) {
        if (take_job(&job)) {
            run_job(&job);
            continue;
        }
        spin_wait(&pool.queued, 0);
        if (__atomic_load_n(&pool.queued, __ATOMIC_ACQUIRE))
            continue;
        /* Asleep only once a poster that queues after this will see us (sleepers, then
         * queued; it bumps queued, then reads sleepers). */
        pthread_mutex_lock(&pool.lock);
        __atomic_add_fetch(&pool.sleepers, 1, __ATOMIC_SEQ_CST);
        while (!__atomic_load_n(&pool.stop, __ATOMIC_ACQUIRE) &&
               __atomic_load_n(&pool.queued, __ATOMIC_SEQ_CST) == 0)
            pthread_cond_wait(&pool.work, &pool.lock);
        __atomic_sub_fetch(&pool.sleepers, 1, __ATOMIC_SEQ_CST);
        pthread_mutex_unlock(&pool.lock);
    }
    return NULL;
}

/* Starts the pool's threads up to `want` (posters copy too); under pool.lock. */
static void pool_grow(int want)
{
    while (pool.nthreads < want && !__atomic_load_n(&pool.stop, __ATOMIC_ACQUIRE)) {
        if (pthread_create(&pool.threads[pool.nthreads], NULL, copy_thread, NULL) != 0) {
            skmd_log(SKMD_LOG_WARN, "transfer: could not start a copy thread; using %d",
                     pool.nthreads);
            return;
        }
        __atomic_store_n(&pool.nthreads, pool.nthreads + 1, __ATOMIC_RELAXED);
    }
}

/* Posts [dst, dst+n) as a job counted in *left; 0 when every slot is busy. */
static int post(char *dst, const char *src, size_t n, int *left)
{
    for (int i = 0; i < MAX_JOBS; i++) {
        struct copy_job *j = &pool.jobs[i];
        int free_state = JOB_FREE;
        if (__atomic_load_n(&j->state, __ATOMIC_RELAXED) != JOB_FREE ||
            !__atomic_compare_exchange_n(&j->state, &free_state, JOB_FILLING, 0,
                                         __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
            continue;
        j->dst = dst, j->src = src, j->n = n, j->left = left;
        __atomic_add_fetch(left, 1, __ATOMIC_RELAXED);
        __atomic_store_n(&j->state, JOB_QUEUED, __ATOMIC_RELEASE);
        __atomic_add_fetch(&pool.queued, 1, __ATOMIC_SEQ_CST);
        return 1;
    }
    return 0;
}

void skmd_copy_pool_copy(void *dst, const void *src, size_t n, int nthreads)
{
    if (nthreads <= 1 || n < MIN_PARALLEL_COPY) {
        stream_copy(dst, src, n);
        return;
    }
    size_t piece = (n / (size_t)nthreads + 4095) & ~(size_t)4095;
    /* The pool grows with the copies running at once (one per member's link driven at the
     * same time), so that each gets its threads: a fixed pool shared by all links would
     * cap them together at what it copies for one. */
    int copying = __atomic_add_fetch(&pool.copying, 1, __ATOMIC_RELAXED);
    int want = (nthreads - 1) * copying, most = skmd_copy_pool_cores() - 1;
    if (most > MAX_THREADS)
        most = MAX_THREADS;
    if (want > most)
        want = most;
    if (__atomic_load_n(&pool.nthreads, __ATOMIC_RELAXED) < want) {
        pthread_mutex_lock(&pool.lock);
        pool_grow(want);
        pthread_mutex_unlock(&pool.lock);
    }
    int left = 0;
    size_t at = piece; /* the caller copies [0, piece) itself */
    for (size_t len; at < n; at += len) {
        len = n - at < piece ? n - at : piece;
        if (!post((char *)dst + at, (const char *)src + at, len, &left))
            break;
    }
    if (__atomic_load_n(&pool.sleepers, __ATOMIC_SEQ_CST) > 0) {
        pthread_mutex_lock(&pool.lock);
        pthread_cond_broadcast(&pool.work);
        pthread_mutex_unlock(&pool.lock);
    }
    stream_copy(dst, src, piece < n ? piece : n);
    /* What could not be posted (every slot busy) the caller copies too. */
    if (at < n)
        stream_copy((char *)dst + at, (const char *)src + at, n - at);
    /* Then it helps with whatever is still queued (any poster's) until its own copy is
     * done, and waits for the pieces other threads hold. */
    struct copy_job job;
    while (__atomic_load_n(&left, __ATOMIC_ACQUIRE) > 0 && take_job(&job))
        run_job(&job);
    spin_wait(&left, 1);
    if (__atomic_load_n(&left, __ATOMIC_SEQ_CST) > 0) {
        pthread_mutex_lock(&pool.lock);
        __atomic_add_fetch(&pool.waiters, 1, __ATOMIC_SEQ_CST);
        while (__atomic_load_n(&left, __ATOMIC_SEQ_CST) > 0)
            pthread_cond_wait(&pool.done, &pool.lock);
        __atomic_sub_fetch(&pool.waiters, 1, __ATOMIC_SEQ_CST);
        pthread_mutex_unlock(&pool.lock);
    }
    __atomic_sub_fetch(&pool.copying, 1, __ATOMIC_RELAXED);
}

void skmd_copy_pool_shutdown(void)
{
    skmd_threads_end(&pool.lock, &pool.work, &pool.stop, pool.threads, &pool.nthreads);
}
