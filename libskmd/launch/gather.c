/* libskmd/launch/gather.c: a split launch's inputs held off the host, taken into the host
 * copy at once for every share that needs them (see gather.h). */
#include <stdlib.h>

#include "launch/gather.h"
#include "mem/inflight.h"
#include "support/log.h"

static struct skmd_gather_buffer *find(const struct skmd_gather *g, cl_mem root)
{
    for (size_t i = 0; i < g->n; i++)
        if (g->buffers[i].root == root)
            return &g->buffers[i];
    return NULL;
}

static struct skmd_gather_buffer *find_or_add(struct skmd_gather *g, cl_mem root)
{
    struct skmd_gather_buffer *buf = find(g, root);
    if (buf)
        return buf;
    if (g->n == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 8;
        struct skmd_gather_buffer *grown = realloc(g->buffers, cap * sizeof *grown);
        if (!grown)
            return NULL;
        g->buffers = grown;
        g->cap = cap;
    }
    g->buffers[g->n] = (struct skmd_gather_buffer){root, {0, 0, NULL}, 0, 0};
    return &g->buffers[g->n++];
}

int skmd_gather_note(struct skmd_gather *g, cl_mem mem, int m, uint64_t b, uint64_t e)
{
    cl_mem root = skmd_mem_root(mem);
    struct skmd_gather_buffer *buf = find_or_add(g, root);
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

cl_int skmd_gather_take(struct skmd_gather *g, cl_mem mem, int m, struct skmd_moved *moved)
{
    struct skmd_gather_buffer *buf = find(g, skmd_mem_root(mem));
    /* One member alone fetches its bytes as fast itself. */
    if (!buf || buf->moved || !(buf->members & (1u << m)) ||
        __builtin_popcount(buf->members) < 2)
        return CL_SUCCESS;
    buf->moved = 1;
    uint64_t before = moved->to_host;
    cl_int err = CL_SUCCESS;
    for (size_t r = 0; r < buf->need.n && err == CL_SUCCESS; r++)
        err = skmd_coh_fetch(buf->root, SKMD_HOST, buf->need.r[r].begin, buf->need.r[r].end,
                             moved);
    skmd_log(SKMD_LOG_DEBUG, "gathered %llu bytes of buffer %p into the host copy for %d "
             "members", (unsigned long long)(moved->to_host - before), (void *)buf->root,
             __builtin_popcount(buf->members));
    return err;
}

void skmd_gather_free(struct skmd_gather *g)
{
    for (size_t i = 0; i < g->n; i++)
        skmd_ranges_free(&g->buffers[i].need);
    free(g->buffers);
    *g = (struct skmd_gather){NULL, 0, 0};
}
