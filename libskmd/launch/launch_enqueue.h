/* libskmd/launch/launch_enqueue.h: one real kernel of a launch, from its enqueue to its end
 * (launch_enqueue.c). */
#ifndef SKMD_LAUNCH_ENQUEUE_H
#define SKMD_LAUNCH_ENQUEUE_H

#include "launch/launch_state.h"

/* A real kernel's arguments and its enqueue, as one step. */
struct launch_command {
    cl_kernel kernel;        /* the real kernel on `member` (the app's, split or merge) */
    int member;
    cl_command_queue queue;  /* a real queue of that member */
    int hidden;              /* 1: the 8 hidden arguments after the app's (and `sources`) */
    uint64_t first;          /* hidden: the first work-group */
    const cl_mem *sources;   /* hidden, merge kernel: the other member's copies */
    unsigned nsources;
    const size_t *offset, *global, *local;
    cl_uint nwait;
    const cl_event *wait;
    cl_event *event;
};
cl_int launch_enqueue(struct launch *L, const struct launch_command *c);

/* Waits for a started share (sh->ev, timed by sh->timing when set); CL_SUCCESS when it
 * ran. Keeps its device times. */
cl_int launch_finish_share(struct share *sh);

#endif
