/* libskmd/host_map.h: the app's maps of buffers served from libskmd's host copy.
 *
 * A map through the queue's member leaves the app's writes on that member, and every
 * other member's part of the next split launch then crosses two links (member -> host ->
 * member); a map for reading of bytes spread over several members first gathers them all
 * on the queue's member and then copies them to the host. Through the host copy, each
 * member fetches its part over its own link, and a read takes each part from where it is
 * (nothing at all when the host copy holds it, as for streamed outputs).
 *
 * Taken for buffers (not images, not USE_HOST_PTR: their map must point into the app's
 * memory) when the map writes and split launches read the buffer on several members
 * (its root's `spread`), or when it only reads and the host copy holds the bytes, or the
 * queue's member lacks some of them; blocking maps only (a non-blocking one returns at
 * once, and what it waits for may wait on a user event the app sets after the call). The
 * map is done when it returns, after the queue's earlier commands and the wait list. A
 * map for writing makes the host copy alone current over the mapped bytes at once, so
 * nothing libskmd moves overwrites them before the unmap. */
#ifndef SKMD_HOST_MAP_H
#define SKMD_HOST_MAP_H

#include <CL/cl.h>

/* clEnqueueMapBuffer through the host copy: 1 when taken (*ptr and *err its result), 0
 * when the queue's member maps it. */
int skmd_host_map(cl_command_queue q, cl_mem mem, cl_bool blocking, cl_map_flags flags,
                  size_t off, size_t size, cl_uint nwait, const cl_event *wait,
                  cl_event *event, void **ptr, cl_int *err);

/* clEnqueueUnmapMemObject of a pointer skmd_host_map returned for mem: 1 when it was one
 * (*err the result; the event completes after the queue's earlier commands and the wait
 * list), 0 when the member's real map it is. */
int skmd_host_unmap(cl_command_queue q, cl_mem mem, void *ptr, cl_uint nwait,
                    const cl_event *wait, cl_event *event, cl_int *err);

/* mem's maps through the host copy not yet unmapped (CL_MEM_MAP_COUNT adds them). */
cl_uint skmd_host_map_count(cl_mem mem);

/* Forgets mem's maps (at its release). */
void skmd_host_map_free(cl_mem mem);

#endif
