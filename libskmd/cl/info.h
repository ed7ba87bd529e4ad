/* libskmd/cl/info.h: answering clGetXxxInfo queries, and the aggregated device answers. */
#ifndef SKMD_INFO_H
#define SKMD_INFO_H

#include <stddef.h>
#include <CL/cl.h>

/* The three output arguments of every clGetXxxInfo call. */
struct skmd_info {
    size_t size;
    void *value;
    size_t *size_ret;
};

/* Copies `n` bytes out as the spec says: CL_INVALID_VALUE when value is given but too
 * small; *size_ret always set when given. */
cl_int skmd_info_bytes(const struct skmd_info *out, const void *data, size_t n);
cl_int skmd_info_string(const struct skmd_info *out, const char *s);
/* A cl_uint answer (a count, a cl_bool), copied out the same way. */
cl_int skmd_info_uint(const struct skmd_info *out, cl_uint v);

/* The weakest member's OpenCL version, as libskmd reports it (see device_text.c). */
void skmd_device_version(int *major, int *minor);
/* A string query of the virtual device (CL_DEVICE_PROFILE, ...). */
void skmd_device_string(cl_device_info param, char *buf, size_t size);
void skmd_platform_extensions(char *buf, size_t size);
/* Member m's compute units (at least 1): the unit of device partitions. */
cl_uint skmd_member_units(int m);
size_t skmd_platform_extensions_versioned(cl_name_version *list, size_t max);

cl_int CL_API_CALL skmd_clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms,
                                               cl_uint *num_platforms);

#endif
