/* Buffers in real host memory, and the commands that read, write, copy, fill and map them. */
#include "stub.h"

#include <stdlib.h>
#include <string.h>

#define ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define HOST_FLAGS (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)
#define HOST_ACCESS_FLAGS (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)

static int one_bit_at_most(cl_mem_flags f) { return (f & (f - 1)) == 0; }

static cl_int check_flags(cl_mem_flags flags)
{
  if (flags & ~(cl_mem_flags)(ACCESS_FLAGS | HOST_FLAGS | HOST_ACCESS_FLAGS)) return CL_INVALID_VALUE;
  if (!one_bit_at_most(flags & ACCESS_FLAGS) || !one_bit_at_most(flags & HOST_ACCESS_FLAGS))
    return CL_INVALID_VALUE;
  if ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
    return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

static cl_mem CL_API_CALL create_buffer(cl_context c, cl_mem_flags flags, size_t size,
                                        void *host_ptr, cl_int *errcode_ret)
{
  cl_int err = CL_SUCCESS;
  int wants_ptr = (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) != 0;
  if (!stub_valid(c, STUB_CONTEXT)) err = CL_INVALID_CONTEXT;
  else if (check_flags(flags)) err = CL_INVALID_VALUE;
  else if (!size || size > (512u << 20)) err = CL_INVALID_BUFFER_SIZE;
  else if (wants_ptr != (host_ptr != NULL)) err = CL_INVALID_HOST_PTR;
  /* The app's bytes go to the context's first device at once: one that cannot allocate
   * fails the call (a plain buffer is made lazily, per device: see check_transfer). */
  else if (wants_ptr && (c->devices[0]->fail & FAIL_ALLOC)) err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
  cl_mem m = NULL;
  if (!err && !(m = stub_new(sizeof *m, STUB_MEM))) err = CL_OUT_OF_HOST_MEMORY;
  if (!err) {
    m->context = c;
    m->flags = flags ? flags : CL_MEM_READ_WRITE;
    m->size = size;
    m->host_ptr = host_ptr;
    if (flags & CL_MEM_USE_HOST_PTR) {
      m->bytes = host_ptr;
    } else if (!(m->bytes = calloc(1, size))) {
      stub_forget(m);
      free(m);
      m = NULL;
      err = CL_OUT_OF_HOST_MEMORY;
    } else {
      m->owns_bytes = 1;
      if (flags & CL_MEM_COPY_HOST_PTR) memcpy(m->bytes, host_ptr, size);
    }
  }
  if (m) {
    stub_retain(c);
    stub_log("clCreateBuffer context%u flags=0x%llx size=%zu -> mem%u", c->obj.id,
             (unsigned long long)flags, size, m->obj.id);
  } else {
    stub_log("clCreateBuffer size=%zu -> %s", size, stub_error_name(err));
  }
  if (errcode_ret) *errcode_ret = err;
  return m;
}

static cl_mem CL_API_CALL create_sub_buffer(cl_mem parent, cl_mem_flags flags,
    cl_buffer_create_type type, const void *info, cl_int *errcode_ret)
{
  if (!stub_valid(parent, STUB_MEM) || parent->parent) STUB_RETURN_ERROR(errcode_ret, CL_INVALID_MEM_OBJECT);
  if (type != CL_BUFFER_CREATE_TYPE_REGION || !info || check_flags(flags) ||
      (flags & HOST_FLAGS))
    STUB_RETURN_ERROR(errcode_ret, CL_INVALID_VALUE);
  const cl_buffer_region *r = info;
  if (!r->size) STUB_RETURN_ERROR(errcode_ret, CL_INVALID_BUFFER_SIZE);
  if (r->origin > parent->size || r->size > parent->size - r->origin)
    STUB_RETURN_ERROR(errcode_ret, CL_INVALID_VALUE);
  if (r->origin % 128) STUB_RETURN_ERROR(errcode_ret, CL_MISALIGNED_SUB_BUFFER_OFFSET);
  cl_mem m = stub_new(sizeof *m, STUB_MEM);
  if (!m) STUB_RETURN_ERROR(errcode_ret, CL_OUT_OF_HOST_MEMORY);
  m->context = parent->context;
  m->flags = (flags & ACCESS_FLAGS ? flags & ACCESS_FLAGS : parent->flags & ACCESS_FLAGS) |
             (parent->flags & HOST_FLAGS);
  m->size = r->size;
  m->bytes = parent->bytes + r->origin;
  m->host_ptr = parent->host_ptr ? (char *)parent->host_ptr + r->origin : NULL;
  m->parent = parent;
  m->origin = r->origin;
  stub_retain(parent);
  stub_retain(m->context);
  stub_log("clCreateSubBuffer mem%u origin=%zu size=%zu -> mem%u", parent->obj.id, r->origin,
           r->size, m->obj.id);
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return m;
}

static cl_int CL_API_CALL retain_mem(cl_mem m)
{
  if (!stub_valid(m, STUB_MEM)) return CL_INVALID_MEM_OBJECT;
  stub_retain(m);
  return CL_SUCCESS;
}

static cl_int CL_API_CALL release_mem(cl_mem m)
{
  if (!stub_valid(m, STUB_MEM)) return CL_INVALID_MEM_OBJECT;
  if (!stub_release(m)) return CL_SUCCESS;
  stub_log("clReleaseMemObject mem%u freed", m->obj.id);
  stub_forget(m);
  while (m->destructors) {   /* most recently registered first, as the spec says */
    struct stub_destructor *d = m->destructors;
    m->destructors = d->next;
    d->fn(m, d->data);
    free(d);
  }
  if (m->owns_bytes) free(m->bytes);
  if (m->parent) release_mem(m->parent);
  stub_dispatch.clReleaseContext(m->context);
  free(m);
  return CL_SUCCESS;
}

static cl_int CL_API_CALL set_destructor(cl_mem m, void (CL_CALLBACK *fn)(cl_mem, void *), void *data)
{
  if (!stub_valid(m, STUB_MEM)) return CL_INVALID_MEM_OBJECT;
  if (!fn) return CL_INVALID_VALUE;
  struct stub_destructor *d = malloc(sizeof *d);
  if (!d) return CL_OUT_OF_HOST_MEMORY;
  *d = (struct stub_destructor){ fn, data, m->destructors };
  m->destructors = d;
  return CL_SUCCESS;
}

static cl_int CL_API_CALL get_mem_info(cl_mem m, cl_mem_info param, size_t size, void *value,
                                       size_t *size_ret)
{
  if (!stub_valid(m, STUB_MEM)) return CL_INVALID_MEM_OBJECT;
  cl_mem_object_type type = CL_MEM_OBJECT_BUFFER;
  cl_uint u;
  switch (param) {
  case CL_MEM_TYPE: return stub_info(size, value, size_ret, &type, sizeof type);
  case CL_MEM_FLAGS: return stub_info(size, value, size_ret, &m->flags, sizeof m->flags);
  case CL_MEM_SIZE: return stub_info(size, value, size_ret, &m->size, sizeof m->size);
  case CL_MEM_HOST_PTR: return stub_info(size, value, size_ret, &m->host_ptr, sizeof m->host_ptr);
  case CL_MEM_MAP_COUNT: return stub_info(size, value, size_ret, &m->map_count, sizeof m->map_count);
  case CL_MEM_REFERENCE_COUNT: u = (cl_uint)atomic_load(&m->obj.refs); return stub_info(size, value, size_ret, &u, sizeof u);
  case CL_MEM_CONTEXT: return stub_info(size, value, size_ret, &m->context, sizeof m->context);
  case CL_MEM_ASSOCIATED_MEMOBJECT: return stub_info(size, value, size_ret, &m->parent, sizeof m->parent);
  case CL_MEM_OFFSET: return stub_info(size, value, size_ret, &m->origin, sizeof m->origin);
  default: return CL_INVALID_VALUE;
  }
}

/* The checks every transfer command makes, and the failure a device was told to show. */
static cl_int check_transfer(cl_command_queue q, cl_mem m, size_t offset, size_t size,
                             cl_uint n, const cl_event *list)
{
  if (!stub_valid(q, STUB_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  if (!stub_valid(m, STUB_MEM)) return CL_INVALID_MEM_OBJECT;
  if (m->context != q->context) return CL_INVALID_CONTEXT;
  if (offset > m->size || size > m->size - offset) return CL_INVALID_VALUE;
  cl_int err = stub_check_wait_list(n, list);
  if (err) return err;
  if (q->device->fail & FAIL_ALLOC) return CL_MEM_OBJECT_ALLOCATION_FAILURE;
  if (q->device->fail & FAIL_TRANSFER) return CL_OUT_OF_RESOURCES;
  if (stub_device_gone(q->device)) return CL_OUT_OF_RESOURCES;
  return CL_SUCCESS;
}

static cl_int CL_API_CALL enqueue_read(cl_command_queue q, cl_mem m, cl_bool blocking,
    size_t offset, size_t size, void *ptr, cl_uint n, const cl_event *list, cl_event *ev)
{
  cl_int err = check_transfer(q, m, offset, size, n, list);
  if (!err && (!ptr || !size)) err = CL_INVALID_VALUE;
  if (err) {
    stub_log("clEnqueueReadBuffer -> %s", stub_error_name(err));
    return err;
  }
  stub_log("clEnqueueReadBuffer dev=%u mem%u offset=%zu size=%zu blocking=%u", q->device->index,
           m->obj.id, offset, size, blocking);
  memcpy(ptr, m->bytes + offset, size);
  stub_complete(q, CL_COMMAND_READ_BUFFER, ev);
  return CL_SUCCESS;
}

static cl_int CL_API_CALL enqueue_write(cl_command_queue q, cl_mem m, cl_bool blocking,
    size_t offset, size_t size, const void *ptr, cl_uint n, const cl_event *list, cl_event *ev)
{
  cl_int err = check_transfer(q, m, offset, size, n, list);
  if (!err && (!ptr || !size)) err = CL_INVALID_VALUE;
  if (err) {
    stub_log("clEnqueueWriteBuffer -> %s", stub_error_name(err));
    return err;
  }
  stub_log("clEnqueueWriteBuffer dev=%u mem%u offset=%zu size=%zu blocking=%u", q->device->index,
           m->obj.id, offset, size, blocking);
  memmove(m->bytes + offset, ptr, size);
  stub_complete(q, CL_COMMAND_WRITE_BUFFER, ev);
  return CL_SUCCESS;
}

static cl_int CL_API_CALL enqueue_copy(cl_command_queue q, cl_mem src, cl_mem dst,
    size_t src_offset, size_t dst_offset, size_t size, cl_uint n, const cl_event *list, cl_event *ev)
{
  cl_int err = check_transfer(q, src, src_offset, size, n, list);
  if (!err) err = check_transfer(q, dst, dst_offset, size, n, list);
  if (!err && !size) err = CL_INVALID_VALUE;
  if (err) {
    stub_log("clEnqueueCopyBuffer -> %s", stub_error_name(err));
    return err;
  }
  stub_log("clEnqueueCopyBuffer dev=%u mem%u->mem%u src_offset=%zu dst_offset=%zu size=%zu",
           q->device->index, src->obj.id, dst->obj.id, src_offset, dst_offset, size);
  memmove(dst->bytes + dst_offset, src->bytes + src_offset, size);
  stub_complete(q, CL_COMMAND_COPY_BUFFER, ev);
  return CL_SUCCESS;
}

static cl_int CL_API_CALL enqueue_fill(cl_command_queue q, cl_mem m, const void *pattern,
    size_t pattern_size, size_t offset, size_t size, cl_uint n, const cl_event *list, cl_event *ev)
{
  cl_int err = check_transfer(q, m, offset, size, n, list);
  if (!err && (!pattern || !pattern_size || pattern_size > 128 ||
               (pattern_size & (pattern_size - 1)) || offset % pattern_size || size % pattern_size))
    err = CL_INVALID_VALUE;
  if (err) {
    stub_log("clEnqueueFillBuffer -> %s", stub_error_name(err));
    return err;
  }
  stub_log("clEnqueueFillBuffer dev=%u mem%u offset=%zu size=%zu pattern=%zu", q->device->index,
           m->obj.id, offset, size, pattern_size);
  for (size_t i = 0; i < size; i += pattern_size) memcpy(m->bytes + offset + i, pattern, pattern_size);
  stub_complete(q, CL_COMMAND_FILL_BUFFER, ev);
  return CL_SUCCESS;
}

/* Byte offset of a rect origin, and the last byte + 1 the rect touches. */
static size_t rect_offset(const size_t *o, size_t row_pitch, size_t slice_pitch)
{
  return o[0] + o[1] * row_pitch + o[2] * slice_pitch;
}

static void fix_pitches(const size_t *region, size_t *row_pitch, size_t *slice_pitch)
{
  if (!*row_pitch) *row_pitch = region[0];
  if (!*slice_pitch) *slice_pitch = region[1] * *row_pitch;
}

static int rect_fits(const size_t *o, const size_t *region, size_t row, size_t slice, size_t size)
{
  size_t end = rect_offset(o, row, slice) + (region[2] - 1) * slice + (region[1] - 1) * row + region[0];
  return region[0] && region[1] && region[2] && end <= size;
}

static void copy_rect(char *dst, const size_t *d_o, size_t d_row, size_t d_slice,
                      const char *src, const size_t *s_o, size_t s_row, size_t s_slice,
                      const size_t *region)
{
  dst += rect_offset(d_o, d_row, d_slice);
  src += rect_offset(s_o, s_row, s_slice);
  for (size_t z = 0; z < region[2]; z++)
    for (size_t y = 0; y < region[1]; y++)
      memmove(dst + z * d_slice + y * d_row, src + z * s_slice + y * s_row, region[0]);
}

static cl_int rect_transfer(const char *name, cl_command_queue q, cl_mem m, int to_host,
    const size_t *buf_o, const size_t *host_o, const size_t *region, size_t b_row, size_t b_slice,
    size_t h_row, size_t h_slice, void *ptr, cl_uint n, const cl_event *list, cl_event *ev)
{
  cl_int err = check_transfer(q, m, 0, 0, n, list);
  if (!err && (!ptr || !buf_o || !host_o || !region)) err = CL_INVALID_VALUE;
  if (!err) {
    fix_pitches(region, &b_row, &b_slice);
    fix_pitches(region, &h_row, &h_slice);
    if (!rect_fits(buf_o, region, b_row, b_slice, m->size)) err = CL_INVALID_VALUE;
  }
  if (err) {
    stub_log("%s -> %s", name, stub_error_name(err));
    return err;
  }
  stub_log("%s dev=%u mem%u region=%zux%zux%zu", name, q->device->index, m->obj.id,
           region[0], region[1], region[2]);
  if (to_host) copy_rect(ptr, host_o, h_row, h_slice, m->bytes, buf_o, b_row, b_slice, region);
  else copy_rect(m->bytes, buf_o, b_row, b_slice, ptr, host_o, h_row, h_slice, region);
  stub_complete(q, to_host ? CL_COMMAND_READ_BUFFER_RECT : CL_COMMAND_WRITE_BUFFER_RECT, ev);
  return CL_SUCCESS;
}

static cl_int CL_API_CALL enqueue_read_rect(cl_command_queue q, cl_mem m, cl_bool blocking,
    const size_t *buf_o, const size_t *host_o, const size_t *region, size_t b_row, size_t b_slice,
    size_t h_row, size_t h_slice, void *ptr, cl_uint n, const cl_event *list, cl_event *ev)
{
  (void)blocking;
  return rect_transfer("clEnqueueReadBufferRect", q, m, 1, buf_o, host_o, region, b_row,
                       b_slice, h_row, h_slice, ptr, n, list, ev);
}

static cl_int CL_API_CALL enqueue_write_rect(cl_command_queue q, cl_mem m, cl_bool blocking,
    const size_t *buf_o, const size_t *host_o, const size_t *region, size_t b_row, size_t b_slice,
    size_t h_row, size_t h_slice, const void *ptr, cl_uint n, const cl_event *list, cl_event *ev)
{
  (void)blocking;
  return rect_transfer("clEnqueueWriteBufferRect", q, m, 0, buf_o, host_o, region, b_row,
                       b_slice, h_row, h_slice, (void *)ptr, n, list, ev);
}

static cl_int CL_API_CALL enqueue_copy_rect(cl_command_queue q, cl_mem src, cl_mem dst,
    const size_t *s_o, const size_t *d_o, const size_t *region, size_t s_row, size_t s_slice,
    size_t d_row, size_t d_slice, cl_uint n, const cl_event *list, cl_event *ev)
{
  cl_int err = check_transfer(q, src, 0, 0, n, list);
  if (!err) err = check_transfer(q, dst, 0, 0, n, list);
  if (!err && (!s_o || !d_o || !region)) err = CL_INVALID_VALUE;
  if (!err) {
    fix_pitches(region, &s_row, &s_slice);
    fix_pitches(region, &d_row, &d_slice);
    if (!rect_fits(s_o, region, s_row, s_slice, src->size) ||
        !rect_fits(d_o, region, d_row, d_slice, dst->size))
      err = CL_INVALID_VALUE;
  }
  if (err) {
    stub_log("clEnqueueCopyBufferRect -> %s", stub_error_name(err));
    return err;
  }
  stub_log("clEnqueueCopyBufferRect dev=%u mem%u->mem%u region=%zux%zux%zu", q->device->index,
           src->obj.id, dst->obj.id, region[0], region[1], region[2]);
  copy_rect(dst->bytes, d_o, d_row, d_slice, src->bytes, s_o, s_row, s_slice, region);
  stub_complete(q, CL_COMMAND_COPY_BUFFER_RECT, ev);
  return CL_SUCCESS;
}

/* A map hands out the buffer's own bytes (for USE_HOST_PTR: the app's pointer). */
static void *CL_API_CALL enqueue_map(cl_command_queue q, cl_mem m, cl_bool blocking,
    cl_map_flags flags, size_t offset, size_t size, cl_uint n, const cl_event *list,
    cl_event *ev, cl_int *errcode_ret)
{
  cl_int err = check_transfer(q, m, offset, size, n, list);
  if (!err && (!size || (flags & ~(cl_map_flags)(CL_MAP_READ | CL_MAP_WRITE |
                                                 CL_MAP_WRITE_INVALIDATE_REGION))))
    err = CL_INVALID_VALUE;
  if (err) {
    stub_log("clEnqueueMapBuffer -> %s", stub_error_name(err));
    STUB_RETURN_ERROR(errcode_ret, err);
  }
  stub_log("clEnqueueMapBuffer dev=%u mem%u flags=0x%llx offset=%zu size=%zu blocking=%u",
           q->device->index, m->obj.id, (unsigned long long)flags, offset, size, blocking);
  m->map_count++;
  stub_complete(q, CL_COMMAND_MAP_BUFFER, ev);
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return m->bytes + offset;
}

static cl_int CL_API_CALL enqueue_unmap(cl_command_queue q, cl_mem m, void *ptr, cl_uint n,
                                        const cl_event *list, cl_event *ev)
{
  cl_int err = check_transfer(q, m, 0, 0, n, list);
  if (!err && (!m->map_count || (char *)ptr < m->bytes || (char *)ptr > m->bytes + m->size))
    err = CL_INVALID_VALUE;
  if (err) {
    stub_log("clEnqueueUnmapMemObject -> %s", stub_error_name(err));
    return err;
  }
  stub_log("clEnqueueUnmapMemObject dev=%u mem%u", q->device->index, m->obj.id);
  m->map_count--;
  stub_complete(q, CL_COMMAND_UNMAP_MEM_OBJECT, ev);
  return CL_SUCCESS;
}

static cl_int CL_API_CALL enqueue_migrate(cl_command_queue q, cl_uint num, const cl_mem *mems,
    cl_mem_migration_flags flags, cl_uint n, const cl_event *list, cl_event *ev)
{
  if (!stub_valid(q, STUB_QUEUE)) return CL_INVALID_COMMAND_QUEUE;
  if (!num || !mems) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num; i++)
    if (!stub_valid(mems[i], STUB_MEM)) return CL_INVALID_MEM_OBJECT;
  cl_int err = stub_check_wait_list(n, list);
  if (err) return err;
  if (stub_device_gone(q->device)) return CL_OUT_OF_RESOURCES;
  stub_log("clEnqueueMigrateMemObjects dev=%u n=%u flags=0x%llx", q->device->index, num,
           (unsigned long long)flags);
  stub_complete(q, CL_COMMAND_MIGRATE_MEM_OBJECTS, ev);
  return CL_SUCCESS;
}

static cl_int CL_API_CALL get_supported_image_formats(cl_context c, cl_mem_flags flags,
    cl_mem_object_type type, cl_uint num, cl_image_format *formats, cl_uint *num_ret)
{
  (void)flags, (void)type, (void)num, (void)formats;
  if (!stub_valid(c, STUB_CONTEXT)) return CL_INVALID_CONTEXT;
  if (num_ret) *num_ret = 0;   /* no device of the stub supports images */
  return CL_SUCCESS;
}

void stub_fill_memory(cl_icd_dispatch *t)
{
  t->clCreateBuffer = create_buffer;
  t->clCreateSubBuffer = create_sub_buffer;
  t->clRetainMemObject = retain_mem;
  t->clReleaseMemObject = release_mem;
  t->clSetMemObjectDestructorCallback = set_destructor;
  t->clGetMemObjectInfo = get_mem_info;
  t->clEnqueueReadBuffer = enqueue_read;
  t->clEnqueueWriteBuffer = enqueue_write;
  t->clEnqueueCopyBuffer = enqueue_copy;
  t->clEnqueueFillBuffer = enqueue_fill;
  t->clEnqueueReadBufferRect = enqueue_read_rect;
  t->clEnqueueWriteBufferRect = enqueue_write_rect;
  t->clEnqueueCopyBufferRect = enqueue_copy_rect;
  t->clEnqueueMapBuffer = enqueue_map;
  t->clEnqueueUnmapMemObject = enqueue_unmap;
  t->clEnqueueMigrateMemObjects = enqueue_migrate;
  t->clGetSupportedImageFormats = get_supported_image_formats;
}
