/* libskmd/launch/trace_whole.c: a launch run whole on the app's own queue is left to the
 * driver (libskmd does not wait for it), so its trace span ends in the event's completion
 * callback. Nothing is done when SKMD_TRACE is unset. */
#include <stdlib.h>
#include <string.h>

#include "device/api.h"
#include "support/trace.h"
#include "launch/trace_whole.h"

struct pending_span {
    struct skmd_trace_span span;
    char kernel[64];
    int release; /* the event is ours: released once complete */
};

static void CL_CALLBACK whole_done(cl_event ev, cl_int status, void *data)
{
    struct pending_span *p = data;
    p->span.end_ns = skmd_now_ns();
    if (status == CL_COMPLETE)
        skmd_trace_span(&p->span);
    if (p->release)
        real_clReleaseEvent(ev);
    free(p);
}

cl_event *skmd_trace_whole_begin(struct skmd_trace_whole *t, cl_event *app_event)
{
    t->own = NULL;
    t->start_ns = skmd_trace_enabled() ? skmd_now_ns() : 0;
    return app_event || !skmd_trace_enabled() ? app_event : &t->own;
}

void skmd_trace_whole_end(struct skmd_trace_whole *t, cl_int err, cl_event *event, int member,
                          const char *kernel, uint64_t launch, uint64_t groups)
{
    if (!skmd_trace_enabled() || err != CL_SUCCESS || !event || !*event)
        return;
    int own = event == &t->own;
    struct pending_span *p = calloc(1, sizeof *p);
    if (p) {
        if (kernel)
            strncpy(p->kernel, kernel, sizeof p->kernel - 1);
        p->span = (struct skmd_trace_span){
            .device = member, .kind = SKMD_TRACE_KERNEL, .kernel = p->kernel, .launch = launch,
            .share = 1.0, .start_ns = t->start_ns, .workgroups = groups,
        };
        p->release = own;
        if (real_clSetEventCallback(*event, CL_COMPLETE, whole_done, p) == CL_SUCCESS)
            return;
        free(p);
    }
    if (own)
        real_clReleaseEvent(*event);
}
