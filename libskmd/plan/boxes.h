/* libskmd/plan/boxes.h: a contiguous range of LINEAR work-group ids (linear = gx + ngx*(gy
 * + ngy*gz)) cut into rectangular boxes of groups, each launchable as one NDRange. Pure C,
 * no OpenCL call. */
#ifndef SKMD_BOXES_H
#define SKMD_BOXES_H

#include <stdint.h>

#define SKMD_MAX_BOXES 5

/* Groups start[d] .. start[d] + size[d] - 1 in each dimension. */
struct skmd_box {
    uint64_t start[3];
    uint64_t size[3];
};

/* Cuts groups [first, first + count) of a launch with ngroups[0..2] groups per dimension
 * (1 for unused dimensions) into at most SKMD_MAX_BOXES boxes, in linear order: the
 * partial first row, the rows up to the next plane, the whole planes, the whole rows of the
 * last plane, the partial last row (empty pieces are left out). Returns the number of
 * boxes; 0 when count is 0 or the range lies outside the launch. */
int skmd_boxes(const uint64_t ngroups[3], uint64_t first, uint64_t count,
               struct skmd_box out[SKMD_MAX_BOXES]);

#endif
