/* libskmd/eventspan.h: the app's events of split launches.
 *
 * A split launch's app event is a real user event, set by the launch's thread when every
 * share and merge is done (or with a negative status when nothing could run it). No real
 * command ever waits for it: PoCL 3.1 hangs in clSetUserEventStatus when commands wait on
 * a user event and a 'basic' device is in the context (pocl issue 1177). So a wait list
 * that names one is waited for on the enqueuing thread first (skmd_events_unwrap).
 * Its profiling times: QUEUED and SUBMIT those of the marker that stood for the launch on
 * the app's queue, START the earliest share's start and END the latest share's or
 * merge's end, all in the time base of the app queue's device. */
#ifndef SKMD_EVENTSPAN_H
#define SKMD_EVENTSPAN_H

#include <CL/cl.h>

/* Marks real user event `real` as a split launch's; 0, or -1 when out of memory. */
int skmd_split_event_add(cl_event real);

/* Sets its profiling times (before the event is set complete). */
void skmd_split_event_times(cl_event real, const cl_ulong times[4]);

/* Drops what is known of `real` (its app event is being freed). */
void skmd_split_event_forget(cl_event real);

/* 1 when `real` is a split launch's event. */
int skmd_split_event_is(cl_event real);

/* Converts a time of member `from`'s device clock into member `to`'s (through the host
 * clock of clGetDeviceAndHostTimer; unchanged where a driver does not give it). */
cl_ulong skmd_device_time_convert(int from, int to, cl_ulong t);

#endif
