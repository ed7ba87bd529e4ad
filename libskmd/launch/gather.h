/* libskmd/launch/gather.h: the bytes that several shares of one split launch would each
 * take out of another member's copy (the app wrote or mapped a buffer on the queue's GPU,
 * and the launch splits over several), moved to the host copy by the first of those shares
 * to fetch the buffer: one transfer per range for all of them, after which every share
 * takes its part from the host copy over its own link, all at once. Left alone, each share
 * takes its part out of the holder in turn, under the buffer's lock, and the last one
 * starts late, a large part of a short launch. Shares that need none of them (the holder's
 * own) start at once. */
#ifndef SKMD_GATHER_H
#define SKMD_GATHER_H

#include <stdint.h>

#include "mem/coherence.h"

struct skmd_gather_buffer {
    cl_mem root;
    struct skmd_ranges need; /* root offsets */
    unsigned members;        /* bit m: member m needs some of them */
    int moved;               /* 1: taken to the host copy (under the buffer's lock) */
};

struct skmd_gather {
    struct skmd_gather_buffer *buffers;
    size_t n, cap;
};

/* Notes, before the shares start, the bytes of [b, e) of mem that member m would take
 * from another member through the host copy (skmd_coh_off_host_need). Takes the buffer's
 * lock. 0, or -1 when out of memory (the shares then fetch their own parts, as before). */
int skmd_gather_note(struct skmd_gather *g, cl_mem mem, int m, uint64_t b, uint64_t e);

/* With mem's buffer lock held, from member m's share: when two or more members need noted
 * bytes of mem and m is one of them, moves all of them to the host copy (once), counting
 * them into *moved. CL_SUCCESS or the transfer's error. */
cl_int skmd_gather_take(struct skmd_gather *g, cl_mem mem, int m, struct skmd_moved *moved);

void skmd_gather_free(struct skmd_gather *g);

#endif
