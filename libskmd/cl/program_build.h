/* libskmd/cl/program_build.h: a program's real programs built on a set of platform slots,
 * all at once; a member that fails leaves its kernels to the members that built it. */
#ifndef SKMD_PROGRAM_BUILD_H
#define SKMD_PROGRAM_BUILD_H

#include "support/object.h"

/* Builds p's real programs of `slots` (bits) with `options`, at once. Marks the members
 * left without the program in p->not_built and logs each (with its build log's start) when
 * another member built it. Returns CL_SUCCESS when a member of `slots` built it; else the
 * app's error (options, ...) or the build's failure. */
cl_int skmd_program_build_slots(cl_program p, unsigned slots, const char *options);

/* Logs each member of `slots` left without the program (another member built it). */
void skmd_program_log_failures(cl_program p, unsigned slots);

#endif
