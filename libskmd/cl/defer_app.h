/* libskmd/cl/defer_app.h: the app's commands deferred (launch/defer.h tells which
 * commands are gated, and how they run). */
#ifndef SKMD_DEFER_APP_H
#define SKMD_DEFER_APP_H

#include "launch/defer.h"

/* 1 when a command on q with this wait list must be deferred (before the buffers are
 * asked: skmd_defer_touches). An invalid event makes it 0: the usual path reports it. */
int skmd_defer_wanted(cl_command_queue q, cl_uint n, const cl_event *wl);

/* The profiling time `which` of a deferred command's event (a libskmd event): the
 * `profiling` of every struct skmd_defer_command of the enqueue files. */
cl_int skmd_defer_profiling(cl_event ev, cl_profiling_info which, cl_ulong *t);

/* Defers a command of `kind` on q (its wait list n, wl; the buffers it touches mems[0..nm)
 * with writes[i] != 0 where it writes mems[i]), to be run by cmd (the enqueue file of the
 * command: its entry point called again, blocking, with no wait list; args->run for
 * SKMD_DEFER_RUN); the app's event in *event when asked; waits for it when `blocking`.
 * Takes the retained references in args (releases them on failure too). */
cl_int skmd_defer(cl_command_queue q, const struct skmd_defer_command *cmd,
                  enum skmd_defer_kind kind, cl_command_type type, cl_uint n,
                  const cl_event *wl, const cl_mem *mems, const unsigned char *writes,
                  unsigned nm, struct skmd_defer_args *args, cl_bool blocking, cl_event *event);

#endif
