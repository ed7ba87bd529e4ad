/* fuzz_ndrange: libFuzzer harness for libskmd's kernel-argument and NDRange path. It is
 * linked with libskmd's objects (so the clXxx it calls are libskmd's), which forward to the
 * real devices (PoCL here; see docs/fuzzing.md for the environment).
 *
 * Once: the SKMD platform's device, a context, a queue, a program with one tiny kernel,
 * two buffers and a sampler. Per input: a fresh kernel, then the input decoded into a
 * sequence of clSetKernelArg (index, size, value: NULL, live buffer, sampler, released
 * buffer, other handle kinds, raw bytes) and clEnqueueNDRangeKernel (work_dim 0..4; global,
 * local, offset arrays NULL or with zeros, ones, huge and non-dividing values; wait lists)
 * calls. Each call must return CL_SUCCESS or an error code the specification lists for it,
 * and the codes the specification fixes for a given mistake (bad index, bad work_dim, bad
 * wait list, __local argument misuse, ...) are checked exactly. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateCommandQueue, clCreateSampler: 1.2 apps use them */
#include <CL/cl.h>

/* Writes in bounds whatever the launch: at most BUF_INTS items, tmp[0] only, and no
 * access through a NULL buffer argument (which clSetKernelArg allows). */
static const char *kernel_source =
    "__kernel void fz(__global int *out, __global const int *in, int n,\n"
    "                 __local char *tmp) {\n"
    "    size_t i = get_global_id(0) + get_global_id(1) * 7 + get_global_id(2) * 13;\n"
    "    tmp[0] = (char)n;\n"
    "    if (out && in && i < 1024 && (long)i < (long)n) out[i] = in[i] + tmp[0];\n"
    "}\n";
#define BUF_INTS 1024
#define NPARAMS 4

static cl_context context;
static cl_command_queue queue;
static cl_program program;
static cl_mem buf_out, buf_in;
static cl_sampler sampler;
static size_t max_wg, max_items[3];
static int verbose; /* SKMD_FUZZ_VERBOSE: print every call (to read a crasher) */

#define DIE(...)                                                                            \
    do {                                                                                    \
        fprintf(stderr, "fuzz_ndrange: " __VA_ARGS__);                                      \
        fputc('\n', stderr);                                                                \
        abort();                                                                            \
    } while (0)

/* Consumes the input a byte or a few at a time; zeros once it runs out. */
struct reader {
    const uint8_t *p;
    size_t n;
};
static uint8_t u8(struct reader *r)
{
    if (!r->n)
        return 0;
    r->n--;
    return *r->p++;
}
static uint64_t u64(struct reader *r)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)u8(r) << (8 * i);
    return v;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    verbose = getenv("SKMD_FUZZ_VERBOSE") != NULL;
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS)
        DIE("no OpenCL platform (is PoCL installed? POCL_DEVICES=pthread)");
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS)
        DIE("no device");
    clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_wg, &max_wg, NULL);
    clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof max_items, max_items, NULL);
    context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    if (!context)
        DIE("clCreateContext: %d", err);
    queue = clCreateCommandQueue(context, device, 0, &err);
    if (!queue)
        DIE("clCreateCommandQueue: %d", err);
    program = clCreateProgramWithSource(context, 1, &kernel_source, NULL, &err);
    if (!program || clBuildProgram(program, 1, &device, "", NULL, NULL) != CL_SUCCESS)
        DIE("cannot build the kernel");
    buf_out = clCreateBuffer(context, CL_MEM_READ_WRITE, BUF_INTS * sizeof(int), NULL, &err);
    buf_in = clCreateBuffer(context, CL_MEM_READ_WRITE, BUF_INTS * sizeof(int), NULL, &err);
    if (!buf_out || !buf_in)
        DIE("clCreateBuffer: %d", err);
    sampler = clCreateSampler(context, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &err);
    return 0;
}

static int one_of(cl_int err, const cl_int *codes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (err == codes[i])
            return 1;
    return 0;
}

/* OpenCL 3.0, clSetKernelArg's errors. */
static const cl_int set_arg_codes[] = {
    CL_SUCCESS, CL_INVALID_KERNEL, CL_INVALID_ARG_INDEX, CL_INVALID_ARG_VALUE,
    CL_INVALID_MEM_OBJECT, CL_INVALID_SAMPLER, CL_INVALID_DEVICE_QUEUE, CL_INVALID_ARG_SIZE,
    CL_MAX_SIZE_RESTRICTION_EXCEEDED, CL_OUT_OF_RESOURCES, CL_OUT_OF_HOST_MEMORY,
};
/* OpenCL 3.0, clEnqueueNDRangeKernel's errors. */
static const cl_int ndrange_codes[] = {
    CL_SUCCESS, CL_INVALID_PROGRAM_EXECUTABLE, CL_INVALID_COMMAND_QUEUE, CL_INVALID_KERNEL,
    CL_INVALID_CONTEXT, CL_INVALID_KERNEL_ARGS, CL_INVALID_WORK_DIMENSION,
    CL_INVALID_GLOBAL_WORK_SIZE, CL_INVALID_GLOBAL_OFFSET, CL_INVALID_WORK_GROUP_SIZE,
    CL_INVALID_WORK_ITEM_SIZE, CL_MISALIGNED_SUB_BUFFER_OFFSET, CL_INVALID_IMAGE_SIZE,
    CL_IMAGE_FORMAT_NOT_SUPPORTED, CL_OUT_OF_RESOURCES, CL_MEM_OBJECT_ALLOCATION_FAILURE,
    CL_INVALID_EVENT_WAIT_LIST, CL_INVALID_OPERATION, CL_OUT_OF_HOST_MEMORY,
};

static void set_arg(struct reader *r, cl_kernel k, cl_mem released)
{
    static const size_t sizes[] = {0, 1, 2, 4, 8, 16, sizeof(cl_mem)};
    /* value storage big enough for any size the decoder picks */
    static uint8_t raw[1 << 16];
    cl_uint index = u8(r) % (NPARAMS + 2);
    uint8_t size_pick = u8(r);
    size_t size = size_pick < 7 * 32 ? sizes[size_pick % 7] : u8(r) | (size_t)u8(r) << 8;
    uint8_t value_pick = u8(r) % 8;
    const void *value = NULL;
    cl_mem handle = NULL;
    cl_sampler s = sampler;
    cl_context c = context;
    switch (value_pick) {
    case 0: value = NULL; break;
    case 1: handle = buf_out; value = &handle; break;
    case 2: handle = buf_in; value = &handle; break;
    case 3: handle = released; value = &handle; break; /* a handle already released */
    case 4: value = &s; break;                         /* a sampler where a buffer goes */
    case 5: value = &c; break;                         /* a handle of another type */
    case 6: value = &handle; break;                    /* a NULL cl_mem: allowed */
    default: /* raw bytes from the input */
        memset(raw, 0, size < sizeof raw ? size : sizeof raw);
        for (size_t i = 0; i < size && i < sizeof raw && r->n; i++)
            raw[i] = u8(r);
        value = raw;
        break;
    }
    if (value != raw && value && size > sizeof(void *))
        size = sizeof(void *); /* the value points at one handle: never read past it */
    if (verbose)
        fprintf(stderr, "clSetKernelArg(index %u, size %zu, value kind %u)\n", index, size,
                value_pick);
    cl_int err = clSetKernelArg(k, index, size, value);
    if (verbose)
        fprintf(stderr, "  -> %d\n", err);
    if (!one_of(err, set_arg_codes, sizeof set_arg_codes / sizeof *set_arg_codes))
        DIE("clSetKernelArg(%u, %zu, pick %u) returned %d, not a code the spec lists", index,
            size, value_pick, err);
    if (index >= NPARAMS && err != CL_INVALID_ARG_INDEX)
        DIE("clSetKernelArg(index %u of %d) returned %d, not CL_INVALID_ARG_INDEX", index,
            NPARAMS, err);
    if (index == 3 && value && err != CL_INVALID_ARG_VALUE)
        DIE("clSetKernelArg(__local arg, non-NULL value) returned %d, not "
            "CL_INVALID_ARG_VALUE", err);
    if (index == 3 && !value && size == 0 && err != CL_INVALID_ARG_SIZE)
        DIE("clSetKernelArg(__local arg, size 0) returned %d, not CL_INVALID_ARG_SIZE", err);
    /* a released buffer, a sampler or a context for a __global pointer parameter */
    if (index < 2 && size == sizeof(cl_mem) && value_pick >= 3 && value_pick <= 5 &&
        err == CL_SUCCESS)
        DIE("clSetKernelArg(buffer arg %u, value kind %u: no live buffer) succeeded, not "
            "CL_INVALID_MEM_OBJECT", index, value_pick);
    if (index == 2 && size != sizeof(cl_int) && err == CL_SUCCESS)
        DIE("clSetKernelArg(int arg, size %zu) succeeded", size);
}

static size_t size_value(struct reader *r)
{
    switch (u8(r) % 8) {
    case 0: return 0;
    case 1: return 1;
    case 2: return 1 + u8(r) % 64;           /* small, often non-dividing */
    case 3: return (size_t)1 << (u8(r) % 11); /* 1..1024 */
    case 4: return SIZE_MAX;
    case 5: return (size_t)1 << 40;
    case 6: return SIZE_MAX - u8(r);
    default: return (size_t)u64(r);
    }
}

/* 1 when the launch, if the implementation accepted it, would run few enough work-items
 * to finish at once, or is invalid in a way every implementation must notice before
 * running anything. Launches that would run for hours are not made. */
static int cheap(cl_uint dim, const size_t *off, const size_t *global, const size_t *local)
{
    if (dim < 1 || dim > 3 || !global)
        return 1;
    uint64_t items = 1, group = 1;
    for (cl_uint d = 0; d < dim; d++) {
        if (global[d] == 0 || (off && global[d] > SIZE_MAX - off[d]))
            return 1;
        if (local && (local[d] == 0 || local[d] > max_items[d]))
            return 1;
        if (__builtin_mul_overflow(items, (uint64_t)global[d], &items))
            items = UINT64_MAX;
        if (local && __builtin_mul_overflow(group, (uint64_t)local[d], &group))
            group = UINT64_MAX;
    }
    return items <= (1u << 16) || (local && group > max_wg);
}

static void ndrange(struct reader *r, cl_kernel k)
{
    size_t off[3], global[3], local[3];
    uint8_t flags = u8(r);
    cl_uint dim = u8(r) % 5; /* 0..4: 0 and 4 are invalid */
    for (int d = 0; d < 3; d++) {
        off[d] = u8(r) % 4 ? u8(r) : size_value(r);
        global[d] = size_value(r);
        local[d] = size_value(r);
    }
    const size_t *o = flags & 1 ? off : NULL;
    const size_t *g = flags & 2 ? NULL : global;
    const size_t *l = flags & 4 ? local : NULL;
    cl_event ev = NULL, wait = NULL;
    cl_uint nwait = 0;
    const cl_event *wl = NULL;
    switch ((flags >> 3) & 3) {
    case 1: nwait = 1; break;             /* count without a list */
    case 2: wl = &wait; break;            /* list without a count */
    case 3: nwait = 1; wl = &wait; break; /* a NULL event in the list */
    }
    if (!cheap(dim, o, g, l))
        return;
    if (verbose) {
        fprintf(stderr, "clEnqueueNDRangeKernel(work_dim %u, wait %u/%s", dim, nwait,
                wl ? "list" : "NULL");
        const char *names[] = {"offset", "global", "local"};
        const size_t *arrays[] = {o, g, l};
        for (int a = 0; a < 3; a++) {
            fprintf(stderr, ", %s ", names[a]);
            if (!arrays[a])
                fprintf(stderr, "NULL");
            for (int d = 0; arrays[a] && d < 3; d++)
                fprintf(stderr, "%s%zu", d ? "," : "", arrays[a][d]);
        }
        fprintf(stderr, ")\n");
    }
    cl_int err = clEnqueueNDRangeKernel(queue, k, dim, o, g, l, nwait, wl,
                                        flags & 32 ? &ev : NULL);
    if (verbose)
        fprintf(stderr, "  -> %d\n", err);
    if (!one_of(err, ndrange_codes, sizeof ndrange_codes / sizeof *ndrange_codes))
        DIE("clEnqueueNDRangeKernel(dim %u) returned %d, not a code the spec lists", dim, err);
    if (err == CL_SUCCESS && ((nwait != 0) != (wl != NULL) || nwait))
        DIE("clEnqueueNDRangeKernel accepted a bad wait list (%u, %p)", nwait, (void *)wl);
    if (err == CL_SUCCESS && (dim < 1 || dim > 3))
        DIE("clEnqueueNDRangeKernel accepted work_dim %u", dim);
    /* Sizes the specification gives one code for (libskmd checks them before any work,
     * so before the wait list; a global size of 0 may end the launch before them). When
     * both mistakes are made, either code is right. */
    int sizes_checked = dim >= 1 && dim <= 3 && g, offset_past = 0, local_zero = 0;
    for (cl_uint d = 0; sizes_checked && d < dim; d++) {
        if (g[d] == 0)
            sizes_checked = 0;
        offset_past |= o && g[d] > SIZE_MAX - o[d];
        local_zero |= l && l[d] == 0;
    }
    if (sizes_checked && offset_past && !local_zero && err != CL_INVALID_GLOBAL_OFFSET)
        DIE("clEnqueueNDRangeKernel(offset + global past SIZE_MAX) returned %d, not "
            "CL_INVALID_GLOBAL_OFFSET", err);
    if (sizes_checked && local_zero && !offset_past && err != CL_INVALID_WORK_GROUP_SIZE)
        DIE("clEnqueueNDRangeKernel(local size 0) returned %d, not CL_INVALID_WORK_GROUP_SIZE",
            err);
    if (sizes_checked && local_zero && offset_past && err != CL_INVALID_WORK_GROUP_SIZE &&
        err != CL_INVALID_GLOBAL_OFFSET)
        DIE("clEnqueueNDRangeKernel(local size 0, offset past SIZE_MAX) returned %d", err);
    /* A NULL or zero global size is CL_INVALID_GLOBAL_WORK_SIZE up to OpenCL 2.0 and a
     * launch that trivially succeeds from 2.1: either is right. */
    if (err == CL_SUCCESS && flags & 32 && !ev)
        DIE("clEnqueueNDRangeKernel succeeded without returning its event");
    if (ev)
        clReleaseEvent(ev);
    clFinish(queue);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct reader r = {data, size};
    cl_int err;
    cl_kernel k = clCreateKernel(program, "fz", &err);
    if (!k)
        DIE("clCreateKernel: %d", err);
    cl_mem released = clCreateBuffer(context, CL_MEM_READ_WRITE, 64, NULL, &err);
    clReleaseMemObject(released);
    for (int op = 0; op < 32 && r.n; op++) {
        if (u8(&r) % 3)
            set_arg(&r, k, released);
        else
            ndrange(&r, k);
    }
    clReleaseKernel(k);
    return 0;
}
