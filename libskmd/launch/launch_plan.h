/* libskmd/launch/launch_plan.h: whether a launch is split, and its shares (launch_plan.c). */
#ifndef SKMD_LAUNCH_PLAN_H
#define SKMD_LAUNCH_PLAN_H

#include "launch/launch_state.h"

/* Member m may run this launch's kernel: healthy, built the program, holds its buffers. */
int launch_member_may_run(const struct launch *L, int m);
/* Fills the launch's shape and its shares; NULL when it is split, else why it runs whole
 * (L->why_code holds the same as a stable word). */
const char *launch_plan(struct launch *L, const size_t *offset, const size_t *global,
                        const size_t *local, struct share *shares, int *nshares);
/* Why a launch the user forced to split runs whole, logged once per kernel. */
void launch_tell_whole_once(struct launch *L, const char *why);

#endif
