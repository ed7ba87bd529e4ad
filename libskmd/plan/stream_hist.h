/* libskmd/plan/stream_hist.h: what is learnt per root buffer (cl_mem stream_hist) from
 * the app's calls, in their order: which buffers a split launch streams back
 * (SKMD_STREAM_OUTPUTS, launch/stream_out.h), and which ones feed later kernels (the
 * placement keeps those where they are, placement.h). */
#ifndef SKMD_STREAM_HIST_H
#define SKMD_STREAM_HIST_H

#include "support/object.h"

/* The app reads mem (or part of it) back: remembered for its root. */
void skmd_stream_note_app_read(cl_mem mem);

/* A kernel launch, enqueued now, reads and/or writes mem: updates what is learnt about
 * its root and returns 1 when this launch should stream what it writes to mem. Called
 * for every launch, split or whole, in the app's order. */
int skmd_stream_note_launch(cl_mem mem, int reads, int writes);

/* Whether a kernel has read what an earlier kernel wrote to mem before the app read it
 * (an intermediate result, like aes_encrypt's cipher that aes_decrypt reads). */
int skmd_stream_feeds_kernels(cl_mem mem);

#endif
