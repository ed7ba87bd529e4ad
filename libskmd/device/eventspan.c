/* libskmd/device/eventspan.c: the app's events that stand for work libskmd does itself
 * (see eventspan.h), and their times. */
#include <stdatomic.h>
#include <stdlib.h>

#include "device/api.h"
#include "device/event_time.h"
#include "device/eventspan.h"
#include "device/user_event_callbacks.h"
#include "support/clock.h"
#include "support/hash.h"
#include "support/object.h"

/* The app's events of libskmd's own work (eventspan.h), keyed by the real user event
 * (which a split launch keeps retained until it has set it, so the key cannot be reused
 * meanwhile). Every wait-list entry is looked up: buckets keep that short when the app
 * holds many such events. */
struct span_event {
    struct span_event *next;
    cl_event real;
    int timed;
    cl_ulong times[4]; /* QUEUED, SUBMIT, START, END */
    int member;          /* whose device clock the times are in */
    uint64_t queued_ns;  /* host clock when made (profiling queues only; 0: none) */
};
#define SPAN_BUCKETS 256
static pthread_mutex_t span_events_lock = PTHREAD_MUTEX_INITIALIZER;
static struct span_event *span_events[SPAN_BUCKETS];
static atomic_int span_events_alive; /* 0: lookups and releases skip the lock */

static struct span_event **span_bucket(cl_event real)
{
    return &span_events[skmd_fnv(SKMD_FNV_BASIS, &real, sizeof real) % SPAN_BUCKETS];
}

cl_event skmd_span_event_new(cl_command_queue q, cl_int *err)
{
    cl_event real = real_clCreateUserEvent(skmd_member_context(q->context, q->member), err);
    if (!real)
        return NULL;
    struct span_event *s = calloc(1, sizeof *s);
    if (!s) {
        real_clReleaseEvent(real);
        *err = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    s->real = real;
    s->member = q->member;
    if (q->properties & CL_QUEUE_PROFILING_ENABLE) /* else no clock read: a hot path */
        s->queued_ns = skmd_now_ns();
    pthread_mutex_lock(&span_events_lock);
    struct span_event **bucket = span_bucket(real);
    s->next = *bucket;
    *bucket = s;
    atomic_fetch_add(&span_events_alive, 1);
    pthread_mutex_unlock(&span_events_lock);
    return real;
}

static struct span_event **span_event_find(cl_event real)
{
    struct span_event **at = span_bucket(real);
    while (*at && (*at)->real != real)
        at = &(*at)->next;
    return at;
}

void skmd_span_event_times(cl_event real, const cl_ulong times[4])
{
    pthread_mutex_lock(&span_events_lock);
    struct span_event *s = *span_event_find(real);
    if (s) {
        s->timed = 1;
        for (int i = 0; i < 4; i++)
            s->times[i] = times[i];
    }
    pthread_mutex_unlock(&span_events_lock);
}

void skmd_span_event_set(cl_event real, cl_int status)
{
    uint64_t now = 0, queued = 0;
    int member = 0;
    if (status == CL_COMPLETE && atomic_load(&span_events_alive) > 0) {
        pthread_mutex_lock(&span_events_lock);
        const struct span_event *s = *span_event_find(real);
        if (s && !s->timed && s->queued_ns) {
            queued = s->queued_ns;
            member = s->member;
        }
        pthread_mutex_unlock(&span_events_lock);
    }
    if (queued) { /* no times of the work itself: the host clock's, in the device's base */
        now = skmd_now_ns();
        cl_ulong offset = (cl_ulong)skmd_device_minus_host(member);
        cl_ulong t[4] = {queued + offset, queued + offset, queued + offset, now + offset};
        skmd_span_event_times(real, t);
    }
    skmd_user_event_set(real, status);
}

cl_event skmd_span_event_done(cl_command_queue q, uint64_t queued_ns, cl_int *err)
{
    cl_event real = skmd_span_event_new(q, err);
    if (!real)
        return NULL;
    if (queued_ns && (q->properties & CL_QUEUE_PROFILING_ENABLE)) {
        pthread_mutex_lock(&span_events_lock);
        struct span_event *s = *span_event_find(real);
        if (s)
            s->queued_ns = queued_ns;
        pthread_mutex_unlock(&span_events_lock);
    }
    skmd_span_event_set(real, CL_COMPLETE);
    return real;
}

void skmd_span_event_release(cl_event real)
{
    if (atomic_load(&span_events_alive) == 0) {
        real_clReleaseEvent(real);
        return;
    }
    pthread_mutex_lock(&span_events_lock);
    struct span_event **at = span_event_find(real), *s = *at;
    if (s) {
        *at = s->next;
        atomic_fetch_sub(&span_events_alive, 1);
    }
    pthread_mutex_unlock(&span_events_lock);
    free(s);
    real_clReleaseEvent(real);
}

int skmd_span_event_is(cl_event real)
{
    if (atomic_load(&span_events_alive) == 0)
        return 0;
    pthread_mutex_lock(&span_events_lock);
    int found = *span_event_find(real) != NULL;
    pthread_mutex_unlock(&span_events_lock);
    return found;
}

cl_int skmd_span_event_time(cl_event real, cl_profiling_info param, cl_ulong *t)
{
    int index = param == CL_PROFILING_COMMAND_QUEUED   ? 0
                : param == CL_PROFILING_COMMAND_SUBMIT ? 1
                : param == CL_PROFILING_COMMAND_START  ? 2
                : param == CL_PROFILING_COMMAND_END ||
                          param == CL_PROFILING_COMMAND_COMPLETE
                    ? 3
                    : -1;
    if (index < 0)
        return CL_INVALID_VALUE;
    cl_int err = CL_PROFILING_INFO_NOT_AVAILABLE;
    pthread_mutex_lock(&span_events_lock);
    const struct span_event *s = *span_event_find(real);
    if (s && s->timed) {
        *t = s->times[index];
        err = CL_SUCCESS;
    }
    pthread_mutex_unlock(&span_events_lock);
    return err;
}
