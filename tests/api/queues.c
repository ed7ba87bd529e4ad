/* Command queues: in-order and out-of-order, queue info, profiling info, markers, barriers,
 * flush and finish. */
#include "api_common.h"

#include <stdio.h>

static const char *source =
  "kernel void add(global int *a, int v) { a[get_global_id(0)] += v; }\n";

int main(void)
{
  struct api_env env;
  api_setup(&env);
  cl_int err;
  cl_command_queue_properties props = 0;
  API_OK(clGetCommandQueueInfo(env.queue, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL));
  api_expect("queue properties as created", props == CL_QUEUE_PROFILING_ENABLE);
  cl_context qc;
  cl_device_id qd;
  API_OK(clGetCommandQueueInfo(env.queue, CL_QUEUE_CONTEXT, sizeof qc, &qc, NULL));
  API_OK(clGetCommandQueueInfo(env.queue, CL_QUEUE_DEVICE, sizeof qd, &qd, NULL));
  api_expect("queue context and device", qc == env.context && qd == env.device);
  api_show("queue info, bad param", clGetCommandQueueInfo(env.queue, 0x7777, sizeof props, &props, NULL));
  cl_command_queue bad = clCreateCommandQueue(env.context, env.device, 0x4000, &err);
  api_show("clCreateCommandQueue(bad properties)", err);
  api_expect("  returns NULL", bad == NULL);

  enum { N = 4096 };
  static int data[N];
  cl_mem buf = clCreateBuffer(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data, data, &err);
  API_OK(err);
  cl_program p = api_build(&env, source, NULL);
  cl_kernel k = api_kernel(p, "add");
  API_OK(clSetKernelArg(k, 0, sizeof buf, &buf));

  /* In order: three dependent launches run in order; profiling is ordered and non-zero. */
  size_t global = N;
  cl_event ev[3];
  for (int i = 0; i < 3; i++) {
    int v = i + 1;
    API_OK(clSetKernelArg(k, 1, sizeof v, &v));
    API_OK(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, NULL, 0, NULL, &ev[i]));
  }
  API_OK(clFlush(env.queue));
  API_OK(clWaitForEvents(3, ev));
  cl_ulong t[4];
  int ordered = 1;
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 4; j++)
      API_OK(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_QUEUED + j, sizeof t[j], &t[j], NULL));
    ordered &= t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3] && t[3] > 0;
  }
  api_expect("profiling: queued <= submit <= start <= end", ordered);
  cl_ulong end0, start2;
  API_OK(clGetEventProfilingInfo(ev[0], CL_PROFILING_COMMAND_END, sizeof end0, &end0, NULL));
  API_OK(clGetEventProfilingInfo(ev[2], CL_PROFILING_COMMAND_START, sizeof start2, &start2, NULL));
  api_expect("in order: the third launch starts after the first ends", start2 >= end0);
  api_show("profiling info, bad param",
           clGetEventProfilingInfo(ev[0], 0x7777, sizeof t[0], &t[0], NULL));
  for (int i = 0; i < 3; i++) API_OK(clReleaseEvent(ev[i]));
  API_OK(clEnqueueReadBuffer(env.queue, buf, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL));
  int ok = 1;
  for (int i = 0; i < N; i++) ok &= data[i] == 6;
  api_expect("in-order results", ok);

  /* Without profiling, the info is not available. */
  cl_command_queue plain = clCreateCommandQueue(env.context, env.device, 0, &err);
  API_OK(err);
  cl_event e;
  API_OK(clEnqueueMarkerWithWaitList(plain, 0, NULL, &e));
  API_OK(clWaitForEvents(1, &e));
  api_show("profiling info on a queue without profiling",
           clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t[0], &t[0], NULL));
  cl_command_type type;
  API_OK(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  api_expect("marker event type", type == CL_COMMAND_MARKER);
  API_OK(clReleaseEvent(e));
  API_OK(clReleaseCommandQueue(plain));

  /* Out of order (when the device offers it): a barrier orders the two halves. */
  cl_command_queue_properties dev_props;
  API_OK(clGetDeviceInfo(env.device, CL_DEVICE_QUEUE_PROPERTIES, sizeof dev_props, &dev_props, NULL));
  cl_command_queue ooo = clCreateCommandQueue(env.context, env.device,
                                              CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
  if (dev_props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) API_OK(err);
  else api_show("out-of-order queue where the device has none", err);
  if (ooo) {
    int v = 10;
    API_OK(clSetKernelArg(k, 1, sizeof v, &v));
    cl_event a, b, barrier, marker;
    API_OK(clEnqueueNDRangeKernel(ooo, k, 1, NULL, &global, NULL, 0, NULL, &a));
    API_OK(clEnqueueBarrierWithWaitList(ooo, 0, NULL, &barrier));
    v = 100;
    API_OK(clSetKernelArg(k, 1, sizeof v, &v));
    API_OK(clEnqueueNDRangeKernel(ooo, k, 1, NULL, &global, NULL, 1, &barrier, &b));
    API_OK(clEnqueueMarkerWithWaitList(ooo, 0, NULL, &marker));   /* waits for all before it */
    API_OK(clWaitForEvents(1, &marker));
    cl_int sa, sb;
    API_OK(clGetEventInfo(a, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof sa, &sa, NULL));
    API_OK(clGetEventInfo(b, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof sb, &sb, NULL));
    api_expect("out of order: a marker with no wait list waits for everything", sa == CL_COMPLETE && sb == CL_COMPLETE);
    API_OK(clEnqueueReadBuffer(ooo, buf, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL));
    ok = 1;
    for (int i = 0; i < N; i++) ok &= data[i] == 116;
    api_expect("out-of-order results", ok);
    API_OK(clReleaseEvent(a));
    API_OK(clReleaseEvent(b));
    API_OK(clReleaseEvent(barrier));
    API_OK(clReleaseEvent(marker));
    API_OK(clFinish(ooo));
    API_OK(clReleaseCommandQueue(ooo));
  }
  /* The 1.1 forms (not clEnqueueWaitForEvents: PoCL 3.1 stops the process in it). */
  cl_event m;
  API_OK(clEnqueueMarker(env.queue, &m));
  API_OK(clEnqueueBarrier(env.queue));
  API_OK(clFinish(env.queue));
  cl_int status;
  API_OK(clGetEventInfo(m, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
  api_expect("clEnqueueMarker event completes after clFinish", status == CL_COMPLETE);
  API_OK(clReleaseEvent(m));
  API_OK(clRetainCommandQueue(env.queue));   /* its count is not checked: events hold some */
  API_OK(clReleaseCommandQueue(env.queue));

  API_OK(clReleaseKernel(k));
  API_OK(clReleaseProgram(p));
  API_OK(clReleaseMemObject(buf));
  api_teardown(&env);
  return api_finish();
}
