/* libskmd/cl/enqueue_map.c: the app's maps, unmaps and migrations
 * (deferred maps: defer.h). */
#include <stdlib.h>
#include <string.h>
#include "plan/placement.h"
#include "launch/stream_out.h"
#include "cl/enqueue_internal.h"

/* A deferred migration, its waits done, on its queue's launcher thread (defer_app.h): the
 * entry point again, with no wait list. A deferred map runs its own function (args->run). */
static cl_int run_deferred(cl_command_queue q, enum skmd_defer_kind kind,
                           struct skmd_defer_args *a, cl_event *ev)
{
    if (kind != SKMD_DEFER_MIGRATE)
        return CL_INVALID_OPERATION;
    return skmd_clEnqueueMigrateMemObjects(q, a->num_mems, a->mems, a->flags, 0, NULL, ev);
}

static const struct skmd_defer_command deferred = {run_deferred, skmd_defer_profiling};

/* Map returns the driver's pointer: for USE_HOST_PTR it is inside the app's memory, as
 * the spec requires, because the real buffer was made with the app's pointer. */
/* A map whose wait list holds what the app has not set yet (defer.h): the pointer is
 * the exec member's map of the region now (libskmd's own queue, no wait list), and the
 * launcher, once the wait list is done, makes the member's copy current and, for a read,
 * brings the bytes into the mapped memory; the app's event says when. */
struct deferred_map {
    cl_mem buffer;
    size_t offset, size;
    cl_map_flags flags;
    void *ptr;
};

static cl_int map_run(cl_command_queue q, void *arg, cl_event *real_event)
{
    struct deferred_map *m = arg;
    *real_event = NULL;
    cl_int err = coherent(q, m->buffer, m->offset, m->size,
                          (m->flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) != 0);
    if (err == CL_SUCCESS && (m->flags & CL_MAP_READ) && m->size)
        err = real_clEnqueueReadBuffer(q->real, R(q, m->buffer), CL_TRUE, m->offset, m->size,
                                       m->ptr, 0, NULL, NULL);
    return err;
}

static void *map_deferred(cl_command_queue q, cl_mem buffer, cl_bool blocking,
                          cl_map_flags flags, size_t offset, size_t size, cl_uint n,
                          const cl_event *wl, cl_event *event, cl_int *errcode)
{
    /* The wait list first: once mapped, only running out of memory undoes the map. */
    *errcode = (n > 0) != (wl != NULL) ? CL_INVALID_EVENT_WAIT_LIST : CL_SUCCESS;
    for (cl_uint i = 0; i < n && *errcode == CL_SUCCESS; i++)
        *errcode = !SKMD_VALID(wl[i], EVENT)         ? CL_INVALID_EVENT_WAIT_LIST
                   : wl[i]->context != q->context ? CL_INVALID_CONTEXT
                                                  : CL_SUCCESS;
    if (*errcode != CL_SUCCESS)
        return NULL;
    cl_command_queue work = skmd_work_queue(q->context, q->member, errcode);
    if (*errcode != CL_SUCCESS)
        return NULL;
    cl_int rerr = ensure_real(q, buffer);
    if (rerr != CL_SUCCESS) {
        *errcode = rerr;
        return NULL;
    }
    void *ptr = real_clEnqueueMapBuffer(work, R(q, buffer), CL_TRUE, flags, offset, size, 0,
                                        NULL, NULL, errcode);
    struct deferred_map *m = ptr ? malloc(sizeof *m) : NULL;
    if (!m) {
        if (ptr) {
            real_clEnqueueUnmapMemObject(work, R(q, buffer), ptr, 0, NULL, NULL);
            *errcode = CL_OUT_OF_HOST_MEMORY;
        }
        return NULL;
    }
    *m = (struct deferred_map){buffer, offset, size, flags, ptr};
    struct skmd_defer_args a = {.run = map_run, .done = free, .arg = m};
    keep(&a, buffer, NULL);
    unsigned char writes = (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) != 0;
    *errcode = skmd_defer(q, &deferred, SKMD_DEFER_RUN, CL_COMMAND_MAP_BUFFER, n, wl, &buffer,
                          &writes, 1, &a, blocking, event);
    if (*errcode == CL_SUCCESS)
        return ptr;
    if (*errcode != CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) { /* never posted */
        real_clEnqueueUnmapMemObject(work, R(q, buffer), ptr, 0, NULL, NULL);
        free(m);
    }
    return NULL;
}

void *skmd_clEnqueueMapBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking,
                              cl_map_flags map_flags, size_t offset, size_t size, cl_uint n,
                              const cl_event *wl, cl_event *event, cl_int *errcode_ret)
{
    cl_int errcode = CL_SUCCESS;
    void *ptr = NULL;
    struct skmd_enqueue e;
    SKMD_GOTO_ERROR_IF(!SKMD_VALID(q, QUEUE), CL_INVALID_COMMAND_QUEUE);
    SKMD_GOTO_IF_REAL_FAILED(skmd_queue_healthy(q));
    SKMD_GOTO_ERROR_IF(!SKMD_VALID(buffer, MEM), CL_INVALID_MEM_OBJECT);
    SKMD_GOTO_IF_REAL_FAILED(host_access(buffer, (map_flags & CL_MAP_READ) != 0,
                                         (map_flags & (CL_MAP_WRITE |
                                                       CL_MAP_WRITE_INVALIDATE_REGION)) != 0));
    if (map_flags & CL_MAP_READ)
        skmd_stream_note_app_read(buffer);
    SKMD_GOTO_ERROR_IF(offset > buffer->size || size > buffer->size - offset, CL_INVALID_VALUE);
    if (gated(q, n, wl, &buffer,
              (const unsigned char[]){(map_flags & (CL_MAP_WRITE |
                                                    CL_MAP_WRITE_INVALIDATE_REGION)) != 0},
              1)) {
        ptr = map_deferred(q, buffer, blocking, map_flags, offset, size, n, wl, event,
                           &errcode);
        goto ERROR;
    }
    /* A map for writing may change any mapped byte until the unmap: the member's copy is
     * the current one from now on. */
    SKMD_GOTO_IF_REAL_FAILED(coherent(q, buffer, offset, size, (map_flags & (CL_MAP_WRITE |
                                      CL_MAP_WRITE_INVALIDATE_REGION)) != 0));
    SKMD_GOTO_IF_REAL_FAILED(skmd_enqueue_begin(&e, q, n, wl, event));
    ptr = real_clEnqueueMapBuffer(q->real, R(q, buffer), blocking, map_flags, offset, size,
                                  e.nwait, e.wait, e.event, &errcode);
    errcode = skmd_enqueue_end(&e, errcode);
    if (blocking && errcode == CL_SUCCESS)
        skmd_placement_note_app_wait();
ERROR:
    if (errcode_ret)
        *errcode_ret = errcode;
    return errcode == CL_SUCCESS ? ptr : NULL;
}

void *skmd_clEnqueueMapImage(cl_command_queue q, cl_mem image, cl_bool blocking,
                             cl_map_flags map_flags, const size_t *origin, const size_t *region,
                             size_t *image_row_pitch, size_t *image_slice_pitch, cl_uint n,
                             const cl_event *wl, cl_event *event, cl_int *errcode_ret)
{
    cl_int errcode = CL_SUCCESS;
    void *ptr = NULL;
    struct skmd_enqueue e;
    SKMD_GOTO_ERROR_IF(!SKMD_VALID(q, QUEUE), CL_INVALID_COMMAND_QUEUE);
    SKMD_GOTO_ERROR_IF(!SKMD_VALID(image, MEM), CL_INVALID_MEM_OBJECT);
    SKMD_GOTO_IF_REAL_FAILED(skmd_enqueue_begin(&e, q, n, wl, event));
    ptr = real_clEnqueueMapImage(q->real, R(q, image), blocking, map_flags, origin, region,
                                 image_row_pitch, image_slice_pitch, e.nwait, e.wait, e.event,
                                 &errcode);
    errcode = skmd_enqueue_end(&e, errcode);
ERROR:
    if (errcode_ret)
        *errcode_ret = errcode;
    return errcode == CL_SUCCESS ? ptr : NULL;
}

cl_int skmd_clEnqueueUnmapMemObject(cl_command_queue q, cl_mem memobj, void *mapped_ptr,
                                    cl_uint n, const cl_event *wl, cl_event *event)
{
    QUEUE_CHECK(q);
    MEM_CHECK(memobj);
    BEGIN(q, n, wl, event);
    err = real_clEnqueueUnmapMemObject(q->real, R(q, memobj), mapped_ptr, e.nwait, e.wait,
                                       e.event);
    return skmd_enqueue_end(&e, err);
}

cl_int skmd_clEnqueueMigrateMemObjects(cl_command_queue q, cl_uint num_mem_objects,
                                       const cl_mem *mem_objects, cl_mem_migration_flags flags,
                                       cl_uint n, const cl_event *wl, cl_event *event)
{
    QUEUE_CHECK(q);
    SKMD_RETURN_ERROR_IF(num_mem_objects == 0 || !mem_objects, CL_INVALID_VALUE);
    SKMD_RETURN_ERROR_IF(num_mem_objects > 64, CL_OUT_OF_RESOURCES);
    cl_mem real[64];
    unsigned char writes[64];
    for (cl_uint i = 0; i < num_mem_objects; i++) {
        MEM_CHECK(mem_objects[i]);
        writes[i] = (flags & CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED) != 0;
    }
    if (gated(q, n, wl, mem_objects, writes, num_mem_objects)) {
        struct skmd_defer_args a = {.flags = flags};
        a.mems = malloc(num_mem_objects * sizeof *a.mems);
        SKMD_RETURN_ERROR_IF(!a.mems, CL_OUT_OF_HOST_MEMORY);
        for (cl_uint i = 0; i < num_mem_objects; i++)
            skmd_clRetainMemObject(a.mems[a.num_mems++] = mem_objects[i]);
        return skmd_defer(q, &deferred, SKMD_DEFER_MIGRATE, CL_COMMAND_MIGRATE_MEM_OBJECTS, n,
                          wl, mem_objects, writes, num_mem_objects, &a, CL_FALSE, event);
    }
    for (cl_uint i = 0; i < num_mem_objects; i++) {
        COHERENT(q, mem_objects[i], 0, mem_objects[i]->size,
                 (flags & CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED) != 0);
        real[i] = R(q, mem_objects[i]);
    }
    BEGIN(q, n, wl, event);
    err = real_clEnqueueMigrateMemObjects(q->real, num_mem_objects, real, flags, e.nwait,
                                          e.wait, e.event);
    return skmd_enqueue_end(&e, err);
}
