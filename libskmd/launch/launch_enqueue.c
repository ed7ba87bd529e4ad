/* libskmd/launch/launch_enqueue.c: one real kernel enqueued for a launch. Sets the launch's
 * snapshot of the app's arguments on a member's real kernel (buffers swapped for that
 * member's copies, libskmd's samplers for the driver's), for a partition-ready or merge
 * kernel also the 8 hidden arguments and the merge's source copies, and enqueues it, all
 * under the real kernel's lock: launches of one kernel from several threads share that
 * kernel object, and the app may be setting arguments for its next launch meanwhile.
 * A share's kernel (or a merge's) is then waited for here too, and its device times kept:
 * the one end of a real kernel that the share and merge steps both need. */
#include <string.h>

#include "mem/coherence.h"
#include "device/event_time.h"
#include "mem/inflight.h"
#include "launch/launch_enqueue.h"

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

/* Waits for a started share; CL_SUCCESS when it ran. Keeps its device times. */
cl_int launch_finish_share(struct share *sh)
{
    cl_int status = CL_SUCCESS;
    cl_int err = real_clWaitForEvents(1, &sh->ev);
    real_clGetEventInfo(sh->ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                        NULL);
    /* Source-route shares are several box launches: first box start to last box end. */
    cl_event first = sh->timing[0] ? sh->timing[0] : sh->ev;
    cl_event last = sh->timing[1] ? sh->timing[1] : sh->ev;
    sh->timed = real_clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START,
                                             sizeof sh->t_start, &sh->t_start,
                                             NULL) == CL_SUCCESS &&
                real_clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END,
                                             sizeof sh->t_end, &sh->t_end,
                                             NULL) == CL_SUCCESS;
    sh->ms = skmd_event_span_ms(first, last);
    if (sh->pieces > 1) /* the pieces' kernels alone, not the waits for their inputs */
        sh->ms = sh->pieces_ms;
    for (int i = 0; i < 2; i++)
        if (sh->timing[i])
            real_clReleaseEvent(sh->timing[i]);
    sh->timing[0] = sh->timing[1] = NULL;
    real_clReleaseEvent(sh->ev);
    sh->ev = NULL;
    return err != CL_SUCCESS ? err : status < 0 ? status : CL_SUCCESS;
}
