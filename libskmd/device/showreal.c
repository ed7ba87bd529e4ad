/* libskmd/device/showreal.c: SKMD_SHOW_REAL=1 (see showreal.h). */
#include "device/showreal.h"
#include "device/api.h"
#include "support/error.h"

int skmd_show_real;

int skmd_foreign_devices(cl_uint n, const cl_device_id *devices)
{
    return n > 0 && devices && skmd_foreign(devices[0]);
}

int skmd_foreign_properties(const cl_context_properties *properties)
{
    for (size_t i = 0; properties && properties[i]; i += 2)
        if (properties[i] == CL_CONTEXT_PLATFORM)
            return skmd_foreign((const void *)properties[i + 1]);
    return 0;
}

int skmd_foreign_events(cl_uint n, const cl_event *events)
{
    return n > 0 && events && skmd_foreign(events[0]);
}

cl_int skmd_show_real_platforms(cl_uint have, cl_uint num_entries, cl_platform_id *platforms,
                                cl_uint *num_platforms)
{
    cl_uint nreal = 0;
    if (real_clGetPlatformIDs(0, NULL, &nreal) != CL_SUCCESS)
        nreal = 0;
    if (platforms && num_entries > have && nreal > 0 &&
        real_clGetPlatformIDs(num_entries - have, platforms + have, NULL) != CL_SUCCESS)
        nreal = 0;
    if (num_platforms)
        *num_platforms = have + nreal;
    return have + nreal > 0 ? CL_SUCCESS : CL_PLATFORM_NOT_FOUND_KHR;
}
