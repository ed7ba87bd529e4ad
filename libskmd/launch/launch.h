/* libskmd/launch/launch.h: one app launch: split among the members, or whole on the queue's
 * member when it cannot (or need not) be split. */
#ifndef SKMD_LAUNCH_H
#define SKMD_LAUNCH_H

#include "device/api.h"
#include "support/error.h"
#include "support/object.h"

/* One enqueue's wait list translated to real events, and its returned event. No
 * allocation for lists of up to 16 events. */
struct skmd_enqueue {
    cl_command_queue queue;
    cl_event small[16];
    cl_event *wait;       /* real events, or NULL */
    cl_uint nwait;
    cl_event real_event;  /* what the real call returned */
    cl_event *want;       /* the app's `event` argument */
    cl_event *event;      /* &real_event when the app wants one, else NULL */
    uint64_t t0;          /* host clock when a command done on the host began (its
                             event's QUEUED time; skmd_host_command_begin) */
    int gated;            /* the command is deferred (defer.h): pending span events stay in
                             `wait` (waited for off the app's thread) */
};

/* The launch of clEnqueueNDRangeKernel, with its wait list already translated in `e`
 * (the returned event goes to e->event). */
cl_int skmd_launch_ndrange(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *offset,
                           const size_t *global, const size_t *local, struct skmd_enqueue *e);

#endif
