/* A small OpenCL program for the stub ICD's tests.  It writes marker lines into the stub's
 * log (SKMD_STUB_LOG) between its steps, so the test can tell which real calls each of
 * its calls became.  Runs the stub's built-in kernels (add_one, fill_gid) and checks the
 * results; prints "PASSED" and exits 0 when all is well.  STUB_APP_COPY_HOST_PTR=1 gives
 * the buffer its first bytes at creation (CL_MEM_COPY_HOST_PTR) instead of by a write.
 * STUB_APP_FAILED_GATE=1 also launches add_one behind a user event set to -1 and prints
 * "failed gate: wait ERR", ERR what clWaitForEvents on that launch returned. */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N 1024

static const char *source =
  "kernel void add_one(global int *data) { data[get_global_id(0)] += 1; }\n"
  "kernel void fill_gid(global int *out) { out[get_global_id(0)] = get_global_id(0); }\n";

static void mark(const char *what)
{
  const char *path = getenv("SKMD_STUB_LOG");
  if (!path) return;
  int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (fd < 0) return;
  char line[128];
  int n = snprintf(line, sizeof line, "app-mark %s\n", what);
  if (write(fd, line, (size_t)n) != n) perror("stub_app: log");
  close(fd);
}

/* The device's build log on stderr (even after a good build: under libskmd it names each
 * member, and a member's failed build may show there while the build succeeds). */
static void print_build_log(cl_program prog, cl_device_id device)
{
  size_t len = 0;
  if (clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len) != CL_SUCCESS ||
      len == 0)
    return;
  char *text = calloc(1, len + 1);
  if (text && clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, len, text, NULL) ==
                  CL_SUCCESS)
    fprintf(stderr, "stub_app: build log:\n%s\n", text);
  free(text);
}

#define CHECK(call) do { cl_int e_ = (call); if (e_ != CL_SUCCESS) { \
  fprintf(stderr, "stub_app: %s failed: %d\n", #call, e_); exit(1); } } while (0)

int main(void)
{
  cl_int err;
  cl_platform_id platform;
  cl_uint num_platforms, num_devices;
  mark("start");
  CHECK(clGetPlatformIDs(1, &platform, &num_platforms));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, NULL, &num_devices));
  printf("platforms=%u devices=%u\n", num_platforms, num_devices);
  cl_device_id *devices = calloc(num_devices, sizeof *devices);
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, num_devices, devices, NULL));
  cl_context ctx = clCreateContext(NULL, num_devices, devices, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueue(ctx, devices[0], 0, &err);
  CHECK(err);

  /* STUB_APP_COPY_HOST_PTR=1: the buffer gets its first bytes at creation, not by a write. */
  int *host = malloc(N * sizeof(int));
  for (int i = 0; i < N; i++) host[i] = 5;
  const char *copy_env = getenv("STUB_APP_COPY_HOST_PTR");
  int at_creation = copy_env && !strcmp(copy_env, "1");
  mark("create-buffer");
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | (at_creation ? CL_MEM_COPY_HOST_PTR : 0),
                              N * sizeof(int), at_creation ? host : NULL, &err);
  CHECK(err);
  mark("buffer-created");
  if (!at_creation)
    CHECK(clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, N * sizeof(int), host, 0, NULL, NULL));
  mark("written");

  cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
  CHECK(err);
  cl_int build_err = clBuildProgram(prog, 0, NULL, "", NULL, NULL);
  print_build_log(prog, devices[0]);
  if (build_err != CL_SUCCESS) {
    fprintf(stderr, "stub_app: clBuildProgram failed: %d\n", build_err);
    exit(1);
  }
  mark("built");
  cl_kernel add = clCreateKernel(prog, "add_one", &err);
  CHECK(err);
  cl_kernel fill = clCreateKernel(prog, "fill_gid", &err);
  CHECK(err);
  CHECK(clSetKernelArg(add, 0, sizeof buf, &buf));
  CHECK(clSetKernelArg(fill, 0, sizeof buf, &buf));
  mark("launch-add");
  size_t global = N, local = 64;
  CHECK(clEnqueueNDRangeKernel(q, add, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clFinish(q));
  mark("launched-add");
  CHECK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, N * sizeof(int), host, 0, NULL, NULL));
  int bad = 0;
  for (int i = 0; i < N; i++) bad += host[i] != 6;
  printf("add_one %s\n", bad ? "WRONG" : "ok");

  mark("launch-fill");
  CHECK(clEnqueueNDRangeKernel(q, fill, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, N * sizeof(int), host, 0, NULL, NULL));
  mark("read-fill");
  int bad_fill = 0;
  for (int i = 0; i < N; i++) bad_fill += host[i] != i;
  printf("fill_gid %s\n", bad_fill ? "WRONG" : "ok");

  if (getenv("STUB_APP_FAILED_GATE")) {
    /* A launch behind a user event set to an error: waiting for it is an error. */
    cl_event gate = clCreateUserEvent(ctx, &err), ev;
    CHECK(err);
    CHECK(clEnqueueNDRangeKernel(q, add, 1, NULL, &global, &local, 1, &gate, &ev));
    CHECK(clSetUserEventStatus(gate, -1));
    printf("failed gate: wait %d\n", clWaitForEvents(1, &ev));
    CHECK(clReleaseEvent(ev));
    CHECK(clReleaseEvent(gate));
  }

  mark("release");
  CHECK(clReleaseKernel(add));
  CHECK(clReleaseKernel(fill));
  CHECK(clReleaseProgram(prog));
  CHECK(clReleaseMemObject(buf));
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  mark("released");
  free(host);
  free(devices);
  if (bad || bad_fill) return 1;
  printf("PASSED\n");
  return 0;
}
