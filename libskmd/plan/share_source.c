/* libskmd/plan/share_source.c: shares run from the app's own source (see share_source.h).
 *
 * A share is a range of linear work-groups; boxes.c cuts it into at most 5 boxes, each
 * launched with global_work_offset = app offset + box start * local size and global size
 * = box size * local size, so get_global_id, get_local_id, get_local_size and
 * get_work_dim are the driver's own. The prelude derives the rest from the whole launch's
 * offset, global size and group counts, given as -D constants: one build per launch shape,
 * kept in a small per-program cache (least recently used out). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../transform/record.h"
#include "plan/boxes.h"
#include "mem/coherence.h"
#include "device/api.h"
#include "device/background.h"
#include "support/error.h"
#include "support/object.h"
#include "support/config.h"
#include "support/log.h"
#include "plan/share_source.h"
#include "plan/source_check.h"

#define SOURCE_CACHE_SIZE 8

/* Program-scope functions first (they call the driver's builtins), then the macros;
 * `#line 1` keeps the app's line numbers in the driver's messages. A dimension at or past
 * the work_dim is answered by the driver's own builtin: a box has the same work_dim, and
 * the out-of-range answers (PoCL's differ from the specification's) do not depend on the
 * launch. The group id is the box's own plus the box's first group, a uniform value
 * divided by a constant: a 64-bit division of every item's global id by the runtime local
 * size cost NVIDIA's compiler registers, and binomial_option's share ran 40% slower than
 * the same groups natively. */
static const char prelude[] =
    "/* libskmd: this program runs one share of a larger launch, as boxes of work-groups\n"
    " * placed by the global offset; these give the whole launch's values back. */\n"
    "size_t __skmd_pick(uint d, size_t v0, size_t v1, size_t v2)\n"
    "{ return d == 0 ? v0 : d == 1 ? v1 : v2; }\n"
    "size_t __skmd_global_offset(uint d)\n"
    "{\n"
    "    return d < __SKMD_WD ? __skmd_pick(d, __SKMD_O0, __SKMD_O1, __SKMD_O2)\n"
    "                         : get_global_offset(d);\n"
    "}\n"
    "size_t __skmd_global_size(uint d)\n"
    "{\n"
    "    return d < __SKMD_WD ? __skmd_pick(d, __SKMD_GS0, __SKMD_GS1, __SKMD_GS2)\n"
    "                         : get_global_size(d);\n"
    "}\n"
    "size_t __skmd_num_groups(uint d)\n"
    "{\n"
    "    return d < __SKMD_WD ? __skmd_pick(d, __SKMD_NG0, __SKMD_NG1, __SKMD_NG2)\n"
    "                         : get_num_groups(d);\n"
    "}\n"
    "size_t __skmd_group_id(uint d)\n"
    "{\n"
    "    if (d >= __SKMD_WD)\n"
    "        return get_group_id(d);\n"
    "    size_t box_first_item = get_global_offset(d) - __skmd_global_offset(d);\n"
    "    size_t local_size = __skmd_pick(d, __SKMD_L0, __SKMD_L1, __SKMD_L2);\n"
    "    return get_group_id(d) + box_first_item / local_size;\n"
    "}\n"
    "size_t __skmd_global_linear_id(void)\n"
    "{\n"
    "    return ((get_global_id(2) - (size_t)__SKMD_O2) * (size_t)__SKMD_GS1 +\n"
    "            (get_global_id(1) - (size_t)__SKMD_O1)) * (size_t)__SKMD_GS0 +\n"
    "           (get_global_id(0) - (size_t)__SKMD_O0);\n"
    "}\n"
    "#define get_group_id(d) __skmd_group_id(d)\n"
    "#define get_num_groups(d) __skmd_num_groups(d)\n"
    "#define get_global_size(d) __skmd_global_size(d)\n"
    "#define get_global_offset(d) __skmd_global_offset(d)\n"
    "#define get_global_linear_id() __skmd_global_linear_id()\n"
    "#line 1\n";

/* One launch shape's build: a real program per platform slot that has source members. */
struct source_entry {
    struct skmd_launch shape;            /* the key (unused dimensions: 0 offset, size 1) */
    uint64_t used;                       /* clock of the last use, for eviction */
    int building;                        /* a background build fills it (not evicted) */
    cl_program real[SKMD_MAX_PLATFORMS];
    unsigned char ok[SKMD_MAX_MEMBERS];  /* member built it */
    unsigned slots;                      /* the context's slots up when it was built: a
                                            slot brought up since makes it stale */
};

struct skmd_source_builds {
    pthread_mutex_t lock;                /* guards entries, nentries, clock, inflight; held
                                            across no real call but clRetainProgram (so an
                                            eviction cannot release it first) */
    pthread_cond_t built;                /* a background build finished */
    int inflight;                        /* background builds running */
    int builds;                          /* shapes built or being built, all told */
    char *options;                       /* the app's build options */
    unsigned char route[SKMD_MAX_MEMBERS]; /* member takes the source route */
    int safe;                            /* the source leaves the prelude's names alone */
    struct source_entry entries[SOURCE_CACHE_SIZE];
    int nentries;
    uint64_t clock;
};

int skmd_source_route(int member_is_pocl)
{
    enum skmd_share_build how = skmd_config()->share_build;
    if (how == SKMD_SHARE_BUILD_SOURCE)
        return 1;
    return how == SKMD_SHARE_BUILD_AUTO && !member_is_pocl;
}

void skmd_source_setup(cl_program p, const char *options, const unsigned char *route)
{
    skmd_source_release(p); /* a program built again starts afresh */
    struct skmd_source_builds *b = calloc(1, sizeof *b);
    if (!b || !(b->options = strdup(options ? options : ""))) {
        free(b);
        skmd_log(SKMD_LOG_WARN, "out of memory: no shares from the source");
        return;
    }
    pthread_mutex_init(&b->lock, NULL);
    pthread_cond_init(&b->built, NULL);
    memcpy(b->route, route, sizeof b->route);
    char why[512];
    b->safe = skmd_source_check(p->source, b->options, why, sizeof why) == 0;
    for (int m = 0; m < skmd_state.nmembers && !b->safe; m++)
        if (route[m])
            skmd_log(SKMD_LOG_INFO, "member %d (%s) gets no shares of this program's kernels: "
                     "its shares would be built from the source, but %s", m,
                     skmd_state.members[m].name, why);
    p->source_builds = b;
}

int skmd_source_member(cl_program p, int m)
{
    return p->source_builds && p->source_builds->route[m];
}

static int same_shape(const struct skmd_launch *a, const struct skmd_launch *b)
{
    if (a->work_dim != b->work_dim)
        return 0;
    for (int d = 0; d < 3; d++)
        if (a->global_offset[d] != b->global_offset[d] ||
            a->global_size[d] != b->global_size[d] || a->local_size[d] != b->local_size[d])
            return 0;
    return 1;
}

/* Under b->lock: the entry of `shape`, or NULL. */
static struct source_entry *entry_of(struct skmd_source_builds *b,
                                     const struct skmd_launch *shape)
{
    for (int i = 0; i < b->nentries; i++)
        if (same_shape(&b->entries[i].shape, shape))
            return &b->entries[i];
    return NULL;
}

/* Under b->lock: member m's program in a finished entry, retained (the caller releases
 * it), or NULL where m could not build it. */
static cl_program program_in(struct source_entry *e, int m, uint64_t *clock)
{
    e->used = ++*clock;
    cl_program found = e->ok[m] ? e->real[skmd_state.members[m].platform_slot] : NULL;
    if (found)
        real_clRetainProgram(found);
    return found;
}

/* Builds the prelude + source for every source member, one real program per slot. */
static void build(cl_program p, const struct skmd_launch *shape, struct source_entry *e)
{
    struct skmd_source_builds *b = p->source_builds;
    size_t nsrc = strlen(p->source), npre = sizeof prelude - 1;
    size_t nopt = strlen(b->options) + 16 * 40;
    char *text = malloc(npre + nsrc + 1), *opts = malloc(nopt);
    memset(e, 0, sizeof *e);
    e->shape = *shape;
    e->slots = atomic_load_explicit(&p->context->up, memory_order_acquire);
    if (!text || !opts) {
        free(text);
        free(opts);
        return;
    }
    memcpy(text, prelude, npre);
    memcpy(text + npre, p->source, nsrc + 1);
    uint64_t ng[3];
    for (int d = 0; d < 3; d++)
        ng[d] = shape->global_size[d] / shape->local_size[d];
    snprintf(opts, nopt,
             "%s -D__SKMD_O0=%llu -D__SKMD_O1=%llu -D__SKMD_O2=%llu -D__SKMD_GS0=%llu "
             "-D__SKMD_GS1=%llu -D__SKMD_GS2=%llu -D__SKMD_NG0=%llu -D__SKMD_NG1=%llu "
             "-D__SKMD_NG2=%llu -D__SKMD_L0=%llu -D__SKMD_L1=%llu -D__SKMD_L2=%llu "
             "-D__SKMD_WD=%u", b->options,
             (unsigned long long)shape->global_offset[0],
             (unsigned long long)shape->global_offset[1],
             (unsigned long long)shape->global_offset[2],
             (unsigned long long)shape->global_size[0],
             (unsigned long long)shape->global_size[1],
             (unsigned long long)shape->global_size[2], (unsigned long long)ng[0],
             (unsigned long long)ng[1], (unsigned long long)ng[2],
             (unsigned long long)shape->local_size[0],
             (unsigned long long)shape->local_size[1],
             (unsigned long long)shape->local_size[2], shape->work_dim);
    for (int s = 0; s < skmd_state.nplatforms; s++) {
        cl_device_id devs[SKMD_MAX_MEMBERS];
        int idx[SKMD_MAX_MEMBERS];
        cl_uint n = 0;
        for (int m = 0; m < skmd_state.nmembers; m++)
            if (b->route[m] && skmd_state.members[m].platform_slot == s &&
                (e->slots >> s & 1u)) {
                idx[n] = m;
                devs[n++] = skmd_state.members[m].real_device;
            }
        if (n == 0)
            continue;
        cl_int err;
        const char *src = text;
        cl_program real = real_clCreateProgramWithSource(p->context->real[s], 1, &src, NULL,
                                                         &err);
        if (!real) {
            skmd_log(SKMD_LOG_WARN, "source build for shares not created on platform %d "
                     "(%d)", s, err);
            continue;
        }
        err = real_clBuildProgram(real, n, devs, opts, NULL, NULL);
        int any = 0;
        for (cl_uint d = 0; d < n; d++) {
            cl_build_status st = CL_BUILD_ERROR;
            real_clGetProgramBuildInfo(real, devs[d], CL_PROGRAM_BUILD_STATUS, sizeof st, &st,
                                       NULL);
            e->ok[idx[d]] = st == CL_BUILD_SUCCESS;
            any |= e->ok[idx[d]];
            if (st == CL_BUILD_SUCCESS) {
                skmd_log(SKMD_LOG_DEBUG, "member %d (%s): source build for shares of launches "
                         "%ux(%llu,%llu,%llu)/(%llu,%llu,%llu)+(%llu,%llu,%llu)", idx[d],
                         skmd_state.members[idx[d]].name, shape->work_dim,
                         (unsigned long long)shape->global_size[0],
                         (unsigned long long)shape->global_size[1],
                         (unsigned long long)shape->global_size[2],
                         (unsigned long long)shape->local_size[0],
                         (unsigned long long)shape->local_size[1],
                         (unsigned long long)shape->local_size[2],
                         (unsigned long long)shape->global_offset[0],
                         (unsigned long long)shape->global_offset[1],
                         (unsigned long long)shape->global_offset[2]);
                continue;
            }
            char msg[512] = "";
            real_clGetProgramBuildInfo(real, devs[d], CL_PROGRAM_BUILD_LOG, sizeof msg, msg,
                                       NULL);
            msg[sizeof msg - 1] = '\0';
            skmd_log(SKMD_LOG_INFO, "member %d (%s) cannot build the source with libskmd's "
                     "prelude (%d): no shares of launches of this shape; %s", idx[d],
                     skmd_state.members[idx[d]].name, err, msg);
        }
        if (any)
            e->real[s] = real;
        else
            real_clReleaseProgram(real);
    }
    free(text);
    free(opts);
}

static void entry_release(struct source_entry *e)
{
    for (int s = 0; s < SKMD_MAX_PLATFORMS; s++)
        if (e->real[s])
            real_clReleaseProgram(e->real[s]);
}

/* Under b->lock: a slot for a new entry (a free one, else the least recently used of
 * the finished ones, its programs moved to *old for the caller to release after the
 * lock); NULL when every slot holds a build still running. */
static struct source_entry *slot_for(struct skmd_source_builds *b, struct source_entry *old)
{
    if (b->nentries < SOURCE_CACHE_SIZE)
        return &b->entries[b->nentries++];
    struct source_entry *lru = NULL;
    for (int j = 0; j < b->nentries; j++)
        if (!b->entries[j].building && (!lru || b->entries[j].used < lru->used))
            lru = &b->entries[j];
    if (lru)
        *old = *lru;
    return lru;
}

/* A background build of one shape: fills the entry it was given (marked building). */
struct build_job {
    cl_program p;
    struct skmd_launch shape;
};

static void build_in_background(void *arg)
{
    struct build_job *job = arg;
    struct skmd_source_builds *b = job->p->source_builds;
    struct source_entry fresh;
    build(job->p, &job->shape, &fresh);
    pthread_mutex_lock(&b->lock);
    struct source_entry *e = entry_of(b, &job->shape), unused = {0};
    if (e) { /* a building entry is never evicted: always found */
        fresh.used = e->used;
        *e = fresh; /* building: 0 */
    } else {
        unused = fresh;
    }
    b->inflight--;
    pthread_cond_broadcast(&b->built);
    pthread_mutex_unlock(&b->lock);
    entry_release(&unused);
    free(job);
}

/* Under b->lock: starts the build of `shape` on a thread of its own, its entry marked
 * building meanwhile; 0 when it could not start. At most SOURCE_BUILDS_AT_ONCE (fewer
 * than the cache's slots, so a finished one can always make room). */
#define SOURCE_BUILDS_AT_ONCE 2
static int start_build(cl_program p, const struct skmd_launch *shape,
                       struct source_entry *old)
{
    struct skmd_source_builds *b = p->source_builds;
    struct build_job *job = b->inflight < SOURCE_BUILDS_AT_ONCE ? malloc(sizeof *job) : NULL;
    if (!job)
        return 0;
    *job = (struct build_job){p, *shape};
    /* The thread waits for b->lock, held here until its entry exists. */
    if (!skmd_background_start(build_in_background, job)) {
        free(job);
        return 0;
    }
    struct source_entry *e = slot_for(b, old);
    memset(e, 0, sizeof *e);
    e->shape = *shape;
    e->building = 1;
    e->used = ++b->clock;
    b->inflight++;
    return 1;
}

/* Member m's program for shape; retained, or NULL. When the shape is not built yet: with
 * `wait`, or among the program's first SOURCE_BUILDS_WAITED shapes (most apps launch a
 * few shapes many times: their first launch can split), built now (or its background
 * build waited for); else its build started in
 * the background (NULL now: the launch goes without m, a later one of the shape finds
 * it), so a new shape does not hold the app's launch for a build (tens to hundreds of
 * milliseconds on NVIDIA's driver, and a launch of another size is another shape). After
 * SOURCE_BUILDS_MAX shapes of a program no more are built, in the background or waited
 * for: an app whose sizes never repeat would keep a core compiling for nothing, or under
 * forced shares hold every launch for a build. */
#define SOURCE_BUILDS_MAX 64
#define SOURCE_BUILDS_WAITED 4

/* One more shape built for program b (under b->lock). */
static void count_build(struct skmd_source_builds *b)
{
    if (++b->builds == SOURCE_BUILDS_MAX)
        skmd_log(SKMD_LOG_INFO, "%d launch shapes of one program built for shares from the "
                 "source: later shapes run without the source members", SOURCE_BUILDS_MAX);
}
static cl_program program_for(cl_program p, const struct skmd_launch *shape, int m, int wait)
{
    struct skmd_source_builds *b = p->source_builds;
    struct source_entry old = {0}, stale = {0};
    cl_program found = NULL;
    pthread_mutex_lock(&b->lock);
    wait |= b->builds < SOURCE_BUILDS_WAITED;
    struct source_entry *e = entry_of(b, shape);
    while (wait && e && e->building) {
        pthread_cond_wait(&b->built, &b->lock);
        e = entry_of(b, shape);
    }
    /* Built before the context's other members came up (bring_up.h): built again, for
     * them too; its programs are let go after the lock, as an eviction's are. */
    if (e && !e->building &&
        (atomic_load_explicit(&p->context->up, memory_order_acquire) & ~e->slots)) {
        stale = *e;
        *e = b->entries[--b->nentries];
        e = NULL;
        wait = 1;
    }
    if (e && !e->building) {
        found = program_in(e, m, &b->clock);
        pthread_mutex_unlock(&b->lock);
        return found;
    }
    if (!wait || (!e && b->builds >= SOURCE_BUILDS_MAX)) {
        if (!e && b->builds < SOURCE_BUILDS_MAX && start_build(p, shape, &old))
            count_build(b);
        pthread_mutex_unlock(&b->lock);
        entry_release(&old);
        entry_release(&stale);
        return NULL;
    }
    count_build(b);
    pthread_mutex_unlock(&b->lock);
    struct source_entry fresh;
    build(p, shape, &fresh);
    pthread_mutex_lock(&b->lock);
    e = entry_of(b, shape);
    struct source_entry *use = &fresh; /* used once when it cannot be kept */
    int kept = 0;
    if (e && !e->building) {
        use = e; /* another thread built it meanwhile: keep theirs */
    } else if (!e && (e = slot_for(b, &old)) != NULL) {
        *e = fresh;
        use = e;
        kept = 1;
    }
    found = program_in(use, m, &b->clock);
    pthread_mutex_unlock(&b->lock);
    /* A kernel still running from an evicted program keeps it alive (OpenCL's rule). */
    entry_release(&old);
    entry_release(&stale);
    if (!kept)
        entry_release(&fresh);
    return found;
}

int skmd_share_ready(cl_kernel k, int m, const struct skmd_launch *shape)
{
    if (!skmd_source_member(k->program, m))
        return k->split[m] != NULL;
    if (!k->program->source_builds->safe)
        return 0;
    /* Forced shares and profiling sweeps want every member from a shape's first launch. */
    const struct skmd_config *cfg = skmd_config();
    cl_program real = program_for(k->program, shape, m, cfg->split[0] || cfg->profile_sweep);
    if (real)
        real_clReleaseProgram(real);
    return real != NULL;
}

cl_int skmd_source_share(cl_kernel k, int m, cl_command_queue q, const struct skmd_arg *args,
                         const struct skmd_launch *shape, uint64_t first, uint64_t count,
                         cl_event *done, cl_event timing[2])
{
    cl_int err = CL_INVALID_PROGRAM_EXECUTABLE;
    timing[0] = timing[1] = NULL;
    cl_program real = k->program->source_builds->safe ? program_for(k->program, shape, m, 1)
                                                      : NULL;
    if (!real)
        return err;
    /* A kernel object per share: no other launch sets its arguments. It is released at
     * once; the driver keeps it until its commands are done. */
    cl_kernel kk = real_clCreateKernel(real, k->name, &err);
    real_clReleaseProgram(real);
    if (!kk)
        return err;
    for (cl_uint a = 0; a < k->nargs && err == CL_SUCCESS; a++) {
        if (args[a].mem) {
            cl_mem mem = skmd_mem_real(args[a].mem, m, &err);
            if (mem)
                err = real_clSetKernelArg(kk, a, sizeof mem, &mem);
        } else {
            err = real_clSetKernelArg(kk, a, args[a].size, args[a].value);
        }
    }
    uint64_t ng[3];
    for (int d = 0; d < 3; d++)
        ng[d] = shape->global_size[d] / shape->local_size[d];
    struct skmd_box box[SKMD_MAX_BOXES];
    int nbox = err == CL_SUCCESS ? skmd_boxes(ng, first, count, box) : 0;
    if (err == CL_SUCCESS && nbox == 0)
        err = CL_INVALID_GLOBAL_WORK_SIZE;
    cl_event ev[SKMD_MAX_BOXES];
    int nev = 0;
    for (int i = 0; i < nbox && err == CL_SUCCESS; i++) {
        size_t offset[3], global[3], local[3];
        for (int d = 0; d < 3; d++) {
            local[d] = shape->local_size[d];
            offset[d] = shape->global_offset[d] + box[i].start[d] * local[d];
            global[d] = box[i].size[d] * local[d];
        }
        err = real_clEnqueueNDRangeKernel(q, kk, shape->work_dim, offset, global, local, 0, NULL,
                                          &ev[nev]);
        nev += err == CL_SUCCESS;
    }
    if (err == CL_SUCCESS) {
        timing[0] = ev[0];
        timing[1] = ev[nev - 1];
        real_clRetainEvent(timing[0]);
        real_clRetainEvent(timing[1]);
    }
    if (err == CL_SUCCESS && nev == 1) {
        *done = ev[0];
        nev = 0;
    } else if (err == CL_SUCCESS) {
        err = real_clEnqueueMarkerWithWaitList(q, (cl_uint)nev, ev, done);
    }
    for (int i = 0; i < nev; i++)
        real_clReleaseEvent(ev[i]);
    real_clReleaseKernel(kk);
    return err;
}

void skmd_source_release(cl_program p)
{
    struct skmd_source_builds *b = p->source_builds;
    if (!b)
        return;
    pthread_mutex_lock(&b->lock); /* background builds read the program: they end first */
    while (b->inflight > 0)
        pthread_cond_wait(&b->built, &b->lock);
    pthread_mutex_unlock(&b->lock);
    for (int i = 0; i < b->nentries; i++)
        entry_release(&b->entries[i]);
    pthread_mutex_destroy(&b->lock);
    pthread_cond_destroy(&b->built);
    free(b->options);
    free(b);
    p->source_builds = NULL;
}
