/* libskmd/plan/share_rect.h: shares whose writes are a box of the buffer.
 *
 * A 2-D kernel like a transpose (`out[x*H + y] = in[y*W + x]`) split into rows of
 * work-groups writes, per share, a band of columns of the output: one interval per output
 * row, too many for a footprint's interval list, and a bounding interval that covers every
 * other share's band too, so the share would be merged. From the record's affine store
 * offsets, the bytes such a share writes are a box: `slices` slices of `rows` rows of `len`
 * bytes, rows `pitch` bytes apart, slices `slice_pitch` apart. When every share's box is
 * exact and no two boxes share a byte, each share's box is committed with rectangular
 * copies (clEnqueue{Read,Write,Copy}BufferRect) instead of the merge kernel.
 *
 * share_rect.c: the boxes (plain functions of the launch); share_rect_commit.c: the copies. */
#ifndef SKMD_SHARE_RECT_H
#define SKMD_SHARE_RECT_H

#include <stdint.h>

#include "mem/coherence.h"
#include "plan/share_view.h"

/* Bytes offset + k*slice_pitch + j*pitch + [0, len) for j < rows, k < slices, relative to
 * the argument's buffer. len <= pitch; rows == 1: pitch == len; slices == 1: slice_pitch
 * == pitch * rows. */
struct skmd_rect {
    uint64_t offset, len, pitch, rows, slice_pitch, slices;
};

/* The box of bytes that groups [first, first+count) write through buffer parameter p,
 * when it is exactly a box: every store to p is affine and unconditional, the groups form
 * a box of the launch's grid (within one row, whole rows of one plane, or whole planes),
 * and the bytes lie inside the buffer. 1 and *r; 0 otherwise (also when they write
 * nothing). */
int skmd_rect_of_share(const struct skmd_share_view *v, unsigned p, uint64_t first,
                       uint64_t count, struct skmd_rect *r);

/* Whether two boxes share no byte. Boxes with very many rows are not compared row by row:
 * they count as overlapping (the caller keeps its other modes). */
int skmd_rect_disjoint(const struct skmd_rect *a, const struct skmd_rect *b);

/* One past the box's last byte. */
uint64_t skmd_rect_end(const struct skmd_rect *r);

/* After member `owner` wrote box r of mem: the box's bytes are current on owner alone,
 * then also on member `home` (the launch queue's member, where the app reads) when it is
 * another member, moved with rectangular copies: one driver copy between members of one
 * real context, else through libskmd's host copy (a read from owner unless its buffer is
 * the host copy, a write to home unless its buffer is). Takes the buffer's lock. Adds the
 * bytes moved to *moved. */
cl_int skmd_rect_commit(cl_mem mem, int owner, int home, const struct skmd_rect *r,
                        struct skmd_moved *moved);

#endif
