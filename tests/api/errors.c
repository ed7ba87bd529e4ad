/* Error codes for bad calls that apps hit by mistake: NULL handles, missing pointers,
 * out-of-range values.  (Handles of the wrong type are tested by tests/interposer.)  Left
 * out: calls where PoCL 3.1 departs from the specification (a read of size 0 succeeds;
 * clCreateProgramWithSource with NULL strings and
 * clEnqueueNDRangeKernel with a NULL kernel crash), which libskmd may rightly correct. */
#include "api_common.h"

#include <stdio.h>

int main(void)
{
  struct api_env env;
  api_setup(&env);
  cl_int err;
  char text[64];
  size_t size;
  cl_uint u;

  api_show("clGetContextInfo(NULL)", clGetContextInfo(NULL, CL_CONTEXT_NUM_DEVICES, sizeof u, &u, NULL));
  api_show("clGetContextInfo(bad param)", clGetContextInfo(env.context, 0x7777, sizeof u, &u, NULL));
  api_show("clGetContextInfo(value too small)", clGetContextInfo(env.context, CL_CONTEXT_NUM_DEVICES, 1, text, NULL));
  api_show("clRetainContext(NULL)", clRetainContext(NULL));
  api_show("clReleaseCommandQueue(NULL)", clReleaseCommandQueue(NULL));
  api_show("clReleaseMemObject(NULL)", clReleaseMemObject(NULL));
  api_show("clReleaseProgram(NULL)", clReleaseProgram(NULL));
  api_show("clReleaseKernel(NULL)", clReleaseKernel(NULL));
  api_show("clReleaseEvent(NULL)", clReleaseEvent(NULL));
  api_show("clFinish(NULL)", clFinish(NULL));
  api_show("clFlush(NULL)", clFlush(NULL));

  cl_command_queue q = clCreateCommandQueue(NULL, env.device, 0, &err);
  api_show("clCreateCommandQueue(NULL context)", err);
  q = clCreateCommandQueue(env.context, NULL, 0, &err);
  api_show("clCreateCommandQueue(NULL device)", err);
  (void)q;
  cl_mem m = clCreateBuffer(NULL, CL_MEM_READ_WRITE, 64, NULL, &err);
  api_show("clCreateBuffer(NULL context)", err);
  m = clCreateBuffer(env.context, (cl_mem_flags)1 << 40, 64, NULL, &err);
  api_show("clCreateBuffer(unknown flag)", err);
  api_expect("  returns NULL", m == NULL);
  cl_ulong max_alloc;
  API_OK(clGetDeviceInfo(env.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL));
  m = clCreateBuffer(env.context, CL_MEM_READ_WRITE, (size_t)max_alloc + 1, NULL, &err);
  api_show("clCreateBuffer(over CL_DEVICE_MAX_MEM_ALLOC_SIZE)", err);

  m = clCreateBuffer(env.context, CL_MEM_READ_WRITE, 64, NULL, &err);
  API_OK(err);
  api_show("clEnqueueReadBuffer(NULL queue)", clEnqueueReadBuffer(NULL, m, CL_TRUE, 0, 4, text, 0, NULL, NULL));
  api_show("clEnqueueReadBuffer(NULL buffer)", clEnqueueReadBuffer(env.queue, NULL, CL_TRUE, 0, 4, text, 0, NULL, NULL));
  api_show("clEnqueueWriteBuffer(offset past the end)", clEnqueueWriteBuffer(env.queue, m, CL_TRUE, 64, 4, text, 0, NULL, NULL));
  api_show("clEnqueueCopyBuffer(past the end)", clEnqueueCopyBuffer(env.queue, m, m, 0, 32, 48, 0, NULL, NULL));
  cl_event e = NULL;
  api_show("wait list count without list", clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, 4, text, 1, NULL, NULL));
  api_show("wait list without count", clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, 4, text, 0, &e, NULL));
  void *p = clEnqueueMapBuffer(env.queue, m, CL_TRUE, CL_MAP_READ, 60, 8, 0, NULL, NULL, &err);
  api_show("clEnqueueMapBuffer(past the end)", err);
  api_expect("  returns NULL", p == NULL);
  api_show("clGetMemObjectInfo(NULL)", clGetMemObjectInfo(NULL, CL_MEM_SIZE, sizeof size, &size, NULL));
  api_show("clWaitForEvents(NULL event)", clWaitForEvents(1, &e));
  api_show("clGetEventInfo(NULL)", clGetEventInfo(NULL, CL_EVENT_COMMAND_TYPE, sizeof u, &u, NULL));

  cl_program prog = clCreateProgramWithSource(NULL, 1, (const char *[]){"kernel void k() {}"}, NULL, &err);
  api_show("clCreateProgramWithSource(NULL context)", err);
  (void)prog;
  cl_kernel k = clCreateKernel(NULL, "k", &err);
  api_show("clCreateKernel(NULL program)", err);
  (void)k;
  api_show("clSetKernelArg(NULL kernel)", clSetKernelArg(NULL, 0, 4, &u));
  api_show("clGetKernelWorkGroupInfo(NULL)", clGetKernelWorkGroupInfo(NULL, env.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof size, &size, NULL));
  api_show("clCreateUserEvent(NULL context)", (clCreateUserEvent(NULL, &err), err));

  API_OK(clReleaseMemObject(m));
  api_teardown(&env);
  return api_finish();
}
