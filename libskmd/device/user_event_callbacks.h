/* libskmd/device/user_event_callbacks.h: the app's callbacks on events whose real event is
 * a user event that libskmd sets (the app's user events, span events: eventspan.h).
 *
 * libskmd calls these callbacks itself when it sets the event's status, rather than
 * leaving them to the driver: a driver need not call them when the status is an error
 * (PoCL does not), and the specification says a CL_COMPLETE callback runs when the
 * command completes or ends in error. */
#ifndef SKMD_USER_EVENT_CALLBACKS_H
#define SKMD_USER_EVENT_CALLBACKS_H

#include <CL/cl.h>

typedef void (*skmd_status_fn)(cl_int status, void *data);

/* Keeps fn(status, data) for when real is set: status is the error when it ends in one,
 * else `type` (the callback's registered status). Called at once when real is already
 * complete or failed. CL_OUT_OF_HOST_MEMORY when it cannot be kept. */
cl_int skmd_user_event_callback_add(cl_event real, cl_int type, skmd_status_fn fn, void *data);

/* Sets real's status (real_clSetUserEventStatus) and, when that succeeded and the status
 * is final (complete or an error), runs the callbacks kept for it. Returns the driver's
 * answer. */
cl_int skmd_user_event_set(cl_event real, cl_int status);

#endif
