/* Shared by the API test programs.  Each program prints behaviour (not names or numbers
 * that legitimately differ between a real device and libskmd's virtual one) on stdout, so
 * that its output natively and under libskmd can be diffed; and each checks its own
 * results, exiting 1 with "FAIL ..." on stdout when something is wrong. */
#ifndef API_COMMON_H
#define API_COMMON_H

#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <stddef.h>

struct api_env {
  cl_platform_id platform;
  cl_device_id device;        /* the first device of the first platform (see pick_device) */
  cl_context context;
  cl_command_queue queue;     /* in order, profiling enabled */
};

/* Sets up env (exits with a message when there is no OpenCL device). */
void api_setup(struct api_env *env);
void api_teardown(struct api_env *env);
const char *api_error_name(cl_int err);
/* Builds source for env's device; on failure prints the log and exits. */
cl_program api_build(struct api_env *env, const char *source, const char *options);
cl_kernel api_kernel(cl_program program, const char *name);

/* Stops the program when a call that must succeed does not. */
#define API_OK(call) api_ok((call), #call, __FILE__, __LINE__)
void api_ok(cl_int err, const char *what, const char *file, int line);
/* Prints "label: ERRNAME" (the error a call returned: part of the diffed output). */
void api_show(const char *label, cl_int err);
/* Prints "label: yes|no"; with must, a "no" also fails the program at exit. */
void api_expect(const char *label, int condition);
int api_finish(void);        /* exit status: 1 if an expectation failed */

#endif
