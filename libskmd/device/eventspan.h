/* libskmd/device/eventspan.h: the app's events that stand for work libskmd does itself (a
 * split launch, a transfer of the app's done by the transfer engine), with the times of
 * that work.
 *
 * Such an event is a real user event of the app queue's member. A split launch's is set by
 * the launch's thread when every share and merge is done (or with a negative status when
 * nothing could run it); a transfer's is set before the call returns. No real command ever
 * waits for one unset: PoCL 3.1 hangs in clSetUserEventStatus when commands wait on a user
 * event and a 'basic' device is in the context (pocl issue 1177). So a wait list that names
 * one is waited for on the enqueuing thread first (skmd_events_unwrap).
 * Profiling times, in the time base of the app queue's device: for a split launch QUEUED
 * and SUBMIT those of the marker that stood for the launch on the app's queue, START the
 * earliest share's start and END the latest share's or merge's end; for a transfer the
 * device timer's readings before and after it (app_io.c). */
#ifndef SKMD_EVENTSPAN_H
#define SKMD_EVENTSPAN_H

#include <CL/cl.h>

/* A new such event: a real user event of the member of app queue q, marked. NULL with
 * *err when it cannot be had. */
cl_event skmd_span_event_new(cl_command_queue q, cl_int *err);

/* Forgets and releases `real` (any real event: one never marked is only released). */
void skmd_span_event_release(cl_event real);

/* Sets its profiling times (before the event is set complete). */
void skmd_span_event_times(cl_event real, const cl_ulong times[4]);

/* Sets its status and runs the app's callbacks on it (user_event_callbacks.h). On a
 * profiling queue, an event complete with no times of its own gets the host clock's, in
 * its member's device time base: QUEUED, SUBMIT and START when it was made, END now. */
void skmd_span_event_set(cl_event real, cl_int status);

/* A new such event, complete (a command done in the call), queued at host time
 * queued_ns (skmd_now_ns; 0: now). */
cl_event skmd_span_event_done(cl_command_queue q, uint64_t queued_ns, cl_int *err);

/* 1 when `real` is such an event. */
int skmd_span_event_is(cl_event real);

/* Its profiling time `param` (clGetEventProfilingInfo): CL_SUCCESS, or why there is none. */
cl_int skmd_span_event_time(cl_event real, cl_profiling_info param, cl_ulong *t);

#endif
