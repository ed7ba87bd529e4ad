/* libskmd/mem/member_health.h: what libskmd knows about each member's faults, and where
 * work goes when a member cannot do it.
 *
 * A member is healthy, or has failed a share for a reason of its own that is not a device
 * fault (it takes no more shares; whole launches still run there), or has failed a kernel
 * launch (it runs no more kernels: no shares, no whole launches; its copies of buffers
 * are still read and written), or is lost (it
 * failed a command the way a device that disappeared does: it is never used again in
 * this process, and the app's queues on it move to another member). A buffer may also be
 * refused by one member (its allocation failed there): that member never gets a copy.
 *
 * Every state only ever gets worse; each change is logged once, naming the member. The
 * success path reads one relaxed atomic per check: no lock, no system call. */
#ifndef SKMD_MEMBER_HEALTH_H
#define SKMD_MEMBER_HEALTH_H

#include <stdatomic.h>

#include "support/object.h"

enum skmd_member_state {
    SKMD_MEMBER_OK,
    SKMD_MEMBER_NO_SHARES,
    SKMD_MEMBER_NO_KERNELS,
    SKMD_MEMBER_LOST
};

/* What a failed real command says about its member. */
enum skmd_fault {
    SKMD_FAULT_NONE,   /* not a device fault (the app's error, or success) */
    SKMD_FAULT_ALLOC,  /* CL_MEM_OBJECT_ALLOCATION_FAILURE: the member cannot hold a buffer */
    SKMD_FAULT_DEVICE, /* out of resources, not available, or a command ending in error */
};

extern _Atomic unsigned char skmd_member_states[SKMD_MAX_MEMBERS];
/* Members lost so far: the app's queues check it on every command (one load). */
extern atomic_int skmd_members_lost;

static inline enum skmd_member_state skmd_member_state(int m)
{
    return (enum skmd_member_state)atomic_load_explicit(&skmd_member_states[m],
                                                        memory_order_relaxed);
}

/* The member may run kernels (whole launches; shares too when it takes shares). */
static inline int skmd_member_runs_kernels(int m)
{
    return skmd_member_state(m) <= SKMD_MEMBER_NO_SHARES;
}

/* The member may take shares of split launches. */
static inline int skmd_member_takes_shares(int m)
{
    return skmd_member_state(m) == SKMD_MEMBER_OK;
}

static inline int skmd_member_is_lost(int m)
{
    return skmd_member_state(m) == SKMD_MEMBER_LOST;
}

enum skmd_fault skmd_fault_of(cl_int err);

/* Member m failed a share (the caller logs why): it takes no more shares. */
void skmd_member_share_failed(int m);

/* Member m failed a kernel launch of `kernel` with err: it runs no more kernels. */
void skmd_member_kernel_failed(int m, cl_int err, const char *kernel);

/* Member m failed a command (`what`) as a vanished device does: lost for good. */
void skmd_member_lose(int m, cl_int err, const char *what);

/* Records a fault of member m seen on a real command (`what`): a device fault loses the
 * member, an allocation fault refuses `mem` there (mem may be NULL). Returns the fault. */
enum skmd_fault skmd_member_fault(int m, cl_int err, const char *what, cl_mem mem);

/* Member m cannot hold buffer `mem` (its root): no copy is ever made there again. */
void skmd_mem_refuse(cl_mem mem, int m);
int skmd_mem_refused(cl_mem mem, int m);

/* Whether program p was built for member m (its kernels may run there). */
int skmd_program_on_member(cl_program p, int m);

/* A member that may run kernel k whole, with every buffer of `mems` allowed there, other
 * than `avoid` (-1: none): the healthy GPUs first, then the others, in member order.
 * -1 when none is left. */
int skmd_member_for_kernel(cl_kernel k, int avoid, const cl_mem *mems, unsigned nmems);

/* The member a new queue of the app on device dev runs on: dev's executing member, or,
 * once it is lost, a healthy member of its real platform (GPUs first, dev's own members
 * first); the executing member when none is. */
int skmd_member_for_queue(cl_device_id dev);

/* The app's queue q, when its member is lost: its commands go to a new real queue on a
 * healthy member of the same real platform from now on (the old one is kept until q is
 * released: other threads may be using it). CL_SUCCESS, or CL_OUT_OF_RESOURCES when no
 * member of that platform is left. */
cl_int skmd_queue_failover(cl_command_queue q);

/* Cheap check at the top of every command of the app's queue. */
static inline cl_int skmd_queue_healthy(cl_command_queue q)
{
    if (__builtin_expect(atomic_load_explicit(&skmd_members_lost, memory_order_relaxed) == 0,
                         1))
        return CL_SUCCESS;
    return skmd_queue_failover(q);
}

/* Releases the real queues q left behind on lost members (at q's release). */
void skmd_queue_release_retired(cl_command_queue q);

/* A completed real event in the context of q's real queue, for a command libskmd did
 * itself (through the host copy or on another member) when the app asked for an event:
 * `real` when it is in that context already (taken over), else a user event set complete
 * (and `real` released). NULL when none can be made. */
cl_event skmd_done_event(cl_command_queue q, cl_event real, cl_int *err);

/* After a command of the app's queue q on buffer mem (may be NULL) failed with err:
 * records the fault against q's member when `attribute` (the failed call was that
 * member's; coherence attributes its own transfers), and says whether the command is
 * worth doing again: q's member is lost now (q moves on), or cannot hold mem (the
 * command goes through the host copy). */
int skmd_fault_retry(cl_command_queue q, cl_mem mem, cl_int err, int attribute);

#endif
