/* libskmd/device/event_time.c: real events, how their commands ended and when they ran;
 * the members' clocks. */
#include "device/event_time.h"
#include "device/api.h"
#include "support/object.h"

cl_int skmd_event_wait_status(cl_event ev)
{
    cl_int status = CL_COMPLETE;
    cl_int err = real_clWaitForEvents(1, &ev);
    if (real_clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                            NULL) == CL_SUCCESS && status < 0)
        return status;
    return err;
}

double skmd_event_span_ms(cl_event first, cl_event last)
{
    cl_ulong start = 0, end = 0;
    if (!first || !last ||
        real_clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof start, &start,
                                     NULL) != CL_SUCCESS ||
        real_clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof end, &end,
                                     NULL) != CL_SUCCESS || end <= start)
        return -1;
    return (double)(end - start) / 1e6;
}

double skmd_event_ms(cl_event ev)
{
    return skmd_event_span_ms(ev, ev);
}

cl_long skmd_device_minus_host(int m)
{
    cl_ulong dev = 0, host = 0;
    if (real_clGetDeviceAndHostTimer(skmd_state.members[m].real_device, &dev, &host) !=
        CL_SUCCESS)
        return 0;
    return (cl_long)(dev - host);
}

cl_ulong skmd_device_time_convert(int from, int to, cl_ulong t)
{
    if (from == to)
        return t;
    return t - (cl_ulong)skmd_device_minus_host(from) + (cl_ulong)skmd_device_minus_host(to);
}
