/* The cost model: performance tables, link curves, serialization on shared links, merge. */
#include "part_model.h"

#include <math.h>
#include <string.h>

static int good_number(double x) { return isfinite(x) && x >= 0.0; }

int skmd_part_range_of(uint64_t nwg)
{
    if (nwg <= 1)
        return 0;
    int k = 63 - __builtin_clzll(nwg);
    return k < SKMD_PART_RANGES - 1 ? k : SKMD_PART_RANGES - 1;
}

/* The table gives the rate at the first size of each range, 2^k; in between, the rate is
 * interpolated linearly in n, and it is constant from the last range's start up. */
static double interpolate(const double *rate, uint64_t n)
{
    if (n <= 1)
        return rate[0];
    int k = skmd_part_range_of(n);
    if (k == SKMD_PART_RANGES - 1)
        return rate[k];
    double lo = (double)((uint64_t)1 << k);
    double frac = ((double)n - lo) / lo;
    return rate[k] + (rate[k + 1] - rate[k]) * frac;
}

/* Below the lowest known range, a share's kernel time keeps the fixed part the two lowest
 * known ranges show (time = fixed + n x per-group, fitted through their first sizes),
 * rather than the nearest range's rate, which makes the time fall in proportion to n: a
 * device whose kernel has a fixed part longer than the others' whole share was given
 * ever smaller shares, one range lower each launch, each finishing as late as the last,
 * where nothing at all would have balanced the launch. Without a fixed part (or with one
 * known range) the nearest rate stays. */
static void extrapolate_down(const struct skmd_part_table *t, double *rate)
{
    int a = -1, b = -1;
    for (int k = 0; k < SKMD_PART_RANGES && b < 0; k++)
        if (t->rate[k] > 0.0) {
            if (a < 0)
                a = k;
            else
                b = k;
        }
    if (b < 0 || a == 0)
        return;
    double na = (double)((uint64_t)1 << a), nb = (double)((uint64_t)1 << b);
    double ta = na / t->rate[a], tb = nb / t->rate[b];
    double per_group = (tb - ta) / (nb - na), fixed = ta - per_group * na;
    if (!(per_group > 0.0) || !(fixed > 0.0) || !isfinite(fixed))
        return;
    for (int k = 0; k < a; k++) {
        double n = (double)((uint64_t)1 << k);
        rate[k] = n / (fixed + per_group * n);
    }
}

/* Copies a table with unknown (zero) ranges filled from the nearest known range, the lower
 * one on a tie, and below the lowest known one extrapolated with its fixed part
 * (extrapolate_down). Returns 0 when no range is known. */
static int fill_rates(const struct skmd_part_table *t, double *rate)
{
    int known = 0;
    for (int k = 0; k < SKMD_PART_RANGES; k++)
        known |= t->rate[k] > 0.0;
    if (!known) {
        memset(rate, 0, sizeof(double) * SKMD_PART_RANGES);
        return 0;
    }
    for (int k = 0; k < SKMD_PART_RANGES; k++) {
        rate[k] = t->rate[k];
        for (int dist = 1; rate[k] <= 0.0 && dist < SKMD_PART_RANGES; dist++) {
            if (k - dist >= 0 && t->rate[k - dist] > 0.0)
                rate[k] = t->rate[k - dist];
            else if (k + dist < SKMD_PART_RANGES && t->rate[k + dist] > 0.0)
                rate[k] = t->rate[k + dist];
        }
    }
    extrapolate_down(t, rate);
    return 1;
}

double skmd_part_rate(const struct skmd_part_table *t, uint64_t nwg)
{
    double rate[SKMD_PART_RANGES];
    if (!t || !fill_rates(t, rate))
        return 0.0;
    return interpolate(rate, nwg);
}

double skmd_part_link_ms(const struct skmd_part_link_curve *c, double bytes)
{
    if (!c || !(bytes > 0.0))
        return 0.0;
    double ms;
    if (c->npoints >= 2 && c->npoints <= SKMD_PART_LINK_POINTS) {
        const double *x = c->point_bytes, *y = c->point_ms;
        int seg = 0; /* segment [seg, seg+1] that covers bytes, or an end segment */
        while (seg + 2 < c->npoints && bytes > x[seg + 1])
            seg++;
        double dx = x[seg + 1] - x[seg];
        double slope = dx > 0.0 ? (y[seg + 1] - y[seg]) / dx : 0.0;
        ms = y[seg] + slope * (bytes - x[seg]);
        if (ms < 0.0)
            ms = 0.0;
    } else {
        if (!(c->bytes_per_ms > 0.0))
            return SKMD_PART_NEVER_MS;
        ms = c->latency_ms + bytes / c->bytes_per_ms;
    }
    ms *= c->scale > 0.0 ? c->scale : 1.0;
    return ms < SKMD_PART_NEVER_MS ? ms : SKMD_PART_NEVER_MS;
}

/* skmd_part_pieces_ms, static so that the search's inner loop inlines it (an exported
 * function of a -fPIC build is not inlined). */
static inline double pieces_ms(double transfer_ms, double kernel_ms, int pieces)
{
    if (pieces <= 1)
        return transfer_ms + kernel_ms;
    double hi = transfer_ms > kernel_ms ? transfer_ms : kernel_ms;
    double lo = transfer_ms > kernel_ms ? kernel_ms : transfer_ms;
    return hi + lo / pieces;
}

double skmd_part_pieces_ms(double transfer_ms, double kernel_ms, int pieces)
{
    return pieces_ms(transfer_ms, kernel_ms, pieces);
}

int skmd_part_pieces_of(const struct skmd_part_device *d, uint64_t nwg, double in_bytes,
                        double fixed_bytes)
{
    if (!d || d->max_pieces <= 1 || nwg < 2 || !(in_bytes > 0.0))
        return 1;
    double k = (double)d->max_pieces;
    if (d->piece_bytes > 0.0)
        k = fmin(k, floor(in_bytes / d->piece_bytes));
    if (k > (double)nwg)
        k = (double)nwg;
    if (k < 2.0)
        return 1;
    int pieces = (int)k;
    if (!(d->piece_bytes > 0.0))
        return pieces; /* a forced count */
    /* As the runtime decides: pieces only pay when the inputs come piece by piece, not
     * when the first piece already needs most of them (a buffer every group reads). */
    double first = fixed_bytes + (in_bytes - fixed_bytes) / pieces;
    return first * 2.0 > in_bytes ? 1 : pieces;
}

double part_cost_alone(const struct part_cost *c)
{
    return pieces_ms(c->in_ms, c->kernel_ms, c->pieces) + c->out_ms + c->merge_ms;
}

static int good_curve(const struct skmd_part_link_curve *c)
{
    if (!good_number(c->latency_ms) || !isfinite(c->bytes_per_ms) || !good_number(c->scale))
        return 0;
    if (c->npoints < 0 || c->npoints > SKMD_PART_LINK_POINTS)
        return 0;
    for (int i = 0; i < c->npoints; i++) {
        if (!good_number(c->point_bytes[i]) || !good_number(c->point_ms[i]))
            return 0;
        if (i > 0 && c->point_bytes[i] < c->point_bytes[i - 1])
            return 0;
    }
    return 1;
}

static int good_device(const struct skmd_part_device *d)
{
    for (int k = 0; k < SKMD_PART_RANGES; k++)
        if (!good_number(d->table.rate[k]))
            return 0;
    for (int dir = 0; dir < 2; dir++)
        for (int mem = 0; mem < 2; mem++)
            if (!good_curve(&d->curve[dir][mem]))
                return 0;
    return good_number(d->peak_rate) && good_number(d->resident_in) && d->resident_in <= 1.0 &&
           good_number(d->remote_in) && d->resident_in + d->remote_in <= 1.0 + 1e-9 &&
           good_number(d->peer_bytes_per_ms) && good_number(d->piece_bytes) &&
           isfinite(d->split_ms) && d->launch_ms + d->split_ms >= 0.0;
}

/* Twins (skmd_part_device.twin_group) run at one rate: each range of each twin's rates
 * becomes the twins' mean there, weighted by their samples (a prediction counts as one),
 * where their rates lie within SKMD_PART_TWIN_SPREAD of each other; farther apart, what
 * was measured sets them apart (a twin busy with other work) and they stay. */
static void pool_twins(struct part_model *m, const struct skmd_part_problem *p)
{
    double pooled[SKMD_PART_MAX_DEVICES][SKMD_PART_RANGES];
    for (int d = 0; d < p->ndev; d++) {
        memcpy(pooled[d], m->rate[d], sizeof pooled[d]);
        if (p->dev[d].twin_group <= 0 || !m->usable[d])
            continue;
        for (int k = 0; k < SKMD_PART_RANGES; k++) {
            double sum = 0.0, weight = 0.0, lo = m->rate[d][k], hi = lo;
            for (int e = 0; e < p->ndev; e++) {
                if (p->dev[e].twin_group != p->dev[d].twin_group || !m->usable[e])
                    continue;
                double w = p->dev[e].table.samples[k] ? p->dev[e].table.samples[k] : 1.0;
                sum += w * m->rate[e][k];
                weight += w;
                lo = fmin(lo, m->rate[e][k]);
                hi = fmax(hi, m->rate[e][k]);
            }
            if (hi <= lo * (1.0 + SKMD_PART_TWIN_SPREAD))
                pooled[d][k] = sum / weight;
        }
    }
    for (int d = 0; d < p->ndev; d++)
        memcpy(m->rate[d], pooled[d], sizeof pooled[d]);
}

int part_model_init(struct part_model *m, const struct skmd_part_problem *p)
{
    if (!p || !p->dev || p->ndev < 1 || p->ndev > SKMD_PART_MAX_DEVICES)
        return SKMD_PART_EINVAL;
    if (p->host_dev < -1 || p->host_dev >= p->ndev)
        return SKMD_PART_EINVAL;
    if (p->mem != SKMD_PART_PAGEABLE && p->mem != SKMD_PART_PINNED)
        return SKMD_PART_EINVAL;
    if (!good_number(p->in_fixed) || !good_number(p->in_per_wg) ||
        !good_number(p->out_fixed) || !good_number(p->out_per_wg) ||
        !good_number(p->merge_fixed_ms) || !good_number(p->merge_ms_per_byte) ||
        !good_number(p->host_bytes_per_ms) || !good_number(p->host_busy_bytes_per_ms))
        return SKMD_PART_EINVAL;
    m->p = p;
    m->ndev = p->ndev;
    for (int d = 0; d < p->ndev; d++) {
        const struct skmd_part_device *dev = &p->dev[d];
        if (!good_device(dev) || dev->twin_group < 0 ||
            (dev->remote_in > 0.0 && (dev->remote_from < 0 || dev->remote_from >= p->ndev)))
            return SKMD_PART_EINVAL;
        m->usable[d] = fill_rates(&dev->table, m->rate[d]);
        m->link_slot[d] = -1;
        for (int e = 0; e < d && dev->link >= 0; e++)
            if (p->dev[e].link == dev->link) {
                m->link_slot[d] = e;
                break;
            }
        if (m->link_slot[d] < 0 && dev->link >= 0) {
            for (int e = d + 1; e < p->ndev; e++)
                if (p->dev[e].link == dev->link)
                    m->link_slot[d] = d; /* first of a shared link: it names the slot */
        }
        m->in_curve[d] = dev->link >= 0 ? &dev->curve[SKMD_PART_H2D][p->mem] : NULL;
        m->out_curve[d] = dev->link >= 0 ? &dev->curve[SKMD_PART_D2H][p->mem] : NULL;
        m->needs_merge[d] = !p->output_contiguous && d != p->host_dev;
    }
    pool_twins(m, p);
    return SKMD_PART_OK;
}

double part_model_rate(const struct part_model *m, int d, uint64_t n)
{
    return interpolate(m->rate[d], n);
}

void part_model_cost(const struct part_model *m, int d, uint64_t n, struct part_cost *c)
{
    const struct skmd_part_problem *p = m->p;
    c->source_ms = 0.0;
    c->pieces = 1;
    c->in_bytes = c->out_bytes = 0.0;
    if (n == 0) {
        c->in_ms = c->kernel_ms = c->out_ms = c->merge_ms = c->table_ms = 0.0;
        return;
    }
    double wg = (double)n;
    double rate = interpolate(m->rate[d], n);
    c->table_ms = rate > 0.0 ? wg / rate : 0.0;
    c->kernel_ms = rate > 0.0 ? c->table_ms : SKMD_PART_NEVER_MS;
    /* The tables hold kernel times: a share also pays the device's launch latency. */
    c->kernel_ms += p->dev[d].launch_ms + (n < p->total_wg ? p->dev[d].split_ms : 0.0);
    if (c->kernel_ms > SKMD_PART_NEVER_MS)
        c->kernel_ms = SKMD_PART_NEVER_MS;
    double out_bytes = p->out_fixed + wg * p->out_per_wg;
    const struct skmd_part_device *dev = &p->dev[d];
    double all_in = p->in_fixed + wg * p->in_per_wg;
    double remote = dev->remote_from != d ? dev->remote_in * all_in : 0.0;
    double in_bytes = fmax(0.0, 1.0 - dev->resident_in - (remote > 0.0 ? dev->remote_in : 0.0)) *
                      all_in;
    c->in_ms = m->in_curve[d] ? skmd_part_link_ms(m->in_curve[d], in_bytes) : 0.0;
    c->in_bytes = m->in_curve[d] ? in_bytes : 0.0;
    if (remote > 0.0 && dev->peer_bytes_per_ms > 0.0) {
        c->in_ms += remote / dev->peer_bytes_per_ms;
    } else if (remote > 0.0) {
        /* Through the host: first off the source, then onto this device. */
        c->source_ms = m->out_curve[dev->remote_from]
                           ? skmd_part_link_ms(m->out_curve[dev->remote_from], remote)
                           : 0.0;
        c->in_ms += c->source_ms +
                    (m->in_curve[d] ? skmd_part_link_ms(m->in_curve[d], remote) : 0.0);
        c->in_bytes += m->in_curve[d] ? remote : 0.0;
    }
    if (c->in_ms > SKMD_PART_NEVER_MS)
        c->in_ms = SKMD_PART_NEVER_MS;
    /* Bytes that cross the link (not resident), the fixed part in the same proportion. */
    if (m->in_curve[d] && dev->max_pieces > 1 && all_in > 0.0) {
        double moving = in_bytes + remote;
        c->pieces = skmd_part_pieces_of(dev, n, moving, p->in_fixed * (moving / all_in));
    }
    /* A device that runs every work-group holds the whole result: nothing to merge. */
    int merged = m->needs_merge[d] && n < p->total_wg;
    int out_moves = !p->outputs_stay || merged;
    c->out_ms = m->out_curve[d] && out_moves ? skmd_part_link_ms(m->out_curve[d], out_bytes)
                                             : 0.0;
    c->out_bytes = m->out_curve[d] && out_moves ? out_bytes : 0.0;
    c->merge_ms = merged ? p->merge_fixed_ms + out_bytes * p->merge_ms_per_byte : 0.0;
    if (c->merge_ms > SKMD_PART_NEVER_MS)
        c->merge_ms = SKMD_PART_NEVER_MS;
}

/* How long the host's side takes to carry `bytes` from `from` ms on: at `busy` bytes/ms
 * until `until` ms (a device computing on the host's cores holds them), at `idle` after.
 * A rate <= 0 is no limit: the links alone price those bytes. */
static double host_carry_ms(double bytes, double from, double until, double idle,
                            double busy)
{
    double span = until - from;
    if (span > 0.0 && busy > 0.0 && !(idle > 0.0 && busy >= idle)) {
        if (bytes <= busy * span)
            return bytes / busy;
        return span + (idle > 0.0 ? (bytes - busy * span) / idle : 0.0);
    }
    return idle > 0.0 ? bytes / idle : 0.0;
}

/* The least time the host's side takes for the launch's input and output bytes when two
 * or more devices move bytes (0 without a host rate: then nothing is summed, the descent
 * calls this for every child). A share on the host's own cores slows the copies from its
 * start to its kernel's end: the inputs first, then the outputs, which come back once the
 * inputs are in (the earliest they can). */
static void host_limits(const struct part_model *m, const struct part_cost *cost,
                        const uint64_t *count, double *in_ms, double *out_ms)
{
    double idle = m->p->host_bytes_per_ms, in = 0.0, out = 0.0, busy_until = 0.0;
    double busy = m->p->host_busy_bytes_per_ms > 0.0 ? m->p->host_busy_bytes_per_ms : idle;
    if (!(idle > 0.0) && !(busy > 0.0))
        return;
    int moving = 0;
    for (int d = 0; d < m->ndev; d++)
        if (count[d]) {
            in += cost[d].in_bytes;
            out += cost[d].out_bytes;
            moving += cost[d].in_bytes > 0.0 || cost[d].out_bytes > 0.0;
            if (m->p->dev[d].on_host_cores)
                busy_until = fmax(busy_until, cost[d].in_ms + cost[d].kernel_ms);
        }
    if (moving >= 2) {
        *in_ms = host_carry_ms(in, 0.0, busy_until, idle, busy);
        *out_ms = host_carry_ms(out, *in_ms, busy_until, idle, busy);
    }
}

/* Transfers on a shared link are serialized: the runtime interleaves the inputs of all
 * devices of one link, so each of them has its input after the link has carried all of
 * them, and likewise for the outputs. Links of their own are bounded together by what the
 * host's side carries (host_limits). A merge runs on the host CPU once a device's output
 * is back; the host CPU device also pays for all the merges, after its own share, since
 * the same cores do both. */
double part_model_finish(const struct part_model *m, const struct part_cost *cost,
                         const uint64_t *count, double *finish, double *sum)
{
    double link_in[SKMD_PART_MAX_DEVICES] = {0}, link_out[SKMD_PART_MAX_DEVICES] = {0};
    double merges = 0.0;
    for (int d = 0; d < m->ndev; d++) {
        int slot = m->link_slot[d];
        if (count[d] == 0 || slot < 0)
            continue;
        link_in[slot] += cost[d].in_ms;
        link_out[slot] += cost[d].out_ms;
    }
    double host_in_ms = 0.0, host_out_ms = 0.0;
    host_limits(m, cost, count, &host_in_ms, &host_out_ms);
    for (int d = 0; d < m->ndev; d++) {
        int slot = m->link_slot[d];
        if (count[d] == 0) {
            finish[d] = 0.0;
            continue;
        }
        double in = slot >= 0 ? link_in[slot] : cost[d].in_ms;
        double out = slot >= 0 ? link_out[slot] : cost[d].out_ms;
        if (cost[d].in_bytes > 0.0 && host_in_ms > in)
            in = host_in_ms;
        if (cost[d].out_bytes > 0.0 && host_out_ms > out)
            out = host_out_ms;
        /* In pieces, the kernel runs while the link (shared or not) brings the rest. */
        finish[d] = pieces_ms(in, cost[d].kernel_ms, cost[d].pieces) + out + cost[d].merge_ms;
        merges += cost[d].merge_ms;
    }
    /* A source device's link carried others' inputs before its own share could use it. */
    for (int d = 0; d < m->ndev; d++) {
        int src = m->p->dev[d].remote_from;
        if (count[d] && cost[d].source_ms > 0.0 && count[src])
            finish[src] += cost[d].source_ms;
    }
    int host = m->p->host_dev;
    if (host >= 0 && merges > 0.0)
        finish[host] = (count[host] ? finish[host] : 0.0) + merges;
    double max = 0.0, total = 0.0;
    for (int d = 0; d < m->ndev; d++) {
        if (finish[d] > SKMD_PART_NEVER_MS)
            finish[d] = SKMD_PART_NEVER_MS;
        if (finish[d] > max)
            max = finish[d];
        total += finish[d];
    }
    if (sum)
        *sum = total;
    return max;
}

/* The shares `count` under m: each device's finish in est_ms and its kernel's table time
 * in est_kernel_ms (either may be NULL); returns the latest finish. */
static double estimate(const struct part_model *m, const uint64_t *count, double *est_ms,
                       double *est_kernel_ms)
{
    struct part_cost cost[SKMD_PART_MAX_DEVICES];
    double scratch[SKMD_PART_MAX_DEVICES];
    for (int d = 0; d < m->ndev; d++) {
        part_model_cost(m, d, count[d], &cost[d]);
        if (est_kernel_ms)
            est_kernel_ms[d] = cost[d].table_ms;
    }
    return part_model_finish(m, cost, count, est_ms ? est_ms : scratch, NULL);
}

/* est_ms, est_kernel_ms and overall_ms of r's shares under m. */
static void fill_estimates(const struct part_model *m, struct skmd_part_result *r)
{
    r->overall_ms = estimate(m, r->count, r->est_ms, r->est_kernel_ms);
}

void part_result_fill(const struct part_model *m, const uint64_t *count,
                      struct skmd_part_result *out)
{
    out->ndev = m->ndev;
    uint64_t start = 0;
    for (int d = 0; d < m->ndev; d++) {
        out->order[d] = d;
        out->start[d] = start;
        out->count[d] = count[d];
        start += count[d];
    }
    fill_estimates(m, out);
}

double part_result_estimate(const struct skmd_part_problem *p, struct skmd_part_result *r)
{
    struct part_model m;
    if (part_model_init(&m, p) != SKMD_PART_OK)
        return SKMD_PART_NEVER_MS;
    fill_estimates(&m, r);
    return r->overall_ms;
}

double skmd_part_estimate(const struct skmd_part_problem *p, const uint64_t *count,
                          double *est_ms)
{
    struct part_model m;
    if (!count || part_model_init(&m, p) != SKMD_PART_OK)
        return SKMD_PART_NEVER_MS;
    return estimate(&m, count, est_ms, NULL);
}
