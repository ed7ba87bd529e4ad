/* tests/common/cl_test.c: set-up and checks of the OpenCL test apps (cl_test.h). */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateCommandQueue: the apps are 1.2 apps */
#include "cl_test.h"

#include <stdlib.h>

/* libskmd/support/error_names.c, linked in: the names libskmd's own log uses. */
const char *skmd_error_name(cl_int code);

void cl_test_check(cl_int err, const char *call, const char *file, int line)
{
    if (err == CL_SUCCESS)
        return;
    fprintf(stderr, "%s:%d: %s = %d (%s)\n", file, line, call, err, skmd_error_name(err));
    exit(1);
}

void cl_test_open(struct cl_test *t, cl_command_queue_properties properties,
                  const char *source, const char *options)
{
    cl_int err;
    CL_CHECK(clGetPlatformIDs(1, &t->platform, NULL));
    CL_CHECK(clGetDeviceIDs(t->platform, CL_DEVICE_TYPE_ALL, 1, &t->device, NULL));
    t->context = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    CL_CHECK(err);
    t->queue = clCreateCommandQueue(t->context, t->device, properties, &err);
    CL_CHECK(err);
    t->program = source ? cl_test_build(t, source, options) : NULL;
}

void cl_test_close(struct cl_test *t)
{
    if (t->program)
        clReleaseProgram(t->program);
    clReleaseCommandQueue(t->queue);
    clReleaseContext(t->context);
}

cl_program cl_test_build(const struct cl_test *t, const char *source, const char *options)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(t->context, 1, &source, NULL, &err);
    CL_CHECK(err);
    err = clBuildProgram(p, 1, &t->device, options ? options : "", NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[4096] = "";
        clGetProgramBuildInfo(p, t->device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        fprintf(stderr, "clBuildProgram(\"%s\") = %d (%s):\n%s\n", options ? options : "", err,
                skmd_error_name(err), log);
        exit(1);
    }
    return p;
}

cl_mem cl_test_buffer(const struct cl_test *t, cl_mem_flags flags, size_t size, void *host)
{
    cl_int err;
    cl_mem m = clCreateBuffer(t->context, flags, size, host, &err);
    CL_CHECK(err);
    return m;
}

cl_kernel cl_test_kernel(const struct cl_test *t, const char *name)
{
    cl_int err;
    cl_kernel k = clCreateKernel(t->program, name, &err);
    CL_CHECK(err);
    return k;
}

void cl_test_dump(const struct cl_test *t, cl_mem m, size_t size, FILE *out)
{
    unsigned char *bytes = malloc(size);
    if (!bytes) {
        fprintf(stderr, "out of host memory for a %zu-byte read\n", size);
        exit(1);
    }
    CL_CHECK(clEnqueueReadBuffer(t->queue, m, CL_TRUE, 0, size, bytes, 0, NULL, NULL));
    if (fwrite(bytes, 1, size, out) != size) {
        fprintf(stderr, "cannot write a %zu-byte dump\n", size);
        exit(1);
    }
    free(bytes);
}
