/* libskmd/plan/share_source.h: the second way for a member to run its share of a split
 * launch: the app's own OpenCL C source, built by the member's own driver, each share
 * launched as at most 5 boxes of work-groups (boxes.h) through the global work offset. A
 * prelude of macros restores what a sub-launch changes (get_group_id, get_num_groups,
 * get_global_size, get_global_offset, get_global_linear_id) from -D constants of the whole
 * launch, so the program is built once per launch shape (a small per-program cache). Used
 * for every member that is not PoCL (SKMD_SHARE_BUILD=auto), so each element is what its
 * device writes natively; the analysis record and the merge kernel still come from
 * skmd-opt's PoCL build. */
#ifndef SKMD_SHARE_SOURCE_H
#define SKMD_SHARE_SOURCE_H

#include <stdint.h>

#include "support/object.h"

struct skmd_launch;

/* Whether a member's shares come from the source (SKMD_SHARE_BUILD: source; auto and
 * the member is not a PoCL device). */
int skmd_source_route(int member_is_pocl);

/* At clBuildProgram of a program made from source (splitprog.c): route[m] says which
 * members take the source route. Keeps the options and checks that the source leaves the
 * prelude's names alone; when it does not, those members get no shares of the program's
 * kernels (logged). */
void skmd_source_setup(cl_program program, const char *options,
                       const unsigned char *route);

/* Whether member m runs its shares of this program's kernels from the source. */
int skmd_source_member(cl_program program, int m);

/* Whether member m can take a share of this launch of k: the partition-ready kernel on
 * the ir route; on the source route, the program built for the launch's shape (when not
 * cached: built now for the program's first 4 shapes, and under forced shares or a
 * profiling sweep; else built in the background, m out of the shape's launches until it
 * is in; a failed build only takes m out of this shape's launches). */
int skmd_share_ready(cl_kernel k, int m, const struct skmd_launch *shape);

/* Enqueues groups [first, first+count) of k's launch `shape` on member m's real queue q,
 * from the source build: args are the app's (buffers swapped for m's copies); *done is
 * one event for the whole share (a marker when the share takes several boxes: a marker's
 * own profiling times say nothing of the kernels'). timing[0] and timing[1] are the first
 * and the last box's events, each retained for the caller to release: the share's kernel
 * time runs from the first's start to the last's end (q is in order). */
cl_int skmd_source_share(cl_kernel k, int m, cl_command_queue q, const struct skmd_arg *args,
                         const struct skmd_launch *shape, uint64_t first, uint64_t count,
                         cl_event *done, cl_event timing[2]);

/* Frees the cache (at the program's release). */
void skmd_source_release(cl_program program);

#endif
