/* libskmd/device/worker.c: per-queue launcher threads (a FIFO of jobs each). */
#include <stdlib.h>

#include "device/worker.h"

struct job {
    struct job *next;
    void (*fn)(void *);
    void *arg;
};

struct skmd_launcher {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_cond_t idle;     /* signalled when the last queued job is done */
    struct job *head, *tail; /* under lock */
    int running;             /* a job is running; under lock */
    int stopping;            /* under lock */
};

static void *launcher_main(void *arg)
{
    struct skmd_launcher *l = arg;
    pthread_mutex_lock(&l->lock);
    for (;;) {
        while (!l->head && !l->stopping)
            pthread_cond_wait(&l->wake, &l->lock);
        struct job *j = l->head;
        if (!j)
            break; /* stopping and drained */
        l->head = j->next;
        if (!l->head)
            l->tail = NULL;
        l->running = 1;
        pthread_mutex_unlock(&l->lock);
        j->fn(j->arg);
        free(j);
        pthread_mutex_lock(&l->lock);
        l->running = 0;
        if (!l->head)
            pthread_cond_broadcast(&l->idle);
    }
    pthread_mutex_unlock(&l->lock);
    return NULL;
}

/* q's launcher, made on first use (under q's object lock: no real call inside). */
static struct skmd_launcher *launcher_of(cl_command_queue q)
{
    pthread_mutex_lock(&q->obj.lock);
    struct skmd_launcher *l = q->launcher;
    if (!l && (l = calloc(1, sizeof *l))) {
        pthread_mutex_init(&l->lock, NULL);
        pthread_cond_init(&l->wake, NULL);
        pthread_cond_init(&l->idle, NULL);
        if (pthread_create(&l->thread, NULL, launcher_main, l) != 0) {
            pthread_cond_destroy(&l->idle);
            pthread_cond_destroy(&l->wake);
            pthread_mutex_destroy(&l->lock);
            free(l);
            l = NULL;
        }
        q->launcher = l;
    }
    pthread_mutex_unlock(&q->obj.lock);
    return l;
}

cl_int skmd_launcher_post(cl_command_queue q, void (*fn)(void *), void *arg)
{
    struct job *j = malloc(sizeof *j);
    struct skmd_launcher *l = j ? launcher_of(q) : NULL;
    if (!l) {
        free(j);
        return CL_OUT_OF_HOST_MEMORY;
    }
    *j = (struct job){NULL, fn, arg};
    pthread_mutex_lock(&l->lock);
    if (l->tail)
        l->tail->next = j;
    else
        l->head = j;
    l->tail = j;
    pthread_cond_signal(&l->wake);
    pthread_mutex_unlock(&l->lock);
    return CL_SUCCESS;
}

void skmd_launcher_stop(cl_command_queue q)
{
    pthread_mutex_lock(&q->obj.lock);
    struct skmd_launcher *l = q->launcher;
    q->launcher = NULL;
    pthread_mutex_unlock(&q->obj.lock);
    if (!l)
        return;
    pthread_mutex_lock(&l->lock);
    l->stopping = 1;
    pthread_cond_signal(&l->wake);
    pthread_mutex_unlock(&l->lock);
    pthread_join(l->thread, NULL);
    pthread_cond_destroy(&l->idle);
    pthread_cond_destroy(&l->wake);
    pthread_mutex_destroy(&l->lock);
    free(l);
}

void skmd_launcher_drain(cl_command_queue q)
{
    /* The launcher lives until the queue is freed, and clFinish holds a reference. */
    pthread_mutex_lock(&q->obj.lock);
    struct skmd_launcher *l = q->launcher;
    pthread_mutex_unlock(&q->obj.lock);
    if (!l)
        return;
    pthread_mutex_lock(&l->lock);
    while (l->head || l->running)
        pthread_cond_wait(&l->idle, &l->lock);
    pthread_mutex_unlock(&l->lock);
}
