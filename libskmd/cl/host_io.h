/* libskmd/cl/host_io.h: the app's commands that libskmd carries out itself on the app's
 * thread: reads and writes through the host copy, or straight between the app's memory
 * and the members. */
#ifndef SKMD_HOST_IO_H
#define SKMD_HOST_IO_H

#include "support/object.h"

struct skmd_enqueue;
/* Drops an enqueue begun with skmd_enqueue_begin that will be done again. */
void skmd_enqueue_abandon(struct skmd_enqueue *e);

/* A command libskmd carries out itself on the app's thread (a read or write through the
 * host copy, or straight between the app's memory and the members): begun after the
 * queue's earlier commands and the wait list. CL_SUCCESS, or why not (e is then to be
 * ended with that error, or abandoned). */
cl_int skmd_host_command_begin(struct skmd_enqueue *e, cl_command_queue q, cl_uint n,
                               const cl_event *wl, cl_event *event);
/* Ends it with its result: the app's event, when it asked for one, is a complete one
 * that reports `type`. */
cl_int skmd_host_command_end(struct skmd_enqueue *e, cl_int err, cl_command_type type);

/* clEnqueueReadBuffer / clEnqueueWriteBuffer for a queue whose member cannot hold the
 * buffer: through libskmd's host copy, after the queue's earlier commands and the wait
 * list; blocking whatever the app asked (a fault path). */
cl_int skmd_host_read(cl_command_queue q, cl_mem mem, size_t off, size_t size, void *ptr,
                      cl_uint n, const cl_event *wl, cl_event *event);
cl_int skmd_host_write(cl_command_queue q, cl_mem mem, size_t off, size_t size,
                       const void *ptr, cl_uint n, const cl_event *wl, cl_event *event);

#endif
