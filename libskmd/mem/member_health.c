/* libskmd/mem/member_health.c: member faults (see member_health.h). */
#include <stdio.h>
#include <stdlib.h>

#include "support/clock.h"
#include "device/api.h"
#include "support/error.h"
#include "support/object.h"
#include "device/eventspan.h"
#include "mem/inflight.h"
#include "mem/member_health.h"
#include "support/report.h"

_Atomic unsigned char skmd_member_states[SKMD_MAX_MEMBERS];
atomic_int skmd_members_lost;

enum skmd_fault skmd_fault_of(cl_int err)
{
    if (err == CL_MEM_OBJECT_ALLOCATION_FAILURE)
        return SKMD_FAULT_ALLOC;
    /* A command ending in error carries the reason as its (negative) status; the
     * argument errors (-30 and below) are the app's, not the device's. */
    if (err == CL_OUT_OF_RESOURCES || err == CL_DEVICE_NOT_AVAILABLE ||
        err == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        return SKMD_FAULT_DEVICE;
    return SKMD_FAULT_NONE;
}

/* Moves member m to state `to` when that is worse; 1 when it changed. */
static int worsen(int m, enum skmd_member_state to)
{
    unsigned char was = atomic_load(&skmd_member_states[m]);
    while (was < to)
        if (atomic_compare_exchange_weak(&skmd_member_states[m], &was, (unsigned char)to))
            return 1;
    return 0;
}

void skmd_member_share_failed(int m)
{
    worsen(m, SKMD_MEMBER_NO_SHARES);
}

void skmd_member_kernel_failed(int m, cl_int err, const char *kernel)
{
    if (worsen(m, SKMD_MEMBER_NO_KERNELS))
        skmd_log(SKMD_LOG_WARN, "member %d (%s) failed a launch of %s (%s): it runs no more "
                 "kernels; its buffer copies stay in use", m, skmd_state.members[m].name,
                 kernel, skmd_error_name(err));
}

void skmd_member_lose(int m, cl_int err, const char *what)
{
    if (!worsen(m, SKMD_MEMBER_LOST))
        return;
    atomic_fetch_add(&skmd_members_lost, 1);
    skmd_log(SKMD_LOG_WARN, "member %d (%s) lost: %s failed (%s); it is not used again "
             "(no shares, no whole launches, no transfers)", m, skmd_state.members[m].name,
             what, skmd_error_name(err));
    char label[120];
    snprintf(label, sizeof label, "%.80s (lost)", skmd_state.members[m].name);
    skmd_report_name_device(m, label);
}

enum skmd_fault skmd_member_fault(int m, cl_int err, const char *what, cl_mem mem)
{
    enum skmd_fault f = skmd_fault_of(err);
    if (f == SKMD_FAULT_DEVICE)
        skmd_member_lose(m, err, what);
    else if (f == SKMD_FAULT_ALLOC && mem)
        skmd_mem_refuse(mem, m);
    return f;
}

void skmd_mem_refuse(cl_mem mem, int m)
{
    cl_mem root = skmd_mem_root(mem);
    unsigned bit = 1u << m;
    if (__atomic_fetch_or(&root->refused, bit, __ATOMIC_RELAXED) & bit)
        return;
    skmd_log(SKMD_LOG_WARN, "member %d (%s) cannot allocate buffer %p (%zu bytes): its work "
             "on that buffer goes to other members or the host copy", m,
             skmd_state.members[m].name, (void *)root, root->size);
}

int skmd_mem_refused(cl_mem mem, int m)
{
    return (__atomic_load_n(&skmd_mem_root(mem)->refused, __ATOMIC_RELAXED) >> m) & 1u;
}

int skmd_program_on_member(cl_program p, int m)
{
    return !((p->not_built >> m) & 1u);
}

int skmd_member_for_kernel(cl_kernel k, int avoid, const cl_mem *mems, unsigned nmems)
{
    for (int pass = 0; pass < 2; pass++)
        for (int m = 0; m < skmd_state.nmembers; m++) {
            int gpu = (skmd_state.members[m].type & CL_DEVICE_TYPE_GPU) != 0;
            if (m == avoid || gpu != (pass == 0) || !skmd_member_runs_kernels(m) ||
                !skmd_program_on_member(k->program, m) ||
                !skmd_member_up(k->program->context, m) || !k->real[m])
                continue;
            unsigned i = 0;
            while (i < nmems && (!mems[i] || !skmd_mem_refused(mems[i], m)))
                i++;
            if (i == nmems)
                return m;
        }
    return -1;
}

/* A member among `within` (bits) that is not lost, on platform slot `slot` (-1: any; a
 * member of another slot has another real context, and the app's events of the queue's
 * old member are then waited for on the host: event.c, leave_out_foreign), GPUs first;
 * -1: none. */
static int healthy_member(int slot, unsigned within)
{
    for (int pass = 0; pass < 2; pass++)
        for (int m = 0; m < skmd_state.nmembers; m++) {
            int gpu = (skmd_state.members[m].type & CL_DEVICE_TYPE_GPU) != 0;
            if (!skmd_member_is_lost(m) &&
                (slot < 0 || skmd_state.members[m].platform_slot == slot) &&
                gpu == (pass == 0) && (within >> m & 1u))
                return m;
        }
    return -1;
}

/* Where a queue of lost member m goes: a member of its real platform (its context, its
 * events) if one is left, else any (every GPU has a real context of its own). Members of
 * `within` first. -1: none. */
static int failover_member(int m, unsigned within)
{
    int slot = skmd_state.members[m].platform_slot;
    int to = healthy_member(slot, within);
    if (to < 0)
        to = healthy_member(slot, ~0u);
    if (to < 0)
        to = healthy_member(-1, within);
    if (to < 0)
        to = healthy_member(-1, ~0u);
    return to;
}

int skmd_member_for_queue(cl_device_id dev)
{
    int m = dev->exec;
    if (__builtin_expect(!skmd_member_is_lost(m), 1))
        return m;
    int other = failover_member(m, dev->members);
    return other >= 0 ? other : m;
}

/* Real queues left behind by failovers, released with their libskmd queue. */
static pthread_mutex_t retired_lock = PTHREAD_MUTEX_INITIALIZER;
static struct retired {
    cl_command_queue owner, real;
    struct retired *next;
} *retired;

/* One failover at a time (not q's object lock: it is never held across a real call). */
static pthread_mutex_t failover_lock = PTHREAD_MUTEX_INITIALIZER;

cl_int skmd_queue_failover(cl_command_queue q)
{
    pthread_mutex_lock(&failover_lock);
    int from = q->member;
    cl_int err = CL_SUCCESS;
    if (!skmd_member_is_lost(from)) {
        pthread_mutex_unlock(&failover_lock);
        return CL_SUCCESS;
    }
    /* Members already up first: a bring-up takes a GPU's driver a tenth of a second. */
    int to = failover_member(from, q->device->members & skmd_members_up(q->context));
    if (to < 0 || !skmd_member_up(q->context, to)) {
        to = failover_member(from, q->device->members);
        if (to >= 0 && !skmd_member_up(q->context, to))
            q->context->bring_up(q->context, "a lost member's queue moves there", 1);
        if (to >= 0 && !skmd_member_up(q->context, to))
            to = -1;
    }
    struct retired *r = to >= 0 ? malloc(sizeof *r) : NULL;
    cl_command_queue real = NULL;
    if (r) {
        const cl_queue_properties *props = q->nprops ? q->props : NULL;
        real = props ? real_clCreateCommandQueueWithProperties(skmd_member_context(q->context, to),
                                                               skmd_state.members[to].real_device,
                                                               props, &err)
                     : real_clCreateCommandQueue(skmd_member_context(q->context, to),
                                                 skmd_state.members[to].real_device,
                                                 q->properties, &err);
    }
    if (real) {
        *r = (struct retired){q, q->real, NULL};
        pthread_mutex_lock(&retired_lock);
        r->next = retired;
        retired = r;
        pthread_mutex_unlock(&retired_lock);
        /* Threads reading the pair without the lock see the old queue or the new one;
         * a command on the old one fails as before and is not lost data. */
        __atomic_store_n(&q->real, real, __ATOMIC_RELEASE);
        __atomic_store_n(&q->member, to, __ATOMIC_RELEASE);
        skmd_log(SKMD_LOG_WARN, "a queue of lost member %d (%s) now runs on member %d (%s)",
                 from, skmd_state.members[from].name, to, skmd_state.members[to].name);
    } else {
        free(r);
        static unsigned told; /* once per lost member: every later command fails alike */
        if (!(told & (1u << from)))
            skmd_log(SKMD_LOG_ERROR, "a queue of lost member %d (%s): no other member can "
                     "take it (%s); its commands fail", from,
                     skmd_state.members[from].name,
                     skmd_error_name(to < 0 ? CL_DEVICE_NOT_FOUND : err));
        told |= 1u << from;
        err = CL_OUT_OF_RESOURCES;
    }
    pthread_mutex_unlock(&failover_lock);
    return real ? CL_SUCCESS : err;
}

void skmd_queue_release_retired(cl_command_queue q)
{
    if (atomic_load_explicit(&skmd_members_lost, memory_order_relaxed) == 0)
        return;
    struct retired *mine = NULL;
    pthread_mutex_lock(&retired_lock);
    for (struct retired **p = &retired; *p;) {
        struct retired *r = *p;
        if (r->owner != q) {
            p = &r->next;
            continue;
        }
        *p = r->next;
        r->next = mine;
        mine = r;
    }
    pthread_mutex_unlock(&retired_lock);
    while (mine) { /* released outside the lock: a release may wait for the driver */
        struct retired *next = mine->next;
        real_clReleaseCommandQueue(mine->real);
        free(mine);
        mine = next;
    }
}

cl_event skmd_done_event(cl_command_queue q, cl_event real, cl_int *err)
{
    cl_context want = skmd_member_context(q->context, q->member), have = NULL;
    if (real && real_clGetEventInfo(real, CL_EVENT_CONTEXT, sizeof have, &have, NULL) ==
                    CL_SUCCESS && have == want) {
        *err = CL_SUCCESS;
        return real;
    }
    if (real)
        real_clReleaseEvent(real);
    return skmd_span_event_done(q, 0, err); /* it answers profiling queries */
}

int skmd_fault_retry(cl_command_queue q, cl_mem mem, cl_int err, int attribute)
{
    int m = q->member;
    if (attribute)
        skmd_member_fault(m, err, "a command of the app's queue", mem);
    return skmd_fault_of(err) != SKMD_FAULT_NONE &&
           (skmd_member_is_lost(m) || (mem && skmd_mem_refused(mem, m)));
}
