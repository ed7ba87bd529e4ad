/* libskmd/cl/common.h: helpers shared by the entry points: wait lists, returned events,
 * the registry of live memory objects and samplers (to recognise them among kernel
 * arguments), and object creation. */
#ifndef SKMD_COMMON_H
#define SKMD_COMMON_H

#include "device/api.h"
#include "support/error.h"
#include "cl/impl.h"
#include "cl/info.h"
#include "launch/launch.h"
#include "support/object.h"
#include "support/registry.h"

/* Validates the app's wait list and translates it; CL_SUCCESS or the spec's error. */
cl_int skmd_enqueue_begin(struct skmd_enqueue *e, cl_command_queue queue, cl_uint nwait,
                          const cl_event *wait, cl_event *event);
/* The same for a command that runs off the app's thread when `gated` (defer.h). */
cl_int skmd_enqueue_begin_gated(struct skmd_enqueue *e, cl_command_queue queue, cl_uint nwait,
                                const cl_event *wait, cl_event *event, int gated);
/* Wraps the returned event (when `err` is CL_SUCCESS and one was asked for), frees the
 * list; returns err, or CL_OUT_OF_HOST_MEMORY. */
cl_int skmd_enqueue_end(struct skmd_enqueue *e, cl_int err);

/* Whether libskmd may carry out an app command on the app's thread before the call
 * returns, waiting for what it waits for (event.c): a blocking one always; a non-blocking
 * one only while none of the app's user events is unset (what it waits for then completes
 * by itself; a user event the app sets after the call would never come). */
int skmd_may_finish_in_call(cl_bool blocking);

/* A libskmd event for a real one (which it then owns). NULL when out of memory. */
cl_event skmd_event_wrap(cl_context context, cl_command_queue queue, cl_event real);

/* Translates an app event list for a command of context ctx into real events: *kept of
 * them in out (which has room for n). The events of libskmd's own work (eventspan.h) are
 * waited for here and, once complete, left out; for a `gated` command (defer.h) pending
 * ones are kept, to be waited for off the app's thread. */
cl_int skmd_events_unwrap(cl_context ctx, cl_uint n, const cl_event *in, cl_event *out,
                          cl_uint *kept, int gated);
/* 1 when ev is a user event or span event not yet set (complete or failed): what waits
 * for it may wait for the app (defer.h). */
int skmd_event_pending(cl_event ev);

/* Whether the app made context ctx with device dev (context.c). */
int skmd_context_has_device(cl_context ctx, cl_device_id dev);

#endif
