/* Unit tests of partitioner/'s launch policy (skmd_part_launch.h): the cold start and the
 * profiling sweep, probes of idle members, first shares and timed whole launches,
 * stickiness (home member, whole samples, reuse of a decision), and which launches the
 * guard judges, with the guard's own transitions (going whole, retries, going back)
 * launch by launch. */
#include "skmd_part_launch.h"

#include <string.h>

#include "../common/check.h"

/* Every range at `rate` work-groups/ms, `samples` measurements each (0: a prediction). */
static struct skmd_part_table flat(double rate, uint32_t samples)
{
    struct skmd_part_table t;
    memset(&t, 0, sizeof t);
    for (int k = 0; k < SKMD_PART_RANGES; k++) {
        t.rate[k] = rate;
        t.samples[k] = samples;
    }
    return t;
}

/* Member 0 is a CPU (the queue's member), 1 and 2 are twin GPUs, 3 another GPU. */
static const unsigned char on_host4[4] = {1, 0, 0, 0};
static const int twins4[4] = {0, 2, 2, 0};
static const unsigned char all4[4] = {1, 1, 1, 1};

static struct skmd_part_launch launch4(uint64_t total, const struct skmd_part_table *table,
                                       const unsigned char *eligible)
{
    return (struct skmd_part_launch){4, total, eligible, on_host4, twins4, table, 0, NULL};
}

/* Members 0 and 1 alone, both GPUs. */
static struct skmd_part_launch two_gpus(uint64_t total, const struct skmd_part_table *table)
{
    static const unsigned char both[4] = {1, 1, 0, 0}, gpus[4] = {0, 0, 0, 0};
    struct skmd_part_launch l = launch4(total, table, both);
    l.n = 2;
    l.on_host = gpus;
    return l;
}

static void test_members(void)
{
    struct skmd_part_table t[4] = {flat(0, 0), flat(50, 1), flat(0, 0), flat(10, 0)};
    struct skmd_part_launch l = launch4(1000, t, all4);
    CHECK(skmd_part_table_measured(&t[1]) && !skmd_part_table_measured(&t[3]));
    CHECK(skmd_part_twins(&l, 1, 2) && skmd_part_twins(&l, 2, 1));
    CHECK(!skmd_part_twins(&l, 1, 1) && !skmd_part_twins(&l, 0, 3) && !skmd_part_twins(&l, 1, 3));
    /* Member 2 is rated by its twin 1's measurement, while 1 may take a share. */
    CHECK(skmd_part_rated(&l, 1) && skmd_part_rated(&l, 2) && !skmd_part_rated(&l, 3));
    unsigned char no1[4] = {1, 0, 1, 1};
    l.eligible = no1;
    CHECK(!skmd_part_rated(&l, 2));
    /* The preferred member: the queue's CPU member gives way to the first GPU. */
    l.eligible = all4;
    CHECK(skmd_part_preferred(&l) == 1);
    l.exec = 3;
    CHECK(skmd_part_preferred(&l) == 3);
    unsigned char cpu_only[4] = {1, 0, 0, 0};
    l.eligible = cpu_only;
    CHECK(skmd_part_preferred(&l) == 0);
    /* The fastest: measured ones only, or predictions too. */
    l.eligible = all4;
    CHECK(skmd_part_fastest(&l, 1) == 1);
    t[3] = flat(80, 0);
    CHECK(skmd_part_fastest(&l, 0) == 3 && skmd_part_fastest(&l, 1) == 1);
}

static void test_sweep(void)
{
    struct skmd_part_table t[4] = {flat(0, 0), flat(0, 0), flat(0, 0), flat(0, 0)};
    unsigned char three[4] = {1, 1, 1, 0};
    struct skmd_part_launch l = launch4(64, t, three);
    l.n = 3;
    int member = -1;
    uint64_t share = 0;
    unsigned char others[4];
    /* Steps 0..2: each member alone. */
    for (uint64_t s = 0; s < 3; s++) {
        CHECK(skmd_part_sweep_step(&l, s, 2, &member, &share, others) == 1);
        CHECK(member == (int)s && share == 64);
        CHECK(!others[0] && !others[1] && !others[2]);
    }
    /* Steps 3..5: a quarter to the member, the rest to the others. */
    CHECK(skmd_part_sweep_step(&l, 4, 2, &member, &share, others) == 1);
    CHECK(member == 1 && share == 16 && others[0] && !others[1] && others[2]);
    /* Over after sizes x members steps. */
    CHECK(skmd_part_sweep_step(&l, 6, 2, &member, &share, others) == 0);
    /* A member that cannot take a share this launch: no step. */
    unsigned char no1[4] = {1, 0, 1, 0};
    l.eligible = no1;
    CHECK(skmd_part_sweep_step(&l, 1, 2, &member, &share, others) == 0);
    /* Alone among the eligible: the whole launch at every size; tiny launches get 1. */
    unsigned char only0[4] = {1, 0, 0, 0};
    l.eligible = only0;
    CHECK(skmd_part_sweep_step(&l, 3, 2, &member, &share, others) == 1 && share == 64);
    l.eligible = three;
    l.total = 2;
    CHECK(skmd_part_sweep_step(&l, 3, 2, &member, &share, others) == 1 && share == 1);
}

static void test_cold_start(void)
{
    struct skmd_part_table t[4] = {flat(0, 0), flat(0, 0), flat(0, 0), flat(0, 0)};
    struct skmd_part_launch l = launch4(320, t, all4);
    unsigned char rated[4] = {0, 0, 0, 0};
    uint64_t count[4] = {7, 7, 7, 7};
    struct skmd_part_cold c;
    /* First launch, nothing rated: the first GPU takes the rest; a probe of 320/32 on
     * GPU 3 and on the bulk member's twin 2 (no twin has a figure for its link), the
     * CPU's beside them 10/32, at least 1. */
    CHECK(skmd_part_cold_start(&l, rated, 1, count, &c) == 1);
    CHECK(c.bulk == 1 && c.why == SKMD_PART_BULK_PREFERRED_GPU && c.probe == 10);
    CHECK(c.nprobed == 3 && c.probed[0] && !c.probed[1] && c.probed[2] && c.probed[3]);
    CHECK(count[0] == 1 && count[1] == 299 && count[2] == 10 && count[3] == 10);
    CHECK(c.rest == 299 && c.nunmeasured == 4 && c.probe_of[0] == 1 && c.probe_of[1] == 0);
    /* A larger launch: the CPU's probe is 1/32 of the GPUs'. */
    l.total = 32768;
    CHECK(skmd_part_cold_start(&l, rated, 1, count, &c) == 1);
    CHECK(count[0] == 32 && count[2] == 1024 && count[3] == 1024 &&
          count[1] == 32768 - 32 - 2048);
    l.total = 320;
    /* A figure for twin 2's link, or for its twin 1's (lent), already (another kernel's
     * probe, or the database): its twin's rates do, no probe. */
    static const unsigned char timed2[4] = {0, 0, 1, 0}, timed1[4] = {0, 1, 0, 0},
                               timed3[4] = {0, 0, 0, 1};
    l.link_known = timed2;
    CHECK(skmd_part_cold_start(&l, rated, 1, count, &c) == 1);
    CHECK(c.nprobed == 2 && !c.probed[2] && count[1] == 309 && count[2] == 0);
    l.link_known = timed1;
    CHECK(skmd_part_cold_start(&l, rated, 1, count, &c) == 1);
    CHECK(c.nprobed == 2 && !c.probed[2] && c.probed[3]);
    /* GPU 3's figure is not a twin's: twin 2 is still probed. */
    l.link_known = timed3;
    CHECK(skmd_part_cold_start(&l, rated, 1, count, &c) == 1);
    CHECK(c.nprobed == 3 && c.probed[2] && c.probed[3]);
    l.link_known = NULL;
    /* Nothing learnt: no probe, everything on the bulk member. */
    CHECK(skmd_part_cold_start(&l, rated, 0, count, &c) == 1);
    CHECK(c.probe == 0 && count[0] == 0 && count[1] == 320 && count[2] == 0 && count[3] == 0);
    /* Next launch: GPU 1 and the CPU rated (2 by its twin); GPU 3 still unrated gets the
     * probe, the rest is the caller's to split among the rated ones. */
    unsigned char rated2[4] = {1, 1, 1, 0};
    memset(count, 0, sizeof count);
    CHECK(skmd_part_cold_start(&l, rated2, 1, count, &c) == 1);
    CHECK(c.bulk == -1 && c.why == SKMD_PART_BULK_RATED && c.nprobed == 1 && c.probed[3]);
    CHECK(c.rest == 310 && count[3] == 10 && count[0] == 0 && count[1] == 0);
    /* Only CPUs: the bulk member is the fastest by the prediction, else the preferred. */
    static const unsigned char cpus[4] = {1, 1, 1, 1};
    static const int lone[4] = {0, 0, 0, 0};
    l.on_host = cpus;
    l.twin_group = lone;
    t[2] = flat(5, 0);
    CHECK(skmd_part_cold_start(&l, rated, 1, count, &c) == 1);
    CHECK(c.bulk == 2 && c.why == SKMD_PART_BULK_PREDICTED && c.nprobed == 3);
    t[2] = flat(0, 0);
    CHECK(skmd_part_cold_start(&l, rated, 1, count, &c) == 1);
    CHECK(c.bulk == 0 && c.why == SKMD_PART_BULK_PREFERRED);
    /* Twins on the host's cores share one measurement: the bulk member's twin 1 and the
     * probed 2's twin 3 get no probe. */
    static const int host_twins[4] = {1, 1, 3, 3};
    l.twin_group = host_twins;
    CHECK(skmd_part_cold_start(&l, rated, 1, count, &c) == 1);
    CHECK(c.bulk == 0 && c.nprobed == 1 && c.probed[2] && !c.probed[1] && !c.probed[3]);
    /* Fewer work-groups than members: no cold start, counts untouched. */
    l.total = 3;
    uint64_t kept[4] = {1, 1, 1, 0};
    memcpy(count, kept, sizeof count);
    CHECK(skmd_part_cold_start(&l, rated, 1, count, &c) == 0);
    CHECK(!memcmp(count, kept, sizeof count));
}

static void test_idle_probe(void)
{
    /* Two GPUs measured at 100 work-groups/ms; the decision gives all 1024 to member 0. */
    struct skmd_part_table t[4] = {flat(100, 3), flat(100, 3), flat(0, 0), flat(0, 0)};
    struct skmd_part_launch l = two_gpus(1024, t);
    double launch_ms[2] = {0.1, 0.1};
    unsigned char ran[2] = {1, 1};
    uint64_t count[2] = {1024, 0};
    int turn = 0;
    struct skmd_part_idle p;
    /* Not due: the 63rd or 32nd launch, a guard's whole sample, nothing learnt. */
    CHECK(skmd_part_idle_probe(&l, 1, 62, -1, launch_ms, ran, &turn, count, &p) ==
          SKMD_PART_PROBE_NONE);
    CHECK(skmd_part_idle_probe(&l, 1, 31, -1, launch_ms, ran, &turn, count, &p) ==
          SKMD_PART_PROBE_NONE);
    CHECK(skmd_part_idle_probe(&l, 1, 63, SKMD_PART_RUN_WHOLE_SAMPLE, launch_ms, ran, &turn,
                               count, &p) == SKMD_PART_PROBE_NONE);
    CHECK(skmd_part_idle_probe(&l, 0, 63, -1, launch_ms, ran, &turn, count, &p) ==
          SKMD_PART_PROBE_NONE);
    CHECK(count[0] == 1024 && count[1] == 0 && turn == 0);
    /* Due on the 64th: the largest power of two that runs in half of the donor's
     * 10.24 + 0.1 ms is 256 work-groups. */
    CHECK(skmd_part_idle_probe(&l, 1, 63, SKMD_PART_RUN_SPLIT, launch_ms, ran, &turn, count,
                               &p) == SKMD_PART_PROBE_RUN);
    CHECK(p.donor == 0 && p.idle == 1 && p.size == 256 && turn == 0);
    CHECK(count[0] == 768 && count[1] == 256);
    /* A member that never ran a part of the kernel waits for launch 1024. */
    uint64_t again[2] = {1024, 0};
    ran[1] = 0;
    CHECK(skmd_part_idle_probe(&l, 1, 127, -1, launch_ms, ran, &turn, again, &p) ==
          SKMD_PART_PROBE_UNBUILT);
    CHECK(p.unbuilt == 1 && again[0] == 1024 && again[1] == 0);
    CHECK(skmd_part_idle_probe(&l, 1, 1087, -1, launch_ms, ran, &turn, again, &p) ==
          SKMD_PART_PROBE_RUN);
    /* A probe that would mostly measure the idle member's launch latency: none. */
    uint64_t slow[2] = {1024, 0};
    double long_latency[2] = {0.1, 4.0};
    CHECK(skmd_part_idle_probe(&l, 1, 1151, -1, long_latency, ran, &turn, slow, &p) ==
          SKMD_PART_PROBE_NO_FIT);
    CHECK(slow[0] == 1024 && slow[1] == 0);
    /* An idle member with no measured rate is not probed. */
    t[1] = flat(100, 0);
    CHECK(skmd_part_idle_probe(&l, 1, 1215, -1, launch_ms, ran, &turn, slow, &p) ==
          SKMD_PART_PROBE_NONE);
}

static void test_first_shares(void)
{
    /* A first share into a measured table is no sample: nothing moves. */
    struct skmd_part_table t = flat(100, 2), before = flat(0, 0);
    unsigned char provisional = 0;
    CHECK(skmd_part_observe_share(&t, &before, &provisional, 1, 64, 6.4, 0.3) ==
          SKMD_PART_NO_SAMPLE);
    CHECK(t.rate[6] == 100 && t.samples[6] == 2 && !provisional);
    /* Into an empty table it is taken (the cold start needs a rate), provisionally. */
    struct skmd_part_table empty = flat(0, 0);
    t = empty;
    CHECK(skmd_part_observe_share(&t, &before, &provisional, 1, 64, 6.4, 0.3) == SKMD_PART_OK);
    CHECK(provisional && skmd_part_table_measured(&t) && !skmd_part_table_measured(&before));
    CHECK(t.rate[6] > 9.9 && t.rate[6] < 10.1);
    /* The next share replaces it rather than blending with it: 100 work-groups/ms. */
    CHECK(skmd_part_observe_share(&t, &before, &provisional, 0, 64, 0.64, 0.3) ==
          SKMD_PART_OK);
    CHECK(!provisional && t.rate[6] > 99 && t.rate[6] < 101 && t.samples[6] == 1);
    /* Then samples blend: a slower one moves the rate only part of the way. */
    CHECK(skmd_part_observe_share(&t, &before, &provisional, 0, 64, 1.28, 0.3) ==
          SKMD_PART_OK);
    CHECK(t.rate[6] > 50 && t.rate[6] < 99);
    CHECK(skmd_part_observe_share(&t, &before, &provisional, 0, 64, -1.0, 0.3) ==
          SKMD_PART_EINVAL);
}

static void test_time_whole(void)
{
    CHECK(skmd_part_time_whole(0, -1, 0));
    CHECK(!skmd_part_time_whole(3, -1, 0));
    CHECK(skmd_part_time_whole(3, SKMD_PART_RUN_WHOLE_SAMPLE, 0));
    CHECK(!skmd_part_time_whole(3, SKMD_PART_RUN_WHOLE, 0));
    CHECK(skmd_part_time_whole(3, -1, 1));
}

static void test_keep_home(void)
{
    /* Two GPUs; the inputs are on member 0; the decision runs the launch on member 1. */
    struct skmd_part_table t[4] = {flat(100, 2), flat(140, 2), flat(0, 0), flat(0, 0)};
    struct skmd_part_launch l = two_gpus(1000, t);
    double in[2] = {1.0, 0.0};
    int away = 0;
    uint64_t count[2] = {0, 1000};
    /* 1.4x faster is not worth moving the inputs: home. */
    skmd_part_keep_home(&l, in, &away, count);
    CHECK(count[0] == 1000 && count[1] == 0 && away == 0);
    /* 1.6x: it leaves home and says so. */
    t[1] = flat(160, 2);
    count[0] = 0, count[1] = 1000;
    skmd_part_keep_home(&l, in, &away, count);
    CHECK(count[1] == 1000 && away == 2);
    /* Away, it stays while 1.2x faster (1.3x here), not when 1.1x. */
    t[1] = flat(130, 2);
    skmd_part_keep_home(&l, in, &away, count);
    CHECK(count[1] == 1000 && away == 2);
    t[1] = flat(110, 2);
    skmd_part_keep_home(&l, in, &away, count);
    CHECK(count[0] == 1000 && count[1] == 0 && away == 0);
    /* A home without a measured rate keeps nothing. */
    t[0] = flat(100, 0);
    count[0] = 0, count[1] = 1000;
    skmd_part_keep_home(&l, in, &away, count);
    CHECK(count[1] == 1000 && count[0] == 0);
    /* A split is left alone. */
    t[0] = flat(100, 2);
    uint64_t split[2] = {500, 500};
    skmd_part_keep_home(&l, in, &away, split);
    CHECK(split[0] == 500 && split[1] == 500);
}

static void test_whole_sample_dev(void)
{
    struct skmd_part_table t[4] = {flat(100, 2), flat(130, 2), flat(0, 0), flat(0, 0)};
    struct skmd_part_launch l = two_gpus(1000, t);
    l.exec = 1; /* the home of inputs spread evenly: the queue's member */
    double spread[2] = {0.5, 0.5};
    /* No sample yet: the fastest. */
    CHECK(skmd_part_whole_sample_dev(&l, spread, 0, -1) == 1);
    /* Member 0 sampled before stays unless the best is 1.5x faster. */
    CHECK(skmd_part_whole_sample_dev(&l, spread, 0, 0) == 0);
    t[1] = flat(160, 2);
    CHECK(skmd_part_whole_sample_dev(&l, spread, 0, 0) == 1);
    /* The inputs on member 0 and member 1 only 1.3x faster: member 0, the home. */
    double home0[2] = {1.0, 0.0};
    t[1] = flat(130, 2);
    CHECK(skmd_part_whole_sample_dev(&l, home0, 0, -1) == 0);
    /* Nothing measured: none. */
    t[0] = flat(100, 0), t[1] = flat(130, 0);
    CHECK(skmd_part_whole_sample_dev(&l, spread, 0, 0) == -1);
}

static void test_reuse(void)
{
    int left = 0;
    CHECK(!skmd_part_reuse_take(&left, 1));
    skmd_part_reuse_keep(&left);
    int taken = 0;
    while (skmd_part_reuse_take(&left, 1))
        taken++;
    CHECK(taken == SKMD_PART_REUSE_LAUNCHES && left == 0);
    /* A launch that asks something else ends it. */
    skmd_part_reuse_keep(&left);
    CHECK(!skmd_part_reuse_take(&left, 0) && left == 0 && !skmd_part_reuse_take(&left, 1));
    /* A table moving within the drift keeps it, beyond ends it, from nothing ends it. */
    skmd_part_reuse_keep(&left);
    skmd_part_reuse_moved(&left, 100.0, 102.0);
    CHECK(left == SKMD_PART_REUSE_LAUNCHES);
    skmd_part_reuse_moved(&left, 100.0, 96.0);
    CHECK(left == 0);
    skmd_part_reuse_keep(&left);
    skmd_part_reuse_moved(&left, 0.0, 50.0);
    CHECK(left == 0);
    skmd_part_reuse_keep(&left);
    skmd_part_reuse_end(&left);
    CHECK(left == 0);
}

static void test_guard_applies(void)
{
    CHECK(skmd_part_guard_applies(2, 1, SKMD_PART_POLICY_SKMD));
    CHECK(skmd_part_guard_applies(3, 1, SKMD_PART_POLICY_PAPER));
    CHECK(!skmd_part_guard_applies(1, 1, SKMD_PART_POLICY_SKMD));
    CHECK(!skmd_part_guard_applies(2, 0, SKMD_PART_POLICY_SKMD));
    CHECK(!skmd_part_guard_applies(2, 1, SKMD_PART_POLICY_LINEAR));
    /* The CPU with a share and two GPUs that can take the launch: the other split differs. */
    struct skmd_part_table t[4] = {flat(1, 1), flat(1, 1), flat(1, 1), flat(1, 1)};
    unsigned char three[4] = {1, 1, 1, 0};
    struct skmd_part_launch l = launch4(100, t, three);
    uint64_t with_cpu[4] = {10, 45, 45, 0}, without[4] = {0, 50, 50, 0};
    CHECK(skmd_part_offhost_differs(&l, with_cpu));
    CHECK(!skmd_part_offhost_differs(&l, without));
    unsigned char one_gpu[4] = {1, 1, 0, 0};
    l.eligible = one_gpu;
    CHECK(!skmd_part_offhost_differs(&l, with_cpu));
    /* A member's first share keeps the launch out of the samples. */
    unsigned char first[4] = {0, 0, 1, 0};
    CHECK(skmd_part_guard_sample_clean(4, without, (unsigned char[4]){0}));
    CHECK(!skmd_part_guard_sample_clean(4, without, first));
    uint64_t away_from2[4] = {50, 50, 0, 0};
    CHECK(skmd_part_guard_sample_clean(4, away_from2, first));
}

/* One launch through the guard: the split takes split_ms, whole on any member whole_ms.
 * Returns the run; *changed: what skmd_part_guard_observe said. */
static int guard_launch(struct skmd_part_guard *g, double split_ms, double whole_ms,
                        int *changed)
{
    int dev, run = skmd_part_guard_choose(g, 1, 0, &dev);
    int whole = run == SKMD_PART_RUN_WHOLE || run == SKMD_PART_RUN_WHOLE_SAMPLE;
    *changed = skmd_part_guard_observe(g, run, dev, 0, whole ? whole_ms : split_ms);
    return run;
}

static void test_guard_gives_up_and_retries(void)
{
    struct skmd_part_guard g;
    skmd_part_guard_init(&g);
    int changed, went_whole_at = -1;
    /* The split (13 ms) loses to member 1 whole (10 ms): whole samples at launches 1 and 5,
     * the verdict once both have enough samples. */
    for (int n = 0; n < 6; n++) {
        int run = guard_launch(&g, 13.0, 10.0, &changed);
        CHECK(run == (n == 1 || n == 5 ? SKMD_PART_RUN_WHOLE_SAMPLE : SKMD_PART_RUN_SPLIT));
        if (changed == 1 && went_whole_at < 0)
            went_whole_at = n;
    }
    CHECK(went_whole_at == 5 && g.whole_mode && g.whole_dev == 1);
    /* Whole until the retry 2^5 launches later. */
    CHECK(g.retry_at == 6 + 32);
    for (int n = 6; n < 38; n++)
        CHECK(guard_launch(&g, 13.0, 10.0, &changed) == SKMD_PART_RUN_WHOLE && !changed);
    /* The retried split is no faster: whole again, the next retry twice as far. */
    CHECK(guard_launch(&g, 13.0, 10.0, &changed) == SKMD_PART_RUN_RETRY && changed == 0);
    CHECK(g.whole_mode && g.retry_at == 39 + 64 && g.backoff == SKMD_PART_GUARD_FIRST_BACKOFF + 2);
    for (int n = 39; n < 103; n++)
        CHECK(guard_launch(&g, 8.0, 10.0, &changed) == SKMD_PART_RUN_WHOLE);
    /* The retry measures the split 5% faster or more: back to the split. */
    CHECK(guard_launch(&g, 9.4, 10.0, &changed) == SKMD_PART_RUN_RETRY && changed == 1);
    CHECK(!g.whole_mode && g.split_n == 1);
    CHECK(guard_launch(&g, 9.4, 10.0, &changed) == SKMD_PART_RUN_SPLIT);
    /* A stored state is bounded: no longer whole than the guard itself would stay. */
    g.backoff = SKMD_PART_GUARD_MAX_BACKOFF + 3;
    g.launches = 1000;
    g.retry_at = 1000 + 5000;
    skmd_part_guard_bound(&g);
    CHECK(g.backoff == SKMD_PART_GUARD_MAX_BACKOFF);
    CHECK(g.retry_at == 1000 + ((uint64_t)1 << SKMD_PART_GUARD_MAX_BACKOFF));
    g.retry_at = 1010;
    skmd_part_guard_bound(&g);
    CHECK(g.retry_at == 1010);
}

int main(void)
{
    test_members();
    test_sweep();
    test_cold_start();
    test_idle_probe();
    test_first_shares();
    test_time_whole();
    test_keep_home();
    test_whole_sample_dev();
    test_reuse();
    test_guard_applies();
    test_guard_gives_up_and_retries();
    return check_report("test_launch_policy");
}
