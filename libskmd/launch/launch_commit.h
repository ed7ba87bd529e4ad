/* libskmd/launch/launch_commit.h: where a launch's bytes are: fetched, written, streamed,
 * committed (launch_commit.c). */
#ifndef SKMD_LAUNCH_COMMIT_H
#define SKMD_LAUNCH_COMMIT_H

#include "launch/launch_state.h"

cl_int launch_fetch_locked(struct launch *L, cl_mem mem, int dst, uint64_t b, uint64_t e);
cl_int launch_written_locked(cl_mem mem, int owner, uint64_t b, uint64_t e);
void launch_note_streams(struct launch *L);
void launch_stream_share(struct launch *L, struct share *sh);
cl_int launch_commit_shares(struct launch *L);

#endif
