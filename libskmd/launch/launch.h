/* libskmd/launch/launch.h: one app launch: split among the members, or whole on the queue's
 * member when it cannot (or need not) be split. */
#ifndef SKMD_LAUNCH_H
#define SKMD_LAUNCH_H

#include "cl/common.h"

/* The launch of clEnqueueNDRangeKernel, with its wait list already translated in `e`
 * (the returned event goes to e->event). */
cl_int skmd_launch_ndrange(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *offset,
                           const size_t *global, const size_t *local, struct skmd_enqueue *e);

#endif
