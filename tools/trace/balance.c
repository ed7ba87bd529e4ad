/* tools/trace/balance.c: each split launch's finish time per device, and its spread. */
#include "balance.h"
#include "median.h"

#include <stdlib.h>
#include <string.h>

#include "support/json.h"

struct device_finish {
    size_t lane;
    double finish_us;   /* end of its last span but merges, from the launch's first span */
    double work_groups; /* of its kernel spans */
};

struct launch_balance {
    long launch;
    const char *kernel;
    double start_us, duration_us, merge_us, spread;
    size_t first_device, device_count; /* into the device_finish array */
};

struct kernel_balance {
    const char *kernel;
    size_t launches, balanced;
    double median, worst;
    long worst_launch;
};

struct balance {
    struct launch_balance *launches;
    size_t launch_count;
    struct device_finish *devices;
    size_t device_count;
    struct kernel_balance *kernels;
    size_t kernel_count;
    struct kernel_balance all;
    size_t one_device;   /* launches whose kernel spans lie on one lane: not split */
    size_t unattributed; /* spans of no launch, or of a launch number with no kernel span */
};

static const struct timeline_span *sorting_spans; /* for qsort's comparison */

static int by_launch_then_lane(const void *a, const void *b)
{
    const struct timeline_span *x = &sorting_spans[*(const size_t *)a];
    const struct timeline_span *y = &sorting_spans[*(const size_t *)b];
    if (x->launch != y->launch)
        return x->launch < y->launch ? -1 : 1;
    return (x->lane > y->lane) - (x->lane < y->lane);
}

static int is_kernel(const struct timeline_span *s) { return strcmp(s->category, "kernel") == 0; }

static int is_merge(const struct timeline_span *s) { return strcmp(s->category, "merge") == 0; }

static double end_of(const struct timeline_span *s) { return s->start_us + s->duration_us; }

/* One launch: spans spans[idx[0..n)] of one launch number, sorted by lane. */
static void add_launch(struct balance *b, const struct timeline_span *spans, const size_t *idx,
                       size_t n)
{
    struct launch_balance L = {spans[idx[0]].launch, NULL, spans[idx[0]].start_us, 0, 0, 0,
                               b->device_count, 0};
    double end = end_of(&spans[idx[0]]);
    for (size_t i = 0; i < n; i++) {
        const struct timeline_span *s = &spans[idx[i]];
        if (s->start_us < L.start_us)
            L.start_us = s->start_us;
        if (end_of(s) > end)
            end = end_of(s);
        if (is_merge(s))
            L.merge_us += s->duration_us;
    }
    L.duration_us = end - L.start_us;
    /* Per lane: its finish, and whether it ran a share (only those lanes count). Merges
     * are left out: libskmd merges once every share is done, so the merge member would
     * always finish last and every merged launch would look balanced. */
    for (size_t i = 0; i < n;) {
        size_t lane = spans[idx[i]].lane;
        struct device_finish d = {lane, 0, 0};
        int ran_share = 0;
        for (; i < n && spans[idx[i]].lane == lane; i++) {
            const struct timeline_span *s = &spans[idx[i]];
            if (!is_merge(s) && end_of(s) - L.start_us > d.finish_us)
                d.finish_us = end_of(s) - L.start_us;
            if (is_kernel(s)) {
                ran_share = 1;
                d.work_groups += s->work_groups;
                if (!L.kernel)
                    L.kernel = s->kernel;
            }
        }
        if (ran_share)
            b->devices[b->device_count++] = d;
    }
    L.device_count = b->device_count - L.first_device;
    if (L.device_count < 2) {
        b->device_count = L.first_device;
        if (L.device_count == 1)
            b->one_device++;
        else
            b->unattributed += n;
        return;
    }
    double earliest = b->devices[L.first_device].finish_us, latest = earliest;
    for (size_t d = L.first_device; d < b->device_count; d++) {
        if (b->devices[d].finish_us < earliest)
            earliest = b->devices[d].finish_us;
        if (b->devices[d].finish_us > latest)
            latest = b->devices[d].finish_us;
    }
    L.spread = latest > 0 ? (latest - earliest) / latest : 0;
    b->launches[b->launch_count++] = L;
}

/* Count, balanced count, median and worst spread of the launches of `kernel` (NULL: all). */
static int sum_up(struct balance *b, const char *kernel, double within, struct kernel_balance *k)
{
    double *spreads = malloc((b->launch_count ? b->launch_count : 1) * sizeof(*spreads));
    if (!spreads)
        return -1;
    *k = (struct kernel_balance){kernel, 0, 0, 0, 0, -1};
    for (size_t i = 0; i < b->launch_count; i++) {
        const struct launch_balance *L = &b->launches[i];
        if (kernel && strcmp(L->kernel, kernel) != 0)
            continue;
        spreads[k->launches++] = L->spread;
        k->balanced += L->spread <= within;
        if (k->worst_launch < 0 || L->spread > k->worst) {
            k->worst = L->spread;
            k->worst_launch = L->launch;
        }
    }
    k->median = median_of(spreads, k->launches);
    free(spreads);
    return 0;
}

static int analyse(const struct timeline *t, double within, struct balance *b)
{
    memset(b, 0, sizeof(*b));
    size_t n = t->span_count ? t->span_count : 1;
    size_t *idx = malloc(n * sizeof(*idx));
    b->launches = malloc(n * sizeof(*b->launches));
    b->devices = malloc(n * sizeof(*b->devices));
    b->kernels = malloc(n * sizeof(*b->kernels));
    if (!idx || !b->launches || !b->devices || !b->kernels) {
        free(idx);
        return -1;
    }
    size_t count = 0;
    for (size_t i = 0; i < t->span_count; i++) {
        if (t->spans[i].launch >= 0)
            idx[count++] = i;
        else
            b->unattributed++;
    }
    sorting_spans = t->spans;
    qsort(idx, count, sizeof(*idx), by_launch_then_lane);
    for (size_t i = 0; i < count;) {
        size_t j = i;
        while (j < count && t->spans[idx[j]].launch == t->spans[idx[i]].launch)
            j++;
        add_launch(b, t->spans, idx + i, j - i);
        i = j;
    }
    free(idx);
    for (size_t i = 0; i < b->launch_count; i++) {
        const char *kernel = b->launches[i].kernel;
        int seen = 0;
        for (size_t k = 0; k < b->kernel_count && !seen; k++)
            seen = strcmp(b->kernels[k].kernel, kernel) == 0;
        if (!seen && sum_up(b, kernel, within, &b->kernels[b->kernel_count++]) != 0)
            return -1;
    }
    return sum_up(b, NULL, within, &b->all);
}

static void free_balance(struct balance *b)
{
    free(b->launches);
    free(b->devices);
    free(b->kernels);
}

static void write_text(FILE *out, const struct timeline *t, const struct balance *b,
                       double within)
{
    fprintf(out, "balance: %zu split launches, %zu finished within %g%% of each other "
                 "(not counted: launches on one device %zu, spans of no launch %zu)\n",
            b->launch_count, b->all.balanced, within * 100, b->one_device, b->unattributed);
    if (!b->launch_count)
        return;
    fprintf(out, "%6s %-24s %11s %9s %8s %-8s %s\n", "launch", "kernel", "duration_ms",
            "merge_ms", "spread%", "balanced", "finish_ms per device (share of the work-groups)");
    for (size_t i = 0; i < b->launch_count; i++) {
        const struct launch_balance *L = &b->launches[i];
        double groups = 0;
        for (size_t d = 0; d < L->device_count; d++)
            groups += b->devices[L->first_device + d].work_groups;
        fprintf(out, "%6ld %-24.24s %11.3f %9.3f %8.1f %-8s", L->launch, L->kernel,
                L->duration_us / 1000, L->merge_us / 1000, L->spread * 100,
                L->spread <= within ? "yes" : "no");
        for (size_t d = 0; d < L->device_count; d++) {
            const struct device_finish *f = &b->devices[L->first_device + d];
            fprintf(out, "%s%s %.3f (%.0f%%)", d ? "; " : " ", t->lanes[f->lane].name,
                    f->finish_us / 1000, groups > 0 ? 100 * f->work_groups / groups : 0);
        }
        fputc('\n', out);
    }
    char within_column[32];
    snprintf(within_column, sizeof(within_column), "within_%g%%", within * 100);
    fprintf(out, "%-24s %6s %11s %15s %14s %12s\n", "kernel", "split", within_column,
            "median_spread%", "worst_spread%", "worst_launch");
    for (size_t k = 0; k <= b->kernel_count; k++) {
        const struct kernel_balance *s = k < b->kernel_count ? &b->kernels[k] : &b->all;
        if (k == b->kernel_count && b->kernel_count < 2)
            break;
        fprintf(out, "%-24.24s %6zu %11zu %15.1f %14.1f %12ld\n",
                s->kernel ? s->kernel : "(all kernels)", s->launches, s->balanced,
                s->median * 100, s->worst * 100, s->worst_launch);
    }
}


static void put_json_sum(FILE *out, const struct kernel_balance *s)
{
    fprintf(out, "\"split_launches\": %zu, \"balanced_launches\": %zu, \"median_spread\": %.6f, "
                 "\"worst_spread\": %.6f, \"worst_launch\": %ld",
            s->launches, s->balanced, s->median, s->worst, s->worst_launch);
}

static void write_json(FILE *out, const struct timeline *t, const struct balance *b,
                       double within)
{
    fprintf(out, "{\"within\": %.6f, ", within);
    put_json_sum(out, &b->all);
    fprintf(out, ", \"one_device_launches\": %zu, \"unattributed_spans\": %zu,\n \"launches\": [",
            b->one_device, b->unattributed);
    for (size_t i = 0; i < b->launch_count; i++) {
        const struct launch_balance *L = &b->launches[i];
        fprintf(out, "%s\n  {\"launch\": %ld, \"kernel\": ", i ? "," : "", L->launch);
        skmd_json_string(out, L->kernel);
        fprintf(out, ", \"start_ms\": %.6f, \"duration_ms\": %.6f, \"merge_ms\": %.6f, "
                     "\"spread\": %.6f, \"balanced\": %s, \"devices\": [",
                L->start_us / 1000, L->duration_us / 1000, L->merge_us / 1000, L->spread,
                L->spread <= within ? "true" : "false");
        for (size_t d = 0; d < L->device_count; d++) {
            const struct device_finish *f = &b->devices[L->first_device + d];
            fprintf(out, "%s{\"device\": ", d ? ", " : "");
            skmd_json_string(out, t->lanes[f->lane].name);
            fprintf(out, ", \"finish_ms\": %.6f, \"work_groups\": %.0f}", f->finish_us / 1000,
                    f->work_groups);
        }
        fprintf(out, "]}");
    }
    fprintf(out, "],\n \"kernels\": [");
    for (size_t k = 0; k < b->kernel_count; k++) {
        fprintf(out, "%s\n  {\"kernel\": ", k ? "," : "");
        skmd_json_string(out, b->kernels[k].kernel);
        fprintf(out, ", ");
        put_json_sum(out, &b->kernels[k]);
        fprintf(out, "}");
    }
    fprintf(out, "]}\n");
}

int balance_write(FILE *out, const struct timeline *t, double within, int json)
{
    struct balance b;
    if (analyse(t, within, &b) != 0) {
        free_balance(&b);
        return -1;
    }
    if (json)
        write_json(out, t, &b, within);
    else
        write_text(out, t, &b, within);
    free_balance(&b);
    return ferror(out) ? -1 : 0;
}
