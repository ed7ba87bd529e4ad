/* libskmd/cl/kernel_split.c: a kernel's split parts (its record, partition-ready and merge
 * kernels on the members), taken from its program's split version when the kernel is made,
 * or at the kernel's first need while that version is still being built (split_thread.c). */
#include <stdio.h>
#include <string.h>

#include "../../profiledb/skmd_profiledb.h"
#include "../../transform/record.h"
#include "cl/common.h"
#include "cl/kernel_split.h"
#include "cl/splitprog.h"
#include "device/api.h"
#include "support/clock.h"
#include "support/log.h"

/* The kernel's record and its partition-ready (and merge) kernels on the members that
 * built the split program, from the program's finished split version (under its
 * split_lock). A kernel the compiler did not handle simply has none (it runs whole). */
static void take_split_parts(cl_kernel k, cl_program program, const char *name)
{
    k->rec = program->record ? skmd_record_find(program->record, name) : NULL;
    if (!k->rec || k->rec->nparams != k->nargs) {
        k->rec = NULL;
        return;
    }
    for (int i = 0; i < skmd_state.nmembers; i++)
        skmd_kernel_split_member(k, i, name);
}

void skmd_kernel_split_member(cl_kernel k, int m, const char *name)
{
    cl_program split = k->program->split[skmd_state.members[m].platform_slot];
    if (!split || !k->program->split_ok[m])
        return;
    cl_int e;
    k->split[m] = real_clCreateKernel(split, name, &e);
    if (skmd_state.members[m].type & CL_DEVICE_TYPE_CPU) {
        char merge_name[1100];
        snprintf(merge_name, sizeof merge_name, "%s__skmd_merge", name);
        k->merge[m] = real_clCreateKernel(split, merge_name, &e);
    }
}

/* The kernel's name, profile key and argument slots; its split parts now, or at their
 * first need when the program's split version is still being built (split_thread.c). */
cl_int skmd_kernel_split_init(cl_kernel k, cl_program program, const char *name)
{
    snprintf(k->name, sizeof k->name, "%s", name);
    /* The profile database's key, asked at every planned launch: worked out once. */
    const char *src = program->source;
    k->profile_key = skmd_pdb_kernel_hash(src, src ? strlen(src) : 0, NULL, k->name);
    cl_uint nargs = 0;
    real_clGetKernelInfo(k->real[skmd_kernel_answering_member(k)], CL_KERNEL_NUM_ARGS,
                         sizeof nargs, &nargs, NULL);
    k->nargs = nargs;
    k->args = calloc(nargs ? nargs : 1, sizeof *k->args);
    if (!k->args)
        return CL_OUT_OF_HOST_MEMORY;
    pthread_mutex_lock(&program->split_lock);
    /* A name longer than k->name holds is found by its whole self: taken now. */
    if (program->split_building && strlen(name) < sizeof k->name) {
        __atomic_store_n(&k->split_pending, 1, __ATOMIC_RELAXED); /* k is not shared yet */
    } else {
        skmd_split_wait_locked(program);
        take_split_parts(k, program, name);
    }
    pthread_mutex_unlock(&program->split_lock);
    return CL_SUCCESS;
}

void skmd_kernel_split_wait(cl_kernel k)
{
    /* Acquire: a thread that sees 0 sees the parts the taker wrote before its release. */
    if (!__atomic_load_n(&k->split_pending, __ATOMIC_ACQUIRE))
        return;
    cl_program program = k->program;
    uint64_t start = skmd_now_ns();
    pthread_mutex_lock(&program->split_lock);
    skmd_split_wait_locked(program);
    int taken = __atomic_load_n(&k->split_pending, __ATOMIC_RELAXED);
    if (taken) {
        take_split_parts(k, program, k->name);
        __atomic_store_n(&k->split_pending, 0, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&program->split_lock);
    if (taken)
        skmd_log(SKMD_LOG_DEBUG, "kernel %s: made during its program's split build, waited "
                 "%.1f ms for it", k->name, (double)(skmd_now_ns() - start) * 1e-6);
}
