/* Programs right around their build, as apps use them: released at once after it, their
 * kernels made and launched at once (one at a time, all at once, cloned), their binary
 * read at once and built again, built a second time (refused while a kernel is attached),
 * several built from threads at once, and one left built and unreleased at exit. Every
 * launch's result is checked. */
#include "api_common.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 4096

static const char *source =
  "kernel void scale(global const int *in, global int *out, int by)\n"
  "{ size_t i = get_global_id(0); out[i] = in[i] * by; }\n"
  "kernel void offset(global const int *in, global int *out, int by)\n"
  "{ size_t i = get_global_id(0); out[i] = in[i] + by; }\n";

static cl_program built(struct api_env *env)
{
  cl_int err;
  cl_program p = clCreateProgramWithSource(env->context, 1, &source, NULL, &err);
  API_OK(err);
  API_OK(clBuildProgram(p, 1, &env->device, NULL, NULL, NULL));
  return p;
}

/* Runs k (scale or offset by 3) over N ints on q; 1 when every result is right. */
static int launch_ok(struct api_env *env, cl_command_queue q, cl_kernel k, int is_scale)
{
  int *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out);
  cl_int err, by = 3;
  if (!in || !out) {
    printf("FAIL out of memory\n");
    exit(1);
  }
  for (int i = 0; i < N; i++) in[i] = i;
  cl_mem a = clCreateBuffer(env->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                            N * sizeof *in, in, &err);
  API_OK(err);
  cl_mem b = clCreateBuffer(env->context, CL_MEM_WRITE_ONLY, N * sizeof *in, NULL, &err);
  API_OK(err);
  API_OK(clSetKernelArg(k, 0, sizeof a, &a));
  API_OK(clSetKernelArg(k, 1, sizeof b, &b));
  API_OK(clSetKernelArg(k, 2, sizeof by, &by));
  size_t global = N, local = 64;
  API_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
  API_OK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, N * sizeof *out, out, 0, NULL, NULL));
  int ok = 1;
  for (int i = 0; ok && i < N; i++)
    ok = out[i] == (is_scale ? i * 3 : i + 3);
  API_OK(clReleaseMemObject(a));
  API_OK(clReleaseMemObject(b));
  free(in);
  free(out);
  return ok;
}

static cl_program volatile left_built; /* volatile: the store stays */

struct builder {
  struct api_env *env;
  int ok;
};

/* One app thread: its own queue, a program built, its kernel launched at once, all let go. */
static void *build_and_launch(void *arg)
{
  struct builder *w = arg;
  cl_int err;
  cl_command_queue q = clCreateCommandQueue(w->env->context, w->env->device, 0, &err);
  API_OK(err);
  cl_program p = built(w->env);
  cl_kernel k = api_kernel(p, "offset");
  w->ok = launch_ok(w->env, q, k, 0);
  API_OK(clReleaseKernel(k));
  API_OK(clReleaseProgram(p));
  API_OK(clReleaseCommandQueue(q));
  return NULL;
}

int main(void)
{
  struct api_env env;
  api_setup(&env);
  cl_int err;

  /* Built and let go at once, twice in a row. */
  for (int i = 0; i < 2; i++)
    API_OK(clReleaseProgram(built(&env)));
  api_expect("built, released at once", 1);

  /* A kernel made and let go at once, then the program. */
  cl_program p = built(&env);
  API_OK(clReleaseKernel(api_kernel(p, "scale")));
  API_OK(clReleaseProgram(p));
  api_expect("kernel made and released at once", 1);

  /* Kernels made at once and launched: one by name and all of them; the program let go
   * before its kernels. */
  p = built(&env);
  cl_kernel scale = api_kernel(p, "scale");
  cl_kernel all[2];
  cl_uint nall = 0;
  API_OK(clCreateKernelsInProgram(p, 2, all, &nall));
  API_OK(clReleaseProgram(p));
  api_expect("kernels in program: 2", nall == 2);
  api_expect("launch right after the build", launch_ok(&env, env.queue, scale, 1));
  for (cl_uint i = 0; i < nall; i++) {
    char name[64] = "";
    API_OK(clGetKernelInfo(all[i], CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL));
    api_expect("launch of a kernel of clCreateKernelsInProgram",
               launch_ok(&env, env.queue, all[i], !strcmp(name, "scale")));
    API_OK(clReleaseKernel(all[i]));
  }
  API_OK(clReleaseKernel(scale));

  /* Its binary read at once after the build, built again and launched. */
  p = built(&env);
  size_t size = 0;
  API_OK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
  unsigned char *bin = malloc(size);
  API_OK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
  const unsigned char *cbin = bin;
  cl_program from_bin = clCreateProgramWithBinary(env.context, 1, &env.device, &size, &cbin,
                                                  NULL, &err);
  API_OK(err);
  API_OK(clBuildProgram(from_bin, 1, &env.device, NULL, NULL, NULL));
  cl_kernel k = api_kernel(from_bin, "offset");
  api_expect("launch from a binary read right after the build",
             launch_ok(&env, env.queue, k, 0));
  API_OK(clReleaseKernel(k));
  API_OK(clReleaseProgram(from_bin));
  free(bin);

  /* Built a second time (no kernels attached), then launched. */
  API_OK(clBuildProgram(p, 1, &env.device, "-cl-mad-enable", NULL, NULL));
  cl_build_status status;
  API_OK(clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status,
                               NULL));
  api_expect("built again: CL_BUILD_SUCCESS", status == CL_BUILD_SUCCESS);
  k = api_kernel(p, "scale");
  api_expect("launch after a second build", launch_ok(&env, env.queue, k, 1));
  /* Built again with a kernel attached: refused, and the kernel still launches right. */
  err = clBuildProgram(p, 1, &env.device, NULL, NULL, NULL);
  api_expect("build with a kernel attached: CL_INVALID_OPERATION",
             err == CL_INVALID_OPERATION);
  err = clCompileProgram(p, 1, &env.device, NULL, 0, NULL, NULL, NULL, NULL);
  api_expect("compile with a kernel attached: CL_INVALID_OPERATION",
             err == CL_INVALID_OPERATION);
  api_expect("launch after a refused build", launch_ok(&env, env.queue, k, 1));
  API_OK(clReleaseKernel(k));
  API_OK(clBuildProgram(p, 1, &env.device, NULL, NULL, NULL));
  api_expect("built again once its kernel is released", 1);
  API_OK(clReleaseProgram(p));

  /* Programs built and launched from several threads at once. */
  struct builder w[4];
  pthread_t t[4];
  for (int i = 0; i < 4; i++) {
    w[i] = (struct builder){&env, 0};
    if (pthread_create(&t[i], NULL, build_and_launch, &w[i]) != 0) {
      printf("FAIL pthread_create\n");
      return 1;
    }
  }
  int threads_ok = 1;
  for (int i = 0; i < 4; i++) {
    pthread_join(t[i], NULL);
    threads_ok &= w[i].ok;
  }
  api_expect("built and launched from 4 threads at once", threads_ok);

  /* The last one built and never released: the process ends right after its build (held
   * in a global, as an app's would be: not a leak to LeakSanitizer). */
  left_built = built(&env);
  api_teardown(&env);
  return api_finish();
}
