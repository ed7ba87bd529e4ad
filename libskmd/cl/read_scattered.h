/* libskmd/cl/read_scattered.h: the app's reads of buffers whose bytes lie on several
 * members. */
#ifndef SKMD_READ_SCATTERED_H
#define SKMD_READ_SCATTERED_H

#include <CL/cl.h>

/* clEnqueueReadBuffer of [off, off+size) of mem on q (the read is first noted for
 * stream_out.h), when its bytes are not all on the queue's member, or the host copy holds
 * them all (streamed outputs, SKMD_STREAM_OUTPUTS): served from the host copy
 * (stream_out.h skmd_stream_serve_read), or each part read from a copy that holds it (the
 * host copy or a zero-copy member by a copy, the devices' parts through the transfer
 * engine, all devices at once; not with SKMD_APP_TRANSFERS=driver) straight into ptr,
 * after the queue's earlier commands and the wait list; no copy's state changes. Done when
 * it returns (a non-blocking read too); the event is a complete one. Returns 1 when it took
 * the read (*err: its result), 0 when the usual path must (the member holds them all, a
 * non-blocking read while an app user event is unset, a USE_HOST_PTR buffer, a part no
 * copy holds, a failed wait or transfer: that path, with its fault handling, reads it
 * again). */
int skmd_read_scattered(cl_command_queue q, cl_mem mem, size_t off, size_t size, void *ptr,
                        cl_bool blocking, cl_uint nwait, const cl_event *wait, cl_event *event,
                        cl_int *err);

#endif
