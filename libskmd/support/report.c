/* libskmd/support/report.c: adds launches up per kernel and prints the exit summary and the
 * SKMD_REPORT table (or JSON). */
#include "support/report.h"

#include "support/config.h"
#include "support/json.h"
#include "support/log.h"

#include <errno.h>
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
    char decision[160]; /* of the last launch that was not split, else of the last launch */
    /* Split launches with an estimate of the launch whole on the best single device: that
     * estimate summed, and their measured time. */
    double est_whole_ms, measured_ms_with_whole;
    uint64_t split_with_whole;
};

static struct {
    pthread_mutex_t lock;
    struct kernel_row *rows;
    size_t count, capacity;
    int ndevices;
    char device_names[SKMD_REPORT_MAX_DEVICES][96];
    unsigned up;        /* members brought up in some context (cl/bring_up.h) */
    double bring_up_ms; /* the bring-ups after clCreateContext, all told */
} report = {.lock = PTHREAD_MUTEX_INITIALIZER};

static pthread_once_t report_once = PTHREAD_ONCE_INIT;
static enum skmd_report report_mode; /* SKMD_REPORT */

/* Split launches that the model expected to gain this much (fraction of the whole
 * estimate) and lost it instead are worth a warning at exit without SKMD_REPORT: the
 * run would have been faster on one device. Small losses are noise on a loaded host. */
#define REPORT_LOSS_WARN_FRACTION 0.25
#define REPORT_LOSS_WARN_MS 10.0

/* Where SKMD_REPORT goes: SKMD_REPORT_FILE (replaced), else stderr. */
static FILE *report_stream(int *close_it)
{
    const char *path = skmd_config()->report_file;
    *close_it = 0;
    if (!path || !path[0])
        return stderr;
    FILE *f = fopen(path, "w");
    if (!f) {
        skmd_log(SKMD_LOG_WARN, "SKMD_REPORT_FILE=%s: %s; the report goes to stderr", path,
                 strerror(errno));
        return stderr;
    }
    *close_it = 1;
    return f;
}

static void print_at_exit(void)
{
    if (report_mode != SKMD_REPORT_OFF) {
        int close_it;
        FILE *out = report_stream(&close_it);
        if (report_mode == SKMD_REPORT_JSON)
            skmd_report_print_json(out);
        else
            skmd_report_print(out);
        if (close_it)
            fclose(out);
    } else {
        /* The summary alone: at info level, or warn when the splits lost time. */
        pthread_mutex_lock(&report.lock);
        uint64_t launches = 0, with_whole = 0;
        double whole = 0, measured = 0;
        for (size_t i = 0; i < report.count; i++) {
            launches += report.rows[i].launches;
            with_whole += report.rows[i].split_with_whole;
            whole += report.rows[i].est_whole_ms;
            measured += report.rows[i].measured_ms_with_whole;
        }
        pthread_mutex_unlock(&report.lock);
        double lost = measured - whole;
        int bad = with_whole && lost > REPORT_LOSS_WARN_MS &&
                  lost > REPORT_LOSS_WARN_FRACTION * whole;
        if (launches && skmd_log_enabled(bad ? SKMD_LOG_WARN : SKMD_LOG_INFO)) {
            char line[320];
            skmd_report_summary(line, sizeof line);
            skmd_log(bad ? SKMD_LOG_WARN : SKMD_LOG_INFO, "%s%s", line,
                     bad ? " (SKMD_REPORT=1 shows which kernels)" : "");
        }
    }
    pthread_mutex_lock(&report.lock);
    free(report.rows);
    report.rows = NULL;
    report.count = report.capacity = 0;
    pthread_mutex_unlock(&report.lock);
}

static void set_up_report(void)
{
    report_mode = skmd_config()->report;
    atexit(print_at_exit);
}

int skmd_report_enabled(void)
{
    pthread_once(&report_once, set_up_report);
    return report_mode != SKMD_REPORT_OFF;
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
        if (launch->split && launch->est_whole_ms > 0) {
            row->split_with_whole++;
            row->est_whole_ms += launch->est_whole_ms;
            row->measured_ms_with_whole += launch->measured_ms;
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

/* Called locked: the rows by time, and their sum. */
static struct kernel_row sum_rows(void)
{
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
        all.split_with_whole += r->split_with_whole;
        all.est_whole_ms += r->est_whole_ms;
        all.measured_ms_with_whole += r->measured_ms_with_whole;
    }
    return all;
}

/* Called locked. */
static void summary_locked(const struct kernel_row *all, char *line, size_t size)
{
    char moved[24];
    format_bytes(moved, sizeof(moved), all->bytes_moved);
    int at = snprintf(line, size,
                      "%llu launch%s of %zu kernel%s, %llu split over %d devices, %s moved",
                      (unsigned long long)all->launches, all->launches == 1 ? "" : "es",
                      report.count,
                      report.count == 1 ? "" : "s", (unsigned long long)all->split_launches,
                      report.ndevices, moved);
    if (at < 0 || (size_t)at >= size)
        return;
    double saved = all->est_whole_ms - all->measured_ms_with_whole;
    if (all->split_with_whole)
        snprintf(line + at, size - (size_t)at,
                 "; the splits took %.1f ms, estimated %.1f ms on the best single device: "
                 "%.1f ms %s",
                 all->measured_ms_with_whole, all->est_whole_ms, saved < 0 ? -saved : saved,
                 saved < 0 ? "lost" : "saved");
    else if (all->split_launches)
        snprintf(line + at, size - (size_t)at,
                 "; no single-device estimate (forced shares or no measured speeds)");
}

void skmd_report_summary(char *line, size_t size)
{
    pthread_mutex_lock(&report.lock);
    struct kernel_row all = sum_rows();
    summary_locked(&all, line, size);
    pthread_mutex_unlock(&report.lock);
}

void skmd_report_print(FILE *out)
{
    pthread_mutex_lock(&report.lock);
    struct kernel_row all = sum_rows();
    char line[320];
    summary_locked(&all, line, sizeof line);
    fprintf(out, "libskmd: %s\n", line);
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

/* A number, or null when `known` is 0 (JSON has no NaN). */
static void json_number(FILE *out, int known, double value)
{
    if (known)
        fprintf(out, "%.6g", value);
    else
        fputs("null", out);
}

/* The figures common to a kernel and the whole run. */
static void json_row(FILE *out, const struct kernel_row *r, int ndevices)
{
    fprintf(out, "\"launches\":%llu,\"split_launches\":%llu,\"shares\":[",
            (unsigned long long)r->launches, (unsigned long long)r->split_launches);
    uint64_t total = 0;
    for (int d = 0; d < ndevices; d++)
        total += r->workgroups[d];
    for (int d = 0; d < ndevices; d++)
        fprintf(out, "%s%.4f", d ? "," : "",
                total ? (double)r->workgroups[d] / (double)total : 0.0);
    fprintf(out, "],\"time_ms\":%.6g,\"est_ms\":", r->measured_ms);
    json_number(out, r->measured_ms_with_estimate > 0, r->estimated_ms);
    fputs(",\"est_err\":", out);
    json_number(out, r->measured_ms_with_estimate > 0,
                (r->estimated_ms - r->measured_ms_with_estimate) / r->measured_ms_with_estimate);
    fprintf(out, ",\"bytes_moved\":%llu,\"split_time_ms\":", (unsigned long long)r->bytes_moved);
    json_number(out, r->split_with_whole > 0, r->measured_ms_with_whole);
    fputs(",\"est_single_device_ms\":", out);
    json_number(out, r->split_with_whole > 0, r->est_whole_ms);
    fputs(",\"est_saved_ms\":", out);
    json_number(out, r->split_with_whole > 0, r->est_whole_ms - r->measured_ms_with_whole);
}

void skmd_report_members_up(unsigned members, double ms)
{
    pthread_mutex_lock(&report.lock);
    report.up |= members;
    report.bring_up_ms += ms;
    pthread_mutex_unlock(&report.lock);
}

void skmd_report_print_json(FILE *out)
{
    pthread_mutex_lock(&report.lock);
    struct kernel_row all = sum_rows();
    char line[320];
    summary_locked(&all, line, sizeof line);
    fputs("{\"summary\":", out);
    skmd_json_string(out, line);
    fputs(",\"devices\":[", out);
    for (int d = 0; d < report.ndevices; d++) {
        fprintf(out, "%s{\"device\":%d,\"name\":", d ? "," : "", d);
        skmd_json_string(out, report.device_names[d]);
        fprintf(out, ",\"up\":%s}", report.up >> d & 1u ? "true" : "false");
    }
    fprintf(out, "],\"bring_up_ms\":%.3f,\"kernel_count\":%zu,", report.bring_up_ms,
            report.count);
    json_row(out, &all, report.ndevices);
    fputs(",\"kernels\":[", out);
    for (size_t i = 0; i < report.count; i++) {
        fputs(i ? ",{\"kernel\":" : "{\"kernel\":", out);
        skmd_json_string(out, report.rows[i].name);
        fputc(',', out);
        json_row(out, &report.rows[i], report.ndevices);
        fputs(",\"decision\":", out);
        skmd_json_string(out, report.rows[i].decision);
        fputc('}', out);
    }
    fputs("]}\n", out);
    pthread_mutex_unlock(&report.lock);
    fflush(out);
}
