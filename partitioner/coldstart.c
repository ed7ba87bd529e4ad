/* Cold start: a roofline prediction of a kernel's tables, and the probing launches. */
#include "part_model.h"
#include "part_split_weight.h"

#include <math.h>
#include <string.h>

static int good(double x) { return isfinite(x) && x >= 0.0; }

int skmd_part_predict(const struct skmd_part_features *f, const struct skmd_part_peaks *pk,
                      struct skmd_part_table *out)
{
    if (!f || !pk || !out)
        return SKMD_PART_EINVAL;
    if (!good(f->int_ops) || !good(f->float_ops) || !good(f->mem_bytes) ||
        !good(f->items_per_group) || !good(pk->int_gops) || !good(pk->float_gflops) ||
        !good(pk->mem_gbytes) || !good(pk->compute_units) || !good(pk->launch_ms))
        return SKMD_PART_EINVAL;
    if (!(pk->int_gops > 0.0 || pk->float_gflops > 0.0 || pk->mem_gbytes > 0.0))
        return SKMD_PART_EINVAL;
    memset(out, 0, sizeof(*out));
    double items = f->items_per_group > 0.0 ? f->items_per_group : 1.0;
    double cus = pk->compute_units >= 1.0 ? floor(pk->compute_units) : 1.0;
    /* 1 G/s = 10^6 per ms. A needed resource the device lacks makes it unable to run. */
    double int_ms = f->int_ops > 0.0 ? (pk->int_gops > 0.0 ? f->int_ops / (pk->int_gops * 1e6)
                                                            : INFINITY) : 0.0;
    double flt_ms = f->float_ops > 0.0
                        ? (pk->float_gflops > 0.0 ? f->float_ops / (pk->float_gflops * 1e6)
                                                  : INFINITY) : 0.0;
    double mem_ms = f->mem_bytes > 0.0
                        ? (pk->mem_gbytes > 0.0 ? f->mem_bytes / (pk->mem_gbytes * 1e6)
                                                : INFINITY) : 0.0;
    /* One work-group on one compute unit gets 1/cus of the device's compute peak. */
    double wg_compute_ms = items * (int_ms + flt_ms) * cus;
    double wg_memory_ms = items * mem_ms; /* the memory bandwidth is shared by all */
    if (!isfinite(wg_compute_ms) || !isfinite(wg_memory_ms))
        return SKMD_PART_OK; /* all rates 0: the device never gets this kernel */
    for (int k = 0; k < SKMD_PART_RANGES; k++) {
        double n = ldexp(1.0, k);
        double waves = ceil(n / cus);
        double compute = waves * wg_compute_ms, memory = n * wg_memory_ms;
        double ms = pk->launch_ms + (compute > memory ? compute : memory);
        out->rate[k] = ms > 0.0 ? n / ms : 0.0;
        if (!isfinite(out->rate[k]))
            out->rate[k] = 0.0;
    }
    return SKMD_PART_OK;
}

static int has_measurement(const struct skmd_part_table *t)
{
    for (int k = 0; k < SKMD_PART_RANGES; k++)
        if (t->samples[k] > 0 && t->rate[k] > 0.0)
            return 1;
    return 0;
}

int skmd_part_probe(const struct skmd_part_problem *p, int launch_index,
                    struct skmd_part_result *out)
{
    struct part_model m;
    if (!out || launch_index < 0)
        return SKMD_PART_EINVAL;
    memset(out, 0, sizeof(*out));
    int status = part_model_init(&m, p);
    if (status != SKMD_PART_OK)
        return status;
    int missing = 0;
    for (int d = 0; d < m.ndev; d++)
        missing |= !has_measurement(&p->dev[d].table);
    if (!missing || launch_index > 1 || p->total_wg < (uint64_t)m.ndev)
        return 0;
    double weight[SKMD_PART_MAX_DEVICES];
    uint64_t count[SKMD_PART_MAX_DEVICES];
    uint64_t equal_share = p->total_wg / (uint64_t)m.ndev;
    for (int d = 0; d < m.ndev; d++) {
        double rate = launch_index == 0 ? 0.0 : part_model_rate(&m, d, equal_share);
        weight[d] = launch_index == 0 ? 1.0 : rate;
    }
    /* Launch 1: a device with no rate at all still gets a small share to be measured. */
    double wsum = 0.0;
    for (int d = 0; d < m.ndev; d++)
        wsum += weight[d];
    for (int d = 0; d < m.ndev; d++)
        if (!(weight[d] > 0.0))
            weight[d] = wsum > 0.0 ? wsum / (8.0 * m.ndev) : 1.0;
    part_split_by_weight(p->total_wg, m.ndev, weight, count);
    /* Every device must run something to be measured. */
    for (int d = 0; d < m.ndev; d++)
        if (count[d] == 0) {
            int donor = 0;
            for (int e = 1; e < m.ndev; e++)
                if (count[e] > count[donor])
                    donor = e;
            count[donor]--;
            count[d]++;
        }
    part_result_fill(&m, count, out);
    return 1;
}
