/* libskmd/cl/app_io.h: the app's own large buffer reads and writes, and the data of buffers
 * it creates with CL_MEM_COPY_HOST_PTR, moved by the transfer engine (pinned staging,
 * chunks pipelined, copy threads: transfer.h) instead of one call of the driver from the
 * app's ordinary memory. On NVIDIA that is the difference between the pageable rate and
 * the pinned one (several times higher) less the staging copy (bench/RESULTS.md).
 *
 * SKMD_APP_TRANSFERS: auto (the default) takes transfers of at least
 * SKMD_TRANSFER_DIRECT_KIB to or from a member that does not share host memory (a GPU);
 * engine takes every one, CPU members too (a test hook: there the engine copies directly
 * unless SKMD_TRANSFER_STAGE_CPU); driver takes none; host is auto for reads, but writes
 * (and COPY_HOST_PTR data) of at least SKMD_TRANSFER_DIRECT_KIB land in libskmd's host
 * copy, whatever the member, and move at the launch that reads them: each member then
 * receives only its share's bytes, in pieces that overlap its kernel (pieces.h).
 * Non-blocking commands are taken only while none of the app's user events is unset
 * (what they wait for then completes by itself): they are done before the call returns (a
 * non-blocking one too: it is allowed to complete early), after every command queued
 * before them on the app's queue and after their wait list (whose failed event fails
 * them). The event the app asks for is a completed stand-in that reports the command and,
 * on a queue with profiling, its times (eventspan.h). Buffers made with
 * CL_MEM_USE_HOST_PTR are left to the driver (their real buffer is the app's memory). */
#ifndef SKMD_APP_IO_H
#define SKMD_APP_IO_H

#include "support/object.h"

/* clEnqueueWriteBuffer / clEnqueueReadBuffer of [off, off+size) of mem on q, after the
 * buffer manager made q's member the writer / current over those bytes. Returns 1 when
 * taken (the result in *err), 0 when the driver's call should do it. */
int skmd_app_write(cl_command_queue q, cl_mem mem, size_t off, size_t size, const void *ptr,
                   int blocking, cl_uint nwait, const cl_event *wl, cl_event *event,
                   cl_int *err);
int skmd_app_read(cl_command_queue q, cl_mem mem, size_t off, size_t size, void *ptr,
                  int blocking, cl_uint nwait, const cl_event *wl, cl_event *event, cl_int *err);

/* SKMD_APP_TRANSFERS=host: a new CL_MEM_COPY_HOST_PTR buffer's data goes to its host copy
 * (create_in_host says whether; the buffer is then made with no holder, and fill_host,
 * after skmd_coh_init, copies the bytes in and makes the host copy current). */
int skmd_app_create_in_host(cl_mem_flags flags, size_t size);
cl_int skmd_app_fill_host(cl_mem mem, const void *host_ptr);

/* clCreateBuffer with CL_MEM_COPY_HOST_PTR for member m of ctx: when taken, the real
 * buffer is made without the app's pointer and the engine writes the bytes; returns it.
 * NULL: not taken, or it failed (then the driver's own call makes the buffer). */
cl_mem skmd_app_create_copy(cl_context ctx, int m, cl_mem_flags flags, size_t size,
                            const void *host_ptr);

#endif
