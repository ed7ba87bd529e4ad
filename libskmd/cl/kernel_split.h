/* libskmd/cl/kernel_split.h: a kernel's split parts (kernel_split.c). */
#ifndef SKMD_CL_KERNEL_SPLIT_H
#define SKMD_CL_KERNEL_SPLIT_H

#include "support/object.h"

/* Sets the new kernel's name, profile key and argument slots, and takes its split parts
 * now, or marks them pending while its program's split version is being built. */
cl_int skmd_kernel_split_init(cl_kernel kernel, cl_program program, const char *name);

/* Member m's partition-ready kernel `name` (and, on a CPU, its merge kernel) from the
 * program's split version, where m built it; under the program's split_lock (a member
 * brought up later gets them from bring_up.c). */
void skmd_kernel_split_member(cl_kernel kernel, int m, const char *name);

/* Makes the kernel's split parts (rec, split, merge) ready, waiting for its program's
 * split build when the kernel was made during it. Every reader of those parts comes after
 * it: a launch (clEnqueueNDRangeKernel) and the argument check's fallback. */
void skmd_kernel_split_wait(cl_kernel kernel);

#endif
