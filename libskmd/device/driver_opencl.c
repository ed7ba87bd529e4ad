/* libskmd/device/driver_opencl.c: member operations through the member's real OpenCL
 * driver. */
#include "device/api.h"
#include "support/driver.h"

static cl_mem ocl_alloc(const struct skmd_member *m, cl_context ctx, cl_mem_flags flags,
                        size_t size, void *host_ptr, cl_int *err)
{
    (void)m;
    return real_clCreateBuffer(ctx, flags, size, host_ptr, err);
}

static cl_int ocl_copy(const struct skmd_member *m, cl_command_queue q, int to_device,
                       cl_mem buf, cl_bool blocking, size_t offset, size_t size, void *host,
                       cl_uint nwait, const cl_event *wait, cl_event *done)
{
    (void)m;
    if (to_device)
        return real_clEnqueueWriteBuffer(q, buf, blocking, offset, size, host, nwait, wait,
                                         done);
    return real_clEnqueueReadBuffer(q, buf, blocking, offset, size, host, nwait, wait, done);
}

static cl_int ocl_launch(const struct skmd_member *m, cl_command_queue q, cl_kernel k,
                         cl_uint dims, const size_t *offset, const size_t *global,
                         const size_t *local, cl_uint nwait, const cl_event *wait,
                         cl_event *done)
{
    (void)m;
    return real_clEnqueueNDRangeKernel(q, k, dims, offset, global, local, nwait, wait, done);
}

static cl_int ocl_wait(const struct skmd_member *m, cl_command_queue q)
{
    (void)m;
    return real_clFinish(q);
}

const struct skmd_driver_ops skmd_driver_opencl = {
    .name = "opencl",
    .alloc = ocl_alloc,
    .copy = ocl_copy,
    .launch = ocl_launch,
    .wait = ocl_wait,
};
