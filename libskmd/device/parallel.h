/* libskmd/device/parallel.h: running a few jobs at once on threads that are kept.
 *
 * A split launch runs its shares' host-side work on one thread per member, and the transfer
 * engine drives several members' links from one thread each. Threads made per call are
 * slow to start in a process that holds GPU drivers (a launch's second share starts a
 * sizeable part of a short launch after the first): these threads are made once, as many
 * as the most jobs ever waiting at once, and sleep between calls. */
#ifndef SKMD_PARALLEL_H
#define SKMD_PARALLEL_H

#include <pthread.h>
#include <stddef.h>

/* Runs fn(args + i*stride) for i in [0, n) at once and returns when all are done. The
 * caller's thread runs the first and takes back any job no kept thread has started (none
 * can be made, or all are busy): a job may itself call skmd_run_parallel. */
void skmd_run_parallel(unsigned n, void (*fn)(void *), void *args, size_t stride);

/* Threads made so far and not ended (for tests). */
int skmd_parallel_threads(void);

/* Ends the kept threads (at exit; tests). Later calls make them again. */
void skmd_parallel_shutdown(void);

/* Ends a set of kept threads (these, the copy pool's): sets *stop under `lock`, wakes them
 * all on `work`, joins the *nthreads made, then sets both back to 0, so that the set can be
 * made again. Both are written atomically: the threads may read them without the lock. */
void skmd_threads_end(pthread_mutex_t *lock, pthread_cond_t *work, int *stop,
                      const pthread_t *threads, int *nthreads);

#endif
