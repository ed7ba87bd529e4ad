/* libskmd/launch/trace_whole.h: trace spans for launches run whole on the app's own queue.
 */
#ifndef SKMD_TRACE_WHOLE_H
#define SKMD_TRACE_WHOLE_H

#include <stdint.h>
#include <CL/cl.h>

/* A launch that libskmd hands to the driver and does not wait for. */
struct skmd_trace_whole {
    cl_event own;     /* the event asked for when the app wanted none */
    uint64_t start_ns;
};

/* Before the launch: the event pointer to pass to the driver (the app's, or one of our own
 * while tracing so that the launch's end can be seen). */
cl_event *skmd_trace_whole_begin(struct skmd_trace_whole *t, cl_event *app_event);

/* After it: when it was enqueued (err == CL_SUCCESS) and tracing, records a kernel span
 * for `member` from now until the event completes. Releases the event of our own. */
void skmd_trace_whole_end(struct skmd_trace_whole *t, cl_int err, cl_event *event, int member,
                          const char *kernel, uint64_t launch, uint64_t groups);

#endif
