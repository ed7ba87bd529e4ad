/* libskmd/cl/info.c: the output of every clGetXxxInfo query, as the spec says it is
 * copied out. */
#include <string.h>

#include "cl/info.h"

cl_int skmd_info_bytes(const struct skmd_info *out, const void *data, size_t n)
{
    if (out->value) {
        if (out->size < n)
            return CL_INVALID_VALUE;
        if (n)
            memcpy(out->value, data, n);
    }
    if (out->size_ret)
        *out->size_ret = n;
    return CL_SUCCESS;
}

cl_int skmd_info_uint(const struct skmd_info *out, cl_uint v)
{
    return skmd_info_bytes(out, &v, sizeof v);
}

cl_int skmd_info_string(const struct skmd_info *out, const char *s)
{
    return skmd_info_bytes(out, s, strlen(s) + 1);
}
