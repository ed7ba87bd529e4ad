/* libskmd/cl/ndrange_check.c: the launch sizes of clEnqueueNDRangeKernel checked against
 * the virtual device and the kernel before libskmd splits anything, with the
 * specification's error codes. Drivers do not all check them (PoCL 3.1 aborts on a local
 * size of 0 and starts ~2^64 work-items when offset + size wraps), and a split launch
 * computes shares from them, so libskmd must. */
#include "cl/ndrange_check.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "cl/common.h"

/* The virtual device's limits: fixed once the members are chosen, read once. */
static struct {
    cl_uint max_dims;
    size_t max_item_sizes[3];
    cl_ulong size_limit;   /* work-item ids must stay below 2^CL_DEVICE_ADDRESS_BITS */
    int version;           /* major * 10 + minor */
    cl_bool non_uniform;   /* CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT */
} limits;
static pthread_once_t limits_once = PTHREAD_ONCE_INIT;

static void read_limits(void)
{
    cl_device_id dev = &skmd_state.device;
    cl_uint bits = 0;
    char version[64] = "";
    int major = 1, minor = 0;
    limits.max_dims = 3;
    for (int d = 0; d < 3; d++)
        limits.max_item_sizes[d] = SIZE_MAX;
    if (skmd_clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof limits.max_dims,
                             &limits.max_dims, NULL) != CL_SUCCESS ||
        limits.max_dims > 3)
        limits.max_dims = 3;
    skmd_clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof limits.max_item_sizes,
                         limits.max_item_sizes, NULL);
    if (skmd_clGetDeviceInfo(dev, CL_DEVICE_ADDRESS_BITS, sizeof bits, &bits, NULL) ==
            CL_SUCCESS &&
        bits > 0 && bits < 64)
        limits.size_limit = (cl_ulong)1 << bits;
    if (skmd_clGetDeviceInfo(dev, CL_DEVICE_VERSION, sizeof version - 1, version, NULL) ==
        CL_SUCCESS)
        sscanf(version, "OpenCL %d.%d", &major, &minor);
    limits.version = major * 10 + minor;
    limits.non_uniform = CL_FALSE;
    if (limits.version >= 20)
        skmd_clGetDeviceInfo(dev, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT,
                             sizeof limits.non_uniform, &limits.non_uniform, NULL);
}

/* True when a + b passes the device's size_t range (or the host's). */
static int past_size_range(size_t a, size_t b)
{
    size_t sum;
    if (__builtin_add_overflow(a, b, &sum))
        return 1;
    return limits.size_limit && (cl_ulong)sum > limits.size_limit;
}

cl_int skmd_ndrange_check(cl_kernel kernel, cl_uint work_dim, const size_t *offset,
                          const size_t *global, const size_t *local, int *empty)
{
    pthread_once(&limits_once, read_limits);
    *empty = 0;
    SKMD_RETURN_ERROR_IF(work_dim < 1 || work_dim > limits.max_dims, CL_INVALID_WORK_DIMENSION);
    if (!global) {
        /* OpenCL 2.1+: no global size is an empty launch, as a size of 0 is. */
        SKMD_RETURN_ERROR_IF(limits.version < 21, CL_INVALID_GLOBAL_WORK_SIZE);
        *empty = 1;
        return CL_SUCCESS;
    }
    for (cl_uint d = 0; d < work_dim; d++) {
        SKMD_RETURN_ERROR_IF(past_size_range(global[d], 0), CL_INVALID_GLOBAL_WORK_SIZE);
        if (global[d] == 0) {
            /* OpenCL 2.1+: the command trivially succeeds; before, an error. */
            SKMD_RETURN_ERROR_IF(limits.version < 21, CL_INVALID_GLOBAL_WORK_SIZE);
            *empty = 1;
        }
    }
    if (offset)
        for (cl_uint d = 0; d < work_dim; d++)
            SKMD_RETURN_ERROR_IF(past_size_range(offset[d], global[d]), CL_INVALID_GLOBAL_OFFSET);
    if (!local || *empty)
        return CL_SUCCESS;
    for (cl_uint d = 0; d < work_dim; d++)
        SKMD_RETURN_ERROR_IF(local[d] == 0, CL_INVALID_WORK_GROUP_SIZE);
    size_t items = 1;
    for (cl_uint d = 0; d < work_dim; d++) {
        SKMD_RETURN_ERROR_IF(local[d] > limits.max_item_sizes[d], CL_INVALID_WORK_ITEM_SIZE);
        SKMD_RETURN_ERROR_IF(!limits.non_uniform && global[d] % local[d],
                             CL_INVALID_WORK_GROUP_SIZE);
        SKMD_RETURN_ERROR_IF(__builtin_mul_overflow(items, local[d], &items),
                             CL_INVALID_WORK_GROUP_SIZE);
    }
    /* Fixed for a kernel object: asked of every member once, not on every launch. */
    size_t kernel_max = __atomic_load_n(&kernel->max_group_items, __ATOMIC_RELAXED);
    if (!kernel_max &&
        skmd_clGetKernelWorkGroupInfo(kernel, NULL, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_max,
                                      &kernel_max, NULL) == CL_SUCCESS)
        __atomic_store_n(&kernel->max_group_items, kernel_max, __ATOMIC_RELAXED);
    if (kernel_max)
        SKMD_RETURN_ERROR_IF(items > kernel_max, CL_INVALID_WORK_GROUP_SIZE);
    return CL_SUCCESS;
}
