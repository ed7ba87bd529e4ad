/* libskmd/device/background.c: see background.h. One process-wide count of the threads
 * running, under its own lock; the exit handler waits on its condition. */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "device/background.h"

struct job {
    void (*fn)(void *);
    void *arg;
};

static pthread_mutex_t running_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t running_done = PTHREAD_COND_INITIALIZER;
static int running; /* under running_lock */
static pthread_once_t exit_wait_once = PTHREAD_ONCE_INIT;

static void wait_at_exit(void)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 60;
    pthread_mutex_lock(&running_lock);
    while (running > 0 && pthread_cond_timedwait(&running_done, &running_lock, &until) == 0)
        ;
    pthread_mutex_unlock(&running_lock);
}

/* Registered at the first start, after the drivers' own handlers: it runs before them. */
static void register_exit_wait(void)
{
    atexit(wait_at_exit);
}

static void running_add(int n)
{
    pthread_mutex_lock(&running_lock);
    running += n;
    pthread_cond_broadcast(&running_done);
    pthread_mutex_unlock(&running_lock);
}

static void *thread_main(void *arg)
{
    struct job job = *(struct job *)arg;
    free(arg);
    job.fn(job.arg);
    running_add(-1);
    return NULL;
}

int skmd_background_start(void (*fn)(void *), void *arg)
{
    struct job *job = malloc(sizeof *job);
    if (!job)
        return 0;
    *job = (struct job){fn, arg};
    pthread_once(&exit_wait_once, register_exit_wait);
    running_add(1);
    pthread_attr_t attr;
    pthread_t t;
    int ok = 0;
    if (pthread_attr_init(&attr) == 0) {
        ok = pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) == 0 &&
             pthread_create(&t, &attr, thread_main, job) == 0;
        pthread_attr_destroy(&attr);
    }
    if (!ok) {
        running_add(-1);
        free(job);
    }
    return ok;
}
