/* libskmd/launch/launch_enqueue.c: one real kernel enqueued for a launch. Sets the launch's
 * snapshot of the app's arguments on a member's real kernel (buffers swapped for that
 * member's copies, libskmd's samplers for the driver's), for a partition-ready or merge
 * kernel also the 8 hidden arguments and the merge's source copies, and enqueues it, all
 * under the real kernel's lock: launches of one kernel from several threads share that
 * kernel object, and the app may be setting arguments for its next launch meanwhile. */
#include <string.h>

#include "mem/coherence.h"
#include "mem/inflight.h"
#include "launch/launch_internal.h"

/* Sets the app's arguments of kernel `kk` on member m (buffers swapped for m's copies). */
static cl_int set_app_args(struct launch *L, cl_kernel kk, int m)
{
    cl_int err = CL_SUCCESS;
    for (cl_uint a = 0; a < L->k->nargs && err == CL_SUCCESS; a++) {
        const struct skmd_arg *arg = &L->args[a];
        if (!arg->set)
            continue; /* the driver reports it at launch */
        cl_sampler sampler = NULL;
        if (arg->other_handle && !arg->mem && arg->value && arg->size == sizeof sampler)
            memcpy(&sampler, arg->value, sizeof sampler);
        if (arg->mem) {
            cl_mem real = skmd_mem_real(arg->mem, m, &err);
            if (real)
                err = real_clSetKernelArg(kk, a, sizeof real, &real);
        } else if (sampler && skmd_registry_has(sampler) && SKMD_VALID(sampler, SAMPLER)) {
            /* The app's value is libskmd's sampler: the driver gets its own. */
            cl_sampler real = sampler->real[skmd_state.members[m].platform_slot];
            err = real_clSetKernelArg(kk, a, sizeof real, &real);
        } else {
            err = real_clSetKernelArg(kk, a, arg->size, arg->value);
        }
    }
    return err;
}

/* Sets the arguments of kernel `kk` on member m: the app's, the 8 hidden ones
 * (docs/transform.md), then (merge) the source copies. */
static cl_int set_args(struct launch *L, cl_kernel kk, int m, uint64_t first,
                       const cl_mem *sources, unsigned nsources)
{
    cl_int err = set_app_args(L, kk, m);
    cl_ulong hidden[8] = {first, L->ngroups[0], L->ngroups[1], L->ngroups[2],
                          L->shape.global_offset[0], L->shape.global_offset[1],
                          L->shape.global_offset[2], L->shape.work_dim};
    for (cl_uint h = 0; h < 8 && err == CL_SUCCESS; h++)
        err = real_clSetKernelArg(kk, L->k->nargs + h, sizeof hidden[h], &hidden[h]);
    for (unsigned s = 0; s < nsources && err == CL_SUCCESS; s++)
        err = real_clSetKernelArg(kk, L->k->nargs + 8 + s, sizeof sources[s], &sources[s]);
    return err;
}

/* Arguments and launch as one step: other launches of the kernel set their own. */
cl_int launch_enqueue(struct launch *L, const struct launch_command *c)
{
    skmd_key_lock(c->kernel);
    cl_int err = c->hidden ? set_args(L, c->kernel, c->member, c->first, c->sources,
                                      c->nsources)
                           : set_app_args(L, c->kernel, c->member);
    if (err == CL_SUCCESS)
        err = real_clEnqueueNDRangeKernel(c->queue, c->kernel, L->shape.work_dim, c->offset,
                                          c->global, c->local, c->nwait, c->wait, c->event);
    skmd_key_unlock(c->kernel);
    return err;
}
