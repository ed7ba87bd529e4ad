/* tools/skmd-profile.h: the commands of skmd-profile that live in their own files. */
#ifndef SKMD_PROFILE_TOOL_H
#define SKMD_PROFILE_TOOL_H

#include "skmd_profiledb.h"

#define EXIT_USAGE 2

/* skmd-profile run [--launches N] -- APP ARGS (skmd-profile-run.c). */
int skmd_profile_run(struct skmd_pdb *db, long long sizes, char **app);
/* skmd-profile calibrate (skmd-profile-calibrate.c): device -1 means every device. */
int skmd_profile_calibrate(struct skmd_pdb *db, long long device, long long lo,
                           long long hi);

#endif
