/* tests/threads/parallel_test.c: libskmd/device/parallel.c, the kept threads that run a launch's
 * shares and the engine's per-link batches. Checks that a call's jobs run at the same
 * time (each waits until all have started), each exactly once; that calls one after
 * another reuse the threads the first made; that jobs calling skmd_run_parallel again,
 * from several app threads at once, all finish; more jobs than one call runs at once;
 * and calls after a shutdown. Built plain and under ThreadSanitizer
 * (`make test-parallel`). */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#include "device/parallel.h"

#include "../common/check.h"

#define WIDE 5      /* jobs of one call that must meet */
#define POSTERS 4   /* app threads calling at once */
#define ROUNDS 200
#define INNER 3     /* jobs of each nested call */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- Jobs run at once ---- */

struct meet {
    atomic_int *arrived;
    int met; /* all WIDE jobs had started before this one gave up waiting */
    int runs;
};

static void meet_job(void *arg)
{
    struct meet *m = arg;
    m->runs++;
    atomic_fetch_add(m->arrived, 1);
    double until = now_s() + 5.0; /* run in turn, the first would wait forever */
    while (atomic_load(m->arrived) < WIDE && now_s() < until)
        sched_yield();
    m->met = atomic_load(m->arrived) >= WIDE;
}

static void jobs_meet(void)
{
    atomic_int arrived = 0;
    struct meet m[WIDE];
    for (int i = 0; i < WIDE; i++)
        m[i] = (struct meet){&arrived, 0, 0};
    skmd_run_parallel(WIDE, meet_job, m, sizeof m[0]);
    for (int i = 0; i < WIDE; i++) {
        EXPECT(m[i].met, "job %d of %d ran without the others", i, WIDE);
        EXPECT(m[i].runs == 1, "job %d ran %d times", i, m[i].runs);
    }
}

/* ---- Calls in turn reuse the threads ---- */

static void count_job(void *arg)
{
    atomic_fetch_add((atomic_int *)arg, 1);
}

static void calls_reuse_threads(void)
{
    atomic_int counts[3] = {0};
    for (int r = 0; r < 100; r++)
        skmd_run_parallel(3, count_job, counts, sizeof counts[0]);
    for (int i = 0; i < 3; i++)
        EXPECT(atomic_load(&counts[i]) == 100, "job %d ran %d of 100 times", i,
               atomic_load(&counts[i]));
    EXPECT(skmd_parallel_threads() == 2, "100 calls of 3 jobs in turn kept %d threads (want 2)",
           skmd_parallel_threads());
}

/* ---- Nested calls from several app threads ---- */

struct outer {
    atomic_int inner[INNER];
    int runs;
};

static void outer_job(void *arg)
{
    struct outer *o = arg;
    o->runs++;
    skmd_run_parallel(INNER, count_job, o->inner, sizeof o->inner[0]);
}

static void *post_rounds(void *arg)
{
    int *bad = arg;
    for (int r = 0; r < ROUNDS; r++) {
        struct outer o[3];
        for (int i = 0; i < 3; i++) {
            o[i].runs = 0;
            for (int j = 0; j < INNER; j++)
                atomic_init(&o[i].inner[j], 0);
        }
        skmd_run_parallel(3, outer_job, o, sizeof o[0]);
        for (int i = 0; i < 3; i++) {
            *bad += o[i].runs != 1;
            for (int j = 0; j < INNER; j++)
                *bad += atomic_load(&o[i].inner[j]) != 1;
        }
    }
    return NULL;
}

static void nested_from_threads(void)
{
    pthread_t t[POSTERS];
    int bad[POSTERS] = {0};
    for (int i = 0; i < POSTERS; i++)
        CHECK(pthread_create(&t[i], NULL, post_rounds, &bad[i]) == 0);
    for (int i = 0; i < POSTERS; i++) {
        pthread_join(t[i], NULL);
        EXPECT(bad[i] == 0, "app thread %d: %d jobs not run exactly once", i, bad[i]);
    }
}

/* ---- More jobs than one call runs at once ---- */

static void many_jobs(void)
{
    atomic_int counts[40];
    for (int i = 0; i < 40; i++)
        atomic_init(&counts[i], 0);
    skmd_run_parallel(40, count_job, counts, sizeof counts[0]);
    int wrong = 0;
    for (int i = 0; i < 40; i++)
        wrong += atomic_load(&counts[i]) != 1;
    EXPECT(wrong == 0, "%d of 40 jobs not run exactly once", wrong);
}

int main(void)
{
    calls_reuse_threads();
    jobs_meet();
    nested_from_threads();
    many_jobs();
    EXPECT(skmd_parallel_threads() <= 64, "%d threads kept", skmd_parallel_threads());
    skmd_parallel_shutdown();
    EXPECT(skmd_parallel_threads() == 0, "%d threads after shutdown",
           skmd_parallel_threads());
    jobs_meet(); /* threads are made again */
    skmd_parallel_shutdown();
    return check_report("parallel_test");
}
