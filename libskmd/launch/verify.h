/* libskmd/launch/verify.h: SKMD_VERIFY, the verification mode. Every launch split among
 * members is also run whole on one member, from a snapshot of its buffers taken before the
 * split, and every buffer argument the kernel writes is compared with what the split left:
 * byte for byte when the members compute alike, floats within a tolerance otherwise. A
 * difference is logged at error level and, with SKMD_VERIFY_FILE, written as a JSON line; a
 * summary line at exit. The app keeps the split's results (docs/verify.md). */
#ifndef SKMD_VERIFY_H
#define SKMD_VERIFY_H

#include "plan/share_align.h"

/* One split launch as verification sees it. The shares are filled in after the split
 * ran: a failed share is redone on another member. */
struct skmd_verify_launch {
    uint64_t number;                    /* the launch log's number */
    cl_kernel k;                        /* k->real[whole_member] runs the reference */
    const struct skmd_share_view *view; /* record, argument snapshot, scalars, shape */
    cl_context context;                 /* the app's */
    int whole_member;                   /* the queue's member when it can run the kernel;
                                           -1: none can */
    int nshares;
    int member[SKMD_MAX_MEMBERS];
    uint64_t first[SKMD_MAX_MEMBERS], count[SKMD_MAX_MEMBERS];
};

struct skmd_verify;

/* Whether SKMD_VERIFY is on (the exit summary is then registered). */
int skmd_verify_enabled(void);

/* Before the split runs, once the launches it waits for are done: a copy of every root
 * buffer the launch passes, as it is current now. NULL when verification is off, or when
 * the copy could not be taken (logged, counted as not verified). */
struct skmd_verify *skmd_verify_begin(const struct skmd_verify_launch *v);

/* After the split, while the launch still holds its buffers (in flight): the reference
 * run and the comparison. ran_split 0: the launch did not end as a split (it fell back to
 * one share); it is counted as not verified. Frees s (NULL: nothing to do). */
void skmd_verify_end(struct skmd_verify *s, const struct skmd_verify_launch *v, int ran_split);

/* SKMD_FAULT_CORRUPT's member index, -1 when unset (the test hook of controls.def). */
int skmd_verify_corrupt_member(void);

/* Flips the byte at offset `at` of mem on member m's copy (the test hook). */
cl_int skmd_verify_flip_byte(cl_mem mem, int m, uint64_t at);

#endif
