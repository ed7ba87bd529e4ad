/* libskmd/gather.h: the bytes that several shares of one split launch would each take out
 * of another member's copy (the app wrote or mapped a buffer on the queue's GPU, and the
 * launch splits over several), moved to the host copy before the shares start: one
 * transfer per buffer range for all of them, after which every share fetches its part
 * from the host copy over its own link, all at once. Left to the shares, each fetch takes
 * its part out of the holder in turn, under the buffer's lock, so the last share starts
 * late (four H200s: 0.26 ms after the first). */
#ifndef SKMD_GATHER_H
#define SKMD_GATHER_H

#include <stdint.h>

#include "coherence.h"

struct skmd_gather_buffer {
    cl_mem root;
    struct skmd_ranges need; /* root offsets */
    unsigned members;        /* bit m: member m needs some of them */
};

struct skmd_gather {
    struct skmd_gather_buffer *buffers;
    size_t n, cap;
};

/* Notes the bytes of [b, e) of mem that member m would take from another member through
 * the host copy (skmd_coh_off_host_need). Takes the buffer's lock. 0, or -1 when out of
 * memory (what was noted still moves; the shares fetch the rest themselves). */
int skmd_gather_note(struct skmd_gather *g, cl_mem mem, int m, uint64_t b, uint64_t e);

/* Moves to the host copy the noted bytes of every buffer that two or more members need,
 * counting them into *moved (not NULL), and frees the gather. CL_SUCCESS or the first error. */
cl_int skmd_gather_run(struct skmd_gather *g, struct skmd_moved *moved);

#endif
