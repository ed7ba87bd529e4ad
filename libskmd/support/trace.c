/* libskmd/support/trace.c: buffers trace spans and writes them as Chrome trace JSON. */
#include "support/trace.h"

#include "support/clock.h"
#include "support/config.h"
#include "support/json.h"
#include "support/log.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_DEVICES 64
#define MAX_SPANS (1u << 20) /* ~100 MiB of buffer: beyond that, spans are counted, dropped */

struct stored_span {
    struct skmd_trace_span span;
    char kernel[64];
};

static struct {
    pthread_mutex_t lock;
    int enabled;
    int closed; /* written at exit: later spans are dropped */
    const char *path;
    struct stored_span *spans;
    size_t count, capacity, dropped;
    char device_names[MAX_DEVICES][128];
} trace = {.lock = PTHREAD_MUTEX_INITIALIZER};

static pthread_once_t trace_once = PTHREAD_ONCE_INIT;

/* The launch this thread works for (skmd_trace_set_thread_launch); launch 0: none. */
static _Thread_local struct {
    uint64_t launch;
    const char *kernel;
    double share;
} thread_launch;

static const char *const kind_names[] = {"transfer_in", "kernel", "transfer_out", "merge",
                                         "other"};

const char *skmd_trace_kind_name(enum skmd_trace_kind kind)
{
    return (unsigned)kind <= SKMD_TRACE_OTHER ? kind_names[kind] : "other";
}

static void write_at_exit(void)
{
    skmd_trace_flush();
    pthread_mutex_lock(&trace.lock);
    trace.closed = 1;
    free(trace.spans);
    trace.spans = NULL;
    trace.count = trace.capacity = 0;
    pthread_mutex_unlock(&trace.lock);
}

static void set_up_trace(void)
{
    trace.path = skmd_config()->trace;
    trace.enabled = trace.path[0] != '\0';
    if (trace.enabled)
        atexit(write_at_exit);
}

int skmd_trace_enabled(void)
{
    pthread_once(&trace_once, set_up_trace);
    return trace.enabled;
}

void skmd_trace_name_device(int device, const char *name)
{
    if (!skmd_trace_enabled() || device < 0 || device >= MAX_DEVICES || !name)
        return;
    pthread_mutex_lock(&trace.lock);
    snprintf(trace.device_names[device], sizeof(trace.device_names[device]), "%s", name);
    pthread_mutex_unlock(&trace.lock);
}

void skmd_trace_set_thread_launch(uint64_t launch, const char *kernel, double share)
{
    thread_launch.launch = launch;
    thread_launch.kernel = launch ? kernel : NULL;
    thread_launch.share = launch ? share : -1;
}

void skmd_trace_span(const struct skmd_trace_span *span)
{
    if (!skmd_trace_enabled() || !span)
        return;
    pthread_mutex_lock(&trace.lock);
    if (trace.closed || trace.count >= MAX_SPANS) {
        trace.dropped++;
    } else {
        if (trace.count == trace.capacity) {
            size_t capacity = trace.capacity ? trace.capacity * 2 : 256;
            struct stored_span *bigger = realloc(trace.spans, capacity * sizeof(*bigger));
            if (!bigger) {
                trace.dropped++;
                pthread_mutex_unlock(&trace.lock);
                return;
            }
            trace.spans = bigger;
            trace.capacity = capacity;
        }
        struct stored_span *s = &trace.spans[trace.count++];
        s->span = *span;
        const char *kernel = span->kernel;
        if (!s->span.launch && thread_launch.launch) {
            s->span.launch = thread_launch.launch;
            if (!kernel) {
                kernel = thread_launch.kernel;
                s->span.share = thread_launch.share;
            }
        }
        snprintf(s->kernel, sizeof(s->kernel), "%s", kernel ? kernel : "");
        s->span.kernel = NULL; /* the copy in s->kernel is the one used */
        if (s->span.end_ns < s->span.start_ns)
            s->span.end_ns = s->span.start_ns;
    }
    pthread_mutex_unlock(&trace.lock);
}

static int track_of(int device) { return device < 0 ? 0 : device + 1; }

static void put_track_name(FILE *f, int pid, int device, const char *name)
{
    fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":",
            pid, track_of(device));
    skmd_json_string(f, name);
    fprintf(f, "}},\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,"
               "\"args\":{\"sort_index\":%d}}",
            pid, track_of(device), track_of(device));
}

static void put_span(FILE *f, int pid, const struct stored_span *s, uint64_t base_ns)
{
    const struct skmd_trace_span *sp = &s->span;
    static const char *const prefix[] = {"in ", "", "out ", "merge ", ""};
    char name[128];
    const char *kernel = s->kernel[0] ? s->kernel : skmd_trace_kind_name(sp->kind);
    if (sp->share >= 0)
        snprintf(name, sizeof(name), "%s%s %.1f%%", prefix[sp->kind], kernel, sp->share * 100);
    else
        snprintf(name, sizeof(name), "%s%s", prefix[sp->kind], kernel);
    fprintf(f, ",\n{\"name\":");
    skmd_json_string(f, name);
    fprintf(f, ",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f,"
               "\"args\":{\"kernel\":",
            skmd_trace_kind_name(sp->kind), pid, track_of(sp->device),
            (double)(sp->start_ns - base_ns) / 1000.0, (double)(sp->end_ns - sp->start_ns) / 1000.0);
    skmd_json_string(f, s->kernel);
    fprintf(f, ",\"launch\":%llu,\"device\":%d,\"work_groups\":%llu,\"bytes\":%llu",
            (unsigned long long)sp->launch, sp->device, (unsigned long long)sp->workgroups,
            (unsigned long long)sp->bytes);
    if (sp->share >= 0)
        fprintf(f, ",\"share\":%.6f", sp->share);
    fprintf(f, "}}");
}

static int write_trace(FILE *f)
{
    int pid = (int)getpid();
    uint64_t base_ns = UINT64_MAX;
    int used[MAX_DEVICES + 1] = {0}; /* tracks that hold spans, [0] = host */
    for (size_t i = 0; i < trace.count; i++) {
        const struct skmd_trace_span *sp = &trace.spans[i].span;
        if (sp->start_ns < base_ns)
            base_ns = sp->start_ns;
        if (sp->device < MAX_DEVICES)
            used[track_of(sp->device)] = 1;
    }
    fprintf(f, "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"producer\":\"libskmd\","
               "\"dropped_spans\":%zu},\n\"traceEvents\":[\n",
            trace.dropped);
    fprintf(f, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":0,"
               "\"args\":{\"name\":\"libskmd\"}}",
            pid);
    if (used[0])
        put_track_name(f, pid, -1, "host");
    for (int d = 0; d < MAX_DEVICES; d++) {
        if (!used[d + 1] && !trace.device_names[d][0])
            continue;
        char fallback[32];
        snprintf(fallback, sizeof(fallback), "device %d", d);
        put_track_name(f, pid, d, trace.device_names[d][0] ? trace.device_names[d] : fallback);
    }
    for (size_t i = 0; i < trace.count; i++)
        put_span(f, pid, &trace.spans[i], base_ns);
    fprintf(f, "\n]}\n");
    return ferror(f) ? -1 : 0;
}

int skmd_trace_flush(void)
{
    if (!skmd_trace_enabled())
        return 0;
    char tmp[4096];
    snprintf(tmp, sizeof(tmp), "%s.tmp%d", trace.path, (int)getpid());
    pthread_mutex_lock(&trace.lock);
    FILE *f = fopen(tmp, "w");
    int rc = -1;
    if (f) {
        rc = write_trace(f);
        if (fclose(f) != 0)
            rc = -1;
        if (rc == 0 && rename(tmp, trace.path) != 0)
            rc = -1;
    }
    int saved_errno = errno;
    if (trace.dropped && rc == 0)
        skmd_log(SKMD_LOG_WARN, "trace: %zu spans dropped (buffer full or after exit)",
                 trace.dropped);
    pthread_mutex_unlock(&trace.lock);
    if (rc != 0) {
        unlink(tmp);
        skmd_log(SKMD_LOG_ERROR, "SKMD_TRACE=%s: cannot write the trace (%s); check the "
                 "directory exists and is writable", trace.path, strerror(saved_errno));
    }
    return rc;
}
