/* libskmd/plan/launch_memo.c: see launch_memo.h. */
#include <stdatomic.h>

#include "support/hash.h"
#include "plan/launch_memo.h"

static atomic_uint_least64_t generation;

uint64_t skmd_launch_key(const struct skmd_kernel_record *rec, const struct skmd_launch *shape,
                         const struct skmd_arg *args, const int64_t *scalars,
                         const void *extra, size_t extra_size)
{
    uint64_t h = skmd_fnv(SKMD_FNV_BASIS, &rec, sizeof rec);
    h = skmd_fnv(h, &shape->work_dim, sizeof shape->work_dim);
    h = skmd_fnv(h, shape->global_offset, sizeof shape->global_offset);
    h = skmd_fnv(h, shape->global_size, sizeof shape->global_size);
    h = skmd_fnv(h, shape->local_size, sizeof shape->local_size);
    h = skmd_fnv(h, extra, extra_size);
    for (unsigned p = 0; p < rec->nparams; p++) {
        enum skmd_param_kind kind = rec->params[p].kind;
        cl_mem mem = args[p].mem;
        if ((kind == SKMD_PARAM_GLOBAL || kind == SKMD_PARAM_CONSTANT) && mem) {
            cl_mem root = mem->parent ? mem->parent : mem; /* no coherence.o in the tests */
            uint64_t at = mem->parent ? mem->origin : 0;
            h = skmd_fnv(h, &mem->size, sizeof mem->size);
            h = skmd_fnv(h, &root, sizeof root);
            h = skmd_fnv(h, &at, sizeof at);
        } else {
            h = skmd_fnv(h, &scalars[p], sizeof scalars[p]);
        }
    }
    return h;
}

void skmd_launch_memo_forget_all(void)
{
    atomic_fetch_add(&generation, 1);
}

int skmd_launch_memo_find(const struct skmd_launch_memo *m, uint64_t key, int64_t *value)
{
    if (m->generation != atomic_load(&generation))
        return 0;
    for (int i = 0; i < m->used; i++)
        if (m->key[i] == key) {
            *value = m->value[i];
            return 1;
        }
    return 0;
}

void skmd_launch_memo_keep(struct skmd_launch_memo *m, uint64_t key, int64_t value)
{
    uint64_t now = atomic_load(&generation);
    if (m->generation != now) {
        m->generation = now;
        m->used = m->next = 0;
    }
    for (int i = 0; i < m->used; i++)
        if (m->key[i] == key) {
            m->value[i] = value;
            return;
        }
    int slot = m->used < SKMD_LAUNCH_MEMO_SLOTS ? m->used++ : m->next;
    m->next = (slot + 1) % SKMD_LAUNCH_MEMO_SLOTS;
    m->key[slot] = key;
    m->value[slot] = value;
}
