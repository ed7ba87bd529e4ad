/* tools/trace/summary.c: sums a timeline up per kernel and device. */
#include "summary.h"

#include <stdlib.h>
#include <string.h>

struct row {
    const char *kernel;
    size_t lane;
    long launches, last_launch;
    double work_groups, kernel_us, transfer_us, merge_us, bytes;
};

static int by_kernel_then_lane(const void *a, const void *b)
{
    const struct row *x = a, *y = b;
    int c = strcmp(x->kernel, y->kernel);
    return c ? c : (x->lane > y->lane) - (x->lane < y->lane);
}

int summary_write(FILE *out, const struct timeline *t)
{
    struct row *rows = calloc(t->span_count ? t->span_count : 1, sizeof(*rows));
    if (!rows)
        return -1;
    size_t count = 0;
    for (size_t i = 0; i < t->span_count; i++) {
        const struct timeline_span *s = &t->spans[i];
        struct row *r = NULL;
        for (size_t k = 0; k < count && !r; k++)
            if (rows[k].lane == s->lane && strcmp(rows[k].kernel, s->kernel) == 0)
                r = &rows[k];
        if (!r) {
            r = &rows[count++];
            r->kernel = s->kernel;
            r->lane = s->lane;
            r->last_launch = -2;
        }
        if (strcmp(s->category, "kernel") == 0) {
            /* spans of one launch carry its number; without one, each span is a launch */
            if (s->launch < 0 || s->launch != r->last_launch)
                r->launches++;
            r->last_launch = s->launch;
            r->work_groups += s->work_groups;
            r->kernel_us += s->duration_us;
        } else if (strncmp(s->category, "transfer", 8) == 0) {
            r->transfer_us += s->duration_us;
            r->bytes += s->bytes;
        } else if (strcmp(s->category, "merge") == 0) {
            r->merge_us += s->duration_us;
            r->bytes += s->bytes;
        }
    }
    qsort(rows, count, sizeof(*rows), by_kernel_then_lane);
    fprintf(out, "trace: %zu spans on %zu lanes over %.3f ms\n", t->span_count, t->lane_count,
            (t->end_us - t->start_us) / 1000);
    fprintf(out, "%-24s %-28s %8s %12s %10s %12s %9s %14s\n", "kernel", "device", "launches",
            "work_groups", "kernel_ms", "transfer_ms", "merge_ms", "bytes_moved");
    for (size_t k = 0; k < count; k++) {
        const struct row *r = &rows[k];
        fprintf(out, "%-24.24s %-28.28s %8ld %12.0f %10.3f %12.3f %9.3f %14.0f\n", r->kernel,
                t->lanes[r->lane].name, r->launches, r->work_groups, r->kernel_us / 1000,
                r->transfer_us / 1000, r->merge_us / 1000, r->bytes);
    }
    free(rows);
    return ferror(out) ? -1 : 0;
}
