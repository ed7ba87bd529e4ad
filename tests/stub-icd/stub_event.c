/* Events: every enqueued command completes at once; user events complete when told. */
#include "stub.h"

#include <stdlib.h>
#include <time.h>

cl_int stub_check_wait_list(cl_uint n, const cl_event *list)
{
  if ((n == 0) != (list == NULL)) return CL_INVALID_EVENT_WAIT_LIST;
  for (cl_uint i = 0; i < n; i++)
    if (!stub_valid(list[i], STUB_EVENT)) return CL_INVALID_EVENT_WAIT_LIST;
  return CL_SUCCESS;
}

static void run_callbacks(cl_event e)
{
  struct stub_callback **p = &e->callbacks;
  while (*p) {
    struct stub_callback *cb = *p;
    /* A callback for CL_SUBMITTED or CL_RUNNING fires too once the event is past it. */
    if (e->status <= cb->status) {
      *p = cb->next;
      cb->fn(e, e->status < 0 ? e->status : cb->status, cb->data);
      free(cb);
    } else {
      p = &cb->next;
    }
  }
}

void stub_complete(cl_command_queue q, cl_command_type type, cl_event *event_ret)
{
  if (!event_ret) return;
  cl_event e = stub_new(sizeof *e, STUB_EVENT);
  *event_ret = e;
  if (!e) return;
  e->context = q->context;
  e->queue = q;
  e->type = type;
  e->status = CL_COMPLETE;
  cl_ulong now = stub_now_ns();
  e->times[0] = now;
  e->times[1] = now + 1;
  e->times[2] = now + 2;
  e->times[3] = stub_now_ns() + 3;
  stub_retain(q);
  stub_retain(q->context);
}

void stub_complete_failed(cl_command_queue q, cl_command_type type, cl_event *event_ret,
                          cl_int status)
{
  stub_complete(q, type, event_ret);
  if (*event_ret) (*event_ret)->status = status;
}

static cl_event CL_API_CALL create_user_event(cl_context c, cl_int *errcode_ret)
{
  if (!stub_valid(c, STUB_CONTEXT)) STUB_RETURN_ERROR(errcode_ret, CL_INVALID_CONTEXT);
  cl_event e = stub_new(sizeof *e, STUB_EVENT);
  if (!e) STUB_RETURN_ERROR(errcode_ret, CL_OUT_OF_HOST_MEMORY);
  e->context = c;
  e->type = CL_COMMAND_USER;
  e->status = CL_SUBMITTED;
  stub_retain(c);
  stub_log("clCreateUserEvent context%u -> event%u", c->obj.id, e->obj.id);
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return e;
}

static cl_int CL_API_CALL set_user_event_status(cl_event e, cl_int status)
{
  if (!stub_valid(e, STUB_EVENT) || e->queue) return CL_INVALID_EVENT;
  if (status > 0) return CL_INVALID_VALUE;
  if (e->status <= CL_COMPLETE) return CL_INVALID_OPERATION;
  stub_log("clSetUserEventStatus event%u status=%d", e->obj.id, status);
  e->status = status;
  run_callbacks(e);
  return CL_SUCCESS;
}

static cl_int CL_API_CALL set_event_callback(cl_event e, cl_int status,
    void (CL_CALLBACK *fn)(cl_event, cl_int, void *), void *data)
{
  if (!stub_valid(e, STUB_EVENT)) return CL_INVALID_EVENT;
  if (!fn || (status != CL_COMPLETE && status != CL_SUBMITTED && status != CL_RUNNING))
    return CL_INVALID_VALUE;
  struct stub_callback *cb = malloc(sizeof *cb);
  if (!cb) return CL_OUT_OF_HOST_MEMORY;
  *cb = (struct stub_callback){ status, fn, data, e->callbacks };
  e->callbacks = cb;
  stub_log("clSetEventCallback event%u status=%d", e->obj.id, status);
  run_callbacks(e);
  return CL_SUCCESS;
}

static cl_int CL_API_CALL wait_for_events(cl_uint n, const cl_event *list)
{
  if (!n || !list) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < n; i++)
    if (!stub_valid(list[i], STUB_EVENT)) return CL_INVALID_EVENT;
  stub_log("clWaitForEvents n=%u", n);
  /* Only a user event can be pending; another thread may complete it. */
  for (cl_uint i = 0; i < n; i++) {
    while (list[i]->status > CL_COMPLETE) nanosleep(&(struct timespec){0, 1000000}, NULL);
    if (list[i]->status < 0 && !stub_config()->wait_ignores_errors)
      return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  }
  return CL_SUCCESS;
}

static cl_int CL_API_CALL get_event_info(cl_event e, cl_event_info param, size_t size,
                                         void *value, size_t *size_ret)
{
  if (!stub_valid(e, STUB_EVENT)) return CL_INVALID_EVENT;
  cl_uint u;
  switch (param) {
  case CL_EVENT_COMMAND_QUEUE: return stub_info(size, value, size_ret, &e->queue, sizeof e->queue);
  case CL_EVENT_CONTEXT: return stub_info(size, value, size_ret, &e->context, sizeof e->context);
  case CL_EVENT_COMMAND_TYPE: return stub_info(size, value, size_ret, &e->type, sizeof e->type);
  case CL_EVENT_COMMAND_EXECUTION_STATUS: return stub_info(size, value, size_ret, &e->status, sizeof e->status);
  case CL_EVENT_REFERENCE_COUNT: u = (cl_uint)atomic_load(&e->obj.refs); return stub_info(size, value, size_ret, &u, sizeof u);
  default: return CL_INVALID_VALUE;
  }
}

static cl_int CL_API_CALL get_event_profiling_info(cl_event e, cl_profiling_info param,
    size_t size, void *value, size_t *size_ret)
{
  if (!stub_valid(e, STUB_EVENT)) return CL_INVALID_EVENT;
  if (!e->queue || !(e->queue->props & CL_QUEUE_PROFILING_ENABLE) || e->status != CL_COMPLETE)
    return CL_PROFILING_INFO_NOT_AVAILABLE;
  if (param < CL_PROFILING_COMMAND_QUEUED || param > CL_PROFILING_COMMAND_END) return CL_INVALID_VALUE;
  return stub_info(size, value, size_ret, &e->times[param - CL_PROFILING_COMMAND_QUEUED], sizeof(cl_ulong));
}

static cl_int CL_API_CALL retain_event(cl_event e)
{
  if (!stub_valid(e, STUB_EVENT)) return CL_INVALID_EVENT;
  stub_retain(e);
  return CL_SUCCESS;
}

static cl_int CL_API_CALL release_event(cl_event e)
{
  if (!stub_valid(e, STUB_EVENT)) return CL_INVALID_EVENT;
  if (stub_release(e)) {
    stub_log("clReleaseEvent event%u freed", e->obj.id);
    while (e->callbacks) {
      struct stub_callback *next = e->callbacks->next;
      free(e->callbacks);
      e->callbacks = next;
    }
    stub_forget(e);
    if (e->queue) stub_dispatch.clReleaseCommandQueue(e->queue);
    stub_dispatch.clReleaseContext(e->context);
    free(e);
  }
  return CL_SUCCESS;
}

static cl_int enqueue_sync_point(cl_command_queue q, const char *name, cl_command_type type,
                                 cl_uint n, const cl_event *list, cl_event *event_ret)
{
  if (!stub_valid(q, STUB_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  cl_int err = stub_check_wait_list(n, list);
  if (err) return err;
  if (stub_device_gone(q->device)) {
    stub_log("%s dev=%u -> CL_OUT_OF_RESOURCES", name, q->device->index);
    return CL_OUT_OF_RESOURCES;
  }
  stub_log("%s dev=%u queue%u waits=%u", name, q->device->index, q->obj.id, n);
  stub_complete(q, type, event_ret);
  return CL_SUCCESS;
}

static cl_int CL_API_CALL enqueue_marker_with_wait_list(cl_command_queue q, cl_uint n,
    const cl_event *list, cl_event *event_ret)
{
  return enqueue_sync_point(q, "clEnqueueMarkerWithWaitList", CL_COMMAND_MARKER, n, list, event_ret);
}

static cl_int CL_API_CALL enqueue_barrier_with_wait_list(cl_command_queue q, cl_uint n,
    const cl_event *list, cl_event *event_ret)
{
  return enqueue_sync_point(q, "clEnqueueBarrierWithWaitList", CL_COMMAND_BARRIER, n, list, event_ret);
}

static cl_int CL_API_CALL enqueue_marker(cl_command_queue q, cl_event *event_ret)
{
  if (!event_ret) return CL_INVALID_VALUE;
  return enqueue_sync_point(q, "clEnqueueMarker", CL_COMMAND_MARKER, 0, NULL, event_ret);
}

static cl_int CL_API_CALL enqueue_barrier(cl_command_queue q)
{
  return enqueue_sync_point(q, "clEnqueueBarrier", CL_COMMAND_BARRIER, 0, NULL, NULL);
}

static cl_int CL_API_CALL enqueue_wait_for_events(cl_command_queue q, cl_uint n, const cl_event *list)
{
  if (!n) return CL_INVALID_VALUE;
  return enqueue_sync_point(q, "clEnqueueWaitForEvents", CL_COMMAND_BARRIER, n, list, NULL);
}

void stub_fill_event(cl_icd_dispatch *t)
{
  t->clCreateUserEvent = create_user_event;
  t->clSetUserEventStatus = set_user_event_status;
  t->clSetEventCallback = set_event_callback;
  t->clWaitForEvents = wait_for_events;
  t->clGetEventInfo = get_event_info;
  t->clGetEventProfilingInfo = get_event_profiling_info;
  t->clRetainEvent = retain_event;
  t->clReleaseEvent = release_event;
  t->clEnqueueMarkerWithWaitList = enqueue_marker_with_wait_list;
  t->clEnqueueBarrierWithWaitList = enqueue_barrier_with_wait_list;
  t->clEnqueueMarker = enqueue_marker;
  t->clEnqueueBarrier = enqueue_barrier;
  t->clEnqueueWaitForEvents = enqueue_wait_for_events;
}
