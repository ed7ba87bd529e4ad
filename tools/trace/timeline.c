/* tools/trace/timeline.c: trace JSON -> lanes and spans. */
#include "timeline.h"

#include "json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_file(const char *path, char *err, size_t err_size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_size, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, len = 0, n;
    char *text = malloc(cap);
    while (text && (n = fread(text + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (cap - len < 2) {
            char *bigger = realloc(text, cap *= 2);
            if (!bigger)
                free(text);
            text = bigger;
        }
    }
    int failed = ferror(f);
    fclose(f);
    if (!text || failed) {
        free(text);
        snprintf(err, err_size, "cannot read %s", path);
        return NULL;
    }
    text[len] = '\0';
    return text;
}

/* The lane of (pid, tid), added when new; SIZE_MAX when out of memory. */
static size_t lane_of(struct timeline *t, long pid, long tid)
{
    for (size_t i = 0; i < t->lane_count; i++)
        if (t->lanes[i].pid == pid && t->lanes[i].tid == tid)
            return i;
    struct timeline_lane *lanes = realloc(t->lanes, (t->lane_count + 1) * sizeof(*lanes));
    if (!lanes)
        return (size_t)-1;
    t->lanes = lanes;
    struct timeline_lane *lane = &t->lanes[t->lane_count];
    memset(lane, 0, sizeof(*lane));
    lane->pid = pid;
    lane->tid = tid;
    lane->sort_index = (double)tid;
    snprintf(lane->name, sizeof(lane->name), "thread %ld", tid);
    return t->lane_count++;
}

static int add_span(struct timeline *t, const struct json *event, size_t lane)
{
    if (t->span_count % 256 == 0) {
        struct timeline_span *spans = realloc(t->spans, (t->span_count + 256) * sizeof(*spans));
        if (!spans)
            return -1;
        t->spans = spans;
    }
    struct timeline_span *s = &t->spans[t->span_count++];
    memset(s, 0, sizeof(*s));
    const struct json *args = json_get(event, "args");
    s->lane = lane;
    snprintf(s->name, sizeof(s->name), "%s", json_get_string(event, "name", ""));
    snprintf(s->category, sizeof(s->category), "%s", json_get_string(event, "cat", "other"));
    const char *kernel = json_get_string(args, "kernel", "");
    snprintf(s->kernel, sizeof(s->kernel), "%s", kernel[0] ? kernel : s->name);
    s->start_us = json_get_number(event, "ts", 0);
    s->duration_us = json_get_number(event, "dur", 0);
    if (s->duration_us < 0)
        s->duration_us = 0;
    s->work_groups = json_get_number(args, "work_groups", 0);
    s->bytes = json_get_number(args, "bytes", 0);
    s->launch = (long)json_get_number(args, "launch", -1);
    return 0;
}

static int by_sort_index(const void *a, const void *b)
{
    const struct timeline_lane *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return (x->sort_index > y->sort_index) - (x->sort_index < y->sort_index);
}

/* Sorts the lanes for drawing and renumbers the spans' lane indices. */
static int sort_lanes(struct timeline *t)
{
    size_t n = t->lane_count;
    struct timeline_lane *sorted = malloc((n ? n : 1) * sizeof(*sorted));
    size_t *new_index = malloc((n ? n : 1) * sizeof(*new_index));
    if (!sorted || !new_index)
        return free(sorted), free(new_index), -1;
    memcpy(sorted, t->lanes, n * sizeof(*sorted));
    qsort(sorted, n, sizeof(*sorted), by_sort_index);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            if (sorted[j].pid == t->lanes[i].pid && sorted[j].tid == t->lanes[i].tid)
                new_index[i] = j;
    for (size_t s = 0; s < t->span_count; s++)
        t->spans[s].lane = new_index[t->spans[s].lane];
    free(t->lanes);
    free(new_index);
    t->lanes = sorted;
    return 0;
}

int timeline_load(const char *path, long launch, struct timeline *t, char *err, size_t err_size)
{
    memset(t, 0, sizeof(*t));
    char *text = read_file(path, err, err_size);
    if (!text)
        return -1;
    char why[200];
    struct json *doc = json_parse(text, why, sizeof(why));
    free(text);
    if (!doc) {
        snprintf(err, err_size, "%s is not valid JSON: %s", path, why);
        return -1;
    }
    /* both forms of the format: {"traceEvents": [...]} and a bare [...] */
    const struct json *events = doc->type == JSON_ARRAY ? doc : json_get(doc, "traceEvents");
    if (!events || events->type != JSON_ARRAY) {
        snprintf(err, err_size, "%s is not a Chrome trace: no \"traceEvents\" array", path);
        json_free(doc);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < events->count && rc == 0; i++) {
        const struct json *e = events->items[i];
        const char *ph = json_get_string(e, "ph", "");
        long pid = (long)json_get_number(e, "pid", 0), tid = (long)json_get_number(e, "tid", 0);
        if (strcmp(ph, "X") == 0) {
            const struct json *args = json_get(e, "args");
            if (launch >= 0 && (long)json_get_number(args, "launch", -1) != launch)
                continue;
            size_t lane = lane_of(t, pid, tid);
            rc = lane == (size_t)-1 ? -1 : add_span(t, e, lane);
        } else if (strcmp(ph, "M") == 0) {
            const char *what = json_get_string(e, "name", "");
            const struct json *args = json_get(e, "args");
            if (strcmp(what, "thread_name") == 0 || strcmp(what, "thread_sort_index") == 0) {
                size_t lane = lane_of(t, pid, tid);
                if (lane == (size_t)-1)
                    rc = -1;
                else if (what[7] == 'n')
                    snprintf(t->lanes[lane].name, sizeof(t->lanes[lane].name), "%s",
                             json_get_string(args, "name", t->lanes[lane].name));
                else
                    t->lanes[lane].sort_index = json_get_number(args, "sort_index", (double)tid);
            }
        }
    }
    json_free(doc);
    if (rc == 0)
        rc = sort_lanes(t);
    if (rc != 0) {
        snprintf(err, err_size, "out of memory reading %s", path);
        timeline_free(t);
        return -1;
    }
    if (t->span_count == 0) {
        snprintf(err, err_size, "%s holds no complete (\"ph\":\"X\") events%s", path,
                 launch >= 0 ? " of that launch" : "");
        timeline_free(t);
        return -1;
    }
    t->start_us = t->spans[0].start_us;
    t->end_us = t->spans[0].start_us + t->spans[0].duration_us;
    for (size_t i = 0; i < t->span_count; i++) {
        const struct timeline_span *s = &t->spans[i];
        if (s->start_us < t->start_us)
            t->start_us = s->start_us;
        if (s->start_us + s->duration_us > t->end_us)
            t->end_us = s->start_us + s->duration_us;
    }
    return 0;
}

void timeline_free(struct timeline *t)
{
    free(t->lanes);
    free(t->spans);
    memset(t, 0, sizeof(*t));
}
