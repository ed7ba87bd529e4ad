/* Kernels: info, work-group info, argument info, arguments of every kind (buffer, scalar,
 * local memory, struct), 1D/2D/3D launches with offsets and local sizes, tasks. */
#include "api_common.h"

#include <stdio.h>
#include <string.h>

static const char *source =
  "typedef struct { int a; float b; } pair;\n"
  "kernel void sum_local(global const int *in, global int *out, local int *tmp, pair p) {\n"
  "  size_t l = get_local_id(0);\n"
  "  tmp[l] = in[get_global_id(0)];\n"
  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
  "  if (l == 0) { int s = 0; for (size_t i = 0; i < get_local_size(0); i++) s += tmp[i];\n"
  "    out[get_group_id(0)] = s + p.a + (int)p.b; }\n"
  "}\n"
  "kernel void ids(global int *out) {\n"
  "  size_t w = get_global_size(0) + get_global_offset(0), h = get_global_size(1) + get_global_offset(1);\n"
  "  size_t i = get_global_id(0) + get_global_id(1) * w + get_global_id(2) * w * h;\n"
  "  out[i] = (int)(get_global_id(0) + 100 * get_global_id(1) + 10000 * get_global_id(2)\n"
  "                 + 1000000 * get_group_id(0));\n"
  "}\n"
  "kernel __attribute__((reqd_work_group_size(4, 1, 1))) void fixed(global int *o) { o[get_global_id(0)] = 1; }\n"
  "kernel void task(global int *o) { o[0] = 7; }\n";

int main(void)
{
  struct api_env env;
  api_setup(&env);
  cl_int err;
  cl_program p = api_build(&env, source, "-cl-kernel-arg-info");
  cl_kernel k = api_kernel(p, "sum_local");

  char text[256];
  cl_uint nargs;
  API_OK(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof text, text, NULL));
  API_OK(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL));
  api_expect("kernel name and argument count", !strcmp(text, "sum_local") && nargs == 4);
  cl_program kp;
  cl_context kc;
  API_OK(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof kp, &kp, NULL));
  API_OK(clGetKernelInfo(k, CL_KERNEL_CONTEXT, sizeof kc, &kc, NULL));
  api_expect("kernel program and context", kp == p && kc == env.context);
  size_t wg, multiple, compile[3];
  cl_ulong local_mem;
  API_OK(clGetKernelWorkGroupInfo(k, env.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
  API_OK(clGetKernelWorkGroupInfo(k, env.device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof multiple, &multiple, NULL));
  API_OK(clGetKernelWorkGroupInfo(k, env.device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof compile, compile, NULL));
  API_OK(clGetKernelWorkGroupInfo(k, env.device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local_mem, &local_mem, NULL));
  size_t dev_wg;
  API_OK(clGetDeviceInfo(env.device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof dev_wg, &dev_wg, NULL));
  api_expect("work-group size within the device's", wg >= 1 && wg <= dev_wg);
  api_expect("preferred multiple >= 1", multiple >= 1);
  api_expect("no compile-time work-group size", compile[0] == 0 && compile[1] == 0 && compile[2] == 0);
  cl_kernel fixed = api_kernel(p, "fixed");
  API_OK(clGetKernelWorkGroupInfo(fixed, env.device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof compile, compile, NULL));
  api_expect("reqd_work_group_size(4,1,1) reported", compile[0] == 4 && compile[1] == 1 && compile[2] == 1);

  cl_kernel_arg_address_qualifier aq;
  cl_kernel_arg_access_qualifier acc;
  cl_kernel_arg_type_qualifier tq;
  API_OK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL));
  API_OK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL));
  api_expect("arg 0: global const", aq == CL_KERNEL_ARG_ADDRESS_GLOBAL && (tq & CL_KERNEL_ARG_TYPE_CONST));
  API_OK(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL));
  api_expect("arg 2: local", aq == CL_KERNEL_ARG_ADDRESS_LOCAL);
  API_OK(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof acc, &acc, NULL));
  api_expect("arg 3: no access qualifier", acc == CL_KERNEL_ARG_ACCESS_NONE);
  API_OK(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_NAME, sizeof text, text, NULL));
  api_expect("arg 1 named out", !strcmp(text, "out"));
  API_OK(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_TYPE_NAME, sizeof text, text, NULL));
  api_expect("arg 3 type pair", !strcmp(text, "pair"));
  api_show("arg info, index past the end", clGetKernelArgInfo(k, 9, CL_KERNEL_ARG_NAME, sizeof text, text, NULL));

  /* Local memory and a struct argument. */
  enum { N = 256, L = 16 };
  int in[N], out[N / L];
  for (int i = 0; i < N; i++) in[i] = i;
  cl_mem min = clCreateBuffer(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
  API_OK(err);
  cl_mem mout = clCreateBuffer(env.context, CL_MEM_WRITE_ONLY, sizeof out, NULL, &err);
  API_OK(err);
  struct { cl_int a; cl_float b; } pair = { 1000, 2.0f };
  API_OK(clSetKernelArg(k, 0, sizeof min, &min));
  API_OK(clSetKernelArg(k, 1, sizeof mout, &mout));
  API_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
  API_OK(clSetKernelArg(k, 3, sizeof pair, &pair));
  size_t global = N, local = L;
  API_OK(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
  API_OK(clEnqueueReadBuffer(env.queue, mout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  int ok = 1;
  for (int g = 0; g < N / L; g++) {
    int s = 0;
    for (int i = 0; i < L; i++) s += in[g * L + i];
    ok &= out[g] == s + 1002;
  }
  api_expect("local memory, barrier and struct argument", ok);

  /* 1D/2D/3D with offsets: every id lands where expected. */
  cl_kernel ids = api_kernel(p, "ids");
  enum { W = 8, H = 4, D = 2 };
  static int grid[W * H * D];
  cl_mem mg = clCreateBuffer(env.context, CL_MEM_READ_WRITE, sizeof grid, NULL, &err);
  API_OK(err);
  API_OK(clSetKernelArg(ids, 0, sizeof mg, &mg));
  const size_t offsets[3] = {2, 1, 0}, locals[3] = {2, 1, 1};
  for (cl_uint dim = 1; dim <= 3; dim++) {
    int fill = -1;
    API_OK(clEnqueueFillBuffer(env.queue, mg, &fill, sizeof fill, 0, sizeof grid, 0, NULL, NULL));
    size_t gsz[3] = {W - 2, dim > 1 ? H - 1 : 1, dim > 2 ? D : 1};
    API_OK(clEnqueueNDRangeKernel(env.queue, ids, dim, offsets, gsz, locals, 0, NULL, NULL));
    API_OK(clEnqueueReadBuffer(env.queue, mg, CL_TRUE, 0, sizeof grid, grid, 0, NULL, NULL));
    size_t w = gsz[0] + offsets[0], h = dim > 1 ? gsz[1] + offsets[1] : 1;
    ok = 1;
    for (size_t z = 0; z < (dim > 2 ? D : 1); z++)
      for (size_t y = dim > 1 ? offsets[1] : 0; y < (dim > 1 ? h : 1); y++)
        for (size_t x = offsets[0]; x < w; x++)
          ok &= grid[x + y * w + z * w * h] == (int)(x + 100 * y + 10000 * z + 1000000 * ((x - offsets[0]) / 2));
    printf("%uD launch with offset and local size: %s\n", dim, ok ? "yes" : "no");
    if (!ok) api_expect("ids as expected", 0);
  }
  size_t odd_local = 3;
  api_show("local size that does not divide", clEnqueueNDRangeKernel(env.queue, ids, 1, NULL, &global, &odd_local, 0, NULL, NULL));
  size_t four = 4, eight = 8;
  api_show("local size other than reqd_work_group_size",
           (clSetKernelArg(fixed, 0, sizeof mg, &mg), clEnqueueNDRangeKernel(env.queue, fixed, 1, NULL, &eight, &eight, 0, NULL, NULL)));
  API_OK(clEnqueueNDRangeKernel(env.queue, fixed, 1, NULL, &eight, &four, 0, NULL, NULL));
  api_show("work_dim 0", clEnqueueNDRangeKernel(env.queue, ids, 0, NULL, &global, NULL, 0, NULL, NULL));
  api_show("work_dim 4", clEnqueueNDRangeKernel(env.queue, ids, 4, NULL, &global, NULL, 0, NULL, NULL));
  size_t zero = 0;
  err = clEnqueueNDRangeKernel(env.queue, ids, 1, NULL, &zero, NULL, 0, NULL, NULL);
  api_expect("global size 0: success (1.2: invalid; 2.1+: a no-op)", err == CL_SUCCESS || err == CL_INVALID_GLOBAL_WORK_SIZE);

  /* A task. */
  cl_kernel task = api_kernel(p, "task");
  API_OK(clSetKernelArg(task, 0, sizeof mg, &mg));
  API_OK(clEnqueueTask(env.queue, task, 0, NULL, NULL));
  API_OK(clEnqueueReadBuffer(env.queue, mg, CL_TRUE, 0, sizeof grid, grid, 0, NULL, NULL));
  api_expect("clEnqueueTask ran once", grid[0] == 7);

  /* Argument errors. */
  api_show("clSetKernelArg(index past the end)", clSetKernelArg(k, 4, sizeof mg, &mg));
  api_show("clSetKernelArg(wrong size for a buffer)", clSetKernelArg(k, 0, 3, &mg));
  api_show("clSetKernelArg(local with a value)", clSetKernelArg(k, 2, 16, &pair));
  api_show("clSetKernelArg(local with size 0)", clSetKernelArg(k, 2, 0, NULL));
  cl_kernel fresh = api_kernel(p, "sum_local");
  api_show("launch with arguments unset", clEnqueueNDRangeKernel(env.queue, fresh, 1, NULL, &global, &local, 0, NULL, NULL));
  cl_kernel none = clCreateKernel(p, "no_such_kernel", &err);
  api_show("clCreateKernel(no such name)", err);
  (void)none;
  api_show("clGetKernelInfo(bad param)", clGetKernelInfo(k, 0x7777, sizeof text, text, NULL));

  API_OK(clReleaseKernel(fresh));
  API_OK(clReleaseKernel(task));
  API_OK(clReleaseKernel(ids));
  API_OK(clReleaseKernel(fixed));
  API_OK(clReleaseKernel(k));
  API_OK(clReleaseMemObject(mg));
  API_OK(clReleaseMemObject(min));
  API_OK(clReleaseMemObject(mout));
  API_OK(clReleaseProgram(p));
  api_teardown(&env);
  return api_finish();
}
