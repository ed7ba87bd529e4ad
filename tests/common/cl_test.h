/* tests/common/cl_test.h: what the OpenCL test apps share (apps linked with the system
 * loader and run natively and under LD_PRELOAD=libskmd.so): stop at a call that failed,
 * naming its error; one device's context, queue and built program; buffers, kernels and
 * dumps of a buffer's bytes. Every helper stops the program with status 1 on a failure,
 * after printing what failed on stderr. */
#ifndef SKMD_TEST_CL_TEST_H
#define SKMD_TEST_CL_TEST_H

#include <CL/cl.h>
#include <stdio.h>

/* Stops the program when a call that must succeed does not. */
#define CL_CHECK(call) cl_test_check((call), #call, __FILE__, __LINE__)
void cl_test_check(cl_int err, const char *call, const char *file, int line);

/* Returns 1 from the calling function when c does not hold, after naming it on stderr. */
#define CL_EXPECT(c)                                                                        \
    do {                                                                                    \
        if (!(c)) {                                                                         \
            fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #c);                \
            return 1;                                                                       \
        }                                                                                   \
    } while (0)

struct cl_test {
    cl_platform_id platform;
    cl_device_id device; /* the first device of the first platform: SKMD's under libskmd */
    cl_context context;
    cl_command_queue queue;
    cl_program program; /* NULL when opened without a source */
};

/* Sets up t on the first device: context, in-order queue with `properties`, and, when
 * source is not NULL, the program built with options (NULL: none). */
void cl_test_open(struct cl_test *t, cl_command_queue_properties properties,
                  const char *source, const char *options);
/* Releases the queue, the program and the context. */
void cl_test_close(struct cl_test *t);

/* A program of t's context built for t's device; a failed build prints its log. */
cl_program cl_test_build(const struct cl_test *t, const char *source, const char *options);
cl_mem cl_test_buffer(const struct cl_test *t, cl_mem_flags flags, size_t size, void *host);
cl_kernel cl_test_kernel(const struct cl_test *t, const char *name);
/* Reads size bytes of m through t's queue (blocking) and appends them to out. */
void cl_test_dump(const struct cl_test *t, cl_mem m, size_t size, FILE *out);

#endif
