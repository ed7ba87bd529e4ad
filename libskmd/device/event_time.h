/* libskmd/device/event_time.h: real events, how their commands ended and when they ran;
 * the members' clocks. */
#ifndef SKMD_EVENT_TIME_H
#define SKMD_EVENT_TIME_H

#include <CL/cl.h>

/* Waits for a real command's event (not released): CL_SUCCESS when the command completed;
 * else its own failed status, which says why where the wait says only that it failed, or
 * the wait's error. */
cl_int skmd_event_wait_status(cl_event ev);

/* Milliseconds a finished command ran (its profiling start to end), or -1 when the
 * queue does not profile. Call before releasing the event. */
double skmd_event_ms(cl_event ev);

/* Milliseconds from the start of `first` to the end of `last` (commands of one in-order
 * queue, e.g. the boxes of one share), or -1 when either is not profiled. */
double skmd_event_span_ms(cl_event first, cl_event last);

/* Device time minus host time of member m, 0 where the driver does not tell. */
cl_long skmd_device_minus_host(int m);

/* Converts a time of member `from`'s device clock into member `to`'s (through the host
 * clock of clGetDeviceAndHostTimer; unchanged where a driver does not give it). */
cl_ulong skmd_device_time_convert(int from, int to, cl_ulong t);

#endif
