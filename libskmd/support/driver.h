/* libskmd/support/driver.h: what libskmd asks of one member device.
 *
 * The buffer manager and the launcher speak to members only through these operations,
 * so that a split launch (next step) runs the same code once per member with its share.
 * Ownership: every cl_mem / cl_event passed in is a REAL handle of that member, owned by
 * the caller (the operation neither retains nor releases it, except that an event it
 * returns through `*done` belongs to the caller). No libskmd lock may be held by the
 * caller across an operation: each one makes real calls that may block.
 */
#ifndef SKMD_DRIVER_H
#define SKMD_DRIVER_H

#include <stddef.h>
#include <CL/cl.h>

struct skmd_member;

struct skmd_driver_ops {
    const char *name;
    /* A real buffer of `size` bytes in real context `ctx` (flags as the app gave them,
     * host_ptr NULL unless USE/COPY_HOST_PTR). Returns NULL and sets *err on failure. */
    cl_mem (*alloc)(const struct skmd_member *m, cl_context ctx, cl_mem_flags flags,
                    size_t size, void *host_ptr, cl_int *err);
    /* Bytes host -> member (to_device) or member -> host, on real queue q. */
    cl_int (*copy)(const struct skmd_member *m, cl_command_queue q, int to_device,
                   cl_mem buf, cl_bool blocking, size_t offset, size_t size, void *host,
                   cl_uint nwait, const cl_event *wait, cl_event *done);
    /* One launch (a whole one now; a slice of one when launches are split). */
    cl_int (*launch)(const struct skmd_member *m, cl_command_queue q, cl_kernel k,
                     cl_uint dims, const size_t *offset, const size_t *global,
                     const size_t *local, cl_uint nwait, const cl_event *wait,
                     cl_event *done);
    /* Blocks until every command queued on q is done. */
    cl_int (*wait)(const struct skmd_member *m, cl_command_queue q);
};

/* The operations of a member reached through the real OpenCL driver. */
extern const struct skmd_driver_ops skmd_driver_opencl;

#endif
