/* libskmd/cl/kernel_split.h: a kernel's split parts (kernel_split.c). */
#ifndef SKMD_CL_KERNEL_SPLIT_H
#define SKMD_CL_KERNEL_SPLIT_H

#include "support/object.h"

/* Sets the new kernel's name, profile key and argument slots, and takes its split parts
 * now, or marks them pending while its program's split version is being built. */
cl_int skmd_kernel_split_init(cl_kernel kernel, cl_program program, const char *name);

/* Makes the kernel's split parts (rec, split, merge) ready, waiting for its program's
 * split build when the kernel was made during it. Every reader of those parts comes after
 * it: a launch (clEnqueueNDRangeKernel) and the argument check's fallback. */
void skmd_kernel_split_wait(cl_kernel kernel);

#endif
