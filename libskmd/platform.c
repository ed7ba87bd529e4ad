/* libskmd/platform.c: the one SKMD platform and its one device (handles, IDs, platform
 * info, and the device calls that are not info queries). */
#include <stdio.h>
#include <string.h>
#include <CL/cl_ext.h>

#include "api.h"
#include "error.h"
#include "impl.h"
#include "info.h"
#include "object.h"
#include "showreal.h"

static pthread_once_t missing_once = PTHREAD_ONCE_INIT;

static void say_missing(void)
{
    /* skmd_init() has logged why, maybe below the log level; this is the one line an app
     * user always sees (skipped when the why was an error line). */
    fprintf(stderr, "libskmd: no OpenCL platform available (no real loader or no real "
                    "device); clGetPlatformIDs returns CL_PLATFORM_NOT_FOUND_KHR\n");
}

cl_int skmd_clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms,
                             cl_uint *num_platforms)
{
    SKMD_RETURN_ERROR_IF(num_entries == 0 && platforms != NULL, CL_INVALID_VALUE);
    SKMD_RETURN_ERROR_IF(platforms == NULL && num_platforms == NULL, CL_INVALID_VALUE);
    if (!skmd_state.ready && skmd_show_real)
        return skmd_show_real_platforms(0, num_entries, platforms, num_platforms);
    if (!skmd_state.ready) {
        if (!skmd_state.told_no_device)
            pthread_once(&missing_once, say_missing);
        if (num_platforms)
            *num_platforms = 0;
        return CL_PLATFORM_NOT_FOUND_KHR;
    }
    if (num_platforms)
        *num_platforms = 1;
    if (platforms)
        platforms[0] = &skmd_state.platform;
    if (skmd_show_real)
        return skmd_show_real_platforms(1, num_entries, platforms, num_platforms);
    return CL_SUCCESS;
}

/* The extensions a platform lists: the ones every member platform has, that libskmd
 * can stand behind (see info.c), plus cl_khr_icd. */
cl_int skmd_clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                              size_t param_value_size, void *param_value,
                              size_t *param_value_size_ret)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(platform, PLATFORM), CL_INVALID_PLATFORM);
    char text[4096];
    struct skmd_info out = {param_value_size, param_value, param_value_size_ret};
    switch (param_name) {
    case CL_PLATFORM_PROFILE:
        skmd_device_string(CL_DEVICE_PROFILE, text, sizeof text);
        return skmd_info_string(&out, text);
    case CL_PLATFORM_VERSION: {
        int major, minor;
        skmd_device_version(&major, &minor);
        snprintf(text, sizeof text, "OpenCL %d.%d libskmd", major, minor);
        return skmd_info_string(&out, text);
    }
    case CL_PLATFORM_NUMERIC_VERSION: {
        int major, minor;
        skmd_device_version(&major, &minor);
        cl_version v = CL_MAKE_VERSION(major, minor, 0);
        return skmd_info_bytes(&out, &v, sizeof v);
    }
    case CL_PLATFORM_NAME:
        return skmd_info_string(&out, "SKMD");
    case CL_PLATFORM_VENDOR:
        return skmd_info_string(&out, "libskmd");
    case CL_PLATFORM_ICD_SUFFIX_KHR:
        return skmd_info_string(&out, "SKMD");
    case CL_PLATFORM_EXTENSIONS:
        skmd_platform_extensions(text, sizeof text);
        return skmd_info_string(&out, text);
    case CL_PLATFORM_EXTENSIONS_WITH_VERSION: {
        cl_name_version list[64];
        size_t n = skmd_platform_extensions_versioned(list, 64);
        return skmd_info_bytes(&out, list, n * sizeof list[0]);
    }
    case CL_PLATFORM_HOST_TIMER_RESOLUTION: {
        cl_ulong zero = 0; /* no host timer: clGetHostTimer is not offered */
        return skmd_info_bytes(&out, &zero, sizeof zero);
    }
    default:
        SKMD_RETURN_ERROR_IF(1, CL_INVALID_VALUE);
    }
}

cl_int skmd_clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type,
                           cl_uint num_entries, cl_device_id *devices, cl_uint *num_devices)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(platform, PLATFORM), CL_INVALID_PLATFORM);
    SKMD_RETURN_ERROR_IF(num_entries == 0 && devices != NULL, CL_INVALID_VALUE);
    SKMD_RETURN_ERROR_IF(devices == NULL && num_devices == NULL, CL_INVALID_VALUE);
    const cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU |
                                 CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR |
                                 CL_DEVICE_TYPE_CUSTOM;
    SKMD_RETURN_ERROR_IF(device_type != CL_DEVICE_TYPE_ALL && (device_type & ~known),
                         CL_INVALID_DEVICE_TYPE);
    int match = device_type == CL_DEVICE_TYPE_ALL || (device_type & CL_DEVICE_TYPE_DEFAULT);
    for (int i = 0; i < skmd_state.nmembers; i++)
        if (skmd_state.members[i].type & device_type &
            (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR))
            match = 1;
    if (num_devices)
        *num_devices = match ? 1 : 0;
    /* An answer, not a fault: apps ask for each device type in turn. */
    if (!match) {
        skmd_log(SKMD_LOG_DEBUG, "clGetDeviceIDs: no device of type 0x%llx",
                 (unsigned long long)device_type);
        return CL_DEVICE_NOT_FOUND;
    }
    if (devices)
        devices[0] = &skmd_state.device;
    return CL_SUCCESS;
}

/* The virtual device is a root device: retain/release do nothing, as the spec says. */
cl_int skmd_clRetainDevice(cl_device_id device)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(device, DEVICE), CL_INVALID_DEVICE);
    return CL_SUCCESS;
}

cl_int skmd_clReleaseDevice(cl_device_id device)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(device, DEVICE), CL_INVALID_DEVICE);
    return CL_SUCCESS;
}

cl_int skmd_clCreateSubDevices(cl_device_id in_device,
                               const cl_device_partition_property *properties,
                               cl_uint num_devices, cl_device_id *out_devices,
                               cl_uint *num_devices_ret)
{
    (void)properties, (void)num_devices, (void)out_devices, (void)num_devices_ret;
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(in_device, DEVICE), CL_INVALID_DEVICE);
    /* CL_DEVICE_PARTITION_PROPERTIES is empty: no partition type is supported. */
    SKMD_RETURN_ERROR_IF(1, CL_INVALID_VALUE);
}

cl_int skmd_clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device,
                                           cl_command_queue command_queue)
{
    (void)command_queue;
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(context, CONTEXT), CL_INVALID_CONTEXT);
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(device, DEVICE), CL_INVALID_DEVICE);
    /* No on-device queues (CL_DEVICE_MAX_ON_DEVICE_QUEUES is 0). */
    SKMD_RETURN_ERROR_IF(1, CL_INVALID_OPERATION);
}

cl_int skmd_clGetDeviceAndHostTimer(cl_device_id device, cl_ulong *device_timestamp,
                                    cl_ulong *host_timestamp)
{
    (void)device_timestamp, (void)host_timestamp;
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(device, DEVICE), CL_INVALID_DEVICE);
    /* Members have unrelated clocks; the platform's timer resolution is 0. */
    SKMD_RETURN_ERROR_IF(1, CL_INVALID_OPERATION);
}

cl_int skmd_clGetHostTimer(cl_device_id device, cl_ulong *host_timestamp)
{
    (void)host_timestamp;
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(device, DEVICE), CL_INVALID_DEVICE);
    SKMD_RETURN_ERROR_IF(1, CL_INVALID_OPERATION);
}

cl_int skmd_clUnloadPlatformCompiler(cl_platform_id platform)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(platform, PLATFORM), CL_INVALID_PLATFORM);
    return CL_SUCCESS;
}

cl_int skmd_clUnloadCompiler(void)
{
    return CL_SUCCESS;
}

/* Only the loader's own query is offered: every other extension function would need
 * libskmd's handles translated, which libskmd does not do for extensions. */
void *skmd_clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                    const char *func_name)
{
    if (!SKMD_VALID(platform, PLATFORM) || !func_name)
        return NULL;
    if (strcmp(func_name, "clIcdGetPlatformIDsKHR") == 0)
        return (void *)skmd_clIcdGetPlatformIDsKHR;
    return NULL;
}

void *skmd_clGetExtensionFunctionAddress(const char *func_name)
{
    if (!func_name)
        return NULL;
    return skmd_clGetExtensionFunctionAddressForPlatform(&skmd_state.platform, func_name);
}

/* cl_khr_icd: what an ICD loader calls when libskmd is installed as an ICD. */
cl_int CL_API_CALL skmd_clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms,
                                               cl_uint *num_platforms)
{
    skmd_init();
    return skmd_clGetPlatformIDs(num_entries, platforms, num_platforms);
}
