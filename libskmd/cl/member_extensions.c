/* libskmd/cl/member_extensions.c: the extensions and OpenCL C features common to some
 * members (see member_extensions.h). */
#include "cl/member_extensions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl/common.h"

/* Whether `word` (len bytes) is one of the space-separated words of list. */
static int has_word(const char *list, const char *word, size_t len)
{
    for (const char *p = list; *p;) {
        p += strspn(p, " ");
        size_t n = strcspn(p, " ");
        if (n == len && strncmp(p, word, len) == 0)
            return 1;
        p += n;
    }
    return 0;
}

/* Keeps in `acc` only the words also in `list`; the first list (*first) is taken whole. */
static void intersect(char *acc, size_t size, const char *list, int *first)
{
    if (*first) {
        snprintf(acc, size, "%s", list);
        *first = 0;
        return;
    }
    size_t used = 0;
    for (const char *p = acc; *p;) {
        p += strspn(p, " ");
        size_t n = strcspn(p, " ");
        if (n && has_word(list, p, n)) {
            memmove(acc + used + (used ? 1 : 0), p, n);
            if (used)
                acc[used++] = ' ';
            used += n;
        }
        p += n;
    }
    acc[used] = '\0';
}

/* "OpenCL 3.0 ..." or "OpenCL C 1.2 ..." after `prefix`: major*10+minor, 0 if unreadable. */
static int version_of(cl_device_id d, cl_device_info what, const char *prefix)
{
    char text[256] = "";
    int major = 0, minor = 0;
    if (real_clGetDeviceInfo(d, what, sizeof text - 1, text, NULL) != CL_SUCCESS ||
        strncmp(text, prefix, strlen(prefix)) != 0 ||
        sscanf(text + strlen(prefix), "%d.%d", &major, &minor) != 2)
        return 0;
    return major * 10 + minor;
}

/* The OpenCL C version member d's driver compiles with when no -cl-std is given. */
static int default_std(cl_device_id d, int pocl)
{
    if (pocl && version_of(d, CL_DEVICE_VERSION, "OpenCL ") >= 30)
        return 30;
    int c = version_of(d, CL_DEVICE_OPENCL_C_VERSION, "OpenCL C ");
    return c > 12 ? 12 : c > 0 ? c : 12;
}

void skmd_member_extensions(const unsigned char *use, int pocl, char *std, size_t std_size,
                            char *ext, size_t ext_size, char *feat, size_t feat_size)
{
    char list[8192];
    cl_name_version names[128];
    int first_ext = 1, first_feat = 1, lowest = 0;
    ext[0] = feat[0] = '\0';
    for (int i = 0; i < skmd_state.nmembers; i++) {
        if (!use[i])
            continue;
        cl_device_id d = skmd_state.members[i].real_device;
        int v = default_std(d, pocl);
        lowest = !lowest || v < lowest ? v : lowest;
        list[0] = '\0';
        if (real_clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, sizeof list, list, NULL) ==
            CL_SUCCESS) {
            list[sizeof list - 1] = '\0';
            intersect(ext, ext_size, list, &first_ext);
        }
        size_t bytes = 0;
        if (real_clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_FEATURES, sizeof names, names,
                                 &bytes) != CL_SUCCESS)
            continue; /* an OpenCL 1.x/2.x member: no 3.0 features to offer */
        size_t used = 0;
        list[0] = '\0';
        for (size_t k = 0; k < bytes / sizeof names[0] && used + 70 < sizeof list; k++)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%.*s",
                                     used ? " " : "", (int)sizeof names[k].name,
                                     names[k].name);
        intersect(feat, feat_size, list, &first_feat);
    }
    if (!lowest)
        lowest = 12;
    snprintf(std, std_size, "CL%d.%d", lowest / 10, lowest % 10);
}
