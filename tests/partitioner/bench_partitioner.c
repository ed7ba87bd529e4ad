/* Decision time of Algorithm 1 (the fast "skmd" policy, and the published "paper" one for
 * comparison) for 4 devices with a granularity of total / 2048: a CPU host device, a fast
 * GPU and a slower GPU behind one shared link, and a GPU on a link of its own, all with
 * size variation, then with the GPUs' shares in pieces. Prints the median and the 99th
 * percentile of many decisions. */
#include "skmd_part.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RUNS 2000

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void gpu(struct skmd_part_device *d, double peak, int link, double saturate_at)
{
    memset(d, 0, sizeof(*d));
    for (int k = 0; k < SKMD_PART_RANGES; k++) {
        double n = (double)(1u << k);
        d->table.rate[k] = peak * (n < saturate_at ? n / saturate_at : 1.0);
        d->table.samples[k] = 1;
    }
    d->link = link;
    for (int dir = 0; dir < 2; dir++)
        for (int mem = 0; mem < 2; mem++) {
            d->curve[dir][mem].latency_ms = 0.01;
            d->curve[dir][mem].bytes_per_ms = 12e6; /* 12 GB/s */
        }
    d->peak_rate = peak;
}

static int bench(const struct skmd_part_problem *p, enum skmd_part_policy policy, int runs)
{
    static double us[RUNS];
    struct skmd_part_result r;
    for (int i = 0; i < runs; i++) {
        double t0 = now_us();
        if (skmd_part_decide(p, policy, &r) != SKMD_PART_OK) {
            fprintf(stderr, "bench_partitioner: decision failed\n");
            exit(1);
        }
        us[i] = now_us() - t0;
    }
    qsort(us, (size_t)runs, sizeof(us[0]), cmp_double);
    printf("policy %s: 4 devices, %llu work-groups, granularity %llu, %d moves\n",
           skmd_part_policy_name(policy), (unsigned long long)p->total_wg,
           (unsigned long long)r.granularity, r.steps);
    printf("  shares:");
    for (int d = 0; d < 4; d++)
        printf(" %llu", (unsigned long long)r.count[d]);
    printf("  (estimated %.3f ms)\n", r.overall_ms);
    printf("  decision time: median %.1f us, 99th percentile %.1f us (target <= 50 us: %s)\n",
           us[runs / 2], us[runs * 99 / 100], us[runs / 2] <= 50.0 ? "met" : "MISSED");
    return 0;
}

/* A launch whose problem its key saw last time: the cache's answer without deciding. */
static void bench_cached(const struct skmd_part_problem *p, int runs)
{
    static double us[RUNS];
    struct skmd_part_cache *c = skmd_part_cache_new(0.05);
    struct skmd_part_key key = {1, 2, 3};
    struct skmd_part_result r;
    if (!c || skmd_part_cache_decide(c, &key, p, SKMD_PART_POLICY_SKMD, &r, NULL) != SKMD_PART_OK) {
        fprintf(stderr, "bench_partitioner: the cache failed\n");
        exit(1);
    }
    for (int i = 0; i < runs; i++) {
        double t0 = now_us();
        skmd_part_cache_decide(c, &key, p, SKMD_PART_POLICY_SKMD, &r, NULL);
        us[i] = now_us() - t0;
    }
    qsort(us, (size_t)runs, sizeof(us[0]), cmp_double);
    printf("the same problem again (decision cache): median %.2f us, 99th percentile %.2f us\n",
           us[runs / 2], us[runs * 99 / 100]);
    skmd_part_cache_free(c);
}

int main(void)
{
    struct skmd_part_device dev[4];
    gpu(&dev[0], 40.0, -1, 8.0); /* CPU: saturates at 8 work-groups, zero-copy */
    gpu(&dev[1], 400.0, 0, 1024.0);
    gpu(&dev[2], 150.0, 0, 512.0);
    gpu(&dev[3], 250.0, 1, 1024.0);
    struct skmd_part_problem p;
    memset(&p, 0, sizeof(p));
    p.ndev = 4;
    p.dev = dev;
    p.total_wg = 2048 * 64;
    p.host_dev = 0;
    p.mem = SKMD_PART_PINNED;
    p.in_per_wg = 8192.0;
    p.out_per_wg = 4096.0;
    p.output_contiguous = 0;
    p.merge_fixed_ms = 0.05;
    p.merge_ms_per_byte = 1e-7;
    bench(&p, SKMD_PART_POLICY_SKMD, RUNS);
    bench(&p, SKMD_PART_POLICY_PAPER, RUNS / 20);
    /* The GPUs' shares in pieces (as the runtime's automatic choice: 4 MiB a piece, at
     * most 8), so the model prices transfers overlapped with kernels. */
    for (int d = 1; d < 4; d++) {
        dev[d].max_pieces = 8;
        dev[d].piece_bytes = 4 << 20;
    }
    printf("GPU shares in pieces:\n");
    bench(&p, SKMD_PART_POLICY_SKMD, RUNS);
    bench_cached(&p, RUNS);
    return 0;
}
