/* Helpers of the API test programs: set-up, checks and error names. */
#include "api_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failed;

void api_ok(cl_int err, const char *what, const char *file, int line)
{
  if (err == CL_SUCCESS) return;
  printf("FAIL %s:%d: %s -> %s\n", file, line, what, api_error_name(err));
  exit(1);
}

void api_show(const char *label, cl_int err)
{
  printf("%s: %s\n", label, api_error_name(err));
}

void api_expect(const char *label, int condition)
{
  printf("%s: %s\n", label, condition ? "yes" : "no");
  if (!condition) {
    printf("FAIL expected yes: %s\n", label);
    failed = 1;
  }
}

int api_finish(void)
{
  fflush(stdout);
  return failed;
}

/* The first device, except PoCL's "basic" one when there is another: PoCL 3.1's basic
 * device deadlocks on any command that waits for a user event. */
static cl_device_id pick_device(cl_platform_id platform)
{
  cl_device_id devices[16];
  cl_uint n = 0;
  API_OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 16, devices, &n));
  for (cl_uint i = 0; i < n && i < 16; i++) {
    char name[256] = "";
    API_OK(clGetDeviceInfo(devices[i], CL_DEVICE_NAME, sizeof name, name, NULL));
    if (strncmp(name, "basic", 5)) return devices[i];
  }
  return devices[0];
}

void api_setup(struct api_env *env)
{
  cl_int err;
  setvbuf(stdout, NULL, _IOLBF, 0);   /* a run killed by its time limit still shows where */
  API_OK(clGetPlatformIDs(1, &env->platform, NULL));
  env->device = pick_device(env->platform);
  env->context = clCreateContext(NULL, 1, &env->device, NULL, NULL, &err);
  API_OK(err);
  env->queue = clCreateCommandQueue(env->context, env->device, CL_QUEUE_PROFILING_ENABLE, &err);
  API_OK(err);
}

void api_teardown(struct api_env *env)
{
  API_OK(clFinish(env->queue));
  API_OK(clReleaseCommandQueue(env->queue));
  API_OK(clReleaseContext(env->context));
}

cl_program api_build(struct api_env *env, const char *source, const char *options)
{
  cl_int err;
  cl_program p = clCreateProgramWithSource(env->context, 1, &source, NULL, &err);
  API_OK(err);
  err = clBuildProgram(p, 1, &env->device, options, NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[4096] = "";
    clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    printf("FAIL build -> %s\n%s\n", api_error_name(err), log);
    exit(1);
  }
  return p;
}

cl_kernel api_kernel(cl_program program, const char *name)
{
  cl_int err;
  cl_kernel k = clCreateKernel(program, name, &err);
  API_OK(err);
  return k;
}

const char *api_error_name(cl_int err)
{
  switch (err) {
#define E(x) case x: return #x;
  E(CL_SUCCESS) E(CL_DEVICE_NOT_FOUND) E(CL_DEVICE_NOT_AVAILABLE) E(CL_COMPILER_NOT_AVAILABLE)
  E(CL_MEM_OBJECT_ALLOCATION_FAILURE) E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY)
  E(CL_PROFILING_INFO_NOT_AVAILABLE) E(CL_MEM_COPY_OVERLAP) E(CL_IMAGE_FORMAT_MISMATCH)
  E(CL_IMAGE_FORMAT_NOT_SUPPORTED) E(CL_BUILD_PROGRAM_FAILURE) E(CL_MAP_FAILURE)
  E(CL_MISALIGNED_SUB_BUFFER_OFFSET) E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
  E(CL_COMPILE_PROGRAM_FAILURE) E(CL_LINKER_NOT_AVAILABLE) E(CL_LINK_PROGRAM_FAILURE)
  E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE) E(CL_INVALID_VALUE) E(CL_INVALID_DEVICE_TYPE)
  E(CL_INVALID_PLATFORM) E(CL_INVALID_DEVICE) E(CL_INVALID_CONTEXT) E(CL_INVALID_QUEUE_PROPERTIES)
  E(CL_INVALID_COMMAND_QUEUE) E(CL_INVALID_HOST_PTR) E(CL_INVALID_MEM_OBJECT)
  E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR) E(CL_INVALID_IMAGE_SIZE) E(CL_INVALID_SAMPLER)
  E(CL_INVALID_BINARY) E(CL_INVALID_BUILD_OPTIONS) E(CL_INVALID_PROGRAM)
  E(CL_INVALID_PROGRAM_EXECUTABLE) E(CL_INVALID_KERNEL_NAME) E(CL_INVALID_KERNEL_DEFINITION)
  E(CL_INVALID_KERNEL) E(CL_INVALID_ARG_INDEX) E(CL_INVALID_ARG_VALUE) E(CL_INVALID_ARG_SIZE)
  E(CL_INVALID_KERNEL_ARGS) E(CL_INVALID_WORK_DIMENSION) E(CL_INVALID_WORK_GROUP_SIZE)
  E(CL_INVALID_WORK_ITEM_SIZE) E(CL_INVALID_GLOBAL_OFFSET) E(CL_INVALID_EVENT_WAIT_LIST)
  E(CL_INVALID_EVENT) E(CL_INVALID_OPERATION) E(CL_INVALID_BUFFER_SIZE)
  E(CL_INVALID_GLOBAL_WORK_SIZE) E(CL_INVALID_PROPERTY) E(CL_INVALID_IMAGE_DESCRIPTOR)
  E(CL_INVALID_COMPILER_OPTIONS) E(CL_INVALID_LINKER_OPTIONS)
#undef E
  default: {
    static char buf[32];   /* only the main thread prints */
    snprintf(buf, sizeof buf, "error %d", err);
    return buf;
  }
  }
}
