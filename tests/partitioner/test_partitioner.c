/* Unit tests of partitioner/: the SKMD paper's cases, size variation, extreme inputs,
 * the comparison policies, refinement with hysteresis and the cold start. */
#include "skmd_part.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../common/check.h"

/* A device whose table has one rate in every range. */
static struct skmd_part_device flat_device(double rate, int link, double bytes_per_ms)
{
    struct skmd_part_device d;
    memset(&d, 0, sizeof(d));
    for (int k = 0; k < SKMD_PART_RANGES; k++) {
        d.table.rate[k] = rate;
        d.table.samples[k] = 1;
    }
    d.link = link;
    for (int dir = 0; dir < 2; dir++)
        for (int mem = 0; mem < 2; mem++) {
            d.curve[dir][mem].latency_ms = 0.01;
            d.curve[dir][mem].bytes_per_ms = bytes_per_ms;
        }
    d.peak_rate = rate;
    return d;
}

static struct skmd_part_problem problem(const struct skmd_part_device *dev, int ndev,
                                        uint64_t total)
{
    struct skmd_part_problem p;
    memset(&p, 0, sizeof(p));
    p.ndev = ndev;
    p.dev = dev;
    p.total_wg = total;
    p.host_dev = 0;
    p.mem = SKMD_PART_PINNED;
    p.output_contiguous = 1;
    return p;
}

/* Every work-group exactly once, in contiguous ranges laid out in `order`, finite times. */
static int well_formed(const struct skmd_part_result *r, uint64_t total)
{
    uint64_t next = 0;
    for (int i = 0; i < r->ndev; i++) {
        int d = r->order[i];
        if (d < 0 || d >= r->ndev || r->start[d] != next)
            return 0;
        if (r->count[d] > total - next)
            return 0;
        next += r->count[d];
        if (!isfinite(r->est_ms[d]) || r->est_ms[d] < 0.0)
            return 0;
    }
    return next == total && isfinite(r->overall_ms) && r->overall_ms >= 0.0;
}

/* Fig. 8: a slower GPU (still 4x the CPU) sharing the fast GPU's link gets nothing, since
 * each GPU needs a whole 50 MB buffer over that link; the CPU gets more than a
 * throughput-proportional split would give it. */
static void test_fig8_shared_link(void)
{
    struct skmd_part_device dev[3] = {
        flat_device(10.0, -1, 0.0),  /* host CPU, zero-copy */
        flat_device(100.0, 0, 1e6),  /* fast GPU */
        flat_device(40.0, 0, 1e6),   /* slower GPU behind the same link */
    };
    struct skmd_part_problem p = problem(dev, 3, 8192);
    p.in_fixed = 5e7;   /* 50 ms over the link for each GPU that gets work */
    p.in_per_wg = 1e4;  /* 0.01 ms per work-group each way */
    p.out_per_wg = 1e4;
    p.output_contiguous = 0;
    p.merge_ms_per_byte = 1e-8;
    struct skmd_part_result r, lin;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_OK);
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_LINEAR, &lin) == SKMD_PART_OK);
    CHECK(well_formed(&r, 8192));
    CHECK(r.count[2] == 0);
    CHECK(r.count[1] > 0);
    CHECK(r.count[0] > lin.count[0]);
    CHECK(r.overall_ms < lin.overall_ms);
    CHECK(r.overall_ms < 8192 / 10.0);
    /* The same slow GPU on a link of its own is worth using. */
    dev[2].link = 1;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_OK);
    CHECK(r.count[2] > 0);
}

/* Two GPUs with links of their own behind a host that carries less than both links
 * together: a transfer-bound launch split between them costs what the host carries, from
 * "no limit" (each link alone) down to one link's rate (as if the links were one); one
 * GPU alone is never held back by it. */
static void test_host_capacity(void)
{
    struct skmd_part_device dev[2] = {
        flat_device(1e6, 0, 3e7), /* 30 GB/s each, kernels next to free */
        flat_device(1e6, 1, 3e7),
    };
    struct skmd_part_problem p = problem(dev, 2, 4096);
    p.host_dev = -1;
    p.in_per_wg = 16384.0; /* 64 MiB in all, 2.2 ms over one link */
    uint64_t half[2] = {2048, 2048}, whole[2] = {4096, 0};
    double free_ms = skmd_part_estimate(&p, half, NULL);
    double alone_ms = skmd_part_estimate(&p, whole, NULL);
    p.host_bytes_per_ms = 4.5e7; /* 1.5 links */
    double some_ms = skmd_part_estimate(&p, half, NULL);
    CHECK(skmd_part_estimate(&p, whole, NULL) == alone_ms);
    p.host_bytes_per_ms = 3e7; /* one link */
    double one_ms = skmd_part_estimate(&p, half, NULL);
    CHECK(free_ms < some_ms && some_ms < one_ms);
    CHECK(fabs(some_ms - 4096 * 16384.0 / 4.5e7) < 0.05);
    dev[1].link = 0; /* one shared link: the same price as a host that carries one link */
    p.host_bytes_per_ms = 0;
    CHECK(fabs(skmd_part_estimate(&p, half, NULL) - one_ms) < 0.05);
    /* The decision follows: split while the host carries more than one link, either way
     * at one link (a kernel next to free gains nothing from a second GPU then). */
    dev[1].link = 1;
    struct skmd_part_result r;
    p.host_bytes_per_ms = 4.5e7;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_OK);
    CHECK(well_formed(&r, 4096) && r.count[0] > 0 && r.count[1] > 0);
    CHECK(r.overall_ms < alone_ms);
    p.host_bytes_per_ms = -1;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_EINVAL);
}

/* The CPU computing its share on the host's cores slows the staging copies of four GPUs'
 * inputs (measured: the host carries a quarter of its idle rate meanwhile): a share that
 * pays while the copies run at full speed then costs the GPUs more than it takes off
 * them, and the CPU gets nothing. One GPU moving bytes is never held back by the host. */
static void test_host_busy(void)
{
    struct skmd_part_device dev[5] = {
        flat_device(20.0, -1, 0.0), /* the CPU: zero-copy, its kernels on the host's cores */
        flat_device(400.0, 1, 5e7), flat_device(400.0, 2, 5e7),
        flat_device(400.0, 3, 5e7), flat_device(400.0, 4, 5e7),
    };
    dev[0].on_host_cores = 1;
    struct skmd_part_problem p = problem(dev, 5, 16384);
    p.in_fixed = 2e7; /* 20 MB to every GPU that takes a share: 8 ms for four at 10 GB/s */
    p.host_bytes_per_ms = 1e7;
    struct skmd_part_result idle, busy;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &idle) == SKMD_PART_OK);
    CHECK(well_formed(&idle, 16384) && idle.count[0] > 0);
    p.host_busy_bytes_per_ms = 1e7; /* no slower while busy: the same decision */
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &busy) == SKMD_PART_OK);
    CHECK(busy.count[0] == idle.count[0]);
    p.host_busy_bytes_per_ms = 2.5e6;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &busy) == SKMD_PART_OK);
    CHECK(well_formed(&busy, 16384) && busy.count[0] == 0);
    for (int d = 1; d < 5; d++)
        CHECK(busy.count[d] > 0);
    /* A forced CPU share of 328 work-groups holds the cores for 16.4 ms, in which the host
     * carries 41 of the 80 MB; the rest at the idle rate: inputs in at 20.3 ms, then the
     * GPUs' 4014 work-groups each (10.035 ms). */
    uint64_t forced[5] = {328, 4014, 4014, 4014, 4014};
    CHECK(fabs(skmd_part_estimate(&p, forced, NULL) - (20.3 + 10.035)) < 0.05);
    /* The busy rate alone (every window so far had the CPU computing) says as much. */
    p.host_bytes_per_ms = 0;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &busy) == SKMD_PART_OK);
    CHECK(well_formed(&busy, 16384) && busy.count[0] == 0);
    p.host_bytes_per_ms = 1e7;
    /* The CPU beside one GPU: nothing else moves, the GPU's own link prices it. */
    uint64_t pair[5] = {328, 16056, 0, 0, 0};
    double pair_ms = skmd_part_estimate(&p, pair, NULL);
    p.host_busy_bytes_per_ms = 0;
    CHECK(skmd_part_estimate(&p, pair, NULL) == pair_ms);
    p.host_busy_bytes_per_ms = -1;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &busy) == SKMD_PART_EINVAL);
}

/* A kernel whose input must go whole to a GPU (unknown read footprint) takes longer to
 * send than the CPU takes to run it: it stays on the CPU. */
static void test_transfer_bound_stays_on_cpu(void)
{
    struct skmd_part_device dev[2] = {
        flat_device(1666.0, -1, 0.0),
        flat_device(20000.0, 0, 1e7),
    };
    struct skmd_part_problem p = problem(dev, 2, 4096);
    p.in_fixed = 4096.0 * 8192.0; /* 33.5 MB: 3.4 ms over the link; the CPU needs 2.5 ms */
    p.out_per_wg = 4096.0;
    struct skmd_part_result r;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_OK);
    CHECK(well_formed(&r, 4096));
    CHECK(r.count[0] == 4096 && r.count[1] == 0);
    /* The linear policy, blind to transfers, would give the GPU most of it. */
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_LINEAR, &r) == SKMD_PART_OK);
    CHECK(r.count[1] > 3000);
}

/* A transfer-bound share that runs in pieces (its inputs moving while earlier pieces
 * compute) costs max(t, c) + min(t, c) / k, not t + c: priced so, the GPU behind a slow
 * link gets more of the launch than priced serially; with one piece nothing changes. */
static void test_pieces_overlap(void)
{
    struct skmd_part_device dev[2] = {
        flat_device(1000.0, -1, 0.0), /* CPU: 8.2 ms for everything */
        flat_device(2500.0, 0, 1e7),  /* GPU: kernel 0.4 us, transfer 0.82 us per group */
    };
    const uint64_t total = 8192;
    struct skmd_part_problem p = problem(dev, 2, total);
    p.in_per_wg = 8192.0;
    struct skmd_part_result serial, overlap, one, defaults;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &defaults) == SKMD_PART_OK);
    dev[1].max_pieces = 1; /* one piece: the same model as before */
    dev[1].piece_bytes = 4 << 20;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &one) == SKMD_PART_OK);
    CHECK(memcmp(one.count, defaults.count, sizeof one.count) == 0);
    CHECK(memcmp(one.est_ms, defaults.est_ms, sizeof one.est_ms) == 0);
    CHECK(one.overall_ms == defaults.overall_ms);
    serial = one;
    dev[1].max_pieces = 8; /* as the runtime's automatic choice: 4 MiB a piece, 8 at most */
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &overlap) == SKMD_PART_OK);
    CHECK(well_formed(&serial, total) && well_formed(&overlap, total));
    /* Serially the GPU's share balances at about 3690 groups, overlapped at about 4380. */
    CHECK(serial.count[1] > 3500 && serial.count[1] < 3900);
    CHECK(overlap.count[1] > serial.count[1] + 400);
    CHECK(overlap.overall_ms < serial.overall_ms);
    /* The GPU's time is the transfer plus an eighth of the kernel (latency 0.01 ms). */
    double t = 0.01 + (double)overlap.count[1] * 8192.0 / 1e7;
    double c = (double)overlap.count[1] / 2500.0;
    CHECK(fabs(overlap.est_ms[1] - (t + c / 8)) < 1e-9);
    /* The same shares estimated: lower with pieces than without. */
    double with_pieces = skmd_part_estimate(&p, serial.count, NULL);
    dev[1].max_pieces = 0;
    CHECK(with_pieces < skmd_part_estimate(&p, serial.count, NULL));
    /* A buffer every group reads whole: the first piece would bring most of the bytes, so
     * the share runs in one piece and the decision is the serial one. */
    p.in_per_wg = 0.0;
    p.in_fixed = 32e6;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &defaults) == SKMD_PART_OK);
    dev[1].max_pieces = 8;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &overlap) == SKMD_PART_OK);
    CHECK(memcmp(overlap.count, defaults.count, sizeof overlap.count) == 0);
    /* The zero-copy CPU moves nothing: pieces change nothing there. */
    dev[0].max_pieces = 8;
    struct skmd_part_result cpu;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &cpu) == SKMD_PART_OK);
    CHECK(memcmp(cpu.count, overlap.count, sizeof cpu.count) == 0);
    dev[1].piece_bytes = -1.0;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &cpu) == SKMD_PART_EINVAL);
}

/* The pipeline's time and the piece count, as pieces.c runs shares. */
static void test_pieces_model(void)
{
    CHECK(skmd_part_pieces_ms(3.0, 2.0, 1) == 5.0);
    CHECK(skmd_part_pieces_ms(3.0, 2.0, 0) == 5.0);
    CHECK(fabs(skmd_part_pieces_ms(8.0, 2.0, 4) - 8.5) < 1e-12);
    CHECK(fabs(skmd_part_pieces_ms(2.0, 8.0, 4) - 8.5) < 1e-12);
    struct skmd_part_device d = flat_device(1.0, 0, 1e6);
    CHECK(skmd_part_pieces_of(&d, 100, 64e6, 0) == 1); /* max_pieces 0: never */
    d.max_pieces = 8;
    d.piece_bytes = 4 << 20;
    CHECK(skmd_part_pieces_of(&d, 100, 64e6, 0) == 8);
    CHECK(skmd_part_pieces_of(&d, 100, 3.0 * (4 << 20), 0) == 3);
    CHECK(skmd_part_pieces_of(&d, 100, 1.5 * (4 << 20), 0) == 1); /* under 2 pieces' worth */
    CHECK(skmd_part_pieces_of(&d, 5, 64e6, 0) == 5);              /* at most one a group */
    CHECK(skmd_part_pieces_of(&d, 1, 64e6, 0) == 1);
    CHECK(skmd_part_pieces_of(&d, 100, 64e6, 40e6) == 1); /* the first piece brings most */
    CHECK(skmd_part_pieces_of(&d, 100, 64e6, 20e6) == 8);
    d.piece_bytes = 0; /* a forced count: always max_pieces (not more than the groups) */
    CHECK(skmd_part_pieces_of(&d, 100, 1.0, 0) == 8);
    CHECK(skmd_part_pieces_of(&d, 100, 0.0, 0) == 1); /* nothing to move */
    CHECK(skmd_part_pieces_of(NULL, 100, 64e6, 0) == 1);
}

/* A compute-bound kernel with nothing to move: shares follow throughput 1:3:6. */
static void test_compute_bound_by_throughput(void)
{
    struct skmd_part_device dev[3] = {
        flat_device(10.0, -1, 0.0),
        flat_device(30.0, 0, 1e6),
        flat_device(60.0, 1, 1e6),
    };
    const uint64_t total = 20000;
    struct skmd_part_problem p = problem(dev, 3, total);
    struct skmd_part_result r;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_OK);
    CHECK(well_formed(&r, total));
    double g = (double)r.granularity;
    CHECK(fabs((double)r.count[0] - 0.1 * total) <= 2 * g);
    CHECK(fabs((double)r.count[1] - 0.3 * total) <= 2 * g);
    CHECK(fabs((double)r.count[2] - 0.6 * total) <= 2 * g);
    CHECK(r.granularity == 10); /* ceil(20000 / 2048) */
    struct skmd_part_result paper;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_PAPER, &paper) == SKMD_PART_OK);
    for (int d = 0; d < 3; d++) /* the published one-step descent reaches the same place */
        CHECK(fabs((double)paper.count[d] - (double)r.count[d]) <= 2 * g);
    CHECK(r.overall_ms <= total / 100.0 * 1.01 + 0.05);
}

/* Twins: two identical GPUs whose tables were measured at a wave's edge (one at 240
 * work-groups, the other at 272, a tenth slower) and one of which holds the inputs. Apart
 * they split unevenly; as twins their tables are pooled and they take equal shares. Twins
 * that a real cost sets apart (one link a thousand times slower, or a kernel rate a third
 * of the other's) keep uneven shares, and twins the search left whole stay whole. */
static void test_twins(void)
{
    struct skmd_part_device dev[2] = {flat_device(117.0, 0, 5e6), flat_device(107.0, 1, 5e6)};
    dev[0].resident_in = 1.0;
    const uint64_t total = 512;
    struct skmd_part_problem p = problem(dev, 2, total);
    p.host_dev = -1;
    p.in_per_wg = 4096.0;
    struct skmd_part_result apart, twins;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &apart) == SKMD_PART_OK);
    CHECK(well_formed(&apart, total) && apart.count[0] > apart.count[1] + 8);
    dev[0].twin_group = dev[1].twin_group = 1;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &twins) == SKMD_PART_OK);
    CHECK(well_formed(&twins, total) && twins.count[0] == 256 && twins.count[1] == 256);

    struct skmd_part_device slow[2] = {flat_device(117.0, 0, 5e6), flat_device(117.0, 1, 5e3)};
    slow[0].twin_group = slow[1].twin_group = 1;
    slow[0].resident_in = 1.0;
    p.dev = slow;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &twins) == SKMD_PART_OK);
    CHECK(well_formed(&twins, total) && twins.count[0] > twins.count[1] + 64);

    struct skmd_part_device busy[2] = {flat_device(100.0, 0, 5e6), flat_device(300.0, 1, 5e6)};
    busy[0].twin_group = busy[1].twin_group = 1;
    p.dev = busy;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &twins) == SKMD_PART_OK);
    CHECK(well_formed(&twins, total) && twins.count[1] > 2 * twins.count[0]);
    p.dev = slow;

    /* a launch whose inputs cost more than its kernel: whole on the twin that holds them */
    p.in_per_wg = 4e6;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &twins) == SKMD_PART_OK);
    CHECK(well_formed(&twins, total) && twins.count[0] == total);
    dev[0].twin_group = -1; /* malformed */
    p.dev = dev;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &twins) == SKMD_PART_EINVAL);
}

/* Size variation: a GPU slow on small shares gets nothing of a small launch and most of a
 * large one. */
static void test_size_variation(void)
{
    struct skmd_part_device dev[2] = {
        flat_device(20.0, -1, 0.0),
        flat_device(500.0, 0, 1e9),
    };
    for (int k = 0; k < SKMD_PART_RANGES; k++) {
        double r = 0.05 * ldexp(1.0, k); /* about 20 ms whatever the share, until 10^4 */
        dev[1].table.rate[k] = r < 500.0 ? r : 500.0;
    }
    struct skmd_part_problem p = problem(dev, 2, 64);
    struct skmd_part_result r;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_OK);
    CHECK(well_formed(&r, 64));
    CHECK(r.count[1] == 0);
    p.total_wg = 65536;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_OK);
    CHECK(well_formed(&r, 65536));
    CHECK(r.count[1] > 65536 / 2);
    CHECK(r.overall_ms < 65536 / 20.0 / 4);
}

/* The tolerance loop: one step of a large launch never pays on a GPU that only pays from
 * large shares on (a fixed cost per launch), doubled trial moves find it. */
static void test_tolerance_loop(void)
{
    struct skmd_part_device dev[2] = {
        flat_device(10.0, -1, 0.0),
        flat_device(40.0, 0, 1e9),
    };
    for (int k = 0; k < SKMD_PART_RANGES; k++) /* slow below 256 work-groups */
        dev[1].table.rate[k] = k < 8 ? 0.01 : 40.0;
    struct skmd_part_problem p = problem(dev, 2, 2048); /* granularity 1 */
    struct skmd_part_result r;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_OK);
    CHECK(well_formed(&r, 2048));
    CHECK(r.count[1] >= 256);
    CHECK(r.overall_ms < 2048 / 10.0 / 2);
}

/* Minimum first offload: a first share smaller than what pays for the merge is never
 * chosen; a merge costlier per work-group than the host's own work means no offload. */
static void test_min_first_offload(void)
{
    struct skmd_part_device dev[2] = {
        flat_device(10.0, -1, 0.0),
        flat_device(12.0, 0, 1e9),
    };
    struct skmd_part_problem p = problem(dev, 2, 2048);
    p.output_contiguous = 0;
    p.merge_fixed_ms = 50.0; /* pays from 50 / 0.1 = 500 work-groups on */
    struct skmd_part_result r;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_OK);
    CHECK(well_formed(&r, 2048));
    CHECK(r.count[1] >= 500);
    CHECK(r.overall_ms < 204.8);
    p.merge_fixed_ms = 0.0;
    p.out_per_wg = 1000.0;
    p.merge_ms_per_byte = 2e-4; /* 0.2 ms of merging per work-group, the CPU needs 0.1 */
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_OK);
    /* No shared split; the GPU alone (no merge: 171 ms) beats the CPU alone (205 ms). */
    CHECK(r.count[1] == 2048 && r.count[0] == 0);
    /* A GPU slower than the CPU at every size: all on the CPU. */
    for (int k = 0; k < SKMD_PART_RANGES; k++)
        dev[1].table.rate[k] = 9.0;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_OK);
    CHECK(r.count[1] == 0 && r.count[0] == 2048);
}

/* A device's launch latency is paid by every share, however small: vector_add on a CPU +
 * H100, where the GPU runs all 16384 groups in 0.13 ms and a PoCL CPU share costs 0.2 ms
 * whatever its size, must run on the GPU alone; without the latency the CPU gets a few
 * groups that look free. */
static void test_launch_latency(void)
{
    struct skmd_part_device dev[2] = {
        flat_device(16384.0 / 2.0, -1, 0.0),
        flat_device(16384.0 / 0.13, 0, 0.0),
    };
    struct skmd_part_problem p = problem(dev, 2, 16384);
    struct skmd_part_result r;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_OK);
    CHECK(r.count[0] > 0); /* no latency: the CPU takes a few groups */
    dev[0].launch_ms = 0.2;
    dev[1].launch_ms = 0.02;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_OK);
    CHECK(well_formed(&r, 16384));
    CHECK(r.count[0] == 0 && r.count[1] == 16384);
    CHECK(r.overall_ms > 0.14 && r.overall_ms < 0.16);
}

/* A device that takes every work-group needs no merge (its copy is the result): an
 * inexact write footprint must not keep a GPU ten times the CPU's speed idle. Whole
 * buffers of 16 MB each way at 8 GB/s, merged at 2 GB/s: the GPU alone is about 7 ms
 * (a merged GPU share would pay 8 ms more), the CPU alone 28 ms. */
static void test_lone_device_not_merged(void)
{
    struct skmd_part_device dev[2] = {
        flat_device(16384.0 / 28.0, -1, 0.0),
        flat_device(16384.0 / 3.0, 0, 8e6),
    };
    struct skmd_part_problem p = problem(dev, 2, 16384);
    p.output_contiguous = 0;
    p.in_fixed = p.out_fixed = 16e6;
    p.merge_fixed_ms = 0.05;
    p.merge_ms_per_byte = 1.0 / 2e6;
    uint64_t all_gpu[2] = {0, 16384}, most_gpu[2] = {1, 16383};
    double est[2];
    double alone = skmd_part_estimate(&p, all_gpu, est);
    CHECK(alone < 8.0);
    CHECK(skmd_part_estimate(&p, most_gpu, est) > alone + 8.0);
    struct skmd_part_result r;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_OK);
    CHECK(well_formed(&r, 16384));
    CHECK(r.count[1] == 16384 && r.count[0] == 0);
    CHECK(r.overall_ms < 8.0);
}

/* Chained launches: a GPU whose inputs are already current there and whose outputs stay
 * there pays no transfer, and takes a whole launch it would have lost to the CPU had
 * every launch moved 16 MB each way at 8 GB/s (jacobi_2d on a CPU + H100: the CPU takes
 * a step in 1.4 ms, the GPU in 0.15 ms). */
static void test_resident_inputs_outputs_stay(void)
{
    struct skmd_part_device dev[2] = {
        flat_device(16384.0 / 1.4, -1, 0.0),
        flat_device(16384.0 / 0.15, 0, 8e6),
    };
    struct skmd_part_problem p = problem(dev, 2, 16384);
    p.output_contiguous = 0;
    p.in_fixed = p.out_fixed = 16e6;
    p.merge_fixed_ms = 0.05;
    p.merge_ms_per_byte = 1.0 / 2e6;
    struct skmd_part_result r;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_OK);
    CHECK(r.count[0] == 16384); /* 4 ms of transfers: the CPU alone is faster */
    dev[1].resident_in = 1.0;
    p.outputs_stay = 1;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_OK);
    CHECK(well_formed(&r, 16384));
    CHECK(r.count[1] == 16384 && r.overall_ms < 0.2);
    /* A merged GPU share still brings its output back: 2 ms, plus the merge. */
    uint64_t half[2] = {8192, 8192};
    double est[2];
    CHECK(skmd_part_estimate(&p, half, est) > 2.0);
    dev[1].resident_in = 1.5; /* not a fraction */
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_EINVAL);
}

/* Inputs current only on another GPU come through it: its device-to-host link, then this
 * GPU's host-to-device link, and the source's link is busy meanwhile. Two GPUs at 40
 * work-groups/ms on 10 GB/s links, a 100 MB input resident on GPU 0 alone: priced at one
 * host link (10 ms) GPU 1 takes a share; priced through GPU 0 (20 ms, GPU 0 busy 10 ms)
 * GPU 0 runs everything; over a 50 GB/s peer copy GPU 1 takes a share again. */
static void test_remote_inputs(void)
{
    struct skmd_part_device dev[2] = {flat_device(40.0, 0, 1e7), flat_device(40.0, 1, 1e7)};
    struct skmd_part_problem p = problem(dev, 2, 1000);
    p.host_dev = -1;
    p.in_fixed = 1e8;
    p.outputs_stay = 1;
    dev[0].resident_in = 1.0;
    struct skmd_part_result r;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_OK);
    CHECK(well_formed(&r, 1000) && r.count[1] > 0);
    dev[1].remote_in = 1.0;
    dev[1].remote_from = 0;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_OK);
    CHECK(well_formed(&r, 1000) && r.count[0] == 1000);
    /* An even split: GPU 1 waits 20 ms for its input, GPU 0's link is busy 10 ms. */
    uint64_t half[2] = {500, 500};
    double est[2];
    skmd_part_estimate(&p, half, est);
    CHECK(fabs(est[1] - (20.02 + 12.5)) < 0.01 && fabs(est[0] - (10.01 + 12.5)) < 0.01);
    dev[1].peer_bytes_per_ms = 5e7;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_OK);
    CHECK(well_formed(&r, 1000) && r.count[1] > 300);
    /* Bad figures: more than all the bytes, a source that is no device. */
    dev[1].peer_bytes_per_ms = 0;
    dev[1].remote_in = 0.5;
    dev[1].resident_in = 0.6;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_EINVAL);
    dev[1].resident_in = 0;
    dev[1].remote_from = 2;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_EINVAL);
}

/* 1 to 16 devices with pseudo-random tables and links, some shared: always well formed,
 * and never worse than the equal and linear splits under the same model. */
static void test_many_devices(void)
{
    uint64_t seed = 12345;
    for (int ndev = 1; ndev <= SKMD_PART_MAX_DEVICES; ndev++) {
        struct skmd_part_device dev[SKMD_PART_MAX_DEVICES];
        for (int d = 0; d < ndev; d++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            double rate = 5.0 + (double)(seed >> 40) / (double)(1 << 24) * 200.0;
            dev[d] = flat_device(rate, d == 0 ? -1 : (int)(seed >> 62), 1e6);
        }
        for (uint64_t total = 1; total <= 1000000; total *= 37) {
            struct skmd_part_problem p = problem(dev, ndev, total);
            p.in_per_wg = 1000.0;
            p.out_per_wg = 500.0;
            struct skmd_part_result r, eq, lin, paper;
            CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_OK);
            CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_PAPER, &paper) == SKMD_PART_OK);
            CHECK(well_formed(&paper, total));
            CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_EQUAL, &eq) == SKMD_PART_OK);
            CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_LINEAR, &lin) == SKMD_PART_OK);
            CHECK(well_formed(&r, total));
            CHECK(well_formed(&eq, total));
            CHECK(well_formed(&lin, total));
            double slack = 1.001 * (1.0 + 2.0 * ndev * (double)r.granularity / (double)total);
            CHECK(r.overall_ms <= eq.overall_ms * slack + 1e-9);
            CHECK(r.overall_ms <= lin.overall_ms * slack + 1e-9);
        }
    }
}

static void test_extreme_inputs(void)
{
    struct skmd_part_device dev[3] = {
        flat_device(10.0, -1, 0.0),
        flat_device(50.0, 0, 0.0), /* zero bandwidth */
        flat_device(0.0, 1, 1e6),  /* zero rates: an empty table */
    };
    struct skmd_part_problem p = problem(dev, 3, 1);
    p.in_per_wg = 100.0;
    struct skmd_part_result r;
    /* One work-group. */
    for (int pol = 0; pol <= SKMD_PART_POLICY_PAPER; pol++) {
        CHECK(skmd_part_decide(&p, pol, &r) == SKMD_PART_OK);
        CHECK(well_formed(&r, 1));
    }
    /* Zero bandwidth and zero rates: those devices get nothing. */
    p.total_wg = 100000;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_OK);
    CHECK(well_formed(&r, 100000));
    CHECK(r.count[0] == 100000);
    CHECK(skmd_part_link_ms(&dev[1].curve[0][0], 100.0) >= SKMD_PART_NEVER_MS);
    /* Every table empty: everything on the host device, finite times. */
    struct skmd_part_device empty[2] = {flat_device(0.0, -1, 0.0), flat_device(0.0, 0, 1e6)};
    struct skmd_part_problem pe = problem(empty, 2, 5000);
    for (int pol = 0; pol <= SKMD_PART_POLICY_PAPER; pol++) {
        CHECK(skmd_part_decide(&pe, pol, &r) == SKMD_PART_OK);
        CHECK(well_formed(&r, 5000));
    }
    CHECK(skmd_part_decide(&pe, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_OK);
    CHECK(r.count[0] == 5000);
    /* Huge totals. */
    struct skmd_part_device two[2] = {flat_device(1e3, -1, 0.0), flat_device(3e3, 0, 1e9)};
    struct skmd_part_problem ph = problem(two, 2, UINT64_MAX);
    for (int pol = 0; pol <= SKMD_PART_POLICY_PAPER; pol++) {
        CHECK(skmd_part_decide(&ph, pol, &r) == SKMD_PART_OK);
        CHECK(well_formed(&r, UINT64_MAX));
    }
    ph.total_wg = (uint64_t)1 << 62;
    CHECK(skmd_part_decide(&ph, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_OK);
    CHECK(well_formed(&r, ph.total_wg));
    CHECK(r.count[1] > r.count[0]);
    /* No work: an empty decision. */
    ph.total_wg = 0;
    CHECK(skmd_part_decide(&ph, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_OK);
    CHECK(well_formed(&r, 0));
    /* Malformed problems are refused, not crashed on. */
    ph.total_wg = 10;
    struct skmd_part_problem bad = ph;
    bad.ndev = 0;
    CHECK(skmd_part_decide(&bad, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_EINVAL);
    bad.ndev = SKMD_PART_MAX_DEVICES + 1;
    CHECK(skmd_part_decide(&bad, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_EINVAL);
    bad = ph;
    bad.host_dev = 2;
    CHECK(skmd_part_decide(&bad, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_EINVAL);
    bad = ph;
    bad.in_per_wg = NAN;
    CHECK(skmd_part_decide(&bad, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_EINVAL);
    two[1].table.rate[3] = -1.0;
    CHECK(skmd_part_decide(&ph, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_EINVAL);
    two[1].table.rate[3] = INFINITY;
    CHECK(skmd_part_decide(&ph, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_EINVAL);
    two[1].table.rate[3] = 3e3;
    CHECK(skmd_part_decide(NULL, SKMD_PART_POLICY_SKMD, &r) == SKMD_PART_EINVAL);
    CHECK(skmd_part_decide(&ph, (enum skmd_part_policy)7, &r) == SKMD_PART_EINVAL);
    CHECK(strlen(skmd_part_strerror(SKMD_PART_EINVAL)) > 10);
}

static void test_link_model(void)
{
    struct skmd_part_link_curve c;
    memset(&c, 0, sizeof(c));
    c.latency_ms = 0.01;
    c.bytes_per_ms = 1e6;
    CHECK(skmd_part_link_ms(&c, 0.0) == 0.0);
    CHECK(fabs(skmd_part_link_ms(&c, 2e6) - 2.01) < 1e-12);
    /* Calibrated points: slow for small transfers, then linear; extended past the ends. */
    c.npoints = 3;
    double xb[3] = {4096, 1e6, 1e7}, yb[3] = {0.05, 0.2, 1.1};
    memcpy(c.point_bytes, xb, sizeof(xb));
    memcpy(c.point_ms, yb, sizeof(yb));
    CHECK(fabs(skmd_part_link_ms(&c, 1e6) - 0.2) < 1e-12);
    CHECK(fabs(skmd_part_link_ms(&c, 5.5e6) - 0.65) < 1e-12);
    CHECK(fabs(skmd_part_link_ms(&c, 2e7) - 2.1) < 1e-12);
    CHECK(skmd_part_link_ms(&c, 1.0) >= 0.0);
    /* Refinement scales the curve toward what was measured. */
    for (int i = 0; i < 40; i++)
        CHECK(skmd_part_observe_link(&c, 1e6, 0.4, 0.3) == SKMD_PART_OK);
    CHECK(fabs(skmd_part_link_ms(&c, 1e6) - 0.4) < 1e-3);
    CHECK(skmd_part_observe_link(&c, 1e6, NAN, 0.3) == SKMD_PART_EINVAL);
    /* A zero-bandwidth guess adopts the measured bandwidth. */
    struct skmd_part_link_curve z;
    memset(&z, 0, sizeof(z));
    CHECK(skmd_part_observe_link(&z, 1e6, 2.0, 0.5) == SKMD_PART_OK);
    CHECK(fabs(skmd_part_link_ms(&z, 1e6) - 2.0) < 1e-9);
    /* latency + bytes / bandwidth learns both from a mix of sizes: from the 20 us, 8 GB/s
     * default to a 5 us, 25 GB/s link, within 5% at small, middle and large sizes. */
    struct skmd_part_link_curve l = {.latency_ms = 0.02, .bytes_per_ms = 8e6, .scale = 1};
    double sizes[3] = {4096, 1 << 20, 16 << 20};
    for (int i = 0; i < 300; i++) {
        double b = sizes[i % 3];
        CHECK(skmd_part_observe_link(&l, b, 0.005 + b / 25e6, 0.3) == SKMD_PART_OK);
    }
    for (int i = 0; i < 3; i++) {
        double truth = 0.005 + sizes[i] / 25e6;
        CHECK(fabs(skmd_part_link_ms(&l, sizes[i]) - truth) < 0.05 * truth);
    }
    /* One transfer 20x slower than the link (its staging pinned then, say) moves the
     * curve by at most 1 + alpha; a link that really became 3x slower is followed within
     * 10% after 12 transfers. */
    double mid = sizes[1], before = skmd_part_link_ms(&l, mid);
    CHECK(skmd_part_observe_link(&l, mid, 20 * before, 0.3) == SKMD_PART_OK);
    CHECK(skmd_part_link_ms(&l, mid) <= 1.3 * before + 1e-9);
    CHECK(skmd_part_link_ms(&l, mid) > before);
    for (int i = 0; i < 12; i++)
        CHECK(skmd_part_observe_link(&l, mid, 3 * before, 0.3) == SKMD_PART_OK);
    CHECK(fabs(skmd_part_link_ms(&l, mid) - 3 * before) < 0.1 * 3 * before);
    /* Faster than the curve is taken as it comes: back to the link's rate in a few. */
    for (int i = 0; i < 12; i++)
        CHECK(skmd_part_observe_link(&l, mid, before, 0.3) == SKMD_PART_OK);
    CHECK(fabs(skmd_part_link_ms(&l, mid) - before) < 0.1 * before);
    /* Zero-copy: a device without a link pays nothing whatever the bytes. */
    struct skmd_part_device dev[1] = {flat_device(10.0, -1, 0.0)};
    struct skmd_part_problem p = problem(dev, 1, 100);
    p.in_fixed = 1e12;
    uint64_t count[1] = {100};
    double est[1];
    CHECK(fabs(skmd_part_estimate(&p, count, est) - 10.0) < 1e-9);
}

static void test_rates_and_ranges(void)
{
    CHECK(skmd_part_range_of(0) == 0 && skmd_part_range_of(1) == 0);
    CHECK(skmd_part_range_of(2) == 1 && skmd_part_range_of(3) == 1);
    CHECK(skmd_part_range_of(1024) == 10);
    CHECK(skmd_part_range_of(UINT64_MAX) == SKMD_PART_RANGES - 1);
    struct skmd_part_table t;
    memset(&t, 0, sizeof(t));
    CHECK(skmd_part_rate(&t, 100) == 0.0);
    t.rate[4] = 16.0; /* only range 4 known: used everywhere */
    CHECK(skmd_part_rate(&t, 1) == 16.0 && skmd_part_rate(&t, 100000) == 16.0);
    t.rate[5] = 32.0;
    CHECK(fabs(skmd_part_rate(&t, 24) - 24.0) < 1e-12); /* halfway from 16 to 32 */
}

static void test_policies(void)
{
    struct skmd_part_device dev[3] = {
        flat_device(10.0, -1, 0.0), flat_device(30.0, 0, 1e6), flat_device(60.0, 1, 1e6)};
    struct skmd_part_problem p = problem(dev, 3, 1000);
    struct skmd_part_result r;
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_EQUAL, &r) == SKMD_PART_OK);
    CHECK(r.count[0] == 334 && r.count[1] == 333 && r.count[2] == 333);
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_LINEAR, &r) == SKMD_PART_OK);
    CHECK(r.count[0] == 100 && r.count[1] == 300 && r.count[2] == 600);
    for (int i = 0; i <= SKMD_PART_POLICY_PAPER; i++)
        CHECK(skmd_part_policy_from_name(skmd_part_policy_name(i)) == i);
    CHECK(skmd_part_policy_from_name("fastest") == -1);
    CHECK(skmd_part_policy_from_name(NULL) == -1);
}

/* A key asked again with the same problem gets the same answer (without deciding again),
 * also when its figures moved by less than the fingerprint's 2%; a changed problem is
 * decided anew. */
static void test_cache_same_problem(void)
{
    struct skmd_part_device dev[2] = {flat_device(50.0, -1, 0.0), flat_device(10.0, 0, 1e9)};
    struct skmd_part_problem p = problem(dev, 2, 6000);
    struct skmd_part_cache *cache = skmd_part_cache_new(0.05);
    CHECK(cache != NULL);
    if (!cache)
        return;
    struct skmd_part_key key = {0x77, 1, 1};
    struct skmd_part_result first, again, fresh;
    int replaced = -1;
    CHECK(skmd_part_cache_decide(cache, &key, &p, SKMD_PART_POLICY_SKMD, &first, &replaced) ==
          SKMD_PART_OK && replaced == 1);
    CHECK(skmd_part_cache_decide(cache, &key, &p, SKMD_PART_POLICY_SKMD, &again, &replaced) ==
          SKMD_PART_OK && replaced == 0);
    CHECK(skmd_part_decide(&p, SKMD_PART_POLICY_SKMD, &fresh) == SKMD_PART_OK);
    CHECK(again.count[0] == first.count[0] && again.count[1] == first.count[1] &&
          again.count[0] == fresh.count[0] && again.count[1] == fresh.count[1]);
    /* Rates refined by 0.5% (a measurement's noise) and one more sample: the same
     * problem, not decided again. */
    for (int k = 0; k < SKMD_PART_RANGES; k++) {
        dev[1].table.rate[k] *= 1.005;
        dev[1].table.samples[k]++;
    }
    CHECK(skmd_part_cache_decide(cache, &key, &p, SKMD_PART_POLICY_SKMD, &again, &replaced) ==
          SKMD_PART_OK && replaced == 0 && again.count[1] == first.count[1]);
    /* Device 1 becomes 20x faster: the next decision gives it more than the 20% tolerance
     * of the hysteresis would keep. */
    for (int k = 0; k < SKMD_PART_RANGES; k++)
        dev[1].table.rate[k] *= 20.0;
    CHECK(skmd_part_cache_decide(cache, &key, &p, SKMD_PART_POLICY_SKMD, &again, &replaced) ==
          SKMD_PART_OK && replaced == 1 && again.count[1] > first.count[1]);
    /* And asked again, that one is kept. */
    struct skmd_part_result kept;
    CHECK(skmd_part_cache_decide(cache, &key, &p, SKMD_PART_POLICY_SKMD, &kept, &replaced) ==
          SKMD_PART_OK && replaced == 0 && kept.count[1] == again.count[1]);
    skmd_part_cache_free(cache);
}

/* Refinement from wrong guesses converges to the right shares, and with noisy
 * measurements the cached decision stops changing (hysteresis). */
static void test_refinement_converges(void)
{
    const double true_rate[2] = {10.0, 50.0};
    struct skmd_part_device dev[2] = {flat_device(50.0, -1, 0.0), flat_device(10.0, 0, 1e9)};
    for (int d = 0; d < 2; d++)
        memset(dev[d].table.samples, 0, sizeof(dev[d].table.samples)); /* predictions */
    struct skmd_part_problem p = problem(dev, 2, 6000);
    struct skmd_part_cache *cache = skmd_part_cache_new(0.05);
    CHECK(cache != NULL);
    if (!cache)
        return;
    struct skmd_part_key key = {0x1234, 7, 9};
    uint64_t seed = 99;
    int changes_late = 0;
    uint64_t prev[2] = {0, 0};
    struct skmd_part_result r;
    for (int launch = 0; launch < 60; launch++) {
        int replaced;
        CHECK(skmd_part_cache_decide(cache, &key, &p, SKMD_PART_POLICY_SKMD, &r, &replaced) ==
              SKMD_PART_OK);
        CHECK(well_formed(&r, 6000));
        if (launch >= 30 && (r.count[0] != prev[0] || r.count[1] != prev[1]))
            changes_late++;
        prev[0] = r.count[0];
        prev[1] = r.count[1];
        for (int d = 0; d < 2; d++) {
            if (!r.count[d])
                continue;
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            double noise = 1.0 + 0.04 * ((double)(seed >> 11) / 9007199254740992.0 - 0.5);
            double ms = (double)r.count[d] / true_rate[d] * noise;
            CHECK(skmd_part_observe(&dev[d].table, r.count[d], ms, 0.5) == SKMD_PART_OK);
        }
    }
    CHECK(changes_late == 0);
    CHECK(fabs((double)r.count[1] - 5000.0) <= 6000 * 0.05); /* optimum: 5/6 on device 1 */
    CHECK(skmd_part_cache_size(cache) == 1);
    /* Many keys: the cache grows and keeps each. */
    for (uint64_t k = 0; k < 100; k++) {
        struct skmd_part_key other = {k, 1, 2};
        CHECK(skmd_part_cache_decide(cache, &other, &p, SKMD_PART_POLICY_EQUAL, &r, NULL) ==
              SKMD_PART_OK);
    }
    CHECK(skmd_part_cache_size(cache) == 101);
    skmd_part_cache_free(cache);
    CHECK(skmd_part_cache_new(NAN) == NULL);
    CHECK(skmd_part_observe(&dev[0].table, 10, 0.0, 0.5) == SKMD_PART_EINVAL);
    CHECK(skmd_part_observe(&dev[0].table, 0, 1.0, 0.5) == SKMD_PART_EINVAL);
}

static void test_cold_start(void)
{
    /* A compute-bound kernel: 1000 flops per work-item, 256 items per group. */
    struct skmd_part_features f = {10.0, 1000.0, 16.0, 256.0};
    struct skmd_part_peaks cpu = {50.0, 100.0, 20.0, 4.0, 0.01};
    struct skmd_part_peaks gpu = {5000.0, 10000.0, 500.0, 1024.0, 0.02};
    struct skmd_part_table tc, tg;
    CHECK(skmd_part_predict(&f, &cpu, &tc) == SKMD_PART_OK);
    CHECK(skmd_part_predict(&f, &gpu, &tg) == SKMD_PART_OK);
    CHECK(tg.rate[0] < tg.rate[12]);          /* the GPU is slow on small shares */
    CHECK(tg.rate[12] > 20.0 * tc.rate[12]);  /* and far faster on large ones */
    CHECK(fabs(tc.rate[12] / tc.rate[15] - 1.0) < 0.01); /* the CPU is flat past 4 */
    CHECK(tc.samples[5] == 0);
    struct skmd_part_peaks none = {0.0, 0.0, 0.0, 1.0, 0.0};
    CHECK(skmd_part_predict(&f, &none, &tc) == SKMD_PART_EINVAL);
    f.float_ops = NAN;
    CHECK(skmd_part_predict(&f, &cpu, &tc) == SKMD_PART_EINVAL);

    /* Probing: equal split first, then a split by what is known, then no more probes. */
    struct skmd_part_device dev[3] = {
        flat_device(10.0, -1, 0.0), flat_device(30.0, 0, 1e6), flat_device(0.0, 1, 1e6)};
    for (int d = 0; d < 3; d++)
        memset(dev[d].table.samples, 0, sizeof(dev[d].table.samples));
    struct skmd_part_problem p = problem(dev, 3, 3000);
    struct skmd_part_result r;
    CHECK(skmd_part_probe(&p, 0, &r) == 1);
    CHECK(well_formed(&r, 3000));
    CHECK(r.count[0] == 1000 && r.count[1] == 1000 && r.count[2] == 1000);
    CHECK(skmd_part_probe(&p, 1, &r) == 1);
    CHECK(well_formed(&r, 3000));
    CHECK(r.count[1] > r.count[0] && r.count[2] > 0);
    CHECK(skmd_part_probe(&p, 2, &r) == 0);
    for (int d = 0; d < 3; d++)
        CHECK(skmd_part_observe(&dev[d].table, 1000, 10.0, 0.5) == SKMD_PART_OK);
    CHECK(skmd_part_probe(&p, 0, &r) == 0);
    CHECK(skmd_part_probe(&p, -1, &r) == SKMD_PART_EINVAL);
}

/* Runs `launches` launches of one splitting decision through the guard: the split takes
 * split_ms, the split without the devices on the host's cores offhost_ms (0: the two are
 * alike), whole on device `best` whole_ms (+-3% deterministic noise each). Counts the
 * runs per verdict into runs[5]; returns the number of launches that ran something slower
 * than the fastest of the three. */
static unsigned noise_state = 12345;
static double noisy(double ms)
{
    noise_state = noise_state * 1103515245u + 12345u;
    return ms * (0.97 + 0.06 * (double)((noise_state >> 16) & 0x7fff) / 32767.0);
}

static int run_guard3(struct skmd_part_guard *g, int launches, int best, double split_ms,
                      double offhost_ms, double whole_ms, int *runs)
{
    int lost = 0, offhost = offhost_ms > 0;
    double fastest = fmin(whole_ms, offhost ? fmin(split_ms, offhost_ms) : split_ms);
    for (int i = 0; i < launches; i++) {
        int dev, run = skmd_part_guard_choose(g, best, offhost, &dev);
        runs[run]++;
        int whole = run == SKMD_PART_RUN_WHOLE || run == SKMD_PART_RUN_WHOLE_SAMPLE;
        CHECK(run == SKMD_PART_RUN_WHOLE ? dev == g->whole_dev
              : run == SKMD_PART_RUN_WHOLE_SAMPLE ? dev == best : dev == -1);
        CHECK(offhost || run != SKMD_PART_RUN_OTHER_SPLIT);
        int ran_offhost = skmd_part_guard_runs_offhost(g, run);
        CHECK(!whole || !ran_offhost);
        double ms = whole ? whole_ms : offhost && ran_offhost ? offhost_ms : split_ms;
        lost += ms > fastest;
        CHECK(skmd_part_guard_observe(g, run, dev, ran_offhost, noisy(ms)) >= 0);
    }
    return lost;
}

static int run_guard(struct skmd_part_guard *g, int launches, int best, double split_ms,
                     double whole_ms, int *runs)
{
    return run_guard3(g, launches, best, split_ms, 0.0, whole_ms, runs);
}

static void test_guard(void)
{
    struct skmd_part_guard g;
    int runs[5] = {0};
    /* Splitting loses by 30%: whole within the first two sampling periods, then the
     * split is retried ever more rarely: of 4000 launches, under 2% lose. */
    skmd_part_guard_init(&g);
    int lost = run_guard(&g, 40, 1, 13.0, 10.0, runs);
    CHECK(g.whole_mode == 1 && g.whole_dev == 1);
    CHECK(runs[SKMD_PART_RUN_WHOLE_SAMPLE] == 2);
    lost += run_guard(&g, 3960, 1, 13.0, 10.0, runs);
    CHECK(g.whole_mode == 1 && !skmd_part_guard_split_judged(&g));
    CHECK(lost < 4000 / 50);
    CHECK(runs[SKMD_PART_RUN_RETRY] >= 3 && runs[SKMD_PART_RUN_RETRY] <= 10);
    CHECK(g.backoff == SKMD_PART_GUARD_MAX_BACKOFF);
    /* Splitting wins by 40%: it stays split; whole samples 2 per 16, then 1 per 256. */
    memset(runs, 0, sizeof runs);
    skmd_part_guard_init(&g);
    CHECK(!skmd_part_guard_split_judged(&g));
    lost = run_guard(&g, 2000, 0, 6.0, 10.0, runs);
    CHECK(g.whole_mode == 0 && skmd_part_guard_split_judged(&g));
    CHECK(runs[SKMD_PART_RUN_WHOLE] == 0 && runs[SKMD_PART_RUN_RETRY] == 0);
    CHECK(runs[SKMD_PART_RUN_WHOLE_SAMPLE] >= 2 && runs[SKMD_PART_RUN_WHOLE_SAMPLE] <= 2 + 8);
    CHECK(lost == runs[SKMD_PART_RUN_WHOLE_SAMPLE]);
    CHECK(runs[SKMD_PART_RUN_OTHER_SPLIT] == 0 && g.offhost_n == 0);
    /* Whole, then the split becomes the faster (another size of input, say): a retry
     * finds it and the guard goes back to the split. */
    skmd_part_guard_init(&g);
    memset(runs, 0, sizeof runs);
    run_guard(&g, 100, 1, 20.0, 10.0, runs);
    CHECK(g.whole_mode == 1);
    run_guard(&g, 1100, 1, 5.0, 10.0, runs);
    CHECK(g.whole_mode == 0);
    /* Near-equal times (within the margins): no flip-flop once whole. */
    skmd_part_guard_init(&g);
    memset(runs, 0, sizeof runs);
    run_guard(&g, 2000, 1, 10.4, 10.0, runs);
    CHECK(runs[SKMD_PART_RUN_WHOLE] > 1800);
    /* Whole samples are per device: a best device that changes back and forth keeps
     * them, and the split is judged against the fastest device measured. */
    skmd_part_guard_init(&g);
    memset(runs, 0, sizeof runs);
    run_guard(&g, 30, 0, 5.0, 10.0, runs);
    CHECK(g.whole_dev == 0 && g.whole_n[0] == 2 && g.whole_n[2] == 0);
    for (int i = 0; i < 8 && !g.whole_mode; i++) {
        run_guard(&g, 16, 2, 8.0, 4.0, runs);
        if (!g.whole_mode)
            run_guard(&g, 16, 0, 8.0, 10.0, runs);
    }
    CHECK(g.whole_n[0] == 2 && g.whole_n[2] >= 2);
    CHECK(g.whole_mode == 1 && g.whole_dev == 2);
    skmd_part_guard_init(&g);
    /* No best device: the split runs; bad figures are rejected. */
    int dev;
    CHECK(skmd_part_guard_choose(&g, -1, 0, &dev) == SKMD_PART_RUN_SPLIT && dev == -1);
    CHECK(skmd_part_guard_observe(&g, SKMD_PART_RUN_SPLIT, -1, 0, NAN) == SKMD_PART_EINVAL);
    CHECK(skmd_part_guard_observe(&g, SKMD_PART_RUN_SPLIT, -1, 0, -1.0) == SKMD_PART_EINVAL);
    CHECK(skmd_part_guard_observe(&g, 7, -1, 0, 1.0) == SKMD_PART_EINVAL);
    CHECK(skmd_part_guard_observe(NULL, SKMD_PART_RUN_SPLIT, -1, 0, 1.0) == SKMD_PART_EINVAL);
    /* The cache keeps one guard per key, from its first decision on. */
    struct skmd_part_cache *c = skmd_part_cache_new(0.1);
    struct skmd_part_device d2[2] = {flat_device(10.0, -1, 0.0), flat_device(10.0, -1, 0.0)};
    struct skmd_part_problem p = problem(d2, 2, 1000);
    struct skmd_part_key k1 = {1, 2, 3}, k2 = {1, 2, 4};
    struct skmd_part_result r;
    CHECK(skmd_part_cache_guard(c, &k1) == NULL);
    CHECK(skmd_part_cache_decide(c, &k1, &p, SKMD_PART_POLICY_SKMD, &r, NULL) == SKMD_PART_OK);
    struct skmd_part_guard *g1 = skmd_part_cache_guard(c, &k1);
    CHECK(g1 && g1->whole_dev == -1 && g1->launches == 0);
    if (g1)
        g1->launches = 5;
    CHECK(skmd_part_cache_guard(c, &k2) == NULL);
    CHECK(skmd_part_cache_decide(c, &k1, &p, SKMD_PART_POLICY_SKMD, &r, NULL) == SKMD_PART_OK);
    g1 = skmd_part_cache_guard(c, &k1);
    CHECK(g1 && g1->launches == 5);
    /* A guard made without a decision (a placement's launches) is its key's alone, and a
     * later decision on that key keeps it; the one made for k1 is k1's. */
    struct skmd_part_guard *g2 = skmd_part_cache_guard_make(c, &k2);
    CHECK(g2 && g2 != g1 && g2->launches == 0 && skmd_part_cache_guard(c, &k2) == g2);
    if (g2)
        g2->launches = 9;
    CHECK(skmd_part_cache_guard_make(c, &k1) == skmd_part_cache_guard(c, &k1));
    CHECK(skmd_part_cache_size(c) == 2);
    CHECK(skmd_part_cache_decide(c, &k2, &p, SKMD_PART_POLICY_SKMD, &r, NULL) == SKMD_PART_OK);
    CHECK(r.ndev == 2 && r.count[0] + r.count[1] == 1000);
    g2 = skmd_part_cache_guard(c, &k2);
    CHECK(g2 && g2->launches == 9 && skmd_part_cache_guard(c, &k1)->launches == 5);
    CHECK(skmd_part_cache_guard_make(NULL, &k1) == NULL);
    skmd_part_cache_free(c);
    CHECK(strcmp(skmd_part_run_name(SKMD_PART_RUN_RETRY), "split retry") == 0);
}

/* The split without the devices on the host's cores, measured beside the partitioner's. */
static void test_guard_offhost(void)
{
    struct skmd_part_guard g;
    int runs[5] = {0};
    /* The CPU's share costs the others more than it brings (CPU + 2 H200, syrk: 26.9 ms,
     * 20.6 without it, 35 whole): the split without it from the second sampling period
     * on; of 2000 launches only the samples lose. */
    skmd_part_guard_init(&g);
    int lost = run_guard3(&g, 8, 1, 27.0, 20.0, 35.0, runs);
    CHECK(g.offhost_mode == 1 && g.whole_mode == 0 && g.offhost_n == 2);
    lost += run_guard3(&g, 1992, 1, 27.0, 20.0, 35.0, runs);
    CHECK(g.offhost_mode == 1 && g.whole_mode == 0);
    CHECK(runs[SKMD_PART_RUN_OTHER_SPLIT] >= 2 && runs[SKMD_PART_RUN_OTHER_SPLIT] <= 2 + 8);
    CHECK(lost <= 2 + 2 + 8 + 8 + 2);
    CHECK(skmd_part_guard_runs_offhost(&g, SKMD_PART_RUN_SPLIT) == 1);
    CHECK(skmd_part_guard_runs_offhost(&g, SKMD_PART_RUN_OTHER_SPLIT) == 0);
    CHECK(skmd_part_guard_runs_offhost(&g, SKMD_PART_RUN_WHOLE_SAMPLE) == 0);
    /* The CPU's share pays (gesummv: 15.8 ms, 21.0 without): the partitioner's split stays. */
    memset(runs, 0, sizeof runs);
    skmd_part_guard_init(&g);
    lost = run_guard3(&g, 2000, 1, 15.8, 21.0, 60.0, runs);
    CHECK(g.offhost_mode == 0 && g.whole_mode == 0);
    CHECK(runs[SKMD_PART_RUN_OTHER_SPLIT] >= 2 && runs[SKMD_PART_RUN_OTHER_SPLIT] <= 2 + 8);
    CHECK(lost == runs[SKMD_PART_RUN_OTHER_SPLIT] + runs[SKMD_PART_RUN_WHOLE_SAMPLE]);
    /* Then the CPU's share pays again (another input): a refresh sample finds it. */
    skmd_part_guard_init(&g);
    run_guard3(&g, 16, 1, 27.0, 20.0, 35.0, runs);
    CHECK(g.offhost_mode == 1);
    run_guard3(&g, 600, 1, 12.0, 20.0, 35.0, runs);
    CHECK(g.offhost_mode == 0);
    /* Both splits lose to whole: whole, and its retries run the split in use. */
    skmd_part_guard_init(&g);
    run_guard3(&g, 40, 1, 27.0, 20.0, 15.0, runs);
    CHECK(g.whole_mode == 1 && g.whole_dev == 1);
    CHECK(skmd_part_guard_runs_offhost(&g, SKMD_PART_RUN_RETRY) == g.offhost_mode);
    CHECK(skmd_part_guard_runs_offhost(&g, SKMD_PART_RUN_WHOLE) == 0);
    /* The switch is a change the caller hears of. */
    skmd_part_guard_init(&g);
    int changed = 0;
    for (int i = 0; i < 8; i++) {
        int dev, run = skmd_part_guard_choose(&g, -1, 1, &dev);
        int off = skmd_part_guard_runs_offhost(&g, run);
        changed += skmd_part_guard_observe(&g, run, -1, off, off ? 5.0 : 10.0);
    }
    CHECK(changed == 1 && g.offhost_mode == 1);
}

int main(void)
{
    test_guard();
    test_guard_offhost();
    test_remote_inputs();
    test_launch_latency();
    test_fig8_shared_link();
    test_host_capacity();
    test_host_busy();
    test_transfer_bound_stays_on_cpu();
    test_pieces_overlap();
    test_pieces_model();
    test_compute_bound_by_throughput();
    test_twins();
    test_size_variation();
    test_tolerance_loop();
    test_min_first_offload();
    test_lone_device_not_merged();
    test_resident_inputs_outputs_stay();
    test_many_devices();
    test_extreme_inputs();
    test_link_model();
    test_rates_and_ranges();
    test_policies();
    test_refinement_converges();
    test_cache_same_problem();
    test_cold_start();
    return check_report("test_partitioner");
}
