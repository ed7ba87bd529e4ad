/* libskmd/plan/placement.h: where the app's writes of a launch's inputs should land. When
 * the partitioner finds that a launch whose inputs the app has just written would run
 * faster split with each member's part already on it (the write crossing every link at
 * once) than with every input on the app queue's member, it records on each input buffer
 * the shares and the bytes each member reads (a placement). The app's next writes of those
 * buffers go straight to those members (write_placed.h), and the next launch that finds its
 * inputs where its placement put them takes the placement's shares.
 *
 * Locking: each function takes the buffers' locks itself; none is called under the
 * plan's lock (buffer locks come first). */
#ifndef SKMD_PLACEMENT_H
#define SKMD_PLACEMENT_H

#include <stdint.h>

#include "plan/plan_request.h"
#include "support/ranges.h"

/* On a root buffer, under its lock: the shares of the launch it was made for and, per
 * member, the bytes (root offsets) that member's share reads. */
struct skmd_placement {
    uint64_t kernel;                 /* the launch's kernel identity and shape class */
    uint32_t shape;
    uint64_t total_groups;
    uint64_t generation;             /* one per recording: a buffer passed twice gathers
                                        both parameters' bytes */
    uint64_t count[SKMD_MAX_MEMBERS];
    struct skmd_ranges reads[SKMD_MAX_MEMBERS];
};

/* The app wrote bytes of mem (clEnqueueWriteBuffer): noted on its root until a launch
 * reads it. */
void skmd_placement_note_app_write(cl_mem mem);

/* Whether the app's writes may be placed at all (SKMD_PLACE_WRITES is not 0). */
int skmd_placement_enabled(void);

/* The app waited for its commands (a blocking read or map, clFinish, clWaitForEvents):
 * where a cycle of its writes, launches and reads ends. */
void skmd_placement_note_app_wait(void);

/* When the app began writing a launch's inputs, and its last wait before that (0: none;
 * skmd_now_ns). */
struct skmd_placement_since {
    uint64_t wrote_ns, waited_ns;
};

/* The part (0 to 1, by size) of the buffers the launch reads that the app wrote since a
 * launch last read them; *bytes gets their size, *since when the first of those writes
 * began (skmd_now_ns; 0: none) and the app's last wait before it. */
double skmd_placement_app_part(const struct skmd_plan_request *r, double *bytes,
                               struct skmd_placement_since *since);

/* Whether a buffer the launch writes is read by later kernels before the app reads it
 * (stream_out.h): its writes are then not placed. A placed launch leaves its outputs
 * spread over the members that computed them, and what the next kernel's plan then moves
 * is no part of the placement's estimate (aes_encrypt placed over three members and
 * aes_decrypt whole on one ran more than twice as long as both whole). */
int skmd_placement_outputs_feed_kernels(const struct skmd_plan_request *r);

/* The launch reads its buffers now: their app-write notes are cleared. */
void skmd_placement_note_read(const struct skmd_plan_request *r);

/* Records a placement of shares `count` (one per member, laid out in member order as
 * launch_plan.c lays them) on every buffer the launch reads (those the app did not write too:
 * it may write them later); with count NULL, removes the
 * placements of those buffers. */
void skmd_placement_record(const struct skmd_plan_request *r, uint64_t kernel, uint32_t shape,
                           const uint64_t *count);

/* Whether every buffer the launch reads that the app wrote since (at least one) carries
 * one placement made for this kernel, shape and size, every member with a share is
 * eligible, and each holds the bytes its share reads there; then count[] gets the
 * placement's shares. (Inputs the app did not write move at most once: they stay.) */
int skmd_placement_intact(const struct skmd_plan_request *r, uint64_t kernel, uint32_t shape,
                          uint64_t *count);

/* Frees a root buffer's placement (at its release). */
void skmd_placement_free(cl_mem root);

#endif
