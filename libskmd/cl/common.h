/* libskmd/cl/common.h: helpers shared by the entry points: wait lists, returned events,
 * the registry of live memory objects and samplers (to recognise them among kernel
 * arguments), object creation, and the starts of the retain, release and query entry
 * points and the app's callbacks every object treats alike. */
#ifndef SKMD_COMMON_H
#define SKMD_COMMON_H

#include <stdlib.h>

#include "device/api.h"
#include "support/error.h"
#include "cl/impl.h"
#include "cl/info.h"
#include "launch/launch.h"
#include "support/object.h"
#include "support/registry.h"

/* The entry points' reference counting of a counted handle `h` of kind TYPE (CONTEXT,
 * MEM, ...). A handle that is not a live one of that kind returns `invalid`, the code the
 * spec names for it (CL_INVALID_MEM_OBJECT, CL_INVALID_KERNEL, ...), logged in the entry
 * point's name as SKMD_RETURN_ERROR_IF does.
 *
 * The whole of a clRetainXxx: takes one app reference and returns CL_SUCCESS. */
#define SKMD_RETAIN_AND_RETURN(h, TYPE, invalid)                                         \
    do {                                                                                 \
        SKMD_RETURN_ERROR_IF(!SKMD_VALID(h, TYPE), invalid);                             \
        skmd_object_retain(&(h)->obj);                                                   \
        return CL_SUCCESS;                                                               \
    } while (0)
/* The start of a clReleaseXxx: drops one app reference and returns CL_SUCCESS unless it
 * was the last, when the code after it frees the object. */
#define SKMD_RELEASE_OR_RETURN(h, TYPE, invalid)                                         \
    do {                                                                                 \
        SKMD_RETURN_ERROR_IF(!SKMD_VALID(h, TYPE), invalid);                             \
        if (!skmd_object_release(&(h)->obj))                                             \
            return CL_SUCCESS;                                                           \
    } while (0)

/* The start of a clGetXxxInfo of a counted handle `h` (checked as above): declares `out`,
 * the query's three output arguments (by the spec's parameter names), and answers
 * `refcount_param` (CL_MEM_REFERENCE_COUNT, ...), the app's references, as every counted
 * object does. */
#define SKMD_INFO_BEGIN(h, TYPE, invalid, refcount_param)                                \
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(h, TYPE), invalid);                                 \
    struct skmd_info out = {param_value_size, param_value, param_value_size_ret};        \
    if (param_name == (refcount_param))                                                  \
        return skmd_info_uint(&out, atomic_load(&(h)->obj.refcount))

/* The whole of a clSetXxxDestructorCallback: adds the app's callback `pfn_notify` to
 * `list`, one of h's lists, once h is checked (as above) and pfn_notify is not NULL. */
#define SKMD_ADD_CALLBACK_AND_RETURN(h, TYPE, invalid, list, pfn_notify, user_data)        \
    do {                                                                                 \
        SKMD_RETURN_ERROR_IF(!SKMD_VALID(h, TYPE), invalid);                             \
        SKMD_RETURN_ERROR_IF(!(pfn_notify), CL_INVALID_VALUE);                           \
        return skmd_object_add_callback(&(h)->obj, &(list),                              \
                                        (void (CL_CALLBACK *)(void))(pfn_notify),        \
                                        (user_data));                                    \
    } while (0)

/* Runs and frees every app callback of `list` (skmd_object_add_callback), first to last:
 * newest first, as the spec says of destructor callbacks. Each is called as
 * fn(handle, user_data), cast back to the app's type `void fn(HANDLE_TYPE, void *)`, and
 * as an app callback (device/api.h: skmd_app_callback_begin). */
#define SKMD_RUN_CALLBACKS(list, HANDLE_TYPE, handle)                                     \
    do {                                                                                 \
        for (struct skmd_callback *cb_ = (list), *next_; cb_; cb_ = next_) {             \
            next_ = cb_->next;                                                           \
            int saved_ = skmd_app_callback_begin();                                      \
            ((void (CL_CALLBACK *)(HANDLE_TYPE, void *))cb_->fn)((handle), cb_->user_data); \
            skmd_app_callback_end(saved_);                                               \
            free(cb_);                                                                   \
        }                                                                                \
    } while (0)

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

/* The member whose real program answers the app's queries: the executing member, or the
 * first that built the program when the executing member did not. */
int skmd_program_answering_member(cl_program program);

/* The member whose real kernel answers the app's queries of kernel k: the executing
 * member, or the first that has the kernel when the executing member did not build its
 * program (a member that did not build it has no real kernel). */
int skmd_kernel_answering_member(cl_kernel k);

#endif
