/* Contexts and command queues. */
#include "stub.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cl_int check_properties(const cl_context_properties *props)
{
  for (; props && props[0]; props += 2) {
    if (props[0] != CL_CONTEXT_PLATFORM) return CL_INVALID_PROPERTY;
    if ((cl_platform_id)props[1] != &stub_platform) return CL_INVALID_PLATFORM;
  }
  return CL_SUCCESS;
}

static void device_list(char *out, size_t n, cl_uint count, const cl_device_id *devices)
{
  size_t used = 0;
  out[0] = 0;
  for (cl_uint i = 0; i < count && used < n; i++)
    used += (size_t)snprintf(out + used, n - used, "%s%u", i ? "," : "", devices[i]->index);
}

static cl_context CL_API_CALL create_context(const cl_context_properties *props, cl_uint num,
    const cl_device_id *devices,
    void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *), void *data,
    cl_int *errcode_ret)
{
  cl_int err = check_properties(props);
  if (!err && (!num || !devices || num > STUB_MAX_DEVICES)) err = CL_INVALID_VALUE;
  for (cl_uint i = 0; !err && i < num; i++)
    if (!stub_device_valid(devices[i])) err = CL_INVALID_DEVICE;
  if (!err && !notify && data) err = CL_INVALID_VALUE;
  cl_context c = NULL;
  if (!err && !(c = stub_new(sizeof *c, STUB_CONTEXT))) err = CL_OUT_OF_HOST_MEMORY;
  char list[128] = "";
  if (!err) {
    c->num_devices = num;
    memcpy(c->devices, devices, num * sizeof *devices);
    c->notify = notify;
    c->notify_data = data;
    device_list(list, sizeof list, num, devices);
    stub_log("clCreateContext devs=%s -> context%u", list, c->obj.id);
  } else {
    stub_log("clCreateContext -> %s", stub_error_name(err));
  }
  if (errcode_ret) *errcode_ret = err;
  return c;
}

static cl_context CL_API_CALL create_context_from_type(const cl_context_properties *props,
    cl_device_type type, void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *),
    void *data, cl_int *errcode_ret)
{
  cl_device_id devices[STUB_MAX_DEVICES];
  cl_uint n = 0;
  cl_int err = stub_dispatch.clGetDeviceIDs(&stub_platform, type, STUB_MAX_DEVICES, devices, &n);
  if (err) STUB_RETURN_ERROR(errcode_ret, err);
  return create_context(props, n, devices, notify, data, errcode_ret);
}

static cl_int CL_API_CALL retain_context(cl_context c)
{
  if (!stub_valid(c, STUB_CONTEXT)) return CL_INVALID_CONTEXT;
  stub_retain(c);
  return CL_SUCCESS;
}

static cl_int CL_API_CALL release_context(cl_context c)
{
  if (!stub_valid(c, STUB_CONTEXT)) return CL_INVALID_CONTEXT;
  if (stub_release(c)) {
    stub_log("clReleaseContext context%u freed", c->obj.id);
    stub_forget(c);
    free(c);
  }
  return CL_SUCCESS;
}

static cl_int CL_API_CALL get_context_info(cl_context c, cl_context_info param, size_t size,
                                           void *value, size_t *size_ret)
{
  if (!stub_valid(c, STUB_CONTEXT)) return CL_INVALID_CONTEXT;
  cl_uint u;
  switch (param) {
  case CL_CONTEXT_REFERENCE_COUNT: u = (cl_uint)atomic_load(&c->obj.refs); return stub_info(size, value, size_ret, &u, sizeof u);
  case CL_CONTEXT_NUM_DEVICES: return stub_info(size, value, size_ret, &c->num_devices, sizeof(cl_uint));
  case CL_CONTEXT_DEVICES: return stub_info(size, value, size_ret, c->devices, c->num_devices * sizeof(cl_device_id));
  case CL_CONTEXT_PROPERTIES: return stub_info(size, value, size_ret, NULL, 0);
  default: return CL_INVALID_VALUE;
  }
}

static cl_command_queue new_queue(cl_context c, cl_device_id d,
                                  cl_command_queue_properties props, cl_int *errcode_ret)
{
  cl_int err = CL_SUCCESS;
  if (!stub_valid(c, STUB_CONTEXT)) err = CL_INVALID_CONTEXT;
  else if (!stub_device_valid(d)) err = CL_INVALID_DEVICE;
  else if (props & ~(cl_command_queue_properties)(CL_QUEUE_PROFILING_ENABLE |
                                                  CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
    err = CL_INVALID_VALUE;
  else {
    err = CL_INVALID_DEVICE;
    for (cl_uint i = 0; i < c->num_devices; i++)
      if (c->devices[i] == d) err = CL_SUCCESS;
    if (!err && stub_device_is_gone(d)) err = CL_DEVICE_NOT_AVAILABLE;
  }
  cl_command_queue q = NULL;
  if (!err && !(q = stub_new(sizeof *q, STUB_QUEUE))) err = CL_OUT_OF_HOST_MEMORY;
  if (!err) {
    q->context = c;
    q->device = d;
    q->props = props;
    stub_retain(c);
    stub_log("clCreateCommandQueue dev=%u context%u props=0x%llx -> queue%u", d->index,
             c->obj.id, (unsigned long long)props, q->obj.id);
  } else {
    stub_log("clCreateCommandQueue -> %s", stub_error_name(err));
  }
  if (errcode_ret) *errcode_ret = err;
  return q;
}

static cl_command_queue CL_API_CALL create_queue(cl_context c, cl_device_id d,
    cl_command_queue_properties props, cl_int *errcode_ret)
{
  return new_queue(c, d, props, errcode_ret);
}

static cl_command_queue CL_API_CALL create_queue_with_properties(cl_context c, cl_device_id d,
    const cl_queue_properties *props, cl_int *errcode_ret)
{
  cl_command_queue_properties p = 0;
  for (; props && props[0]; props += 2) {
    if (props[0] != CL_QUEUE_PROPERTIES) STUB_RETURN_ERROR(errcode_ret, CL_INVALID_VALUE);
    p = props[1];
  }
  return new_queue(c, d, p, errcode_ret);
}

static cl_int CL_API_CALL retain_queue(cl_command_queue q)
{
  if (!stub_valid(q, STUB_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  stub_retain(q);
  return CL_SUCCESS;
}

static cl_int CL_API_CALL release_queue(cl_command_queue q)
{
  if (!stub_valid(q, STUB_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  if (stub_release(q)) {
    stub_log("clReleaseCommandQueue dev=%u queue%u freed", q->device->index, q->obj.id);
    cl_context c = q->context;
    stub_forget(q);
    free(q);
    release_context(c);
  }
  return CL_SUCCESS;
}

static cl_int CL_API_CALL get_queue_info(cl_command_queue q, cl_command_queue_info param,
                                         size_t size, void *value, size_t *size_ret)
{
  if (!stub_valid(q, STUB_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  cl_uint u;
  switch (param) {
  case CL_QUEUE_CONTEXT: return stub_info(size, value, size_ret, &q->context, sizeof q->context);
  case CL_QUEUE_DEVICE: return stub_info(size, value, size_ret, &q->device, sizeof q->device);
  case CL_QUEUE_REFERENCE_COUNT: u = (cl_uint)atomic_load(&q->obj.refs); return stub_info(size, value, size_ret, &u, sizeof u);
  case CL_QUEUE_PROPERTIES: return stub_info(size, value, size_ret, &q->props, sizeof q->props);
  default: return CL_INVALID_VALUE;
  }
}

/* Every command runs to completion when it is enqueued, so flush and finish only log. */
static cl_int CL_API_CALL flush(cl_command_queue q)
{
  if (!stub_valid(q, STUB_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  if (stub_device_gone(q->device)) {
    stub_log("clFlush dev=%u -> CL_OUT_OF_RESOURCES", q->device->index);
    return CL_OUT_OF_RESOURCES;
  }
  stub_log("clFlush dev=%u queue%u", q->device->index, q->obj.id);
  return CL_SUCCESS;
}

static cl_int CL_API_CALL finish(cl_command_queue q)
{
  if (!stub_valid(q, STUB_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  if (stub_device_gone(q->device)) {
    stub_log("clFinish dev=%u -> CL_OUT_OF_RESOURCES", q->device->index);
    return CL_OUT_OF_RESOURCES;
  }
  stub_log("clFinish dev=%u queue%u", q->device->index, q->obj.id);
  return CL_SUCCESS;
}

void stub_fill_context(cl_icd_dispatch *t)
{
  t->clCreateContext = create_context;
  t->clCreateContextFromType = create_context_from_type;
  t->clRetainContext = retain_context;
  t->clReleaseContext = release_context;
  t->clGetContextInfo = get_context_info;
  t->clCreateCommandQueue = create_queue;
  t->clCreateCommandQueueWithProperties = create_queue_with_properties;
  t->clRetainCommandQueue = retain_queue;
  t->clReleaseCommandQueue = release_queue;
  t->clGetCommandQueueInfo = get_queue_info;
  t->clFlush = flush;
  t->clFinish = finish;
}
