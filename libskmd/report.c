/* libskmd/report.c: adds launches up per kernel and prints the SKMD_REPORT table. */
#include "report.h"

#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct kernel_row {
    char name[64];
    uint64_t launches, split_launches;
    uint64_t workgroups[SKMD_REPORT_MAX_DEVICES];
    uint64_t bytes_moved;
    double measured_ms;
    double estimated_ms, measured_ms_with_estimate; /* over launches that had a prediction */
    char decision[96]; /* of the last launch that was not split, else of the last launch */
};

static struct {
    pthread_mutex_t lock;
    struct kernel_row *rows;
    size_t count, capacity;
    int ndevices;
    char device_names[SKMD_REPORT_MAX_DEVICES][96];
} report = {.lock = PTHREAD_MUTEX_INITIALIZER};

static pthread_once_t report_once = PTHREAD_ONCE_INIT;
static int report_on;

static void print_at_exit(void)
{
    skmd_report_print(stderr);
    pthread_mutex_lock(&report.lock);
    free(report.rows);
    report.rows = NULL;
    report.count = report.capacity = 0;
    pthread_mutex_unlock(&report.lock);
}

static void set_up_report(void)
{
    report_on = skmd_config()->report;
    if (report_on)
        atexit(print_at_exit);
}

int skmd_report_enabled(void)
{
    pthread_once(&report_once, set_up_report);
    return report_on;
}

void skmd_report_name_device(int device, const char *name)
{
    skmd_report_enabled();
    if (device < 0 || device >= SKMD_REPORT_MAX_DEVICES || !name)
        return;
    pthread_mutex_lock(&report.lock);
    snprintf(report.device_names[device], sizeof(report.device_names[device]), "%s", name);
    if (device >= report.ndevices)
        report.ndevices = device + 1;
    pthread_mutex_unlock(&report.lock);
}

/* The row of `name`, created when new; NULL when out of memory. Called locked. */
static struct kernel_row *row_of(const char *name)
{
    for (size_t i = 0; i < report.count; i++)
        if (strncmp(report.rows[i].name, name, sizeof(report.rows[i].name) - 1) == 0)
            return &report.rows[i];
    if (report.count == report.capacity) {
        size_t capacity = report.capacity ? report.capacity * 2 : 16;
        struct kernel_row *bigger = realloc(report.rows, capacity * sizeof(*bigger));
        if (!bigger)
            return NULL;
        report.rows = bigger;
        report.capacity = capacity;
    }
    struct kernel_row *row = &report.rows[report.count++];
    memset(row, 0, sizeof(*row));
    snprintf(row->name, sizeof(row->name), "%s", name);
    return row;
}

void skmd_report_launch(const struct skmd_report_launch *launch)
{
    skmd_report_enabled();
    if (!launch)
        return;
    pthread_mutex_lock(&report.lock);
    struct kernel_row *row = row_of(launch->kernel ? launch->kernel : "(unnamed)");
    if (row) {
        row->launches++;
        row->split_launches += launch->split != 0;
        int n = launch->ndevices < SKMD_REPORT_MAX_DEVICES ? launch->ndevices
                                                           : SKMD_REPORT_MAX_DEVICES;
        for (int d = 0; d < n; d++)
            row->workgroups[d] += launch->workgroups[d];
        if (n > report.ndevices)
            report.ndevices = n;
        row->bytes_moved += launch->bytes_moved;
        row->measured_ms += launch->measured_ms;
        if (launch->estimated_ms >= 0) {
            row->estimated_ms += launch->estimated_ms;
            row->measured_ms_with_estimate += launch->measured_ms;
        }
        /* keep why a launch ran whole: the surprise worth seeing */
        int keep_old = launch->split && row->split_launches < row->launches;
        if (launch->decision && !keep_old)
            snprintf(row->decision, sizeof(row->decision), "%s", launch->decision);
    }
    pthread_mutex_unlock(&report.lock);
}

static int by_time_descending(const void *a, const void *b)
{
    const struct kernel_row *x = a, *y = b;
    return (x->measured_ms < y->measured_ms) - (x->measured_ms > y->measured_ms);
}

/* "12.5 MiB" style, fixed width. */
static void format_bytes(char *out, size_t size, uint64_t bytes)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        u++;
    }
    if (u == 0)
        snprintf(out, size, "%llu B", (unsigned long long)bytes);
    else
        snprintf(out, size, "%.1f %s", v, units[u]);
}

static void print_row(FILE *out, const struct kernel_row *row, int ndevices)
{
    char split[32], shares[8 * SKMD_REPORT_MAX_DEVICES + 1] = "", est[16] = "-",
                                                   err[16] = "-", moved[24];
    snprintf(split, sizeof(split), "%llu/%llu", (unsigned long long)row->split_launches,
             (unsigned long long)row->launches);
    uint64_t total = 0;
    for (int d = 0; d < ndevices; d++)
        total += row->workgroups[d];
    for (int d = 0; d < ndevices; d++) {
        size_t used = strlen(shares);
        snprintf(shares + used, sizeof(shares) - used, "%s%.2f", d ? "/" : "",
                 total ? (double)row->workgroups[d] / (double)total : 0.0);
    }
    if (row->measured_ms_with_estimate > 0) {
        snprintf(est, sizeof(est), "%.3f", row->estimated_ms);
        snprintf(err, sizeof(err), "%+.1f",
                 100.0 * (row->estimated_ms - row->measured_ms_with_estimate) /
                     row->measured_ms_with_estimate);
    }
    format_bytes(moved, sizeof(moved), row->bytes_moved);
    fprintf(out, "%-24.24s %8llu %9s  %-20s %10.3f %10s %9s %11s  %s\n", row->name,
            (unsigned long long)row->launches, split, shares, row->measured_ms, est, err, moved,
            row->decision[0] ? row->decision : "-");
}

void skmd_report_print(FILE *out)
{
    pthread_mutex_lock(&report.lock);
    qsort(report.rows, report.count, sizeof(*report.rows), by_time_descending);
    struct kernel_row all = {.name = "(all kernels)"};
    for (size_t i = 0; i < report.count; i++) {
        const struct kernel_row *r = &report.rows[i];
        all.launches += r->launches;
        all.split_launches += r->split_launches;
        for (int d = 0; d < SKMD_REPORT_MAX_DEVICES; d++)
            all.workgroups[d] += r->workgroups[d];
        all.bytes_moved += r->bytes_moved;
        all.measured_ms += r->measured_ms;
        all.estimated_ms += r->estimated_ms;
        all.measured_ms_with_estimate += r->measured_ms_with_estimate;
    }
    fprintf(out, "libskmd report: %llu launches of %zu kernels on %d devices\n",
            (unsigned long long)all.launches, report.count, report.ndevices);
    for (int d = 0; d < report.ndevices; d++)
        fprintf(out, "  device %d: %s\n", d,
                report.device_names[d][0] ? report.device_names[d] : "(unnamed)");
    fprintf(out, "%-24s %8s %9s  %-20s %10s %10s %9s %11s  %s\n", "kernel", "launches", "split",
            "shares", "time_ms", "est_ms", "est_err%", "moved", "decision");
    for (size_t i = 0; i < report.count; i++)
        print_row(out, &report.rows[i], report.ndevices);
    if (report.count > 1)
        print_row(out, &all, report.ndevices);
    pthread_mutex_unlock(&report.lock);
    fflush(out);
}
