/* libskmd/cl/queue.c: command queues. A queue of the SKMD device is one real queue on the
 * executing member, plus (from its first split launch) a launcher thread that runs its
 * split launches (worker.c); a split launch stands on the real queue as a marker. */
#include <stdlib.h>
#include <string.h>

#include "cl/bring_up.h"
#include "cl/common.h"
#include "mem/member_health.h"
#include "plan/placement.h"
#include "device/worker.h"

static cl_command_queue create(cl_context context, cl_device_id device,
                               const cl_queue_properties *props, cl_bool with_props,
                               cl_command_queue_properties legacy, cl_int *errcode_ret)
{
    cl_int errcode = CL_SUCCESS;
    cl_command_queue q = NULL;
    SKMD_GOTO_ERROR_IF(!SKMD_VALID(context, CONTEXT), CL_INVALID_CONTEXT);
    SKMD_GOTO_ERROR_IF(!SKMD_VALID(device, DEVICE) || !skmd_context_has_device(context, device),
                       CL_INVALID_DEVICE);
    q = calloc(1, sizeof *q);
    SKMD_GOTO_ERROR_IF(!q, CL_OUT_OF_HOST_MEMORY);
    skmd_object_init(&q->obj, SKMD_TYPE_QUEUE);
    q->context = context;
    q->device = device; /* launches are split over its members only (launch_plan.c) */
    q->member = skmd_member_for_queue(device);
    if (!skmd_member_up(context, q->member)) /* a sub-device's, or a lost member's stand-in */
        skmd_context_bring_up(context, "a queue on a member not yet up");
    const struct skmd_member *m = &skmd_state.members[q->member];
    cl_context rctx = skmd_member_up(context, q->member) ? skmd_member_context(context, q->member)
                                                        : NULL;
    SKMD_GOTO_ERROR_IF(!rctx, CL_OUT_OF_RESOURCES);
    if (with_props) {
        size_t n = 0;
        if (props) {
            while (props[n] && n + 2 < 8)
                n += 2;
            SKMD_GOTO_ERROR_IF(props[n] != 0, CL_INVALID_QUEUE_PROPERTIES);
            memcpy(q->props, props, (n + 1) * sizeof *props);
            q->nprops = n + 1;
        }
        q->real = real_clCreateCommandQueueWithProperties(rctx, m->real_device, props,
                                                          &errcode);
    } else {
        q->real = real_clCreateCommandQueue(rctx, m->real_device, legacy, &errcode);
    }
    SKMD_GOTO_IF_REAL_FAILED(errcode);
    real_clGetCommandQueueInfo(q->real, CL_QUEUE_PROPERTIES, sizeof q->properties,
                               &q->properties, NULL);
    skmd_object_retain(&context->obj);
ERROR:
    return skmd_object_made(q, errcode, errcode_ret);
}

cl_command_queue skmd_clCreateCommandQueue(cl_context context, cl_device_id device,
                                           cl_command_queue_properties properties,
                                           cl_int *errcode_ret)
{
    return create(context, device, NULL, CL_FALSE, properties, errcode_ret);
}

cl_command_queue skmd_clCreateCommandQueueWithProperties(cl_context context,
                                                         cl_device_id device,
                                                         const cl_queue_properties *properties,
                                                         cl_int *errcode_ret)
{
    return create(context, device, properties, CL_TRUE, 0, errcode_ret);
}

cl_int skmd_clRetainCommandQueue(cl_command_queue command_queue)
{
    SKMD_RETAIN_AND_RETURN(command_queue, QUEUE, CL_INVALID_COMMAND_QUEUE);
}

cl_int skmd_clReleaseCommandQueue(cl_command_queue command_queue)
{
    SKMD_RELEASE_OR_RETURN(command_queue, QUEUE, CL_INVALID_COMMAND_QUEUE);
    /* Split launches still queued run to their end first: the real queue's markers wait
     * for them. */
    skmd_launcher_stop(command_queue);
    real_clReleaseCommandQueue(command_queue->real); /* flushes and waits, as ours must */
    skmd_queue_release_retired(command_queue);
    skmd_clReleaseContext(command_queue->context);
    skmd_object_free(command_queue);
    return CL_SUCCESS;
}

cl_int skmd_clGetCommandQueueInfo(cl_command_queue command_queue,
                                  cl_command_queue_info param_name, size_t param_value_size,
                                  void *param_value, size_t *param_value_size_ret)
{
    SKMD_INFO_BEGIN(command_queue, QUEUE, CL_INVALID_COMMAND_QUEUE, CL_QUEUE_REFERENCE_COUNT);
    cl_command_queue none = NULL;
    switch (param_name) {
    case CL_QUEUE_CONTEXT:
        return skmd_info_bytes(&out, &command_queue->context, sizeof(cl_context));
    case CL_QUEUE_DEVICE:
        return skmd_info_bytes(&out, &command_queue->device, sizeof command_queue->device);
    case CL_QUEUE_DEVICE_DEFAULT:
        return skmd_info_bytes(&out, &none, sizeof none);
    case CL_QUEUE_PROPERTIES_ARRAY:
        return skmd_info_bytes(&out, command_queue->props,
                               command_queue->nprops * sizeof command_queue->props[0]);
    default:
        return real_clGetCommandQueueInfo(command_queue->real, param_name, param_value_size,
                                          param_value, param_value_size_ret);
    }
}

cl_int skmd_clSetCommandQueueProperty(cl_command_queue command_queue,
                                      cl_command_queue_properties properties, cl_bool enable,
                                      cl_command_queue_properties *old_properties)
{
    (void)properties, (void)enable, (void)old_properties;
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(command_queue, QUEUE), CL_INVALID_COMMAND_QUEUE);
    SKMD_RETURN_ERROR_IF(1, CL_INVALID_OPERATION); /* removed in OpenCL 1.1 */
}

cl_int skmd_clFlush(cl_command_queue command_queue)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(command_queue, QUEUE), CL_INVALID_COMMAND_QUEUE);
    cl_int err = skmd_queue_healthy(command_queue);
    if (err == CL_SUCCESS)
        err = real_clFlush(command_queue->real);
    /* A member that vanished: the queue moves on (its next commands run elsewhere). */
    if (err != CL_SUCCESS && skmd_fault_retry(command_queue, NULL, err, 1))
        return skmd_clFlush(command_queue);
    return err;
}

cl_int skmd_clFinish(cl_command_queue command_queue)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(command_queue, QUEUE), CL_INVALID_COMMAND_QUEUE);
    cl_int err = skmd_queue_healthy(command_queue);
    if (err != CL_SUCCESS)
        return err;
    skmd_launcher_drain(command_queue); /* split launches are on no real queue */
    err = real_clFinish(command_queue->real);
    /* A member that vanished: what it had queued is its buffers' copies, which coherence
     * no longer reads (member_health.h); the queue moves on. */
    if (err != CL_SUCCESS && skmd_fault_retry(command_queue, NULL, err, 1))
        return skmd_clFinish(command_queue);
    if (err == CL_SUCCESS)
        skmd_placement_note_app_wait();
    return err;
}
