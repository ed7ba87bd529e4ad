/* tools/trace/decisions.c: the model's estimates and the shares' convergence per kernel,
 * from a decision log (decisions.h). */
#include "decisions.h"

#include "json.h"
#include "median.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "support/json.h"

/* One line of the log: what the report needs of it. */
struct record {
    long pid;
    long long launch;
    size_t kernel;      /* index into decision_log.kernels, in order of first appearance */
    int split;
    double estimate_ms; /* estimate.split_ms; 0: none */
    double wall_ms;     /* 0: not measured */
    double slowest_ms;  /* the slowest share's kernel_ms (split launches); 0: a share untimed */
    double spread;      /* (max - min) / max of the shares' kernel_ms; -1: unknown */
};

struct decision_log {
    struct record *records;
    size_t count, cap;
    char **kernels;
    size_t kernel_count, kernel_cap;
    size_t processes;
};

/* measured / estimated over some launches: the median, and the worst (furthest from 1). */
struct ratio_sum {
    size_t count;
    double median, worst;
    long worst_pid;
    long long worst_launch;
};

/* One process's split launches of one kernel. */
struct process_sum {
    long pid;
    size_t split, within;
    long long first_launch; /* the first within; -1: none */
    size_t first_split;     /* its place among the process's split launches, from 1; 0: none */
};

struct kernel_sum {
    const char *name;
    size_t launches, split, estimated, within, processes;
    struct ratio_sum wall, slowest;
    struct process_sum worst; /* split 0: no process split it */
};

static void *grow(void *array, size_t *cap, size_t size)
{
    size_t more = *cap ? *cap * 2 : 64;
    void *bigger = realloc(array, more * size);
    if (bigger)
        *cap = more;
    return bigger;
}

/* The index of `name` in log->kernels, added when new; SIZE_MAX when out of memory. */
static size_t kernel_index(struct decision_log *log, const char *name)
{
    for (size_t k = 0; k < log->kernel_count; k++)
        if (strcmp(log->kernels[k], name) == 0)
            return k;
    if (log->kernel_count == log->kernel_cap) {
        char **bigger = grow(log->kernels, &log->kernel_cap, sizeof(*bigger));
        if (!bigger)
            return SIZE_MAX;
        log->kernels = bigger;
    }
    char *copy = strdup(name);
    if (!copy)
        return SIZE_MAX;
    log->kernels[log->kernel_count] = copy;
    return log->kernel_count++;
}

/* The slowest share and the spread of a split launch whose every share was timed. */
static void measure_shares(const struct json *shares, struct record *r)
{
    if (!shares || shares->type != JSON_ARRAY || shares->count < 2)
        return;
    double lo = 0, hi = 0;
    for (size_t s = 0; s < shares->count; s++) {
        double ms = json_get_number(shares->items[s], "kernel_ms", 0);
        if (!(ms > 0))
            return;
        lo = s == 0 || ms < lo ? ms : lo;
        hi = s == 0 || ms > hi ? ms : hi;
    }
    r->slowest_ms = hi;
    r->spread = (hi - lo) / hi;
}

/* One line of the log into log->records: 0, or -1 with the reason in err. */
static int read_record(struct decision_log *log, const char *line, const char *where,
                       char *err, size_t err_size)
{
    char why[200];
    struct json *obj = json_parse(line, why, sizeof(why));
    if (!obj) {
        /* one line is one document: its "line 1" says nothing */
        const char *what = strncmp(why, "line 1 ", 7) == 0 ? why + 7 : why;
        snprintf(err, err_size, "%s is not JSON: %s", where, what);
        return -1;
    }
    const struct json *split = json_get(obj, "split");
    const char *kernel = json_get_string(obj, "kernel", NULL);
    double pid = json_get_number(obj, "pid", -1), launch = json_get_number(obj, "launch", -1);
    int rc = -1;
    if (!kernel || pid < 0 || launch < 0 || !split || split->type != JSON_BOOL) {
        snprintf(err, err_size, "%s is not a record of a decision log (SKMD_DECISIONS): it "
                                "lacks pid, launch, kernel or split", where);
        goto done;
    }
    struct record r = {(long)pid, (long long)launch, 0, split->boolean,
                       json_get_number(json_get(obj, "estimate"), "split_ms", 0),
                       json_get_number(obj, "wall_ms", 0), 0, -1};
    if (r.split)
        measure_shares(json_get(obj, "shares"), &r);
    snprintf(err, err_size, "out of memory");
    r.kernel = kernel_index(log, kernel);
    if (r.kernel == SIZE_MAX)
        goto done;
    if (log->count == log->cap) {
        struct record *bigger = grow(log->records, &log->cap, sizeof(*bigger));
        if (!bigger)
            goto done;
        log->records = bigger;
    }
    log->records[log->count++] = r;
    rc = 0;
done:
    json_free(obj);
    return rc;
}

static int is_blank(const char *s)
{
    return s[strspn(s, " \t\r\n")] == '\0';
}

static int load(const char *path, struct decision_log *log, char *err, size_t err_size)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, err_size, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    char *line = NULL, where[64 + 4096];
    size_t cap = 0, number = 0;
    int rc = 0;
    ssize_t len;
    while (rc == 0 && (len = getline(&line, &cap, f)) >= 0) {
        number++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0'; /* an error at the end names this line, not the next */
        snprintf(where, sizeof(where), "%s line %zu", path, number);
        if (!is_blank(line))
            rc = read_record(log, line, where, err, err_size);
    }
    if (rc == 0 && ferror(f)) {
        snprintf(err, err_size, "cannot read %s", path);
        rc = -1;
    }
    free(line);
    fclose(f);
    return rc;
}

static void free_log(struct decision_log *log)
{
    for (size_t k = 0; k < log->kernel_count; k++)
        free(log->kernels[k]);
    free(log->kernels);
    free(log->records);
}

static int by_kernel_pid_launch(const void *a, const void *b)
{
    const struct record *x = a, *y = b;
    if (x->kernel != y->kernel)
        return x->kernel < y->kernel ? -1 : 1;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return (x->launch > y->launch) - (x->launch < y->launch);
}

static int by_pid(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* How far a ratio is from 1, either way: 2 and 0.5 are as far. */
static double distance_from_one(double ratio) { return ratio >= 1 ? ratio : 1 / ratio; }

/* measured / estimated over the split launches r[0..n) with an estimate, where measured is
 * the wall time (slowest 0) or the slowest share's kernel time; scratch holds n values. */
static struct ratio_sum sum_ratios(const struct record *r, size_t n, int slowest,
                                   double *scratch)
{
    struct ratio_sum s = {0, 0, 0, -1, -1};
    for (size_t i = 0; i < n; i++) {
        double measured = slowest ? r[i].slowest_ms : r[i].wall_ms;
        if (!r[i].split || !(r[i].estimate_ms > 0) || !(measured > 0))
            continue;
        double ratio = measured / r[i].estimate_ms;
        scratch[s.count++] = ratio;
        if (s.count == 1 || distance_from_one(ratio) > distance_from_one(s.worst)) {
            s.worst = ratio;
            s.worst_pid = r[i].pid;
            s.worst_launch = r[i].launch;
        }
    }
    s.median = median_of(scratch, s.count);
    return s;
}

/* The split launches of one process, r[0..n) sorted by launch number. */
static struct process_sum sum_process(const struct record *r, size_t n, double within)
{
    struct process_sum p = {r[0].pid, 0, 0, -1, 0};
    for (size_t i = 0; i < n; i++) {
        if (!r[i].split)
            continue;
        p.split++;
        if (r[i].spread < 0 || r[i].spread > within)
            continue;
        p.within++;
        if (!p.first_split) {
            p.first_split = p.split;
            p.first_launch = r[i].launch;
        }
    }
    return p;
}

/* Never within is worse than within at last; else the later, in split launches. */
static int worse(const struct process_sum *a, const struct process_sum *b)
{
    if (!b->split)
        return a->split > 0;
    if (!a->split || !b->first_split)
        return 0;
    return !a->first_split || a->first_split > b->first_split;
}

/* The kernel of r[0..n) (sorted by pid, then launch number). */
static struct kernel_sum sum_kernel(const struct decision_log *log, const struct record *r,
                                    size_t n, double within, double *scratch)
{
    struct kernel_sum k = {log->kernels[r[0].kernel], n, 0, 0, 0, 0, {0}, {0}, {0}};
    for (size_t i = 0; i < n; i++) {
        k.split += r[i].split;
        k.estimated += r[i].split && r[i].estimate_ms > 0;
    }
    k.wall = sum_ratios(r, n, 0, scratch);
    k.slowest = sum_ratios(r, n, 1, scratch);
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i; j < n && r[j].pid == r[i].pid; j++)
            ;
        struct process_sum p = sum_process(r + i, j - i, within);
        k.processes++;
        k.within += p.within;
        if (worse(&p, &k.worst))
            k.worst = p;
    }
    return k;
}

static void put_ratio(FILE *out, const struct ratio_sum *s)
{
    if (s->count)
        fprintf(out, "{\"launches\": %zu, \"median\": %.6f, \"worst\": %.6f, \"worst_pid\": "
                     "%ld, \"worst_launch\": %lld}",
                s->count, s->median, s->worst, s->worst_pid, s->worst_launch);
    else
        fputs("null", out);
}

/* {"launch": L, "split_number": N}: the process's first split launch within, and how many
 * split launches it took; both null when none is. */
static void put_first_within(FILE *out, const struct process_sum *p)
{
    if (p->first_split)
        fprintf(out, "\"launch\": %lld, \"split_number\": %zu}", p->first_launch,
                p->first_split);
    else
        fputs("\"launch\": null, \"split_number\": null}", out);
}

static void write_json_kernel(FILE *out, const struct kernel_sum *k, const struct record *r,
                              size_t n, double within)
{
    fputs("\n  {\"kernel\": ", out);
    skmd_json_string(out, k->name);
    fprintf(out, ", \"launches\": %zu, \"split_launches\": %zu, \"estimated_launches\": %zu, "
                 "\"wall_ratio\": ", k->launches, k->split, k->estimated);
    put_ratio(out, &k->wall);
    fputs(", \"kernel_ratio\": ", out);
    put_ratio(out, &k->slowest);
    fprintf(out, ",\n   \"within_launches\": %zu, \"processes\": %zu, \"first_within\": ",
            k->within, k->processes);
    if (k->worst.split) {
        fprintf(out, "{\"pid\": %ld, ", k->worst.pid);
        put_first_within(out, &k->worst);
    } else {
        fputs("null", out);
    }
    fputs(",\n   \"per_process\": [", out);
    for (size_t i = 0, j, count = 0; i < n; i = j) {
        for (j = i; j < n && r[j].pid == r[i].pid; j++)
            ;
        struct process_sum p = sum_process(r + i, j - i, within);
        fprintf(out, "%s{\"pid\": %ld, \"split_launches\": %zu, \"within_launches\": %zu, "
                     "\"first_within\": {", count++ ? ", " : "", p.pid, p.split, p.within);
        put_first_within(out, &p);
        fputc('}', out);
    }
    fputs("]}", out);
}

static void text_ratio(FILE *out, const struct ratio_sum *s)
{
    if (s->count)
        fprintf(out, " %10.2f %6.2f", s->median, s->worst);
    else
        fprintf(out, " %10s %6s", "-", "-");
}

static void write_text_kernel(FILE *out, const struct kernel_sum *k)
{
    char within[48];
    snprintf(within, sizeof(within), "%zu of %zu", k->within, k->split);
    fprintf(out, "%-24.24s %8zu %6zu %9zu", k->name, k->launches, k->split, k->estimated);
    text_ratio(out, &k->wall);
    text_ratio(out, &k->slowest);
    fprintf(out, " %11s  ", within);
    if (!k->worst.split)
        fputs("-\n", out);
    else if (!k->worst.first_split)
        fprintf(out, "never (pid %ld)\n", k->worst.pid);
    else
        fprintf(out, "launch %lld (split #%zu, pid %ld)\n", k->worst.first_launch,
                k->worst.first_split, k->worst.pid);
}

static void write_report(FILE *out, struct decision_log *log, double within, int json,
                         double *scratch)
{
    size_t split = 0;
    for (size_t i = 0; i < log->count; i++)
        split += log->records[i].split;
    if (json) {
        fprintf(out, "{\"within\": %.6f, \"launches\": %zu, \"split_launches\": %zu, "
                     "\"processes\": %zu,\n \"kernels\": [",
                within, log->count, split, log->processes);
    } else {
        fprintf(out, "decisions: %zu launches of %zu kernel%s in %zu process%s, %zu split\n",
                log->count, log->kernel_count, log->kernel_count == 1 ? "" : "s",
                log->processes, log->processes == 1 ? "" : "es", split);
        if (log->count) {
            char within_column[32];
            snprintf(within_column, sizeof(within_column), "within_%g%%", within * 100);
            fprintf(out, "%-24s %8s %6s %9s %10s %6s %10s %6s %11s  %s\n", "kernel",
                    "launches", "split", "estimated", "wall/est", "worst", "kernel/est",
                    "worst", within_column, "first within (worst process)");
        }
    }
    for (size_t i = 0, j; i < log->count; i = j) {
        const struct record *r = log->records + i;
        for (j = i; j < log->count && log->records[j].kernel == r->kernel; j++)
            ;
        struct kernel_sum k = sum_kernel(log, r, j - i, within, scratch);
        if (json) {
            fputs(i ? "," : "", out);
            write_json_kernel(out, &k, r, j - i, within);
        } else {
            write_text_kernel(out, &k);
        }
    }
    if (json)
        fputs("]}\n", out);
}

int decisions_write(FILE *out, const char *path, double within, int json, char *err,
                    size_t err_size)
{
    struct decision_log log = {0};
    if (load(path, &log, err, err_size) != 0) {
        free_log(&log);
        return -1;
    }
    size_t n = log.count ? log.count : 1;
    double *scratch = malloc(n * sizeof(*scratch));
    long *pids = malloc(n * sizeof(*pids));
    if (!scratch || !pids) {
        snprintf(err, err_size, "out of memory");
        free(scratch);
        free(pids);
        free_log(&log);
        return -1;
    }
    for (size_t i = 0; i < log.count; i++)
        pids[i] = log.records[i].pid;
    qsort(pids, log.count, sizeof(*pids), by_pid);
    for (size_t i = 0; i < log.count; i++)
        log.processes += i == 0 || pids[i] != pids[i - 1];
    free(pids);
    qsort(log.records, log.count, sizeof(*log.records), by_kernel_pid_launch);
    write_report(out, &log, within, json, scratch);
    free(scratch);
    free_log(&log);
    if (ferror(out)) {
        snprintf(err, err_size, "error writing the report");
        return -1;
    }
    return 0;
}
