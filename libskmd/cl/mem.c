/* libskmd/cl/mem.c: memory objects. A buffer records, per member, its real buffer and
 * whether that copy is current; in single mode only the executing member's exists,
 * created with the app's flags (so USE_HOST_PTR keeps its meaning through the driver)
 * less the host-access ones, which libskmd checks itself. */
#include <stdlib.h>
#include <string.h>

#include "cl/app_io.h"
#include "mem/coherence.h"
#include "cl/common.h"
#include "mem/member_health.h"
#include "plan/placement.h"

static cl_int release_hook(void *handle)
{
    return skmd_clReleaseMemObject(handle);
}

static cl_mem new_mem(cl_context context, cl_mem_object_type type, cl_mem_flags flags,
                      size_t size, void *host_ptr)
{
    cl_mem mem = calloc(1, sizeof *mem);
    if (!mem)
        return NULL;
    skmd_object_init(&mem->obj, SKMD_TYPE_MEM);
    mem->obj.release = release_hook;
    mem->context = context;
    mem->mtype = type;
    mem->flags = flags;
    mem->size = size;
    mem->host_ptr = host_ptr;
    return mem;
}

/* Takes ownership of a real object created for member `m`, registers the handle. */
static cl_mem publish(cl_mem mem, int m, cl_mem real)
{
    __atomic_store_n(&mem->real[m], real, __ATOMIC_RELEASE); /* skmd_mem_real reads it */
    skmd_object_retain(&mem->context->obj);
    skmd_registry_add(mem);
    return mem;
}

/* The flags of the OpenCL specification; any other bit is a vendor's. */
#define CORE_MEM_FLAGS                                                                    \
    (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR |     \
     CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR | CL_MEM_HOST_WRITE_ONLY |              \
     CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS | CL_MEM_KERNEL_READ_AND_WRITE)

/* Verdicts of the member drivers on vendor flags (a process-wide property of the real
 * platforms, so asked once per flags value): CL_SUCCESS or their error. */
struct flags_verdict {
    cl_mem_flags flags;
    int sub;        /* asked of a sub-buffer */
    cl_int verdict;
};
static struct {
    pthread_mutex_t lock;
    int n;
    struct flags_verdict seen[16];
} vendor_flags = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Whether every member driver takes `flags`, which hold bits libskmd does not know (a
 * vendor's, e.g. CL_MEM_USE_PERSISTENT_MEM_AMD): libskmd passes them on to every real
 * buffer, so each real platform of the context decides, by making a small buffer (or
 * sub-buffer) with them. CL_SUCCESS, or the first refusal's code. */
static cl_int members_take_flags(cl_context ctx, cl_mem_flags flags, int sub, size_t size,
                                 void *host_ptr)
{
    cl_int verdict = CL_SUCCESS;
    pthread_mutex_lock(&vendor_flags.lock);
    for (int i = 0; i < vendor_flags.n; i++)
        if (vendor_flags.seen[i].flags == flags && vendor_flags.seen[i].sub == sub) {
            verdict = vendor_flags.seen[i].verdict;
            pthread_mutex_unlock(&vendor_flags.lock);
            return verdict;
        }
    pthread_mutex_unlock(&vendor_flags.lock);
    const cl_mem_flags driver_flags = flags & ~SKMD_MEM_HOST_ACCESS_FLAGS;
    size_t probe = size < 64 ? size : 64; /* flags, not sizes, are being asked about */
    ctx->bring_up(ctx, "vendor memory flags to ask every member about", 1);
    for (int s = 0; s < skmd_state.nplatforms && verdict == CL_SUCCESS; s++) {
        if (!skmd_slot_up(ctx, s))
            continue;
        cl_mem made = NULL, parent = NULL;
        if (!sub) {
            made = real_clCreateBuffer(ctx->real[s], driver_flags, probe, host_ptr, &verdict);
        } else {
            parent = real_clCreateBuffer(ctx->real[s], CL_MEM_READ_WRITE, 64, NULL, &verdict);
            cl_buffer_region region = {0, 64};
            if (parent)
                made = real_clCreateSubBuffer(parent, driver_flags,
                                              CL_BUFFER_CREATE_TYPE_REGION, &region, &verdict);
        }
        if (made)
            real_clReleaseMemObject(made);
        if (parent)
            real_clReleaseMemObject(parent);
    }
    /* Only a yes or a CL_INVALID_VALUE is about the flags; anything else may pass. */
    if (verdict == CL_SUCCESS || verdict == CL_INVALID_VALUE) {
        pthread_mutex_lock(&vendor_flags.lock);
        if (vendor_flags.n < 16)
            vendor_flags.seen[vendor_flags.n++] =
                (struct flags_verdict){flags, sub, verdict};
        pthread_mutex_unlock(&vendor_flags.lock);
    }
    skmd_log(SKMD_LOG_INFO, "vendor memory flags 0x%llx%s: members say %s",
             (unsigned long long)(flags & ~CORE_MEM_FLAGS), sub ? " (sub-buffer)" : "",
             skmd_error_name(verdict));
    return verdict;
}

/* The flag and size checks the driver would make (the real buffer may come later). */
static cl_int check_buffer(cl_mem_flags flags, size_t size)
{
    const cl_mem_flags access = flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY |
                                         CL_MEM_READ_ONLY);
    const cl_mem_flags host = flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY |
                                       CL_MEM_HOST_NO_ACCESS);
    SKMD_RETURN_ERROR_IF(access & (access - 1), CL_INVALID_VALUE); /* more than one */
    SKMD_RETURN_ERROR_IF(host & (host - 1), CL_INVALID_VALUE);
    SKMD_RETURN_ERROR_IF((flags & CL_MEM_USE_HOST_PTR) &&
                             (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)),
                         CL_INVALID_VALUE);
    SKMD_RETURN_ERROR_IF(size == 0, CL_INVALID_BUFFER_SIZE);
    cl_ulong max_alloc = 0;
    if (skmd_clGetDeviceInfo(&skmd_state.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
                             sizeof max_alloc, &max_alloc, NULL) == CL_SUCCESS && max_alloc)
        SKMD_RETURN_ERROR_IF(size > max_alloc, CL_INVALID_BUFFER_SIZE);
    return CL_SUCCESS;
}

static cl_mem create_buffer(cl_context context, const cl_mem_properties *properties,
                            cl_mem_flags flags, size_t size, void *host_ptr,
                            cl_int *errcode_ret)
{
    cl_int errcode = CL_SUCCESS;
    cl_mem mem = NULL;
    int m = skmd_state.exec;
    SKMD_GOTO_ERROR_IF(!SKMD_VALID(context, CONTEXT), CL_INVALID_CONTEXT);
    SKMD_GOTO_ERROR_IF(properties && properties[0] != 0, CL_INVALID_PROPERTY);
    errcode = check_buffer(flags, size);
    SKMD_GOTO_IF_REAL_FAILED(errcode);
    SKMD_GOTO_ERROR_IF((host_ptr != NULL) !=
                           ((flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) != 0),
                       CL_INVALID_HOST_PTR);
    /* Last: the probe makes real buffers, for flags the checks above let through. */
    if (flags & ~CORE_MEM_FLAGS)
        SKMD_GOTO_IF_REAL_FAILED(members_take_flags(context, flags, 0, size, host_ptr));
    mem = new_mem(context, CL_MEM_OBJECT_BUFFER, flags, size,
                  (flags & CL_MEM_USE_HOST_PTR) ? host_ptr : NULL);
    SKMD_GOTO_ERROR_IF(!mem, CL_OUT_OF_HOST_MEMORY);
    if (properties)
        mem->nprops = 1; /* the app gave an empty list: it gets one back */
    /* Real buffers are made when a member first needs one (coherence.c), except where the
     * app hands over its memory now: its bytes go straight to the executing member, as
     * the app's own driver call would (no host copy), and USE_HOST_PTR keeps its
     * meaning there (maps point into the app's memory). */
    cl_mem real = NULL;
    int in_host = host_ptr && skmd_app_create_in_host(flags, size); /* app_io.h */
    int in_host_copy = 0;
    if (host_ptr && !in_host) /* large data for a GPU: through the transfer engine */
        real = skmd_app_create_copy(context, m, flags, size, host_ptr);
    if (host_ptr && !real && !in_host) {
        real = real_clCreateBuffer(skmd_member_context(context, m),
                                   flags & ~SKMD_MEM_HOST_ACCESS_FLAGS, size, host_ptr, &errcode);
        /* The member cannot hold it: a copy of the app's bytes lives in libskmd's host
         * copy instead (member_health.h); USE_HOST_PTR needs the driver's buffer. */
        in_host_copy = !real && !(flags & CL_MEM_USE_HOST_PTR) &&
                       skmd_fault_of(errcode) != SKMD_FAULT_NONE;
        if (in_host_copy)
            errcode = CL_SUCCESS;
        SKMD_GOTO_IF_REAL_FAILED(errcode);
    }
    errcode = skmd_coh_init(mem, real ? m : -1);
    if (errcode == CL_SUCCESS && in_host_copy) {
        skmd_mem_refuse(mem, m);
        errcode = skmd_coh_write_host(mem, 0, size, host_ptr);
    }
    if (errcode == CL_SUCCESS && in_host)
        errcode = skmd_app_fill_host(mem, host_ptr);
    if (errcode != CL_SUCCESS) {
        if (real)
            real_clReleaseMemObject(real);
        skmd_coh_free(mem);
        SKMD_GOTO_ERROR_IF(1, CL_OUT_OF_HOST_MEMORY);
    }
    publish(mem, m, real);
ERROR:
    return skmd_object_made(mem, errcode, errcode_ret);
}

cl_mem skmd_clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size,
                           void *host_ptr, cl_int *errcode_ret)
{
    return create_buffer(context, NULL, flags, size, host_ptr, errcode_ret);
}

cl_mem skmd_clCreateBufferWithProperties(cl_context context,
                                         const cl_mem_properties *properties,
                                         cl_mem_flags flags, size_t size, void *host_ptr,
                                         cl_int *errcode_ret)
{
    return create_buffer(context, properties, flags, size, host_ptr, errcode_ret);
}

/* The checks the driver would make (the real sub-buffer may be made later). */
static cl_int check_sub_buffer(cl_mem buffer, cl_mem_flags flags, const cl_buffer_region *region)
{
    const cl_mem_flags p = buffer->flags;
    SKMD_RETURN_ERROR_IF(flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR |
                                  CL_MEM_COPY_HOST_PTR), CL_INVALID_VALUE);
    SKMD_RETURN_ERROR_IF((p & CL_MEM_WRITE_ONLY) &&
                             (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY)),
                         CL_INVALID_VALUE);
    SKMD_RETURN_ERROR_IF((p & CL_MEM_READ_ONLY) &&
                             (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)),
                         CL_INVALID_VALUE);
    SKMD_RETURN_ERROR_IF((p & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY),
                         CL_INVALID_VALUE);
    SKMD_RETURN_ERROR_IF((p & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY),
                         CL_INVALID_VALUE);
    SKMD_RETURN_ERROR_IF((p & CL_MEM_HOST_NO_ACCESS) &&
                             (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)),
                         CL_INVALID_VALUE);
    SKMD_RETURN_ERROR_IF(region->size == 0, CL_INVALID_BUFFER_SIZE);
    SKMD_RETURN_ERROR_IF(region->origin > buffer->size ||
                             region->size > buffer->size - region->origin,
                         CL_INVALID_VALUE);
    cl_uint align_bits = 0;
    if (skmd_clGetDeviceInfo(&skmd_state.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN,
                             sizeof align_bits, &align_bits, NULL) == CL_SUCCESS &&
        align_bits >= 8)
        SKMD_RETURN_ERROR_IF(region->origin % (align_bits / 8) != 0,
                             CL_MISALIGNED_SUB_BUFFER_OFFSET);
    return CL_SUCCESS;
}

cl_mem skmd_clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                              cl_buffer_create_type buffer_create_type,
                              const void *buffer_create_info, cl_int *errcode_ret)
{
    cl_int errcode = CL_SUCCESS;
    cl_mem mem = NULL;
    int m = skmd_state.exec;
    SKMD_GOTO_ERROR_IF(!SKMD_VALID(buffer, MEM) || buffer->mtype != CL_MEM_OBJECT_BUFFER ||
                           buffer->parent != NULL,
                       CL_INVALID_MEM_OBJECT);
    SKMD_GOTO_ERROR_IF(buffer_create_type != CL_BUFFER_CREATE_TYPE_REGION, CL_INVALID_VALUE);
    SKMD_GOTO_ERROR_IF(!buffer_create_info, CL_INVALID_VALUE);
    const cl_buffer_region *region = buffer_create_info;
    errcode = check_sub_buffer(buffer, flags, region);
    SKMD_GOTO_IF_REAL_FAILED(errcode);
    if (flags & ~CORE_MEM_FLAGS) /* a vendor's bits: the members decide, as for buffers */
        SKMD_GOTO_IF_REAL_FAILED(members_take_flags(buffer->context, flags, 1, 0, NULL));
    /* Access and host flags the app leaves out are inherited, as the spec says. */
    cl_mem_flags access = CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY;
    cl_mem_flags host = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
    cl_mem_flags inherited = flags;
    if (!(flags & access))
        inherited |= buffer->flags & access;
    if (!(flags & host))
        inherited |= buffer->flags & host;
    inherited |= buffer->flags &
                 (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    mem = new_mem(buffer->context, CL_MEM_OBJECT_BUFFER, inherited, region->size,
                  buffer->host_ptr ? (char *)buffer->host_ptr + region->origin : NULL);
    SKMD_GOTO_ERROR_IF(!mem, CL_OUT_OF_HOST_MEMORY);
    mem->parent = buffer;
    mem->origin = region->origin;
    /* Made on the executing member now when the parent is there already (the driver
     * checks the flags), else lazily like any buffer. */
    cl_mem real = NULL;
    pthread_mutex_lock(&buffer->obj.lock);
    cl_mem parent_real = buffer->real[m];
    pthread_mutex_unlock(&buffer->obj.lock);
    if (parent_real) {
        real = real_clCreateSubBuffer(parent_real, flags & ~SKMD_MEM_HOST_ACCESS_FLAGS,
                                      buffer_create_type,
                                      buffer_create_info, &errcode);
        SKMD_GOTO_IF_REAL_FAILED(errcode);
    }
    skmd_object_retain(&buffer->obj);
    publish(mem, m, real);
ERROR:
    return skmd_object_made(mem, errcode, errcode_ret);
}

/* Images and pipes: created on the executing member, used only there. */
static cl_mem wrap_image(cl_context context, cl_mem_object_type type, cl_mem_flags flags,
                         void *host_ptr, cl_mem real, cl_int errcode, cl_int *errcode_ret)
{
    cl_mem mem = NULL;
    if (errcode == CL_SUCCESS) {
        mem = new_mem(context, type, flags, 0, (flags & CL_MEM_USE_HOST_PTR) ? host_ptr : NULL);
        if (mem) {
            publish(mem, skmd_state.exec, real);
        } else {
            real_clReleaseMemObject(real);
            errcode = CL_OUT_OF_HOST_MEMORY;
        }
    }
    if (errcode_ret)
        *errcode_ret = errcode;
    return mem;
}

/* A descriptor naming a buffer (image1d_buffer, image from buffer) must name the real
 * one: a copy of the descriptor carries it. */
static cl_int real_desc(const cl_image_desc *desc, cl_image_desc *out)
{
    if (!desc)
        return CL_INVALID_IMAGE_DESCRIPTOR;
    *out = *desc;
    if (desc->mem_object) {
        SKMD_RETURN_ERROR_IF(!SKMD_VALID(desc->mem_object, MEM), CL_INVALID_IMAGE_DESCRIPTOR);
        cl_int err = CL_SUCCESS;
        out->mem_object = desc->mem_object->mtype == CL_MEM_OBJECT_BUFFER
                              ? skmd_mem_real(desc->mem_object, skmd_state.exec, &err)
                              : desc->mem_object->real[skmd_state.exec];
        if (err != CL_SUCCESS)
            return err;
    }
    return CL_SUCCESS;
}

cl_mem skmd_clCreateImage(cl_context context, cl_mem_flags flags,
                          const cl_image_format *image_format, const cl_image_desc *image_desc,
                          void *host_ptr, cl_int *errcode_ret)
{
    cl_image_desc desc;
    cl_int err = CL_INVALID_CONTEXT;
    cl_mem real = NULL;
    if (SKMD_VALID(context, CONTEXT) && (err = real_desc(image_desc, &desc)) == CL_SUCCESS)
        real = real_clCreateImage(skmd_member_context(context, skmd_state.exec), flags,
                                  image_format, &desc, host_ptr, &err);
    return wrap_image(context, image_desc ? image_desc->image_type : 0, flags, host_ptr, real,
                      err, errcode_ret);
}

cl_mem skmd_clCreateImageWithProperties(cl_context context,
                                        const cl_mem_properties *properties,
                                        cl_mem_flags flags,
                                        const cl_image_format *image_format,
                                        const cl_image_desc *image_desc, void *host_ptr,
                                        cl_int *errcode_ret)
{
    if (SKMD_VALID(context, CONTEXT) && properties && properties[0] != 0) {
        if (errcode_ret)
            *errcode_ret = CL_INVALID_PROPERTY;
        return NULL;
    }
    cl_mem image = skmd_clCreateImage(context, flags, image_format, image_desc, host_ptr,
                                      errcode_ret);
    if (image && properties) { /* the app gave an empty list: it gets one back */
        image->props[0] = 0;
        image->nprops = 1;
    }
    return image;
}

cl_mem skmd_clCreateImage2D(cl_context context, cl_mem_flags flags,
                            const cl_image_format *image_format, size_t image_width,
                            size_t image_height, size_t image_row_pitch, void *host_ptr,
                            cl_int *errcode_ret)
{
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = image_width,
                          .image_height = image_height, .image_row_pitch = image_row_pitch};
    return skmd_clCreateImage(context, flags, image_format, &desc, host_ptr, errcode_ret);
}

cl_mem skmd_clCreateImage3D(cl_context context, cl_mem_flags flags,
                            const cl_image_format *image_format, size_t image_width,
                            size_t image_height, size_t image_depth, size_t image_row_pitch,
                            size_t image_slice_pitch, void *host_ptr, cl_int *errcode_ret)
{
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = image_width,
                          .image_height = image_height, .image_depth = image_depth,
                          .image_row_pitch = image_row_pitch,
                          .image_slice_pitch = image_slice_pitch};
    return skmd_clCreateImage(context, flags, image_format, &desc, host_ptr, errcode_ret);
}

cl_mem skmd_clCreatePipe(cl_context context, cl_mem_flags flags, cl_uint pipe_packet_size,
                         cl_uint pipe_max_packets, const cl_pipe_properties *properties,
                         cl_int *errcode_ret)
{
    (void)flags, (void)pipe_packet_size, (void)pipe_max_packets, (void)properties;
    cl_int err = SKMD_VALID(context, CONTEXT) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT;
    if (errcode_ret)
        *errcode_ret = err; /* CL_DEVICE_PIPE_SUPPORT is false */
    return NULL;
}

cl_int skmd_clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                       cl_mem_object_type image_type, cl_uint num_entries,
                                       cl_image_format *image_formats,
                                       cl_uint *num_image_formats)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(context, CONTEXT), CL_INVALID_CONTEXT);
    return real_clGetSupportedImageFormats(skmd_member_context(context, skmd_state.exec),
                                           flags, image_type, num_entries, image_formats,
                                           num_image_formats);
}

cl_int skmd_clRetainMemObject(cl_mem memobj)
{
    SKMD_RETAIN_AND_RETURN(memobj, MEM, CL_INVALID_MEM_OBJECT);
}

cl_int skmd_clReleaseMemObject(cl_mem memobj)
{
    SKMD_RELEASE_OR_RETURN(memobj, MEM, CL_INVALID_MEM_OBJECT);
    skmd_registry_remove(memobj);
    for (int m = 0; m < SKMD_MAX_MEMBERS; m++)
        if (memobj->real[m])
            real_clReleaseMemObject(memobj->real[m]);
    /* The real objects' own destructor callbacks have been queued by the driver; the
     * app's run here, newest first, with the app's handle. */
    SKMD_RUN_CALLBACKS(memobj->destructors, cl_mem, memobj);
    if (memobj->parent)
        skmd_clReleaseMemObject(memobj->parent);
    else {
        skmd_placement_free(memobj);
        skmd_coh_free(memobj);
    }
    skmd_clReleaseContext(memobj->context);
    skmd_object_free(memobj);
    return CL_SUCCESS;
}

cl_int skmd_clSetMemObjectDestructorCallback(cl_mem memobj,
                                             void (CL_CALLBACK *pfn_notify)(cl_mem, void *),
                                             void *user_data)
{
    SKMD_ADD_CALLBACK_AND_RETURN(memobj, MEM, CL_INVALID_MEM_OBJECT, memobj->destructors,
                                 pfn_notify, user_data);
}

/* CL_MEM_MAP_COUNT: the maps of the members' own buffers, made on whichever member's
 * queue (an app's queue may run on any member). */
static cl_int map_count(cl_mem memobj, struct skmd_info *out)
{
    cl_uint n = 0;
    for (int m = 0; m < skmd_state.nmembers; m++) {
        pthread_mutex_lock(&memobj->obj.lock);
        cl_mem real = memobj->real[m];
        pthread_mutex_unlock(&memobj->obj.lock);
        cl_uint count = 0;
        if (real && real_clGetMemObjectInfo(real, CL_MEM_MAP_COUNT, sizeof count, &count,
                                            NULL) == CL_SUCCESS)
            n += count;
    }
    return skmd_info_bytes(out, &n, sizeof n);
}

cl_int skmd_clGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name, size_t param_value_size,
                               void *param_value, size_t *param_value_size_ret)
{
    SKMD_INFO_BEGIN(memobj, MEM, CL_INVALID_MEM_OBJECT, CL_MEM_REFERENCE_COUNT);
    switch (param_name) {
    case CL_MEM_CONTEXT:
        return skmd_info_bytes(&out, &memobj->context, sizeof memobj->context);
    case CL_MEM_ASSOCIATED_MEMOBJECT:
        return skmd_info_bytes(&out, &memobj->parent, sizeof memobj->parent);
    case CL_MEM_PROPERTIES:
        return skmd_info_bytes(&out, memobj->props, memobj->nprops * sizeof memobj->props[0]);
    case CL_MEM_USES_SVM_POINTER:
        return skmd_info_uint(&out, CL_FALSE);
    case CL_MEM_TYPE:
        return skmd_info_bytes(&out, &memobj->mtype, sizeof memobj->mtype);
    case CL_MEM_FLAGS:
        return skmd_info_bytes(&out, &memobj->flags, sizeof memobj->flags);
    case CL_MEM_SIZE:
        if (memobj->mtype == CL_MEM_OBJECT_BUFFER)
            return skmd_info_bytes(&out, &memobj->size, sizeof memobj->size);
        break;
    case CL_MEM_HOST_PTR:
        if (memobj->mtype == CL_MEM_OBJECT_BUFFER)
            return skmd_info_bytes(&out, &memobj->host_ptr, sizeof memobj->host_ptr);
        break;
    case CL_MEM_OFFSET:
        return skmd_info_bytes(&out, &memobj->origin, sizeof memobj->origin);
    case CL_MEM_MAP_COUNT:
        return map_count(memobj, &out);
    default:
        break;
    }
    /* The rest (map count, ...) from the executing member's copy, made if need be. */
    cl_int err = CL_INVALID_MEM_OBJECT;
    cl_mem real = memobj->mtype == CL_MEM_OBJECT_BUFFER
                      ? skmd_mem_real(memobj, skmd_state.exec, &err)
                      : memobj->real[skmd_state.exec];
    if (!real)
        return err;
    return real_clGetMemObjectInfo(real, param_name, param_value_size, param_value,
                                   param_value_size_ret);
}

cl_int skmd_clGetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size,
                           void *param_value, size_t *param_value_size_ret)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(image, MEM), CL_INVALID_MEM_OBJECT);
    SKMD_RETURN_ERROR_IF(image->mtype == CL_MEM_OBJECT_BUFFER, CL_INVALID_MEM_OBJECT);
    if (param_name == CL_IMAGE_BUFFER) {
        cl_mem none = NULL; /* image1d_buffer's buffer is not tracked back */
        struct skmd_info out = {param_value_size, param_value, param_value_size_ret};
        return skmd_info_bytes(&out, &none, sizeof none);
    }
    return real_clGetImageInfo(image->real[skmd_state.exec], param_name, param_value_size,
                               param_value, param_value_size_ret);
}

cl_int skmd_clGetPipeInfo(cl_mem pipe, cl_pipe_info param_name, size_t param_value_size,
                          void *param_value, size_t *param_value_size_ret)
{
    (void)param_name, (void)param_value_size, (void)param_value, (void)param_value_size_ret;
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(pipe, MEM), CL_INVALID_MEM_OBJECT);
    SKMD_RETURN_ERROR_IF(1, CL_INVALID_MEM_OBJECT); /* no pipes are ever created */
}

/* SVM: CL_DEVICE_SVM_CAPABILITIES is 0, so every SVM call fails as the spec says for a
 * device without SVM. */
void *skmd_clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size,
                      cl_uint alignment)
{
    (void)context, (void)flags, (void)size, (void)alignment;
    return NULL;
}

void skmd_clSVMFree(cl_context context, void *svm_pointer)
{
    (void)context, (void)svm_pointer;
}
