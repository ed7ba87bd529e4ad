/* libskmd/cl/enqueue_sync.c: the clEnqueue* that move no buffer bytes
 * themselves: kernel launches, markers, barriers, waits, and SVM (not offered). */
#include <stdlib.h>
#include <string.h>
#include "cl/ndrange_check.h"
#include "cl/kernel_split.h"
#include "device/worker.h"
#include "cl/enqueue_internal.h"

cl_int skmd_clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel kernel, cl_uint work_dim,
                                   const size_t *global_work_offset,
                                   const size_t *global_work_size,
                                   const size_t *local_work_size, cl_uint n,
                                   const cl_event *wl, cl_event *event)
{
    QUEUE_CHECK(q);
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(kernel, KERNEL), CL_INVALID_KERNEL);
    SKMD_RETURN_ERROR_IF(kernel->program->context != q->context, CL_INVALID_CONTEXT);
    int empty = 0;
    cl_int bad = skmd_ndrange_check(kernel, work_dim, global_work_offset, global_work_size,
                                    local_work_size, &empty);
    if (bad != CL_SUCCESS)
        return bad;
    if (empty) { /* an empty launch: done once its wait list is; still a kernel's event */
        cl_int err = skmd_clEnqueueMarkerWithWaitList(q, n, wl, event);
        if (err == CL_SUCCESS && event && *event)
            (*event)->type = CL_COMMAND_NDRANGE_KERNEL;
        return err;
    }
    /* The launch decides with the kernel's analysis record: from the first launch on,
     * exactly as if the split version had been built in clBuildProgram. */
    skmd_kernel_split_wait(kernel);
    /* Gated (defer.h): by its wait list or its queue here, by its buffers in launch.c. */
    struct skmd_enqueue e;
    cl_int err = skmd_enqueue_begin_gated(&e, q, n, wl, event, gated(q, n, wl, NULL, NULL, 0));
    if (err != CL_SUCCESS)
        return err;
    err = skmd_launch_ndrange(q, kernel, work_dim, global_work_offset, global_work_size,
                              local_work_size, &e);
    return skmd_enqueue_end(&e, err);
}

cl_int skmd_clEnqueueTask(cl_command_queue q, cl_kernel kernel, cl_uint n, const cl_event *wl,
                          cl_event *event)
{
    const size_t one = 1;
    return skmd_clEnqueueNDRangeKernel(q, kernel, 1, NULL, &one, &one, n, wl, event);
}

cl_int skmd_clEnqueueNativeKernel(cl_command_queue q, void (CL_CALLBACK *user_func)(void *),
                                  void *args, size_t cb_args, cl_uint num_mem_objects,
                                  const cl_mem *mem_list, const void **args_mem_loc, cl_uint n,
                                  const cl_event *wl, cl_event *event)
{
    (void)user_func, (void)args, (void)cb_args, (void)num_mem_objects, (void)mem_list;
    (void)args_mem_loc, (void)n, (void)wl, (void)event;
    QUEUE_CHECK(q);
    /* CL_DEVICE_EXECUTION_CAPABILITIES leaves out CL_EXEC_NATIVE_KERNEL. */
    SKMD_RETURN_ERROR_IF(1, CL_INVALID_OPERATION);
}

/* A deferred marker or barrier, its waits done, on its queue's launcher thread
 * (defer_app.h): the entry point again, with no wait list. */
static cl_int run_deferred(cl_command_queue q, enum skmd_defer_kind kind,
                           struct skmd_defer_args *a, cl_event *ev)
{
    (void)a;
    if (kind == SKMD_DEFER_MARKER)
        return skmd_clEnqueueMarkerWithWaitList(q, 0, NULL, ev);
    if (kind == SKMD_DEFER_BARRIER)
        return skmd_clEnqueueBarrierWithWaitList(q, 0, NULL, ev);
    return CL_INVALID_OPERATION;
}

static const struct skmd_defer_command deferred = {run_deferred, skmd_defer_profiling};

/* A marker or a barrier (each reports its own command type). Split launches are on no
 * real queue: it must come after them (on the launcher itself, a deferred one comes after
 * them already). */
static cl_int sync_point(cl_command_queue q, int barrier, cl_uint n, const cl_event *wl,
                         cl_event *event)
{
    if (gated(q, n, wl, NULL, NULL, 0)) {
        struct skmd_defer_args a = {0};
        return skmd_defer(q, &deferred, barrier ? SKMD_DEFER_BARRIER : SKMD_DEFER_MARKER,
                          barrier ? CL_COMMAND_BARRIER : CL_COMMAND_MARKER, n, wl, NULL, NULL,
                          0, &a, CL_FALSE, event);
    }
    if (!skmd_defer_running())
        skmd_launcher_drain(q);
    BEGIN(q, n, wl, event);
    err = barrier ? real_clEnqueueBarrierWithWaitList(q->real, e.nwait, e.wait, e.event)
                  : real_clEnqueueMarkerWithWaitList(q->real, e.nwait, e.wait, e.event);
    return skmd_enqueue_end(&e, err);
}

cl_int skmd_clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint n, const cl_event *wl,
                                        cl_event *event)
{
    QUEUE_CHECK(q);
    return sync_point(q, 0, n, wl, event);
}

cl_int skmd_clEnqueueBarrierWithWaitList(cl_command_queue q, cl_uint n, const cl_event *wl,
                                         cl_event *event)
{
    QUEUE_CHECK(q);
    return sync_point(q, 1, n, wl, event);
}

cl_int skmd_clEnqueueMarker(cl_command_queue q, cl_event *event)
{
    QUEUE_CHECK(q);
    SKMD_RETURN_ERROR_IF(!event, CL_INVALID_VALUE);
    return skmd_clEnqueueMarkerWithWaitList(q, 0, NULL, event);
}

cl_int skmd_clEnqueueBarrier(cl_command_queue q)
{
    QUEUE_CHECK(q);
    return skmd_clEnqueueBarrierWithWaitList(q, 0, NULL, NULL);
}

cl_int skmd_clEnqueueWaitForEvents(cl_command_queue q, cl_uint num_events,
                                   const cl_event *event_list)
{
    QUEUE_CHECK(q);
    SKMD_RETURN_ERROR_IF(num_events == 0 || !event_list, CL_INVALID_VALUE);
    return skmd_clEnqueueBarrierWithWaitList(q, num_events, event_list, NULL);
}

/* SVM: no member's SVM is offered (CL_DEVICE_SVM_CAPABILITIES is 0). */
cl_int skmd_clEnqueueSVMFree(cl_command_queue q, cl_uint num_svm_pointers,
                             void *svm_pointers[],
                             void (CL_CALLBACK *pfn_free_func)(cl_command_queue, cl_uint,
                                                               void *[], void *),
                             void *user_data, cl_uint n, const cl_event *wl, cl_event *event)
{
    (void)num_svm_pointers, (void)svm_pointers, (void)pfn_free_func, (void)user_data;
    (void)n, (void)wl, (void)event;
    QUEUE_CHECK(q);
    SKMD_RETURN_ERROR_IF(1, CL_INVALID_OPERATION);
}

cl_int skmd_clEnqueueSVMMemcpy(cl_command_queue q, cl_bool blocking_copy, void *dst_ptr,
                               const void *src_ptr, size_t size, cl_uint n, const cl_event *wl,
                               cl_event *event)
{
    (void)blocking_copy, (void)dst_ptr, (void)src_ptr, (void)size, (void)n, (void)wl;
    (void)event;
    QUEUE_CHECK(q);
    SKMD_RETURN_ERROR_IF(1, CL_INVALID_OPERATION);
}

cl_int skmd_clEnqueueSVMMemFill(cl_command_queue q, void *svm_ptr, const void *pattern,
                                size_t pattern_size, size_t size, cl_uint n,
                                const cl_event *wl, cl_event *event)
{
    (void)svm_ptr, (void)pattern, (void)pattern_size, (void)size, (void)n, (void)wl;
    (void)event;
    QUEUE_CHECK(q);
    SKMD_RETURN_ERROR_IF(1, CL_INVALID_OPERATION);
}

cl_int skmd_clEnqueueSVMMap(cl_command_queue q, cl_bool blocking_map, cl_map_flags flags,
                            void *svm_ptr, size_t size, cl_uint n, const cl_event *wl,
                            cl_event *event)
{
    (void)blocking_map, (void)flags, (void)svm_ptr, (void)size, (void)n, (void)wl;
    (void)event;
    QUEUE_CHECK(q);
    SKMD_RETURN_ERROR_IF(1, CL_INVALID_OPERATION);
}

cl_int skmd_clEnqueueSVMUnmap(cl_command_queue q, void *svm_ptr, cl_uint n, const cl_event *wl,
                              cl_event *event)
{
    (void)svm_ptr, (void)n, (void)wl, (void)event;
    QUEUE_CHECK(q);
    SKMD_RETURN_ERROR_IF(1, CL_INVALID_OPERATION);
}

cl_int skmd_clEnqueueSVMMigrateMem(cl_command_queue q, cl_uint num_svm_pointers,
                                   const void **svm_pointers, const size_t *sizes,
                                   cl_mem_migration_flags flags, cl_uint n, const cl_event *wl,
                                   cl_event *event)
{
    (void)num_svm_pointers, (void)svm_pointers, (void)sizes, (void)flags, (void)n, (void)wl;
    (void)event;
    QUEUE_CHECK(q);
    SKMD_RETURN_ERROR_IF(1, CL_INVALID_OPERATION);
}
