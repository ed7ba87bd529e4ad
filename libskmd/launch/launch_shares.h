/* libskmd/launch/launch_shares.h: a split launch's shares on their members, a failed
 * member's share redone (launch_shares.c). */
#ifndef SKMD_LAUNCH_SHARES_H
#define SKMD_LAUNCH_SHARES_H

#include "launch/launch_state.h"

/* 1: split launches run to their end on the app's thread, shares in turn (a PoCL
 * 'basic' member). */
int launch_serial(void);
cl_int launch_run_split(struct launch *L);
cl_int launch_run_as_one_share(struct launch *L);

#endif
