/* libskmd/cl/write_placed.h: the app's writes of a buffer that carries a placement
 * (placement.h): each member's part goes straight from the app's memory to that member,
 * every device's link at once, instead of the whole write to the queue's member (from
 * which the other members' parts would cross two links, one after the other, at the
 * launch). */
#ifndef SKMD_WRITE_PLACED_H
#define SKMD_WRITE_PLACED_H

#include <CL/cl.h>

/* clEnqueueWriteBuffer of [off, off+size) of mem on q when mem's root carries a
 * placement: after the queue's earlier commands and the wait list, the bytes each member
 * reads go to that member through the transfer engine (a zero-copy member's and the bytes
 * no member reads into libskmd's host copy); those copies alone are current there then.
 * Done when it returns (a non-blocking write too); the event is a complete one. Returns
 * 1 when it took the write (*err: its result), 0 when the usual path must (no placement,
 * a non-blocking write with a wait list, a USE_HOST_PTR buffer, SKMD_APP_TRANSFERS=driver,
 * SKMD_PLACE_WRITES=0). A failed transfer puts the whole write in the host copy instead. */
int skmd_write_placed(cl_command_queue q, cl_mem mem, size_t off, size_t size, const void *ptr,
                      cl_bool blocking, cl_uint nwait, const cl_event *wait, cl_event *event,
                      cl_int *err);

#endif
