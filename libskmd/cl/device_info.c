/* libskmd/cl/device_info.c: clGetDeviceInfo of the SKMD device (or a sub-device), its
 * numbers and lists combined from the members' answers by one rule a query
 * (docs/interposer.md lists the rule of every query); its text answers are device_text.c's. */
#include <stdlib.h>
#include <string.h>
#include <CL/cl_ext.h>

#include "support/error.h"
#include "cl/impl.h"
#include "cl/member_set.h"
#include "support/object.h"
#include "support/version.h"

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

/* The device type apps expect to compare with ==: GPU if any member is one, else
 * accelerator, else CPU. */
static cl_device_type device_type(const struct skmd_member_set *set)
{
    cl_device_type all = 0;
    for (int i = 0; i < set->n; i++)
        all |= skmd_state.members[set->at[i]].type;
    if (all & CL_DEVICE_TYPE_GPU)
        return CL_DEVICE_TYPE_GPU;
    if (all & CL_DEVICE_TYPE_ACCELERATOR)
        return CL_DEVICE_TYPE_ACCELERATOR;
    return CL_DEVICE_TYPE_CPU;
}

static cl_int combine(const struct skmd_member_set *set, const struct skmd_info *out,
                      cl_device_info param, enum rule rule)
{
    unsigned char buf[256];
    size_t n = 0;
    cl_int err = skmd_member_query(set->at[0], param, buf, sizeof buf, &n);
    if (err != CL_SUCCESS)
        return err;
    if (rule == FIRST || (n != 4 && n != 8))
        return skmd_info_bytes(out, buf, n);
    cl_ulong acc = n == 4 ? *(cl_uint *)buf : *(cl_ulong *)buf;
    for (int i = 1; i < set->n; i++) {
        unsigned char other[8] = {0};
        size_t m = 0;
        err = skmd_member_query(set->at[i], param, other, sizeof other, &m);
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

static cl_int work_item_sizes(const struct skmd_member_set *set, const struct skmd_info *out)
{
    size_t sizes[16], dims = 16;
    cl_uint d = 0;
    for (int i = 0; i < set->n; i++) {
        size_t s[16] = {0};
        skmd_member_query(set->at[i], CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, &d, sizeof d, NULL);
        if (d < dims)
            dims = d;
        skmd_member_query(set->at[i], CL_DEVICE_MAX_WORK_ITEM_SIZES, s, sizeof s, NULL);
        for (int k = 0; k < 16; k++)
            sizes[k] = i == 0 || s[k] < sizes[k] ? s[k] : sizes[k];
    }
    return skmd_info_bytes(out, sizes, dims * sizeof sizes[0]);
}

/* The entries of the first member's name/version list `param` (at most `cap`, at most 64)
 * that `wanted` keeps and that every other member lists too (`same`: how two entries
 * match), into keep; their count. */
static size_t in_every_member(const struct skmd_member_set *set, cl_device_info param,
                              size_t cap, int (*wanted)(const cl_name_version *, int),
                              int limit,
                              int (*same)(const cl_name_version *, const cl_name_version *),
                              cl_name_version *keep)
{
    cl_name_version first[64];
    size_t bytes = 0, n = 0;
    if (skmd_member_query(set->at[0], param, first, cap * sizeof first[0], &bytes) !=
        CL_SUCCESS)
        bytes = 0;
    for (size_t k = 0; k < bytes / sizeof first[0]; k++) {
        int ok = wanted(&first[k], limit);
        for (int i = 1; ok && i < set->n; i++) {
            cl_name_version other[64];
            size_t ob = 0;
            ok = 0;
            if (skmd_member_query(set->at[i], param, other, cap * sizeof other[0], &ob) ==
                CL_SUCCESS)
                for (size_t j = 0; j < ob / sizeof other[0]; j++)
                    ok |= same(&other[j], &first[k]);
        }
        if (ok)
            keep[n++] = first[k];
    }
    return n;
}

/* A C version no newer than `limit` (major*10+minor). */
static int version_within(const cl_name_version *v, int limit)
{
    return (int)CL_VERSION_MAJOR(v->version) * 10 + (int)CL_VERSION_MINOR(v->version) <=
           limit;
}

static int same_version(const cl_name_version *a, const cl_name_version *b)
{
    return a->version == b->version;
}

/* A feature of something the SKMD device has (it lacks device enqueue and pipes). */
static int feature_offered(const cl_name_version *f, int unused)
{
    (void)unused;
    return strcmp(f->name, "__opencl_c_device_enqueue") != 0 &&
           strcmp(f->name, "__opencl_c_pipes") != 0;
}

static int same_name(const cl_name_version *a, const cl_name_version *b)
{
    return strcmp(a->name, b->name) == 0;
}

/* C versions every member supports, capped at the SKMD device's version. */
static cl_int c_all_versions(const struct skmd_member_set *set, const struct skmd_info *out)
{
    cl_name_version keep[32];
    int major, minor;
    skmd_set_version(set, &major, &minor);
    size_t n = in_every_member(set, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 32, version_within,
                               major * 10 + minor, same_version, keep);
    return skmd_info_bytes(out, keep, n * sizeof keep[0]);
}

/* OpenCL C features every member has, less those of things the SKMD device lacks. */
static cl_int c_features(const struct skmd_member_set *set, const struct skmd_info *out)
{
    cl_name_version keep[64];
    size_t n = in_every_member(set, CL_DEVICE_OPENCL_C_FEATURES, 64, feature_offered, 0,
                               same_name, keep);
    return skmd_info_bytes(out, keep, n * sizeof keep[0]);
}

/* Whether `s` is a conformance version as the spec writes it: vYYYY-MM-DD-XX. */
static int conformance_form(const char *s)
{
    static const char form[] = "v9999-99-99-99";
    if (strlen(s) != sizeof form - 1)
        return 0;
    for (size_t i = 0; form[i]; i++)
        if (form[i] == '9' ? (s[i] < '0' || s[i] > '9') : s[i] != form[i])
            return 0;
    return 1;
}

/* The oldest conformance version any member passed (the members' when they agree):
 * the SKMD device is no better tested than its least tested member. A member that does
 * not answer (before OpenCL 3.0) makes the SKMD device a pre-3.0 one: its error. */
static cl_int conformance(const struct skmd_member_set *set, const struct skmd_info *out)
{
    char oldest[64] = "";
    for (int i = 0; i < set->n; i++) {
        char v[64] = "";
        cl_int err = skmd_member_query(set->at[i], CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED,
                                  v, sizeof v - 1, NULL);
        if (err != CL_SUCCESS)
            return err;
        /* Same-width dates: the text order is the time order. */
        if (conformance_form(v) && (!oldest[0] || strcmp(v, oldest) < 0))
            memcpy(oldest, v, sizeof oldest);
    }
    SKMD_RETURN_ERROR_IF(!oldest[0], CL_INVALID_VALUE); /* no member gave a valid one */
    return skmd_info_string(out, oldest);
}

cl_uint skmd_member_units(int m)
{
    cl_uint units = 0;
    if (skmd_member_query(m, CL_DEVICE_MAX_COMPUTE_UNITS, &units, sizeof units, NULL) !=
            CL_SUCCESS || units == 0)
        units = 1;
    return units;
}

cl_int skmd_clGetDeviceInfo(cl_device_id device, cl_device_info param_name,
                            size_t param_value_size, void *param_value,
                            size_t *param_value_size_ret)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(device, DEVICE), CL_INVALID_DEVICE);
    SKMD_RETURN_ERROR_IF(skmd_state.nmembers == 0 || !device->members, CL_DEVICE_NOT_AVAILABLE);
    struct skmd_info out = {param_value_size, param_value, param_value_size_ret};
    const struct skmd_member_set set = skmd_member_set_of(device);
    cl_ulong zero = 0;
    cl_uint zero32 = 0;
    int major, minor;

    switch (param_name) {
    case CL_DEVICE_TYPE: {
        cl_device_type t = device_type(&set);
        return skmd_info_bytes(&out, &t, sizeof t);
    }
    case CL_DEVICE_VENDOR_ID: {
        /* The members' when they agree; else the executing member's: its vendor's code
         * paths, which apps pick by this ID, run at least wherever launches run whole. */
        cl_uint first = 0, other = 0, exec = 0;
        skmd_member_query(set.at[0], CL_DEVICE_VENDOR_ID, &first, sizeof first, NULL);
        skmd_member_query(device->exec, CL_DEVICE_VENDOR_ID, &exec, sizeof exec, NULL);
        for (int i = 1; i < set.n; i++) {
            skmd_member_query(set.at[i], CL_DEVICE_VENDOR_ID, &other, sizeof other, NULL);
            if (other != first)
                first = exec;
        }
        return skmd_info_bytes(&out, &first, sizeof first);
    }
    case CL_DEVICE_PLATFORM: {
        cl_platform_id p = &skmd_state.platform;
        return skmd_info_bytes(&out, &p, sizeof p);
    }
    case CL_DEVICE_PARENT_DEVICE:
        return skmd_info_bytes(&out, &device->parent, sizeof device->parent);
    case CL_DEVICE_REFERENCE_COUNT: {
        /* A root device's is 1, whatever the app retains (the spec's rule). */
        cl_uint n = device->parent ? atomic_load(&device->obj.refcount) : 1;
        return skmd_info_bytes(&out, &n, sizeof n);
    }
    case CL_DEVICE_VENDOR:
        return skmd_info_string(&out, "libskmd");
    case CL_DRIVER_VERSION:
        return skmd_info_string(&out, "libskmd " SKMD_VERSION);
    case CL_DEVICE_BUILT_IN_KERNELS:
    case CL_DEVICE_IL_VERSION:
        return skmd_info_string(&out, "");
    case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED:
        return conformance(&set, &out);
    case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
    case CL_DEVICE_ILS_WITH_VERSION:
        return skmd_info_bytes(&out, NULL, 0);
    case CL_DEVICE_NUMERIC_VERSION: {
        skmd_set_version(&set, &major, &minor);
        cl_version v = CL_MAKE_VERSION(major, minor, 0);
        return skmd_info_bytes(&out, &v, sizeof v);
    }
    case CL_DEVICE_PROFILE:
    case CL_DEVICE_VERSION:
    case CL_DEVICE_OPENCL_C_VERSION:
    case CL_DEVICE_NAME:
    case CL_DEVICE_EXTENSIONS:
        return skmd_set_text_info(&set, param_name, &out);
    case CL_DEVICE_EXTENSIONS_WITH_VERSION:
        return skmd_set_extensions_info(&set, &out);
    case CL_DEVICE_MAX_WORK_ITEM_SIZES:
        return work_item_sizes(&set, &out);
    case CL_DEVICE_OPENCL_C_ALL_VERSIONS:
        return c_all_versions(&set, &out);
    case CL_DEVICE_OPENCL_C_FEATURES:
        return c_features(&set, &out);
    /* Partitions: into subsets of whole members (platform.c), so a device of one member
     * has none. */
    case CL_DEVICE_PARTITION_PROPERTIES: {
        cl_device_partition_property types[] = {CL_DEVICE_PARTITION_EQUALLY,
                                                CL_DEVICE_PARTITION_BY_COUNTS, 0};
        if (set.n < 2) /* none: one 0 */
            return skmd_info_bytes(&out, &types[2], sizeof types[2]);
        return skmd_info_bytes(&out, types, 2 * sizeof types[0]);
    }
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: {
        cl_uint n = set.n < 2 ? 0 : (cl_uint)set.n;
        return skmd_info_bytes(&out, &n, sizeof n);
    }
    case CL_DEVICE_PARTITION_TYPE: {
        cl_device_partition_property none = 0;
        if (!device->parent)
            return skmd_info_bytes(&out, &none, sizeof none);
        return skmd_info_bytes(&out, device->partition,
                               device->npartition * sizeof device->partition[0]);
    }
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
            return combine(&set, &out, param_name, rules[i].rule);
    /* Not a core query (an extension's): the first member's answer, if all agree it
     * exists. */
    return combine(&set, &out, param_name, FIRST);
}
