/* Online refinement: measured launches and transfers folded into the model. */
#include "skmd_part.h"

#include <math.h>

/* The weight a measurement gets: alpha when it is within SKMD_PART_TRACK_BAND of the
 * prediction (noise), more beyond it, so that the prediction keeps at most (1 - alpha)
 * x the band of its error. A device's rate that moved (a table from another process, a
 * contended run, a share in another size range) is then followed within a launch or
 * two instead of 0.7^k: from tables 1.5x off, shares took 10 launches and more to come
 * within 10% of equal finish. */
static double moved_error(double error, double alpha)
{
    double band = SKMD_PART_TRACK_BAND;
    if (fabs(error) <= band)
        return alpha * error;
    return error - copysign((1.0 - alpha) * band, error);
}

int skmd_part_observe(struct skmd_part_table *t, uint64_t nwg, double kernel_ms, double alpha)
{
    if (!t || nwg == 0 || !isfinite(kernel_ms) || !(kernel_ms > 0.0) || !(alpha > 0.0) ||
        alpha > 1.0)
        return SKMD_PART_EINVAL;
    double measured = (double)nwg / kernel_ms;
    if (!isfinite(measured))
        return SKMD_PART_EINVAL;
    int k = skmd_part_range_of(nwg);
    double old = t->rate[k];
    /* The rate at n interpolates rate[k] (at 2^k) and rate[k + 1] (at 2^(k+1)): both
     * nodes the prediction at n uses follow the measurement, each by its weight in the
     * interpolation (normalized least mean squares), so that the prediction at n itself
     * moves. Correcting rate[k] alone left a share near 2^(k+1) predicted from the stale
     * rate[k + 1], and its shares never moved. */
    int next = k + 1 < SKMD_PART_RANGES && nwg > 1 && t->rate[k + 1] > 0.0 && old > 0.0;
    double f = next ? ((double)nwg - (double)((uint64_t)1 << k)) / (double)((uint64_t)1 << k)
                    : 0.0;
    double up = next ? t->rate[k + 1] : 0.0;
    if (t->samples[k] == 0 && (!next || t->samples[k + 1] == 0))
        f = 0.0; /* a prediction or nothing: the measurement wins outright at 2^k */
    if (!(old > 0.0) || (t->samples[k] == 0 && f == 0.0)) {
        t->rate[k] = measured;
    } else {
        double predicted = (1.0 - f) * old + f * up;
        double target = predicted * (1.0 + moved_error(measured / predicted - 1.0, alpha));
        double c = (target - predicted) / ((1.0 - f) * (1.0 - f) * old + f * f * up);
        double lo = old * (1.0 + (1.0 - f) * c), hi = up * (1.0 + f * c);
        if (!(lo > 0.0) || !(hi > 0.0) || !isfinite(lo) || !isfinite(hi)) {
            lo = old * target / predicted; /* the same factor on both keeps them positive */
            hi = up * target / predicted;
        }
        t->rate[k] = lo;
        if (f > 0.0)
            t->rate[k + 1] = hi;
    }
    /* Ranges still holding a prediction keep its shape but follow the measured level, so a
     * stale guess next to a measured range does not mislead the interpolation. */
    if (old > 0.0 && t->rate[k] != old) {
        double factor = t->rate[k] / old;
        for (int j = 0; j < SKMD_PART_RANGES; j++)
            if (j != k && !(j == k + 1 && f > 0.0) && t->samples[j] == 0 && t->rate[j] > 0.0 &&
                isfinite(t->rate[j] * factor))
                t->rate[j] *= factor;
    }
    if (t->samples[k] < UINT32_MAX)
        t->samples[k]++;
    return SKMD_PART_OK;
}

int skmd_part_observe_link(struct skmd_part_link_curve *c, double bytes, double ms,
                           double alpha)
{
    if (!c || !isfinite(bytes) || !(bytes > 0.0) || !isfinite(ms) || !(ms > 0.0) ||
        !(alpha > 0.0) || alpha > 1.0)
        return SKMD_PART_EINVAL;
    double scale = c->scale > 0.0 ? c->scale : 1.0;
    c->scale = 1.0;
    double modelled = skmd_part_link_ms(c, bytes);
    /* A transfer slower than the curve may carry a one-time cost (a first touch of the
     * app's pages, a driver's lazy set-up, a wait behind other work): one sample moves
     * the curve by at most SKMD_PART_LINK_MAX_SLOWDOWN of the model, so an outlier costs
     * little and a link that really is slower is followed within a few transfers. Faster
     * than the model is the link's own rate: taken as measured. */
    double now = modelled * scale; /* what the curve says today */
    if (modelled > 0.0 && modelled < SKMD_PART_NEVER_MS &&
        ms > now * SKMD_PART_LINK_MAX_SLOWDOWN)
        ms = now * SKMD_PART_LINK_MAX_SLOWDOWN;
    if (!(modelled > 0.0) || modelled >= SKMD_PART_NEVER_MS) {
        /* Nothing to scale (zero bandwidth was assumed): adopt the measured bandwidth. */
        c->npoints = 0;
        c->latency_ms = 0.0;
        c->bytes_per_ms = bytes / ms;
        c->scale = 1.0;
        return SKMD_PART_OK;
    }
    if (c->npoints >= 2 || !(c->latency_ms > 0.0)) {
        /* Calibrated points (or no latency): one factor scales the curve's shape. */
        c->scale = alpha * (ms / modelled) + (1.0 - alpha) * scale;
        return SKMD_PART_OK;
    }
    /* latency + bytes / bandwidth: the error goes to each term in proportion to its part
     * of the modelled time, so small transfers teach the latency and large ones the
     * bandwidth, and a mix of sizes converges on both (one factor would only find a
     * compromise between them). */
    double latency = c->latency_ms * scale, per_byte = scale / c->bytes_per_ms;
    double model = latency + bytes * per_byte;
    double f = latency / model, error = ms / model - 1.0;
    latency *= 1.0 + alpha * f * error;
    per_byte *= 1.0 + alpha * (1.0 - f) * error;
    if (!(per_byte > 0.0) || !isfinite(per_byte) || !isfinite(latency))
        return SKMD_PART_EINVAL;
    c->latency_ms = latency;
    c->bytes_per_ms = 1.0 / per_byte;
    c->scale = 1.0;
    return SKMD_PART_OK;
}

int skmd_part_observe_finish(double *offset_ms, double finish_ms, double kernel_ms,
                             double est_finish_ms, double est_kernel_ms, double alpha,
                             double floor_ms)
{
    if (!offset_ms || !isfinite(*offset_ms) || !(finish_ms > 0.0) || !isfinite(finish_ms) ||
        !(kernel_ms > 0.0) || !isfinite(kernel_ms) || !(est_finish_ms > 0.0) ||
        !isfinite(est_finish_ms) || !(est_kernel_ms > 0.0) || !isfinite(est_kernel_ms) ||
        !(alpha > 0.0) || alpha > 1.0 || !isfinite(floor_ms) || floor_ms < 0.0)
        return SKMD_PART_EINVAL;
    double cap = SKMD_PART_FINISH_STEP * est_finish_ms;
    double error = (finish_ms - kernel_ms) - (est_finish_ms - est_kernel_ms);
    *offset_ms = fmax(-floor_ms, *offset_ms + alpha * fmax(-cap, fmin(cap, error)));
    return SKMD_PART_OK;
}
