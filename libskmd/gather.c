/* libskmd/gather.c: a split launch's inputs held off the host, gathered into the host copy
 * at once (see gather.h). */
#include <stdlib.h>

#include "gather.h"
#include "inflight.h"
#include "log.h"

static struct skmd_gather_buffer *buffer_of(struct skmd_gather *g, cl_mem root)
{
    for (size_t i = 0; i < g->n; i++)
        if (g->buffers[i].root == root)
            return &g->buffers[i];
    if (g->n == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 8;
        struct skmd_gather_buffer *grown = realloc(g->buffers, cap * sizeof *grown);
        if (!grown)
            return NULL;
        g->buffers = grown;
        g->cap = cap;
    }
    g->buffers[g->n] = (struct skmd_gather_buffer){root, {0, 0, NULL}, 0};
    return &g->buffers[g->n++];
}

int skmd_gather_note(struct skmd_gather *g, cl_mem mem, int m, uint64_t b, uint64_t e)
{
    cl_mem root = skmd_mem_root(mem);
    struct skmd_gather_buffer *buf = buffer_of(g, root);
    if (!buf)
        return -1;
    struct skmd_ranges mine = {0, 0, NULL};
    skmd_buffer_lock(root);
    int err = skmd_coh_off_host_need(mem, m, b, e, &mine);
    skmd_buffer_unlock(root);
    for (size_t r = 0; err == 0 && r < mine.n; r++)
        err = skmd_ranges_add(&buf->need, mine.r[r].begin, mine.r[r].end);
    if (err == 0 && mine.n > 0)
        buf->members |= 1u << m;
    skmd_ranges_free(&mine);
    return err;
}

cl_int skmd_gather_run(struct skmd_gather *g, struct skmd_moved *moved)
{
    cl_int err = CL_SUCCESS;
    for (size_t i = 0; i < g->n; i++) {
        struct skmd_gather_buffer *buf = &g->buffers[i];
        /* One member alone fetches them as fast itself, without holding up the others. */
        if (err == CL_SUCCESS && __builtin_popcount(buf->members) >= 2) {
            uint64_t before = moved->to_host;
            skmd_buffer_lock(buf->root);
            for (size_t r = 0; r < buf->need.n && err == CL_SUCCESS; r++)
                err = skmd_coh_fetch(buf->root, SKMD_HOST, buf->need.r[r].begin,
                                     buf->need.r[r].end, moved);
            skmd_buffer_unlock(buf->root);
            skmd_log(SKMD_LOG_DEBUG, "gathered %llu bytes of buffer %p into the host copy "
                     "for %d members", (unsigned long long)(moved->to_host - before),
                     (void *)buf->root, __builtin_popcount(buf->members));
        }
        skmd_ranges_free(&buf->need);
    }
    free(g->buffers);
    *g = (struct skmd_gather){NULL, 0, 0};
    return err;
}
