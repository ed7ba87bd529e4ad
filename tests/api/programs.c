/* Programs: from source and from binary (the binary queried and rebuilt), build options,
 * a failing build's status and log, clCompileProgram + clLinkProgram, program info. */
#include "api_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *source =
  "kernel void set(global int *a) { a[get_global_id(0)] = VALUE; }\n"
  "kernel void other(global int *a, int b) { a[0] = b; }\n";

static int run_set(struct api_env *env, cl_program p)
{
  cl_int err;
  cl_kernel k = api_kernel(p, "set");
  cl_mem m = clCreateBuffer(env->context, CL_MEM_READ_WRITE, 16 * sizeof(int), NULL, &err);
  API_OK(err);
  API_OK(clSetKernelArg(k, 0, sizeof m, &m));
  size_t global = 16;
  API_OK(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
  int out[16];
  API_OK(clEnqueueReadBuffer(env->queue, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  API_OK(clReleaseMemObject(m));
  API_OK(clReleaseKernel(k));
  for (int i = 1; i < 16; i++)
    if (out[i] != out[0]) return -1;
  return out[0];
}

static void CL_CALLBACK on_built(cl_program p, void *data) { (void)p; ++*(int *)data; }

int main(void)
{
  struct api_env env;
  api_setup(&env);
  cl_int err;

  /* From source, with options; the callback runs. */
  cl_program p = clCreateProgramWithSource(env.context, 1, &source, NULL, &err);
  API_OK(err);
  int built = 0;
  API_OK(clBuildProgram(p, 1, &env.device, "-DVALUE=42 -cl-mad-enable", on_built, &built));
  API_OK(clFinish(env.queue));
  api_expect("build callback ran once", built == 1);
  api_expect("-DVALUE=42 reaches the kernel", run_set(&env, p) == 42);
  cl_build_status status;
  API_OK(clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL));
  api_expect("build status CL_BUILD_SUCCESS", status == CL_BUILD_SUCCESS);
  char text[4096];
  API_OK(clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_OPTIONS, sizeof text, text, NULL));
  api_expect("build options as given", !strcmp(text, "-DVALUE=42 -cl-mad-enable"));
  cl_program_binary_type btype;
  API_OK(clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BINARY_TYPE, sizeof btype, &btype, NULL));
  api_expect("binary type executable", btype == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  size_t nk;
  API_OK(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL));
  API_OK(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof text, text, NULL));
  api_expect("two kernels, named", nk == 2 && (!strcmp(text, "set;other") || !strcmp(text, "other;set")));
  API_OK(clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof text, text, NULL));
  api_expect("source as given", !strcmp(text, source));
  cl_uint ndev;
  cl_device_id pdev;
  API_OK(clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof ndev, &ndev, NULL));
  API_OK(clGetProgramInfo(p, CL_PROGRAM_DEVICES, sizeof pdev, &pdev, NULL));
  api_expect("program devices", ndev == 1 && pdev == env.device);
  cl_kernel all[4];
  cl_uint nall;
  API_OK(clCreateKernelsInProgram(p, 4, all, &nall));
  api_expect("clCreateKernelsInProgram makes 2", nall == 2);
  for (cl_uint i = 0; i < nall; i++) API_OK(clReleaseKernel(all[i]));

  /* The binary, queried and rebuilt. */
  size_t bin_size;
  API_OK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof bin_size, &bin_size, NULL));
  api_expect("binary size > 0", bin_size > 0);
  unsigned char *bin = malloc(bin_size);
  API_OK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
  const unsigned char *cbin = bin;
  cl_int bin_status;
  cl_program from_bin = clCreateProgramWithBinary(env.context, 1, &env.device, &bin_size, &cbin, &bin_status, &err);
  API_OK(err);
  api_show("binary status", bin_status);
  API_OK(clBuildProgram(from_bin, 1, &env.device, NULL, NULL, NULL));
  api_expect("program from binary runs", run_set(&env, from_bin) == 42);
  API_OK(clReleaseProgram(from_bin));
  const unsigned char junk[] = "not a binary";
  size_t junk_size = sizeof junk;
  const unsigned char *pjunk = junk;
  from_bin = clCreateProgramWithBinary(env.context, 1, &env.device, &junk_size, &pjunk, &bin_status, &err);
  api_show("clCreateProgramWithBinary(junk)", err);
  if (from_bin) API_OK(clReleaseProgram(from_bin));
  free(bin);
  API_OK(clReleaseProgram(p));

  /* A failing build: the error, the status, a log that says something. */
  const char *broken = "kernel void broken(global int *a) { a[0] = undeclared_thing; }\n";
  p = clCreateProgramWithSource(env.context, 1, &broken, NULL, &err);
  API_OK(err);
  api_show("failing build", clBuildProgram(p, 1, &env.device, NULL, NULL, NULL));
  API_OK(clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL));
  api_expect("its status is CL_BUILD_ERROR", status == CL_BUILD_ERROR);
  API_OK(clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_LOG, sizeof text, text, NULL));
  api_expect("its log names the problem", strstr(text, "undeclared_thing") != NULL);
  cl_kernel k = clCreateKernel(p, "broken", &err);
  api_show("clCreateKernel on it", err);
  (void)k;
  API_OK(clReleaseProgram(p));
  p = clCreateProgramWithSource(env.context, 1, &source, NULL, &err);
  API_OK(err);
  api_show("bad build option", clBuildProgram(p, 1, &env.device, "-DVALUE=1 -not-an-option", NULL, NULL));
  k = clCreateKernel(p, "set", &err);
  api_show("clCreateKernel before a good build", err);
  API_OK(clReleaseProgram(p));

  /* Separate compilation: a header program, compile, then link. */
  const char *lib = "int helper(int x) { return x * 3; }\n";
  const char *user = "#include \"helper.h\"\n"
                     "kernel void set(global int *a) { a[get_global_id(0)] = helper(5); }\n";
  const char *header = "int helper(int x);\n";
  cl_program plib = clCreateProgramWithSource(env.context, 1, &lib, NULL, &err);
  API_OK(err);
  cl_program puser = clCreateProgramWithSource(env.context, 1, &user, NULL, &err);
  API_OK(err);
  cl_program phead = clCreateProgramWithSource(env.context, 1, &header, NULL, &err);
  API_OK(err);
  const char *header_name = "helper.h";
  API_OK(clCompileProgram(plib, 1, &env.device, NULL, 0, NULL, NULL, NULL, NULL));
  API_OK(clCompileProgram(puser, 1, &env.device, NULL, 1, &phead, &header_name, NULL, NULL));
  API_OK(clGetProgramBuildInfo(puser, env.device, CL_PROGRAM_BINARY_TYPE, sizeof btype, &btype, NULL));
  api_expect("compiled: binary type compiled object", btype == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  cl_program inputs[2] = { puser, plib };
  cl_program linked = clLinkProgram(env.context, 1, &env.device, NULL, 2, inputs, NULL, NULL, &err);
  API_OK(err);
  api_expect("compiled + linked program runs", run_set(&env, linked) == 15);
  API_OK(clReleaseProgram(linked));
  API_OK(clReleaseProgram(plib));
  API_OK(clReleaseProgram(puser));
  API_OK(clReleaseProgram(phead));

  api_show("clCreateProgramWithSource(0 strings)",
           (clCreateProgramWithSource(env.context, 0, NULL, NULL, &err), err));
  api_show("clBuildProgram(NULL)", clBuildProgram(NULL, 0, NULL, NULL, NULL, NULL));
  api_teardown(&env);
  return api_finish();
}
