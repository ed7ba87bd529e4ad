/* libskmd/cl/split_thread.c: a program's split version (splitprog.c) built on a thread of
 * its own (device/background.h), started with the app's build, so that clBuildProgram
 * returns once the members' builds are done: the kernel compiler, a process of its own,
 * keeps another core busy meanwhile. The program's split_lock guards split_building;
 * while it is set, the split fields (record, split, split_ok, source_builds) are the
 * thread's. Whoever reads them waits for split_built first: a kernel made meanwhile
 * (kernel.c, at its first launch), a build or compile again, the program's release.
 * Nothing is cancelled: a wait lasts at most one split build. */
#include <stdlib.h>
#include <string.h>

#include "cl/splitprog.h"
#include "device/background.h"

struct split_job {
    cl_program program;
    char *options; /* a copy: the app's string lives only as long as its call */
};

static void split_main(void *arg)
{
    struct split_job *job = arg;
    cl_program p = job->program;
    skmd_split_build(p, job->options);
    free(job->options);
    free(job);
    /* The last touch of p: a waiter may free it as soon as the lock is let go. */
    pthread_mutex_lock(&p->split_lock);
    p->split_building = 0;
    pthread_cond_broadcast(&p->split_built);
    pthread_mutex_unlock(&p->split_lock);
}

void skmd_split_start(cl_program p, const char *options)
{
    if (!skmd_split_wanted(p))
        return;
    struct split_job *job = malloc(sizeof *job);
    char *copy = options ? strdup(options) : NULL;
    if (job && (copy || !options)) {
        *job = (struct split_job){p, copy};
        pthread_mutex_lock(&p->split_lock);
        p->split_building = 1;
        pthread_mutex_unlock(&p->split_lock);
        if (skmd_background_start(split_main, job))
            return;
        pthread_mutex_lock(&p->split_lock);
        p->split_building = 0;
        pthread_mutex_unlock(&p->split_lock);
    }
    free(copy);
    free(job);
    skmd_split_build(p, options); /* no thread to be had: built here */
}

void skmd_split_wait_locked(cl_program p)
{
    while (p->split_building)
        pthread_cond_wait(&p->split_built, &p->split_lock);
}

void skmd_split_wait(cl_program p)
{
    pthread_mutex_lock(&p->split_lock);
    skmd_split_wait_locked(p);
    pthread_mutex_unlock(&p->split_lock);
}
