/* libskmd/launch/launch_whole.h: whole launches, on the app's thread or deferred to the
 * launcher (launch_whole.c). */
#ifndef SKMD_LAUNCH_WHOLE_H
#define SKMD_LAUNCH_WHOLE_H

#include "launch/launch_state.h"

cl_int launch_run_whole(struct launch *L, const size_t *offset, const size_t *global,
                        const size_t *local, struct skmd_enqueue *e);
cl_int launch_defer_whole(struct launch *L, const size_t *offset, const size_t *global,
                          const size_t *local, struct skmd_enqueue *e, const char *why);

#endif
