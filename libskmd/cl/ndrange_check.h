/* libskmd/cl/ndrange_check.h: clEnqueueNDRangeKernel's sizes checked as the specification
 * asks, before any work (ndrange_check.c); clSetKernelArg's value checked against the
 * parameter's kind and type (arg_check.c). */
#ifndef SKMD_NDRANGE_CHECK_H
#define SKMD_NDRANGE_CHECK_H

#include <CL/cl.h>

/* CL_SUCCESS, or CL_INVALID_WORK_DIMENSION, CL_INVALID_GLOBAL_WORK_SIZE,
 * CL_INVALID_GLOBAL_OFFSET, CL_INVALID_WORK_GROUP_SIZE, CL_INVALID_WORK_ITEM_SIZE. *empty
 * is set when a global size is 0 on an OpenCL 2.1+ device: the command then has nothing
 * to run and trivially succeeds. */
cl_int skmd_ndrange_check(cl_kernel kernel, cl_uint work_dim, const size_t *offset,
                          const size_t *global, const size_t *local, int *empty);

/* What a kernel parameter takes, for clSetKernelArg. */
enum skmd_arg_class {
    SKMD_ARG_UNKNOWN = 0, /* no argument information: handles are recognised by value */
    SKMD_ARG_PLAIN,       /* a scalar, vector, struct or __local size: never a handle */
    SKMD_ARG_MEM,         /* a __global/__constant pointer or an image */
    SKMD_ARG_SAMPLER,
};

/* CL_SUCCESS when (arg_size, arg_value) suits parameter arg_index (which must exist):
 * CL_INVALID_MEM_OBJECT for a buffer or image parameter given a value that is no live
 * memory object of libskmd, CL_INVALID_SAMPLER likewise for a sampler parameter,
 * CL_INVALID_ARG_SIZE for a handle parameter not given sizeof(cl_mem) or a scalar or
 * vector parameter given another size than its type's. *cls says what the parameter
 * takes. */
cl_int skmd_kernel_arg_check(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                             const void *arg_value, enum skmd_arg_class *cls);

#endif
