/* The launch policy's shares that measure rather than split by the tables
 * (skmd_part_launch.h): the profiling sweep's steps, the cold start's probes of the kinds
 * of device a kernel never ran on, and now and then a probe of a member the decision
 * leaves idle, so that a kernel kept on one member learns the others' rates as sizes
 * change. */
#include "skmd_part_launch.h"

#include <string.h>

int skmd_part_sweep_step(const struct skmd_part_launch *l, uint64_t step, int sizes,
                         int *member, uint64_t *share, unsigned char *others)
{
    int n = l->n;
    if (step >= (uint64_t)sizes * (uint64_t)n)
        return 0;
    int m = (int)(step % (uint64_t)n);
    unsigned j = (unsigned)(step / (uint64_t)n);
    if (!l->eligible[m])
        return 0;
    memset(others, 0, (size_t)n);
    *member = m;
    if (j == 0) {
        *share = l->total;
        return 1;
    }
    int nothers = 0;
    for (int o = 0; o < n; o++)
        nothers += others[o] = l->eligible[o] && o != m;
    uint64_t quarter = j < 32 ? l->total >> (2 * j) : 0;
    *share = !nothers ? l->total : quarter ? quarter : 1;
    return 1;
}

/* Member m is a device off the host's cores for whose link neither it nor a twin has a
 * figure (timed or calibrated): the default prices it. */
static int link_untimed(const struct skmd_part_launch *l, int m)
{
    if (l->on_host[m])
        return 0;
    for (int o = 0; o < l->n && l->link_known; o++)
        if (l->link_known[o] && (o == m || skmd_part_twins(l, m, o)))
            return 0;
    return 1;
}

/* A probe moves the inputs its work-groups read, which is the whole buffer where the
 * footprint is unknown (a gigabyte to three GPUs for 3 of 32 work-groups of mvt_cols): one
 * probe per kind of device, since twins share what one of them measures, their link
 * figures included. But where no twin's link was ever timed (the bulk member's inputs were
 * already on it, written there by the app) the default prices it, far below a GPU's, which
 * would keep a second GPU idle where it gains: such a twin is probed too, which times its
 * link. */
int skmd_part_cold_start(const struct skmd_part_launch *l, const unsigned char *rated,
                         int learn, uint64_t *count, struct skmd_part_cold *out)
{
    int n = l->n, nmeasured = 0;
    memset(out, 0, sizeof *out);
    out->bulk = -1;
    for (int m = 0; m < n; m++) {
        nmeasured += l->eligible[m] && rated[m];
        out->nunmeasured += l->eligible[m] && !rated[m];
    }
    int members = nmeasured + out->nunmeasured;
    if (members == 0 || l->total < (uint64_t)members)
        return 0;
    uint64_t div = SKMD_PART_COLD_PROBE_DIV;
    out->probe = !learn ? 0 : l->total / div ? l->total / div : 1;
    if (!nmeasured) {
        /* The roofline's peaks are rough: a GPU goes first. */
        int preferred = skmd_part_preferred(l), predicted = skmd_part_fastest(l, 0);
        int gpu_first = preferred >= 0 && !l->on_host[preferred];
        out->bulk = gpu_first || predicted < 0 ? preferred : predicted;
        out->why = gpu_first ? SKMD_PART_BULK_PREFERRED_GPU
                   : predicted == out->bulk ? SKMD_PART_BULK_PREDICTED
                                            : SKMD_PART_BULK_PREFERRED;
    }
    int bulk = out->bulk;
    for (int m = 0; m < n; m++) {
        int covered = m == bulk ||
                      (!link_untimed(l, m) && bulk >= 0 && skmd_part_twins(l, m, bulk));
        for (int o = 0; o < m && !covered && !link_untimed(l, m); o++)
            covered = out->probed[o] && skmd_part_twins(l, m, o);
        out->probed[m] = l->eligible[m] && !rated[m] && !covered;
        out->nprobed += out->probed[m];
    }
    /* A CPU beside a GPU is often a hundred times slower or more (1/32 of gemm 3072 took
     * 379 ms on a 32-core CPU under PoCL while an H200 ran the rest in 8 ms): its probe is
     * a 1/SKMD_PART_COLD_CPU_DIV of the others', which still shows its rate at a share it
     * could get, without holding the first launch. */
    int beside_gpu = 0;
    for (int m = 0; m < n; m++)
        beside_gpu |= l->eligible[m] && !l->on_host[m];
    uint64_t cpu_probe = out->probe / SKMD_PART_COLD_CPU_DIV;
    if (out->probe && !cpu_probe)
        cpu_probe = 1;
    uint64_t probes = 0;
    for (int m = 0; m < n; m++) {
        out->probe_of[m] = !out->probed[m]                ? 0
                           : beside_gpu && l->on_host[m] ? cpu_probe
                                                          : out->probe;
        probes += out->probe_of[m];
    }
    if (probes >= l->total)
        return 0;
    out->rest = l->total - probes;
    for (int m = 0; m < n; m++)
        count[m] = out->probe_of[m];
    if (bulk >= 0)
        count[bulk] = out->rest;
    return 1;
}

/* The probe's size: at a size never measured the member is taken to run at its best
 * measured rate (a GPU measured on a small probe is slow per work-group there, not on
 * larger shares); once measured, that size's own rate counts, so each size is explored
 * once. Large enough to show the member's rate at sizes it would get, cheap for the launch
 * when the table is right. */
static uint64_t probe_size(const struct skmd_part_table *tab, uint64_t total, double launch_ms,
                           double donor_ms, double *size_ms)
{
    double best = 0;
    for (int k = 0; k < SKMD_PART_RANGES; k++)
        best = tab->samples[k] > 0 && tab->rate[k] > best ? tab->rate[k] : best;
    uint64_t size = 0;
    *size_ms = 0;
    for (uint64_t next = 1; next <= total / 2; next *= 2) {
        double rate = skmd_part_rate(tab, next);
        if (!tab->samples[skmd_part_range_of(next)] && best > rate)
            rate = best;
        double ms = rate > 0 ? (double)next / rate : SKMD_PART_NEVER_MS;
        if (ms + launch_ms > donor_ms / 2)
            break;
        size = next;
        *size_ms = ms;
    }
    return size;
}

int skmd_part_idle_probe(const struct skmd_part_launch *l, int learn, uint64_t launches,
                         int guard_run, const double *launch_ms,
                         const unsigned char *ran_part, int *probe_turn, uint64_t *count,
                         struct skmd_part_idle *out)
{
    int n = l->n, donor = -1, idle = -1;
    memset(out, 0, sizeof *out);
    out->donor = out->idle = out->unbuilt = -1;
    if (!learn || launches % SKMD_PART_PROBE_EVERY != SKMD_PART_PROBE_EVERY - 1 ||
        guard_run == SKMD_PART_RUN_WHOLE_SAMPLE || guard_run == SKMD_PART_RUN_RETRY ||
        guard_run == SKMD_PART_RUN_OTHER_SPLIT || l->total < 2)
        return SKMD_PART_PROBE_NONE;
    for (int m = 0; m < n; m++)
        if (count[m] && (donor < 0 || count[m] > count[donor]))
            donor = m;
    for (int i = 0; i < n && idle < 0; i++) {
        int m = (*probe_turn + i) % n;
        if (l->eligible[m] && !count[m] && skmd_part_table_measured(&l->table[m]))
            idle = m;
    }
    if (donor < 0 || idle < 0)
        return SKMD_PART_PROBE_NONE;
    out->donor = donor;
    out->idle = idle;
    *probe_turn = (idle + 1) % n;
    if ((!ran_part[idle] || !ran_part[donor]) && launches < SKMD_PART_PROBE_UNBUILT_AFTER) {
        out->unbuilt = ran_part[idle] ? donor : idle;
        return SKMD_PART_PROBE_UNBUILT;
    }
    double donor_rate = skmd_part_rate(&l->table[donor], count[donor]);
    if (!(donor_rate > 0))
        return SKMD_PART_PROBE_NONE;
    out->donor_ms = (double)count[donor] / donor_rate + launch_ms[donor];
    out->size = probe_size(&l->table[idle], l->total, launch_ms[idle], out->donor_ms,
                           &out->size_ms);
    if (!out->size || out->size >= count[donor] || out->size_ms < launch_ms[idle])
        return SKMD_PART_PROBE_NO_FIT;
    count[donor] -= out->size;
    count[idle] = out->size;
    return SKMD_PART_PROBE_RUN;
}
