/* libskmd/cl/bring_up.c: platform slots of a context made ready when first needed (see
 * bring_up.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl/bring_up.h"
#include "cl/common.h"
#include "cl/kernel_split.h"
#include "cl/program_build.h"
#include "cl/splitprog.h"
#include "device/background.h"
#include "device/parallel.h"
#include "support/clock.h"
#include "support/config.h"
#include "support/log.h"
#include "support/report.h"
#include "support/trace.h"

unsigned skmd_all_slots(void)
{
    return skmd_state.nplatforms >= 32 ? ~0u : (1u << skmd_state.nplatforms) - 1;
}

/* The app's notify function, from a driver's call (api.h: skmd_app_callback_begin). */
static void CL_CALLBACK context_notify(const char *errinfo, const void *private_info,
                                       size_t cb, void *data)
{
    cl_context ctx = data;
    int saved = skmd_app_callback_begin();
    ctx->notify(errinfo, private_info, cb, ctx->notify_data);
    skmd_app_callback_end(saved);
}

/* One platform slot's real context, made at once with the other slots'. */
struct real_context_job {
    cl_context ctx;
    int slot;
    cl_int err;
};

static void make_real_context(void *arg)
{
    struct real_context_job *job = arg;
    cl_context ctx = job->ctx;
    cl_device_id devs[SKMD_MAX_MEMBERS];
    cl_uint n = 0;
    for (int i = 0; i < skmd_state.nmembers; i++)
        if (skmd_state.members[i].platform_slot == job->slot)
            devs[n++] = skmd_state.members[i].real_device;
    cl_context_properties rp[] = {CL_CONTEXT_PLATFORM,
                                  (cl_context_properties)skmd_state.platforms[job->slot], 0};
    ctx->real[job->slot] = real_clCreateContext(rp, n, devs,
                                                ctx->notify ? context_notify : NULL,
                                                ctx->notify ? ctx : NULL, &job->err);
}

unsigned skmd_context_make_slots(cl_context ctx, unsigned slots, cl_int *first_err)
{
    struct real_context_job jobs[SKMD_MAX_PLATFORMS];
    unsigned n = 0, made = 0;
    for (int s = 0; s < skmd_state.nplatforms; s++)
        if (slots >> s & 1u)
            jobs[n++] = (struct real_context_job){ctx, s, CL_SUCCESS};
    skmd_run_parallel(n, make_real_context, jobs, sizeof jobs[0]);
    *first_err = CL_SUCCESS;
    for (unsigned j = 0; j < n; j++) {
        if (ctx->real[jobs[j].slot])
            made |= 1u << jobs[j].slot;
        else if (*first_err == CL_SUCCESS)
            *first_err = jobs[j].err != CL_SUCCESS ? jobs[j].err : CL_OUT_OF_RESOURCES;
    }
    return made;
}

unsigned skmd_context_first_slots(cl_context ctx)
{
    if (skmd_config()->bring_up == SKMD_BRING_UP_CONTEXT)
        return skmd_all_slots();
    unsigned slots = 1u << skmd_state.members[skmd_state.exec].platform_slot;
    for (cl_uint i = 0; i < ctx->ndevices; i++)
        slots |= 1u << skmd_state.members[ctx->devices[i]->exec].platform_slot;
    return slots;
}

void skmd_context_add_program(cl_program p)
{
    cl_context ctx = p->context;
    pthread_mutex_lock(&ctx->obj.lock);
    p->next_in_context = ctx->programs;
    ctx->programs = p;
    pthread_mutex_unlock(&ctx->obj.lock);
}

void skmd_context_remove_program(cl_program p)
{
    cl_context ctx = p->context;
    pthread_mutex_lock(&ctx->obj.lock);
    for (cl_program *at = &ctx->programs; *at; at = &(*at)->next_in_context)
        if (*at == p) {
            *at = p->next_in_context;
            break;
        }
    pthread_mutex_unlock(&ctx->obj.lock);
}

/* The kernel lists are under the context's lock too: one lock for both lists. */
void skmd_program_add_kernel(cl_kernel k)
{
    cl_context ctx = k->program->context;
    pthread_mutex_lock(&ctx->obj.lock);
    k->next_in_program = k->program->kernels;
    k->program->kernels = k;
    pthread_mutex_unlock(&ctx->obj.lock);
}

void skmd_program_remove_kernel(cl_kernel k)
{
    cl_context ctx = k->program->context;
    pthread_mutex_lock(&ctx->obj.lock);
    for (cl_kernel *at = &k->program->kernels; *at; at = &(*at)->next_in_program)
        if (*at == k) {
            *at = k->next_in_program;
            break;
        }
    pthread_mutex_unlock(&ctx->obj.lock);
}

/* Kernel k's real kernels on the members of `slots` that built its program, and its
 * partition-ready and merge kernels there once its split parts are taken (a kernel whose
 * parts are still pending takes them from every slot at its first need). Under the
 * program's split_lock. */
static void kernel_up(cl_kernel k, unsigned slots)
{
    cl_program p = k->program;
    char name[1024];
    int from = -1;
    for (int m = 0; m < skmd_state.nmembers && from < 0; m++)
        if (k->real[m])
            from = m;
    if (from < 0 || real_clGetKernelInfo(k->real[from], CL_KERNEL_FUNCTION_NAME, sizeof name,
                                         name, NULL) != CL_SUCCESS)
        return;
    int parts = !__atomic_load_n(&k->split_pending, __ATOMIC_ACQUIRE) && k->rec;
    for (int m = 0; m < skmd_state.nmembers; m++) {
        int s = skmd_state.members[m].platform_slot;
        if (!(slots >> s & 1u))
            continue;
        cl_int err;
        cl_kernel real = p->real[s] && !(p->not_built >> m & 1u) && p->built
                             ? real_clCreateKernel(p->real[s], name, &err)
                             : NULL;
        /* clSetKernelArg reads it without a lock (launches read it once the slot is up) */
        __atomic_store_n(&k->real[m], real, __ATOMIC_RELEASE);
        if (parts && real)
            skmd_kernel_split_member(k, m, name);
    }
}

/* Program p on `slots`: its real programs from the kept source, built as the app last
 * built it, its split program, and its kernels. */
static void program_up(cl_program p, unsigned slots)
{
    cl_context ctx = p->context;
    unsigned made = 0;
    for (int s = 0; s < skmd_state.nplatforms; s++) {
        if (!(slots >> s & 1u))
            continue;
        cl_int err = CL_INVALID_PROGRAM;
        const char *src = p->source;
        p->real[s] = src ? real_clCreateProgramWithSource(ctx->real[s], 1, &src, NULL, &err)
                         : NULL;
        if (p->real[s])
            made |= 1u << s;
        else
            p->not_built |= skmd_slots_members(1u << s);
    }
    if (p->built && made)
        skmd_program_build_slots(p, made, p->options);
    pthread_mutex_lock(&p->split_lock);
    skmd_split_wait_locked(p);
    skmd_split_load(p, made);
    for (cl_kernel k = p->kernels; k; k = k->next_in_program)
        kernel_up(k, made);
    pthread_mutex_unlock(&p->split_lock);
}

struct program_job {
    cl_program p;
    unsigned slots;
};

static void program_job_main(void *arg)
{
    struct program_job *job = arg;
    program_up(job->p, job->slots);
}

/* Every live program of ctx on `slots`, several at once (an app may hold dozens, each a
 * build per slot), under the write side of up_lock. */
static void programs_up(cl_context ctx, unsigned slots)
{
    size_t n = 0;
    for (cl_program p = ctx->programs; p; p = p->next_in_context)
        n++;
    struct program_job *jobs = n ? calloc(n, sizeof *jobs) : NULL;
    if (!jobs) { /* none, or no memory for the list: one after another */
        for (cl_program p = ctx->programs; p; p = p->next_in_context)
            program_up(p, slots);
        return;
    }
    n = 0;
    for (cl_program p = ctx->programs; p; p = p->next_in_context)
        jobs[n++] = (struct program_job){p, slots};
    skmd_run_parallel((unsigned)n, program_job_main, jobs, sizeof jobs[0]);
    free(jobs);
}

void skmd_context_bring_up(cl_context ctx, const char *why)
{
    unsigned all = skmd_all_slots();
    if ((atomic_load_explicit(&ctx->up, memory_order_acquire) & all) == all)
        return;
    pthread_rwlock_wrlock(&ctx->up_lock);
    unsigned down = all & ~atomic_load_explicit(&ctx->up, memory_order_relaxed) &
                    ~ctx->up_failed;
    if (!down) {
        pthread_rwlock_unlock(&ctx->up_lock);
        return;
    }
    uint64_t start = skmd_now_ns();
    cl_int err;
    unsigned made = skmd_context_make_slots(ctx, down, &err);
    ctx->up_failed |= down & ~made;
    if (down & ~made)
        skmd_log(SKMD_LOG_WARN, "a real context of platform slot(s) 0x%x could not be made "
                 "(%s): their members take no part in this context", down & ~made,
                 skmd_error_name(err));
    programs_up(ctx, made);
    atomic_fetch_or_explicit(&ctx->up, made, memory_order_release);
    pthread_rwlock_unlock(&ctx->up_lock);
    char names[600] = "";
    size_t at = 0;
    for (int m = 0; m < skmd_state.nmembers && at < sizeof names; m++)
        if (made >> skmd_state.members[m].platform_slot & 1u)
            at += (size_t)snprintf(names + at, sizeof names - at, "%s%d (%s)", at ? ", " : "",
                                   m, skmd_state.members[m].name);
    uint64_t end = skmd_now_ns();
    double ms = (double)(end - start) * 1e-6;
    skmd_report_members_up(skmd_slots_members(made), ms);
    if (skmd_trace_enabled()) /* on the host's track, named after what it waited for */
        skmd_trace_span(&(struct skmd_trace_span){.device = -1, .kind = SKMD_TRACE_OTHER,
                                                  .kernel = "bring_up", .share = -1,
                                                  .start_ns = start, .end_ns = end});
    skmd_log(SKMD_LOG_INFO, "members %s brought up (%s): %.1f ms", names, why, ms);
}

struct later_job {
    cl_context ctx;
    char why[160];
};

static void bring_up_main(void *arg)
{
    struct later_job *job = arg;
    skmd_context_bring_up(job->ctx, job->why);
    skmd_object_put(&job->ctx->obj); /* may be the context's last reference */
    free(job);
}

void skmd_context_bring_up_hook(cl_context ctx, const char *why, int wait)
{
    unsigned all = skmd_all_slots();
    if ((atomic_load_explicit(&ctx->up, memory_order_acquire) & all) == all)
        return;
    if (wait || skmd_config()->bring_up != SKMD_BRING_UP_LAUNCH) {
        skmd_context_bring_up(ctx, why);
        return;
    }
    if (atomic_exchange(&ctx->bring_up_started, 1))
        return; /* on its way */
    struct later_job *job = malloc(sizeof *job);
    if (job) {
        job->ctx = ctx;
        snprintf(job->why, sizeof job->why, "%s; in the background", why);
        skmd_object_retain(&ctx->obj);
        if (skmd_background_start(bring_up_main, job))
            return;
        skmd_object_put(&ctx->obj);
        free(job);
    }
    skmd_context_bring_up(ctx, why); /* no thread to be had: here */
}
