/* libskmd/launch/launch_merge.h: the merge kernel (launch_merge.c). */
#ifndef SKMD_LAUNCH_MERGE_H
#define SKMD_LAUNCH_MERGE_H

#include "launch/launch_state.h"

/* Folds share sh's writes (on its member) into the merge member's copies. */
cl_int launch_merge_share(struct launch *L, const struct share *sh);

#endif
