/* libskmd/cl/context.c: a context of the SKMD device = one real context per platform slot
 * (a real platform, or one member), each over that slot's members; made for the slots its
 * queues run on, the others when a launch could use them (bring_up.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cl/bring_up.h"
#include "cl/common.h"
#include "support/config.h"
#include "support/report.h"
#include "launch/pieces.h"
#include "device/showreal.h"
#include "xfer/transfer.h"

/* Checks the app's properties; the SKMD platform is the only one they may name. */
static cl_int check_properties(const cl_context_properties *props, size_t *count)
{
    size_t n = 0;
    if (props) {
        for (; props[n]; n += 2) {
            SKMD_RETURN_ERROR_IF(n + 2 >= 16, CL_INVALID_PROPERTY);
            /* OpenCL 1.1+: a property name given twice is CL_INVALID_PROPERTY. */
            for (size_t k = 0; k < n; k += 2)
                SKMD_RETURN_ERROR_IF(props[k] == props[n], CL_INVALID_PROPERTY);
            if (props[n] == CL_CONTEXT_PLATFORM) {
                cl_platform_id p = (cl_platform_id)props[n + 1];
                SKMD_RETURN_ERROR_IF(!SKMD_VALID(p, PLATFORM), CL_INVALID_PLATFORM);
            } else if (props[n] != CL_CONTEXT_INTEROP_USER_SYNC) {
                SKMD_RETURN_ERROR_IF(1, CL_INVALID_PROPERTY);
            }
        }
        n++;
    }
    *count = n;
    return CL_SUCCESS;
}

/* The context's thread that makes each member's staging buffers ahead of its first
 * staged transfer (SKMD_TRANSFER_EARLY), while the app goes on (it builds its programs
 * next, as a rule). */
static void *make_staging_early(void *arg)
{
    cl_context ctx = arg;
    for (int m = 0; m < skmd_state.nmembers; m++) {
        const struct skmd_member *mb = &skmd_state.members[m];
        if (skmd_member_up(ctx, m)) /* the others' at their first staged transfer */
            skmd_xfer_prepare(m, ctx->real[mb->platform_slot], mb->real_device);
    }
    return NULL;
}

static cl_int release_hook(void *handle)
{
    return skmd_clReleaseContext(handle);
}

/* A context's real contexts span every member whatever its devices (the SKMD device or
 * sub-devices of it): the members a command may use are its queue's device's. */
static cl_context create(const cl_context_properties *properties, cl_uint num_devices,
                         const cl_device_id *devices,
                         void (CL_CALLBACK *pfn_notify)(const char *, const void *, size_t,
                                                        void *),
                         void *user_data, cl_int *errcode_ret)
{
    cl_int errcode;
    size_t nprops = 0;
    cl_context ctx = NULL;
    SKMD_GOTO_ERROR_IF(!skmd_state.ready, CL_INVALID_PLATFORM);
    SKMD_GOTO_IF_REAL_FAILED(check_properties(properties, &nprops));
    ctx = calloc(1, sizeof *ctx);
    SKMD_GOTO_ERROR_IF(!ctx, CL_OUT_OF_HOST_MEMORY);
    skmd_object_init(&ctx->obj, SKMD_TYPE_CONTEXT);
    pthread_rwlock_init(&ctx->up_lock, NULL);
    if (nprops)
        memcpy(ctx->props, properties, nprops * sizeof *properties);
    ctx->nprops = nprops;
    ctx->notify = pfn_notify;
    ctx->notify_data = user_data;
    for (cl_uint i = 0; i < num_devices; i++) {
        cl_uint k = 0;
        while (k < ctx->ndevices && ctx->devices[k] != devices[i])
            k++;
        if (k < ctx->ndevices) /* the spec: duplicates are ignored */
            continue;
        SKMD_GOTO_ERROR_IF(ctx->ndevices == SKMD_CONTEXT_MAX_DEVICES, CL_OUT_OF_RESOURCES);
        ctx->devices[ctx->ndevices++] = devices[i];
    }
    ctx->bring_up = skmd_context_bring_up_hook;
    ctx->obj.release = release_hook; /* a bring-up thread lets go of its reference */
    unsigned first = skmd_context_first_slots(ctx);
    if (skmd_context_make_slots(ctx, first, &errcode) != first)
        goto ERROR;
    atomic_store_explicit(&ctx->up, first, memory_order_release);
    skmd_report_members_up(skmd_slots_members(first), 0);
    if (skmd_config()->transfer_early)
        ctx->early_started = pthread_create(&ctx->early, NULL, make_staging_early, ctx) == 0;
ERROR:
    if (errcode != CL_SUCCESS && ctx) {
        for (int slot = 0; slot < skmd_state.nplatforms; slot++)
            if (ctx->real[slot])
                real_clReleaseContext(ctx->real[slot]);
        pthread_rwlock_destroy(&ctx->up_lock);
    }
    ctx = skmd_object_made(ctx, errcode, errcode_ret);
    for (cl_uint i = 0; ctx && i < ctx->ndevices; i++)
        skmd_clRetainDevice(ctx->devices[i]);
    return ctx;
}

cl_context skmd_clCreateContext(const cl_context_properties *properties, cl_uint num_devices,
                                const cl_device_id *devices,
                                void (CL_CALLBACK *pfn_notify)(const char *, const void *,
                                                               size_t, void *),
                                void *user_data, cl_int *errcode_ret)
{
    cl_int errcode = CL_SUCCESS;
    if (skmd_foreign_devices(num_devices, devices)) /* SKMD_SHOW_REAL: a real device's */
        return real_clCreateContext(properties, num_devices, devices, pfn_notify, user_data,
                                    errcode_ret);
    SKMD_GOTO_ERROR_IF(num_devices == 0 || devices == NULL, CL_INVALID_VALUE);
    SKMD_GOTO_ERROR_IF(pfn_notify == NULL && user_data != NULL, CL_INVALID_VALUE);
    for (cl_uint i = 0; i < num_devices; i++)
        SKMD_GOTO_ERROR_IF(!SKMD_VALID(devices[i], DEVICE), CL_INVALID_DEVICE);
    return create(properties, num_devices, devices, pfn_notify, user_data, errcode_ret);
ERROR:
    if (errcode_ret)
        *errcode_ret = errcode;
    return NULL;
}

cl_context skmd_clCreateContextFromType(const cl_context_properties *properties,
                                        cl_device_type device_type,
                                        void (CL_CALLBACK *pfn_notify)(const char *,
                                                                       const void *, size_t,
                                                                       void *),
                                        void *user_data, cl_int *errcode_ret)
{
    cl_int errcode = CL_SUCCESS;
    cl_uint n = 0;
    if (skmd_foreign_properties(properties)) /* SKMD_SHOW_REAL: a real platform's */
        return real_clCreateContextFromType(properties, device_type, pfn_notify, user_data,
                                            errcode_ret);
    SKMD_GOTO_ERROR_IF(device_type == 0, CL_INVALID_DEVICE_TYPE);
    SKMD_GOTO_ERROR_IF(pfn_notify == NULL && user_data != NULL, CL_INVALID_VALUE);
    SKMD_GOTO_ERROR_IF(!skmd_state.ready, CL_INVALID_PLATFORM);
    errcode = skmd_clGetDeviceIDs(&skmd_state.platform, device_type, 0, NULL, &n);
    SKMD_GOTO_ERROR_IF(errcode != CL_SUCCESS, errcode);
    cl_device_id root = &skmd_state.device;
    return create(properties, 1, &root, pfn_notify, user_data, errcode_ret);
ERROR:
    if (errcode_ret)
        *errcode_ret = errcode;
    return NULL;
}

cl_int skmd_clRetainContext(cl_context context)
{
    SKMD_RETAIN_AND_RETURN(context, CONTEXT, CL_INVALID_CONTEXT);
}

cl_int skmd_clReleaseContext(cl_context context)
{
    SKMD_RELEASE_OR_RETURN(context, CONTEXT, CL_INVALID_CONTEXT);
    if (context->early_started)
        pthread_join(context->early, NULL);
    /* libskmd's own per-member queues (coherence.c) die with the context. */
    for (int m = 0; m < skmd_state.nmembers; m++)
        if (context->work[m])
            real_clReleaseCommandQueue(context->work[m]);
    skmd_pieces_release(context);
    for (int slot = 0; slot < skmd_state.nplatforms; slot++)
        if (context->real[slot])
            real_clReleaseContext(context->real[slot]);
    for (cl_uint i = 0; i < context->ndevices; i++)
        skmd_clReleaseDevice(context->devices[i]);
    /* Destructor callbacks run last-registered first, as the spec says. */
    SKMD_RUN_CALLBACKS(context->destructors, cl_context, context);
    pthread_rwlock_destroy(&context->up_lock);
    skmd_object_free(context);
    return CL_SUCCESS;
}

cl_int skmd_clGetContextInfo(cl_context context, cl_context_info param_name,
                             size_t param_value_size, void *param_value,
                             size_t *param_value_size_ret)
{
    SKMD_INFO_BEGIN(context, CONTEXT, CL_INVALID_CONTEXT, CL_CONTEXT_REFERENCE_COUNT);
    switch (param_name) {
    case CL_CONTEXT_NUM_DEVICES:
        return skmd_info_bytes(&out, &context->ndevices, sizeof context->ndevices);
    case CL_CONTEXT_DEVICES:
        return skmd_info_bytes(&out, context->devices,
                               context->ndevices * sizeof context->devices[0]);
    case CL_CONTEXT_PROPERTIES:
        return skmd_info_bytes(&out, context->props, context->nprops * sizeof context->props[0]);
    default:
        SKMD_RETURN_ERROR_IF(1, CL_INVALID_VALUE);
    }
}

int skmd_context_has_device(cl_context ctx, cl_device_id dev)
{
    for (cl_uint i = 0; i < ctx->ndevices; i++)
        if (ctx->devices[i] == dev)
            return 1;
    return 0;
}

cl_int skmd_clSetContextDestructorCallback(cl_context context,
                                           void (CL_CALLBACK *pfn_notify)(cl_context, void *),
                                           void *user_data)
{
    SKMD_ADD_CALLBACK_AND_RETURN(context, CONTEXT, CL_INVALID_CONTEXT, context->destructors,
                                 pfn_notify, user_data);
}
