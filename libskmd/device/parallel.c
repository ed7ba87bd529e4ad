/* libskmd/device/parallel.c: see parallel.h. One lock guards the queue of jobs posted and
 * not yet started; a caller takes its own unstarted jobs back out of it, so no call ever
 * waits for a thread that is busy elsewhere. */
#include <pthread.h>
#include <stdlib.h>

#include "support/log.h"
#include "device/parallel.h"

#define MAX_THREADS 64
#define MAX_JOBS 16 /* of one call at once: a launch has one per member, at most 16 */

struct job {
    struct job *next;
    void (*fn)(void *);
    void *arg;
    int *running; /* its call's jobs that kept threads started and have not finished */
};

static struct {
    pthread_mutex_t lock;
    pthread_cond_t work; /* jobs queued, or stop */
    pthread_cond_t done; /* a kept thread finished a job */
    struct job *head, *tail;
    int queued;   /* jobs in the queue */
    int starting; /* threads made that have not yet looked at the queue */
    int nthreads, idle, stop;
    pthread_t threads[MAX_THREADS];
} crew = {.lock = PTHREAD_MUTEX_INITIALIZER,
          .work = PTHREAD_COND_INITIALIZER,
          .done = PTHREAD_COND_INITIALIZER};

static pthread_once_t exit_once = PTHREAD_ONCE_INIT;

static void register_exit(void)
{
    atexit(skmd_parallel_shutdown);
}

static void *kept_thread(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&crew.lock);
    crew.starting--;
    for (;;) {
        while (!crew.head && !crew.stop) {
            crew.idle++;
            pthread_cond_wait(&crew.work, &crew.lock);
            crew.idle--;
        }
        struct job *j = crew.head;
        if (!j)
            break; /* stopping, nothing queued */
        crew.head = j->next;
        if (!crew.head)
            crew.tail = NULL;
        crew.queued--;
        int *running = j->running;
        (*running)++;
        pthread_mutex_unlock(&crew.lock);
        j->fn(j->arg);
        pthread_mutex_lock(&crew.lock);
        (*running)--; /* the caller may return (and j, *running be gone) once it sees 0 */
        pthread_cond_broadcast(&crew.done);
    }
    pthread_mutex_unlock(&crew.lock);
    return NULL;
}

/* Threads enough that every queued job finds one; under crew.lock. */
static void grow(void)
{
    while (crew.idle + crew.starting < crew.queued && crew.nthreads < MAX_THREADS &&
           !crew.stop) {
        if (pthread_create(&crew.threads[crew.nthreads], NULL, kept_thread, NULL) != 0) {
            skmd_log(SKMD_LOG_INFO, "could not start a thread (%d kept): jobs run in turn",
                     crew.nthreads);
            return;
        }
        crew.nthreads++;
        crew.starting++;
    }
}

void skmd_run_parallel(unsigned n, void (*fn)(void *), void *args, size_t stride)
{
    char *base = args;
    if (n == 0)
        return;
    if (n > MAX_JOBS) { /* more than a launch ever has: the rest in turn */
        for (unsigned i = MAX_JOBS; i < n; i++)
            fn(base + i * stride);
        n = MAX_JOBS;
    }
    struct job jobs[MAX_JOBS];
    int running = 0;
    pthread_once(&exit_once, register_exit);
    pthread_mutex_lock(&crew.lock);
    for (unsigned i = 1; i < n; i++) {
        jobs[i] = (struct job){NULL, fn, base + i * stride, &running};
        if (crew.tail)
            crew.tail->next = &jobs[i];
        else
            crew.head = &jobs[i];
        crew.tail = &jobs[i];
        crew.queued++;
    }
    for (int i = 0; i < crew.idle && i < (int)n - 1; i++)
        pthread_cond_signal(&crew.work);
    grow();
    pthread_mutex_unlock(&crew.lock);
    fn(base);
    /* Its jobs no thread has started: out of the queue, run here. */
    struct job *mine = NULL, **tail = &mine;
    pthread_mutex_lock(&crew.lock);
    struct job **at = &crew.head;
    crew.tail = NULL;
    while (*at) {
        struct job *j = *at;
        if (j->running == &running) {
            *at = j->next;
            crew.queued--;
            j->next = NULL;
            *tail = j;
            tail = &j->next;
        } else {
            crew.tail = j;
            at = &j->next;
        }
    }
    pthread_mutex_unlock(&crew.lock);
    for (struct job *j = mine; j; j = j->next)
        j->fn(j->arg);
    pthread_mutex_lock(&crew.lock);
    while (running > 0)
        pthread_cond_wait(&crew.done, &crew.lock);
    pthread_mutex_unlock(&crew.lock);
}

int skmd_parallel_threads(void)
{
    pthread_mutex_lock(&crew.lock);
    int n = crew.nthreads;
    pthread_mutex_unlock(&crew.lock);
    return n;
}

void skmd_threads_end(pthread_mutex_t *lock, pthread_cond_t *work, int *stop,
                      const pthread_t *threads, int *nthreads)
{
    pthread_mutex_lock(lock);
    __atomic_store_n(stop, 1, __ATOMIC_RELEASE);
    pthread_cond_broadcast(work);
    int n = *nthreads;
    pthread_mutex_unlock(lock);
    for (int i = 0; i < n; i++)
        pthread_join(threads[i], NULL);
    pthread_mutex_lock(lock);
    __atomic_store_n(nthreads, 0, __ATOMIC_RELAXED);
    __atomic_store_n(stop, 0, __ATOMIC_RELEASE);
    pthread_mutex_unlock(lock);
}

void skmd_parallel_shutdown(void)
{
    skmd_threads_end(&crew.lock, &crew.work, &crew.stop, crew.threads, &crew.nthreads);
}
