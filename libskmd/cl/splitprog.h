/* libskmd/cl/splitprog.h: the split programs of a program: at clBuildProgram, the app's
 * source goes through the kernel compiler (tools/skmd-opt, a child process with
 * an on-disk cache) once per target kind among the members; its partition-ready and merge
 * kernels become one more real program per platform, and its analysis record says which
 * kernels can be split. Any failure only makes the kernels unsplittable (logged). The
 * build runs on a thread of its own (split_thread.c): the program's split fields are read
 * only once it is over. */
#ifndef SKMD_SPLITPROG_H
#define SKMD_SPLITPROG_H

#include "support/object.h"

/* The program gets a split version from a build now (it has a source, the mode splits,
 * none is made yet). */
int skmd_split_wanted(cl_program program);
void skmd_split_build(cl_program program, const char *options);
/* The split program, from the compiler's kept output, on the slots (bits) brought up
 * since it was built (bring_up.c); under the program's split_lock, no build running. */
void skmd_split_load(cl_program program, unsigned slots);
/* Drops what skmd_split_build made (the app's build failed after all); the source stays. */
void skmd_split_forget(cl_program program);
void skmd_split_release(cl_program program);

/* split_thread.c: skmd_split_build started on a thread of its own (run here when none can
 * be had); options are copied. */
void skmd_split_start(cl_program program, const char *options);
/* Returns once no split build of the program runs (split_lock held by the caller for the
 * _locked form, and held again on return). */
void skmd_split_wait(cl_program program);
void skmd_split_wait_locked(cl_program program);

#endif
