/* tests/trace/make-trace: records spans from several threads through libskmd/support/trace.c, as the
 * runtime does, so that check-trace.py can check the file SKMD_TRACE names.
 *
 *   SKMD_TRACE=t.json make-trace DEVICES LAUNCHES
 *
 * One thread per device; each launch gives every device a transfer in, a kernel and a
 * transfer out, and device 0 a merge: 3 * DEVICES * LAUNCHES + LAUNCHES spans. */
#include "support/trace.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int devices, launches;

/* A fake timeline: launch l takes 1 ms from l ms; device d's share is (d+1)/sum. */
static void *record_device(void *arg)
{
    int d = (int)(long)arg;
    uint64_t t0 = 5000000000u; /* anywhere: the writer makes times relative */
    double share = (double)(d + 1) / (devices * (devices + 1) / 2.0);
    for (int l = 0; l < launches; l++) {
        uint64_t start = t0 + (uint64_t)l * 1000000u;
        uint64_t wg = (uint64_t)(share * 1024 + 0.5);
        struct skmd_trace_span in = {d, SKMD_TRACE_TRANSFER_IN, "saxpy \"v2\"", (uint64_t)l,
                                     share, start, start + 100000, 0, wg * 4096};
        struct skmd_trace_span run = {d, SKMD_TRACE_KERNEL, "saxpy \"v2\"", (uint64_t)l,
                                      share, start + 100000, start + 100000 + (uint64_t)(700000 * share), wg, 0};
        struct skmd_trace_span out = {d, SKMD_TRACE_TRANSFER_OUT, "saxpy \"v2\"", (uint64_t)l,
                                      share, run.end_ns, run.end_ns + 50000, 0, wg * 2048};
        skmd_trace_span(&in);
        skmd_trace_span(&run);
        skmd_trace_span(&out);
        if (d == 0) {
            struct skmd_trace_span merge = {0, SKMD_TRACE_MERGE, "saxpy \"v2\"", (uint64_t)l,
                                            -1, start + 900000, start + 990000, 1024, 0};
            skmd_trace_span(&merge);
        }
        if (l == launches / 2)
            skmd_trace_flush(); /* a flush while the other threads record */
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 3 || (devices = atoi(argv[1])) < 1 || devices > 16 ||
        (launches = atoi(argv[2])) < 1) {
        fprintf(stderr, "usage: SKMD_TRACE=FILE make-trace DEVICES(1-16) LAUNCHES(>=1)\n");
        return 2;
    }
    if (!skmd_trace_enabled()) {
        fprintf(stderr, "make-trace: SKMD_TRACE is not set\n");
        return 2;
    }
    static const char *const names[] = {"GPU 0: Tesla \\ fast", "GPU 1: slower", "CPU: pthread"};
    pthread_t threads[16];
    for (int d = 0; d < devices; d++) {
        skmd_trace_name_device(d, d < 3 ? names[d] : "CPU: more");
        if (pthread_create(&threads[d], NULL, record_device, (void *)(long)d) != 0) {
            fprintf(stderr, "make-trace: cannot start a thread\n");
            return 1;
        }
    }
    for (int d = 0; d < devices; d++)
        pthread_join(threads[d], NULL);
    return 0; /* the trace is written at exit */
}
