/* libskmd/host_map.c: the app's maps of buffers served from libskmd's host copy (see
 * host_map.h). */
#include <stdlib.h>
#include <string.h>

#include "coherence.h"
#include "common.h"
#include "config.h"
#include "host_map.h"
#include "inflight.h"
#include "log.h"
#include "member_health.h"
#include "worker.h"

/* One map through the host copy, not yet unmapped (a list per cl_mem, under obj.lock). */
struct skmd_host_mapping {
    void *ptr;
    struct skmd_host_mapping *next;
};

/* Flags and range as the spec allows them; anything else takes the usual path, which
 * returns the spec's error. */
static int valid_map(cl_mem mem, cl_map_flags flags, size_t off, size_t size)
{
    const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    if (mem->mtype != CL_MEM_OBJECT_BUFFER || size == 0 || off > mem->size ||
        size > mem->size - off || (flags & ~known))
        return 0;
    return !((flags & CL_MAP_WRITE_INVALIDATE_REGION) &&
             (flags & (CL_MAP_READ | CL_MAP_WRITE)));
}

/* Whether the map of [b, e) of root (root offsets) on member m is better served from the
 * host copy: see host_map.h. */
static int through_host(cl_mem root, int m, int writes, uint64_t b, uint64_t e)
{
    if (root->flags & CL_MEM_USE_HOST_PTR)
        return 0;
    if (writes)
        return __atomic_load_n(&root->spread, __ATOMIC_RELAXED) != 0;
    if (strcmp(skmd_config()->app_transfers, "driver") == 0)
        return 0;
    skmd_buffer_lock(root);
    int take = (root->host_copy && skmd_ranges_covers(&root->valid[SKMD_HOST], b, e)) ||
               !skmd_ranges_covers(&root->valid[m], b, e);
    skmd_buffer_unlock(root);
    return take;
}

/* Under the buffer's lock: the host copy made current over the mapped bytes (unless the
 * map invalidates them) and, for a map that writes, alone current there. */
static cl_int prepare(cl_mem mem, cl_mem root, cl_map_flags flags, size_t off, size_t size)
{
    if (!skmd_coh_host_copy(root))
        return CL_OUT_OF_HOST_MEMORY;
    /* Zero-copy members' kernels write the host copy in place: theirs are done first. */
    cl_int err = root->zero_copy ? skmd_coh_settle_zero_copy(root) : CL_SUCCESS;
    if (err == CL_SUCCESS && !(flags & CL_MAP_WRITE_INVALIDATE_REGION))
        err = skmd_coh_fetch(mem, SKMD_HOST, off, off + size, NULL);
    if (err == CL_SUCCESS && (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)))
        err = skmd_coh_written(mem, SKMD_HOST, off, off + size);
    return err;
}

int skmd_host_map(cl_command_queue q, cl_mem mem, cl_bool blocking, cl_map_flags flags,
                  size_t off, size_t size, cl_uint nwait, const cl_event *wait,
                  cl_event *event, void **ptr, cl_int *err)
{
    if (!blocking || !valid_map(mem, flags, off, size))
        return 0;
    cl_mem root = skmd_mem_root(mem);
    int writes = (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) != 0;
    uint64_t b = off + (mem != root ? mem->origin : 0);
    if (!through_host(root, q->member, writes, b, b + size))
        return 0;
    struct skmd_host_mapping *mapping = malloc(sizeof *mapping);
    struct skmd_enqueue en;
    /* A failure here (a bad wait list too): the usual path meets it again and reports it. */
    if (!mapping || skmd_host_command_begin(&en, q, nwait, wait, event) != CL_SUCCESS) {
        if (mapping)
            skmd_enqueue_abandon(&en);
        free(mapping);
        return 0;
    }
    skmd_inflight_wait_mem(mem, writes); /* split launches in flight on it finish first */
    skmd_buffer_lock(mem);
    cl_int perr = prepare(mem, root, flags, off, size);
    skmd_buffer_unlock(mem);
    if (perr != CL_SUCCESS) {
        /* The usual path, with its fault handling, maps it on the queue's member. */
        skmd_log(SKMD_LOG_INFO, "map of %zu bytes through the host copy failed (%s): mapped "
                 "on the queue's member", size, skmd_error_name(perr));
        skmd_enqueue_abandon(&en);
        free(mapping);
        return 0;
    }
    mapping->ptr = root->host_copy + b;
    pthread_mutex_lock(&mem->obj.lock);
    mapping->next = mem->host_maps;
    mem->host_maps = mapping;
    pthread_mutex_unlock(&mem->obj.lock);
    skmd_log(SKMD_LOG_DEBUG, "map of %zu bytes (%s) from the host copy", size,
             writes ? "writing: split launches read the buffer on several members"
                    : "reading: the host copy holds them, or they lie on several members");
    *ptr = mapping->ptr;
    *err = skmd_host_command_end(&en, CL_SUCCESS, CL_COMMAND_MAP_BUFFER);
    return 1;
}

/* Under mem's obj.lock: the link that points at ptr's mapping, or NULL. */
static struct skmd_host_mapping **find(cl_mem mem, void *ptr)
{
    for (struct skmd_host_mapping **at = &mem->host_maps; *at; at = &(*at)->next)
        if ((*at)->ptr == ptr)
            return at;
    return NULL;
}

int skmd_host_unmap(cl_command_queue q, cl_mem mem, void *ptr, cl_uint nwait,
                    const cl_event *wait, cl_event *event, cl_int *err)
{
    pthread_mutex_lock(&mem->obj.lock);
    int mine = find(mem, ptr) != NULL;
    pthread_mutex_unlock(&mem->obj.lock);
    if (!mine)
        return 0;
    /* The bytes are in place since the map: the unmap only orders, as a marker after the
     * queue's earlier commands (split launches, which no real queue holds, included). */
    skmd_launcher_drain(q);
    struct skmd_enqueue en;
    cl_int r = skmd_enqueue_begin(&en, q, nwait, wait, event);
    if (r == CL_SUCCESS)
        r = real_clEnqueueMarkerWithWaitList(q->real, en.nwait, en.wait, en.event);
    r = skmd_enqueue_end(&en, r);
    if (r == CL_SUCCESS && event)
        (*event)->type = CL_COMMAND_UNMAP_MEM_OBJECT;
    if (r == CL_SUCCESS) {
        pthread_mutex_lock(&mem->obj.lock);
        struct skmd_host_mapping **at = find(mem, ptr);
        struct skmd_host_mapping *gone = at ? *at : NULL;
        if (at)
            *at = gone->next;
        pthread_mutex_unlock(&mem->obj.lock);
        free(gone);
    }
    *err = r;
    return 1;
}

cl_uint skmd_host_map_count(cl_mem mem)
{
    cl_uint n = 0;
    pthread_mutex_lock(&mem->obj.lock);
    for (struct skmd_host_mapping *m = mem->host_maps; m; m = m->next)
        n++;
    pthread_mutex_unlock(&mem->obj.lock);
    return n;
}

void skmd_host_map_free(cl_mem mem)
{
    for (struct skmd_host_mapping *m = mem->host_maps, *next; m; m = next) {
        next = m->next;
        free(m);
    }
    mem->host_maps = NULL;
}
