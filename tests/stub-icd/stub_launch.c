/* Kernel launches.  Two built-in kernels really run, so that results can be checked:
 *   fill_gid(global int *out): out[i] = i, i the linear global id (offset included)
 *   add_one(global int *data): data[i] += 1
 * Any other kernel is recorded and does nothing. */
#include "stub.h"

#include <stdio.h>
#include <string.h>

static void run_builtin(cl_kernel k, cl_uint dim, const size_t *offset, const size_t *global)
{
  int fill = !strcmp(k->name, "fill_gid"), add = !strcmp(k->name, "add_one");
  if ((!fill && !add) || !k->num_args || !k->args[0].mem) return;
  cl_mem m = k->args[0].mem;
  int *data = (int *)m->bytes;
  size_t count = m->size / sizeof(int);
  size_t lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  for (cl_uint d = 0; d < dim; d++) {
    lo[d] = offset ? offset[d] : 0;
    hi[d] = lo[d] + global[d];
  }
  for (size_t z = lo[2]; z < hi[2]; z++)
    for (size_t y = lo[1]; y < hi[1]; y++)
      for (size_t x = lo[0]; x < hi[0]; x++) {
        size_t i = x + y * hi[0] + z * hi[0] * hi[1];
        if (i >= count) continue;
        if (fill) data[i] = (int)i;
        else data[i] += 1;
      }
}

static void sizes_text(char *out, size_t n, cl_uint dim, const size_t *v, size_t none)
{
  size_t used = 0;
  for (cl_uint d = 0; d < dim && used < n; d++)
    used += (size_t)snprintf(out + used, n - used, "%s%zu", d ? "," : "", v ? v[d] : none);
}

static cl_int CL_API_CALL enqueue_ndrange(cl_command_queue q, cl_kernel k, cl_uint dim,
    const size_t *offset, const size_t *global, const size_t *local, cl_uint n,
    const cl_event *list, cl_event *ev)
{
  cl_int err = CL_SUCCESS;
  if (!stub_valid(q, STUB_QUEUE)) err = CL_INVALID_COMMAND_QUEUE;
  else if (!stub_valid(k, STUB_KERNEL)) err = CL_INVALID_KERNEL;
  else if (k->program->context != q->context) err = CL_INVALID_CONTEXT;
  else if (dim < 1 || dim > 3) err = CL_INVALID_WORK_DIMENSION;
  else if (!global) err = CL_INVALID_VALUE;
  else err = stub_check_wait_list(n, list);
  for (cl_uint a = 0; !err && a < k->num_args; a++)
    if (!k->args[a].set) err = CL_INVALID_KERNEL_ARGS;
  for (cl_uint d = 0; !err && d < dim; d++) {
    if (!global[d]) err = CL_INVALID_GLOBAL_WORK_SIZE;
    else if (local && (!local[d] || global[d] % local[d])) err = CL_INVALID_WORK_GROUP_SIZE;
  }
  if (!err && !stub_program_built_for(k->program, q->device)) err = CL_INVALID_PROGRAM_EXECUTABLE;
  /* A device that cannot allocate fails where a lazily allocating driver would: the first
   * command that needs the kernel's buffers there. */
  for (cl_uint a = 0; !err && (q->device->fail & FAIL_ALLOC) && a < k->num_args; a++)
    if (k->args[a].mem) err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
  if (!err && (q->device->fail & FAIL_LAUNCH)) err = CL_OUT_OF_RESOURCES;
  /* A device that disappears: a launch that asked for an event is accepted and its event
   * ends in error (the driver found out later); without an event the call fails. */
  int lost = !err && stub_device_gone(q->device);
  if (lost && !ev) err = CL_OUT_OF_RESOURCES;
  if (err && err != CL_OUT_OF_RESOURCES && err != CL_MEM_OBJECT_ALLOCATION_FAILURE) {
    stub_log("clEnqueueNDRangeKernel -> %s", stub_error_name(err));
    return err;
  }
  char off[64], glo[64], loc[64], args[256] = "";
  sizes_text(off, sizeof off, dim, offset, 0);
  sizes_text(glo, sizeof glo, dim, global, 0);
  sizes_text(loc, sizeof loc, dim, local, 0);
  size_t used = 0;
  for (cl_uint a = 0; a < k->num_args && used < sizeof args; a++)
    if (k->args[a].mem)
      used += (size_t)snprintf(args + used, sizeof args - used, "%smem%u", used ? "," : "",
                               k->args[a].mem->obj.id);
  stub_log("clEnqueueNDRangeKernel dev=%u kernel%u name=%s dim=%u offset=%s global=%s local=%s "
           "mems=%s -> %s", q->device->index, k->obj.id, k->name, dim, off, glo, loc,
           used ? args : "-", lost ? "event CL_OUT_OF_RESOURCES" : stub_error_name(err));
  if (err) return err;
  if (lost) {
    stub_complete_failed(q, CL_COMMAND_NDRANGE_KERNEL, ev, CL_OUT_OF_RESOURCES);
    return CL_SUCCESS;
  }
  run_builtin(k, dim, offset, global);
  stub_complete(q, CL_COMMAND_NDRANGE_KERNEL, ev);
  return CL_SUCCESS;
}

static cl_int CL_API_CALL enqueue_task(cl_command_queue q, cl_kernel k, cl_uint n,
                                       const cl_event *list, cl_event *ev)
{
  size_t one = 1;
  return enqueue_ndrange(q, k, 1, NULL, &one, &one, n, list, ev);
}

void stub_fill_launch(cl_icd_dispatch *t)
{
  t->clEnqueueNDRangeKernel = enqueue_ndrange;
  t->clEnqueueTask = enqueue_task;
}
