/* libskmd/launch/defer.h: commands that must not wait on the app's thread.
 *
 * An enqueue never blocks on a user event the app has not set yet, nor on anything that
 * may wait for one. Such a command is "gated": its wait list holds a user event or a
 * libskmd span event (eventspan.h) not yet set, or it touches a buffer that a gated
 * command in flight writes (or, when it writes, touches: inflight.h), or its queue
 * already has gated commands on its launcher (the queue's order). A gated command is
 * deferred: its arguments are kept, it is registered in flight on its buffers (gated),
 * the app gets a span event at once, and the queue's launcher thread (worker.h) waits
 * for its wait list on the host, then runs the command as the app's thread would have,
 * and sets the event (with the command's own profiling times where it has them).
 * So no real command ever waits on an unset user event (PoCL's 'basic' device hangs in
 * clSetUserEventStatus when one does, pocl issue 1177), and the app's thread waits only
 * for work that ends by itself. A blocking command that is deferred waits for its event.
 * Split launches (launch.c) take the same decision and go to the same launcher. */
#ifndef SKMD_DEFER_H
#define SKMD_DEFER_H

#include "support/object.h"

/* 1 when a command that reads mem (writes it, when `writes`) must be deferred. */
int skmd_defer_touches(cl_mem mem, int writes);

/* 1 on the thread that runs a deferred command (its waits are done). */
int skmd_defer_running(void);

enum skmd_defer_kind {
    SKMD_DEFER_READ,
    SKMD_DEFER_WRITE,
    SKMD_DEFER_READ_RECT,
    SKMD_DEFER_WRITE_RECT,
    SKMD_DEFER_COPY,
    SKMD_DEFER_COPY_RECT,
    SKMD_DEFER_FILL,
    SKMD_DEFER_MIGRATE,
    SKMD_DEFER_MARKER,
    SKMD_DEFER_BARRIER,
    SKMD_DEFER_RUN, /* a function of its own (a whole kernel launch: launch_whole.c) */
};

/* A command's arguments, as the app gave them (pointers into the app's memory stay the
 * app's: it must keep them until the command's event completes, as natively). */
struct skmd_defer_args {
    cl_mem mem[2];          /* retained */
    size_t offset[2], size;
    size_t origin[2][3], region[3], pitch[4];
    void *ptr;
    unsigned char pattern[128];
    size_t pattern_size;
    cl_mem_migration_flags flags;
    cl_mem *mems;           /* migrate: num_mems, retained (malloc'd) */
    cl_uint num_mems;
    /* SKMD_DEFER_RUN: run(q, arg, &real_event) does the command with no wait list and
     * returns a real event of it (or NULL with CL_SUCCESS: done), then done(arg). */
    cl_int (*run)(cl_command_queue q, void *arg, cl_event *real_event);
    void (*done)(void *arg);
    void *arg;
};

/* How a deferred command of the app's own kinds (all but SKMD_DEFER_RUN) runs, given by
 * the enqueue file that defers it (cl/enqueue.c, enqueue_map.c, enqueue_sync.c): run does
 * the command on q, blocking, with no wait list, its event (a libskmd event, or NULL) in
 * *ev; profiling reads that event's time `which`. */
struct skmd_defer_command {
    cl_int (*run)(cl_command_queue q, enum skmd_defer_kind kind, struct skmd_defer_args *a,
                  cl_event *ev);
    cl_int (*profiling)(cl_event ev, cl_profiling_info which, cl_ulong *t);
};

/* Posts a command of `kind` on q after the app's events wl[0..n) (valid, of q's context):
 * registered in flight on mems[0..nm) (writes[i] != 0 where it writes mems[i]), run on
 * the queue's launcher by cmd (args->run for SKMD_DEFER_RUN). With want_user, the app's
 * span event (a real event, one reference the caller's) in *user. Takes the retained
 * references in args (releases them on failure too). */
cl_int skmd_defer_post(cl_command_queue q, enum skmd_defer_kind kind,
                       const struct skmd_defer_command *cmd, cl_uint n, const cl_event *wl,
                       const cl_mem *mems, const unsigned char *writes, unsigned nm,
                       struct skmd_defer_args *args, int want_user, cl_event *user);

/* Releases the references args holds. */
void skmd_defer_args_release(struct skmd_defer_args *args);

/* The same for SKMD_DEFER_RUN (a kernel launch) with a wait list of real events
 * (retained here), the app's event as a real span event in *real_event when asked (for
 * skmd_enqueue_end; without a type of its own it answers CL_COMMAND_NDRANGE_KERNEL). */
cl_int skmd_defer_real(cl_command_queue q, cl_uint n,
                       const cl_event *real_wait, const cl_mem *mems,
                       const unsigned char *writes, unsigned nm, struct skmd_defer_args *args,
                       cl_event *real_event);

#endif
