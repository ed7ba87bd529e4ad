/* libskmd/info.c: clGetDeviceInfo of the SKMD device, answered by combining the members'
 * answers (docs/interposer.md lists the rule of every query). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <CL/cl_ext.h>

#include "api.h"
#include "error.h"
#include "impl.h"
#include "info.h"
#include "object.h"
#include "version.h"

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

cl_int skmd_info_string(const struct skmd_info *out, const char *s)
{
    return skmd_info_bytes(out, s, strlen(s) + 1);
}

enum rule {
    FIRST,  /* the first member's answer */
    MIN,    /* a limit: the smallest is safe on every member */
    MAX,    /* an alignment or granularity: the largest satisfies every member */
    SUM,    /* compute units: the SKMD device has them all */
    AND,    /* a cl_bool capability: only if every member has it */
    BITAND, /* a capability bitfield: the bits every member has */
};

static const struct {
    cl_device_info param;
    enum rule rule;
} rules[] = {
    {CL_DEVICE_MAX_COMPUTE_UNITS, SUM},
    {CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, MIN},
    {CL_DEVICE_MAX_WORK_GROUP_SIZE, MIN},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, MIN},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, MIN},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, MIN},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, MIN},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, MIN},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, MIN},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, MIN},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, MIN},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, MIN},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, MIN},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, MIN},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, MIN},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, MIN},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, MIN},
    {CL_DEVICE_MAX_CLOCK_FREQUENCY, MIN},
    {CL_DEVICE_ADDRESS_BITS, MIN},
    {CL_DEVICE_MAX_READ_IMAGE_ARGS, MIN},
    {CL_DEVICE_MAX_WRITE_IMAGE_ARGS, MIN},
    {CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, MIN},
    {CL_DEVICE_MAX_MEM_ALLOC_SIZE, MIN},
    {CL_DEVICE_IMAGE2D_MAX_WIDTH, MIN},
    {CL_DEVICE_IMAGE2D_MAX_HEIGHT, MIN},
    {CL_DEVICE_IMAGE3D_MAX_WIDTH, MIN},
    {CL_DEVICE_IMAGE3D_MAX_HEIGHT, MIN},
    {CL_DEVICE_IMAGE3D_MAX_DEPTH, MIN},
    {CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, MIN},
    {CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, MIN},
    {CL_DEVICE_IMAGE_SUPPORT, AND},
    {CL_DEVICE_MAX_PARAMETER_SIZE, MIN},
    {CL_DEVICE_MAX_SAMPLERS, MIN},
    {CL_DEVICE_MEM_BASE_ADDR_ALIGN, MAX},
    {CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, MAX},
    {CL_DEVICE_SINGLE_FP_CONFIG, BITAND},
    {CL_DEVICE_DOUBLE_FP_CONFIG, BITAND},
    {CL_DEVICE_HALF_FP_CONFIG, BITAND},
    {CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, MIN},
    {CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, MIN},
    {CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, MIN},
    {CL_DEVICE_GLOBAL_MEM_SIZE, MIN},
    {CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, MIN},
    {CL_DEVICE_MAX_CONSTANT_ARGS, MIN},
    {CL_DEVICE_LOCAL_MEM_TYPE, MAX}, /* CL_GLOBAL (2) if any member emulates it */
    {CL_DEVICE_LOCAL_MEM_SIZE, MIN},
    {CL_DEVICE_ERROR_CORRECTION_SUPPORT, AND},
    {CL_DEVICE_HOST_UNIFIED_MEMORY, AND},
    {CL_DEVICE_PROFILING_TIMER_RESOLUTION, MAX},
    {CL_DEVICE_ENDIAN_LITTLE, AND},
    {CL_DEVICE_AVAILABLE, AND},
    {CL_DEVICE_COMPILER_AVAILABLE, AND},
    {CL_DEVICE_LINKER_AVAILABLE, AND},
    {CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, BITAND},
    {CL_DEVICE_PRINTF_BUFFER_SIZE, MIN},
    {CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, AND},
    {CL_DEVICE_IMAGE_PITCH_ALIGNMENT, MAX},
    {CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, MAX},
    {CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, MIN},
    {CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, MIN},
    {CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, MAX},
    {CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, MAX},
    {CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, MAX},
    {CL_DEVICE_MAX_NUM_SUB_GROUPS, MIN},
    {CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, AND},
    {CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, BITAND},
    {CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, BITAND},
    {CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, AND},
    {CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, AND},
    {CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, AND},
    {CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, FIRST},
};

static cl_int member_query(int i, cl_device_info param, void *buf, size_t size, size_t *ret)
{
    return real_clGetDeviceInfo(skmd_state.members[i].real_device, param, size, buf, ret);
}

/* "OpenCL 3.0 ..." / "OpenCL C 1.2 ..." -> major*10+minor of the weakest member. */
static int min_version(cl_device_info param, const char *prefix)
{
    int best = 99;
    for (int i = 0; i < skmd_state.nmembers; i++) {
        char text[256] = "";
        int major = 1, minor = 0;
        member_query(i, param, text, sizeof text, NULL);
        if (strncmp(text, prefix, strlen(prefix)) == 0)
            sscanf(text + strlen(prefix), "%d.%d", &major, &minor);
        if (major * 10 + minor < best)
            best = major * 10 + minor;
    }
    return best;
}

/* The SKMD device offers no SVM, pipes or on-device queues, which OpenCL 2.x requires:
 * a 2.x weakest member makes it a 1.2 device; 3.0 makes them optional. */
void skmd_device_version(int *major, int *minor)
{
    int v = min_version(CL_DEVICE_VERSION, "OpenCL ");
    if (v >= 20 && v < 30)
        v = 12;
    *major = v / 10;
    *minor = v % 10;
}

static int c_version(void)
{
    int major, minor;
    skmd_device_version(&major, &minor);
    int c = min_version(CL_DEVICE_OPENCL_C_VERSION, "OpenCL C ");
    return c > major * 10 + minor ? major * 10 + minor : c;
}

/* Extensions with host entry points that libskmd does not provide, or promises it cannot
 * keep for a device made of several. */
static int extension_offered(const char *name, size_t len)
{
    static const char *const refused[] = {
        "cl_khr_icd", "cl_khr_il_program", "cl_khr_subgroups", "cl_khr_command_buffer",
        "cl_khr_create_command_queue", "cl_khr_suggested_local_work_size",
        "cl_khr_gl_sharing", "cl_khr_gl_event", "cl_khr_egl_image", "cl_khr_egl_event",
        "cl_khr_d3d10_sharing", "cl_khr_d3d11_sharing", "cl_khr_dx9_media_sharing",
        "cl_khr_terminate_context", "cl_khr_semaphore", "cl_khr_external_memory",
        "cl_khr_external_semaphore", "cl_khr_priority_hints", "cl_khr_throttle_hints",
        "cl_khr_spir", "cl_khr_device_uuid", "cl_khr_pci_bus_info", "cl_khr_image2d_from_buffer",
    };
    if (len < 7 || strncmp(name, "cl_khr_", 7) != 0)
        return 0;
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if (strlen(refused[i]) == len && strncmp(refused[i], name, len) == 0)
            return 0;
    return 1;
}

static int has_word(const char *list, const char *word, size_t len)
{
    for (const char *p = list; *p;) {
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, " ");
        if (n == len && strncmp(p, word, len) == 0)
            return 1;
        p += n;
    }
    return 0;
}

/* The words of `lists[0]` found in every other list and offered, space-separated. */
static void intersect_words(char lists[][4096], int n, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (const char *p = lists[0]; *p;) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " ");
        int keep = len > 0 && extension_offered(p, len);
        for (int i = 1; keep && i < n; i++)
            keep = has_word(lists[i], p, len);
        if (keep && used + len + 2 < size) {
            used += (size_t)snprintf(out + used, size - used, "%s%.*s", used ? " " : "",
                                     (int)len, p);
        }
        p += len;
    }
}

static void device_extensions(char *out, size_t size)
{
    static char lists[SKMD_MAX_MEMBERS][4096];
    for (int i = 0; i < skmd_state.nmembers; i++) {
        lists[i][0] = '\0';
        member_query(i, CL_DEVICE_EXTENSIONS, lists[i], sizeof lists[i], NULL);
    }
    intersect_words(lists, skmd_state.nmembers, out, size);
}

void skmd_platform_extensions(char *out, size_t size)
{
    static char lists[SKMD_MAX_PLATFORMS][4096];
    for (int i = 0; i < skmd_state.nplatforms; i++) {
        lists[i][0] = '\0';
        real_clGetPlatformInfo(skmd_state.platforms[i], CL_PLATFORM_EXTENSIONS,
                               sizeof lists[i], lists[i], NULL);
    }
    size_t n = (size_t)snprintf(out, size, "cl_khr_icd");
    if (skmd_state.nplatforms > 0 && n + 1 < size) {
        out[n] = ' ';
        intersect_words(lists, skmd_state.nplatforms, out + n + 1, size - n - 1);
        if (!out[n + 1])
            out[n] = '\0';
    }
}

/* name/version pairs of a space-separated list; the version is the first member's. */
static size_t versioned(const char *names, cl_device_info param, cl_name_version *list,
                        size_t max)
{
    cl_name_version known[256];
    size_t known_bytes = 0, n = 0;
    if (skmd_state.nmembers &&
        member_query(0, param, known, sizeof known, &known_bytes) != CL_SUCCESS)
        known_bytes = 0;
    for (const char *p = names; *p && n < max;) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " ");
        if (!len)
            break;
        memset(&list[n], 0, sizeof list[n]);
        snprintf(list[n].name, sizeof list[n].name, "%.*s", (int)len, p);
        list[n].version = CL_MAKE_VERSION(1, 0, 0);
        for (size_t k = 0; k < known_bytes / sizeof known[0]; k++)
            if (strcmp(known[k].name, list[n].name) == 0)
                list[n].version = known[k].version;
        n++;
        p += len;
    }
    return n;
}

size_t skmd_platform_extensions_versioned(cl_name_version *list, size_t max)
{
    char names[4096];
    skmd_platform_extensions(names, sizeof names);
    /* Platform extension versions are asked of the first member's device: close enough
     * for cl_khr_icd, the only one commonly listed. */
    return versioned(names, CL_DEVICE_EXTENSIONS_WITH_VERSION, list, max);
}

void skmd_device_string(cl_device_info param, char *buf, size_t size)
{
    int major, minor;
    switch (param) {
    case CL_DEVICE_PROFILE:
        snprintf(buf, size, "FULL_PROFILE");
        for (int i = 0; i < skmd_state.nmembers; i++) {
            char p[64] = "";
            member_query(i, CL_DEVICE_PROFILE, p, sizeof p, NULL);
            if (strcmp(p, "EMBEDDED_PROFILE") == 0)
                snprintf(buf, size, "EMBEDDED_PROFILE");
        }
        break;
    case CL_DEVICE_VERSION:
        skmd_device_version(&major, &minor);
        snprintf(buf, size, "OpenCL %d.%d libskmd", major, minor);
        break;
    case CL_DEVICE_OPENCL_C_VERSION: {
        int c = c_version();
        snprintf(buf, size, "OpenCL C %d.%d libskmd", c / 10, c % 10);
        break;
    }
    case CL_DEVICE_NAME: {
        size_t used = (size_t)snprintf(buf, size, "SKMD (");
        for (int i = 0; i < skmd_state.nmembers && used < size; i++)
            used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? " + " : "",
                                     skmd_state.members[i].name);
        if (used + 2 <= size)
            strcat(buf, ")");
        break;
    }
    case CL_DEVICE_EXTENSIONS:
        device_extensions(buf, size);
        break;
    default:
        buf[0] = '\0';
    }
}

/* The device type apps expect to compare with ==: GPU if any member is one, else
 * accelerator, else CPU. */
static cl_device_type device_type(void)
{
    cl_device_type all = 0;
    for (int i = 0; i < skmd_state.nmembers; i++)
        all |= skmd_state.members[i].type;
    if (all & CL_DEVICE_TYPE_GPU)
        return CL_DEVICE_TYPE_GPU;
    if (all & CL_DEVICE_TYPE_ACCELERATOR)
        return CL_DEVICE_TYPE_ACCELERATOR;
    return CL_DEVICE_TYPE_CPU;
}

static cl_int combine(const struct skmd_info *out, cl_device_info param, enum rule rule)
{
    unsigned char buf[256];
    size_t n = 0;
    cl_int err = member_query(0, param, buf, sizeof buf, &n);
    if (err != CL_SUCCESS)
        return err;
    if (rule == FIRST || (n != 4 && n != 8))
        return skmd_info_bytes(out, buf, n);
    cl_ulong acc = n == 4 ? *(cl_uint *)buf : *(cl_ulong *)buf;
    for (int i = 1; i < skmd_state.nmembers; i++) {
        unsigned char other[8] = {0};
        size_t m = 0;
        err = member_query(i, param, other, sizeof other, &m);
        if (err != CL_SUCCESS)
            return err;
        cl_ulong v = m == 4 ? *(cl_uint *)other : *(cl_ulong *)other;
        switch (rule) {
        case MIN: acc = v < acc ? v : acc; break;
        case MAX: acc = v > acc ? v : acc; break;
        case SUM: acc += v; break;
        case AND: acc = acc && v; break;
        case BITAND: acc &= v; break;
        case FIRST: break;
        }
    }
    if (n == 4) {
        cl_uint v32 = (cl_uint)acc;
        return skmd_info_bytes(out, &v32, 4);
    }
    return skmd_info_bytes(out, &acc, 8);
}

static cl_int work_item_sizes(const struct skmd_info *out)
{
    size_t sizes[16], dims = 16;
    cl_uint d = 0;
    for (int i = 0; i < skmd_state.nmembers; i++) {
        size_t s[16] = {0};
        member_query(i, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, &d, sizeof d, NULL);
        if (d < dims)
            dims = d;
        member_query(i, CL_DEVICE_MAX_WORK_ITEM_SIZES, s, sizeof s, NULL);
        for (int k = 0; k < 16; k++)
            sizes[k] = i == 0 || s[k] < sizes[k] ? s[k] : sizes[k];
    }
    return skmd_info_bytes(out, sizes, dims * sizeof sizes[0]);
}

/* C versions every member supports, capped at the SKMD device's version. */
static cl_int c_all_versions(const struct skmd_info *out)
{
    cl_name_version first[32], keep[32];
    size_t bytes = 0, n = 0;
    int major, minor;
    skmd_device_version(&major, &minor);
    if (member_query(0, CL_DEVICE_OPENCL_C_ALL_VERSIONS, first, sizeof first, &bytes) !=
        CL_SUCCESS)
        bytes = 0;
    for (size_t k = 0; k < bytes / sizeof first[0]; k++) {
        int ok = (int)CL_VERSION_MAJOR(first[k].version) * 10 +
                     (int)CL_VERSION_MINOR(first[k].version) <= major * 10 + minor;
        for (int i = 1; ok && i < skmd_state.nmembers; i++) {
            cl_name_version other[32];
            size_t ob = 0;
            ok = 0;
            if (member_query(i, CL_DEVICE_OPENCL_C_ALL_VERSIONS, other, sizeof other, &ob) ==
                CL_SUCCESS)
                for (size_t j = 0; j < ob / sizeof other[0]; j++)
                    ok |= other[j].version == first[k].version;
        }
        if (ok)
            keep[n++] = first[k];
    }
    return skmd_info_bytes(out, keep, n * sizeof keep[0]);
}

/* OpenCL C features every member has, less those of things the SKMD device lacks. */
static cl_int c_features(const struct skmd_info *out)
{
    cl_name_version first[64], keep[64];
    size_t bytes = 0, n = 0;
    if (member_query(0, CL_DEVICE_OPENCL_C_FEATURES, first, sizeof first, &bytes) !=
        CL_SUCCESS)
        bytes = 0;
    for (size_t k = 0; k < bytes / sizeof first[0]; k++) {
        int ok = strcmp(first[k].name, "__opencl_c_device_enqueue") != 0 &&
                 strcmp(first[k].name, "__opencl_c_pipes") != 0;
        for (int i = 1; ok && i < skmd_state.nmembers; i++) {
            cl_name_version other[64];
            size_t ob = 0;
            ok = 0;
            if (member_query(i, CL_DEVICE_OPENCL_C_FEATURES, other, sizeof other, &ob) ==
                CL_SUCCESS)
                for (size_t j = 0; j < ob / sizeof other[0]; j++)
                    ok |= strcmp(other[j].name, first[k].name) == 0;
        }
        if (ok)
            keep[n++] = first[k];
    }
    return skmd_info_bytes(out, keep, n * sizeof keep[0]);
}

cl_int skmd_clGetDeviceInfo(cl_device_id device, cl_device_info param_name,
                            size_t param_value_size, void *param_value,
                            size_t *param_value_size_ret)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(device, DEVICE), CL_INVALID_DEVICE);
    SKMD_RETURN_ERROR_IF(skmd_state.nmembers == 0, CL_DEVICE_NOT_AVAILABLE);
    struct skmd_info out = {param_value_size, param_value, param_value_size_ret};
    static char text[8192];
    static pthread_mutex_t text_lock = PTHREAD_MUTEX_INITIALIZER;
    cl_ulong zero = 0;
    cl_uint zero32 = 0;
    cl_int err;
    int major, minor;

    switch (param_name) {
    case CL_DEVICE_TYPE: {
        cl_device_type t = device_type();
        return skmd_info_bytes(&out, &t, sizeof t);
    }
    case CL_DEVICE_VENDOR_ID: {
        cl_uint first = 0, other = 0;
        member_query(0, CL_DEVICE_VENDOR_ID, &first, sizeof first, NULL);
        for (int i = 1; i < skmd_state.nmembers; i++) {
            member_query(i, CL_DEVICE_VENDOR_ID, &other, sizeof other, NULL);
            if (other != first)
                first = 0;
        }
        return skmd_info_bytes(&out, &first, sizeof first);
    }
    case CL_DEVICE_PLATFORM: {
        cl_platform_id p = &skmd_state.platform;
        return skmd_info_bytes(&out, &p, sizeof p);
    }
    case CL_DEVICE_PARENT_DEVICE: {
        cl_device_id none = NULL;
        return skmd_info_bytes(&out, &none, sizeof none);
    }
    case CL_DEVICE_REFERENCE_COUNT: {
        cl_uint one = 1;
        return skmd_info_bytes(&out, &one, sizeof one);
    }
    case CL_DEVICE_VENDOR:
        return skmd_info_string(&out, "libskmd");
    case CL_DRIVER_VERSION:
        return skmd_info_string(&out, "libskmd " SKMD_VERSION);
    case CL_DEVICE_BUILT_IN_KERNELS:
    case CL_DEVICE_IL_VERSION:
        return skmd_info_string(&out, "");
    case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED:
        return skmd_info_string(&out, "v0000-01-01-00");
    case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
    case CL_DEVICE_ILS_WITH_VERSION:
        return skmd_info_bytes(&out, NULL, 0);
    case CL_DEVICE_NUMERIC_VERSION: {
        skmd_device_version(&major, &minor);
        cl_version v = CL_MAKE_VERSION(major, minor, 0);
        return skmd_info_bytes(&out, &v, sizeof v);
    }
    case CL_DEVICE_PROFILE:
    case CL_DEVICE_VERSION:
    case CL_DEVICE_OPENCL_C_VERSION:
    case CL_DEVICE_NAME:
    case CL_DEVICE_EXTENSIONS:
        pthread_mutex_lock(&text_lock);
        skmd_device_string(param_name, text, sizeof text);
        err = skmd_info_string(&out, text);
        pthread_mutex_unlock(&text_lock);
        return err;
    case CL_DEVICE_EXTENSIONS_WITH_VERSION: {
        static cl_name_version list[128];
        pthread_mutex_lock(&text_lock);
        device_extensions(text, sizeof text);
        size_t n = versioned(text, CL_DEVICE_EXTENSIONS_WITH_VERSION, list, 128);
        err = skmd_info_bytes(&out, list, n * sizeof list[0]);
        pthread_mutex_unlock(&text_lock);
        return err;
    }
    case CL_DEVICE_MAX_WORK_ITEM_SIZES:
        return work_item_sizes(&out);
    case CL_DEVICE_OPENCL_C_ALL_VERSIONS:
        return c_all_versions(&out);
    case CL_DEVICE_OPENCL_C_FEATURES:
        return c_features(&out);
    /* Things the SKMD device does not offer. */
    case CL_DEVICE_EXECUTION_CAPABILITIES: {
        cl_device_exec_capabilities kernels = CL_EXEC_KERNEL; /* no native kernels */
        return skmd_info_bytes(&out, &kernels, sizeof kernels);
    }
    case CL_DEVICE_SVM_CAPABILITIES:
    case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
    case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
        return skmd_info_bytes(&out, &zero, sizeof zero);
    case CL_DEVICE_PARTITION_PROPERTIES:
    case CL_DEVICE_PARTITION_TYPE: {
        cl_device_partition_property none = 0;
        return skmd_info_bytes(&out, &none, sizeof none);
    }
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
    case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
    case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
    case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
    case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
    case CL_DEVICE_PIPE_SUPPORT:
    case CL_DEVICE_MAX_PIPE_ARGS:
    case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
    case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
        return skmd_info_bytes(&out, &zero32, sizeof zero32);
    default:
        break;
    }
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (rules[i].param == param_name)
            return combine(&out, param_name, rules[i].rule);
    /* Not a core query (an extension's): the first member's answer, if all agree it
     * exists. */
    return combine(&out, param_name, FIRST);
}
