/* tests/device/devinfo.c: what the SKMD device reports against its members, read from the
 * real platforms that SKMD_SHOW_REAL=1 lists after the SKMD platform (run under libskmd
 * only): the vendor ID (the members' when they agree, else one of theirs), the latest
 * conformance version (the oldest member's, in the spec's form), the extensions (only
 * ones every member has, none whose entry points libskmd cannot route, the kernel-language
 * ones every member has all kept), and CL_DEVICE_EXTENSIONS_WITH_VERSION naming the same
 * extensions in the same order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <CL/cl.h>

#include "check.h"
#include "cl_test.h"

static int has_word(const char *list, const char *word)
{
    size_t len = strlen(word);
    for (const char *p = list; (p = strstr(p, word)) != NULL; p += len)
        if ((p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
            return 1;
    return 0;
}

static int conformance_form(const char *s)
{
    const char form[] = "v9999-99-99-99";
    if (strlen(s) != sizeof form - 1)
        return 0;
    for (size_t i = 0; form[i]; i++)
        if (form[i] == '9' ? (s[i] < '0' || s[i] > '9') : s[i] != form[i])
            return 0;
    return 1;
}

/* Checks one virtual device (the SKMD device or a sub-device) against members[0..n). */
static void check_device(cl_device_id dev, const cl_device_id *members, int n)
{
    cl_uint vid = 0, mvid[16];
    int all_equal = 1, one_of = 0;
    CL_CHECK(clGetDeviceInfo(dev, CL_DEVICE_VENDOR_ID, sizeof vid, &vid, NULL));
    for (int i = 0; i < n; i++) {
        CL_CHECK(clGetDeviceInfo(members[i], CL_DEVICE_VENDOR_ID, sizeof mvid[i], &mvid[i], NULL));
        all_equal &= mvid[i] == mvid[0];
        one_of |= mvid[i] == vid;
    }
    printf("vendor id 0x%x (members agree: %s)\n", vid, all_equal ? "yes" : "no");
    EXPECT(all_equal ? vid == mvid[0] : one_of && vid != 0, "vendor id 0x%x", vid);

    char conf[64] = "", oldest[64] = "";
    int answered = 1;
    for (int i = 0; i < n; i++) {
        char v[64] = "";
        if (clGetDeviceInfo(members[i], CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED,
                            sizeof v, v, NULL) != CL_SUCCESS)
            answered = 0;
        else if (!oldest[0] || strcmp(v, oldest) < 0)
            strcpy(oldest, v);
    }
    cl_int err = clGetDeviceInfo(dev, CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED, sizeof conf,
                                 conf, NULL);
    if (answered) {
        printf("conformance %s\n", conf);
        EXPECT(err == CL_SUCCESS && conformance_form(conf) && !strcmp(conf, oldest),
               "conformance '%s' (err %d), oldest member's '%s'", conf, err, oldest);
    }

    static char ext[8192], mext[16][8192];
    CL_CHECK(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL));
    for (int i = 0; i < n; i++)
        CL_CHECK(clGetDeviceInfo(members[i], CL_DEVICE_EXTENSIONS, sizeof mext[i], mext[i], NULL));
    printf("extensions: %s\n", ext);
    /* Every one listed is every member's; none needs entry points libskmd lacks. */
    char copy[8192];
    snprintf(copy, sizeof copy, "%s", ext);
    size_t nwords = 0;
    for (char *w = strtok(copy, " "); w; w = strtok(NULL, " ")) {
        nwords++;
        for (int i = 0; i < n; i++)
            EXPECT(has_word(mext[i], w), "%s listed but member %d lacks it", w, i);
    }
    static const char *const routed_elsewhere[] = {
        "cl_khr_command_buffer", "cl_khr_icd", "cl_khr_il_program", "cl_khr_gl_sharing",
        "cl_khr_semaphore", "cl_khr_external_memory", "cl_pocl_content_size",
    };
    for (size_t k = 0; k < sizeof routed_elsewhere / sizeof routed_elsewhere[0]; k++)
        EXPECT(!has_word(ext, routed_elsewhere[k]), "%s offered", routed_elsewhere[k]);
    /* Kernel-language extensions (no host entry point) every member has are kept. */
    static const char *const language[] = {
        "cl_khr_fp64", "cl_khr_byte_addressable_store", "cl_khr_int64_base_atomics",
        "cl_khr_global_int32_base_atomics", "cl_khr_local_int32_extended_atomics",
        "cl_khr_3d_image_writes",
    };
    for (size_t k = 0; k < sizeof language / sizeof language[0]; k++) {
        int everywhere = 1;
        for (int i = 0; i < n; i++)
            everywhere &= has_word(mext[i], language[k]);
        EXPECT(!everywhere || has_word(ext, language[k]), "%s dropped", language[k]);
    }
    /* The versioned list names the same extensions, in the same order. */
    cl_name_version list[128];
    size_t bytes = 0;
    CL_CHECK(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS_WITH_VERSION, sizeof list, list, &bytes));
    size_t nlist = bytes / sizeof list[0];
    EXPECT(nlist == nwords, "%zu versioned, %zu named", nlist, nwords);
    snprintf(copy, sizeof copy, "%s", ext);
    char *w = strtok(copy, " ");
    for (size_t i = 0; i < nlist && w; i++, w = strtok(NULL, " "))
        EXPECT(!strcmp(list[i].name, w) && list[i].version != 0, "versioned %zu: %s vs %s", i,
               list[i].name, w);
}

int main(void)
{
    cl_platform_id plats[8];
    cl_uint np = 0;
    CL_CHECK(clGetPlatformIDs(8, plats, &np));
    char name[64] = "";
    CL_CHECK(clGetPlatformInfo(plats[0], CL_PLATFORM_NAME, sizeof name, name, NULL));
    EXPECT(!strcmp(name, "SKMD") && np >= 2, "needs SKMD_SHOW_REAL=1 under libskmd ('%s', %u)",
           name, np);
    if (strcmp(name, "SKMD") != 0 || np < 2)
        return check_report("devinfo");
    cl_device_id skmd, members[16];
    int n = 0;
    CL_CHECK(clGetDeviceIDs(plats[0], CL_DEVICE_TYPE_ALL, 1, &skmd, NULL));
    for (cl_uint p = 1; p < np && p < 8; p++) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, (cl_uint)(16 - n), members + n, &nd) ==
            CL_SUCCESS)
            n += (int)nd;
    }
    printf("members: %d\n", n);
    check_device(skmd, members, n);
    /* A sub-device of the last member alone answers as that member. */
    if (n >= 2) {
        cl_uint units = 0, total = 0;
        CL_CHECK(clGetDeviceInfo(members[n - 1], CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units,
                                 &units, NULL));
        CL_CHECK(clGetDeviceInfo(skmd, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof total, &total, NULL));
        cl_device_partition_property props[] = {
            CL_DEVICE_PARTITION_BY_COUNTS, (cl_device_partition_property)(total - units),
            (cl_device_partition_property)units, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
        cl_device_id subs[2];
        CL_CHECK(clCreateSubDevices(skmd, props, 2, subs, NULL));
        check_device(subs[1], &members[n - 1], 1);
        check_device(subs[0], members, n - 1);
        clReleaseDevice(subs[0]);
        clReleaseDevice(subs[1]);
    }
    return check_report("devinfo");
}
