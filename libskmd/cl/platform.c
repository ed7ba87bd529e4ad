/* libskmd/cl/platform.c: the one SKMD platform and its one device (handles, IDs, platform
 * info, and the device calls that are not info queries). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <CL/cl_ext.h>

#include "device/api.h"
#include "support/error.h"
#include "cl/impl.h"
#include "cl/info.h"
#include "support/object.h"
#include "device/select.h"
#include "device/showreal.h"

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
 * can stand behind (see device_text.c), plus cl_khr_icd. */
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

/* The SKMD device is a root device: retain/release do nothing to it, as the spec says;
 * a sub-device is counted and freed with its last reference. */
cl_int skmd_clRetainDevice(cl_device_id device)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(device, DEVICE), CL_INVALID_DEVICE);
    if (device->parent)
        skmd_object_retain(&device->obj);
    return CL_SUCCESS;
}

cl_int skmd_clReleaseDevice(cl_device_id device)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(device, DEVICE), CL_INVALID_DEVICE);
    if (!device->parent || !skmd_object_release(&device->obj))
        return CL_SUCCESS;
    cl_device_id parent = device->parent;
    skmd_object_free(device);
    return skmd_clReleaseDevice(parent);
}

/* The members of `in`, in order, grouped into sub-devices of whole members: group g takes
 * the next members until their compute units add up to want[g] exactly. Returns the
 * number of groups made (their member masks in masks[]), or -1 when a group cannot be
 * made of whole members (its units would end inside a member). Members left over after
 * the last group are not used, as the spec says of compute units left over. */
static int group_members(cl_device_id in, const cl_uint *want, int ngroups, unsigned *masks)
{
    int m = 0;
    for (int g = 0; g < ngroups; g++) {
        cl_uint units = 0;
        masks[g] = 0;
        while (units < want[g]) {
            while (m < skmd_state.nmembers && !skmd_device_has(in, m))
                m++;
            if (m == skmd_state.nmembers)
                return -1;
            units += skmd_member_units(m);
            masks[g] |= 1u << m++;
        }
        if (units != want[g])
            return -1;
    }
    return ngroups;
}

/* Reads the app's partition request: the sizes (in compute units) of the sub-devices.
 * Returns their number, or a negative count with *err set. */
static int partition_sizes(cl_device_id in, const cl_device_partition_property *props,
                           cl_uint *want, size_t *nprops, cl_int *err)
{
    cl_uint total = 0, nmembers = 0;
    for (int m = 0; m < skmd_state.nmembers; m++)
        if (skmd_device_has(in, m)) {
            total += skmd_member_units(m);
            nmembers++;
        }
    *err = CL_INVALID_VALUE;
    if (!props || nmembers < 2) /* one member: no partition type is offered */
        return -1;
    int n = 0;
    if (props[0] == CL_DEVICE_PARTITION_EQUALLY) {
        if (props[1] <= 0 || props[2] != 0)
            return -1;
        cl_uint each = (cl_uint)props[1];
        *err = CL_DEVICE_PARTITION_FAILED; /* none of that size fits */
        for (cl_uint used = 0; used + each <= total && n < SKMD_MAX_MEMBERS; used += each)
            want[n++] = each;
        *nprops = 3;
    } else if (props[0] == CL_DEVICE_PARTITION_BY_COUNTS) {
        cl_uint sum = 0;
        size_t i = 1;
        for (; props[i] != CL_DEVICE_PARTITION_BY_COUNTS_LIST_END; i++) {
            *err = CL_INVALID_DEVICE_PARTITION_COUNT;
            if (props[i] <= 0 || n == (int)nmembers || (cl_uint)props[i] > total - sum)
                return -1;
            sum += want[n++] = (cl_uint)props[i];
        }
        *err = CL_INVALID_VALUE;
        if (props[i + 1] != 0)
            return -1;
        *err = CL_INVALID_DEVICE_PARTITION_COUNT;
        *nprops = i + 2;
    } else {
        return -1; /* BY_AFFINITY_DOMAIN, or not a partition type */
    }
    return n > 0 ? n : -1;
}

/* Sub-devices of the SKMD device (or of a sub-device) are subsets of its members: a
 * sub-device is a virtual device of its own whose launches are split over its members
 * only. EQUALLY n and BY_COUNTS c1 c2 ... count compute units, as the spec does; each
 * sub-device takes whole members, in member order (group_members). */
cl_int skmd_clCreateSubDevices(cl_device_id in_device,
                               const cl_device_partition_property *properties,
                               cl_uint num_devices, cl_device_id *out_devices,
                               cl_uint *num_devices_ret)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(in_device, DEVICE), CL_INVALID_DEVICE);
    SKMD_RETURN_ERROR_IF(!properties, CL_INVALID_VALUE);
    cl_uint want[SKMD_MAX_MEMBERS];
    unsigned masks[SKMD_MAX_MEMBERS];
    size_t nprops = 0;
    cl_int err = CL_SUCCESS;
    int n = partition_sizes(in_device, properties, want, &nprops, &err);
    SKMD_RETURN_ERROR_IF(n < 0, err);
    n = group_members(in_device, want, n, masks);
    /* The request fits the compute units, not the members' boundaries. */
    SKMD_RETURN_ERROR_IF(n < 0, CL_DEVICE_PARTITION_FAILED);
    SKMD_RETURN_ERROR_IF(out_devices && num_devices < (cl_uint)n, CL_INVALID_VALUE);
    if (num_devices_ret)
        *num_devices_ret = (cl_uint)n;
    if (!out_devices)
        return CL_SUCCESS;
    cl_device_id made[SKMD_MAX_MEMBERS];
    for (int g = 0; g < n; g++) {
        made[g] = calloc(1, sizeof *made[g]);
        if (!made[g]) {
            while (g-- > 0) {
                skmd_object_free(made[g]);
            }
            SKMD_RETURN_ERROR_IF(1, CL_OUT_OF_HOST_MEMORY);
        }
        skmd_object_init(&made[g]->obj, SKMD_TYPE_DEVICE);
        made[g]->members = masks[g];
        made[g]->exec = skmd_fastest_member(masks[g]);
        made[g]->parent = in_device;
        memcpy(made[g]->partition, properties, nprops * sizeof properties[0]);
        made[g]->npartition = nprops;
    }
    for (int g = 0; g < n; g++) {
        skmd_clRetainDevice(in_device); /* each sub-device holds its parent */
        out_devices[g] = made[g];
    }
    return CL_SUCCESS;
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
