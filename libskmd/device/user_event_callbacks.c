/* libskmd/device/user_event_callbacks.c: callbacks on user events libskmd sets
 * (user_event_callbacks.h). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "device/api.h"
#include "device/user_event_callbacks.h"
#include "support/hash.h"

struct pending_callback {
    struct pending_callback *next;
    cl_event real;
    cl_int type;
    skmd_status_fn fn;
    void *data;
};

/* Callbacks not yet due, by real event. The lock is never held while a driver or a
 * callback runs. */
#define PENDING_BUCKETS 64
static pthread_mutex_t pending_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pending_callback *pending[PENDING_BUCKETS];
/* How many are kept, or about to be: a set (every span event's, a hot path) skips the lock
 * when none is. Counted before the status is asked, so that a set which the ask missed
 * sees the count (the driver orders the status's write before the ask or after it). */
static atomic_uint pending_count;

static struct pending_callback **bucket_of(cl_event real)
{
    return &pending[skmd_fnv(SKMD_FNV_BASIS, &real, sizeof real) % PENDING_BUCKETS];
}

static void run(struct pending_callback *c, cl_int status)
{
    c->fn(status < 0 ? status : c->type, c->data);
    free(c);
}

cl_int skmd_user_event_callback_add(cl_event real, cl_int type, skmd_status_fn fn, void *data)
{
    struct pending_callback *c = malloc(sizeof *c);
    cl_int status = CL_SUBMITTED;
    if (!c)
        return CL_OUT_OF_HOST_MEMORY;
    *c = (struct pending_callback){.real = real, .type = type, .fn = fn, .data = data};
    /* Asked under the lock: skmd_user_event_set takes it after setting the status, so a
     * callback found not yet due here is run by that set. */
    pthread_mutex_lock(&pending_lock);
    atomic_fetch_add(&pending_count, 1);
    real_clGetEventInfo(real, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                        NULL);
    int due = status <= CL_COMPLETE;
    if (due) {
        atomic_fetch_sub(&pending_count, 1);
    } else {
        struct pending_callback **b = bucket_of(real);
        c->next = *b;
        *b = c;
    }
    pthread_mutex_unlock(&pending_lock);
    if (due)
        run(c, status);
    return CL_SUCCESS;
}

cl_int skmd_user_event_set(cl_event real, cl_int status)
{
    cl_int err = real_clSetUserEventStatus(real, status);
    if (err != CL_SUCCESS || status > CL_COMPLETE || atomic_load(&pending_count) == 0)
        return err;
    struct pending_callback *due = NULL;
    pthread_mutex_lock(&pending_lock);
    for (struct pending_callback **at = bucket_of(real); *at;) {
        struct pending_callback *c = *at;
        if (c->real != real) {
            at = &c->next;
            continue;
        }
        *at = c->next;
        c->next = due;
        due = c;
        atomic_fetch_sub(&pending_count, 1);
    }
    pthread_mutex_unlock(&pending_lock);
    while (due) { /* oldest first: the bucket holds them newest first */
        struct pending_callback *c = due;
        due = c->next;
        run(c, status);
    }
    return CL_SUCCESS;
}
