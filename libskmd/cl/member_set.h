/* libskmd/cl/member_set.h: the members of one virtual device (the SKMD device or a
 * sub-device), and what device_info.c and device_text.c share to answer its queries. */
#ifndef SKMD_MEMBER_SET_H
#define SKMD_MEMBER_SET_H

#include <CL/cl.h>

#include "cl/info.h"
#include "support/object.h"

/* The device's members, in order. */
struct skmd_member_set {
    int n;
    int at[SKMD_MAX_MEMBERS];
};

struct skmd_member_set skmd_member_set_of(cl_device_id dev);
/* Member m's own answer to a device query (clGetDeviceInfo's arguments). */
cl_int skmd_member_query(int m, cl_device_info param, void *buf, size_t size, size_t *ret);
/* The set's OpenCL version as libskmd reports it: its weakest member's, 2.x made 1.2. */
void skmd_set_version(const struct skmd_member_set *set, int *major, int *minor);
/* CL_DEVICE_PROFILE, _VERSION, _OPENCL_C_VERSION, _NAME or _EXTENSIONS of the set. */
cl_int skmd_set_text_info(const struct skmd_member_set *set, cl_device_info param,
                          const struct skmd_info *out);
/* CL_DEVICE_EXTENSIONS_WITH_VERSION of the set. */
cl_int skmd_set_extensions_info(const struct skmd_member_set *set, const struct skmd_info *out);

#endif
