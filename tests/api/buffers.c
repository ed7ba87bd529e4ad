/* Buffers: every host-pointer flag, sub-buffers, read/write/copy/fill and their rect forms,
 * map/unmap, migrate, and memory object info. */
#include "api_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 1024 };

static const char *source =
  "kernel void twice(global int *a) { a[get_global_id(0)] *= 2; }\n";

static int all_equal(const int *a, int n, int (*expect)(int))
{
  for (int i = 0; i < n; i++)
    if (a[i] != expect(i)) return 0;
  return 1;
}
static int ident(int i) { return i; }
static int doubled(int i) { return 2 * i; }

static int destructor_calls;
static void CL_CALLBACK on_destroy(cl_mem m, void *data) { (void)m; destructor_calls += *(int *)data; }

int main(void)
{
  struct api_env env;
  api_setup(&env);
  cl_int err;
  cl_program p = api_build(&env, source, NULL);
  cl_kernel k = api_kernel(p, "twice");
  size_t global = N;
  int *host = malloc(N * sizeof(int)), *out = malloc(N * sizeof(int));
  int *app_owned = malloc(N * sizeof(int));   /* the USE_HOST_PTR buffer's memory */
  for (int i = 0; i < N; i++) host[i] = app_owned[i] = i;

  /* COPY_HOST_PTR: the buffer starts with the bytes; later host changes do not reach it. */
  cl_mem copy = clCreateBuffer(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * sizeof(int), host, &err);
  API_OK(err);
  host[0] = 777;
  API_OK(clEnqueueReadBuffer(env.queue, copy, CL_TRUE, 0, N * sizeof(int), out, 0, NULL, NULL));
  api_expect("COPY_HOST_PTR: contents copied at creation", all_equal(out, N, ident));
  host[0] = 0;

  /* USE_HOST_PTR: a kernel's result is seen in the host memory after a map. */
  cl_mem use = clCreateBuffer(env.context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, N * sizeof(int), app_owned, &err);
  API_OK(err);
  API_OK(clSetKernelArg(k, 0, sizeof use, &use));
  API_OK(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
  int *mapped = clEnqueueMapBuffer(env.queue, use, CL_TRUE, CL_MAP_READ, 0, N * sizeof(int), 0, NULL, NULL, &err);
  API_OK(err);
  api_expect("USE_HOST_PTR: map returns the host pointer", mapped == app_owned);
  api_expect("USE_HOST_PTR: kernel result in host memory", all_equal(app_owned, N, doubled));
  API_OK(clEnqueueUnmapMemObject(env.queue, use, mapped, 0, NULL, NULL));
  void *host_ptr = NULL;
  API_OK(clGetMemObjectInfo(use, CL_MEM_HOST_PTR, sizeof host_ptr, &host_ptr, NULL));
  api_expect("CL_MEM_HOST_PTR is the app's pointer", host_ptr == app_owned);

  /* ALLOC_HOST_PTR: map for writing, unmap, then a kernel sees the bytes. */
  cl_mem alloc = clCreateBuffer(env.context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, N * sizeof(int), NULL, &err);
  API_OK(err);
  mapped = clEnqueueMapBuffer(env.queue, alloc, CL_TRUE, CL_MAP_WRITE, 0, N * sizeof(int), 0, NULL, NULL, &err);
  API_OK(err);
  for (int i = 0; i < N; i++) mapped[i] = i;
  cl_uint maps;
  API_OK(clGetMemObjectInfo(alloc, CL_MEM_MAP_COUNT, sizeof maps, &maps, NULL));
  api_expect("map count is 1 while mapped", maps == 1);
  API_OK(clEnqueueUnmapMemObject(env.queue, alloc, mapped, 0, NULL, NULL));
  API_OK(clSetKernelArg(k, 0, sizeof alloc, &alloc));
  API_OK(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
  API_OK(clEnqueueReadBuffer(env.queue, alloc, CL_TRUE, 0, N * sizeof(int), out, 0, NULL, NULL));
  api_expect("ALLOC_HOST_PTR: mapped writes reach the kernel", all_equal(out, N, doubled));

  /* Write, copy, fill, partial reads. */
  cl_mem a = clCreateBuffer(env.context, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
  API_OK(err);
  cl_mem b = clCreateBuffer(env.context, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
  API_OK(err);
  API_OK(clEnqueueWriteBuffer(env.queue, a, CL_TRUE, 0, N * sizeof(int), host, 0, NULL, NULL));
  API_OK(clEnqueueCopyBuffer(env.queue, a, b, 0, 0, N * sizeof(int), 0, NULL, NULL));
  int pattern = -5;
  API_OK(clEnqueueFillBuffer(env.queue, b, &pattern, sizeof pattern, 16 * sizeof(int), 16 * sizeof(int), 0, NULL, NULL));
  API_OK(clEnqueueReadBuffer(env.queue, b, CL_TRUE, 0, N * sizeof(int), out, 0, NULL, NULL));
  int ok = 1;
  for (int i = 0; i < N; i++) ok &= out[i] == (i >= 16 && i < 32 ? -5 : host[i]);
  api_expect("write, copy, fill of a range", ok);
  API_OK(clEnqueueCopyBuffer(env.queue, a, b, 100 * sizeof(int), 0, 8 * sizeof(int), 0, NULL, NULL));
  int part[8];
  API_OK(clEnqueueReadBuffer(env.queue, b, CL_TRUE, 0, sizeof part, part, 0, NULL, NULL));
  ok = 1;
  for (int i = 0; i < 8; i++) ok &= part[i] == host[100 + i];
  api_expect("copy of a range at an offset", ok);
  API_OK(clEnqueueWriteBuffer(env.queue, b, CL_TRUE, 4 * sizeof(int), sizeof part, part, 0, NULL, NULL));
  API_OK(clEnqueueReadBuffer(env.queue, b, CL_TRUE, 0, N * sizeof(int), out, 0, NULL, NULL));
  api_expect("partial write lands at its offset", out[4] == host[100] && out[11] == host[107] && out[12] == 12);

  /* Rect forms: a 16x16 int matrix; copy the 4x4 block at (2,3) around. */
  size_t row = 16 * sizeof(int);
  size_t origin[3] = {2 * sizeof(int), 3, 0}, zero[3] = {0, 0, 0}, region[3] = {4 * sizeof(int), 4, 1};
  int block[16] = {0};
  API_OK(clEnqueueReadBufferRect(env.queue, a, CL_TRUE, origin, zero, region, row, 0, 4 * sizeof(int), 0, block, 0, NULL, NULL));
  ok = 1;
  for (int y = 0; y < 4; y++)
    for (int x = 0; x < 4; x++) ok &= block[y * 4 + x] == host[(3 + y) * 16 + 2 + x];
  api_expect("read rect", ok);
  for (int i = 0; i < 16; i++) block[i] = -i - 1;
  API_OK(clEnqueueWriteBufferRect(env.queue, b, CL_TRUE, origin, zero, region, row, 0, 4 * sizeof(int), 0, block, 0, NULL, NULL));
  API_OK(clEnqueueCopyBufferRect(env.queue, b, a, origin, zero, region, row, 0, 4 * sizeof(int), 0, 0, NULL, NULL));
  API_OK(clEnqueueReadBuffer(env.queue, a, CL_TRUE, 0, 16 * sizeof(int), out, 0, NULL, NULL));
  ok = 1;
  for (int i = 0; i < 16; i++) ok &= out[i] == -i - 1;
  api_expect("write rect then copy rect", ok);

  /* Sub-buffers: a kernel on a sub-buffer changes only its region of the parent. */
  cl_uint align_bits;
  API_OK(clGetDeviceInfo(env.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL));
  size_t align = align_bits / 8;
  API_OK(clEnqueueWriteBuffer(env.queue, a, CL_TRUE, 0, N * sizeof(int), host, 0, NULL, NULL));
  cl_buffer_region r = { align, align };
  cl_mem sub = clCreateSubBuffer(a, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  API_OK(err);
  size_t sub_global = align / sizeof(int);
  API_OK(clSetKernelArg(k, 0, sizeof sub, &sub));
  API_OK(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &sub_global, NULL, 0, NULL, NULL));
  API_OK(clEnqueueReadBuffer(env.queue, a, CL_TRUE, 0, N * sizeof(int), out, 0, NULL, NULL));
  ok = 1;
  for (int i = 0; i < N; i++) {
    int in_sub = (size_t)i >= align / sizeof(int) && (size_t)i < 2 * align / sizeof(int);
    ok &= out[i] == (in_sub ? 2 * i : i);
  }
  api_expect("kernel on a sub-buffer changes only its region", ok);
  cl_mem parent;
  size_t offset;
  API_OK(clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL));
  API_OK(clGetMemObjectInfo(sub, CL_MEM_OFFSET, sizeof offset, &offset, NULL));
  api_expect("sub-buffer info: parent and offset", parent == a && offset == align);
  int sub_read[4];
  API_OK(clEnqueueReadBuffer(env.queue, sub, CL_TRUE, 0, sizeof sub_read, sub_read, 0, NULL, NULL));
  api_expect("read through the sub-buffer", sub_read[0] == 2 * (int)(align / sizeof(int)));
  cl_buffer_region bad = { 1, 64 };
  cl_mem none = clCreateSubBuffer(a, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &bad, &err);
  api_show("misaligned sub-buffer", err);
  cl_buffer_region outside = { 0, 2 * N * sizeof(int) };
  none = clCreateSubBuffer(a, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &outside, &err);
  api_show("sub-buffer past the end", err);
  (void)none;

  /* Migrate, info, destructor callbacks. */
  cl_mem both[2] = { a, b };
  API_OK(clEnqueueMigrateMemObjects(env.queue, 2, both, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, NULL, NULL));
  API_OK(clEnqueueMigrateMemObjects(env.queue, 1, both, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, NULL));
  API_OK(clFinish(env.queue));
  size_t size;
  cl_mem_flags flags;
  cl_mem_object_type type;
  cl_context mc;
  API_OK(clGetMemObjectInfo(copy, CL_MEM_SIZE, sizeof size, &size, NULL));
  API_OK(clGetMemObjectInfo(copy, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
  API_OK(clGetMemObjectInfo(copy, CL_MEM_TYPE, sizeof type, &type, NULL));
  API_OK(clGetMemObjectInfo(copy, CL_MEM_CONTEXT, sizeof mc, &mc, NULL));
  api_expect("mem info: size, flags, type, context", size == N * sizeof(int) &&
             flags == (CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR) && type == CL_MEM_OBJECT_BUFFER && mc == env.context);
  int one = 1, ten = 10;
  API_OK(clSetMemObjectDestructorCallback(copy, on_destroy, &one));
  API_OK(clSetMemObjectDestructorCallback(copy, on_destroy, &ten));

  /* Bad calls. */
  cl_mem m = clCreateBuffer(env.context, CL_MEM_READ_WRITE, 0, NULL, &err);
  api_show("clCreateBuffer(size 0)", err);
  m = clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, 64, NULL, &err);
  api_show("clCreateBuffer(USE_HOST_PTR, NULL)", err);
  m = clCreateBuffer(env.context, CL_MEM_READ_WRITE, 64, host, &err);
  api_show("clCreateBuffer(host_ptr without flag)", err);
  m = clCreateBuffer(env.context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, NULL, &err);
  api_show("clCreateBuffer(READ_ONLY|WRITE_ONLY)", err);
  m = clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, 64, host, &err);
  api_show("clCreateBuffer(USE|ALLOC_HOST_PTR)", err);
  (void)m;
  api_show("read past the end", clEnqueueReadBuffer(env.queue, a, CL_TRUE, 8, N * sizeof(int), out, 0, NULL, NULL));
  api_show("write NULL pointer", clEnqueueWriteBuffer(env.queue, a, CL_TRUE, 0, 4, NULL, 0, NULL, NULL));
  api_show("copy overlapping itself", clEnqueueCopyBuffer(env.queue, a, a, 0, 4, 64, 0, NULL, NULL));
  api_show("fill with a 3-byte pattern", clEnqueueFillBuffer(env.queue, a, &pattern, 3, 0, 12, 0, NULL, NULL));
  api_show("unmap of a pointer never mapped", clEnqueueUnmapMemObject(env.queue, a, host, 0, NULL, NULL));
  api_show("clGetMemObjectInfo(bad param)", clGetMemObjectInfo(a, 0x7777, sizeof size, &size, NULL));

  /* Host-access flags: the host may only read a HOST_READ_ONLY buffer, only write a
   * HOST_WRITE_ONLY one, neither for HOST_NO_ACCESS (CL_INVALID_OPERATION); kernels and
   * device copies use all three, and a kernel's result reaches the host through them. */
  cl_mem hro = clCreateBuffer(env.context, CL_MEM_HOST_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(int), app_owned, &err);
  API_OK(err);
  cl_mem hwo = clCreateBuffer(env.context, CL_MEM_HOST_WRITE_ONLY, N * sizeof(int), NULL, &err);
  API_OK(err);
  cl_mem hna = clCreateBuffer(env.context, CL_MEM_HOST_NO_ACCESS, N * sizeof(int), NULL, &err);
  API_OK(err);
  for (int i = 0; i < N; i++) host[i] = i;
  API_OK(clEnqueueWriteBuffer(env.queue, hwo, CL_TRUE, 0, N * sizeof(int), host, 0, NULL, NULL));
  API_OK(clSetKernelArg(k, 0, sizeof hwo, &hwo));
  API_OK(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
  API_OK(clEnqueueCopyBuffer(env.queue, hwo, hna, 0, 0, N * sizeof(int), 0, NULL, NULL));
  API_OK(clEnqueueCopyBuffer(env.queue, hna, hro, 0, 0, N * sizeof(int), 0, NULL, NULL));
  memset(out, 0, N * sizeof(int));
  API_OK(clEnqueueReadBuffer(env.queue, hro, CL_TRUE, 0, N * sizeof(int), out, 0, NULL, NULL));
  api_expect("HOST_WRITE_ONLY -> kernel -> HOST_NO_ACCESS -> HOST_READ_ONLY -> host", all_equal(out, N, doubled));
  cl_mem hro_fresh = clCreateBuffer(env.context, CL_MEM_HOST_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(int), host, &err);
  API_OK(err);
  memset(out, 0, N * sizeof(int));
  API_OK(clEnqueueReadBuffer(env.queue, hro_fresh, CL_TRUE, 0, N * sizeof(int), out, 0, NULL, NULL));
  api_expect("HOST_READ_ONLY | COPY_HOST_PTR reads back its bytes", all_equal(out, N, ident));
  API_OK(clReleaseMemObject(hro_fresh));
  /* Its bytes undefined, but readable: libskmd's own first copy to a member must work. */
  cl_mem hro_empty = clCreateBuffer(env.context, CL_MEM_HOST_READ_ONLY, N * sizeof(int), NULL, &err);
  API_OK(err);
  api_show("read of a new HOST_READ_ONLY buffer", clEnqueueReadBuffer(env.queue, hro_empty, CL_TRUE, 0, N * sizeof(int), out, 0, NULL, NULL));
  API_OK(clReleaseMemObject(hro_empty));
  api_show("read of a HOST_WRITE_ONLY buffer", clEnqueueReadBuffer(env.queue, hwo, CL_TRUE, 0, 64, out, 0, NULL, NULL));
  api_show("read of a HOST_NO_ACCESS buffer", clEnqueueReadBuffer(env.queue, hna, CL_TRUE, 0, 64, out, 0, NULL, NULL));
  api_show("write of a HOST_READ_ONLY buffer", clEnqueueWriteBuffer(env.queue, hro, CL_TRUE, 0, 64, host, 0, NULL, NULL));
  api_show("write of a HOST_NO_ACCESS buffer", clEnqueueWriteBuffer(env.queue, hna, CL_TRUE, 0, 64, host, 0, NULL, NULL));
  size_t h_origin[3] = {0, 0, 0}, h_region[3] = {64, 1, 1};
  api_show("rect read of a HOST_WRITE_ONLY buffer",
           clEnqueueReadBufferRect(env.queue, hwo, CL_TRUE, h_origin, h_origin, h_region, 0, 0, 0, 0, out, 0, NULL, NULL));
  api_show("rect write of a HOST_READ_ONLY buffer",
           clEnqueueWriteBufferRect(env.queue, hro, CL_TRUE, h_origin, h_origin, h_region, 0, 0, 0, 0, host, 0, NULL, NULL));
  const cl_map_flags map_kinds[] = {CL_MAP_READ, CL_MAP_WRITE, CL_MAP_WRITE_INVALIDATE_REGION};
  const char *map_names[] = {"READ", "WRITE", "WRITE_INVALIDATE_REGION"};
  cl_mem host_limited[] = {hro, hwo, hna};
  const char *limit_names[] = {"HOST_READ_ONLY", "HOST_WRITE_ONLY", "HOST_NO_ACCESS"};
  for (int b = 0; b < 3; b++)
    for (int f = 0; f < 3; f++) {
      void *hmap = clEnqueueMapBuffer(env.queue, host_limited[b], CL_TRUE, map_kinds[f], 0, 64, 0, NULL, NULL, &err);
      char label[96];
      snprintf(label, sizeof label, "map %s of a %s buffer", map_names[f], limit_names[b]);
      api_show(label, err);
      if (hmap) API_OK(clEnqueueUnmapMemObject(env.queue, host_limited[b], hmap, 0, NULL, NULL));
    }
  API_OK(clFinish(env.queue));
  API_OK(clReleaseMemObject(hro));
  API_OK(clReleaseMemObject(hwo));
  API_OK(clReleaseMemObject(hna));

  API_OK(clReleaseMemObject(sub));
  API_OK(clReleaseMemObject(copy));
  api_expect("destructor callbacks ran at release", destructor_calls == 11);
  API_OK(clReleaseMemObject(use));
  API_OK(clReleaseMemObject(alloc));
  API_OK(clReleaseMemObject(a));
  API_OK(clReleaseMemObject(b));
  API_OK(clReleaseKernel(k));
  API_OK(clReleaseProgram(p));
  api_teardown(&env);
  free(host);
  free(out);
  free(app_owned);
  return api_finish();
}
