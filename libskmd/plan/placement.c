/* libskmd/plan/placement.c: placements of a launch's inputs on its input buffers (see
 * placement.h). */
#include <stdlib.h>
#include <string.h>

#include "support/clock.h"
#include "mem/coherence.h"
#include "support/config.h"
#include "mem/inflight.h"
#include "plan/placement.h"
#include "plan/share_align.h"
#include "plan/stream_hist.h"

static uint64_t generations;
static uint64_t app_waited_ns;

/* Parameter p is a buffer the launch reads. */
static int read_buffer(const struct skmd_plan_request *r, unsigned p)
{
    enum skmd_param_kind kind = r->rec->params[p].kind;
    return (kind == SKMD_PARAM_GLOBAL || kind == SKMD_PARAM_CONSTANT) && r->args[p].mem &&
           r->args[p].mem->mtype == CL_MEM_OBJECT_BUFFER &&
           (r->rec->params[p].access & SKMD_ACCESS_READ);
}

/* The bytes parameter p reads for groups [first, first+count), in root offsets, one
 * interval at a time: fn(root, member, b, e, user); stops at fn's first nonzero. */
typedef int (*interval_fn)(cl_mem root, int m, uint64_t b, uint64_t e, void *user);
static int each_read(const struct skmd_plan_request *r, unsigned p, int m, uint64_t first,
                     uint64_t count, interval_fn fn, void *user)
{
    struct skmd_interval rd[SKMD_SHARE_INTERVALS], wr[SKMD_SHARE_INTERVALS];
    struct skmd_footprint fp = {rd, wr, SKMD_SHARE_INTERVALS, SKMD_SHARE_INTERVALS, 0, 0, 0};
    struct skmd_share_view view = {r->rec, r->args, r->scalars, r->shape};
    skmd_share_footprint(&view, p, first, count, &fp);
    cl_mem mem = r->args[p].mem, root = skmd_mem_root(mem);
    uint64_t base = mem == root ? 0 : mem->origin;
    for (size_t i = 0; i < fp.nread; i++)
        if (fp.read[i].end > fp.read[i].begin &&
            fn(root, m, base + fp.read[i].begin, base + fp.read[i].end, user))
            return 1;
    return 0;
}

/* The notes below are for placement alone: with SKMD_PLACE_WRITES=0 (the default) the
 * app's calls read no clock for them. */
int skmd_placement_enabled(void)
{
    return skmd_config()->place_writes != SKMD_PLACE_WRITES_OFF;
}

void skmd_placement_note_app_write(cl_mem mem)
{
    cl_mem root = skmd_mem_root(mem);
    uint64_t *at = &root->place.app_wrote_ns, none = 0;
    if (__atomic_load_n(at, __ATOMIC_RELAXED) || !skmd_placement_enabled())
        return; /* the first write since a launch read it is noted: no clock read per call */
    uint64_t now = skmd_now_ns();
    uint64_t waited = __atomic_load_n(&app_waited_ns, __ATOMIC_RELAXED);
    __atomic_store_n(&root->place.app_waited_ns, waited, __ATOMIC_RELAXED);
    __atomic_compare_exchange_n(at, &none, now ? now : 1, 0, __ATOMIC_RELAXED,
                                __ATOMIC_RELAXED);
}

void skmd_placement_note_app_wait(void)
{
    if (skmd_placement_enabled())
        __atomic_store_n(&app_waited_ns, skmd_now_ns(), __ATOMIC_RELAXED);
}

static uint64_t app_wrote(cl_mem mem)
{
    return __atomic_load_n(&skmd_mem_root(mem)->place.app_wrote_ns, __ATOMIC_RELAXED);
}

double skmd_placement_app_part(const struct skmd_plan_request *r, double *bytes,
                               struct skmd_placement_since *since)
{
    double all = 0, from_app = 0;
    *since = (struct skmd_placement_since){0, 0};
    for (unsigned p = 0; p < r->rec->nparams; p++) {
        if (!read_buffer(r, p))
            continue;
        all += (double)r->args[p].mem->size;
        uint64_t at = app_wrote(r->args[p].mem);
        from_app += at ? (double)r->args[p].mem->size : 0;
        if (at && (!since->wrote_ns || at < since->wrote_ns)) {
            since->wrote_ns = at;
            cl_mem root = skmd_mem_root(r->args[p].mem);
            since->waited_ns = __atomic_load_n(&root->place.app_waited_ns, __ATOMIC_RELAXED);
        }
    }
    *bytes = from_app;
    return all > 0 ? from_app / all : 0;
}

int skmd_placement_outputs_feed_kernels(const struct skmd_plan_request *r)
{
    for (unsigned p = 0; p < r->rec->nparams; p++) {
        enum skmd_param_kind kind = r->rec->params[p].kind;
        if (kind == SKMD_PARAM_GLOBAL && r->args[p].mem &&
            (r->rec->params[p].access & SKMD_ACCESS_WRITE) &&
            skmd_stream_feeds_kernels(r->args[p].mem))
            return 1;
    }
    return 0;
}

void skmd_placement_note_read(const struct skmd_plan_request *r)
{
    for (unsigned p = 0; p < r->rec->nparams; p++)
        if (read_buffer(r, p))
            __atomic_store_n(&skmd_mem_root(r->args[p].mem)->place.app_wrote_ns, 0,
                             __ATOMIC_RELAXED);
}

void skmd_placement_free(cl_mem root)
{
    if (!root->place.at)
        return;
    for (int m = 0; m < SKMD_MAX_MEMBERS; m++)
        skmd_ranges_free(&root->place.at->reads[m]);
    struct skmd_placement *pl = root->place.at;
    __atomic_store_n(&root->place.at, NULL, __ATOMIC_RELEASE); /* write_placed.c peeks */
    free(pl);
}

static int add_read(cl_mem root, int m, uint64_t b, uint64_t e, void *user)
{
    (void)user;
    return skmd_ranges_add(&root->place.at->reads[m], b, e) != 0;
}

/* Under the root's lock: root's placement for this recording, made or emptied first. */
static struct skmd_placement *placement_for(cl_mem root, uint64_t generation)
{
    struct skmd_placement *pl = root->place.at;
    if (pl && pl->generation == generation)
        return pl;
    if (!pl && !(pl = calloc(1, sizeof *pl)))
        return NULL;
    for (int m = 0; m < SKMD_MAX_MEMBERS; m++)
        skmd_ranges_clear(&pl->reads[m]);
    pl->generation = generation;
    __atomic_store_n(&root->place.at, pl, __ATOMIC_RELEASE);
    return pl;
}

void skmd_placement_record(const struct skmd_plan_request *r, uint64_t kernel, uint32_t shape,
                           const uint64_t *count)
{
    uint64_t generation = __atomic_add_fetch(&generations, 1, __ATOMIC_RELAXED);
    for (unsigned p = 0; p < r->rec->nparams; p++) {
        if (!read_buffer(r, p))
            continue;
        cl_mem root = skmd_mem_root(r->args[p].mem);
        skmd_buffer_lock(root);
        if (!count) {
            skmd_placement_free(root);
            skmd_buffer_unlock(root);
            continue;
        }
        struct skmd_placement *pl = placement_for(root, generation);
        int failed = !pl;
        if (pl) {
            pl->kernel = kernel;
            pl->shape = shape;
            pl->total_groups = r->total_groups;
            memcpy(pl->count, count, sizeof pl->count[0] * (size_t)skmd_state.nmembers);
        }
        uint64_t first = 0;
        for (int m = 0; m < skmd_state.nmembers && !failed; m++) {
            if (count[m])
                failed = each_read(r, p, m, first, count[m], add_read, NULL);
            first += count[m];
        }
        if (failed) /* out of memory: no placement rather than part of one */
            skmd_placement_free(root);
        skmd_buffer_unlock(root);
    }
}

static int lacks(cl_mem root, int m, uint64_t b, uint64_t e, void *user)
{
    (void)user;
    return !skmd_ranges_covers(&root->valid[m], b, e) &&
           !((root->zero_copy & (1u << m)) && skmd_ranges_covers(&root->valid[SKMD_HOST], b, e));
}

int skmd_placement_intact(const struct skmd_plan_request *r, uint64_t kernel, uint32_t shape,
                          uint64_t *count)
{
    uint64_t generation = 0;
    int inputs = 0, intact = 1;
    for (unsigned p = 0; p < r->rec->nparams && intact; p++) {
        if (!read_buffer(r, p) || !app_wrote(r->args[p].mem))
            continue;
        cl_mem root = skmd_mem_root(r->args[p].mem);
        skmd_buffer_lock(root);
        const struct skmd_placement *pl = root->place.at;
        intact = pl && pl->kernel == kernel && pl->shape == shape &&
                 pl->total_groups == r->total_groups &&
                 (!inputs || pl->generation == generation);
        if (intact && !inputs) {
            generation = pl->generation;
            memcpy(count, pl->count, sizeof count[0] * (size_t)skmd_state.nmembers);
        }
        uint64_t first = 0;
        for (int m = 0; m < skmd_state.nmembers && intact; m++) {
            if (count[m])
                intact = r->eligible[m] && !each_read(r, p, m, first, count[m], lacks, NULL);
            first += count[m];
        }
        skmd_buffer_unlock(root);
        inputs++;
    }
    return intact && inputs > 0;
}
