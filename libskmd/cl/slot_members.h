/* libskmd/cl/slot_members.h: the members of one real platform (platform slot), in member
 * order: a real program is made and built per platform, for these devices. */
#ifndef SKMD_SLOT_MEMBERS_H
#define SKMD_SLOT_MEMBERS_H

#include "support/object.h"

/* The real devices of slot s among the members `use` marks (NULL: all) into devs, their
 * member numbers into idx (when given); returns how many. */
static inline cl_uint skmd_slot_members(int s, const unsigned char *use, cl_device_id *devs,
                                        int *idx)
{
    cl_uint n = 0;
    for (int i = 0; i < skmd_state.nmembers; i++) {
        if (skmd_state.members[i].platform_slot != s || (use && !use[i]))
            continue;
        if (idx)
            idx[n] = i;
        devs[n++] = skmd_state.members[i].real_device;
    }
    return n;
}

#endif
