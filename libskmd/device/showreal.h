/* libskmd/device/showreal.h: SKMD_SHOW_REAL=1. clGetPlatformIDs lists the real platforms
 * after the SKMD one, and every call on a handle libskmd did not make (a real platform,
 * device, context, queue, buffer... made from them) goes straight to the real entry point.
 * A handle is ours when its first word is libskmd's dispatch table; that one read is the
 * only check a real handle gets (an invalid pointer is the driver's to judge). */
#ifndef SKMD_SHOWREAL_H
#define SKMD_SHOWREAL_H

#include <stdint.h>

#include "support/object.h"

/* Set once by skmd_init(): SKMD_SHOW_REAL is on and the real loader is open. */
extern int skmd_show_real;

/* Whether `h`, a handle the app passed, is a real driver's (show_real mode only). */
static inline int skmd_foreign(const void *h)
{
    return skmd_show_real && h && *(const void *const *)h != (const void *)skmd_object_dispatch;
}

/* Whether a call's first argument (its type decides whether it is a handle) is a real
 * driver's handle. `+ 0` makes an empty argument list an int, which is no handle. */
#define SKMD_FIRST_ARG(...) SKMD_FIRST_ARG_(__VA_ARGS__, )
#define SKMD_FIRST_ARG_(a, ...) a
#define SKMD_IS_HANDLE_TYPE(x)                                                           \
    _Generic((x), cl_platform_id: 1, cl_device_id: 1, cl_context: 1, cl_command_queue: 1, \
             cl_mem: 1, cl_program: 1, cl_kernel: 1, cl_event: 1, cl_sampler: 1,          \
             default: 0)
#define SKMD_FOREIGN_CALL(args)                                                          \
    (SKMD_IS_HANDLE_TYPE(SKMD_FIRST_ARG args + 0) &&                                     \
     skmd_foreign((const void *)(uintptr_t)(SKMD_FIRST_ARG args + 0)))

/* The calls whose first argument is no handle: whether they name real objects. */
int skmd_foreign_devices(cl_uint n, const cl_device_id *devices);
int skmd_foreign_properties(const cl_context_properties *properties);
int skmd_foreign_events(cl_uint n, const cl_event *events);

/* Appends the real platforms to a clGetPlatformIDs answer that holds `have` entries. */
cl_int skmd_show_real_platforms(cl_uint have, cl_uint num_entries, cl_platform_id *platforms,
                                cl_uint *num_platforms);

#endif
