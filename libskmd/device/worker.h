/* libskmd/device/worker.h: the threads that run split launches.
 *
 * Each app queue gets one launcher thread (made at its first split launch) that runs the
 * queue's split launches in the order they were enqueued; the app's clEnqueueNDRangeKernel
 * returns as soon as the job is queued. Inside a launch, the shares' host-side work
 * (fetching inputs, enqueueing, waiting) runs on one thread per member (parallel.h). */
#ifndef SKMD_WORKER_H
#define SKMD_WORKER_H

#include "support/object.h"

struct skmd_launcher;

/* Queues fn(arg) on q's launcher thread (made on first use). Returns CL_SUCCESS, or an
 * error (nothing queued) when no thread or memory can be had. */
cl_int skmd_launcher_post(cl_command_queue q, void (*fn)(void *), void *arg);

/* Blocks until every job queued on q's launcher so far is done (clFinish). */
void skmd_launcher_drain(cl_command_queue q);

/* Runs every job still queued on q's launcher, then ends its thread (at queue release). */
void skmd_launcher_stop(cl_command_queue q);

#endif
