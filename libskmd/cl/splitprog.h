/* libskmd/cl/splitprog.h: the split programs of a program: at clBuildProgram, the app's
 * source goes through the kernel compiler (tools/skmd-opt, a child process with an
 * on-disk cache) once per target kind among the members; its partition-ready and merge
 * kernels become one more real program per platform, and its analysis record says which
 * kernels can be split. Any failure only makes the kernels unsplittable (logged). */
#ifndef SKMD_SPLITPROG_H
#define SKMD_SPLITPROG_H

#include "support/object.h"

void skmd_split_build(cl_program program, const char *options);
/* Drops what skmd_split_build made (the app's build failed after all); the source stays. */
void skmd_split_forget(cl_program program);
void skmd_split_release(cl_program program);

#endif
