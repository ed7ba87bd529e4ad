/* Events: wait lists, user events (completed and failed), callbacks, status and info. */
#include "api_common.h"

#include <stdatomic.h>
#include <stdio.h>

static atomic_int callback_calls;
static atomic_int callback_status = 1;

static void CL_CALLBACK on_event(cl_event e, cl_int status, void *data)
{
  (void)e;
  atomic_store(&callback_status, status);
  atomic_fetch_add(&callback_calls, *(int *)data);
}

int main(void)
{
  struct api_env env;
  api_setup(&env);
  cl_int err;
  enum { N = 256 };
  int data[N];
  for (int i = 0; i < N; i++) data[i] = i;
  cl_mem buf = clCreateBuffer(env.context, CL_MEM_READ_WRITE, sizeof data, NULL, &err);
  API_OK(err);

  /* A write gated by a user event does not happen until the event completes. */
  cl_event gate = clCreateUserEvent(env.context, &err);
  API_OK(err);
  cl_int status;
  API_OK(clGetEventInfo(gate, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
  api_expect("a new user event is CL_SUBMITTED", status == CL_SUBMITTED);
  cl_command_type type;
  API_OK(clGetEventInfo(gate, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  api_expect("its type is CL_COMMAND_USER", type == CL_COMMAND_USER);
  cl_command_queue q;
  API_OK(clGetEventInfo(gate, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, NULL));
  api_expect("its queue is NULL", q == NULL);
  cl_event write, read;
  int one = 1;
  API_OK(clSetEventCallback(gate, CL_COMPLETE, on_event, &one));
  API_OK(clEnqueueWriteBuffer(env.queue, buf, CL_FALSE, 0, sizeof data, data, 1, &gate, &write));
  int out[N] = {0};
  API_OK(clEnqueueReadBuffer(env.queue, buf, CL_FALSE, 0, sizeof out, out, 1, &write, &read));
  API_OK(clFlush(env.queue));
  API_OK(clGetEventInfo(read, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
  api_expect("a read behind a pending user event is not complete", status > CL_COMPLETE);
  API_OK(clSetUserEventStatus(gate, CL_COMPLETE));
  api_show("setting a user event's status twice", clSetUserEventStatus(gate, CL_COMPLETE));
  API_OK(clWaitForEvents(1, &read));
  int ok = 1;
  for (int i = 0; i < N; i++) ok &= out[i] == i;
  api_expect("the gated write and read happened", ok);
  API_OK(clGetEventInfo(write, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
  api_expect("the write's event is CL_COMPLETE", status == CL_COMPLETE);
  API_OK(clGetEventInfo(write, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  api_expect("the write's type is CL_COMMAND_WRITE_BUFFER", type == CL_COMMAND_WRITE_BUFFER);
  cl_context ec;
  API_OK(clGetEventInfo(write, CL_EVENT_CONTEXT, sizeof ec, &ec, NULL));
  api_expect("the write's context", ec == env.context);
  API_OK(clGetEventInfo(read, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, NULL));
  api_expect("the read's queue", q == env.queue);
  API_OK(clFinish(env.queue));
  api_expect("the user event's callback ran once with CL_COMPLETE",
             atomic_load(&callback_calls) == 1 && atomic_load(&callback_status) == CL_COMPLETE);

  /* A callback on a completed event still runs; one for CL_SUBMITTED runs too. */
  int ten = 10;
  API_OK(clSetEventCallback(read, CL_COMPLETE, on_event, &ten));
  API_OK(clSetEventCallback(read, CL_SUBMITTED, on_event, &ten));
  API_OK(clFinish(env.queue));
  for (int spin = 0; spin < 1000 && atomic_load(&callback_calls) != 21; spin++) {
    cl_event m;                       /* callbacks may run on a driver thread: let them */
    API_OK(clEnqueueMarkerWithWaitList(env.queue, 0, NULL, &m));
    API_OK(clWaitForEvents(1, &m));
    API_OK(clReleaseEvent(m));
  }
  api_expect("callbacks on a complete event ran", atomic_load(&callback_calls) == 21);
  api_show("clSetEventCallback(bad status)", clSetEventCallback(read, 7, on_event, &one));
  api_show("clSetEventCallback(NULL function)", clSetEventCallback(read, CL_COMPLETE, NULL, NULL));

  /* A failed user event fails what waits on it. */
  cl_event failing = clCreateUserEvent(env.context, &err);
  API_OK(err);
  cl_event marker;
  API_OK(clEnqueueMarkerWithWaitList(env.queue, 1, &failing, &marker));
  API_OK(clSetUserEventStatus(failing, -1));
  err = clWaitForEvents(1, &marker);
  api_show("waiting on a command behind a failed user event", err);
  API_OK(clGetEventInfo(failing, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
  api_expect("the failed user event's status is negative", status < 0);

  /* Bad calls. */
  api_show("clWaitForEvents(0, NULL)", clWaitForEvents(0, NULL));
  api_show("clEnqueueMarkerWithWaitList(1, NULL)", clEnqueueMarkerWithWaitList(env.queue, 1, NULL, NULL));
  cl_event null_event = NULL;
  api_show("wait list holding NULL", clEnqueueMarkerWithWaitList(env.queue, 1, &null_event, NULL));
  api_show("clSetUserEventStatus(not a user event)", clSetUserEventStatus(write, CL_COMPLETE));
  api_show("clSetUserEventStatus(positive)", clSetUserEventStatus(gate, 5));
  cl_uint refs;
  API_OK(clRetainEvent(write));
  API_OK(clGetEventInfo(write, CL_EVENT_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  /* The app holds 2; a driver may still hold its own for a moment after the command ends
   * (PoCL now and then does: the count is "stale at once", says the specification). */
  api_expect("event reference count after retain is at least 2", refs >= 2);
  API_OK(clReleaseEvent(write));

  API_OK(clReleaseEvent(marker));
  API_OK(clReleaseEvent(failing));
  API_OK(clReleaseEvent(gate));
  API_OK(clReleaseEvent(write));
  API_OK(clReleaseEvent(read));
  API_OK(clReleaseMemObject(buf));
  api_teardown(&env);
  return api_finish();
}
